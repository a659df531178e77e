// Uses the Spring MVC demo's pages in Debian's headless Chromium (driven by playwright-core, which downloads
// nothing): presses the session counter twice, uploads a file through the form, watches the server-sent events
// page receive two ticks, signs in through the login form and out again.
// Prints one JSON line: what the pages showed. Usage: node mvc_demo_pages.js <base url> <user-data-dir> <file>
'use strict';
const { chromium } = require('playwright-core');

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const WAIT = { timeout: 15000 };

async function main() {
  const [base, userDataDir, file] = process.argv.slice(2);
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium', headless: true, args: FLAGS, timeout: 30000,
  });
  try {
    const errors = [];
    const page = await context.newPage();
    page.on('pageerror', e => errors.push(e.message));
    const text = selector => page.locator(selector).textContent(WAIT);
    const shows = (selector, expected) => page.locator(selector, { hasText: expected }).waitFor(WAIT);
    const session = async () => (await context.cookies(base)).find(c => c.name === 'JSESSIONID')?.value;
    const result = { errors };

    // Home: the counter lives in the session; each press is a POST (with the form's CSRF token) and a redirect.
    await page.goto(base + '/', WAIT);
    result.serverInfo = await text('#server-info');
    result.counterAtFirst = await text('#counter');
    await page.click('#add');
    await shows('#counter', /^1$/);
    await page.click('#add');
    await shows('#counter', /^2$/);
    result.counterAfterTwo = await text('#counter');

    // Upload: a multipart form; the page then shows the file's name, size and SHA-256.
    await page.goto(base + '/upload', WAIT);
    await page.setInputFiles('#file', file);
    await page.click('#send');
    await page.locator('#uploaded-sha256').waitFor(WAIT);
    result.upload = {
      name: await text('#uploaded-name'), size: await text('#uploaded-size'), sha256: await text('#uploaded-sha256'),
    };

    // Events: EventSource on /api/events; the first tick comes at once, the next a second later.
    await page.goto(base + '/events', WAIT);
    await page.waitForFunction(() => document.querySelectorAll('#events li').length >= 2, null, WAIT);
    result.eventsState = await text('#events-state');
    result.events = await page.locator('#events li').allTextContents();

    // Account: a redirect to Spring Security's login page, then the form, then the account page.
    await page.goto(base + '/account', WAIT);
    result.loginUrl = page.url();
    result.sessionBeforeLogin = await session();
    await page.fill('#username', 'demo');
    await page.fill('#password', 'demo');
    await page.click('button[type=submit]');
    await page.locator('#user').waitFor(WAIT);
    result.accountUrl = page.url();
    result.user = await text('#user');
    result.sessionAfterLogin = await session();
    await page.click('#logout');
    await page.waitForURL(/\/login\?logout$/, WAIT);
    result.afterLogout = page.url();

    process.stdout.write(JSON.stringify(result) + '\n');
  } finally {
    await context.close();
  }
}

main().catch(e => {
  process.stderr.write(String(e && e.stack || e) + '\n');
  process.exit(1);
});
