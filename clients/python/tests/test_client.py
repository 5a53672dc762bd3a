"""The Python client against a real `pixgate serve` (and `pixgate psp-sim` for LIVE charges)."""

from __future__ import annotations

import datetime
import json
import threading
import time
import uuid

import pytest

import pixgate
from conftest import LossyProxy

PAYER = {"name": "Ana Souza", "taxId": "529.982.247-25"}


def charge_body(store, reference, amount=42.5):
    return {"store": store, "amount": amount, "reference": reference, "payer": PAYER}


def wait_for(read, done, seconds=30):
    deadline = time.time() + seconds
    while True:
        value = read()
        if done(value) or time.time() > deadline:
            return value
        time.sleep(0.2)


def test_a_shadow_charge_is_created_read_and_found_by_search(server):
    with pixgate.Client(api_key=server.demo_key, base_url=server.api) as client:
        reference = f"order-{uuid.uuid4().hex[:8]}"
        intent = client.payments.charge(charge_body("demo-store", reference))
        assert intent["status"] == "SHADOW_ONLY"
        assert client.payments.get(intent["paymentIntentId"])["reference"] == reference
        found = list(client.payments.list(reference=reference))
        assert [p["paymentIntentId"] for p in found] == [intent["paymentIntentId"]]


def test_the_same_idempotency_key_answers_the_first_charge_again(server):
    client = pixgate.Client(api_key=server.demo_key, base_url=server.api)
    key = f"order-{uuid.uuid4()}"
    first = client.payments.charge(charge_body("demo-store", "order-1"), idempotency_key=key)
    again = client.payments.charge(charge_body("demo-store", "order-1"), idempotency_key=key)
    assert again["paymentIntentId"] == first["paymentIntentId"]
    assert again["idempotentReplay"] is True


def test_a_create_that_lost_two_answers_and_saw_a_503_charges_once(server, live):
    sim, key = live
    before = sim.stats()["cobsCreated"]
    proxy = LossyProxy(server.api, ["drop", "drop", "503"])
    try:
        client = pixgate.Client(api_key=key, base_url=proxy.url)
        client._transport.sleep = lambda seconds: None
        reference = f"order-{uuid.uuid4().hex[:8]}"
        intent = client.payments.charge(charge_body("padaria-web", reference))
    finally:
        proxy.close()
    assert intent["status"] == "PENDING"
    charges = [seen for seen in proxy.seen if seen[0] == "POST"]
    assert len(charges) == 4, proxy.seen
    assert len({seen[2] for seen in charges}) == 1 and charges[0][2], "every try carries one key"
    reader = pixgate.Client(api_key=key, base_url=server.api)
    assert len(list(reader.payments.list(reference=reference))) == 1, "one intent"
    assert sim.stats()["cobsCreated"] == before + 1, "one charge at the PSP"


def test_a_second_try_while_the_first_still_runs_waits_for_it_and_gets_its_answer(server, live):
    sim, key = live
    sim.switches({"latencyMs": 1500})
    try:
        reference = f"order-{uuid.uuid4().hex[:8]}"
        idempotency_key = f"checkout-{uuid.uuid4()}"
        first = {}
        direct = pixgate.Client(api_key=key, base_url=server.api)
        thread = threading.Thread(target=lambda: first.update(direct.payments.charge(
            charge_body("padaria-web", reference), idempotency_key=idempotency_key)))
        thread.start()
        time.sleep(0.5)  # the first is at the PSP, its key leased
        proxy = LossyProxy(server.api, [])
        client = pixgate.Client(api_key=key, base_url=proxy.url, max_retries=5)
        client._transport.sleep = lambda seconds: time.sleep(0.5)
        second = client.payments.charge(charge_body("padaria-web", reference), idempotency_key=idempotency_key)
        thread.join()
        proxy.close()
    finally:
        sim.switches({"latencyMs": 0})
    assert proxy.answered[0] == (409, "idempotency_key_in_use"), proxy.answered
    assert proxy.answered[-1][0] in (200, 201), proxy.answered
    assert second["paymentIntentId"] == first["paymentIntentId"]
    assert second["idempotentReplay"] is True


def test_a_refused_charge_is_not_retried_and_says_which_field(server):
    proxy = LossyProxy(server.api, [])
    try:
        client = pixgate.Client(api_key=server.demo_key, base_url=proxy.url)
        with pytest.raises(pixgate.InvalidRequestError) as caught:
            body = {**charge_body("demo-store", "order-1"), "payer": {"name": "Ana", "taxId": "111.111.111-11"}}
            client.payments.charge(body)
    finally:
        proxy.close()
    error = caught.value
    assert (error.status, error.code, error.field) == (400, "invalid_tax_id", "payer.taxId")
    assert error.request_id and error.message
    assert len(proxy.seen) == 1, "a 400 is not retried"


def test_an_unknown_key_fails_without_the_key_in_the_error_or_the_client(server):
    secret = "pk_test_" + "x" * 40
    client = pixgate.Client(api_key=secret, base_url=server.api)
    with pytest.raises(pixgate.AuthenticationError) as caught:
        client.payments.get(str(uuid.uuid4()))
    assert caught.value.status == 401 and caught.value.code == "invalid_api_key"
    assert secret not in str(caught.value) and secret not in repr(caught.value) and secret not in repr(client)


def test_a_429_waits_for_retry_after_and_a_timeout_is_a_connection_error(server):
    proxy = LossyProxy(server.api, ["429", "hang"])
    try:
        client = pixgate.Client(api_key=server.demo_key, base_url=proxy.url, timeout=0.5, max_retries=1)
        waited = []
        client._transport.sleep = waited.append
        with pytest.raises(pixgate.ConnectionError) as caught:
            client.payments.charge(charge_body("demo-store", "order-429"))
    finally:
        proxy.close()
    assert waited == [1.0], "the 429's Retry-After, then no retry left after the timeout"
    assert caught.value.status == 0
    assert str(caught.value).endswith("ReadTimeout"), "the client's timeout, not the proxy closing at 3 s"


def test_a_cancel_that_lost_its_answer_is_not_sent_again(server):
    client = pixgate.Client(api_key=server.demo_key, base_url=server.api)
    intent = client.payments.charge(charge_body("demo-store", "order-cancel"))
    proxy = LossyProxy(server.api, ["drop"])
    try:
        lossy = pixgate.Client(api_key=server.demo_key, base_url=proxy.url)
        lossy._transport.sleep = lambda seconds: None
        with pytest.raises(pixgate.ConnectionError):
            lossy.payments.cancel(intent["paymentIntentId"])
    finally:
        proxy.close()
    assert len(proxy.seen) == 1


def test_list_walks_every_page(server):
    client = pixgate.Client(api_key=server.demo_key, base_url=server.api)
    reference = f"order-{uuid.uuid4().hex[:8]}"
    made = {client.payments.charge(charge_body("demo-store", reference))["paymentIntentId"] for _ in range(7)}
    found = [p["paymentIntentId"] for p in client.payments.list(reference=reference, limit=3)]
    assert len(found) == 7 and set(found) == made


def test_a_live_charge_paid_at_the_psp_is_refunded(server, live):
    sim, key = live
    client = pixgate.Client(api_key=key, base_url=server.api)
    intent = client.payments.charge(charge_body("padaria-web", "order-refund", amount=30))
    sim.pay(intent["pix"]["txid"])
    paid = wait_for(lambda: client.payments.get(intent["paymentIntentId"]), lambda p: p["status"] == "SUCCEEDED")
    assert paid["status"] == "SUCCEEDED"
    refund = client.refunds.create(intent["paymentIntentId"], {"amount": 10, "reason": "one item back"})
    assert refund["amount"] == 10
    assert client.refunds.get(refund["refundId"])["refundId"] == refund["refundId"]
    assert [r["refundId"] for r in client.refunds.list(intent["paymentIntentId"])] == [refund["refundId"]]
    with pytest.raises(pixgate.ConflictError) as caught:
        client.refunds.create(intent["paymentIntentId"], {"amount": 25})
    assert caught.value.code == "refund_exceeds_refundable"


def test_a_mandate_is_created_read_and_canceled(server, live):
    _, key = live
    client = pixgate.Client(api_key=key, base_url=server.api)
    start = (datetime.date.today() + datetime.timedelta(days=20)).isoformat()
    mandate = client.mandates.create({
        "store": "padaria-web", "reference": "gym-contract-2031", "payer": PAYER,
        "frequency": "MONTHLY", "startDate": start, "amount": 99.9, "journey": "QR",
        "retryPolicy": "UP_TO_3_IN_7_DAYS"})
    assert client.mandates.get(mandate["mandateId"])["mandateId"] == mandate["mandateId"]
    assert mandate["mandateId"] in [m["mandateId"] for m in client.mandates.list(store="padaria-web")]
    canceled = client.mandates.cancel(mandate["mandateId"])
    assert canceled["mandateId"] == mandate["mandateId"]


def test_verify_takes_what_sign_made_and_refuses_the_rest():
    body = json.dumps({"id": str(uuid.uuid4()), "type": "payment.succeeded"}).encode()
    headers = pixgate.webhooks.sign(body, "whsec_test")
    assert pixgate.webhooks.verify(body, headers, "whsec_test")["type"] == "payment.succeeded"
    lowered = {k.lower(): v for k, v in headers.items()}
    assert pixgate.webhooks.verify(body, lowered, "whsec_test")["type"] == "payment.succeeded"
    refusals = [
        (body, headers, "whsec_other"),
        (body + b" ", headers, "whsec_test"),
        (body, {**headers, "X-Service-Timestamp": "+" + headers["X-Service-Timestamp"]}, "whsec_test"),
        (body, pixgate.webhooks.sign(body, "whsec_test", timestamp=int(time.time()) - 301), "whsec_test"),
        (body, {"X-Service-Timestamp": headers["X-Service-Timestamp"]}, "whsec_test"),
    ]
    for raw, given, secret in refusals:
        with pytest.raises(pixgate.webhooks.WebhookVerificationError):
            pixgate.webhooks.verify(raw, given, secret)


def test_a_test_delivery_to_a_registered_endpoint_verifies(server, receiver):
    client = pixgate.Client(api_key=server.demo_key, base_url=server.api)
    endpoint = client.webhook_endpoints.create({"endpointUrl": receiver.url, "events": ["payment.succeeded"]})
    receiver.secret = endpoint["signingSecret"]
    client.webhook_endpoints.test(endpoint["endpointId"])
    events = wait_for(lambda: receiver.events, lambda e: len(e) > 0)
    assert [e["type"] for e in events] == ["webhook.test"]
    listed = [e["endpointId"] for e in client.webhook_endpoints.list()]
    assert endpoint["endpointId"] in listed
    deliveries = list(client.webhook_endpoints.deliveries(endpoint["endpointId"]))
    assert deliveries and deliveries[0]["status"] == "DELIVERED"
