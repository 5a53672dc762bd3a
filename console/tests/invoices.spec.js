// Charges with a due date in the console: the payments list filtered by kind, and a payment's
// invoice (its due date, its rules and, once paid, what the amount paid is made of). The
// SHADOW charge is the demo store's; the paid one is a LIVE store's at the bundled simulator.
import { admin, expect, merchant, signIn, startPixgate, startPspSim, test } from './pixgate.js';

let sim;
let server;
let key;

/** `YYYY-MM-DD`, `days` from today (UTC). */
function inDays(days, from = new Date()) {
  return new Date(from.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

/** A due-date charge of R$ 100 with a 2 % fine and 1 % interest a month. */
function invoice(reference, dueDate, { store = server.demoStore, key: apiKey } = {}) {
  return merchant(server, 'POST', '/payments/charge', {
    store,
    amount: 100.0,
    reference,
    payer: { name: 'Ana Souza', taxId: '529.982.247-25' },
    dueDate,
    fine: { type: 'PERCENT', value: 2 },
    interest: { type: 'PERCENT_PER_CALENDAR_MONTH', value: 1 },
    discount: { type: 'FIXED_UNTIL_DATES', dates: [{ date: dueDate, value: 20 }] },
  }, apiKey, `browser-${reference}`);
}

test.beforeAll(async () => {
  sim = await startPspSim();
  server = await startPixgate();
  await sim.addTo(server);
  await admin(server, 'POST', '/merchants', { code: 'escola', name: 'Escola Aurora' });
  await admin(server, 'POST', '/stores', {
    code: 'escola-boletos', name: 'Escola Aurora', merchant: 'escola', mode: 'LIVE', liveEnabled: true,
  });
  await admin(server, 'PUT', '/stores/escola-boletos/gateways', { gateways: ['sandbox-a-d0'] });
  key = (await admin(server, 'POST', '/api-keys', {
    merchant: 'escola', stores: ['escola-boletos'], scopes: ['payments:create'],
  })).apiKey;
});

test.afterAll(async () => {
  await server?.stop();
  await sim?.stop();
});

test('the payments list is filtered by kind and a due-date payment shows its invoice', async ({ page }) => {
  const due = inDays(40);
  const intent = await invoice('inv-1', due);
  expect(intent.kind).toBe('DUE_DATE');
  await merchant(server, 'POST', '/payments/charge', {
    store: server.demoStore, amount: 12.5, reference: 'immediate-1',
    payer: { name: 'Ana Souza', taxId: '529.982.247-25' },
  }, undefined, 'browser-immediate-1');

  await signIn(page, server);
  await page.getByRole('link', { name: 'Payments', exact: true }).click();
  const search = page.getByRole('search', { name: 'Search payments' });
  await expect(page.getByRole('link', { name: 'immediate-1' })).toBeVisible();
  await search.getByRole('combobox', { name: 'Kind' }).selectOption({ label: 'Due date' });
  await search.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('table', { name: '1 payments, newest first' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'immediate-1' })).toHaveCount(0);
  await page.getByRole('link', { name: 'inv-1' }).click();

  await expect(page.getByRole('heading', { name: 'Payment inv-1' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'The intent' }).locator('dt:text-is("Kind") + dd')).toHaveText('Due date');
  const facts = page.getByRole('region', { name: 'Invoice' });
  const fact = (name) => facts.locator(`dt:text-is("${name}") + dd`);
  await expect(fact('Due date')).toHaveText(due);
  await expect(fact('Payable after it')).toHaveText('30 days');
  await expect(fact('Fine')).toHaveText('2 % (PERCENT)');
  await expect(fact('Interest')).toHaveText('1 % per calendar month');
  await expect(fact('Discount')).toContainText(`20,00 until ${due}`);
  await expect(fact('Paid')).toHaveCount(0);

  // Back to the search: the kind is still chosen.
  await page.getByRole('link', { name: 'Back to the search' }).click();
  await expect(search.getByRole('combobox', { name: 'Kind' })).toHaveValue('DUE_DATE');
});

test('a paid invoice shows what the amount paid is made of', async ({ page }) => {
  const due = inDays(40);
  const intent = await invoice('inv-paid', due, { store: 'escola-boletos', key });
  expect(intent.status).toBe('PENDING');
  // Paid ten days late: R$ 100 + 2 % fine + 10 days of 1 % a month.
  await sim.control(`/_sim/cobv/${intent.pix.txid}/pay`, { date: inDays(10, new Date(`${due}T12:00:00Z`)) });
  await expect.poll(async () => (await admin(server, 'GET', `/payment-intents/${intent.paymentIntentId}`)).status,
    { timeout: 20_000 }).toBe('SUCCEEDED');

  await signIn(page, server);
  await page.goto(`${server.adminOrigin}/console/#/payments/${intent.paymentIntentId}`);
  const paid = page.getByRole('region', { name: 'Invoice' }).locator('dt:text-is("Paid") + dd');
  await expect(paid).toContainText('102,33');
  await expect(paid).toContainText('= original R$');
  await expect(paid).toContainText('100,00 + fine R$');
  await expect(paid).toContainText('2,00 + interest R$');
  await expect(paid).toContainText('0,33 − abatement R$');
});
