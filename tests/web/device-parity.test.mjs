// The same training on every device the page can use gives the same numbers: 20 steps of a small story
// model (dim 32, 2 heads, 1 block, 8 x 16 windows, the built-in stories), diffusion and causal, through the
// page's own workers (the device benchmark's runs), losses within 1e-4 relative of the single-threaded wasm
// build. With the WebGPU build of the module laid out (web/wasm/tinyformer-gpu.*) and runs that train on it
// (the wrapper's features.webgpuTraining) the WebGPU row is
// compared too, the toy transformer must reach 0.56 on it, and a forced device loss (the LOSE_DEVICE hook:
// device.destroy()) must hand the run to wasm, which goes on from its checkpoint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';

import { startLab, launch, openPage, waitForModule, waitForViews, waitForPanel, panelState, panelButton, trainingAfterASave } from './lab-browser.mjs';

import { features } from '../../wasm/tinyformer.js';

// The WebGPU rows need the build laid out and a wrapper whose runs train on the device (else the WebGPU
// build's runs would train on its CPU backend, and these tests would compare wasm with itself).
const GPU_BUILD = existsSync(new URL('../../web/wasm/tinyformer-gpu.wasm', import.meta.url)) && features.webgpuTraining;
const NO_GPU_BUILD = !GPU_BUILD && 'no WebGPU training: web/wasm/tinyformer-gpu.* (scripts/build-wasm.sh) and Run.trainChunk in the wrapper are needed';
const STEPS = 20;
const TOLERANCE = 1e-4;

async function withLab(work, { isolation = true, query = '' } = {}) {
  const lab = await startLab({ isolation });
  const browser = await launch({ webgpu: true });
  try {
    const { page, errors } = await openPage(browser.context);
    await page.goto(`${lab.url}${query}`);
    const loaded = await waitForModule(page);
    await work(page, loaded);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await lab.close();
  }
}

const worstRelative = (a, b) => Math.max(...a.map((v, i) => Math.abs(v - b[i]) / Math.abs(b[i])));

test(`${STEPS} story steps give the same losses on every device (diffusion and causal, 1e-4 relative)`, (t) => withLab(async (page, loaded) => {
  const devices = [...(GPU_BUILD ? ['webgpu'] : []), 'wasm-threads', 'wasm-single'];
  if (GPU_BUILD) assert.equal(loaded.module.device, 'webgpu', loaded.banner);
  const rows = await page.evaluate(async ([devices, steps]) => {
    const { runBench } = await import('/page/device-bench.js');
    return runBench({ devices, size: 'small', steps, warmup: 0 });
  }, [devices, STEPS]);
  assert.deepEqual(rows.map((r) => [r.device, r.causal]), devices.flatMap((d) => [[d, false], [d, true]]));
  for (const causal of [false, true]) {
    const reference = rows.find((r) => r.device === 'wasm-single' && r.causal === causal).losses;
    assert.equal(reference.length, STEPS);
    assert.ok(reference.every(Number.isFinite) && reference[STEPS - 1] < reference[0], `the losses fall: ${reference}`);
    for (const row of rows.filter((r) => r.device !== 'wasm-single' && r.causal === causal)) {
      const worst = worstRelative(row.losses, reference);
      t.diagnostic(`${row.device} ${causal ? 'causal' : 'diffusion'}: worst relative loss difference ${worst.toExponential(2)}`);
      assert.ok(worst <= TOLERANCE, `${row.device} ${causal ? 'causal' : 'diffusion'}: worst relative difference ${worst}`);
    }
  }
}, { query: '?device=webgpu' }));

// The software adapter (SwiftShader) takes about 0.5 s per toy step (batch 64 x 32: its GEMM runs at
// ~0.2 GFLOP/s), 1500 steps 771 s (measured 2026-12-01, final loss 0.48): more than CI's budget allows, so
// a GPU runs it, and TF_SLOW_ADAPTER_TOY=1 (scripts/webgpu-toy.sh) runs it on the software adapter too.
const SLOW_ADAPTER_OK = process.env.TF_SLOW_ADAPTER_TOY === '1';
test('the toy transformer trains to 0.56 on WebGPU in the page', { skip: NO_GPU_BUILD, timeout: 3_600_000 }, (t) => withLab(async (page, loaded) => {
  assert.equal(loaded.module.device, 'webgpu', loaded.banner);
  const software = loaded.module.adapterSoftware;
  if (software && !SLOW_ADAPTER_OK) return t.skip(`the software adapter (${loaded.module.adapter}) is too slow for 1500 toy steps (TF_SLOW_ADAPTER_TOY=1 runs it)`);
  await waitForViews(page, 'B');
  const started = Date.now();
  await panelButton(page, 'toy-transformer', 'Start').click();
  await waitForPanel(page, 'toy-transformer', { state: 'done' }, software ? 3_000_000 : 600_000);
  t.diagnostic(`1500 toy steps on ${loaded.module.adapter}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const s = await panelState(page, 'toy-transformer');
  assert.equal(s.step, 1500);
  t.diagnostic(`final loss ${s.loss}`);
  assert.ok(s.loss <= 0.56, `loss ${s.loss}`);
}, { query: '?device=webgpu#B' }));

test('a WebGPU device lost mid-run hands the run to wasm, which goes on from its checkpoint', { skip: NO_GPU_BUILD }, () => withLab(async (page, loaded) => {
  const slot = 'toy-notalking';
  assert.equal(loaded.module.device, 'webgpu', loaded.banner);
  await waitForViews(page, 'B');
  const saved = await trainingAfterASave(page, slot, { minStep: 20, ahead: 5 });
  assert.deepEqual(await page.evaluate(() => window.lab.client.request('lose-device')), { destroyed: true });
  await page.waitForFunction(() => document.getElementById('worker-restart'), null, { timeout: 60_000 });
  assert.match(await page.locator('#worker-restart').textContent(), /^WebGPU failed \(the WebGPU device was lost: .+\): the lab switched to WebAssembly/);
  await page.waitForFunction((s) => /Restored the run saved at step \d+\. Training goes on from there\./.test(
    document.querySelector(`.trainer[data-slot="${s}"] .status`).textContent), slot, { timeout: 60_000 });
  await waitForPanel(page, slot, { state: 'training', minStep: saved + 50 });
  assert.notEqual(await page.evaluate(() => document.body.dataset.device), 'webgpu');
  await panelButton(page, slot, 'Stop').click();
  await waitForPanel(page, slot, { state: 'stopped' });
}, { query: '?device=webgpu&b1.steps=100000#B' }));
