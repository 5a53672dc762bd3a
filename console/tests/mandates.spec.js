// Pix Automático mandates in the console: every merchant's mandates, filtered and paged, and
// one mandate with its terms, a link to its first payment and its charges by cycle, each one a
// recurring payment that links back to it. The demo store is SHADOW, so its mandates are
// SHADOW_ONLY at once and charged at once; the payer's answers (a rejection, a cancellation)
// and a failed first payment come from a LIVE store at the bundled PSP simulator, on loopback.
import https from 'node:https';
import { join } from 'node:path';
import {
  admin, expect, expectFailure, merchant, screenshotDir, signIn, startPixgate, startPspSim, test,
} from './pixgate.js';

/** `YYYY-MM-DD`, `days` from today (UTC). */
function inDays(days) {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** A monthly mandate's next cycle after `date`: the same day next month, or its last day. */
function nextMonth(date) {
  const [y, m, d] = date.split('-').map(Number);
  const days = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(d, days))).toISOString().slice(0, 10);
}

/** A mandate of the demo store with `fields` on top of a monthly R$ 99,90 one. */
function mandate(server, key, idempotencyKey, fields) {
  return merchant(server, 'POST', '/mandates', {
    store: server.demoStore,
    reference: 'gym-contract-2031',
    payer: { name: 'Ana Souza', taxId: '529.982.247-25' },
    frequency: 'MONTHLY',
    startDate: inDays(40),
    amount: 99.9,
    retryPolicy: 'UP_TO_3_IN_7_DAYS',
    journey: 'QR',
    ...fields,
  }, key, idempotencyKey);
}

/** The value beside the term `name` in a region's facts. */
function fact(region, name) {
  return region.locator(`dt:text-is("${name}") + dd`);
}

test.describe('SHADOW mandates', () => {
  let server;
  let key;
  let gym;
  let school;

  test.beforeAll(async () => {
    server = await startPixgate();
    key = (await admin(server, 'POST', '/api-keys', {
      merchant: 'demo', stores: [server.demoStore], scopes: ['mandates:manage', 'payments:read'],
    })).apiKey;
    gym = await mandate(server, key, 'browser-gym', {
      description: 'Gym monthly plan',
      journey: 'QR_WITH_FIRST_PAYMENT',
      firstPayment: { amount: 99.9 },
      metadata: { plan: 'gold' },
    });
    school = await mandate(server, key, 'browser-school', {
      reference: 'school-fees-2032',
      payer: { name: 'Bruno Lima', taxId: '529.982.247-25' },
      frequency: 'QUARTERLY',
      amount: undefined,
      minimumAmount: 250,
      retryPolicy: 'NONE',
    });
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  test('an operator finds a mandate, opens it, follows its first payment and reloads it', async ({ page }) => {
    expect(gym.status).toBe('SHADOW_ONLY');
    expect(school.status).toBe('SHADOW_ONLY');
    const firstPayment = gym.firstPayment.paymentIntentId;

    await signIn(page, server);
    await page.getByRole('link', { name: 'Mandates', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Mandates', level: 1 })).toBeVisible();
    const table = page.getByRole('table', { name: '2 mandates, newest first' });
    await expect(table).toBeVisible();
    // Newest first: the school's mandate was made after the gym's.
    await expect(table.locator('tbody tr').first()).toContainText('school-fees-2032');
    const gymRow = table.getByRole('row', { name: /gym-contract-2031/ });
    await expect(gymRow).toContainText('Ana Souza');
    await expect(gymRow).toContainText('Monthly');
    await expect(gymRow).toContainText('99,90');
    await expect(gymRow).toContainText('SHADOW_ONLY');
    const schoolRow = table.getByRole('row', { name: /school-fees-2032/ });
    await expect(schoolRow).toContainText('Bruno Lima');
    await expect(schoolRow).toContainText('at least R$');
    await expect(schoolRow).toContainText('250,00');

    // By reference and merchant: the gym's alone.
    const search = page.getByRole('search', { name: 'Search mandates' });
    await search.getByLabel('Merchant').fill('demo');
    await search.getByLabel('Reference').fill('gym-contract-2031');
    await search.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByRole('table', { name: '1 mandate, newest first' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'school-fees-2032' })).toHaveCount(0);
    // No mandate is ACTIVE: a SHADOW store's never reach a payer.
    await search.getByRole('combobox', { name: 'Status' }).selectOption('ACTIVE');
    await search.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByRole('status')).toHaveText('No mandate matches.');
    await search.getByRole('combobox', { name: 'Status' }).selectOption('SHADOW_ONLY');
    await search.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: 'gym-contract-2031' }).click();

    await expect(page).toHaveURL(new RegExp(`#/mandates/${gym.mandateId}$`));
    await expect(page.getByRole('heading', { name: 'Mandate gym-contract-2031' })).toBeVisible();
    const facts = page.getByRole('region', { name: 'The mandate' });
    await expect(fact(facts, 'Id')).toHaveText(gym.mandateId);
    await expect(fact(facts, 'Status')).toHaveText('SHADOW_ONLY');
    await expect(fact(facts, 'Store')).toHaveText(server.demoStore);
    await expect(fact(facts, 'Merchant')).toHaveText('demo');
    await expect(fact(facts, 'Description')).toHaveText('Gym monthly plan');
    await expect(fact(facts, 'Payer')).toHaveText('Ana Souza');
    await expect(fact(facts, 'Frequency')).toHaveText('Monthly');
    await expect(fact(facts, 'Cycles')).toHaveText(`from ${gym.startDate}, with no end date`);
    await expect(fact(facts, 'Amount')).toContainText('99,90 a cycle');
    await expect(fact(facts, 'Minimum amount')).toHaveCount(0);
    await expect(fact(facts, 'Retry policy')).toContainText('UP_TO_3_IN_7_DAYS');
    await expect(fact(facts, 'Journey')).toContainText('QR_WITH_FIRST_PAYMENT');
    await expect(fact(facts, 'Provider')).toHaveText(gym.provider.code);
    await expect(fact(facts, 'Recurrence id')).toContainText('none (a SHADOW store');
    for (const absent of ['Authorization expires', 'Rejection', 'Cancellation', 'Failure']) {
      await expect(fact(facts, absent)).toHaveCount(0);
    }

    // Its first payment: the payment view, read by id.
    await fact(facts, 'First payment').getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`#/payments/${firstPayment}$`));
    await expect(page.getByRole('heading', { name: 'Payment gym-contract-2031' })).toBeVisible();
    const intent = page.getByRole('region', { name: 'The intent' });
    await expect(fact(intent, 'Id')).toHaveText(firstPayment);
    await expect(fact(intent, 'Status')).toHaveText('SHADOW_ONLY');
    await expect(fact(intent, 'Amount')).toContainText('99,90');

    // Back, and the mandate's URL reloaded: read again by id.
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`#/mandates/${gym.mandateId}$`));
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Mandate gym-contract-2031' })).toBeVisible();
    await expect(fact(facts, 'Status')).toHaveText('SHADOW_ONLY');
    await expect(fact(facts, 'First payment').getByRole('link')).toContainText(firstPayment);
    // Nothing charged yet: its first cycle is 40 days ahead.
    await expect(page.getByRole('region', { name: 'Charges' })).toContainText('No cycle charged yet.');

    // The other one: a minimum instead of an amount, no first payment, no retry.
    await page.getByRole('link', { name: 'Back to the mandates' }).click();
    await search.getByLabel('Reference').fill('');
    await search.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: 'school-fees-2032' }).click();
    await expect(page.getByRole('heading', { name: 'Mandate school-fees-2032' })).toBeVisible();
    await expect(fact(facts, 'Payer')).toHaveText('Bruno Lima');
    await expect(fact(facts, 'Frequency')).toHaveText('Quarterly');
    await expect(fact(facts, 'Minimum amount')).toContainText('250,00 a cycle');
    await expect(fact(facts, 'Amount')).toHaveCount(0);
    await expect(fact(facts, 'Retry policy')).toContainText('NONE');
    await expect(fact(facts, 'Journey')).toContainText('QR');
    await expect(fact(facts, 'First payment')).toHaveText('none');
  });

  test('the list pages with "More mandates" and says when a merchant is unknown', async ({ page }) => {
    for (let n = 1; n <= 20; n += 1) {
      await mandate(server, key, `browser-plan-${n}`, { reference: `plan-${String(n).padStart(2, '0')}` });
    }
    const total = (await admin(server, 'GET', '/mandates?limit=100')).length;
    expect(total).toBe(22);

    await signIn(page, server);
    await page.goto(`${server.adminOrigin}/console/#/mandates`);
    await expect(page.getByRole('table', { name: '20 mandates so far, newest first' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'plan-20' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'gym-contract-2031' })).toHaveCount(0);
    await page.getByRole('button', { name: 'More mandates' }).click();
    await expect(page.getByRole('table', { name: '22 mandates, newest first' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'gym-contract-2031' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'More mandates' })).toHaveCount(0);

    expectFailure('merchant=nobody');
    const search = page.getByRole('search', { name: 'Search mandates' });
    await search.getByLabel('Merchant').fill('nobody');
    await search.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByRole('alert')).toContainText('merchant_not_found');
  });
});

test.describe("A SHADOW mandate's charges", () => {
  let server;
  let key;
  let made;
  let first;
  let second;

  /** Charges the mandate's cycle due on `dueDate` (`fields` on top) through the merchant API. */
  function chargeCycle(idempotencyKey, dueDate, fields = {}) {
    return merchant(server, 'POST', `/mandates/${made.mandateId}/charges`, { dueDate, ...fields }, key, idempotencyKey);
  }

  test.beforeAll(async () => {
    server = await startPixgate();
    key = (await admin(server, 'POST', '/api-keys', {
      merchant: 'demo', stores: [server.demoStore], scopes: ['mandates:manage', 'payments:read'],
    })).apiKey;
    made = await mandate(server, key, 'browser-streaming', {
      reference: 'streaming-2031',
      description: 'Streaming family plan',
      journey: 'QR_WITH_FIRST_PAYMENT',
      firstPayment: { amount: 99.9 },
    });
    // The second cycle first: the mandate lists its charges by cycle, not as they were made.
    second = await chargeCycle('browser-streaming-2', nextMonth(made.startDate), { reference: 'streaming-cycle-2' });
    first = await chargeCycle('browser-streaming-1', made.startDate, { metadata: { invoice: 'cycle-1' } });
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  test("an operator sees a mandate's charges by cycle, follows one to its payment and back", async ({ page }) => {
    for (const c of [first, second]) {
      expect(c.kind).toBe('RECURRING');
      expect(c.status).toBe('SHADOW_ONLY');
      expect(c.mandateId).toBe(made.mandateId);
      expect(c.attempts).toEqual([]);
      expect(c.pix?.copyAndPaste).toBeUndefined();
    }
    const secondDue = nextMonth(made.startDate);
    expect(second.dueDate).toBe(secondDue);

    await signIn(page, server);
    await page.getByRole('link', { name: 'Mandates', exact: true }).click();
    await page.getByRole('link', { name: 'streaming-2031' }).click();
    await expect(page).toHaveURL(new RegExp(`#/mandates/${made.mandateId}$`));
    await expect(page.getByRole('heading', { name: 'Mandate streaming-2031' })).toBeVisible();
    const facts = page.getByRole('region', { name: 'The mandate' });
    await expect(fact(facts, 'Status')).toHaveText('SHADOW_ONLY');
    await expect(fact(facts, 'First payment').getByRole('link')).toContainText(made.firstPayment.paymentIntentId);

    const charges = page.getByRole('region', { name: 'Charges' });
    const table = charges.getByRole('table', { name: '2 charges, by cycle' });
    await expect(table).toBeVisible();
    const rows = table.locator('tbody tr');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0).getByRole('rowheader')).toHaveText('Cycle 1');
    await expect(rows.nth(1).getByRole('rowheader')).toHaveText('Cycle 2');
    for (const [n, due] of [[0, made.startDate], [1, secondDue]]) {
      await expect(rows.nth(n)).toContainText(due);
      await expect(rows.nth(n)).toContainText('SHADOW_ONLY');
      await expect(rows.nth(n)).toContainText('99,90');
      await expect(rows.nth(n)).toContainText('none yet');
    }
    await expect(rows.nth(0).getByRole('link', { name: 'Cycle 1' })).toHaveAttribute('href', `#/payments/${first.paymentIntentId}`);
    await page.screenshot({ path: join(screenshotDir, 'console-mandates.png'), fullPage: true });

    // The second cycle's payment: a recurring one, with its due date, its mandate, no attempt.
    await rows.nth(1).getByRole('link', { name: 'Cycle 2' }).click();
    await expect(page).toHaveURL(new RegExp(`#/payments/${second.paymentIntentId}$`));
    await expect(page.getByRole('heading', { name: 'Payment streaming-cycle-2' })).toBeVisible();
    const intent = page.getByRole('region', { name: 'The intent' });
    await expect(fact(intent, 'Id')).toHaveText(second.paymentIntentId);
    await expect(fact(intent, 'Kind')).toHaveText('Recurring');
    await expect(fact(intent, 'Status')).toHaveText('SHADOW_ONLY');
    await expect(fact(intent, 'Amount')).toContainText('99,90');
    const recurring = page.getByRole('region', { name: 'Recurring charge' });
    await expect(fact(recurring, 'Due date')).toHaveText(secondDue);
    await expect(fact(recurring, 'Mandate').getByRole('link')).toContainText(made.mandateId);
    await expect(recurring).toContainText("No attempt yet: a SHADOW store's charge never reaches a payer's bank.");
    await expect(recurring.getByRole('table')).toHaveCount(0);
    // Not a charge with a due date's invoice.
    await expect(page.getByRole('region', { name: 'Invoice' })).toHaveCount(0);

    // Its mandate, by the link: the same charges.
    await fact(recurring, 'Mandate').getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`#/mandates/${made.mandateId}$`));
    await expect(page.getByRole('heading', { name: 'Mandate streaming-2031' })).toBeVisible();
    await expect(table.locator('tbody tr')).toHaveCount(2);
    await expect(table.getByRole('link', { name: 'Cycle 2' })).toHaveAttribute('href', `#/payments/${second.paymentIntentId}`);
  });
});

test.describe('LIVE mandates at the PSP simulator', () => {
  let sim;
  let server;
  let key;

  /** A control call to the simulator (`/_sim/...`), over https with its CA. */
  function control(path, body = {}) {
    const url = new URL(`/_sim${path}`, sim.origin);
    return new Promise((resolve, reject) => {
      const request = https.request(url, { method: 'POST', ca: sim.caPem, headers: { 'Content-Type': 'application/json' } }, (res) => {
        let text = '';
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () => (res.statusCode < 300 ? resolve(JSON.parse(text || '{}')) : reject(new Error(`${path}: ${res.statusCode} ${text}`))));
      });
      request.on('error', reject);
      request.end(JSON.stringify(body));
    });
  }

  /** Waits until the mandate `id` is in `status` (the reconciler reads it back); the mandate. */
  async function waitStatus(id, status) {
    await expect.poll(async () => (await admin(server, 'GET', `/mandates/${id}`)).status, { timeout: 20_000 }).toBe(status);
    return admin(server, 'GET', `/mandates/${id}`);
  }

  /** A mandate of the LIVE store. */
  function liveMandate(idempotencyKey, fields) {
    return mandate(server, key, idempotencyKey, { store: 'academia-app', ...fields });
  }

  test.beforeAll(async () => {
    sim = await startPspSim();
    server = await startPixgate({ PIXGATE_RECONCILE_INTERVAL: '300ms' });
    await sim.addTo(server);
    // A receiving account: the provider takes mandates.
    await admin(server, 'PATCH', '/providers/sandbox-a', {
      account: { branch: '0001', number: '123456', type: 'CORRENTE' },
    });
    await admin(server, 'POST', '/merchants', { code: 'academia', name: 'Academia Forte' });
    await admin(server, 'POST', '/stores', {
      code: 'academia-app', name: 'Academia Forte', merchant: 'academia', mode: 'LIVE', liveEnabled: true,
    });
    await admin(server, 'PUT', '/stores/academia-app/gateways', { gateways: ['sandbox-a-d0'] });
    key = (await admin(server, 'POST', '/api-keys', {
      merchant: 'academia', stores: ['academia-app'], scopes: ['mandates:manage', 'payments:read'],
    })).apiKey;
  });

  test.afterAll(async () => {
    await server?.stop();
    await sim?.stop();
  });

  test('a rejected, a canceled and a failed mandate show why, with the code and the message', async ({ page }) => {
    // PUSH: a request to the payer's bank, which they refuse (AP13).
    const pushed = await liveMandate('browser-push', {
      reference: 'push-refused',
      journey: 'PUSH',
      payerAccount: { ispb: '12345678', branch: '0001', account: '998877' },
    });
    expect(pushed.status).toBe('PENDING_AUTHORIZATION');
    expect(pushed.authorization.expiresAt).toBeTruthy();
    await control(`/rec/${pushed.provider.recurrenceId}/reject`, { code: 'AP13' });
    const rejected = await waitStatus(pushed.mandateId, 'REJECTED');

    // QR: the payer authorises it, then the merchant cancels it.
    const qr = await liveMandate('browser-qr', { reference: 'qr-canceled' });
    await control(`/rec/${qr.provider.recurrenceId}/approve`);
    await waitStatus(qr.mandateId, 'ACTIVE');
    const canceled = await merchant(server, 'POST', `/mandates/${qr.mandateId}/cancel`, {}, key);
    expect(canceled.status).toBe('CANCELED');

    // A first payment the PSP cannot make: the mandate fails and keeps the failed payment.
    await control('/faults', { count: 1, kind: 'error', status: 500, route: 'PUT /cob/{txid}' });
    const failed = await liveMandate('browser-unpaid', {
      reference: 'first-unpaid', journey: 'QR_WITH_FIRST_PAYMENT', firstPayment: { amount: 10 },
    });
    expect(failed.status).toBe('FAILED');

    await signIn(page, server);
    await page.getByRole('link', { name: 'Mandates', exact: true }).click();
    const search = page.getByRole('search', { name: 'Search mandates' });
    await search.getByLabel('Merchant').fill('academia');
    await search.getByRole('combobox', { name: 'Status' }).selectOption('REJECTED');
    await search.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByRole('table', { name: '1 mandate, newest first' })).toBeVisible();
    await page.getByRole('link', { name: 'push-refused' }).click();

    const facts = page.getByRole('region', { name: 'The mandate' });
    await expect(fact(facts, 'Status')).toHaveText('REJECTED');
    await expect(fact(facts, 'Merchant')).toHaveText('academia');
    await expect(fact(facts, 'Journey')).toContainText('PUSH');
    await expect(fact(facts, 'Provider')).toHaveText('sandbox-a');
    await expect(fact(facts, 'Recurrence id')).toHaveText(pushed.provider.recurrenceId);
    await expect(fact(facts, 'Authorization expires')).not.toHaveText('—');
    await expect(fact(facts, 'Rejection')).toContainText('AP13');
    await expect(fact(facts, 'Rejection')).toContainText(rejected.rejection.message);

    await page.getByRole('link', { name: 'Back to the mandates' }).click();
    await search.getByRole('combobox', { name: 'Status' }).selectOption('CANCELED');
    await search.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: 'qr-canceled' }).click();
    await expect(fact(facts, 'Status')).toHaveText('CANCELED');
    await expect(fact(facts, 'Cancellation')).toContainText('by the merchant (MERCHANT)');
    await expect(fact(facts, 'Cancellation')).toContainText(canceled.cancellation.code);
    await expect(fact(facts, 'Cancellation')).toContainText(canceled.cancellation.message);

    // By its URL: the failed one, and its failed first payment.
    await page.goto(`${server.adminOrigin}/console/#/mandates/${failed.mandateId}`);
    await expect(page.getByRole('heading', { name: 'Mandate first-unpaid' })).toBeVisible();
    await expect(fact(facts, 'Status')).toHaveText('FAILED');
    await expect(fact(facts, 'Failure')).toContainText('psp_unavailable');
    await expect(fact(facts, 'Failure')).toContainText(failed.failure.message);
    await fact(facts, 'First payment').getByRole('link').click();
    await expect(page.getByRole('heading', { name: 'Payment first-unpaid' })).toBeVisible();
    await expect(fact(page.getByRole('region', { name: 'The intent' }), 'Status')).toHaveText('FAILED');
  });
});
