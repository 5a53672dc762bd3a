// The CommonJS build (dist/cjs) loads with require() and works: sign then verify.
const assert = require("node:assert/strict");
const { test } = require("node:test");
const client = require("../dist/cjs/index.js");

test("require() gives the client, its errors and the webhook helpers", async () => {
  assert.equal(typeof client.Pixgate, "function");
  assert.ok(new client.InvalidRequestError("x", { status: 400 }) instanceof client.PixgateError);
  const body = '{"type":"webhook.test"}';
  const headers = await client.sign(body, "whsec_cjs");
  assert.equal((await client.verify(body, headers, "whsec_cjs")).type, "webhook.test");
});
