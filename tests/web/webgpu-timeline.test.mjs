// The training timeline (E1) and the views that follow it, on a run that trains on WebGPU (the software
// adapter here): the toy transformer trained just past step 50 keeps snapshots at steps 0 and 50, read from
// the device between two chunks; they are the weights a wasm run of the same config and seed has at those
// steps; E2's logit lens (drawn when section E is opened) and B1–B3's toy guesses draw the model now and
// step 50 beside it, the two sides different; the saved run's timeline comes back from IndexedDB after a
// reload, the same weights.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';

import { withLab, waitForModule, waitForPanel, panelButton, shareAutogroup } from './lab-browser.mjs';
import { features, loadTinyformer } from '../../wasm/tinyformer.js';

const GPU_BUILD = existsSync(new URL('../../web/wasm/tinyformer-gpu.wasm', import.meta.url)) && features.webgpuTraining;
const SLOT = 'toy-transformer';
const STEPS = 70;  // snapshots every 50 steps: 0 and 50, and 20 steps on for "now"
const TOLERANCE = 1e-4;  // WebGPU's sums run in another order than wasm's: 50 Adam steps apart by less

const scrubber = (page) => page.locator(`.timeline[data-slot="${SLOT}"]`);
const slide = (page, index) => scrubber(page).locator('input[type=range]').evaluate((input, i) => {
  input.value = String(i);
  input.dispatchEvent(new Event('input'));
}, index);
// A view's sides once it shows `sides` ("50 70": step 50 beside now at 70) and is busy no more.
const sidesOf = async (page, selector, sides) => {
  await page.waitForFunction(([sel, s]) => document.querySelector(sel)?.dataset.sides === s
    && !document.querySelector(sel).closest('.card').querySelector('.status progress'), [selector, sides], { timeout: 60_000 });
  return page.evaluate(async (sel) => {
    for (let i = 0; i < 2; i++) await new Promise(requestAnimationFrame);  // heatmaps draw at their first layout
    const side = (box) => ({ step: Number(box.dataset.step), rows: box.querySelector('tbody')?.textContent,
      pixels: [...box.querySelectorAll('canvas')].map((c) => c.toDataURL()).join() });
    return Object.fromEntries([...document.querySelector(sel).querySelectorAll('.side')].map((b) => [b.dataset.side, side(b)]));
  }, selector);
};
const snapshot = (page, step) => page.evaluate(async ([slot, step]) => (await window.lab.client.request('snapshot', { slot, step }))
  .map((w) => ({ name: w.name, shape: w.shape, data: Array.from(w.data) })), [SLOT, step]);

function worstDifference(a, b) {
  assert.deepEqual(a.map((w) => [w.name, w.shape]), b.map((w) => [w.name, w.shape]));
  return Math.max(...a.flatMap((w, i) => w.data.map((x, j) => Math.abs(x - b[i].data[j]))));
}

test('a WebGPU run\'s timeline holds its weights at steps 0 and 50, the lens and the guesses show step 50 beside now, and a reload keeps it',
  { skip: !GPU_BUILD && 'no WebGPU build in web/wasm/ (scripts/build-wasm.sh gpu)', timeout: 240_000 }, (t) => withLab({ launchOptions: { webgpu: true } }, async ({ page, errors, lab }) => {
    t.diagnostic(`Chromium: ${shareAutogroup()}`);
    const began = Date.now();
    await page.goto(`${lab.url}?device=webgpu&b3.steps=${STEPS}&e2.model=${SLOT}#B`);
    const loaded = await waitForModule(page);
    assert.equal(loaded.module.device, 'webgpu', loaded.banner);
    await page.evaluate(() => {  // the config the page creates the run with, for the wasm run beside it
      const client = window.lab.client, request = client.request.bind(client);
      client.request = (type, payload, options) => (type === 'create-run' && (window.runConfig = payload.config), request(type, payload, options));
    });
    await panelButton(page, SLOT, 'Start').click();
    await waitForPanel(page, SLOT, { state: 'done', minStep: STEPS });
    const trained = Date.now();
    assert.equal(await scrubber(page).getAttribute('data-steps'), '0 50');
    const counts = await page.evaluate(() => window.lab.client.request('gpu-counts', {}));
    assert.ok(counts.total.dispatches > 0, 'the run trained on the GPU');

    // The snapshots are the run's weights at those steps: a wasm run of the same config trains to the same.
    const [config, at0, at50] = [await page.evaluate(() => window.runConfig), await snapshot(page, 0), await snapshot(page, 50)];
    const tf = await loadTinyformer({ threads: false, baseUrl: new URL('../../web/wasm/', import.meta.url) });
    const run = tf.createRun(config);
    try {
      assert.equal(worstDifference(at0, await run.readWeights()), 0, 'step 0 is the initial weights');
      run.train(50);
      const worst = worstDifference(at50, await run.readWeights());
      t.diagnostic(`step 50 on WebGPU vs wasm: worst weight difference ${worst.toExponential(2)}`);
      assert.ok(worst <= TOLERANCE, `the step-50 snapshot differs from wasm's step 50 by ${worst}`);
      assert.ok(worstDifference(at50, at0) > 100 * TOLERANCE, 'the run trained between the snapshots');
    } finally {
      run.delete();
    }

    // Step 50 beside now: the toy guesses (B) and the lens (E2) draw both sides, each its own.
    await slide(page, 1);
    const guesses = await sidesOf(page, `#exp-B-guesses [data-model="${SLOT}"]`, `50 ${STEPS}`);
    assert.deepEqual([guesses.past.step, guesses.now.step], [50, STEPS]);
    assert.notEqual(guesses.past.rows, guesses.now.rows, 'the guesses at step 50 differ from now\'s');
    await page.evaluate(() => { location.hash = '#E'; });
    const lens = await sidesOf(page, '#exp-E2', `50 ${STEPS}`);
    assert.deepEqual([lens.past.step, lens.now.step], [50, STEPS]);
    assert.ok(lens.past.pixels && lens.now.pixels, 'both sides drew their maps');
    assert.notEqual(lens.past.pixels, lens.now.pixels, 'the lens at step 50 differs from now\'s');

    // The saved run comes back after a reload with its timeline (IndexedDB), the same weights at step 50.
    await page.waitForFunction((s) => document.querySelector(`.trainer[data-slot="${s}"]`).dataset.savedTimeline === '0 50', SLOT, { timeout: 60_000 });
    await page.evaluate(() => { location.hash = '#B'; });  // the toy's panel, which brings its save back
    await page.reload();
    assert.equal((await waitForModule(page)).module.device, 'webgpu');
    await page.waitForFunction((s) => document.querySelector(`.timeline[data-slot="${s}"]`)?.dataset.steps === '0 50', SLOT, { timeout: 60_000 });
    assert.deepEqual(await snapshot(page, 50), at50, 'the reloaded step 50 is the same weights');
    await slide(page, 1);
    assert.equal((await sidesOf(page, `#exp-B-guesses [data-model="${SLOT}"]`, `50 ${STEPS}`)).past.rows, guesses.past.rows, 'the reloaded step 50 guesses the same');
    await page.evaluate(() => { location.hash = '#E'; });
    assert.equal((await sidesOf(page, '#exp-E2', `50 ${STEPS}`)).past.pixels, lens.past.pixels, 'the reloaded lens at step 50 is the same');
    assert.deepEqual(errors, []);
    t.diagnostic(`${STEPS} toy steps on WebGPU in ${((trained - began) / 1000).toFixed(1)} s (with the module's load), the whole test ${((Date.now() - began) / 1000).toFixed(1)} s`);
  }));
