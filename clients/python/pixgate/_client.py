"""The client a merchant makes once and keeps: one connection pool, one API key."""

from __future__ import annotations

from typing import Optional

import httpx

from . import _generated
from ._transport import DEFAULT_BASE_URL, Transport


class Client:
    """pixgate's merchant API.

        client = pixgate.Client(api_key=os.environ["PIXGATE_API_KEY"], base_url="https://pix.example.com/api/v1")
        intent = client.payments.charge({"store": "padaria-web", "amount": 42.5, "reference": "order-1042",
                                         "payer": {"name": "Ana Souza", "taxId": "529.982.247-25"}})

    `max_retries` retries after the first try (see the transport for which answers are retried),
    `timeout` is seconds per try. `http_client` is an httpx.Client of the caller's (proxies,
    certificates); closing it is then the caller's.
    """

    def __init__(
        self,
        api_key: str,
        base_url: str = DEFAULT_BASE_URL,
        max_retries: int = 3,
        timeout: Optional[float] = 30.0,
        *,
        http_client: Optional[httpx.Client] = None,
    ) -> None:
        self._transport = Transport(api_key, base_url, max_retries, timeout, http_client)
        self.payments = _generated.Payments(self._transport)
        self.refunds = _generated.Refunds(self._transport)
        self.mandates = _generated.Mandates(self._transport)
        self.charge_batches = _generated.ChargeBatches(self._transport)
        self.settlements = _generated.Settlements(self._transport)
        self.webhook_endpoints = _generated.WebhookEndpoints(self._transport)

    @property
    def base_url(self) -> str:
        return self._transport.base_url

    def close(self) -> None:
        self._transport.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        # Never the key.
        return f"pixgate.Client(base_url={self._transport.base_url!r})"
