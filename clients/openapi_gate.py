"""The merchant API's breaking-change gate.

    python3 clients/openapi_gate.py OLD.json NEW.json
    python3 clients/openapi_gate.py --self-test

Lists what NEW takes away from a client written against OLD, and exits 1 when there is any:
an operation or a parameter removed, a parameter or request field newly required, a response
field removed, a type changed, an enum value dropped. Additions (a new operation, an optional
parameter, a response field, an enum value) pass. `.ci/clients.sh` runs it between the
snapshot before and after the last commit that changed `clients/openapi.json`, and accepts a
breaking change only when that commit also adds a note to CHANGELOG.md.
"""

from __future__ import annotations

import json
import sys

METHODS = ("get", "put", "post", "delete", "patch")


def resolve(doc, schema):
    seen = set()
    while isinstance(schema, dict) and "$ref" in schema and schema["$ref"] not in seen:
        seen.add(schema["$ref"])
        schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema or {}


def types(schema):
    kind = schema.get("type")
    if kind is None:
        return None
    return frozenset(kind if isinstance(kind, list) else [kind])


def variants(schema):
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return schema[key]
    return None


def compare(old_doc, old, new_doc, new, where, direction, out, depth=0):
    """direction: 'response' (the server sends it) or 'request' (the client sends it)."""
    if depth > 12:
        return
    old, new = resolve(old_doc, old), resolve(new_doc, new)
    old_types, new_types = types(old), types(new)
    if old_types and new_types and old_types != new_types:
        # A response may stop being null; a request may start accepting null.
        lost = old_types - new_types if direction == "request" else new_types - old_types
        if lost or (old_types - {"null"}) != (new_types - {"null"}):
            out.append(f"{where}: type {sorted(old_types)} became {sorted(new_types)}")
            return
    if "enum" in old:
        # A value dropped either way: a client may send it, or branch on it, as documented.
        dropped = [v for v in old["enum"] if v not in new.get("enum", old["enum"])]
        if dropped:
            out.append(f"{where}: enum value(s) {dropped} dropped")
    old_props, new_props = old.get("properties", {}), new.get("properties", {})
    for name, schema in old_props.items():
        if name not in new_props:
            if direction == "response":
                out.append(f"{where}.{name}: removed")
            elif not new.get("additionalProperties", False):
                out.append(f"{where}.{name}: no longer accepted")
            continue
        compare(old_doc, schema, new_doc, new_props[name], f"{where}.{name}", direction, out, depth + 1)
    if direction == "request":
        for name in set(new.get("required", [])) - set(old.get("required", [])):
            out.append(f"{where}.{name}: newly required")
    else:
        for name in set(old.get("required", [])) - set(new.get("required", [])):
            if name in new_props:
                out.append(f"{where}.{name}: no longer always present")
    if "items" in old and "items" in new:
        compare(old_doc, old["items"], new_doc, new["items"], f"{where}[]", direction, out, depth + 1)
    old_variants, new_variants = variants(old), variants(new)
    if old_variants and new_variants and direction == "request" and len(new_variants) < len(old_variants):
        out.append(f"{where}: {len(old_variants) - len(new_variants)} accepted shape(s) dropped")


def body_schema(operation, kind):
    if kind == "request":
        content = operation.get("requestBody", {}).get("content", {})
        return content.get("application/json", {}).get("schema")
    for status, answer in operation.get("responses", {}).items():
        if status.startswith("2"):
            return answer.get("content", {}).get("application/json", {}).get("schema")
    return None


def breaking(old_doc, new_doc):
    out = []
    for path, old_item in old_doc.get("paths", {}).items():
        new_item = new_doc.get("paths", {}).get(path)
        for method in METHODS:
            if method not in old_item:
                continue
            name = f"{method.upper()} {path}"
            if not new_item or method not in new_item:
                out.append(f"{name}: removed")
                continue
            old_op, new_op = old_item[method], new_item[method]
            old_params = {(p["in"], p["name"]): p for p in old_op.get("parameters", [])}
            new_params = {(p["in"], p["name"]): p for p in new_op.get("parameters", [])}
            for key, param in old_params.items():
                if key not in new_params:
                    out.append(f"{name} {key[0]} parameter {key[1]}: removed")
                    continue
                compare(old_doc, param.get("schema", {}), new_doc, new_params[key].get("schema", {}),
                        f"{name} {key[0]} parameter {key[1]}", "request", out)
            for key, param in new_params.items():
                if param.get("required") and (key not in old_params or not old_params[key].get("required")):
                    out.append(f"{name} {key[0]} parameter {key[1]}: newly required")
            for kind in ("request", "response"):
                old_schema, new_schema = body_schema(old_op, kind), body_schema(new_op, kind)
                if old_schema is None:
                    if kind == "request" and new_schema is not None and new_op["requestBody"].get("required"):
                        out.append(f"{name}: a request body is now required")
                    continue
                if new_schema is None:
                    out.append(f"{name}: {kind} body removed")
                    continue
                compare(old_doc, old_schema, new_doc, new_schema, f"{name} {kind}", kind, out)
    return sorted(set(out))


def self_test():
    """Each kind of change on a small document: the breaking ones found, the additions not."""
    def doc(item_props, required=("id",), params=(), enum=("A", "B")):
        return {
            "paths": {"/things": {"get": {
                "parameters": [{"in": "query", "name": n, "required": r, "schema": {"type": "string"}} for n, r in params],
                "responses": {"200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}}},
            }, "post": {
                "requestBody": {"required": True, "content": {"application/json": {"schema": {
                    "type": "object", "required": list(required), "properties": {
                        "id": {"type": "string"}, "kind": {"type": "string", "enum": list(enum)}}}}}},
                "responses": {"201": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}}},
            }}},
            "components": {"schemas": {"Thing": {"type": "object", "required": ["id"], "properties": item_props}}},
        }
    base_props = {"id": {"type": "string"}, "amount": {"type": "number"}}
    base = doc(base_props, params=[("store", False)])
    cases = [
        ("nothing changed", base, False),
        ("a response field added", doc({**base_props, "note": {"type": "string"}}, params=[("store", False)]), False),
        ("an optional parameter added", doc(base_props, params=[("store", False), ("after", False)]), False),
        ("an enum value added", doc(base_props, params=[("store", False)], enum=("A", "B", "C")), False),
        ("a response field removed", doc({"id": {"type": "string"}}, params=[("store", False)]), True),
        ("a type changed", doc({"id": {"type": "string"}, "amount": {"type": "string"}}, params=[("store", False)]), True),
        ("a response field made nullable", doc({"id": {"type": "string"}, "amount": {"type": ["number", "null"]}}, params=[("store", False)]), True),
        ("an enum value dropped", doc(base_props, params=[("store", False)], enum=("A",)), True),
        ("a parameter removed", doc(base_props), True),
        ("a parameter made required", doc(base_props, params=[("store", True)]), True),
        ("a request field made required", doc(base_props, required=("id", "kind"), params=[("store", False)]), True),
        ("an operation removed", {**base, "paths": {"/things": {"get": base["paths"]["/things"]["get"]}}}, True),
    ]
    failed = 0
    for name, new, expected in cases:
        found = breaking(base, new)
        if bool(found) != expected:
            failed += 1
            print(f"self-test: {name}: expected {'breaking' if expected else 'compatible'}, found {found}")
    print(f"self-test: {len(cases) - failed} of {len(cases)} cases as expected")
    return 1 if failed else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    old_doc, new_doc = (json.load(open(p)) for p in argv[1:3])
    found = breaking(old_doc, new_doc)
    for line in found:
        print(f"breaking: {line}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
