// The real server for the client's tests: `pixgate serve` on a fresh data dir (SQLite, ports 0),
// `pixgate psp-sim --plain-http` as the LIVE store's PSP, a proxy that loses answers, and an
// HTTPS webhook receiver with a test CA (openssl). The binary is PIXGATE_BIN, else the
// workspace's target/debug/pixgate.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(new URL(".", import.meta.url)), "../../..");
const BIN = process.env.PIXGATE_BIN || join(root, "target/debug/pixgate");

function start(args, env, ready) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(BIN, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let text = "";
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${args[0]} did not get ready:\n${text}`));
    }, 60000);
    const read = (chunk) => {
      text += chunk;
      if (ready.test(text)) {
        clearTimeout(timer);
        resolvePromise({ child, text });
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", () => {
      clearTimeout(timer);
      reject(new Error(`${args[0]} exited:\n${text}`));
    });
  });
}

const line = (text, pattern) => {
  const match = pattern.exec(text);
  if (!match) throw new Error(`no ${pattern} in:\n${text}`);
  return match[1];
};

export function makeCertificates() {
  const dir = mkdtempSync(join(tmpdir(), "pixgate-ts-certs-"));
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];
  const openssl = (...args) => execFileSync("openssl", args, { stdio: "ignore" });
  openssl("req", "-x509", ...ec, "-days", "1", "-subj", "/CN=pixgate client tests CA",
    "-keyout", join(dir, "ca-key.pem"), "-out", join(dir, "ca.pem"));
  openssl("req", ...ec, "-subj", "/CN=receiver", "-keyout", join(dir, "receiver-key.pem"),
    "-out", join(dir, "receiver.csr"));
  writeFileSync(join(dir, "ext"), "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
  openssl("x509", "-req", "-in", join(dir, "receiver.csr"), "-CA", join(dir, "ca.pem"),
    "-CAkey", join(dir, "ca-key.pem"), "-CAcreateserial", "-days", "1",
    "-out", join(dir, "receiver.pem"), "-extfile", join(dir, "ext"));
  return dir;
}

export async function startServer(certs) {
  const dataDir = mkdtempSync(join(tmpdir(), "pixgate-ts-"));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("PIXGATE_")));
  Object.assign(env, {
    PIXGATE_DATA_DIR: dataDir, PIXGATE_LISTEN: "127.0.0.1:0", PIXGATE_ADMIN_LISTEN: "127.0.0.1:0",
    PIXGATE_LOG: "warn", PIXGATE_RECONCILE_INTERVAL: "1s", PIXGATE_RECONCILE_DAILY_AT: "off",
    PIXGATE_WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32", PIXGATE_WEBHOOK_CA_FILE: join(certs, "ca.pem"),
  });
  const { child, text } = await start(["serve"], env, /^pixgate: ready/m);
  const server = {
    api: line(text, /^pixgate: merchant API on (\S+)/m),
    admin: line(text, /^pixgate: admin API on (\S+)/m),
    demoKey: line(text, /^pixgate: demo merchant.*: (\S+)/m),
    token: line(text, /^pixgate: admin token.*: (\S+)/m),
    async adminCall(method, path, body) {
      const answer = await fetch(server.admin + path, {
        method, headers: { Authorization: `Bearer ${server.token}`, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
      return (await answer.json()).data;
    },
    stop() {
      child.removeAllListeners("exit");
      child.kill("SIGTERM");
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

export async function startSimulator() {
  const { child, text } = await start(["psp-sim", "--listen", "127.0.0.1:0", "--plain-http"], process.env, /^psp-sim: ready/m);
  const origin = line(text, /^psp-sim: listening on (\S+)/m);
  return {
    origin,
    async stats() {
      return (await fetch(`${origin}/_sim/stats`)).json();
    },
    async switches(patch) {
      const answer = await fetch(`${origin}/_sim/switches`, {
        method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify(patch),
      });
      if (!answer.ok) throw new Error(`switches: ${answer.status}`);
    },
    async pay(txid) {
      const answer = await fetch(`${origin}/_sim/cob/${txid}/pay`, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: "{}",
      });
      if (!answer.ok) throw new Error(`pay ${txid}: ${answer.status}`);
    },
    stop() {
      child.removeAllListeners("exit");
      child.kill("SIGTERM");
    },
  };
}

/** A LIVE store `padaria-web` at the simulator and a key for it with every merchant scope. */
export async function setUpLive(server, sim) {
  await server.adminCall("POST", "/providers", {
    code: "sandbox-a", name: "Sandbox A (psp-sim)", apiBaseUrl: `${sim.origin}/api/v2`,
    tokenUrl: `${sim.origin}/oauth/token`, clientId: "psp-sim-client", clientSecret: "psp-sim-secret",
    pixKey: "7d9f0335-8dcc-4054-9bf9-0dbd61d36906",
    account: { branch: "0001", number: "1234567-8", type: "CORRENTE" },
  });
  await server.adminCall("POST", "/merchants", { code: "padaria", name: "Padaria Pao Quente" });
  await server.adminCall("POST", "/stores", {
    code: "padaria-web", name: "Padaria Pao Quente", merchant: "padaria", mode: "LIVE", liveEnabled: true,
  });
  await server.adminCall("PUT", "/stores/padaria-web/gateways", { gateways: ["sandbox-a-d0"] });
  const key = await server.adminCall("POST", "/api-keys", {
    merchant: "padaria", stores: ["padaria-web"],
    scopes: ["payments:create", "payments:read", "payments:refund", "webhooks:manage", "mandates:manage"],
  });
  return key.apiKey;
}

/**
 * An HTTP proxy in front of the server that plays a script, one entry per request: "drop"
 * (forward it, then destroy the connection without answering: the server did the work, the
 * client never hears), "503" (answer 503 `psp_unavailable` without forwarding), "429" (answer
 * 429 `rate_limited` with `Retry-After: 1`), "hang" (wait 3 s, then destroy the connection
 * without answering), or "pass". `seen` records each request's method,
 * path and Idempotency-Key.
 */
export async function lossyProxy(upstream, script) {
  const target = new URL(upstream);
  const seen = [];
  const answered = [];
  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on("data", (c) => chunks.push(c));
    request.on("end", async () => {
      const body = Buffer.concat(chunks);
      seen.push([request.method, request.url, request.headers["idempotency-key"] ?? null]);
      const action = script.length ? script.shift() : "pass";
      if (action === "hang") {
        setTimeout(() => request.socket.destroy(), 3000);
        return;
      }
      if (action === "503" || action === "429") {
        const code = action === "503" ? "psp_unavailable" : "rate_limited";
        const headers = { "Content-Type": "application/json" };
        if (action === "429") headers["Retry-After"] = "1";
        response.writeHead(Number(action), headers);
        response.end(JSON.stringify({ success: false, error: { code, message: "from the proxy" } }));
        return;
      }
      const headers = { ...request.headers };
      delete headers.host;
      delete headers.connection;
      delete headers["content-length"];
      const answer = await fetch(`${target.origin}${request.url}`, {
        method: request.method, headers, body: body.length ? body : undefined,
      });
      const text = Buffer.from(await answer.arrayBuffer());
      if (action === "drop") {
        request.socket.destroy();
        return;
      }
      answered.push([answer.status, answer.status >= 400 ? JSON.parse(text.toString()).error?.code ?? null : null]);
      const out = {};
      answer.headers.forEach((value, name) => {
        if (!["content-length", "transfer-encoding", "connection", "content-encoding"].includes(name)) out[name] = value;
      });
      response.writeHead(answer.status, out);
      response.end(text);
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}${target.pathname}`,
    seen,
    answered,
    close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(r); }),
  };
}

/** An HTTPS webhook receiver that keeps each delivery's raw body and headers. */
export async function receiver(certs) {
  const deliveries = [];
  const server = https.createServer({
    cert: readFileSync(join(certs, "receiver.pem")), key: readFileSync(join(certs, "receiver-key.pem")),
  }, (request, response) => {
    const chunks = [];
    request.on("data", (c) => chunks.push(c));
    request.on("end", () => {
      deliveries.push({ body: Buffer.concat(chunks), headers: request.headers });
      response.writeHead(204);
      response.end();
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `https://127.0.0.1:${server.address().port}/hooks/pixgate`,
    deliveries,
    close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(r); }),
  };
}

export async function waitFor(read, done, seconds = 30) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * What both suites run against: a test CA, `pixgate serve`, the simulator and a LIVE store at
 * it (`liveKey`); `stop()` ends the processes and removes the certificates.
 */
export async function startWorld() {
  const certs = makeCertificates();
  const server = await startServer(certs);
  const sim = await startSimulator();
  const liveKey = await setUpLive(server, sim);
  return {
    certs, server, sim, liveKey,
    stop() {
      server.stop();
      sim.stop();
      rmSync(certs, { recursive: true, force: true });
    },
  };
}
