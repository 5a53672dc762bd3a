"""The book's Python example (docs/src/merchant-guide/python.md) runs as written."""

from __future__ import annotations

import datetime
import json
import re
import time
from pathlib import Path

import pixgate

PAGE = Path(__file__).resolve().parents[3] / "docs" / "src" / "merchant-guide" / "python.md"


def example() -> str:
    match = re.search(r"<!-- example-python -->\n```python\n(.*?)```\n<!-- /example-python -->", PAGE.read_text(), re.S)
    assert match, f"no example-python block in {PAGE}"
    return match.group(1)


def test_the_books_example_charges_pages_refunds_makes_a_mandate_and_verifies(server, live, monkeypatch, capsys):
    sim, key = live
    client = pixgate.Client(api_key=key, base_url=server.api)
    paid = client.payments.charge({"store": "padaria-web", "amount": 25, "reference": "order-paid",
                                   "payer": {"name": "Ana Souza", "taxId": "529.982.247-25"}})
    sim.pay(paid["pix"]["txid"])
    deadline = time.time() + 30
    while client.payments.get(paid["paymentIntentId"])["status"] != "SUCCEEDED" and time.time() < deadline:
        time.sleep(0.2)
    for name, value in {
        "PIXGATE_API_KEY": key, "PIXGATE_BASE_URL": server.api, "PAID_PAYMENT_ID": paid["paymentIntentId"],
        "START_DATE": (datetime.date.today() + datetime.timedelta(days=20)).isoformat(),
        "PIXGATE_WEBHOOK_SECRET": "whsec_book",
    }.items():
        monkeypatch.setenv(name, value)
    namespace: dict = {"__name__": "book_example"}
    exec(compile(example(), str(PAGE), "exec"), namespace)
    out = capsys.readouterr().out
    assert re.search(r"^charge [0-9a-f-]{36} PENDING 00020101", out, re.M), out
    assert f"paid {paid['paymentIntentId']} 25" in out
    assert re.search(r"^refund [0-9a-f-]{36} (SUCCEEDED|PENDING)$", out, re.M), out
    assert re.search(r"^mandate [0-9a-f-]{36} PENDING_AUTHORIZATION$", out, re.M), out
    body = json.dumps({"id": "d-1", "type": "payment.succeeded"}).encode()
    assert namespace["handle_webhook"](body, pixgate.webhooks.sign(body, "whsec_book")) == 204
    assert namespace["handle_webhook"](body, pixgate.webhooks.sign(body, "whsec_other")) == 400
    assert "event payment.succeeded" in capsys.readouterr().out
