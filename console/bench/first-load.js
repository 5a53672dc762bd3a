// The console's first load over loopback, measured in Debian's chromium: the bytes
// transferred (compressed, headers included, from the Resource Timing API) and the time from
// navigation start to the sign-in form being usable (the page's `console-interactive` mark),
// with an empty cache each run. Prints every run and the medians as JSON.
// Run by bench/console.sh, which starts nothing itself: PIXGATE_BIN names the binary.
import { chromium } from '@playwright/test';
import { startPixgate } from '../tests/pixgate.js';

const runs = Number(process.env.RUNS ?? 7);
const server = await startPixgate();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium' });
const results = [];
try {
  for (let i = 0; i < runs + 1; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${server.adminOrigin}/console/`, { waitUntil: 'load' });
    await page.waitForFunction(() => performance.getEntriesByName('console-interactive').length > 0);
    const m = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const resources = performance.getEntriesByType('resource');
      const files = [nav, ...resources].map((e) => ({
        name: new URL(e.name).pathname,
        transferBytes: e.transferSize,
        decodedBytes: e.decodedBodySize,
      }));
      return {
        transferBytes: files.reduce((n, f) => n + f.transferBytes, 0),
        decodedBytes: files.reduce((n, f) => n + f.decodedBytes, 0),
        interactiveMs: performance.getEntriesByName('console-interactive')[0].startTime,
        domContentLoadedMs: nav.domContentLoadedEventEnd,
        loadMs: nav.loadEventEnd,
        files,
      };
    });
    await context.close();
    // The first run also compresses the assets on the server (once per process): not counted.
    if (i > 0) results.push(m);
  }
} finally {
  await browser.close();
  await server.stop();
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const summary = {
  runs: results.length,
  medianTransferBytes: median(results.map((r) => r.transferBytes)),
  medianDecodedBytes: median(results.map((r) => r.decodedBytes)),
  medianInteractiveMs: Number(median(results.map((r) => r.interactiveMs)).toFixed(1)),
  medianDomContentLoadedMs: Number(median(results.map((r) => r.domContentLoadedMs)).toFixed(1)),
  maxInteractiveMs: Number(Math.max(...results.map((r) => r.interactiveMs)).toFixed(1)),
  files: results[0].files,
  interactiveMsPerRun: results.map((r) => Number(r.interactiveMs.toFixed(1))),
};
console.log(JSON.stringify(summary, null, 2));
const ok = summary.medianTransferBytes <= 300 * 1024 && summary.medianInteractiveMs <= 1000;
console.log(ok ? 'within the budget (300 KB compressed, 1 s to interactive)' : 'OVER the budget (300 KB compressed, 1 s to interactive)');
process.exitCode = ok ? 0 : 1;
