// The browser suite: Debian's chromium (never a downloaded browser), one worker (the machine
// has two cores), each test file with a pixgate of its own (tests/pixgate.js).
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'tests',
  testMatch: '*.spec.js',
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  forbidOnly: !!process.env.CI,
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium' },
    viewport: { width: 1280, height: 800 },
    trace: 'off',
    screenshot: 'off',
  },
});
