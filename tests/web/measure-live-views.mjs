#!/usr/bin/env node
// Measures what live views cost the training (not a test: timings on a shared machine are no assertion).
// One story run in the page (the course's default diffusion model on the built-in stories, threaded
// build) trains while live views are switched off and on in alternating windows of the same run; the
// steps per second of each window give the slowdown. Usage:
// node tests/web/measure-live-views.mjs [windowSeconds=20] [pairs=4] [cadence=2] [settings=c1.dim=128...]
import { startLab, launch, openPage, waitForModule, panelState } from './lab-browser.mjs';

const [windowSeconds = 20, pairs = 4, cadence = 2] = process.argv.slice(2, 5).map(Number);
const settings = process.argv[5] || '';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const lab = await startLab({ isolation: true });
const browser = await launch();
try {
  const { page } = await openPage(browser.context);
  await page.goto(`${lab.url}?corpus=http://127.0.0.1:9/none&c1.steps=1000000&live=0&${settings}#C`);
  const info = await waitForModule(page);
  await page.evaluate(() => window.lab.corpus.useBuiltin());
  await page.waitForFunction(() => window.lab.corpus.state.status === 'ready', null, { timeout: 120_000 });
  await page.locator('.trainer[data-slot="stories-diffusion"] button', { hasText: 'Start' }).click();
  await page.waitForFunction(() => Number(document.querySelector('.trainer[data-slot="stories-diffusion"]').dataset.step) >= 3, null, { timeout: 300_000 });

  // Steps per second over one window with live views at `seconds` (0 = off); live rounds counted too.
  const measure = async (seconds) => {
    await page.evaluate((s) => window.lab.live.setSeconds(s), seconds);
    await sleep(2000);  // let a stopped loop notice, a started one begin
    const rounds0 = await page.evaluate(() => Number(document.querySelector('#exp-C-write .live-sample').dataset.step || 0));
    const a = await panelState(page, 'stories-diffusion');
    const t0 = Date.now();
    await sleep(windowSeconds * 1000);
    const b = await panelState(page, 'stories-diffusion');
    const sample = await page.evaluate(() => Number(document.querySelector('#exp-C-write .live-sample').dataset.step || 0));
    return { rate: (b.step - a.step) / ((Date.now() - t0) / 1000), refreshed: sample !== rounds0 };
  };
  const off = [], on = [];
  for (let i = 0; i < pairs; i++) {
    const x = await measure(0), y = await measure(cadence);
    off.push(x.rate);
    on.push(y.rate);
    console.log(`pair ${i + 1}: off ${x.rate.toFixed(3)} steps/s, on ${y.rate.toFixed(3)} steps/s (live sample redrawn: ${y.refreshed})`);
  }
  const slow = 1 - median(on) / median(off);
  const config = await page.evaluate(() => window.lab.models.get('stories-diffusion').config);
  console.log(`build ${info.build}, threads ${info.module.threads}; model dim ${config.dim}, heads ${config.heads}, blocks ${config.layers}`);
  console.log(`median off ${median(off).toFixed(3)} steps/s, on (every ${cadence} s) ${median(on).toFixed(3)} steps/s: slowdown ${(100 * slow).toFixed(1)} %`);
  await page.locator('.trainer[data-slot="stories-diffusion"] button', { hasText: 'Stop' }).click();
} finally {
  await browser.close();
  await lab.close();
}
