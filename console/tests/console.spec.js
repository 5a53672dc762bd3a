// The console in a real browser against a real pixgate: each test reads as what an operator
// does and sees. One pixgate serves the whole file (a new data dir, so the demo data).
import { join } from 'node:path';
import {
  admin, allowOrigins, charge, expect, expectFailure, guestWasm, operatorToken, screenshotDir, signIn, startPixgate, test,
} from './pixgate.js';

let server;
test.beforeAll(async () => {
  server = await startPixgate();
});
test.afterAll(async () => {
  await server?.stop();
});

const COSTLIEST = 'pixgate_fixture_costliest_first';

test('an admin signs in and finds the demo store', async ({ page }) => {
  await signIn(page, server);
  // The overview is the landing view; the stores are one click away.
  await expect(page.getByRole('heading', { name: 'Is anything on fire?' })).toBeVisible();
  await page.getByRole('link', { name: 'Stores', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Stores' })).toBeVisible();
  await page.getByLabel('Find a store').fill(server.demoStore);
  const row = page.getByRole('row', { name: new RegExp(server.demoStore) });
  await expect(row).toContainText('SHADOW');
  await page.screenshot({ path: join(screenshotDir, 'console-stores.png') });
  await row.getByRole('link', { name: server.demoStore }).click();
  await expect(page.getByRole('heading', { name: `Store ${server.demoStore}` })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'provider', exact: true })).toBeVisible();
  await expect(page.getByText(/armed: rolls back at|^off$/)).toBeVisible();
});

test('a wrong token shows an error and nothing else', async ({ page }) => {
  allowOrigins(server.adminOrigin);
  expectFailure('/admin/v1/'); // the 401s of the wrong token
  await page.goto(`${server.adminOrigin}/console/`);
  await page.getByLabel('Operator token').fill('not-a-token');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('not accepted');
  await expect(page.getByRole('navigation', { name: 'Sections' })).toHaveCount(0);
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
});

test('the token never lands in a cookie or a URL', async ({ page, context }) => {
  await signIn(page, server);
  for (const section of ['Components', 'Payments', 'Providers', 'Stores']) {
    await page.getByRole('link', { name: section, exact: true }).click();
    await expect(page.getByRole('heading', { name: section, level: 1 })).toBeVisible();
  }
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Sections' })).toBeVisible();
  expect(await context.cookies()).toEqual([]);
  expect(page.url()).not.toContain(server.adminToken);
  expect(page.requests.filter((u) => u.includes(server.adminToken))).toEqual([]);
  expect(await page.evaluate(() => localStorage.length)).toBe(0);
  expect(await page.evaluate(() => document.cookie)).toBe('');
  // Signing out forgets it.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByLabel('Operator token')).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
});

test('signing in works with the keyboard alone', async ({ page }) => {
  allowOrigins(server.adminOrigin);
  await page.goto(`${server.adminOrigin}/console/`);
  await expect(page.getByLabel('Operator token')).toBeFocused();
  await page.keyboard.type(server.adminToken);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('navigation', { name: 'Sections' })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Overview', exact: true })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Stores', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Stores', level: 1 })).toBeVisible();
});

test('a viewer sees the store but no activate button', async ({ page }) => {
  const token = await operatorToken(server, 'viewer');
  await signIn(page, server, token);
  await expect(page.getByText('viewer', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Stores', exact: true }).click();
  await page.getByRole('link', { name: server.demoStore }).click();
  await expect(page.getByRole('heading', { name: 'provider', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Activate/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Roll back/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /candidate/ })).toHaveCount(0);
  await page.getByRole('link', { name: 'Replay', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Run the replay' })).toHaveCount(0);
});

test('a tester can replay but not activate', async ({ page }) => {
  const token = await operatorToken(server, 'tester');
  await signIn(page, server, token);
  await page.getByRole('link', { name: 'Stores', exact: true }).click();
  await page.getByRole('link', { name: server.demoStore }).click();
  await expect(page.getByRole('heading', { name: 'provider', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Activate/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Set provider candidate' })).toBeVisible();
  await page.getByRole('link', { name: 'Replay', exact: true }).click();
  await page.getByRole('button', { name: 'Run the replay' }).click();
  await expect(page.getByRole('heading', { name: `Replay of ${server.demoStore}` })).toBeVisible();
});

test('an operator uploads a version, activates it and rolls it back', async ({ page }) => {
  await signIn(page, server);
  await page.getByRole('link', { name: 'Components', exact: true }).click();
  await page.getByRole('combobox', { name: 'Step' }).selectOption('provider');
  await page.getByLabel('Component file (.wasm)').setInputFiles({
    name: `${COSTLIEST}.wasm`,
    mimeType: 'application/wasm',
    buffer: guestWasm(COSTLIEST),
  });
  // The label people will know it by: the file's name, unless one is typed.
  await expect(page.getByLabel('Label', { exact: true })).toHaveValue(COSTLIEST);
  await page.getByRole('button', { name: 'Upload' }).click();
  const uploaded = page.getByRole('status').filter({ hasText: 'Uploaded provider version' });
  await expect(uploaded).toBeVisible();
  await expect(uploaded).toContainText(`(${COSTLIEST})`);
  const version = (await uploaded.locator('code').textContent()).trim();
  await expect(page.getByRole('cell', { name: COSTLIEST, exact: true })).toBeVisible();
  await page.screenshot({ path: join(screenshotDir, 'console-components.png'), fullPage: true });

  await page.getByRole('link', { name: 'Stores', exact: true }).click();
  await page.getByRole('link', { name: server.demoStore }).click();
  const provider = page.getByRole('article', { name: 'provider' });
  await provider.getByLabel('Version to activate').selectOption(version);
  await provider.getByRole('button', { name: 'Activate provider' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Activate provider ${version.slice(0, 12)}?`);
  await dialog.getByRole('button', { name: 'Activate' }).click();
  await expect(provider.getByRole('definition').first()).toHaveText(version.slice(0, 12));
  await expect(page.getByRole('table').getByRole('row').nth(1)).toContainText('activate');

  await provider.getByRole('button', { name: 'Roll back provider' }).click();
  await expect(dialog).toContainText('Roll back provider?');
  await dialog.getByRole('button', { name: 'Roll back' }).click();
  await expect(provider.getByRole('definition').first()).toHaveText('bundled');
  await expect(page.getByRole('table').getByRole('row').nth(1)).toContainText('rollback');
  const components = await admin(server, 'GET', `/stores/${server.demoStore}/components`);
  expect(components.steps.provider.active).toBe('bundled');
});

test('a replay with another provider step shows its chart and the changed charges', async ({ page }) => {
  for (let n = 1; n <= 6; n++) await charge(server, `replay-${n}`, { amount: 10 * n + 0.9 });
  const version = (await admin(server, 'POST', '/components/provider', guestWasm(COSTLIEST))).version;
  await signIn(page, server);
  await page.getByRole('link', { name: 'Replay', exact: true }).click();
  await page.getByRole('combobox', { name: 'Store' }).selectOption(server.demoStore);
  await page.getByRole('combobox', { name: 'provider' }).selectOption(version);
  await page.getByRole('button', { name: 'Run the replay' }).click();
  const report = page.getByRole('region', { name: `Replay of ${server.demoStore}` });
  await expect(report).toBeVisible();
  const chart = report.getByRole('img', { name: 'Charges per provider, before and after' });
  await expect(chart.locator('canvas')).toBeVisible();
  await expect(report.getByRole('table', { name: /changed charges/ })).toBeVisible();
  await expect(report.getByText('Fee delta')).toBeVisible();
  await report.getByText('The report as JSON').click();
  await expect(report.locator('pre')).toContainText('"providersAfter"');
  await page.screenshot({ path: join(screenshotDir, 'console-replay.png'), fullPage: true });
});

test('a payment is found by its reference and its trace opens', async ({ page }) => {
  const intent = await charge(server, 'order-browser-42', { amount: 42.5 });
  await signIn(page, server);
  await page.getByRole('link', { name: 'Payments', exact: true }).click();
  await page.getByLabel('Reference').fill('order-browser-42');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('table')).toContainText('SHADOW_ONLY');
  await page.getByRole('link', { name: 'order-browser-42' }).click();
  await expect(page.getByRole('heading', { name: 'Payment order-browser-42' })).toBeVisible();
  await expect(page.getByText(intent.paymentIntentId)).toBeVisible();
  const trace = page.getByRole('region', { name: 'Decision trace' });
  await expect(trace.getByRole('heading', { name: 'provider' })).toBeVisible();
  await expect(trace.getByText('No PSP was called for this payment.')).toBeVisible();
  await page.screenshot({ path: join(screenshotDir, 'console-payment.png'), fullPage: true });
});

test('a payment opened by link or after a reload shows its status and amount', async ({ page }) => {
  const intent = await charge(server, 'order-browser-43', { amount: 43.21 });
  await signIn(page, server);
  // By its id from the payments view, then reloaded: read from the admin API each time.
  await page.getByRole('link', { name: 'Payments', exact: true }).click();
  await page.getByLabel('Payment id, txid or endToEndId').fill(intent.paymentIntentId);
  await page.getByRole('button', { name: 'Find' }).click();
  const facts = page.getByRole('region', { name: 'The intent' });
  await expect(facts).toContainText('SHADOW_ONLY');
  await expect(facts).toContainText('43,21');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Payment order-browser-43' })).toBeVisible();
  await expect(facts).toContainText('SHADOW_ONLY');
  await expect(facts).toContainText(intent.paymentIntentId);
});

test('the shadow comparison shows how often a candidate differs', async ({ page }) => {
  const version = (await admin(server, 'POST', '/components/provider', guestWasm(COSTLIEST))).version;
  await admin(server, 'PUT', `/stores/${server.demoStore}/components/provider/candidate`, { version });
  for (let n = 1; n <= 5; n++) await charge(server, `shadow-${n}`, { amount: 25 * n + 0.5 });
  await signIn(page, server);
  await page.getByRole('link', { name: 'Shadow', exact: true }).click();
  await page.getByRole('combobox', { name: 'Store' }).selectOption(server.demoStore);
  await page.getByRole('combobox', { name: 'Step' }).selectOption('provider');
  const report = page.getByRole('region', { name: `${server.demoStore} · provider` });
  await expect(report.getByText(version.slice(0, 12))).toBeVisible();
  // The candidate runs off the request path: wait for its comparisons to be recorded.
  await expect(async () => {
    await report.getByRole('button', { name: 'Refresh' }).click();
    await expect(report.getByText('5 charges')).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await page.screenshot({ path: join(screenshotDir, 'console-shadow.png'), fullPage: true });
  await admin(server, 'DELETE', `/stores/${server.demoStore}/components/provider/candidate`);
});

test('providers and their gateways are listed', async ({ page }) => {
  await signIn(page, server);
  await page.getByRole('link', { name: 'Providers', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Gateways' })).toBeVisible();
  await expect(page.getByRole('row', { name: /sandbox-a-d0/ })).toBeVisible();
});

test('operators and the audit trail are shown to an admin', async ({ page }) => {
  await signIn(page, server);
  await page.getByRole('link', { name: 'Operators', exact: true }).click();
  await page.getByLabel('Name').fill('Rita from payment-ops');
  await page.getByLabel('Role').selectOption('operator');
  await page.getByRole('button', { name: 'Add the operator' }).click();
  await expect(page.getByLabel('Token')).not.toHaveValue('');
  await expect(page.getByRole('row', { name: /Rita from payment-ops/ })).toContainText('operator');
  // Each operator's id is beside the name, in the list and in the trail: names may look alike.
  await expect(page.getByRole('row', { name: /Rita from payment-ops/ }))
    .toContainText(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
  await page.getByRole('link', { name: 'Audit trail', exact: true }).click();
  await expect(page.getByRole('table')).toContainText('Rita from payment-ops');
  await expect(page.getByRole('row', { name: /operator\.create/ }).first()).toContainText('bootstrap admin token bootstrap');
});

test('the console is usable on a phone-sized screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, server);
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  await expect(page.getByRole('heading', { name: 'Totals, the last 24 hours' })).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.getByRole('link', { name: 'Stores', exact: true }).click();
  await expect(page.getByRole('link', { name: server.demoStore })).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.getByRole('link', { name: server.demoStore }).click();
  await expect(page.getByRole('heading', { name: 'provider', exact: true })).toBeVisible();
  await page.screenshot({ path: join(screenshotDir, 'console-phone.png'), fullPage: true });
});

test('both listeners serve an interactive API reference from their own origin', async ({ page }) => {
  allowOrigins(server.adminOrigin, server.merchantOrigin);
  await page.goto(`${server.adminOrigin}/admin/v1/docs`);
  await expect(page.getByRole('heading', { name: /pixgate admin API/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /Authorize/ })).toBeVisible();
  await page.goto(`${server.merchantOrigin}/api/v1/docs`);
  await expect(page.getByRole('heading', { name: /pixgate merchant payment API/ })).toBeVisible();
  await page.screenshot({ path: join(screenshotDir, 'console-api-reference.png') });
});

test('the console is served gzipped, revalidated and locked to its own origin', async ({ request }) => {
  const page = await request.get(`${server.adminOrigin}/console/`, { headers: { 'Accept-Encoding': 'gzip' } });
  expect(page.status()).toBe(200);
  const headers = page.headers();
  expect(headers['content-type']).toBe('text/html; charset=utf-8');
  expect(headers['content-encoding']).toBe('gzip');
  expect(headers['cache-control']).toBe('no-cache');
  expect(headers['content-security-policy']).toMatch(/^default-src 'self';/);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(await page.text()).toContain('<script defer src="console.js"></script>');
  const again = await request.get(`${server.adminOrigin}/console/console.js`, {
    headers: { 'If-None-Match': (await request.get(`${server.adminOrigin}/console/console.js`)).headers().etag },
  });
  expect(again.status()).toBe(304);
  const redirect = await request.get(`${server.adminOrigin}/console`, { maxRedirects: 0 });
  expect(redirect.status()).toBe(308);
  expect(redirect.headers().location).toBe('/console/');
  const missing = await request.get(`${server.adminOrigin}/console/secrets.txt`);
  expect(missing.status()).toBe(404);
  expect((await missing.json()).error.code).toBe('not_found');
  // The merchant listener serves its reference, and no console.
  expect((await request.get(`${server.merchantOrigin}/api/v1/docs/docs.js`)).status()).toBe(200);
  expect((await request.get(`${server.merchantOrigin}/console/`)).status()).toBe(404);
});

test('an operator starts a canary, sees its figures and promotes it', async ({ page }) => {
  const RENAMED = 'pixgate_fixture_renamed';
  const version = (await admin(server, 'POST', '/components/policy', guestWasm(RENAMED))).version;
  await signIn(page, server);
  await page.getByRole('link', { name: 'Stores', exact: true }).click();
  await page.getByRole('link', { name: server.demoStore }).click();
  const policy = page.getByRole('article', { name: 'policy' });
  await policy.getByLabel('Canary version').selectOption(version);
  await policy.getByLabel('Share (%)').fill('50');
  await policy.getByRole('button', { name: 'Start policy canary' }).click();
  await expect(policy.getByText(`${version.slice(0, 12)} on 50 % of charges`)).toBeVisible();
  for (let n = 1; n <= 12; n++) await charge(server, `canary-${n}`);
  await page.reload();
  const figures = policy.getByLabel('policy canary figures');
  await expect(figures).toContainText('Share so far');
  await expect(figures).toContainText(/ends at 5 % over 300 s/);
  await page.screenshot({ path: join(screenshotDir, 'console-canary.png'), fullPage: true });

  await policy.getByRole('button', { name: 'Promote policy canary' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Promote the policy canary?');
  await dialog.getByRole('button', { name: 'Promote' }).click();
  await expect(policy.getByRole('definition').first()).toHaveText(version.slice(0, 12));
  await expect(page.getByRole('table')).toContainText('canary_end');
  const canary = await admin(server, 'GET', `/stores/${server.demoStore}/components/policy/canary`);
  expect(canary.endedBy).toBe('promoted');
  // Back to the bundled policy for the tests after this one.
  await admin(server, 'PUT', `/stores/${server.demoStore}/components/policy`, { version: 'bundled' });
});
