#!/usr/bin/env node
// Measures what live views cost the training (not a test: timings on a shared machine are no assertion).
// One story run in the page (the course's default diffusion model on the built-in stories, threaded
// build) trains while live views are switched off and on in alternating windows of the same run; the
// steps per second of each window give the slowdown (noisy where other work shares the cores), and the
// worker's own count of the time it spent on requests other than training and on keeping the timeline's
// snapshots gives the share it lost to them (the snapshots' part shown on its own). Every live view of a
// story model is mounted: C4's attention, C2's sample story, E2's lens and E3's patching; the timeline
// picks a past step beside now, so each round reads the now side (the past one is read once). Then, the
// run paused, each live view's refresh is timed on the idle worker. Usage:
// node tests/web/measure-live-views.mjs [windowSeconds=20] [pairs=4] [cadence=2] [settings=c1.dim=128...]
import { startLab, launch, openPage, waitForModule, panelState, shareAutogroup } from './lab-browser.mjs';

const [windowSeconds = 20, pairs = 4, cadence = 2] = process.argv.slice(2, 5).map(Number);
const settings = process.argv[5] || '';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const lab = await startLab({ isolation: true });
const browser = await launch();
const autogroup = shareAutogroup();  // Chromium's share of the cores: this shell's (raise it first, see the README)
try {
  const { page } = await openPage(browser.context);
  await page.goto(`${lab.url}?corpus=http://127.0.0.1:9/none&c1.steps=1000000&live=0&${settings}#C`);
  const info = await waitForModule(page);
  await page.evaluate(() => window.lab.corpus.useBuiltin());
  await page.waitForFunction(() => window.lab.corpus.state.status === 'ready', null, { timeout: 120_000 });
  await page.locator('.trainer[data-slot="stories-diffusion"] button', { hasText: 'Start' }).click();
  await page.waitForFunction(() => Number(document.querySelector('.trainer[data-slot="stories-diffusion"]').dataset.step) >= 51, null, { timeout: 300_000 });
  await page.evaluate(() => { location.hash = '#E'; });  // section E's views mount, and watch the run
  await page.waitForFunction(() => document.querySelectorAll('#section-E .card').length > 0);
  await page.evaluate(() => { location.hash = '#C'; });
  await page.evaluate(() => window.lab.timeline.pick('stories-diffusion', 50));  // step 50 beside now

  // Steps per second over one window with live views at `seconds` (0 = off): from the first to the last
  // step seen to change in the window (polled every 50 ms), so a window's ends do not round the count.
  const measure = async (seconds) => {
    await page.evaluate((s) => window.lab.live.setSeconds(s), seconds);
    await sleep(2000);  // let a stopped loop notice, a started one begin
    const worker = () => page.evaluate(() => {
      const info = window.lab.models.get('stories-diffusion');
      return { other: info.workerOtherSeconds, snapshots: info.workerSnapshotSeconds };
    });
    const busy0 = await worker();
    const changes = [];
    let last = (await panelState(page, 'stories-diffusion')).step;
    for (const end = Date.now() + windowSeconds * 1000; Date.now() < end; await sleep(50)) {
      const { step } = await panelState(page, 'stories-diffusion');
      if (step !== last) changes.push([performance.now(), (last = step)]);
    }
    const busy1 = await worker();
    const [[t0, s0], [t1, s1]] = [changes[0], changes.at(-1)];
    const span = (t1 - t0) / 1000;
    return { rate: (s1 - s0) / span, share: (busy1.other - busy0.other) / span, snapshots: (busy1.snapshots - busy0.snapshots) / span };
  };
  const off = [], on = [], shares = [];
  for (let i = 0; i < pairs; i++) {
    const x = await measure(0), y = await measure(cadence);
    off.push(x.rate);
    on.push(y.rate);
    shares.push(y.share);
    console.log(`pair ${i + 1}: off ${x.rate.toFixed(3)} steps/s, on ${y.rate.toFixed(3)} steps/s; the worker's time on other ` +
      `requests and snapshots: off ${(100 * x.share).toFixed(2)} %, on ${(100 * y.share).toFixed(2)} % (snapshots ` +
      `${(100 * x.snapshots).toFixed(2)} %, ${(100 * y.snapshots).toFixed(2)} %)`);
  }
  const slow = 1 - median(on) / median(off);
  console.log(`the worker's share with live views on (every ${cadence} s): median ${(100 * median(shares)).toFixed(2)} %, ` +
    `at most ${(100 * Math.max(...shares)).toFixed(2)} % (budget: 4 %)`);
  const config = await page.evaluate(() => window.lab.models.get('stories-diffusion').config);
  console.log(`build ${info.build}, threads ${info.module.threads}, Chromium's autogroup: ${autogroup}; model dim ${config.dim}, heads ${config.heads}, blocks ${config.layers}`);
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(`median off ${median(off).toFixed(3)} steps/s, on (every ${cadence} s) ${median(on).toFixed(3)} steps/s: slowdown ${(100 * slow).toFixed(1)} %` +
    ` (means: ${(100 * (1 - mean(on) / mean(off))).toFixed(1)} %)`);
  await page.locator('.trainer[data-slot="stories-diffusion"] button', { hasText: 'Pause' }).click();
  await page.waitForFunction(() => document.querySelector('.trainer[data-slot="stories-diffusion"]').dataset.state === 'paused');
  // Each view's refresh timed alone (median of 10 after one to warm up), counted at the share of rounds it is
  // redrawn in (E3: one in four).
  const views = await page.evaluate(async () => {
    const watchers = window.lab.live.watchers.filter((w) => w.slots.has('stories-diffusion'));
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const out = [];
    for (const w of watchers) {
      const times = [];
      for (let i = 0; i < 11; i++) {
        const t = performance.now();
        await w.refresh('stories-diffusion');
        times.push(performance.now() - t);
      }
      out.push({ ms: median(times.slice(1)), every: w.every });
    }
    return out;
  });
  const round = views.reduce((sum, v) => sum + v.ms / v.every, 0);
  console.log(`the live views' refreshes on the idle worker (ms, one in every n rounds): ${views.map((v) => `${v.ms.toFixed(1)}${v.every > 1 ? ` (1 in ${v.every})` : ''}`).join(', ')}`);
  console.log(`one live round (C4's maps, a sample story, E2's lens, E3's patching, the profile; now beside step 50) on the idle worker: ${round.toFixed(1)} ms on average,` +
    ` so ${(100 * round / (cadence * 1000)).toFixed(2)} % of the training time every ${cadence} s`);
} finally {
  await browser.close();
  await lab.close();
}
