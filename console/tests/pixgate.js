// The real pixgate for the browser tests: `pixgate serve` on free loopback ports with a new
// data dir (so a new SQLite database with the demo merchant, SHADOW store and key), read from
// the start-up lines it prints; plus the API calls the tests use to set the scene.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { test as base, expect } from '@playwright/test';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** The binary under test: PIXGATE_BIN, or the debug build of this checkout. */
export const pixgateBin = process.env.PIXGATE_BIN ?? join(repo, 'target', 'debug', 'pixgate');

/** Runs `args` and resolves once stdout printed `readyLine`, with every line printed so far. */
function start(args, env, readyLine) {
  const child = spawn(pixgateBin, args, {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = [];
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args[0]} did not start in 60 s:\n${stderr}`)), 60_000);
    child.on('exit', (code) => reject(new Error(`${args[0]} exited with ${code}:\n${stderr}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      if (line === readyLine) {
        clearTimeout(timer);
        resolvePromise({ child, lines });
      }
    });
  });
}

function after(lines, prefix) {
  const line = lines.find((l) => l.startsWith(prefix));
  return line?.slice(prefix.length).trim();
}

/** Starts a pixgate; `env` adds settings. */
export async function startPixgate(env = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'pixgate-browser-'));
  const { child, lines } = await start(
    ['serve'],
    {
      PIXGATE_DATA_DIR: dataDir,
      PIXGATE_LISTEN: '127.0.0.1:0',
      PIXGATE_ADMIN_LISTEN: '127.0.0.1:0',
      PIXGATE_LOG: 'warn',
      ...env,
    },
    'pixgate: ready',
  );
  const merchantApi = after(lines, 'pixgate: merchant API on ');
  const adminApi = after(lines, 'pixgate: admin API on ');
  const demo = lines.find((l) => l.startsWith('pixgate: demo merchant'));
  return {
    merchantApi,
    adminApi,
    adminOrigin: new URL(adminApi).origin,
    merchantOrigin: new URL(merchantApi).origin,
    adminToken: after(lines, 'pixgate: admin token').split(' ').pop(),
    demoKey: demo.split(' ').pop(),
    demoStore: demo.match(/SHADOW store `([^`]+)`/)[1],
    dataDir,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r() : child.on('exit', r)));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An admin API call as the bootstrap admin (or `token`); the envelope's data, or throws. */
export async function admin(server, method, path, body, token = server.adminToken) {
  const headers = { Authorization: `Bearer ${token}` };
  let payload;
  if (body instanceof Uint8Array) {
    headers['Content-Type'] = 'application/wasm';
    payload = body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const r = await fetch(`${server.adminApi}${path}`, { method, headers, body: payload });
  const json = await r.json();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** A merchant API call with `key`; the envelope's data, or throws. */
export async function merchant(server, method, path, body, key = server.demoKey, idempotencyKey) {
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  const r = await fetch(`${server.merchantApi}${path}`, { method, headers, body: JSON.stringify(body) });
  const json = await r.json();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** A charge on `store` (the demo store by default) with this reference. */
export function charge(server, reference, { store = server.demoStore, amount = 129.9, key } = {}) {
  return merchant(
    server,
    'POST',
    '/payments/charge',
    {
      store,
      amount,
      reference,
      description: `Order ${reference}`,
      payer: { name: 'Ana Souza', taxId: '529.982.247-25', email: 'ana.souza@example.com' },
      metadata: { orderId: reference },
    },
    key,
    `browser-${reference}`,
  );
}

/** A component built from policies/ by `cargo build` (sandbox/build.rs puts them here). */
export function guestWasm(name) {
  const target = process.env.CARGO_TARGET_DIR ?? join(repo, 'target');
  return readFileSync(join(target, 'wasm-guests', 'wasm32-wasip2', 'guest', `${name}.wasm`));
}

/** A new operator of `role`; their token. */
export async function operatorToken(server, role) {
  const created = await admin(server, 'POST', '/operators', { name: `${role} in the browser test`, role });
  return created.token;
}

/** The key the simulator's provider receives to. */
const SIM_PIX_KEY = '7d9f0335-8dcc-4054-9bf9-0dbd61d36906';

/** The simulated PSP over https (its own CA), for LIVE charges. */
export async function startPspSim() {
  const certDir = mkdtempSync(join(tmpdir(), 'pixgate-browser-sim-'));
  const { child, lines } = await start(
    ['psp-sim', '--listen', '127.0.0.1:0', '--cert-dir', certDir],
    {},
    'psp-sim: ready',
  );
  const origin = after(lines, 'psp-sim: listening on ');
  const caPem = readFileSync(join(certDir, 'ca.pem'), 'utf8');
  return {
    origin,
    certDir,
    caPem,
    /** The simulator's key: what it pays to, as a provider's `pixKey`. */
    pixKey: SIM_PIX_KEY,
    /** Registers this simulator with `server` as provider `sandbox-a`, over its CA. */
    async addTo(server) {
      return admin(server, 'POST', '/providers', {
        code: 'sandbox-a',
        name: 'Sandbox A (psp-sim)',
        apiBaseUrl: `${origin}/api/v2`,
        tokenUrl: `${origin}/oauth/token`,
        clientId: 'psp-sim-client',
        clientSecret: 'psp-sim-secret',
        pixKey: SIM_PIX_KEY,
        tls: { caPem },
      });
    },
    /** A control call (`POST /_sim/...`), over https with its CA; the answer, or throws. */
    control(path, body = {}) {
      const url = new URL(path, origin);
      return new Promise((resolve, reject) => {
        const request = https.request(url, { method: 'POST', ca: caPem, headers: { 'Content-Type': 'application/json' } }, (res) => {
          let text = '';
          res.on('data', (d) => {
            text += d;
          });
          res.on('end', () => (res.statusCode < 300 ? resolve(JSON.parse(text || '{}')) : reject(new Error(`${path}: ${res.statusCode} ${text}`))));
        });
        request.on('error', reject);
        request.end(JSON.stringify(body));
      });
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r() : child.on('exit', r)));
      rmSync(certDir, { recursive: true, force: true });
    },
  };
}

/** A merchant's https webhook receiver on loopback that answers 204 to every delivery. */
export async function startReceiver(certDir) {
  const received = [];
  const server = https.createServer(
    { cert: readFileSync(join(certDir, 'server.pem')), key: readFileSync(join(certDir, 'server-key.pem')) },
    (req, res) => {
      let body = '';
      req.on('data', (d) => {
        body += d;
      });
      req.on('end', () => {
        received.push(JSON.parse(body));
        res.writeHead(204).end();
      });
    },
  );
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `https://127.0.0.1:${server.address().port}/pixgate`,
    received,
    stop: () => new Promise((r) => server.close(r)),
  };
}

/**
 * `PIXGATE_CONSOLE_DIST` (a directory, e.g. `dist`): the console's own files are served from
 * there instead of from the binary, which embeds `console/dist` when it is built; for trying
 * a console change on a binary built before it. Unset, as in CI, the binary serves them.
 */
const consoleDist = process.env.PIXGATE_CONSOLE_DIST;
const CONSOLE_TYPES = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', html: 'text/html; charset=utf-8' };

/**
 * The test fixture: a page that records every request it makes and every console error,
 * and fails the test when one went to another origin than those the test allowed
 * ([allowOrigins]) or when an error was logged, other than a failed load of a URL the test
 * expects to fail ([expectFailure]).
 */
export const test = base.extend({
  page: async ({ page }, use, testInfo) => {
    const requests = [];
    const errors = [];
    const notes = (type) => testInfo.annotations.filter((a) => a.type === type).map((a) => a.description);
    page.on('request', (r) => requests.push(r.url()));
    if (consoleDist) {
      await page.route(/\/console\/(console\.(js|css))?$/, (route) => {
        const name = new URL(route.request().url()).pathname.split('/').pop() || 'index.html';
        route.fulfill({
          body: readFileSync(join(consoleDist, name)),
          contentType: CONSOLE_TYPES[name.split('.').pop()],
        });
      });
    }
    page.on('console', (m) => {
      if (m.type() !== 'error') return;
      const expected =
        m.text().startsWith('Failed to load resource') &&
        notes('expected-failure').some((part) => m.location().url.includes(part));
      if (!expected) errors.push(`${m.text()} (${m.location().url})`);
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    page.requests = requests;
    await use(page);
    const origins = notes('origin');
    const foreign = requests.filter((u) => !origins.some((o) => u.startsWith(`${o}/`)));
    expect(foreign, 'requests to another origin').toEqual([]);
    expect(errors, 'console errors').toEqual([]);
  },
});

/** States an origin this test's page may talk to (checked when the test ends). */
export function allowOrigins(...origins) {
  for (const o of origins) test.info().annotations.push({ type: 'origin', description: o });
}

/** States that loading a URL containing `part` fails on purpose (the browser logs it). */
export function expectFailure(part) {
  test.info().annotations.push({ type: 'expected-failure', description: part });
}

export { expect };

/** Signs in on the console with `token`; resolves once the section navigation shows. */
export async function signIn(page, server, token = server.adminToken) {
  allowOrigins(server.adminOrigin);
  await page.goto(`${server.adminOrigin}/console/`);
  await page.getByLabel('Operator token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Sections' })).toBeVisible();
}

/** Where the tests write the screenshots the docs show. */
export const screenshotDir = join(repo, 'docs', 'src', 'images');
