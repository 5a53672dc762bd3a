"""Verifying pixgate's webhook deliveries (and signing test ones for the merchant's own tests).

A delivery's signature is `X-Service-Signature: v1=<hex HMAC-SHA256>` over
`<X-Service-Timestamp>.<raw body>` with the endpoint's signing secret; the timestamp is Unix
seconds, digits only, and one more than `tolerance` seconds away from now is refused (a
replayed delivery). Verify the raw bytes as received: a body parsed and serialised again is
not the body that was signed.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import Any, Dict, Mapping, Optional, Union

__all__ = ["WebhookVerificationError", "verify", "sign"]

SIGNATURE_HEADER = "X-Service-Signature"
TIMESTAMP_HEADER = "X-Service-Timestamp"


class WebhookVerificationError(Exception):
    """The delivery is not pixgate's, or is too old: answer it 400 and do nothing else."""


def _header(headers: Mapping[str, str], name: str) -> Optional[str]:
    lowered = name.lower()
    for key, value in headers.items():
        if key.lower() == lowered:
            return value
    return None


def _digest(body: bytes, secret: str, timestamp: str) -> str:
    return hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()


def verify(
    body: Union[bytes, str],
    headers: Mapping[str, str],
    secret: str,
    tolerance: int = 300,
    *,
    now: Optional[float] = None,
) -> Any:
    """Checks a delivery and returns its event (the parsed JSON body).

    Raises WebhookVerificationError when a header is missing, the timestamp is not digits or
    is more than `tolerance` seconds from now, or the signature does not match (compared in
    constant time).
    """
    raw = body.encode() if isinstance(body, str) else bytes(body)
    timestamp = _header(headers, TIMESTAMP_HEADER)
    signature = _header(headers, SIGNATURE_HEADER)
    if timestamp is None or signature is None:
        raise WebhookVerificationError("missing X-Service-Timestamp or X-Service-Signature")
    if not (timestamp.isascii() and timestamp.isdigit()) or len(timestamp) > 19:
        raise WebhookVerificationError("the timestamp is not Unix seconds in digits")
    current = time.time() if now is None else now
    if abs(current - int(timestamp)) > tolerance:
        raise WebhookVerificationError("the timestamp is outside the tolerance")
    if not signature.startswith("v1="):
        raise WebhookVerificationError("the signature is not v1=<hex>")
    expected = _digest(raw, secret, timestamp)
    if not hmac.compare_digest(expected.encode(), signature[3:].lower().encode()):
        raise WebhookVerificationError("the signature does not match")
    try:
        return json.loads(raw)
    except ValueError as error:
        raise WebhookVerificationError("the body is not JSON") from error


def sign(body: Union[bytes, str], secret: str, timestamp: Optional[int] = None) -> Dict[str, str]:
    """The headers pixgate would send with `body`: for a merchant's tests of their receiver."""
    raw = body.encode() if isinstance(body, str) else bytes(body)
    stamp = str(int(time.time()) if timestamp is None else timestamp)
    return {TIMESTAMP_HEADER: stamp, SIGNATURE_HEADER: "v1=" + _digest(raw, secret, stamp)}
