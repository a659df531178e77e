// Loads a directory listing from the command-line server in headless Chromium, follows the link to a file,
// and prints what the pages showed, one "key=value" per line (JSON-encoded values).
// Usage: node browse.js <listing-url> <link-text> <user-data-dir>
const { chromium } = require('playwright-core');

(async () => {
  const [url, linkText, userDataDir] = process.argv.slice(2);
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    ignoreHTTPSErrors: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--ignore-certificate-errors'],
    timeout: 30000,
  });
  const out = (k, v) => console.log(k + '=' + JSON.stringify(v));
  try {
    const page = await context.newPage();
    const listing = await page.goto(url, { timeout: 20000 });
    out('listingStatus', listing.status());
    out('title', await page.title());
    out('links', await page.$$eval('a', as => as.map(a => a.textContent + ' -> ' + a.getAttribute('href'))));
    out('listingProtocol', await page.evaluate(() => performance.getEntriesByType('navigation')[0].nextHopProtocol));
    const [response] = await Promise.all([page.waitForNavigation({ timeout: 20000 }), page.click(`text=${linkText}`)]);
    out('fileStatus', response.status());
    out('fileUrl', page.url());
    out('fileContentType', response.headers()['content-type']);
    out('fileText', await page.evaluate(() => document.body.innerText));
    out('fileProtocol', await page.evaluate(() => performance.getEntriesByType('navigation')[0].nextHopProtocol));
  } finally {
    await context.close();
  }
})().catch(e => { console.error(e); process.exit(1); });
