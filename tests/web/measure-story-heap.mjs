#!/usr/bin/env node
// Measures the wasm heap of a long story run in the page (not a test; issue 10 asks for the figure): the
// diffusion panel trains on the built-in stories with its autosave on, and every few seconds the worker is
// asked for its module info (memoryBytes: the wasm heap; liveHandles: Embind objects alive). Usage:
// node tests/web/measure-story-heap.mjs [steps=3000] [panel settings, e.g. c1.dim=64&c1.layers=2]
// Prints the samples and the growth after warm-up (the first 10 % of the steps). TF_WEB_NO_ISOLATION=1
// measures the single-threaded build.
import { startLab, launch, openPage, waitForModule, waitForPanel, panelState } from './lab-browser.mjs';

const steps = Number(process.argv[2] || 3000);
const settings = process.argv[3] ? `&${process.argv[3]}` : '';
const lab = await startLab();
const browser = await launch();
try {
  const { page, errors } = await openPage(browser.context);
  await page.goto(`${lab.url}?corpus=http://127.0.0.1:9/none&c1.steps=${steps}${settings}#C`);
  const info = await waitForModule(page);
  await page.evaluate(() => window.lab.corpus.useBuiltin());
  await page.locator('.trainer[data-slot="stories-diffusion"] button', { hasText: 'Start' }).click();
  await waitForPanel(page, 'stories-diffusion', { state: 'training', minStep: 1 }, 300_000);
  const samples = [];
  const started = performance.now();
  const MB = (b) => (b / 2 ** 20).toFixed(1);
  for (;;) {
    const s = await panelState(page, 'stories-diffusion');
    const m = await page.evaluate(() => window.lab.client.request('init'));
    const x = { seconds: (performance.now() - started) / 1000, step: s.step, heap: m.memoryBytes, handles: m.liveHandles };
    samples.push(x);
    console.log(`${x.seconds.toFixed(0)} s  step ${x.step}  heap ${MB(x.heap)} MiB  handles ${x.handles}`);
    if (s.state !== 'training' && s.state !== 'starting') break;
    await new Promise((r) => setTimeout(r, 5000));
  }
  const warm = samples.find((x) => x.step >= steps / 10) || samples[0];
  const last = samples.at(-1);
  console.log(`build: ${info.build}; steps ${warm.step}..${last.step}: heap ${MB(warm.heap)} -> ${MB(last.heap)} MiB ` +
    `(${last.heap - warm.heap} bytes), live handles ${warm.handles} -> ${last.handles}; page errors: ${errors.length ? errors.join(' | ') : 'none'}`);
} finally {
  await browser.close();
  await lab.close();
}
