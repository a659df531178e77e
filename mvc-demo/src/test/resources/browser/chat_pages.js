// Two visitors chat on the Spring MVC demo's chat page in Debian's headless Chromium (driven by playwright-core,
// which downloads nothing), each in a browser context of their own: ben says he is here and sees his own line,
// then ann writes, ben sees it, ben answers (with STOMP's special characters) and ann sees that.
// Prints one JSON line: what the pages showed. Usage: node chat_pages.js <base url>
'use strict';
const { chromium } = require('playwright-core');

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const WAIT = { timeout: 15000 };

async function visitor(browser, base, errors) {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('pageerror', e => errors.push(e.message));
  await page.goto(base + '/chat', WAIT);
  await page.locator('#chat-state', { hasText: /^connected$/ }).waitFor(WAIT);
  return page;
}

async function say(page, name, text) {
  await page.fill('#chat-name', name);
  await page.fill('#chat-text', text);
  await page.click('#chat-send');
}

const sees = (page, line) => page.locator('#chat-lines li', { hasText: line }).waitFor(WAIT);
const lines = page => page.locator('#chat-lines li').allTextContents();

async function main() {
  const [base] = process.argv.slice(2);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium', headless: true, args: FLAGS, timeout: 30000,
  });
  try {
    const errors = [];
    const ann = await visitor(browser, base, errors);
    const ben = await visitor(browser, base, errors);
    const result = { errors, annState: await ann.locator('#chat-state').textContent() };

    // a writer's own line comes back after the subscription the page made first: from then on, each page is
    // subscribed
    await say(ben, 'ben', 'ben is here');
    await sees(ben, 'ben: ben is here');
    await say(ann, 'ann', 'hello from ann');
    await sees(ann, 'ann: hello from ann');
    await sees(ben, 'ann: hello from ann');
    await say(ben, 'ben', 'hi ann: a\\b, ünïcödé ✓');
    await sees(ann, 'ben: hi ann: a\\b, ünïcödé ✓');

    result.annLines = await lines(ann);
    result.benLines = await lines(ben);
    result.textAfterSend = await ben.inputValue('#chat-text');
    process.stdout.write(JSON.stringify(result) + '\n');
  } finally {
    await browser.close();
  }
}

main().catch(e => {
  process.stderr.write(String(e && e.stack || e) + '\n');
  process.exit(1);
});
