"""One request to the merchant API with the rules a payments client must keep.

- A create call carries an Idempotency-Key: the caller's, or one made here, and every retry of
  that call sends the same key, so a retry after a lost answer replays the first charge instead
  of making a second one.
- Retries, with exponential backoff and full jitter (0.5 s doubling, at most 8 s), on an answer
  that never came (connection refused, dropped, timed out), on 409 `idempotency_key_in_use`
  (the first try is still running), on 408 and 429 (after its `Retry-After`) and on 5xx; never
  on another 4xx. A request that is neither a read nor keyed (a cancel, a revoke) is retried
  only when it provably did not reach the server (the connection was never made) or was refused
  before running (408, 429).
- The API key goes in the Authorization header and nowhere else: not in an error's text, not
  in the client's repr.
"""

from __future__ import annotations

import email.utils
import random
import time
import uuid
from typing import Any, Callable, Iterator, Mapping, Optional

import httpx

from ._errors import ConnectionError as PixgateConnectionError
from ._errors import PixgateError, error_for

DEFAULT_BASE_URL = "http://127.0.0.1:8080/api/v1"
_BACKOFF_BASE = 0.5
_BACKOFF_CAP = 8.0
_RETRY_AFTER_CAP = 60.0


def _retry_after(value: Optional[str]) -> Optional[float]:
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class Transport:
    """What the resources call: `request` for one operation, `pages` for a list's every item."""

    def __init__(
        self,
        api_key: str,
        base_url: str,
        max_retries: int,
        timeout: Optional[float],
        http_client: Optional[httpx.Client],
    ) -> None:
        if not isinstance(api_key, str) or not api_key:
            raise ValueError("api_key is required")
        if max_retries < 0:
            raise ValueError("max_retries must be 0 or more")
        self._api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.max_retries = max_retries
        self._http = http_client if http_client is not None else httpx.Client(timeout=timeout)
        self._owns_http = http_client is None
        self.sleep: Callable[[float], None] = time.sleep

    def close(self) -> None:
        if self._owns_http:
            self._http.close()

    def _delay(self, attempt: int, retry_after: Optional[float]) -> float:
        if retry_after is not None:
            return min(retry_after, _RETRY_AFTER_CAP)
        return random.uniform(0, min(_BACKOFF_CAP, _BACKOFF_BASE * (2**attempt)))

    def request(
        self,
        method: str,
        path: str,
        *,
        params: Optional[Mapping[str, Any]] = None,
        body: Any = None,
        idempotency_key: Optional[str] = None,
        keyed: bool = False,
    ) -> Any:
        """Sends one operation, retrying as the module says; returns the envelope's `data`."""
        headers = {"Authorization": f"Bearer {self._api_key}", "Accept": "application/json"}
        if keyed:
            headers["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())
        safe = method == "GET" or keyed
        query = {k: _query_value(v) for k, v in (params or {}).items() if v is not None}
        attempt = 0
        while True:
            try:
                answer = self._http.request(
                    method, self.base_url + path, params=query or None,
                    json=body if body is not None else None, headers=headers,
                )
            except httpx.TransportError as error:
                unsent = isinstance(error, (httpx.ConnectError, httpx.ConnectTimeout))
                if attempt < self.max_retries and (safe or unsent):
                    self.sleep(self._delay(attempt, None))
                    attempt += 1
                    continue
                # The error's own text may quote the URL, never the headers: no key in it.
                raise PixgateConnectionError(f"no answer from pixgate: {type(error).__name__}") from None
            if 200 <= answer.status_code < 300:
                if answer.status_code == 204 or not answer.content:
                    return None
                payload = answer.json()
                return payload.get("data") if isinstance(payload, dict) and "data" in payload else payload
            try:
                payload = answer.json()
            except ValueError:
                payload = None
            failure = error_for(
                answer.status_code, payload, answer.headers.get("X-Request-Id"),
                _retry_after(answer.headers.get("Retry-After")),
            )
            retryable = (
                answer.status_code in (408, 429)  # refused before running: safe for any call
                or (safe and answer.status_code >= 500)
                or (answer.status_code == 409 and failure.code == "idempotency_key_in_use")
            )
            if retryable and attempt < self.max_retries:
                self.sleep(self._delay(attempt, failure.retry_after))
                attempt += 1
                continue
            raise failure

    def pages(
        self, path: str, params: Mapping[str, Any], cursor: str, id_field: str, limit_default: int
    ) -> Iterator[Any]:
        """Every item of a list, following its cursor page after page (a short page is the last)."""
        query = dict(params)
        limit = query.get("limit") or limit_default
        query["limit"] = limit
        while True:
            page = self.request("GET", path, params=query)
            if not isinstance(page, list):
                raise PixgateError("a list page is not a JSON array", status=200)
            yield from page
            if len(page) < int(limit):
                return
            query[cursor] = page[-1][id_field]


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


__all__ = ["Transport", "DEFAULT_BASE_URL", "PixgateError"]
