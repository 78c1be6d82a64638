// The device banner, selector and fallback in Chromium with its software WebGPU adapter
// (--enable-unsafe-webgpu): the worker probes the adapter and the banner names it; auto keeps WebAssembly
// (threads) and says why: the adapter is software (or, without the WebGPU build, that there is none); the
// selector forces a device through the URL, WebGPU on the software adapter included, with no console error
// and no failed request on any choice (the builds there are read from web/wasm/builds.json, not probed). Where auto is unsure it times real workers on the devices and takes the faster. A WebGPU run
// saves while it trains (the save waits for the chunk in flight) and a new page finds the save. A WebGPU
// failure told by the worker (DEVICE_FAILED, injected through Playwright's handle on the worker as the
// worker's loss watcher would send it) replaces the worker by a wasm one and the run that was training goes
// on from its last checkpoint.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { existsSync } from 'node:fs';

import { features } from '../../wasm/tinyformer.js';
import { startLab, launch, openPage, waitForModule, waitForViews, waitForPanel, panelButton, panelState, trainingAfterASave } from './lab-browser.mjs';

// Why auto leaves WebGPU here: the adapter is software, or this copy of the lab cannot train on WebGPU.
const GPU_LAID_OUT = existsSync(new URL('../../web/wasm/tinyformer-gpu.wasm', import.meta.url));
const WEBGPU_TRAINS = GPU_LAID_OUT && features.webgpuTraining;
const AUTO_WHY = WEBGPU_TRAINS
  ? 'the only adapter, google swiftshader, is a software one, far slower than WebAssembly: choose WebGPU to train on it anyway'
  : GPU_LAID_OUT ? 'this version of the module cannot train on WebGPU yet (no chunked training step)'
    : 'this copy of the lab has no WebGPU build of the module (web/wasm/tinyformer-gpu.*)';
const NO_WEBGPU_BUILD = !WEBGPU_TRAINS && 'no WebGPU training: web/wasm/tinyformer-gpu.* (scripts/build-wasm.sh) and Run.trainChunk are needed';
const quote = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const SLOT = 'toy-notalking';
const labWorker = (page) => page.workers().find((w) => new URL(w.url()).pathname === '/worker/worker.js');

async function withLab(options, work) {
  const lab = await startLab(options);
  const browser = await launch({ webgpu: true });
  try {
    const { page, errors, failedRequests } = await openPage(browser.context);
    await work(page, lab.url, browser);
    assert.deepEqual(errors, []);
    assert.deepEqual(failedRequests, []);
  } finally {
    await browser.close();
    await lab.close();
  }
}

test('auto keeps WebAssembly where the only adapter is software; the selector forces any device, with no console error or failed request', () => withLab({ isolation: true }, async (page, url) => {
  await page.goto(url);
  const auto = await waitForModule(page);
  assert.equal(auto.module.device, 'wasm-threads', auto.banner);
  assert.equal(auto.module.adapter, 'google swiftshader');
  assert.equal(auto.module.adapterSoftware, true);
  assert.match(auto.banner, new RegExp(`^Device: WebAssembly, \\d+ of \\d+ threads \\(auto: WebGPU: ${quote(AUTO_WHY)}\\)\\. WebGPU adapter: google swiftshader\\. WebAssembly `));
  assert.equal(await page.locator('#module-status button', { hasText: 'Time the devices again' }).count(), 0, 'nothing was timed');
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

  await page.goto(`${url}?device=wasm-threads`);
  const threads = await waitForModule(page);
  assert.equal(threads.module.device, 'wasm-threads');
  assert.match(threads.banner, /^Device: WebAssembly, \d+ of \d+ threads\. WebAssembly .*threaded build/);

  await page.goto(`${url}?device=webgpu`);
  const forced = await waitForModule(page);
  if (WEBGPU_TRAINS) {
    assert.equal(forced.module.device, 'webgpu', forced.banner);
    assert.match(forced.banner, /^Device: WebGPU on google swiftshader \(training; a software adapter, far slower than WebAssembly\); writing and attention on WebAssembly\. WebAssembly /);
  } else {
    assert.equal(forced.module.device, 'wasm-threads');
    assert.match(forced.banner, new RegExp(`\\(not WebGPU: WebGPU: ${quote(AUTO_WHY)}`));
    assert.match(await page.evaluate(() => window.lab.client.request('lose-device').catch((e) => e.message)),
      /^the lab is not on WebGPU: there is no device to lose$/);
  }
}));

// The page's own timing, on real workers: an adapter the page takes for hardware (the facts say so; the
// workers get Chromium's software one) is timed against threaded wasm on the small story model, WebAssembly
// wins, the timing is kept, and auto's choice from it names both rates.
test('where auto is unsure it times WebGPU against WebAssembly in workers of their own and takes the faster', { skip: NO_WEBGPU_BUILD }, () => withLab({ isolation: true }, async (page, url) => {
  await page.goto(url);
  await waitForModule(page);
  const result = await page.evaluate(async () => {
    const { autoTiming } = await import('/page/device-race.js');
    const { chooseDevice } = await import('/shared/device-choice.js');
    const facts = await window.lab.client.request('probe');
    facts.webgpu.adapter = { ...facts.webgpu.adapter, vendor: 'a hardware vendor', architecture: 'unknown', isFallbackAdapter: false };
    const started = [];
    const timing = await autoTiming(facts, { size: 'small', onStart: (devices) => started.push(devices) });
    const again = await autoTiming(facts, { size: 'small', onStart: (devices) => started.push(devices) });
    return { timing, again, started, choice: chooseDevice('auto', { ...facts, timing }) };
  });
  assert.deepEqual(result.started, [['webgpu', 'wasm-threads']], 'timed once');
  assert.deepEqual(result.again, result.timing);
  const { webgpu, wasm } = result.timing;
  assert.ok(webgpu > 0 && wasm > webgpu, JSON.stringify(result.timing));
  assert.equal(result.choice.device, 'wasm-threads');
  assert.match(result.choice.why, /^WebGPU: it trained the story step slower than WebAssembly, \d+ threads on this machine \([\d,]+ against [\d,]+ tokens\/s, timed \d{4}-\d\d-\d\d\)$/);
}));

// SwiftShader takes about 0.1 s a step of NoTalking at batch 8: the autosave (every 15 s) comes while
// chunks of steps are in flight.
test('a WebGPU run saves while it trains, and a new page finds the save', { skip: NO_WEBGPU_BUILD }, () => withLab({ isolation: false }, async (page, url, browser) => {
  const address = `${url}?device=webgpu&b1.steps=100000&b1.batch=8#B`;
  await page.goto(address);
  assert.equal((await waitForModule(page)).module.device, 'webgpu');
  await waitForViews(page, 'B');
  await panelButton(page, SLOT, 'Start').click();
  await page.waitForFunction((s) => {
    const p = document.querySelector(`.trainer[data-slot="${s}"]`);
    return p.dataset.state === 'training' && Number(p.dataset.saved) > 0;
  }, SLOT, { timeout: 90_000 });
  const saved = Number((await panelState(page, SLOT)).saved);
  assert.match(await page.locator(`.trainer[data-slot="${SLOT}"] .stats`).textContent(), /saved ?step \d+/);
  assert.equal(await page.locator(`.trainer[data-slot="${SLOT}"] .status.error`).count(), 0);
  const kept = await page.evaluate((s) => new Promise((resolve, reject) => {
    const open = indexedDB.open('tinyformer-lab');
    open.onsuccess = () => {
      const request = open.result.transaction('runs').objectStore('runs').get(s);
      request.onsuccess = () => resolve({ step: request.result.step, bytes: request.result.bytes.byteLength });
      request.onerror = () => reject(request.error);
    };
  }), SLOT);
  assert.ok(kept.step >= saved && kept.bytes > 0, JSON.stringify(kept));

  await page.close();  // no beforeunload: the tab is gone, the save stays
  const { page: next, errors } = await openPage(browser.context);
  await next.goto(address);
  await waitForModule(next);
  await waitForPanel(next, SLOT, { state: 'training', minStep: saved });  // it was training: it trains on
  assert.match(await next.locator(`.trainer[data-slot="${SLOT}"] .status`).textContent(), /^Restored the run saved at step \d+\. Training goes on from there\.$/);
  assert.ok((await panelState(next, SLOT)).step >= saved);
  assert.deepEqual(errors, []);
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

test('the benchmark panel times the story step on every device the page can use, beside each other, with the GPU counts per step', () => withLab({ isolation: true }, async (page, url) => {
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

  // Beside the times, what each step sent the GPU: WebGPU rows count it (the module's webgpuCounts over the
  // timed steps), wasm rows have nothing to count.
  const cells = await page.locator('#device-bench tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].slice(5).map((td) => td.textContent)));
  const number = (text) => Number(text.replaceAll(',', ''));
  for (const [i, r] of rows.entries()) {
    if (r.device !== 'webgpu') {
      assert.equal(r.perStep, null);
      assert.deepEqual(cells[i], ['–', '–', '–', '–']);
      continue;
    }
    const { dispatches, submits, writes, writeBytes, phases } = r.perStep;
    assert.ok(dispatches >= 20 && submits > 0 && writes > 0 && writeBytes > 0, JSON.stringify(r.perStep));
    assert.ok(phases.forward > 0 && phases.backward > 0 && phases.optimizer > 0, JSON.stringify(phases));
    assert.ok(Math.abs(Object.values(phases).reduce((a, b) => a + b, 0) - dispatches) < 1e-9, 'the phases add up to the step');
    assert.deepEqual(cells[i].map(number).map((v, k) => Math.abs(v / [dispatches, submits, writes, writeBytes / 1024][k] - 1) < 6e-3), [true, true, true, true], cells[i].join(' '));
  }
}));
