// A run that diverges in the page is never autosaved: a toy run made with SGD at a learning rate of 9.9
// (by the wasm module in Node, as the CLI would) is uploaded and resumed until its loss is not finite; the
// saved run stays the last good one, the panel offers to go back to it, and a reload restores it without
// failing again. A checkpoint holding a NaN is not saved either. The saved files are read through the module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { startLab, launch, openPage, waitForModule, waitForViews, waitForPanel, panelState } from './lab-browser.mjs';

const BUILDS = new URL('../../web/wasm/', import.meta.url);
const SLOT = 'toy-transformer';

// The module in Node, for making and reading checkpoints as the CLI would.
async function module() {
  const { loadTinyformer } = await import('../../wasm/tinyformer.js');
  return loadTinyformer({ threads: false, baseUrl: BUILDS });
}

// The first parameter of a checkpoint that holds NaN or infinity (null when none), read through the module;
// its optimizer state is checked by the core, which refuses to save a run holding any.
function firstNonFinite(tf, bytes) {
  const run = tf.loadRun(bytes);
  try {
    const names = run.parameters().rows.map((r) => r.name);
    const bad = names.find((name) => !run.parameter(name).data.every(Number.isFinite));
    if (bad) return bad;
    run.checkpoint();
    return null;
  } finally {
    run.delete();
  }
}

// A toy run two steps into SGD at lr 9.9 (its loss is finite, a few more steps make it infinite), and the
// same checkpoint with one weight set to NaN.
function checkpoints(tf) {
  const config = tf.defaultConfig('toy');
  Object.assign(config, { optimizer: 'sgd', lr: 9.9 });
  const run = tf.createRun(config);
  try {
    run.train(2);
    const good = run.checkpoint().slice();
    const headerLength = Number(new DataView(good.buffer).getBigUint64(0, true));
    const header = JSON.parse(new TextDecoder().decode(good.subarray(8, 8 + headerLength)));
    const nan = good.slice();
    new DataView(nan.buffer).setFloat32(8 + headerLength + header['embed.weight'].data_offsets[0], NaN, true);
    return { good, nan };
  } finally {
    run.delete();
  }
}

const savedRun = (page, slot) => page.evaluate((s) => new Promise((resolve, reject) => {
  const open = indexedDB.open('tinyformer-lab');
  open.onsuccess = () => {
    const request = open.result.transaction('runs').objectStore('runs').get(s);
    request.onsuccess = () => resolve(request.result && { step: request.result.step, bytes: Array.from(request.result.bytes) });
    request.onerror = () => reject(request.error);
  };
}), slot);

async function upload(page, file) {
  await page.locator(`.trainer[data-slot="${SLOT}"] input[type=file]`).setInputFiles(file);
}

test('a diverged run is not autosaved; the last good checkpoint is offered and survives a reload',
  { skip: !existsSync(new URL('tinyformer-st.wasm', BUILDS)) && 'run bash scripts/build-wasm.sh' }, async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'tinyformer-diverge-'));
    const tf = await module();
    const { good, nan } = checkpoints(tf);
    await writeFile(path.join(dir, 'sgd.safetensors'), good);
    await writeFile(path.join(dir, 'nan.safetensors'), nan);
    const lab = await startLab();
    const browser = await launch();
    try {
      const { page, errors } = await openPage(browser.context);
      await page.goto(`${lab.url}#B`);
      await waitForModule(page);
      await waitForViews(page, 'B');
      const trainer = page.locator(`.trainer[data-slot="${SLOT}"]`);
      await upload(page, path.join(dir, 'sgd.safetensors'));
      await page.waitForFunction((s) => document.querySelector(`.trainer[data-slot="${s}"]`).dataset.saved === '2', SLOT);

      await trainer.locator('button', { hasText: 'Resume' }).click();
      await page.waitForFunction((s) => document.querySelector(`.trainer[data-slot="${s}"] .not-saved`), SLOT, { timeout: 60_000 });
      assert.match(await trainer.locator('.status').textContent(), /not finite|diverged/);
      assert.match(await trainer.locator('.not-saved').textContent(),
        /^The run diverged at step \d+ \(.*(not finite|diverged).*\), so it was not saved\. Go back to the last good checkpoint/);
      // The last good save: the upload's (step 2), or an autosave (every 15 s) made on a slow machine while
      // the loss was still finite; never one at or after the step that diverged.
      const stored = await savedRun(page, SLOT);
      const diverged = Number(await trainer.getAttribute('data-diverged'));
      assert.ok(stored.step >= 2 && stored.step < diverged, `saved at step ${stored.step}, diverged at ${diverged}`);
      assert.equal(firstNonFinite(tf, Uint8Array.from(stored.bytes)), null);
      const good = stored.step;

      await trainer.locator('.not-saved button', { hasText: `Go back to the last good checkpoint (step ${good})` }).click();
      // The stopped run is paused too (at the step it stopped), so wait for the restore itself to report.
      await page.waitForFunction(([s, n]) => document.querySelector(`.trainer[data-slot="${s}"] .status`).textContent
        .includes(`Restored the run saved at step ${n}.`), [SLOT, good], { timeout: 60_000 });
      await waitForPanel(page, SLOT, { state: 'paused', minStep: good });
      assert.equal((await panelState(page, SLOT)).step, good);
      assert.equal(await trainer.locator('.not-saved').count(), 0);
      assert.ok((await trainer.locator('.status').textContent()).includes(`Restored the run saved at step ${good}.`));

      await page.reload();
      await waitForModule(page);
      await waitForPanel(page, SLOT, { state: 'paused', minStep: good });
      assert.equal((await panelState(page, SLOT)).step, good);
      assert.equal(await trainer.locator('.status').textContent(), `Restored the run saved at step ${good}.`);

      await upload(page, path.join(dir, 'nan.safetensors'));
      await page.waitForFunction((s) => /NaN|not finite/.test(document.querySelector(`.trainer[data-slot="${s}"]`).textContent), SLOT);
      assert.equal((await savedRun(page, SLOT)).step, good);
      assert.equal(firstNonFinite(tf, Uint8Array.from((await savedRun(page, SLOT)).bytes)), null);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      await lab.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
