// Section E in the browser: the logit lens (E2) and activation patching (E3) on the learner's own models,
// redrawn by themselves while a story model trains, and on a trained toy transformer, the toy's answers.
// The timeline (E1) in the page: timeline-page.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { withLab, waitForModule, waitForViews, waitForPanel, panelButton } from './lab-browser.mjs';

const NO_CORPUS = 'corpus=http://127.0.0.1:9/none';  // nothing listens on port 9: the fetch fails at once
const SMALL = 'c1.dim=32&c1.heads=2&c1.layers=2';

// The page at `query`, its console free of errors but the refused corpus fetch at the end.
const withPage = (query, body) => withLab({}, async ({ page, errors, lab }) => {
  await page.goto(`${lab.url}?${query}`);
  await waitForModule(page);
  await body(page);
  assert.deepEqual(errors.filter((e) => !/ERR_CONNECTION_REFUSED|Failed to load resource/.test(e)), []);
});

// What E2 and E3 show now: the step each was drawn at, their pictures and their heatmaps' labels.
const shown = (page) => page.evaluate(() => {
  const view = (id) => {
    const card = document.querySelector(`#exp-${id}`);
    const canvases = [...card.querySelectorAll('canvas')];
    return {
      step: Number(card.dataset.step || -1), text: card.querySelector('.output')?.textContent ?? card.textContent,
      pixels: canvases.map((c) => c.toDataURL()).join(), maps: canvases.map((c) => ({ ...c.dataset })),
    };
  };
  return { E2: view('E2'), E3: view('E3'), training: document.querySelector('.trainer[data-slot="stories-diffusion"]').dataset.state === 'training' };
});

const pick = (page, id, label, value) => page.locator(`#exp-${id} .field`, { hasText: label }).locator('select, input').first()
  .evaluate((input, v) => { input.value = v; input.dispatchEvent(new Event('change')); }, value);

test('the logit lens and patching of a story model redraw by themselves while it trains', async () => {
  await withPage(`${NO_CORPUS}&${SMALL}&c1.steps=100000&live=1#C`, async (page) => {
    await page.evaluate(() => window.lab.corpus.useBuiltin());
    await page.waitForFunction(() => window.lab.corpus.state.status === 'ready', null, { timeout: 60_000 });
    await panelButton(page, 'stories-diffusion', 'Start').click();
    await waitForPanel(page, 'stories-diffusion', { state: 'training', minStep: 1 });
    await page.evaluate(() => { location.hash = '#E'; });
    await waitForViews(page, 'E');
    await page.waitForFunction(() => ['E2', 'E3'].every((id) => Number(document.querySelector(`#exp-${id}`).dataset.step) > 0), null, { timeout: 90_000 });
    const first = await shown(page);
    assert.ok(first.training, 'the first drawings came while training');
    // E2: one row for the embeddings and one after each of the 2 blocks, the sentence's words as columns.
    const lens = first.E2.maps[0];
    assert.deepEqual(JSON.parse(lens.yLabels), ['embeddings', 'after block 0', 'after block 1']);
    assert.deepEqual(JSON.parse(lens.xLabels).length, 11);
    assert.equal(JSON.parse(lens.cellText).length, 3 * 11, 'a word in every cell');
    // E3: blocks x heads, and blocks x positions.
    assert.deepEqual(JSON.parse(first.E3.maps[0].xLabels), ['head 0', 'head 1']);
    assert.deepEqual(JSON.parse(first.E3.maps[1].yLabels), ['block 0', 'block 1']);
    assert.match(first.E3.text, /p\(\S+\) at position 14 \("_"\): clean \S+, corrupted \S+/);

    await page.waitForFunction((s) => ['E2', 'E3'].every((id) => Number(document.querySelector(`#exp-${id}`).dataset.step) > s[id].step + 20),
      first, { timeout: 90_000 });
    const later = await shown(page);
    assert.ok(later.training, 'still training when the views had changed');
    assert.notEqual(later.E2.pixels, first.E2.pixels, 'the lens was redrawn with new weights');
    // Early on the two sentences give the answer nearly the same probability (grey maps): the numbers move.
    assert.notEqual(later.E3.text, first.E3.text, 'patching was redone with new weights');
    await page.evaluate(() => { location.hash = '#C'; });
    await panelButton(page, 'stories-diffusion', 'Stop').click();
    await waitForPanel(page, 'stories-diffusion', { state: 'stopped' });
  });
});

test('on a trained toy transformer the lens\'s last block finds the masked word and patching brings "alive" back', async () => {
  await withPage('b3.steps=600#B', async (page) => {
    await waitForViews(page, 'B');
    await panelButton(page, 'toy-transformer', 'Start').click();
    await waitForPanel(page, 'toy-transformer', { state: 'done', minStep: 600 });
    await page.evaluate(() => { location.hash = '#E'; });
    await waitForViews(page, 'E');
    await pick(page, 'E2', 'model', 'toy-transformer');
    await pick(page, 'E2', 'masked positions', '1');
    await page.waitForFunction(() => document.querySelector('#exp-E2 canvas[data-cell-text]')?.dataset.xLabels.includes('cat'), null, { timeout: 60_000 });
    const lens = await page.locator('#exp-E2 canvas').first().evaluate((c) => ({ ...c.dataset }));
    assert.deepEqual(JSON.parse(lens.xLabels), ['the', '_ (cat)', 'is', 'alive']);
    const words = JSON.parse(lens.cellText), rows = JSON.parse(lens.yLabels).length;
    assert.deepEqual(words.slice((rows - 1) * 4, rows * 4), ['the', 'cat', 'is', 'alive'], 'the last block gives the toy its words back');
    assert.match(new URL(page.url()).search, /e2\.mask=1/, 'the lens\'s inputs are kept in the URL');

    await pick(page, 'E3', 'model', 'toy-transformer');
    await page.waitForFunction(() => /p\(alive\)/.test(document.querySelector('#exp-E3').textContent), null, { timeout: 60_000 });
    const [clean, corrupted] = (await page.locator('#exp-E3 .mono').textContent()).match(/clean ([\d.]+), corrupted ([\d.]+)/).slice(1).map(Number);
    assert.ok(clean > 0.9 && corrupted < 0.1, `"alive" after "cat" ${clean}, after "box" ${corrupted}`);
    const restored = await page.locator('#exp-E3 canvas').nth(1).evaluate((c) => JSON.parse(c.dataset.xLabels));
    assert.deepEqual(restored, ['the', 'cat', 'is', '_'], 'blocks x positions has the clean sentence as columns');
  });
});
