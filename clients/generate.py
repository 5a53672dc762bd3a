"""Writes the clients' typed layer from the merchant API's OpenAPI document.

    python3 clients/generate.py            # rewrite the generated files from clients/openapi.json
    python3 clients/generate.py --check    # exit 1 when they are not what it would write

Out: `clients/python/pixgate/_generated.py` (a TypedDict or Literal per schema, a class per
resource with a method per operation) and `clients/typescript/src/generated.ts` (an interface
or union type per schema, the same classes). The hand-written part of each client (the
transport with its retries and Idempotency-Keys, the errors, webhooks) calls nothing the
document does not name.

Why our own small template and not an off-the-shelf generator: DESIGN.md section 20 fixes a
surface (`client.payments.charge(body, idempotency_key=None)`, lists as iterators over every
page, keyed creates retried with one key) that none of them produces, and the well-kept ones
bring what section 20 rules out (openapi-python-client: attrs and its own runtime;
openapi-generator: a JVM, absent from the registries here; openapi-typescript: types only, the
half this script writes in a few lines). Every operation must have a name in OPERATIONS below: a
new route in the server makes this script fail until it is given one, so the clients cover
every merchant operation.
"""

from __future__ import annotations

import json
import keyword
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SPEC = HERE / "openapi.json"
PYTHON_OUT = HERE / "python" / "pixgate" / "_generated.py"
TYPESCRIPT_OUT = HERE / "typescript" / "src" / "generated.ts"

# operationId -> (resource, method). A list (GET with `limit` and a cursor) becomes an
# iterator over every page.
OPERATIONS = {
    "charge": ("payments", "charge"),
    "get_payment": ("payments", "get"),
    "amount_due": ("payments", "amount_due"),
    "cancel_payment": ("payments", "cancel"),
    "search_payments": ("payments", "list"),
    "create_refund": ("refunds", "create"),
    "list_refunds": ("refunds", "list"),
    "get_refund": ("refunds", "get"),
    "create_mandate": ("mandates", "create"),
    "search_mandates": ("mandates", "list"),
    "get_mandate": ("mandates", "get"),
    "cancel_mandate": ("mandates", "cancel"),
    "charge_mandate": ("mandates", "charge"),
    "create_batch": ("charge_batches", "create"),
    "get_batch": ("charge_batches", "get"),
    "list_settlements": ("settlements", "list"),
    "create_endpoint": ("webhook_endpoints", "create"),
    "list_endpoints": ("webhook_endpoints", "list"),
    "test_endpoint": ("webhook_endpoints", "test"),
    "revoke_endpoint": ("webhook_endpoints", "revoke"),
    "enable_endpoint": ("webhook_endpoints", "enable"),
    "list_deliveries": ("webhook_endpoints", "deliveries"),
    "resend_delivery": ("webhook_endpoints", "resend"),
}
RESOURCE_DOCS = {
    "payments": "Charges (immediate and with a due date): create, read, cancel, search.",
    "refunds": "Refunds (devoluções) of a paid charge.",
    "mandates": "Pix Automático: the payer's standing authorisation and the charges under it.",
    "charge_batches": "Many charges in one request.",
    "settlements": "What each PSP paid out, for the merchant's books.",
    "webhook_endpoints": "Where pixgate sends the merchant's signed events, and how each went.",
}
# A list's cursor is the id of the previous page's last item: which field that is.
PAGE_IDS = {
    "search_payments": "paymentIntentId",
    "search_mandates": "mandateId",
    "list_endpoints": "endpointId",
    "list_deliveries": "deliveryId",
}
METHODS = ("get", "post", "put", "patch", "delete")


def camel(name):
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def snake(name):
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def py_name(name):
    """A parameter's Python name: snake_case, a keyword (`from`) with a trailing underscore."""
    name = snake(name)
    return name + "_" if keyword.iskeyword(name) else name


def pascal(name):
    return "".join(part.title() for part in name.split("_"))


def ref_name(ref):
    return ref.rsplit("/", 1)[1]


def one_line(text):
    return " ".join((text or "").split())


def wrap(text, width, prefix):
    words, lines, line = one_line(text).split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return [prefix + text for text in lines]


class Document:
    def __init__(self, doc):
        self.doc = doc
        self.schemas = doc.get("components", {}).get("schemas", {})
        self.operations = []
        for path, item in doc["paths"].items():
            for method in METHODS:
                if method in item:
                    self.operations.append(self.operation(path, method, item[method]))
        names = {op["id"] for op in self.operations}
        unnamed = sorted(names - OPERATIONS.keys())
        if unnamed:
            sys.exit(f"generate: give these operations a name in OPERATIONS: {', '.join(unnamed)}")
        gone = sorted(OPERATIONS.keys() - names)
        if gone:
            sys.exit(f"generate: OPERATIONS names operations the document lacks: {', '.join(gone)}")

    def operation(self, path, method, op):
        params = op.get("parameters", [])
        query = [p for p in params if p["in"] == "query"]
        cursor = next((p["name"] for p in query if p["name"] in ("after", "before")), None)
        paged = method == "get" and cursor is not None and any(p["name"] == "limit" for p in query)
        body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
        answer = None
        for status, response in sorted(op.get("responses", {}).items()):
            if status.startswith("2"):
                schema = response.get("content", {}).get("application/json", {}).get("schema")
                answer = self.data_schema(schema)
                break
        item = None
        if paged and answer is not None:
            item = self.resolve(answer).get("items")
        return {
            "id": op["operationId"], "path": path, "method": method.upper(),
            "summary": op.get("summary") or op.get("description", ""),
            "path_params": [p for p in params if p["in"] == "path"],
            "query": [p for p in query if not (paged and p["name"] == cursor)],
            "keyed": any(p["in"] == "header" and p["name"].lower() == "idempotency-key" for p in params),
            "body": body, "body_required": op.get("requestBody", {}).get("required", False),
            "answer": item if paged else answer, "paged": paged, "cursor": cursor,
            "limit_default": next((p.get("schema", {}).get("default") for p in query if p["name"] == "limit"), None),
        }

    def resolve(self, schema):
        while isinstance(schema, dict) and "$ref" in schema:
            schema = self.schemas[ref_name(schema["$ref"])]
        return schema or {}

    def data_schema(self, schema):
        """The envelope's `data` (every 2xx is `{success, data}`)."""
        resolved = self.resolve(schema)
        data = resolved.get("properties", {}).get("data")
        return data if data is not None else schema

    def id_field(self, op):
        name = PAGE_IDS.get(op["id"])
        if name is None or name not in self.resolve(op["answer"]).get("properties", {}):
            sys.exit(f"generate: PAGE_IDS must name the id field of {op['id']}'s items")
        return name


# ---------------------------------------------------------------------------------------------
# Python


def py_type(schema, doc):
    if schema is None:
        return "Any"
    if "$ref" in schema:
        return ref_name(schema["$ref"])
    for key in ("oneOf", "anyOf"):
        if key in schema:
            parts = [py_type(s, doc) for s in schema[key]]
            nullable = "None" in parts
            parts = [p for p in dict.fromkeys(parts) if p != "None"]
            inner = parts[0] if len(parts) == 1 else f"Union[{', '.join(parts)}]"
            return f"Optional[{inner}]" if nullable else inner
    if "allOf" in schema and len(schema["allOf"]) == 1:
        return py_type(schema["allOf"][0], doc)
    if "enum" in schema:
        values = [v for v in schema["enum"] if v is not None]
        inner = f"Literal[{', '.join(json.dumps(v) for v in values)}]"
        return f"Optional[{inner}]" if None in schema["enum"] else inner
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    nullable = "null" in kinds
    kinds = [k for k in kinds if k != "null"]
    base = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}
    if not kinds:
        inner = "None" if nullable else "Any"
        return inner
    k = kinds[0]
    if k == "array":
        inner = f"List[{py_type(schema.get('items'), doc)}]"
    elif k == "object":
        extra = schema.get("additionalProperties")
        inner = f"Dict[str, {py_type(extra, doc) if isinstance(extra, dict) else 'Any'}]"
    else:
        inner = base.get(k, "Any")
    return f"Optional[{inner}]" if nullable else inner


def optional(annotation):
    return annotation if annotation.startswith("Optional[") else f"Optional[{annotation}]"


def python(document):
    doc = document
    out = [
        '"""The merchant API\'s types and operations, generated by clients/generate.py from',
        "clients/openapi.json: do not edit; run `python3 clients/generate.py` after the document",
        'changes."""',
        "",
        "# ruff: noqa: E501",
        "from __future__ import annotations",
        "",
        "from typing import Any, Dict, Iterator, List, Literal, Optional, TypedDict, Union, cast",
        "from urllib.parse import quote",
        "",
        "from ._transport import Transport",
        "",
        "",
        "def _path(value: Any) -> str:",
        '    return quote(str(value), safe="")',
    ]
    for name, schema in doc.schemas.items():
        out += ["", ""]
        props = schema.get("properties")
        if schema.get("type") == "object" or props:
            required = schema.get("required", [])
            fields = props or {}
            functional = any(keyword.iskeyword(f) or not f.isidentifier() for f in fields)
            if functional:
                items = ", ".join(f"{json.dumps(f)}: {json.dumps(py_type(s, doc))}" for f, s in fields.items())
                out.append(f"{name} = TypedDict({json.dumps(name)}, {{{items}}}, total=False)")
                continue
            out.append(f"class {name}(TypedDict, total=False):")
            text = one_line(schema.get("description", ""))
            doc_lines = wrap(text, 92, "    ") if text else []
            if required:
                doc_lines += [""] if doc_lines else []
                doc_lines += wrap("Always present (a response) or required (a request): " + ", ".join(required) + ".", 92, "    ")
            if doc_lines:
                doc_lines[0] = '    """' + doc_lines[0].lstrip()
                out += doc_lines
                out.append('    """')
                out.append("")
            if not fields:
                out.append("    pass")
            for field, s in fields.items():
                out.append(f"    {field}: {py_type(s, doc)}")
        else:
            out.append(f"{name} = {py_type(schema, doc)}")
    resources = {}
    for op in doc.operations:
        resource, method = OPERATIONS[op["id"]]
        resources.setdefault(resource, []).append((method, op))
    for resource, methods in resources.items():
        out += ["", "", f"class {pascal(resource)}:", f'    """{RESOURCE_DOCS[resource]}"""', "",
                "    def __init__(self, transport: Transport) -> None:", "        self._t = transport"]
        for method, op in methods:
            args = ["self"] + [f"{py_name(p['name'])}: str" for p in op["path_params"]]
            if op["body"] is not None:
                body_type = py_type(op["body"], doc)
                args.append(f"body: {body_type}" if op["body_required"] else f"body: {optional(body_type)} = None")
            kw = []
            if op["keyed"]:
                kw.append("idempotency_key: Optional[str] = None")
            for p in op["query"]:
                kw.append(f"{py_name(p['name'])}: {optional(py_type(p.get('schema'), doc))} = None")
            if kw:
                args += ["*"] + kw
            answer = py_type(op["answer"], doc) if op["answer"] is not None else "None"
            returns = f"Iterator[{answer}]" if op["paged"] else answer
            out += ["", f"    def {method}(", *[f"        {a}," for a in args], f"    ) -> {returns}:"]
            summary = one_line(op["summary"]).rstrip(".")
            lines = wrap(f"{op['method']} {op['path']}: {summary}.", 88, "        ")
            if op["paged"]:
                lines += wrap("An iterator over every item, page after page; `limit` is the page size.", 88, "        ")
            if op["keyed"]:
                lines += wrap("Retried with one Idempotency-Key: `idempotency_key`, or one made for this call.", 88, "        ")
            lines[0] = '        """' + lines[0].lstrip()
            out += lines + ['        """']
            path = op["path"]
            for p in op["path_params"]:
                path = path.replace("{" + p["name"] + "}", "{_path(" + py_name(p["name"]) + ")}")
            path_expr = f'f"{path}"' if op["path_params"] else json.dumps(path)
            query = "{" + ", ".join(f'"{p["name"]}": {py_name(p["name"])}' for p in op["query"]) + "}"
            if op["paged"]:
                item_id = doc.id_field(op)
                out.append(f'        return self._t.pages({path_expr}, {query}, "{op["cursor"]}", "{item_id}", {op["limit_default"] or 20})')
            else:
                call = [json.dumps(op["method"]), path_expr]
                if op["query"]:
                    call.append(f"params={query}")
                if op["body"] is not None:
                    call.append("body=body")
                if op["keyed"]:
                    call += ["idempotency_key=idempotency_key", "keyed=True"]
                if answer == "None":
                    out.append(f"        self._t.request({', '.join(call)})")
                else:
                    out.append(f"        return cast({json.dumps(answer)}, self._t.request({', '.join(call)}))")
    out += ["", "", "RESOURCES = {", *[f'    "{r}": {pascal(r)},' for r in resources], "}", ""]
    text = "\n".join(out)
    names = ["Any", "Dict", "Iterator", "List", "Literal", "Optional", "TypedDict", "Union", "cast"]
    used = [n for n in names if re.search(rf"\b{n}\b", text.split("from ._transport", 1)[1])]
    return text.replace("from typing import " + ", ".join(names), "from typing import " + ", ".join(used))


# ---------------------------------------------------------------------------------------------
# TypeScript


def ts_type(schema):
    if schema is None:
        return "unknown"
    if "$ref" in schema:
        return ref_name(schema["$ref"])
    for key in ("oneOf", "anyOf"):
        if key in schema:
            parts = list(dict.fromkeys(ts_type(s) for s in schema[key]))
            return " | ".join(parts)
    if "allOf" in schema:
        return " & ".join(ts_type(s) for s in schema["allOf"])
    if "enum" in schema:
        return " | ".join("null" if v is None else json.dumps(v) for v in schema["enum"])
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    parts = []
    for k in kinds:
        if k == "array":
            inner = ts_type(schema.get("items"))
            parts.append(f"Array<{inner}>")
        elif k == "object":
            if schema.get("properties"):
                parts.append(ts_object(schema, ""))
            else:
                extra = schema.get("additionalProperties")
                parts.append(f"Record<string, {ts_type(extra) if isinstance(extra, dict) else 'unknown'}>")
        elif k is None:
            parts.append("unknown")
        else:
            parts.append({"string": "string", "integer": "number", "number": "number",
                          "boolean": "boolean", "null": "null"}.get(k, "unknown"))
    return " | ".join(parts)


def comment(text):
    return text.replace("*/", "*\\/")


def ts_object(schema, indent):
    required = set(schema.get("required", []))
    lines = ["{"]
    for field, s in schema.get("properties", {}).items():
        text = one_line(s.get("description", ""))
        if text:
            lines.append(f"{indent}  /** {comment(text)} */")
        key = field if re.match(r"^[A-Za-z_$][A-Za-z0-9_$]*$", field) else json.dumps(field)
        lines.append(f"{indent}  {key}{'' if field in required else '?'}: {ts_type(s)};")
    lines.append(f"{indent}}}")
    return "\n".join(lines)


def typescript(document):
    doc = document
    out = [
        "// The merchant API's types and operations, generated by clients/generate.py from",
        "// clients/openapi.json: do not edit; run `python3 clients/generate.py` after the document",
        "// changes.",
        "/* eslint-disable */",
        'import type { Transport } from "./transport.js";',
        "",
        "const path = (value: string): string => encodeURIComponent(value);",
        "",
    ]
    for name, schema in doc.schemas.items():
        text = one_line(schema.get("description", ""))
        if text:
            out.append(f"/** {comment(text)} */")
        if schema.get("type") == "object" and schema.get("properties") is not None:
            out.append(f"export interface {name} {ts_object(schema, '')}")
        else:
            out.append(f"export type {name} = {ts_type(schema)};")
        out.append("")
    resources = {}
    for op in doc.operations:
        resource, method = OPERATIONS[op["id"]]
        resources.setdefault(resource, []).append((method, op))
    for resource, methods in resources.items():
        out += [f"/** {RESOURCE_DOCS[resource]} */", f"export class {pascal(resource)} {{",
                "  readonly #t: Transport;", "", "  constructor(transport: Transport) {",
                "    this.#t = transport;", "  }"]
        for method, op in methods:
            args = [f"{camel(snake(p['name']))}: string" for p in op["path_params"]]
            if op["body"] is not None:
                args.append(f"body{'' if op['body_required'] else '?'}: {ts_type(op['body'])}")
            options = []
            if op["keyed"]:
                options.append("idempotencyKey?: string")
            for p in op["query"]:
                options.append(f"{p['name']}?: {ts_type(p.get('schema'))}")
            if options:
                args.append(f"options: {{ {'; '.join(options)} }} = {{}}")
            answer = ts_type(op["answer"]) if op["answer"] is not None else "void"
            summary = one_line(op["summary"]).rstrip(".")
            notes = [f"{op['method']} {op['path']}: {summary}."]
            if op["paged"]:
                notes.append("Every item, page after page (`for await`); `limit` is the page size.")
            if op["keyed"]:
                notes.append("Retried with one Idempotency-Key: `idempotencyKey`, or one made for this call.")
            out += ["", "  /**", *[f"   * {text}" for note in notes for text in wrap(note, 90, "")], "   */"]
            path = op["path"]
            for p in op["path_params"]:
                path = path.replace("{" + p["name"] + "}", "${path(" + camel(snake(p["name"])) + ")}")
            path_expr = f"`{path}`"
            query = "{ " + ", ".join(f"{p['name']}: options.{p['name']}" for p in op["query"]) + " }"
            if op["paged"]:
                item_id = doc.id_field(op)
                out += [f"  {camel(method)}({', '.join(args)}): AsyncGenerator<{answer}, void, undefined> {{",
                        f'    return this.#t.pages<{answer}>({path_expr}, {query}, "{op["cursor"]}", "{item_id}", {op["limit_default"] or 20});',
                        "  }"]
            else:
                opts = []
                if op["query"]:
                    opts.append(f"query: {query}")
                if op["body"] is not None:
                    opts.append("body")
                if op["keyed"]:
                    opts += ["idempotencyKey: options.idempotencyKey", "keyed: true"]
                extra = f", {{ {', '.join(opts)} }}" if opts else ""
                out += [f"  {camel(method)}({', '.join(args)}): Promise<{answer}> {{",
                        f'    return this.#t.request<{answer}>("{op["method"]}", {path_expr}{extra});', "  }"]
        out += ["}", ""]
    out += ["/** The resources, as the client's properties. */", "export interface Resources {",
            *[f"  {camel(r)}: {pascal(r)};" for r in resources], "}", "",
            "export function resources(transport: Transport): Resources {", "  return {",
            *[f"    {camel(r)}: new {pascal(r)}(transport)," for r in resources], "  };", "}", ""]
    return "\n".join(out)


def main(argv):
    check = "--check" in argv[1:]
    document = Document(json.loads(SPEC.read_text()))
    wanted = {PYTHON_OUT: python(document), TYPESCRIPT_OUT: typescript(document)}
    stale = [path for path, text in wanted.items() if not path.exists() or path.read_text() != text]
    if check:
        for path in stale:
            print(f"generate: {path.relative_to(HERE.parent)} is not what clients/generate.py writes from clients/openapi.json: run it and commit the result", file=sys.stderr)
        return 1 if stale else 0
    for path in stale:
        path.write_text(wanted[path])
        print(f"generate: wrote {path.relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
