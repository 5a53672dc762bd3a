"""Errors: one class per status family, each carrying pixgate's error envelope."""

from __future__ import annotations

from typing import Any, Optional, Type

__all__ = [
    "PixgateError",
    "InvalidRequestError",
    "AuthenticationError",
    "ForbiddenError",
    "NotFoundError",
    "ConflictError",
    "RateLimitError",
    "ServerError",
    "ConnectionError",
]


class PixgateError(Exception):
    """An answer that was not a 2xx, or no answer at all (`ConnectionError`, status 0).

    `code` is the envelope's stable snake_case code (program against it, not the message),
    `field` the field at fault when one is, `request_id` the request's `X-Request-Id`.
    The text never holds the API key: it is built from the answer alone.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int = 0,
        code: Optional[str] = None,
        field: Optional[str] = None,
        request_id: Optional[str] = None,
        retry_after: Optional[float] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.field = field
        self.request_id = request_id
        self.retry_after = retry_after

    def __str__(self) -> str:
        parts = [f"{self.status} {self.code}" if self.code else str(self.status), self.message]
        if self.field:
            parts.append(f"field {self.field}")
        if self.request_id:
            parts.append(f"request {self.request_id}")
        return ": ".join(parts[:2]) + "".join(f" ({p})" for p in parts[2:])


class InvalidRequestError(PixgateError):
    """400 (and 408, 413, 415, 422): the request breaks a rule; `field` names where."""


class AuthenticationError(PixgateError):
    """401: no valid API key."""


class ForbiddenError(PixgateError):
    """403: the key may not do this (a scope, a store not granted, LIVE disabled)."""


class NotFoundError(PixgateError):
    """404: nothing the key may see is there."""


class ConflictError(PixgateError):
    """409: the state forbids it (a reused key with another body, a payment not cancelable...)."""


class RateLimitError(PixgateError):
    """429: over the key's rate limit; `retry_after` is the server's `Retry-After` in seconds."""


class ServerError(PixgateError):
    """5xx: a temporary failure (a component or the PSP unavailable); retried with the same key."""


class ConnectionError(PixgateError):  # noqa: A001 (the name DESIGN section 20 gives it)
    """No answer: the connection failed, was dropped or timed out (status 0)."""


def error_for(status: int, body: Any, request_id: Optional[str], retry_after: Optional[float]) -> PixgateError:
    """The error for an answer with this status and (parsed JSON, or None) body."""
    envelope = body.get("error") if isinstance(body, dict) else None
    if not isinstance(envelope, dict):
        envelope = {}
    code = envelope.get("code") if isinstance(envelope.get("code"), str) else None
    text = envelope.get("message")
    message = text if isinstance(text, str) else f"HTTP {status}"
    field = envelope.get("field") if isinstance(envelope.get("field"), str) else None
    request_id = envelope.get("requestId") if isinstance(envelope.get("requestId"), str) else request_id
    cls: Type[PixgateError]
    if status == 401:
        cls = AuthenticationError
    elif status == 403:
        cls = ForbiddenError
    elif status == 404:
        cls = NotFoundError
    elif status == 409:
        cls = ConflictError
    elif status == 429:
        cls = RateLimitError
    elif status >= 500:
        cls = ServerError
    else:
        cls = InvalidRequestError
    return cls(message, status=status, code=code, field=field, request_id=request_id, retry_after=retry_after)
