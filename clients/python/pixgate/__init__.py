"""pixgate's merchant API for Python: charges, refunds, mandates, searches and signed webhooks.

    import pixgate

    client = pixgate.Client(api_key="pk_...", base_url="https://pix.example.com/api/v1")
    intent = client.payments.charge({...})          # an Idempotency-Key made and kept for its retries
    for payment in client.payments.list(status="SUCCEEDED"):
        ...
    event = pixgate.webhooks.verify(raw_body, request_headers, signing_secret)
"""

from . import webhooks
from ._client import Client
from ._errors import (
    AuthenticationError,
    ConflictError,
    ConnectionError,
    ForbiddenError,
    InvalidRequestError,
    NotFoundError,
    PixgateError,
    RateLimitError,
    ServerError,
)

__version__ = "0.1.0"

__all__ = [
    "Client",
    "webhooks",
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
