// E1, the training timeline, in the browser: a story run trained 300 steps keeps a snapshot every 50 steps;
// scrubbing to step 50 shows that model's attention (C4), which differs from step 300's and equals the
// attention of a model loaded from the step-50 snapshot of the run's file downloaded with its timeline; a
// reload brings the saved run back with the same timeline (IndexedDB), and the file uploaded in a fresh
// browser profile brings the model and its timeline back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

import { withLab, waitForModule, waitForPanel, panelButton, openPage, launch } from './lab-browser.mjs';
import { loadTinyformer } from '../../wasm/tinyformer.js';

const NO_CORPUS = 'corpus=http://127.0.0.1:9/none';  // nothing listens on port 9: the fetch fails at once
const QUERY = `${NO_CORPUS}&c1.dim=32&c1.heads=2&c1.layers=2&c1.steps=300#C`;
const SLOT = 'stories-diffusion';
const STEPS = '0 50 100 150 200 250 300';

// The attention map C4 shows now, with the step it says it shows.
const attentionShown = (page) => page.evaluate(async () => {
  for (let i = 0; i < 2; i++) await new Promise(requestAnimationFrame);  // the heatmaps draw at their first layout
  const card = document.querySelector('#exp-C4');
  return { step: Number(card.dataset.step), pixels: [...card.querySelectorAll('canvas')].map((c) => c.toDataURL()).join() };
});

// The numbers behind C4's maps at timeline step `at` (null: now), read as C4 reads them.
const attentionAt = (page, at) => page.evaluate(async ([slot, at]) => {
  const sentence = document.querySelector('#exp-C4 .field-text input').value;
  const a = await window.lab.client.request('call', { slot, method: 'attention', args: [sentence], at });
  return { sentence, layers: a.layers.map((l) => ({ shape: l.shape, data: Array.from(l.data) })) };
}, [SLOT, at]);

const scrubberOf = (page) => page.locator(`.timeline[data-slot="${SLOT}"]`);
const slide = (page, index) => scrubberOf(page).locator('input[type=range]').evaluate((input, i) => {
  input.value = String(i);
  input.dispatchEvent(new Event('input'));
}, index);
// Waits until C4 has drawn the sides `sides` ("50 300": step 50 beside now at 300) and is busy no more.
const shownAt = (page, sides) => page.waitForFunction((s) => {
  const card = document.querySelector('#exp-C4');
  return card.dataset.sides === s && !card.querySelector('.status progress');
}, sides, { timeout: 60_000 });

async function useBuiltinStories(page) {
  await page.evaluate(() => window.lab.corpus.useBuiltin());
  await page.waitForFunction(() => window.lab.corpus.state.status === 'ready', null, { timeout: 60_000 });
}

const maxDifference = (a, b) => Math.max(...a.layers.flatMap((l, i) => l.data.map((x, j) => Math.abs(x - b.layers[i].data[j]))));

test('scrubbing a 300-step story run to step 50 shows the step-50 snapshot\'s model; reload and its file keep the timeline', async () => {
  await withLab({}, async ({ page, errors, lab }) => {
    await page.goto(`${lab.url}?${QUERY}`);
    await waitForModule(page);
    await useBuiltinStories(page);
    const began = Date.now();
    await panelButton(page, SLOT, 'Start').click();
    await waitForPanel(page, SLOT, { state: 'done', minStep: 300 });
    const trainSeconds = (Date.now() - began) / 1000;
    assert.equal(await scrubberOf(page).getAttribute('data-steps'), STEPS);
    await shownAt(page, '300');
    const now = await attentionShown(page);
    const numbersNow = await attentionAt(page, null);

    await slide(page, 1);
    await shownAt(page, '50 300');
    const then = await attentionShown(page);
    assert.equal(await scrubberOf(page).getAttribute('data-at'), '50');
    assert.notEqual(then.pixels, now.pixels, 'the model at step 50 attends otherwise than at step 300');
    assert.match(await page.locator('#exp-C4 .story-meta').textContent(), /at step 50 \(timeline\)/);
    const numbers50 = await attentionAt(page, 50);
    assert.ok(maxDifference(numbers50, numbersNow) > 1e-3, 'step 50\'s numbers differ from step 300\'s');
    await slide(page, 7);  // past the last snapshot: the model now
    await shownAt(page, '300');
    assert.equal((await attentionShown(page)).pixels, now.pixels);
    await slide(page, 1);
    await shownAt(page, '50 300');
    assert.equal((await attentionShown(page)).pixels, then.pixels, 'the snapshot is read back the same every time');

    // The run's file with its timeline: its step-50 snapshot loaded into a model gives the same attention.
    await page.waitForFunction(([s, steps]) => document.querySelector(`.trainer[data-slot="${s}"]`).dataset.savedTimeline === steps, [SLOT, STEPS]);
    const [download] = await Promise.all([page.waitForEvent('download'), panelButton(page, SLOT, 'Download with its timeline').click()]);
    assert.equal(download.suggestedFilename(), `${SLOT}-step300-timeline.safetensors`);
    const file = new Uint8Array(await readFile(await download.path()));
    const tf = await loadTinyformer({ threads: false, baseUrl: new URL('../../web/wasm/', import.meta.url) });
    const model = tf.loadModel(file);
    try {
      assert.deepEqual(tf.inspectCheckpoint(file).timeline.join(' '), STEPS);
      model.setWeights(tf.readTimeline(file).find((k) => k.step === 50).weights);
      const loaded = model.attention(numbers50.sentence).layers.map((l) => ({ shape: l.shape, data: Array.from(l.data) }));
      assert.ok(maxDifference(numbers50, { layers: loaded }) <= 1e-6, `the page's step 50 and the snapshot's model differ by ${maxDifference(numbers50, { layers: loaded })}`);
    } finally {
      model.delete();
    }

    // A reload: the saved run comes back with its timeline, and step 50 shows the same map.
    await page.reload();
    await waitForModule(page);
    await page.waitForFunction(([s, steps]) => document.querySelector(`.timeline[data-slot="${s}"]`)?.dataset.steps === steps, [SLOT, STEPS], { timeout: 120_000 });
    await slide(page, 1);
    assert.deepEqual(await attentionAt(page, 50), numbers50, 'the reloaded step 50 is the same model');
    await shownAt(page, '50 300');
    assert.equal((await attentionShown(page)).pixels, then.pixels);

    // A fresh profile (nothing saved): the downloaded file brings back the run and its timeline.
    const fresh = await launch();
    try {
      const other = (await openPage(fresh.context)).page;
      await other.goto(`${lab.url}?${QUERY}`);
      await waitForModule(other);
      await useBuiltinStories(other);
      await other.locator(`.trainer[data-slot="${SLOT}"] input[type=file]`).setInputFiles({ name: 'run.safetensors', mimeType: 'application/octet-stream', buffer: Buffer.from(file) });
      await other.waitForFunction(([s, steps]) => document.querySelector(`.timeline[data-slot="${s}"]`)?.dataset.steps === steps, [SLOT, STEPS], { timeout: 60_000 });
      assert.match(await other.locator(`.trainer[data-slot="${SLOT}"] .status`).textContent(), /with its timeline of 7 steps \(training can go on\)/);
      assert.deepEqual(await attentionAt(other, 50), numbers50, 'the uploaded step 50 is the same model');
    } finally {
      await fresh.close();
    }
    assert.deepEqual(errors.filter((e) => !/ERR_CONNECTION_REFUSED|Failed to load resource/.test(e)), []);
    console.log(`# 300 story steps trained in the page in ${trainSeconds.toFixed(1)} s`);
  });
});
