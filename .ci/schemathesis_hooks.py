"""Schemathesis hooks for .ci/schemathesis.sh.

Two more things below: generated tax ids get valid check digits, and a check holds a
schema-valid charge's refusals to the rules no schema can state.

Keeps the webhook routes' traffic on this machine. `POST /webhook-endpoints/{id}/test` (and the
sender, after a resend) sends a request to the endpoint's URL, and schemathesis generates
those URLs: left alone, fuzzing would make pixgate resolve and connect to arbitrary hosts.
Just before each call, the host of every generated `endpointUrl` becomes 127.0.0.1, which
pixgate's egress refuses before connecting (a loopback address): nothing leaves the machine,
not even a DNS query. pixgate accepts only URLs that start with `https://` (in any case: the
match below ignores case too), so none escapes. Schemathesis judges the request as sent (it
revalidates a case a hook changed). The host names left out of the fuzzing this way are also
the one part of the URL rule the document's pattern cannot state (the IDNA rules).
"""

import re
import datetime
import unicodedata

import schemathesis

# `https://` and the host: a bracketed IPv6 address, or up to the port, path or query.
_HOST = re.compile(r"^(https://)(\[[^\]]*\]|[^/:?\[]+)", re.IGNORECASE)
_MAX_CHARS = 2048


# The URL fields of the bodies: a webhook endpoint's, and a provider's (whose routes make no
# request at all: there, the host's only fault could be the IDNA rules, `xn--` labels that do
# not decode, which the admin document's pattern cannot state either).
_URL_FIELDS = ("endpointUrl", "apiBaseUrl", "tokenUrl")


@schemathesis.hook
def before_call(context, case, kwargs):
    body = case.body
    if not isinstance(body, dict):
        return
    for field in _URL_FIELDS:
        if isinstance(body.get(field), str):
            url = _HOST.sub(r"\g<1>127.0.0.1", body[field], count=1)
            # A short host grew: trim the path or query so the URL stays as long as allowed.
            body[field] = url[:_MAX_CHARS]
    # A charge's payer (the merchant route's body, the evaluate route's `charge`, and each
    # charge of a batch).
    batch = body.get("charges")
    items = batch if isinstance(batch, list) else []
    for charge in (body, body.get("charge"), *items):
        payer = charge.get("payer") if isinstance(charge, dict) else None
        if isinstance(payer, dict) and isinstance(payer.get("taxId"), str):
            payer["taxId"] = with_check_digits(payer["taxId"])


def with_check_digits(tax_id):
    """The generated CPF or CNPJ with valid check digits: the one rule of `taxId` no schema can
    state (the document's pattern states its shape). Without this, nearly every generated
    charge would stop at `invalid_tax_id`, and no rule checked after it (the email, the phone,
    metadata's size) would ever be fuzzed. The punctuation is dropped; anything that is not the
    pattern's shape is left as generated (a negative case stays one)."""
    bare = re.sub(r"[./ -]", "", tax_id).upper()
    if re.fullmatch(r"[0-9]{11}", bare):
        body = bare[:9]
        if len(set(body)) == 1:  # all-equal digit strings are invalid whatever their digits
            body = ("1" if body[0] != "1" else "2") + body[1:]
        for n in (9, 10):
            total = sum(int(c) * w for c, w in zip(body, range(n + 1, 1, -1)))
            body += str(total * 10 % 11 % 10)
        return body
    if re.fullmatch(r"[0-9A-Z]{12}[0-9]{2}", bare):
        body = bare[:12]
        if len(set(body)) == 1:
            body = ("1" if body[0] != "1" else "2") + body[1:]
        weights = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
        for n in (12, 13):
            total = sum((ord(c) - 48) * w for c, w in zip(body, weights[13 - n:]))
            body += str(0 if total % 11 < 2 else 11 - total % 11)
        return body
    return tax_id


# The codes of the refusals a charge that its document allows may still meet, each for a rule
# no JSON Schema can state; the run expects 400 on the charge and evaluate routes only for
# them (schemathesis-merchant.toml, schemathesis-admin.toml), and this check holds every 400
# of a schema-valid charge to the list. Any other 400 (a metadata number, a NUL the document
# allows) is a rule the document should state, or a refusal that should not be.
_UNSTATEABLE = {
    # The check digits (set aside by the hook above, but a body schemathesis revalidated and
    # kept as generated still has its own).
    "invalid_tax_id",
    # An email's rules beyond `format: email` and the pattern: the local part's 64 characters
    # with its dot rules, which a pattern without look-ahead cannot bound at once.
    "invalid_email",
    # 16 KB of metadata as written: a size in bytes of a free-form object.
    "metadata_too_large",
    # The store's own rules, which its components apply to its configuration and gateways.
    "amount_above_store_limit",
    "amount_below_store_limit",
    "no_eligible_gateway",
    "no_acceptable_gateway",
    "invalid_store_config",
    "charge_refused",
    "unsupported_currency",
    # A due date not before today in Brasília: a bound that moves every day.
    "invalid_due_date",
}
# A due-date charge's rules that tie one field to another (DESIGN.md section 16), which a
# schema of each field alone cannot state: a value's bounds by the rule's `type` (a percentage
# is at most 100, a fixed abatement or discount below `amount`), a discount's `dates` against
# `dueDate` and each other, `value` or `dates` by the discount's type, and `dueDate` required
# once any other due-date field is given. The code must be the rule's and the field one of
# those; a rule's `type` (an enum) or an unknown member is never one of these.
_DUE_RULES = {"invalid_fine", "invalid_interest", "invalid_abatement", "invalid_discount"}


def _cross_field_due_rule(error):
    field = str(error.get("field") or "").removeprefix("charge.")
    code = error.get("code")
    if code == "missing_field":
        # `dueDate` once another due-date field is given; a discount's `dates` or `value` by
        # its type.
        return field in ("dueDate", "discount.dates", "discount.value")
    if code not in _DUE_RULES:
        return False
    return field.endswith(".value") or field.endswith(".date") or field in (
        "discount.dates", "discount.value"
    )
_CHARGE_ROUTES = {"POST /payments/charge", "POST /evaluate"}


@schemathesis.check
def charge_refusals_name_unstateable_rules(ctx, response, case):
    """A charge its document allows is refused (400) only for a rule no schema can state."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return None
    if case.operation.label not in _CHARGE_ROUTES or response.status_code != 400:
        return None
    try:
        error = response.json()["error"]
    except (ValueError, KeyError, TypeError):
        raise AssertionError("a 400 without the error envelope")
    if error.get("code") not in _UNSTATEABLE and not _cross_field_due_rule(error):
        raise AssertionError(
            f"a charge the document allows was refused with `{error.get('code')}` "
            f"(field `{error.get('field')}`): {error.get('message')}"
        )
    return None


# The refusals a mandate its document allows may still meet (DESIGN.md section 17), as
# (code, field) pairs; `None` as the field: any field. Each is a rule no JSON Schema of one
# field can state (see schemathesis-merchant.toml), or a charge's own unstateable rule (the
# first payment is a charge).
_MANDATE_UNSTATEABLE = {
    ("invalid_tax_id", "payer.taxId"),
    ("metadata_too_large", "metadata"),
    ("invalid_start_date", "startDate"),
    ("invalid_end_date", "endDate"),
    ("invalid_amount", "minimumAmount"),
    ("invalid_auto_charge", "autoCharge"),
    ("missing_field", "firstPayment"),
    ("missing_field", "payerAccount"),
    ("invalid_first_payment", "firstPayment"),
    ("invalid_payer_account", "payerAccount"),
}

# The refusals a charge under a mandate its document allows may still meet: the mandate's
# terms (its amount, its dates) and metadata's 16 KB.
_MANDATE_CHARGE_UNSTATEABLE = {
    ("invalid_amount", "amount"),
    ("missing_field", "amount"),
    ("invalid_due_date", "dueDate"),
    ("metadata_too_large", "metadata"),
}


@schemathesis.check
def mandate_refusals_name_unstateable_rules(ctx, response, case):
    """A mandate, or a charge under one, its document allows is refused (400) only for a rule
    no schema can state."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return None
    label = case.operation.label
    if label not in ("POST /mandates", "POST /mandates/{mandateId}/charges"):
        return None
    if response.status_code != 400:
        return None
    try:
        error = response.json()["error"]
    except (ValueError, KeyError, TypeError):
        raise AssertionError("a 400 without the error envelope")
    code, field = error.get("code"), error.get("field")
    allowed = _MANDATE_UNSTATEABLE if label == "POST /mandates" else _MANDATE_CHARGE_UNSTATEABLE
    # The store's rules (the chain, and a charge's) name no field.
    if (code, field) in allowed or (field is None and code in _UNSTATEABLE):
        return None
    raise AssertionError(
        f"a mandate the document allows was refused with `{code}` (field `{field}`): "
        f"{error.get('message')}"
    )


# The operator names pixgate keeps for itself (host/src/access.rs: RESERVED_NAMES and
# RESERVED_WORDS), compared in the same folded form: NFKC, lower case, runs of spaces as one.
# Compatibility folding is the part no JSON Schema pattern can state (a full-width `ａｄｍｉｎ`
# is `admin`), so the admin document describes the rule in words and this check holds a
# schema-valid name's 400 to it.
_RESERVED_NAMES = {
    "admin", "administrator", "root", "system", "pixgate", "kill switch", "viewer", "tester",
    "operator",
}
_RESERVED_WORDS = ("bootstrap", "admin token")


def _name_key(name):
    return " ".join(unicodedata.normalize("NFKC", name).lower().split())


def _is_reserved(name):
    key = _name_key(name)
    return key in _RESERVED_NAMES or any(word in key for word in _RESERVED_WORDS)


@schemathesis.check
def operator_names_refused_only_when_reserved(ctx, response, case):
    """An operator its document allows is refused (400) only for a reserved name."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return None
    if case.operation.label != "POST /operators" or response.status_code != 400:
        return None
    try:
        error = response.json()["error"]
    except (ValueError, KeyError, TypeError):
        raise AssertionError("a 400 without the error envelope")
    name = case.body.get("name") if isinstance(case.body, dict) else None
    if error.get("code") != "invalid_name" or not isinstance(name, str) or not _is_reserved(name):
        raise AssertionError(
            f"an operator the document allows was refused with `{error.get('code')}` "
            f"(field `{error.get('field')}`): {error.get('message')}"
        )
    return None


@schemathesis.check
def replay_windows_refused_only_when_reversed(ctx, response, case):
    """A replay its document allows is refused (400) only when `until` is before `since`."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return None
    if case.operation.label != "POST /replays" or response.status_code != 400:
        return None
    try:
        error = response.json()["error"]
    except (ValueError, KeyError, TypeError):
        raise AssertionError("a 400 without the error envelope")
    body = case.body if isinstance(case.body, dict) else {}
    reversed_window = False
    try:
        since = datetime.datetime.fromisoformat(str(body["since"]).replace("Z", "+00:00"))
        until = datetime.datetime.fromisoformat(str(body["until"]).replace("Z", "+00:00"))
        reversed_window = until < since
    except (KeyError, ValueError, TypeError):
        pass
    if error.get("code") != "invalid_replay" or error.get("field") != "until" or not reversed_window:
        raise AssertionError(
            f"a replay the document allows was refused with `{error.get('code')}` "
            f"(field `{error.get('field')}`): {error.get('message')}"
        )
    return None


@schemathesis.serializer("application/wasm")
def wasm(ctx, value):
    """A component upload is raw bytes: what schemathesis generates for `format: binary`."""
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    return str(value).encode()
