// Opens one page in Debian's headless Chromium (driven by playwright-core, which downloads nothing), waits for
// the page's `window.weftTest()` promise and prints its result as one JSON line.
// Usage: node run_page.js <url> <fresh user-data-dir> [extra Chromium flags...]
'use strict';
const { chromium } = require('playwright-core');

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--ignore-certificate-errors'];

async function main() {
  const [url, userDataDir, ...extra] = process.argv.slice(2);
  if (!url || !userDataDir) {
    throw new Error('usage: run_page.js <url> <user-data-dir> [flags...]');
  }
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    ignoreHTTPSErrors: true,
    args: FLAGS.concat(extra),
    timeout: 30000,
  });
  try {
    const page = context.pages()[0] || await context.newPage();
    const console_ = [];
    page.on('console', m => console_.push(m.type() + ': ' + m.text()));
    page.on('pageerror', e => console_.push('pageerror: ' + e.message));
    const response = await page.goto(url, { timeout: 20000 });
    await page.waitForFunction(() => typeof window.weftTest === 'function', null, { timeout: 10000 });
    const result = await page.evaluate(() => window.weftTest());
    result.status = response.status();
    result.browserVersion = context.browser() ? context.browser().version() : null;
    result.console = console_;
    process.stdout.write(JSON.stringify(result) + '\n');
  } finally {
    await context.close();
  }
}

main().catch(e => {
  process.stderr.write(String(e && e.stack || e) + '\n');
  process.exit(1);
});
