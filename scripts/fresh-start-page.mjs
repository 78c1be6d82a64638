// scripts/fresh-start.sh's check that the page works: headless Chromium opens the lab at the URL given and
// waits until its worker has loaded a build of the module; prints the build, fails on a failed request or a
// console error.
import { chromium } from 'playwright-core';

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] });
try {
  const page = await browser.newPage();
  const failures = [];
  page.on('requestfailed', (r) => failures.push(`${r.url()}: ${r.failure()?.errorText}`));
  page.on('console', (m) => m.type() === 'error' && failures.push(`console: ${m.text()}`));
  await page.goto(process.argv[2], { timeout: 600_000 });
  await page.waitForFunction(() => document.body.dataset.build, null, { timeout: 600_000 });
  console.log(`the page runs the ${await page.evaluate(() => document.body.dataset.build)} build`);
  if (failures.length) throw new Error(failures.join('\n'));
} finally {
  await browser.close();
}
