// The TypeScript client (its ESM build, dist/esm) against a real `pixgate serve` and
// `pixgate psp-sim`. `npm test` after `npm run build`.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";

import {
  AuthenticationError, ConflictError, ConnectionError, InvalidRequestError, Pixgate, sign, verify,
  WebhookVerificationError,
} from "../dist/esm/index.js";
import { lossyProxy, receiver, startWorld, waitFor } from "./harness.mjs";

const payer = { name: "Ana Souza", taxId: "529.982.247-25" };
const chargeBody = (store, reference, amount = 42.5) => ({ store, amount, reference, payer });
let world, certs, server, sim, liveKey;

before(async () => {
  world = await startWorld();
  ({ certs, server, sim, liveKey } = world);
});

after(() => world?.stop());

const noWait = (client) => {
  client.transport.sleep = async () => {};
  return client;
};

test("a SHADOW charge is created, read and found by a search", async () => {
  const pixgate = new Pixgate({ apiKey: server.demoKey, baseUrl: server.api });
  const reference = `order-${randomUUID().slice(0, 8)}`;
  const intent = await pixgate.payments.charge(chargeBody("demo-store", reference));
  assert.equal(intent.status, "SHADOW_ONLY");
  assert.equal((await pixgate.payments.get(intent.paymentIntentId)).reference, reference);
  const found = [];
  for await (const payment of pixgate.payments.list({ reference })) found.push(payment.paymentIntentId);
  assert.deepEqual(found, [intent.paymentIntentId]);
});

test("a create that lost two answers and saw a 503 charges once", async () => {
  const before = (await sim.stats()).cobsCreated;
  const proxy = await lossyProxy(server.api, ["drop", "drop", "503"]);
  const reference = `order-${randomUUID().slice(0, 8)}`;
  let intent;
  try {
    intent = await noWait(new Pixgate({ apiKey: liveKey, baseUrl: proxy.url })).payments.charge(
      chargeBody("padaria-web", reference));
  } finally {
    await proxy.close();
  }
  assert.equal(intent.status, "PENDING");
  const posts = proxy.seen.filter(([method]) => method === "POST");
  assert.equal(posts.length, 4);
  assert.ok(posts[0][2]);
  assert.equal(new Set(posts.map(([, , key]) => key)).size, 1, "every try carries one key");
  const found = [];
  for await (const p of new Pixgate({ apiKey: liveKey, baseUrl: server.api }).payments.list({ reference })) found.push(p);
  assert.equal(found.length, 1, "one intent");
  assert.equal((await sim.stats()).cobsCreated, before + 1, "one charge at the PSP");
});

test("a second try while the first still runs waits for it and gets its answer", async () => {
  await sim.switches({ latencyMs: 1500 });
  const proxy = await lossyProxy(server.api, []);
  try {
    const reference = `order-${randomUUID().slice(0, 8)}`;
    const idempotencyKey = `checkout-${randomUUID()}`;
    const first = new Pixgate({ apiKey: liveKey, baseUrl: server.api }).payments.charge(
      chargeBody("padaria-web", reference), { idempotencyKey });
    await new Promise((r) => setTimeout(r, 500)); // the first is at the PSP, its key leased
    const client = new Pixgate({ apiKey: liveKey, baseUrl: proxy.url, maxRetries: 5 });
    client.transport.sleep = (ms) => new Promise((r) => setTimeout(r, 500));
    const second = await client.payments.charge(chargeBody("padaria-web", reference), { idempotencyKey });
    const firstAnswer = await first;
    assert.deepEqual(proxy.answered[0], [409, "idempotency_key_in_use"]);
    assert.equal(second.paymentIntentId, firstAnswer.paymentIntentId);
    assert.equal(second.idempotentReplay, true);
  } finally {
    await sim.switches({ latencyMs: 0 });
    await proxy.close();
  }
});

test("a refused charge is not retried and says which field", async () => {
  const proxy = await lossyProxy(server.api, []);
  try {
    const pixgate = new Pixgate({ apiKey: server.demoKey, baseUrl: proxy.url });
    await assert.rejects(
      pixgate.payments.charge({ ...chargeBody("demo-store", "order-1"), payer: { name: "Ana", taxId: "111.111.111-11" } }),
      (error) => {
        assert.ok(error instanceof InvalidRequestError);
        assert.equal(error.status, 400);
        assert.equal(error.code, "invalid_tax_id");
        assert.equal(error.field, "payer.taxId");
        assert.ok(error.requestId);
        return true;
      });
  } finally {
    await proxy.close();
  }
  assert.equal(proxy.seen.length, 1, "a 400 is not retried");
});

test("an unknown key fails without the key in the error or the client", async () => {
  const secret = `pk_test_${"x".repeat(40)}`;
  const pixgate = new Pixgate({ apiKey: secret, baseUrl: server.api });
  await assert.rejects(pixgate.payments.get(randomUUID()), (error) => {
    assert.ok(error instanceof AuthenticationError);
    assert.equal(error.code, "invalid_api_key");
    assert.ok(!String(error).includes(secret) && !JSON.stringify(error).includes(secret));
    return true;
  });
  assert.ok(!JSON.stringify(pixgate).includes(secret));
});

test("a 429 waits for its Retry-After; a cancel that lost its answer is not sent again", async () => {
  const proxy = await lossyProxy(server.api, ["429"]);
  try {
    const pixgate = new Pixgate({ apiKey: server.demoKey, baseUrl: proxy.url });
    const waited = [];
    pixgate.transport.sleep = async (ms) => { waited.push(ms); };
    const intent = await pixgate.payments.charge(chargeBody("demo-store", "order-429"));
    assert.deepEqual(waited, [1000]);
    proxy.seen.length = 0;
    const lossy = await lossyProxy(server.api, ["drop"]);
    try {
      const client = noWait(new Pixgate({ apiKey: server.demoKey, baseUrl: lossy.url }));
      await assert.rejects(client.payments.cancel(intent.paymentIntentId), ConnectionError);
      assert.equal(lossy.seen.length, 1);
    } finally {
      await lossy.close();
    }
  } finally {
    await proxy.close();
  }
});

test("a try that outlives the timeout is a ConnectionError", async () => {
  const proxy = await lossyProxy(server.api, ["hang"]);
  try {
    const pixgate = new Pixgate({ apiKey: server.demoKey, baseUrl: proxy.url, timeout: 500, maxRetries: 0 });
    // The client's own timer aborted the try (AbortError), not the proxy closing at 3 s.
    await assert.rejects(pixgate.payments.get(randomUUID()), (error) =>
      error instanceof ConnectionError && error.status === 0 && error.message.endsWith("AbortError"));
  } finally {
    await proxy.close();
  }
});

test("a list walks every page", async () => {
  const pixgate = new Pixgate({ apiKey: server.demoKey, baseUrl: server.api });
  const reference = `order-${randomUUID().slice(0, 8)}`;
  const made = new Set();
  for (let i = 0; i < 7; i++) made.add((await pixgate.payments.charge(chargeBody("demo-store", reference))).paymentIntentId);
  const found = [];
  for await (const p of pixgate.payments.list({ reference, limit: 3 })) found.push(p.paymentIntentId);
  assert.equal(found.length, 7);
  assert.deepEqual(new Set(found), made);
});

test("a LIVE charge paid at the PSP is refunded", async () => {
  const pixgate = new Pixgate({ apiKey: liveKey, baseUrl: server.api });
  const intent = await pixgate.payments.charge(chargeBody("padaria-web", "order-refund", 30));
  await sim.pay(intent.pix.txid);
  const paid = await waitFor(() => pixgate.payments.get(intent.paymentIntentId), (p) => p.status === "SUCCEEDED");
  assert.equal(paid.status, "SUCCEEDED");
  const refund = await pixgate.refunds.create(intent.paymentIntentId, { amount: 10, reason: "one item back" });
  assert.equal(refund.amount, 10);
  assert.equal((await pixgate.refunds.get(refund.refundId)).refundId, refund.refundId);
  assert.deepEqual((await pixgate.refunds.list(intent.paymentIntentId)).map((r) => r.refundId), [refund.refundId]);
  await assert.rejects(pixgate.refunds.create(intent.paymentIntentId, { amount: 25 }),
    (error) => error instanceof ConflictError && error.code === "refund_exceeds_refundable");
});

test("a mandate is created, read and canceled", async () => {
  const pixgate = new Pixgate({ apiKey: liveKey, baseUrl: server.api });
  const start = new Date(Date.now() + 20 * 86400000).toISOString().slice(0, 10);
  const mandate = await pixgate.mandates.create({
    store: "padaria-web", reference: "gym-contract-2031", payer, frequency: "MONTHLY", startDate: start,
    amount: 99.9, journey: "QR", retryPolicy: "UP_TO_3_IN_7_DAYS",
  });
  assert.equal((await pixgate.mandates.get(mandate.mandateId)).mandateId, mandate.mandateId);
  const ids = [];
  for await (const m of pixgate.mandates.list({ store: "padaria-web" })) ids.push(m.mandateId);
  assert.ok(ids.includes(mandate.mandateId));
  assert.equal((await pixgate.mandates.cancel(mandate.mandateId)).mandateId, mandate.mandateId);
});

test("verify takes what sign made and refuses the rest", async () => {
  const body = JSON.stringify({ id: randomUUID(), type: "payment.succeeded" });
  const headers = await sign(body, "whsec_test");
  assert.equal((await verify(body, headers, "whsec_test")).type, "payment.succeeded");
  const lowered = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  assert.equal((await verify(new TextEncoder().encode(body), lowered, "whsec_test")).type, "payment.succeeded");
  const old = await sign(body, "whsec_test", Math.floor(Date.now() / 1000) - 301);
  const refusals = [
    [body, headers, "whsec_other"],
    [`${body} `, headers, "whsec_test"],
    [body, { ...headers, "X-Service-Timestamp": `+${headers["X-Service-Timestamp"]}` }, "whsec_test"],
    [body, old, "whsec_test"],
    [body, { "X-Service-Timestamp": headers["X-Service-Timestamp"] }, "whsec_test"],
  ];
  for (const [raw, given, secret] of refusals) {
    await assert.rejects(verify(raw, given, secret), WebhookVerificationError);
  }
});

test("a test delivery to a registered endpoint verifies", async () => {
  const hooks = await receiver(certs);
  try {
    const pixgate = new Pixgate({ apiKey: server.demoKey, baseUrl: server.api });
    const endpoint = await pixgate.webhookEndpoints.create({ endpointUrl: hooks.url, events: ["payment.succeeded"] });
    await pixgate.webhookEndpoints.test(endpoint.endpointId);
    const deliveries = await waitFor(() => hooks.deliveries, (d) => d.length > 0);
    assert.equal(deliveries.length, 1);
    const event = await verify(deliveries[0].body, deliveries[0].headers, endpoint.signingSecret);
    assert.equal(event.type, "webhook.test");
    const listed = [];
    for await (const e of pixgate.webhookEndpoints.list()) listed.push(e.endpointId);
    assert.ok(listed.includes(endpoint.endpointId));
    await pixgate.webhookEndpoints.revoke(endpoint.endpointId);
  } finally {
    await hooks.close();
  }
});
