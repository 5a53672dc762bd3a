// The book's TypeScript example (docs/src/merchant-guide/typescript.md): type-checked by tsc
// against the package's own types (imported by its name, as a merchant's project does), then
// run against a real `pixgate serve` with a LIVE store at the simulator.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

import { Pixgate, sign } from "../dist/esm/index.js";
import { startWorld, waitFor } from "./harness.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const pkg = resolve(here, "..");
const page = resolve(pkg, "../../docs/src/merchant-guide/typescript.md");
// Inside the package, so `@pixgate/client` resolves to it through its own "exports".
const dir = join(pkg, ".book");
let world, server, sim, key;

before(async () => {
  world = await startWorld();
  ({ server, sim, liveKey: key } = world);
});

after(() => {
  world?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("the book's example type-checks, charges, pages, refunds, makes a mandate and verifies", async () => {
  const match = /<!-- example-typescript -->\n```ts\n([\s\S]*?)```\n<!-- \/example-typescript -->/.exec(readFileSync(page, "utf8"));
  assert.ok(match, `no example-typescript block in ${page}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  writeFileSync(join(dir, "example.ts"), match[1]);
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
    compilerOptions: {
      target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true,
      types: ["node"], outDir: ".", rootDir: ".", skipLibCheck: false,
    },
    files: ["example.ts"],
  }));
  execFileSync(join(pkg, "node_modules/.bin/tsc"), ["-p", join(dir, "tsconfig.json")], { stdio: "inherit" });

  const pixgate = new Pixgate({ apiKey: key, baseUrl: server.api });
  const paid = await pixgate.payments.charge({ store: "padaria-web", amount: 25, reference: "order-paid",
    payer: { name: "Ana Souza", taxId: "529.982.247-25" } });
  await sim.pay(paid.pix.txid);
  await waitFor(() => pixgate.payments.get(paid.paymentIntentId), (p) => p.status === "SUCCEEDED");
  Object.assign(process.env, {
    PIXGATE_API_KEY: key, PIXGATE_BASE_URL: server.api, PAID_PAYMENT_ID: paid.paymentIntentId,
    START_DATE: new Date(Date.now() + 20 * 86400000).toISOString().slice(0, 10),
    PIXGATE_WEBHOOK_SECRET: "whsec_book",
  });
  const printed = [];
  const log = console.log;
  console.log = (...args) => printed.push(args.join(" "));
  let example;
  try {
    example = await import(pathToFileURL(join(dir, "example.js")).href);
  } finally {
    console.log = log;
  }
  const out = printed.join("\n");
  assert.match(out, /^charge [0-9a-f-]{36} PENDING 00020101/m);
  assert.ok(out.includes(`paid ${paid.paymentIntentId} 25`), out);
  assert.match(out, /^refund [0-9a-f-]{36} (SUCCEEDED|PENDING)$/m);
  assert.match(out, /^mandate [0-9a-f-]{36} PENDING_AUTHORIZATION$/m);
  const body = new TextEncoder().encode(JSON.stringify({ id: "d-1", type: "payment.succeeded" }));
  console.log = () => {};
  try {
    assert.equal(await example.handleWebhook(body, await sign(body, "whsec_book")), 204);
    assert.equal(await example.handleWebhook(body, await sign(body, "whsec_other")), 400);
  } finally {
    console.log = log;
  }
});
