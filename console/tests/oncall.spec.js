// The console for the person on call: the overview (is anything on fire?), a payment found by
// its id, txid or endToEndId, the webhook deliveries with the failing ones first, and a charge
// evaluated on a store. The PSP is the bundled simulator; the merchant has two webhook
// endpoints, an https receiver of this test that answers 204 and one on a closed loopback
// port, whose deliveries fail.
import net from 'node:net';
import { join } from 'node:path';
import {
  admin, charge, expect, expectFailure, guestWasm, merchant, operatorToken, screenshotDir, signIn, startPixgate,
  startPspSim, startReceiver, test,
} from './pixgate.js';

let sim;
let receiver;
let server;
let key;

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort() {
  const socket = net.createServer();
  await new Promise((r) => socket.listen(0, '127.0.0.1', r));
  const { port } = socket.address();
  await new Promise((r) => socket.close(r));
  return port;
}

/** A LIVE charge of the padaria's store: PENDING at the simulator, with its txid. */
function liveCharge(reference, amount) {
  return charge(server, reference, { store: 'padaria-web', amount, key });
}

/** The payer pays `intent` at the simulator; resolves with the intent once it SUCCEEDED. */
async function pay(intent) {
  await sim.control(`/_sim/cob/${intent.pix.txid}/pay`);
  let now;
  await expect.poll(async () => {
    now = await admin(server, 'GET', `/payment-intents/${intent.paymentIntentId}`);
    return now.status;
  }, { timeout: 20_000 }).toBe('SUCCEEDED');
  return now;
}

test.beforeAll(async () => {
  sim = await startPspSim();
  receiver = await startReceiver(sim.certDir);
  server = await startPixgate({
    PIXGATE_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
    PIXGATE_WEBHOOK_CA_FILE: join(sim.certDir, 'ca.pem'),
    // A charge whose callback is lost still settles within the test's patience.
    PIXGATE_RECONCILE_INTERVAL: '2s',
  });
  await sim.addTo(server);
  await admin(server, 'POST', '/merchants', { code: 'padaria', name: 'Padaria Pao Quente' });
  await admin(server, 'POST', '/stores', {
    code: 'padaria-web', name: 'Padaria Pao Quente', merchant: 'padaria', mode: 'LIVE', liveEnabled: true,
  });
  await admin(server, 'PUT', '/stores/padaria-web/gateways', { gateways: ['sandbox-a-d0'] });
  key = (await admin(server, 'POST', '/api-keys', {
    merchant: 'padaria', stores: ['padaria-web'], scopes: ['payments:create', 'webhooks:manage'],
  })).apiKey;
  await merchant(server, 'POST', '/webhook-endpoints', {
    name: 'orders', endpointUrl: receiver.url, events: ['payment.pending', 'payment.succeeded'],
  }, key);
  await merchant(server, 'POST', '/webhook-endpoints', {
    name: 'erp', endpointUrl: `https://127.0.0.1:${await closedPort()}/pixgate`, events: ['payment.pending'],
  }, key);
});

test.afterAll(async () => {
  await server?.stop();
  await receiver?.stop();
  await sim?.stop();
});

test('the overview says what is on fire, with the numbers of the charges made', async ({ page }) => {
  // Three SHADOW charges (the demo store), two LIVE ones, one of them paid.
  for (const [n, amount] of [[1, 10], [2, 20.5], [3, 30.25]]) await charge(server, `oncall-shadow-${n}`, { amount });
  const waiting = await liveCharge('oncall-live-1', 42.5);
  expect(waiting.status).toBe('PENDING');
  await pay(await liveCharge('oncall-live-2', 17));
  // The demo store tries a provider candidate in its shadow.
  const version = (await admin(server, 'POST', '/components/provider', guestWasm('pixgate_fixture_costliest_first'))).version;
  await admin(server, 'PUT', `/stores/${server.demoStore}/components/provider/candidate`, { version });
  // The erp endpoint's deliveries fail: its port is closed.
  await expect.poll(async () => (await admin(server, 'GET', '/webhook-deliveries?state=failing')).length, { timeout: 20_000 })
    .toBeGreaterThan(0);

  await signIn(page, server);
  await expect(page.getByRole('heading', { name: 'Is anything on fire?', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Overview', exact: true })).toHaveAttribute('aria-current', 'page');
  const verdict = page.getByRole('region', { name: 'Verdict' });
  await expect(verdict).toContainText('Maybe');
  await expect(verdict.getByRole('link', { name: /webhook deliver(y is|ies are) failing/ })).toBeVisible();

  const totals = page.getByRole('region', { name: 'Totals, the last 24 hours' });
  const figure = (name) => totals.locator(`dt:text-is("${name}") + dd`);
  await expect(figure('Charges')).toHaveText('5');
  await expect(figure('Amount')).toContainText('120,25'); // 10 + 20.50 + 30.25 + 42.50 + 17
  await expect(figure('Shadow only')).toHaveText('3');
  await expect(figure('Pending')).toHaveText('1');
  await expect(figure('Succeeded')).toHaveText('1');
  await expect(figure('Failed')).toHaveText('0');
  await expect(figure('Success rate')).toHaveText('50.0 %');
  await expect(figure('Failed rate')).toHaveText('0.0 %');
  const volume = page.getByRole('region', { name: 'Volume and outcomes' });
  await expect(volume.getByRole('img', { name: /^Charges per / }).locator('canvas')).toBeVisible();
  await expect(volume.getByRole('img', { name: /Success and failed rates/ }).locator('canvas')).toBeVisible();

  const psps = page.getByRole('region', { name: 'PSP health' });
  await expect(psps.getByRole('row', { name: /Sandbox A \(psp-sim\) sandbox-a/ })).toContainText('active');

  const pending = page.getByRole('region', { name: 'Pending LIVE charges' });
  await expect(pending.getByRole('row', { name: /under 5 min/ })).toContainText('1');
  await expect(pending.getByRole('row', { name: /over 24 h/ })).toContainText('0');
  await expect(pending.getByRole('link', { name: 'oncall-live-1' })).toBeVisible();
  await expect(pending.getByRole('link', { name: 'oncall-live-2' })).toHaveCount(0);

  const flagged = page.getByRole('region', { name: 'Stores trying a new version' });
  const row = flagged.getByRole('row', { name: new RegExp(server.demoStore) });
  await expect(row).toContainText(version.slice(0, 12));
  await expect(row.getByRole('link', { name: server.demoStore, exact: true })).toHaveAttribute('href', `#/stores/${server.demoStore}`);
  await page.screenshot({ path: join(screenshotDir, 'console-overview.png'), fullPage: true });

  // Another window: the charges were all made in the last hour.
  await page.getByRole('combobox', { name: 'Hours' }).selectOption('1');
  await expect(page.getByRole('region', { name: 'Totals, the last hour' }).locator('dt:text-is("Charges") + dd')).toHaveText('5');

  // The oldest pending charge opens its payment; the candidate its shadow comparison.
  await pending.getByRole('link', { name: 'oncall-live-1' }).click();
  await expect(page.getByRole('heading', { name: 'Payment oncall-live-1' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'The intent' })).toContainText(waiting.paymentIntentId);
  await page.goBack();
  await row.getByRole('link', { name: `${server.demoStore} provider comparison` }).click();
  await expect(page.getByRole('heading', { name: 'Shadow comparison' })).toBeVisible();
  await expect(page.getByRole('region', { name: `${server.demoStore} · provider` })).toContainText(version.slice(0, 12));
  await admin(server, 'DELETE', `/stores/${server.demoStore}/components/provider/candidate`);
});

test('a payment opens from a link and after a reload', async ({ page }) => {
  const intent = await charge(server, 'oncall-link', { amount: 12.34 });
  await signIn(page, server);
  await page.goto(`${server.adminOrigin}/console/#/payments/${intent.paymentIntentId}`);
  const facts = page.getByRole('region', { name: 'The intent' });
  await expect(page.getByRole('heading', { name: 'Payment oncall-link' })).toBeVisible();
  await expect(facts).toContainText('SHADOW_ONLY');
  await expect(facts).toContainText('12,34');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Payment oncall-link' })).toBeVisible();
  await expect(facts).toContainText(intent.paymentIntentId);
});

test('a payment is found by its id, its txid or its endToEndId, and an unknown one says so', async ({ page }) => {
  const shadow = await charge(server, 'oncall-find', { amount: 5 });
  const live = await liveCharge('oncall-find-live', 8.9);
  const paid = await pay(await liveCharge('oncall-find-paid', 9.9));
  expect(paid.provider.paymentId).toBeTruthy();
  await signIn(page, server);
  const find = async (value) => {
    await page.getByLabel('Payment id, txid or endToEndId').fill(value);
    await page.getByRole('button', { name: 'Find', exact: true }).click();
  };
  // From the overview's box, by id.
  await find(shadow.paymentIntentId);
  await expect(page.getByRole('heading', { name: 'Payment oncall-find' })).toBeVisible();
  // From the payments view, by txid and by endToEndId.
  await page.getByRole('link', { name: 'Payments', exact: true }).click();
  await find(live.pix.txid);
  await expect(page.getByRole('heading', { name: 'Payment oncall-find-live' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'The intent' })).toContainText(live.pix.txid);
  await page.getByRole('link', { name: 'Payments', exact: true }).click();
  await find(paid.provider.paymentId);
  await expect(page.getByRole('heading', { name: 'Payment oncall-find-paid' })).toBeVisible();
  await page.getByRole('link', { name: 'Payments', exact: true }).click();
  await find('nosuchtxid0000000000000000000');
  await expect(page.getByRole('status').filter({ hasText: 'Nothing matches' })).toContainText('nosuchtxid0000000000000000000');
  await expect(page).toHaveURL(/#\/payments$/);
});

test('the webhook deliveries list the failing ones first and one is sent again', async ({ page }) => {
  // Eleven LIVE charges: a payment.pending to each endpoint, more than a page of deliveries.
  for (let n = 1; n <= 11; n++) await liveCharge(`oncall-hook-${n}`, n + 0.5);
  await expect.poll(async () => (await admin(server, 'GET', '/webhook-deliveries?state=failing&limit=100'))
    .filter((d) => d.endpointName === 'erp').length, { timeout: 20_000 }).toBeGreaterThanOrEqual(11);

  await signIn(page, server);
  await page.getByRole('link', { name: 'Webhook deliveries', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Webhook deliveries', level: 1 })).toBeVisible();
  const failing = page.getByRole('region', { name: 'Failing' });
  const first = failing.getByRole('row').nth(1);
  await expect(first.getByRole('rowheader')).toHaveText('erp');
  await expect(first).toContainText('padaria');
  await expect(first).toContainText('payment.pending');
  await expect(first.getByRole('link', { name: /…/ })).toBeVisible();
  await expect(failing.getByRole('rowheader', { name: 'orders' })).toHaveCount(0);

  const recent = page.getByRole('region', { name: 'All recent' });
  await expect(recent.getByRole('rowheader', { name: 'orders' }).first()).toBeVisible();
  await expect(recent.getByRole('row')).toHaveCount(21);
  await expect(recent.getByRole('table')).toHaveAccessibleName('20 deliveries so far, newest first');
  await page.screenshot({ path: join(screenshotDir, 'console-webhook-deliveries.png'), fullPage: true });
  await recent.getByRole('button', { name: 'Load more all recent deliveries' }).click();
  await expect.poll(() => recent.getByRole('row').count()).toBeGreaterThan(21);

  // Resend the newest failing one: confirmed first, then the lists read again.
  const before = (await admin(server, 'GET', '/webhook-deliveries?state=failing&limit=1'))[0];
  await first.getByRole('button', { name: /^Resend payment.pending to erp/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Send this delivery again?');
  await dialog.getByRole('button', { name: 'Resend' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'being sent again' })).toContainText('erp');
  await expect.poll(async () => (await admin(server, 'GET', `/payment-intents/${before.paymentIntentId}/deliveries`))
    .find((d) => d.deliveryId === before.deliveryId).attempts.length, { timeout: 20_000 })
    .toBeGreaterThan(before.attempts.length);

  // The row links to its payment.
  await first.getByRole('link', { name: /…/ }).click();
  await expect(page.getByRole('heading', { name: /^Payment oncall-hook-/ })).toBeVisible();
});

test('a tester evaluates a charge on a store and sees the decision and its trace', async ({ page }) => {
  const version = (await admin(server, 'POST', '/components/provider', guestWasm('pixgate_fixture_costliest_first'))).version;
  expectFailure('/admin/v1/evaluate'); // the 400 of the charge with three decimals
  const token = await operatorToken(server, 'tester');
  await signIn(page, server, token);
  await page.getByRole('link', { name: 'Evaluate', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Evaluate a charge' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Store' }).selectOption(server.demoStore);
  await expect(page.getByRole('combobox', { name: 'provider' })).toContainText("the store's active (bundled)");
  await expect(page.getByLabel(/^Charge \(JSON/)).toHaveValue(/"amount": 129.90/);
  await page.getByRole('button', { name: 'Evaluate', exact: true }).click();
  const decision = page.getByRole('region', { name: `Decision for ${server.demoStore}` });
  await expect(decision).toContainText('resolved');
  const expected = await admin(server, 'POST', '/evaluate', {
    store: server.demoStore,
    charge: {
      amount: 129.9, reference: 'evaluate-0001', description: '2 cafes e 1 pao de queijo',
      payer: { name: 'Ana Souza', taxId: '529.982.247-25', email: 'ana.souza@example.com' },
      metadata: { orderId: 'evaluate-0001' },
    },
  });
  await expect(decision).toContainText(expected.outcome.gatewayAlias);
  await expect(decision.getByRole('heading', { name: 'provider', exact: true })).toBeVisible();
  await expect(decision.getByRole('table', { name: /gateways the chain ranked/ })).toBeVisible();

  // Another provider version, and a charge the chain refuses to parse.
  await page.getByRole('combobox', { name: 'provider' }).selectOption(version);
  await page.getByRole('button', { name: 'Evaluate', exact: true }).click();
  await expect(decision.getByText(`Version ${version.slice(0, 12)}`)).toBeVisible();
  await page.screenshot({ path: join(screenshotDir, 'console-evaluate.png'), fullPage: true });
  await page.getByLabel(/^Charge \(JSON/).fill('{"amount": 10,');
  await page.getByRole('button', { name: 'Evaluate', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('The charge is not JSON');
  await page.getByLabel(/^Charge \(JSON/).fill('{"amount": 10.999, "reference": "x", "description": "y", "payer": {"name": "Ana", "taxId": "529.982.247-25"}}');
  await page.getByRole('button', { name: 'Evaluate', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('amount');
});

test('a viewer sees the overview and the deliveries but may not resend or evaluate', async ({ page }) => {
  await liveCharge('oncall-viewer', 3.5);
  await expect.poll(async () => (await admin(server, 'GET', '/webhook-deliveries')).length, { timeout: 20_000 })
    .toBeGreaterThan(0);
  const token = await operatorToken(server, 'viewer');
  await signIn(page, server, token);
  await expect(page.getByRole('region', { name: 'Verdict' })).toBeVisible();
  await page.getByRole('link', { name: 'Webhook deliveries', exact: true }).click();
  await expect(page.getByRole('region', { name: 'All recent' }).getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByRole('button', { name: /^Resend/ })).toHaveCount(0);
  await page.getByRole('link', { name: 'Evaluate', exact: true }).click();
  await expect(page.getByRole('note')).toContainText('a tester may');
  await expect(page.getByRole('button', { name: 'Evaluate', exact: true })).toHaveCount(0);
});
