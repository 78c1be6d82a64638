#!/usr/bin/env node
// Measures what live views cost the training (not a test: timings on a shared machine are no assertion).
// One story run in the page (the course's default diffusion model on the built-in stories, threaded
// build) trains while live views are switched off and on in alternating windows of the same run; the
// steps per second of each window give the slowdown (noisy where other work shares the cores), and the
// worker's own count of the time it spent on requests other than training gives the share it lost to
// them. Then, the run paused, one round of the live refreshes is timed on the idle worker. Usage:
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

  // Steps per second over one window with live views at `seconds` (0 = off): from the first to the last
  // step seen to change in the window (polled every 50 ms), so a window's ends do not round the count.
  const measure = async (seconds) => {
    await page.evaluate((s) => window.lab.live.setSeconds(s), seconds);
    await sleep(2000);  // let a stopped loop notice, a started one begin
    const busy0 = await page.evaluate(() => window.lab.models.get('stories-diffusion').workerOtherSeconds);
    const changes = [];
    let last = (await panelState(page, 'stories-diffusion')).step;
    for (const end = Date.now() + windowSeconds * 1000; Date.now() < end; await sleep(50)) {
      const { step } = await panelState(page, 'stories-diffusion');
      if (step !== last) changes.push([performance.now(), (last = step)]);
    }
    const busy1 = await page.evaluate(() => window.lab.models.get('stories-diffusion').workerOtherSeconds);
    const [[t0, s0], [t1, s1]] = [changes[0], changes.at(-1)];
    return { rate: (s1 - s0) / ((t1 - t0) / 1000), share: (busy1 - busy0) / ((t1 - t0) / 1000) };
  };
  const off = [], on = [];
  for (let i = 0; i < pairs; i++) {
    const x = await measure(0), y = await measure(cadence);
    off.push(x.rate);
    on.push(y.rate);
    console.log(`pair ${i + 1}: off ${x.rate.toFixed(3)} steps/s, on ${y.rate.toFixed(3)} steps/s; the worker's time on other ` +
      `requests: off ${(100 * x.share).toFixed(2)} %, on ${(100 * y.share).toFixed(2)} %`);
  }
  const slow = 1 - median(on) / median(off);
  const config = await page.evaluate(() => window.lab.models.get('stories-diffusion').config);
  console.log(`build ${info.build}, threads ${info.module.threads}; model dim ${config.dim}, heads ${config.heads}, blocks ${config.layers}`);
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(`median off ${median(off).toFixed(3)} steps/s, on (every ${cadence} s) ${median(on).toFixed(3)} steps/s: slowdown ${(100 * slow).toFixed(1)} %` +
    ` (means: ${(100 * (1 - mean(on) / mean(off))).toFixed(1)} %)`);
  await page.locator('.trainer[data-slot="stories-diffusion"] button', { hasText: 'Pause' }).click();
  await page.waitForFunction(() => document.querySelector('.trainer[data-slot="stories-diffusion"]').dataset.state === 'paused');
  const rounds = await page.evaluate(async () => {
    const watchers = window.lab.live.watchers.filter((w) => w.slots.has('stories-diffusion'));
    const times = [];
    for (let i = 0; i < 11; i++) {
      const t = performance.now();
      for (const w of watchers) await w.refresh('stories-diffusion');
      times.push(performance.now() - t);
    }
    return times.slice(1);  // the first warms up
  });
  const round = median(rounds);
  console.log(`one live round (attention maps + a sample story) on the idle worker: ${round.toFixed(1)} ms (median of ${rounds.length}),` +
    ` so ${(100 * round / (cadence * 1000)).toFixed(2)} % of the training time every ${cadence} s`);
} finally {
  await browser.close();
  await lab.close();
}
