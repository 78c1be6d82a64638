#!/usr/bin/env node
// Measures story training in the page (not a test): the default MyTransformer(2002), batch 64 x 32, on
// the built-in stories, cross-origin isolated (threaded build) with the page's thread count. Usage:
// node tests/web/measure-story-steps.mjs [steps=60] (LIVE=seconds sets the live views' cadence, 0 off; the
// page's default otherwise). Prints seconds per step, 1000 steps extrapolated, and the worker's time on
// requests other than training (live views, saves, and the run's setup).
import { startLab, launch, openPage, waitForModule, panelState, shareAutogroup } from './lab-browser.mjs';

const steps = Number(process.argv[2] || 60);
const lab = await startLab({ isolation: true });
const browser = await launch();
const autogroup = shareAutogroup();
try {
  const { page } = await openPage(browser.context);
  const live = process.env.LIVE ? `&live=${process.env.LIVE}` : '';
  await page.goto(`${lab.url}?corpus=http://127.0.0.1:9/none&c1.steps=${steps}${live}#C`);
  const info = await waitForModule(page);
  await page.evaluate(() => window.lab.corpus.useBuiltin());
  await page.locator('.trainer[data-slot="stories-diffusion"] button', { hasText: 'Start' }).click();
  const marks = [];
  for (;;) {
    const s = await panelState(page, 'stories-diffusion');
    marks.push([performance.now(), s.step]);
    if (s.state === 'done') break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const from = marks.find(([, step]) => step >= 5);
  const [t1, s1] = marks.at(-1);
  const perStep = (t1 - from[0]) / 1000 / (s1 - from[1]);
  const stats = await page.locator('.trainer[data-slot="stories-diffusion"] .stats').textContent();
  console.log(`build: ${info.build}, threads: ${info.module.threads}, Chromium's autogroup: ${autogroup}`);
  console.log(`steps ${from[1]}..${s1}: ${perStep.toFixed(3)} s per step -> 1000 steps ~ ${(perStep * 1000 / 60).toFixed(1)} min`);
  console.log(`last stats: ${stats}`);
  const other = await page.evaluate(() => window.lab.models.get('stories-diffusion')?.workerOtherSeconds);
  console.log(`the worker's time on other requests since it started (setup, live views, saves): ${other?.toFixed(2)} s`);
} finally {
  await browser.close();
  await lab.close();
}
