// Reconciliation in the console: an operator sweeps a provider's day from the form, follows
// the run to DONE, opens it, reads its findings (a pix no charge explains) and, asking for the
// matched ones, follows one to its payment; the settlement calendar shows the day's LIVE
// payment as a chart and a table, and downloads as CSV. The store is LIVE at the bundled
// simulator, on loopback.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  admin, expect, merchant, screenshotDir, signIn, startPixgate, startPspSim, test,
} from './pixgate.js';

let sim;
let server;
let key;
let paid;

/** Today in Brasília (UTC-3 all year), `YYYY-MM-DD`. */
function brasiliaToday() {
  return new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10);
}

test.beforeAll(async () => {
  sim = await startPspSim();
  // No daily run of its own: the runs listed are the test's.
  server = await startPixgate({ PIXGATE_RECONCILE_DAILY_AT: 'off' });
  await sim.addTo(server);
  await admin(server, 'POST', '/merchants', { code: 'padaria', name: 'Padaria Central' });
  await admin(server, 'POST', '/stores', {
    code: 'padaria-loja', name: 'Padaria Central', merchant: 'padaria', mode: 'LIVE', liveEnabled: true,
  });
  await admin(server, 'PUT', '/stores/padaria-loja/gateways', { gateways: ['sandbox-a-d0'] });
  key = (await admin(server, 'POST', '/api-keys', {
    merchant: 'padaria', stores: ['padaria-loja'], scopes: ['payments:create'],
  })).apiKey;
  const intent = await merchant(server, 'POST', '/payments/charge', {
    store: 'padaria-loja', amount: 42.5, reference: 'pao-de-queijo',
    payer: { name: 'Ana Souza', taxId: '529.982.247-25' },
  }, key, 'browser-rec-1');
  await sim.control(`/_sim/cob/${intent.pix.txid}/pay`);
  await expect.poll(async () => (await admin(server, 'GET', `/payment-intents/${intent.paymentIntentId}`)).status,
    { timeout: 20_000 }).toBe('SUCCEEDED');
  paid = intent.paymentIntentId;
  // A payment to the store's key from a static QR code: no charge explains it.
  await sim.control('/_sim/pix', { chave: sim.pixKey, valor: '15.00' });
});

test.afterAll(async () => {
  await server?.stop();
  await sim?.stop();
});

test('an operator sweeps a day, reads its findings and follows one to its payment', async ({ page }) => {
  const today = brasiliaToday();
  await signIn(page, server);
  await page.getByRole('link', { name: 'Reconciliation', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Reconciliation' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('No run yet.');

  const form = page.getByRole('form', { name: 'Sweep a day' });
  await expect(form.getByRole('combobox', { name: 'Provider' })).toHaveValue('sandbox-a');
  await form.getByLabel('Day').fill(today);
  await form.getByRole('button', { name: 'Sweep this day' }).click();
  const runs = page.getByRole('table', { name: /^1 run/ });
  await expect(runs.getByRole('cell', { name: 'DONE' })).toBeVisible({ timeout: 20_000 });
  await expect(runs.getByRole('row').nth(1)).toContainText('matched 1');
  await expect(runs.getByRole('row').nth(1)).toContainText('unknown_pix 1');

  await runs.getByRole('link', { name: today }).click();
  await expect(page.getByRole('heading', { name: `Reconciliation of sandbox-a for ${today}` })).toBeVisible();
  const findings = page.getByRole('table', { name: '1 finding' });
  await expect(findings.getByRole('rowheader')).toHaveText('unknown_pix');
  await expect(findings).toContainText('15,00');

  await page.getByRole('combobox', { name: 'Kind' }).selectOption('matched');
  const matched = page.getByRole('table', { name: '1 finding' });
  await expect(matched.getByRole('rowheader')).toHaveText('matched');
  await matched.getByRole('link', { name: paid.slice(0, 8) }).click();
  await expect(page.getByRole('heading', { name: 'Payment pao-de-queijo' })).toBeVisible();
});

test('the settlement calendar shows the paid payment as a chart and a table, and as CSV', async ({ page }) => {
  await signIn(page, server);
  await page.getByRole('link', { name: 'Settlements', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Settlement calendar' })).toBeVisible();
  const rows = page.getByRole('table', { name: /^1 row:/ });
  await expect(rows).toBeVisible();
  const row = rows.getByRole('row').nth(1);
  await expect(row).toContainText('padaria');
  await expect(row).toContainText('sandbox-a-d0');
  await expect(row).toContainText('42,50');
  await expect(page.getByRole('img', { name: 'Net to receive by settlement date and provider (BRL)' })).toBeVisible();
  await page.screenshot({ path: join(screenshotDir, 'console-settlements.png'), fullPage: true });

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  const csv = readFileSync(await download.path(), 'utf8').split('\n');
  expect(csv[0]).toBe('settlementDate,merchant,provider,gatewayAlias,releaseClass,payments,gross,fees,refunds,net');
  expect(csv[1]).toMatch(/^\d{4}-\d{2}-\d{2},padaria,sandbox-a,sandbox-a-d0,D0,1,42\.50,/);

  // A period with nothing in it says so.
  const period = page.getByRole('search', { name: 'Settlement period' });
  await period.getByLabel('From').fill('2020-01-01');
  await period.getByLabel('To').fill('2020-01-31');
  await period.getByRole('button', { name: 'Show' }).click();
  await expect(page.getByRole('status')).toHaveText('Nothing settles from 2020-01-01 to 2020-01-31.');
});
