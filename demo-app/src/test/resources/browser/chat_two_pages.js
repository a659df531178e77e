// Opens the demo's chat page twice in Debian's headless Chromium (driven by playwright-core, which downloads
// nothing), sends a line from the first page through the form and waits until both pages show it.
// Prints one JSON line: what each page shows. Usage: node chat_two_pages.js <chat page url> <user-data-dir>
'use strict';
const { chromium } = require('playwright-core');

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

async function main() {
  const [url, userDataDir] = process.argv.slice(2);
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium', headless: true, args: FLAGS, timeout: 30000,
  });
  try {
    const errors = [];
    const open = async () => {
      const page = await context.newPage();
      page.on('pageerror', e => errors.push(e.message));
      await page.goto(url, { timeout: 20000 });
      // The welcome (the page shows its name) comes once the server has put this page in the room; the
      // socket's open event alone comes earlier, with the 101 answer.
      await page.waitForFunction(() => document.getElementById('chat-state').textContent === 'connected'
        && document.getElementById('chat-name').textContent.startsWith('guest-'), null, { timeout: 10000 });
      return page;
    };
    const alice = await open();
    const bob = await open();
    const line = 'hello from chromium ' + Date.now();
    await alice.fill('#chat-text', line);
    await alice.click('#chat-form button[type=submit]');
    const seen = p => p.waitForFunction(t => document.getElementById('chat-log').textContent.includes(t),
      line, { timeout: 10000 });
    await Promise.all([seen(alice), seen(bob)]);
    const show = p => p.evaluate(() => ({
      name: document.getElementById('chat-name').textContent,
      protocol: document.getElementById('chat-protocol').textContent,
      log: document.getElementById('chat-log').textContent,
    }));
    process.stdout.write(JSON.stringify({ line, alice: await show(alice), bob: await show(bob), errors }) + '\n');
  } finally {
    await context.close();
  }
}

main().catch(e => {
  process.stderr.write(String(e && e.stack || e) + '\n');
  process.exit(1);
});
