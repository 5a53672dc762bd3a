"""Schemathesis hooks for .ci/schemathesis.sh.

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


@schemathesis.serializer("application/wasm")
def wasm(ctx, value):
    """A component upload is raw bytes: what schemathesis generates for `format: binary`."""
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    return str(value).encode()
