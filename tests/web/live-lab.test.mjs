// Issue 12 in the browser: live views while a story model trains, its rollout and saliency views (an empty
// or too long sentence refused in the reader's words), a checkpoint made elsewhere opened before any story
// text (and after a reload, at its own step; C10 refusing another vocabulary), and what a learner takes
// home: the loss log as JSON Lines, a figure as PNG (named after its model) and a link that reopens the state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { startLab, launch, openPage, waitForModule, waitForPanel, panelState } from './lab-browser.mjs';
import { load } from '../wasm/support.mjs';

const NO_CORPUS = 'corpus=http://127.0.0.1:9/none';  // nothing listens on port 9: the fetch fails at once
const SMALL = 'c1.dim=32&c1.heads=2&c1.layers=2';

async function useBuiltin(page) {
  await page.evaluate(() => window.lab.corpus.useBuiltin());
  await page.waitForFunction(() => window.lab.corpus.state.status === 'ready', null, { timeout: 60_000 });
}

async function withLab(query, body) {
  const lab = await startLab();
  const browser = await launch();
  try {
    const { page, errors } = await openPage(browser.context);
    await page.goto(`${lab.url}?${query}`);
    await waitForModule(page);
    await body(page, lab);
    assert.deepEqual(errors.filter((e) => !/ERR_CONNECTION_REFUSED|Failed to load resource/.test(e)), []);
  } finally {
    await browser.close();
    await lab.close();
  }
}

// What the live views show now, and whether the run is still training at that moment.
const liveState = (page) => page.evaluate(() => {
  const att = document.querySelector('#exp-C4');
  const sample = document.querySelector('#exp-C-write .live-sample');
  return {
    training: document.querySelector('.trainer[data-slot="stories-diffusion"]').dataset.state === 'training',
    attentionStep: Number(att.dataset.step || -1), attentionPixels: att.querySelector('canvas')?.toDataURL() ?? '',
    sampleStep: Number(sample.dataset.step || -1), sampleText: sample.querySelector('.sample-story')?.dataset.text ?? '',
  };
});

test('while a story model trains, its attention maps and a sample story change by themselves', async () => {
  await withLab(`${NO_CORPUS}&${SMALL}&c1.steps=100000&live=1#C`, async (page) => {
    await useBuiltin(page);
    await page.locator('.trainer[data-slot="stories-diffusion"] button', { hasText: 'Start' }).click();
    await page.waitForFunction(() => Number(document.querySelector('#exp-C4').dataset.step) > 0 &&
      Number(document.querySelector('#exp-C-write .live-sample').dataset.step) > 0, null, { timeout: 60_000 });
    const first = await liveState(page);
    assert.ok(first.training, 'the first live views came while training');
    await page.waitForFunction((s) => Number(document.querySelector('#exp-C4').dataset.step) > s.attentionStep + 20 &&
      Number(document.querySelector('#exp-C-write .live-sample').dataset.step) > s.sampleStep + 20, first, { timeout: 60_000 });
    const later = await liveState(page);
    assert.ok(later.training, 'still training when the views had changed');
    assert.notEqual(later.attentionPixels, first.attentionPixels, 'the attention maps were redrawn with new weights');
    assert.match(await page.locator('#exp-C-write .live-sample .story-meta').textContent(), new RegExp(`at step ${later.sampleStep}`));
    assert.equal(later.sampleText.split(' ').length, 32);
    await page.locator('.trainer[data-slot="stories-diffusion"] button', { hasText: 'Stop' }).click();
    await waitForPanel(page, 'stories-diffusion', { state: 'stopped' });
  });
});

test('the story model shows rollout and saliency; the loss log, a PNG and the link go home', async () => {
  const downloads = await mkdtemp(path.join(os.tmpdir(), 'tinyformer-downloads-'));
  try {
    await withLab(`${NO_CORPUS}&${SMALL}&c1.steps=20#C`, async (page, lab) => {
      await useBuiltin(page);
      await page.locator('.trainer[data-slot="stories-diffusion"] button', { hasText: 'Start' }).click();
      await waitForPanel(page, 'stories-diffusion', { state: 'done', minStep: 20 });

      // The diffusion sampler has no use for top-k: the field is not offered.
      assert.equal(await page.locator('#exp-C-write .field', { hasText: 'top-k' }).isVisible(), false);

      // Rollout and saliency for the masked word of the C4 sentence.
      const sources = page.locator('#exp-C-sources');
      await page.waitForFunction(() => document.querySelector('#exp-C-sources')?.dataset.written, null, { timeout: 60_000 });
      assert.equal(await sources.locator('canvas').count(), 3);
      assert.match(await sources.locator('.story-meta').textContent(), /At position 4 \("_"\) the diffusion model \(step 20\) writes/);
      const labels = JSON.parse(await sources.locator('canvas').first().getAttribute('data-y-labels'));
      assert.deepEqual(labels, ['attention, last block', 'rollout', 'saliency']);
      await sources.locator('select').last().selectOption('0');
      await page.waitForFunction(() => /At position 0 \("[^"]+"\)/.test(document.querySelector('#exp-C-sources .story-meta')?.textContent), null, { timeout: 30_000 });
      const sal = await page.evaluate(() => window.lab.client.call('stories-diffusion', 'tokenSaliency', 'lily went to the _ .'));
      assert.deepEqual(sal.saliency.shape, [6, 6]);
      for (let r = 0; r < 6; r++) assert.ok(Math.abs(Array.from(sal.saliency.data.slice(r * 6, r * 6 + 6)).reduce((a, b) => a + b) - 1) < 1e-5);

      // An empty sentence, and one longer than the model reads: a message in the reader's words, and no maps
      // of the sentence before left under it.
      const sentence = sources.locator('input[type=text]');
      const kept = await sentence.inputValue();
      for (const [text, message] of [['', /^the sentence is empty: write a few words, with _ for a masked word$/],
        [Array(600).fill('lily').join(' '), /^the sentence has 600 words and marks; the diffusion model reads at most 64$/]]) {
        await sentence.fill(text);
        await sources.locator('button', { hasText: 'Show' }).click();
        await page.waitForSelector('#exp-C-sources > .status [role="alert"]');
        assert.match(await sources.locator('.status [role="alert"]').textContent(), message);
        assert.equal(await sources.locator('canvas').count(), 0, 'the maps of the sentence before are gone');
      }
      await sentence.fill(kept);
      await sources.locator('button', { hasText: 'Show' }).click();
      await page.waitForFunction(() => document.querySelectorAll('#exp-C-sources canvas').length === 3, null, { timeout: 30_000 });

      // The loss log: one JSON object per step with the CLI's --log fields.
      const [log] = await Promise.all([page.waitForEvent('download'),
        page.locator('.trainer[data-slot="stories-diffusion"] button', { hasText: 'Save the loss log' }).click()]);
      const logFile = path.join(downloads, log.suggestedFilename());
      await log.saveAs(logFile);
      const lines = (await readFile(logFile, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
      assert.equal(lines.length, 20);
      assert.deepEqual(Object.keys(lines[0]).sort(), ['loss', 'lr', 'step', 'tokens_per_s']);
      assert.deepEqual(lines.map((l) => l.step), Array.from({ length: 20 }, (_, i) => i + 1));
      assert.ok(lines.every((l) => Number.isFinite(l.loss) && l.loss > 0));

      // A downloaded checkpoint carries the loss history; uploaded again, the curve comes back with it.
      const panel = page.locator('.trainer[data-slot="stories-diffusion"]');
      const lossBefore = (await panelState(page, 'stories-diffusion')).loss;
      const [ckpt] = await Promise.all([page.waitForEvent('download'), panel.locator('button', { hasText: 'Download .safetensors' }).click()]);
      const ckptFile = path.join(downloads, ckpt.suggestedFilename());
      await ckpt.saveAs(ckptFile);
      await panel.locator('input[type=file]').setInputFiles(ckptFile);
      await page.waitForFunction(() => /Loaded stories-diffusion-step20/.test(document.querySelector('.trainer[data-slot="stories-diffusion"] .status').textContent));
      const after = await panelState(page, 'stories-diffusion');
      assert.ok(Math.abs(after.loss - lossBefore) < 1e-4 * lossBefore, `${after.loss} vs ${lossBefore}`);
      assert.equal(after.step, 20);

      // A heatmap as PNG.
      const [png] = await Promise.all([page.waitForEvent('download'), page.locator('#exp-C4 .save-png').first().click()]);
      const pngFile = path.join(downloads, png.suggestedFilename());
      await png.saveAs(pngFile);
      assert.equal(png.suggestedFilename(), 'C4-stories-diffusion-step-20-block-0-head-0.png');
      assert.deepEqual([...(await readFile(pngFile)).subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

      // Settings and inputs into the URL, then the copied link opens them again in a fresh tab.
      await page.locator('#exp-C-write input').nth(0).fill('once upon a time');
      await page.locator('#exp-C-write input').nth(0).dispatchEvent('change');
      await page.locator('#exp-C4 input[type=text]').fill('tom saw the _ .');
      await page.locator('#exp-C4 input[type=text]').dispatchEvent('change');
      await page.locator('#exp-C4 input[type=checkbox]').check();
      await page.locator('button', { hasText: 'Copy link' }).click();
      const link = await page.locator('.copied-link').inputValue();
      assert.ok(link.startsWith(lab.url), link);
      const again = await page.context().newPage();
      await again.goto(link);
      await waitForModule(again);
      await again.waitForSelector('#exp-C4 input[type=text]');
      assert.equal(await again.locator('#exp-C-write input').nth(0).inputValue(), 'once upon a time');
      assert.equal(await again.locator('#exp-C4 input[type=text]').inputValue(), 'tom saw the _ .');
      assert.equal(await again.locator('#exp-C4 input[type=checkbox]').isChecked(), true);
      assert.equal(await again.locator('.trainer[data-slot="stories-diffusion"] input[name=dim]').inputValue(), '32');
      assert.equal(await again.locator('.trainer[data-slot="stories-diffusion"] input[name=steps]').inputValue(), '20');
    });
  } finally {
    await rm(downloads, { recursive: true, force: true });
  }
});

test('a checkpoint made elsewhere opens before any story text; C10 refuses its vocabulary', async () => {
  // A causal story model trained on text of its own (so its vocabulary is not the built-in stories').
  const tf = await load(false);
  const names = ['ann', 'bob', 'cat', 'dan', 'eve'];
  const text = Array.from({ length: 400 }, (_, i) => `${names[i % 5]} saw a ${names[(i + 2) % 5]} near the river . it was day ${i % 7} .`)
    .join('\n<|endoftext|>\n');
  const run = tf.createRun({ task: 'stories', model: { dim: 24, heads: 2, layers: 1, causal: true, maxLength: 48 }, steps: 3, batch: 4 }, { train: text });
  run.train(3);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tinyformer-upload-'));
  const file = path.join(dir, 'elsewhere.safetensors');
  await writeFile(file, run.checkpoint());
  run.delete();
  try {
    await withLab(`${NO_CORPUS}#C`, async (page) => {
      await page.waitForFunction(() => window.lab.corpus.state.status === 'failed', null, { timeout: 30_000 });
      const panel = page.locator('.trainer[data-slot="stories-causal"]');
      await panel.locator('input[type=file]').setInputFiles(file);
      await waitForPanel(page, 'stories-causal', { state: 'loaded' });
      assert.match(await panel.locator('.status').textContent(), /as weights only, with its own vocabulary/);
      assert.match(await panel.locator('.status').textContent(), /Loaded elsewhere\.safetensors: [\d,]+ parameters, step 3/);
      const shown = await panel.locator('input[type=number]').evaluateAll((inputs) => Object.fromEntries(inputs.map((i) => [i.name, i.value])));
      assert.deepEqual([shown.dim, shown.heads, shown.layers, shown.length], ['24', '2', '1', '48']);

      // A reload brings it back as it was, weights only at step 3, with no story text; leaving had nothing
      // unsaved to warn about.
      const wouldWarn = () => page.evaluate(() => {
        const leaving = new Event('beforeunload', { cancelable: true });
        window.dispatchEvent(leaving);
        return leaving.defaultPrevented;
      });
      assert.equal(await wouldWarn(), false, 'a file loaded as weights is not unsaved training');
      await page.reload();
      await waitForModule(page);
      await waitForPanel(page, 'stories-causal', { state: 'loaded' });
      assert.match(await panel.locator('.stats dd').first().textContent(), /^3 \/ \d+$/);
      assert.equal(await panel.locator('.status').textContent(), 'Restored the run saved at step 3.');
      assert.equal(await wouldWarn(), false);

      // It writes with its own words, and no longer than it can read.
      await page.locator('#exp-C-write select').first().selectOption('stories-causal');
      assert.equal(await page.locator('#exp-C-write input[type=number]').first().getAttribute('max'), '48');
      assert.equal(await page.locator('#exp-C-write .field', { hasText: 'top-k' }).isVisible(), true);
      await page.locator('#exp-C-write input[type=text]').first().fill('ann saw');
      await page.locator('#exp-C-write button', { hasText: /^Write$/ }).click();
      await page.waitForFunction(() => document.querySelector('#exp-C-write')?.dataset.written === 'done', null, { timeout: 60_000 });
      const story = await page.locator('#exp-C-write .stories .story').first().getAttribute('data-text');
      assert.ok(story.split(' ').every((w) => w === '<unk>' || text.includes(w)), story);
      await page.locator('#exp-C-write input[type=number]').first().fill('60');
      await page.locator('#exp-C-write button', { hasText: /^Write$/ }).click();
      await page.waitForFunction(() => document.querySelector('#exp-C-write')?.dataset.written === 'failed', null, { timeout: 30_000 });
      assert.match(await page.locator('#exp-C-write .status').textContent(), /this model reads at most 48/);
      assert.equal(await page.locator('#exp-C-write .stories .story').count(), 0, 'the stale stories are gone');

      // C10 from it on the built-in stories: the vocabularies differ, so it is refused, clearly.
      await useBuiltin(page);
      await page.locator('.trainer[data-slot="stories-from-causal"] button', { hasText: 'Start' }).click();
      const c10 = page.locator('.trainer[data-slot="stories-from-causal"] .status [role=alert]');
      await c10.waitFor({ timeout: 60_000 });
      assert.match(await c10.textContent(), /C10 cannot start from the left-to-right model: the weights come from a model with another vocabulary: \d+ of \d+ token ids/);
      assert.equal((await panelState(page, 'stories-from-causal')).state, 'empty');
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
