// The device banner, selector and fallback in Chromium with its software WebGPU adapter
// (--enable-unsafe-webgpu): the worker probes the adapter and the banner names it; without the WebGPU build
// of the module auto runs wasm threads and says why; the selector forces a device through the URL. A WebGPU
// failure told by the worker (DEVICE_FAILED, injected through Playwright's handle on the worker as the
// worker's loss watcher would send it) replaces the worker by a wasm one and the run that was training goes
// on from its last checkpoint.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { existsSync } from 'node:fs';

import { features } from '../../wasm/tinyformer.js';
import { startLab, launch, openPage, waitForModule, waitForViews, waitForPanel, panelButton, trainingAfterASave } from './lab-browser.mjs';

// Why auto and a forced WebGPU leave WebGPU in this copy of the lab (the banner says it; with WebGPU
// training in place, tests/web/device-parity.test.mjs covers the WebGPU page instead).
const GPU_LAID_OUT = existsSync(new URL('../../web/wasm/tinyformer-gpu.wasm', import.meta.url));
const NO_WEBGPU = GPU_LAID_OUT
  ? 'this version of the module cannot train on WebGPU yet \\(no chunked training step\\)'
  : 'this copy of the lab has no WebGPU build of the module \\(web\\/wasm\\/tinyformer-gpu\\.\\*\\)';
const WEBGPU_TRAINS = GPU_LAID_OUT && features.webgpuTraining;

const SLOT = 'toy-notalking';
const labWorker = (page) => page.workers().find((w) => new URL(w.url()).pathname === '/worker.js');

async function withLab(options, work) {
  const lab = await startLab(options);
  const browser = await launch({ webgpu: true });
  try {
    const { page, errors } = await openPage(browser.context);
    await work(page, lab.url);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await lab.close();
  }
}

test('the banner names the WebGPU adapter and the device in use; the selector forces one', { skip: WEBGPU_TRAINS && 'the lab trains on WebGPU here' }, () => withLab({ isolation: true }, async (page, url) => {
  await page.goto(url);
  const auto = await waitForModule(page);
  assert.equal(auto.module.device, 'wasm-threads');
  assert.equal(auto.module.adapter, 'google swiftshader');
  assert.match(auto.banner, new RegExp(`^Device: WebAssembly, \\d+ of \\d+ threads \\(not the first choice: WebGPU: ${NO_WEBGPU}\\)\\. WebGPU adapter: google swiftshader\\. WebAssembly `));
  const select = page.locator('#module-status select[name=device]');
  assert.deepEqual(await select.locator('option').evaluateAll((os) => os.map((o) => [o.value, o.textContent])),
    [['auto', 'auto'], ['webgpu', 'WebGPU'], ['wasm-threads', 'WebAssembly, threads'], ['wasm-single', 'WebAssembly, one thread']]);

  await select.selectOption('wasm-single');
  await page.waitForURL(/\?device=wasm-single/);
  const single = await waitForModule(page);
  assert.equal(single.build, 'single-threaded');
  assert.equal(single.module.device, 'wasm-single');
  assert.equal(single.module.adapter, null, 'a forced wasm device does not probe WebGPU');
  assert.match(single.banner, /^Device: WebAssembly, one thread\. WebAssembly .*single-threaded build/);
  assert.equal(await page.locator('#module-status select[name=device]').inputValue(), 'wasm-single');

  await page.goto(`${url}?device=webgpu`);
  const forced = await waitForModule(page);
  assert.equal(forced.module.device, 'wasm-threads');
  assert.match(forced.banner, new RegExp(`\\(not WebGPU: WebGPU: ${NO_WEBGPU}`));
  assert.match(await page.evaluate(() => window.lab.client.request('lose-device').catch((e) => e.message)),
    /^the lab is not on WebGPU: there is no device to lose$/);
}));

test('a WebGPU failure starts a wasm worker and the training run goes on from its last checkpoint', () => withLab({ isolation: false }, async (page, url) => {
  await page.goto(`${url}?b1.steps=100000#B`);
  await waitForModule(page);
  await waitForViews(page, 'B');
  const saved = await trainingAfterASave(page, SLOT);

  await labWorker(page).evaluate(() => self.postMessage({ type: 'device-failed', id: 0, ok: true, result: { reason: 'the WebGPU device was lost: injected' } }));
  await page.waitForFunction(() => document.getElementById('worker-restart'), null, { timeout: 60_000 });
  assert.equal(await page.locator('#worker-restart').textContent(),
    'WebGPU failed (the WebGPU device was lost: injected): the lab switched to WebAssembly and each run goes on from its last checkpoint.');
  await page.waitForFunction((s) => /Training goes on from there/.test(document.querySelector(`.trainer[data-slot="${s}"] .status`).textContent),
    SLOT, { timeout: 60_000 });
  assert.match(await page.locator(`.trainer[data-slot="${SLOT}"] .status`).textContent(),
    new RegExp(`left WebGPU for WebAssembly; it was restarted, so this request was lost\\. Restored the run saved at step ${saved}\\. Training goes on from there\\.$`));
  await waitForPanel(page, SLOT, { state: 'training', minStep: saved + 50 });
  assert.equal(await page.evaluate(() => document.body.dataset.device), 'wasm-single');
  assert.equal(await page.evaluate(() => window.lab.client.restarts), 1);
  await panelButton(page, SLOT, 'Stop').click();
  await waitForPanel(page, SLOT, { state: 'stopped' });
}));

test('the benchmark panel times the story step on every device the page can use, beside each other', () => withLab({ isolation: true }, async (page, url) => {
  await page.goto(url);
  await waitForModule(page);
  await page.locator('#device-bench summary').click();
  await page.locator('#device-bench input[name=bench-steps]').fill('3');
  await page.locator('#device-bench button', { hasText: 'Run the benchmark' }).click();
  await page.waitForFunction(() => /^(Done|The benchmark failed)/.test(document.querySelector('#device-bench .status').textContent), null, { timeout: 120_000 });
  assert.match(await page.locator('#device-bench .status').textContent(), /^Done/);
  const rows = await page.locator('#device-bench tbody tr').evaluateAll((trs) => trs.map((tr) => JSON.parse(tr.dataset.result)));
  const devices = [...(WEBGPU_TRAINS ? ['webgpu'] : []), 'wasm-threads', 'wasm-single'];
  assert.deepEqual(rows.map((r) => [r.device, r.causal, r.size, r.steps]), devices.flatMap((d) => [[d, false, 'small', 3], [d, true, 'small', 3]]));
  for (const r of rows) {
    assert.ok(r.seconds > 0 && r.tokensPerSecond > 0 && r.gflopsPerSecond > 0, JSON.stringify(r));
    // 3 steps of 8 x 16 windows: the tokens the rows count are the steps' tokens.
    assert.ok(Math.abs((r.tokensPerSecond * r.seconds) / (3 * 8 * 16) - 1) < 1e-6, JSON.stringify(r));
  }
  assert.equal(rows.find((r) => r.device === 'wasm-single').threads, 1);
  assert.equal(await page.evaluate(() => window.lab.client.restarts), 0, "the lab's own worker is left alone");
}));
