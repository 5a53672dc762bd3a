// Webhook deliveries of a LIVE charge in the console, and sending one again. The PSP is the
// bundled simulator and the merchant's receiver an https server of this test, both on
// loopback; pixgate trusts the simulator's CA for the receiver's certificate.
import { join } from 'node:path';
import {
  admin, charge, expect, merchant, screenshotDir, signIn, startPixgate, startPspSim, startReceiver, test,
} from './pixgate.js';

let sim;
let receiver;
let server;
let key;

test.beforeAll(async () => {
  sim = await startPspSim();
  receiver = await startReceiver(sim.certDir);
  server = await startPixgate({
    PIXGATE_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
    PIXGATE_WEBHOOK_CA_FILE: join(sim.certDir, 'ca.pem'),
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
    name: 'receiver', endpointUrl: receiver.url, events: ['payment.pending'],
  }, key);
});

test.afterAll(async () => {
  await server?.stop();
  await receiver?.stop();
  await sim?.stop();
});

test('an operator sees a payment\'s webhook delivery and sends it again', async ({ page }) => {
  const intent = await charge(server, 'pedido-2001', { store: 'padaria-web', amount: 42.5, key });
  expect(intent.status).toBe('PENDING');
  await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(1);

  await signIn(page, server);
  await page.getByRole('link', { name: 'Payments', exact: true }).click();
  await page.getByLabel('Reference').fill('pedido-2001');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: 'pedido-2001' }).click();
  const trace = page.getByRole('region', { name: 'Decision trace' });
  const calls = trace.getByRole('table', { name: /calls made to PSPs/ });
  await expect(calls.getByRole('row', { name: /put_cob/ })).toContainText('success');
  const deliveries = page.getByRole('region', { name: 'Webhook deliveries' });
  await expect(deliveries).toContainText('payment.pending');
  await expect(deliveries.getByRole('table', { name: 'Attempts' }).getByRole('row')).toHaveCount(2);
  await deliveries.getByRole('button', { name: 'Resend payment.pending' }).click();
  await expect(deliveries.getByRole('status')).toContainText('sent again');
  await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(2);
  expect(receiver.received[1].id).toBe(receiver.received[0].id);
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('table', { name: 'Attempts' }).getByRole('row')).toHaveCount(3, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await page.screenshot({ path: join(screenshotDir, 'console-deliveries.png'), fullPage: true });
});
