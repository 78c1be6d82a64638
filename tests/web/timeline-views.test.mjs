// The views that follow a run's timeline (widgets/timeline-sides.js), in the browser: on a trained sorter, D5's
// rollout and D6's saliency show the step picked beside the model now (each side its own, the now side as
// before the pick), or alone; Play walks them through every step; B1–B3's toy guesses show the toy
// transformer at a past step beside now, the past read once while the live rounds read now; C2's sample story at a past step is that step's model's, with
// the same seed as now's.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { withLab, waitForModule, waitForViews, waitForPanel, panelButton } from './lab-browser.mjs';

// What a card shows: the steps of its sides (data-sides) and, per side (past | now), its step and pictures.
const shown = (page, selector) => page.evaluate(async (sel) => {
  for (let i = 0; i < 2; i++) await new Promise(requestAnimationFrame);  // heatmaps draw at their first layout
  const node = document.querySelector(sel);
  const side = (box) => ({ step: Number(box.dataset.step), text: [...box.children].filter((n) => !n.matches('.side-step')).map((n) => n.textContent).join(),
    rows: box.querySelector('tbody')?.textContent, pixels: [...box.querySelectorAll('canvas')].map((c) => c.toDataURL()).join() });
  return { sides: node.dataset.sides, ...Object.fromEntries([...node.querySelectorAll('.side')].map((box) => [box.dataset.side, side(box)])) };
}, selector);

const scrubber = (page, slot) => page.locator(`.timeline[data-slot="${slot}"]`);
const slide = (page, slot, index) => scrubber(page, slot).locator('input[type=range]').evaluate((input, i) => {
  input.value = String(i);
  input.dispatchEvent(new Event('input'));
}, index);
const showMode = (page, slot, mode) => scrubber(page, slot).locator('select').selectOption(mode);
const until = (page, selector, sides) => page.waitForFunction(([sel, s]) => document.querySelector(sel)?.dataset.sides === s
  && !document.querySelector(sel).closest('.card').querySelector('.status progress'), [selector, sides], { timeout: 60_000 });

test('rollout and saliency show the sorter at the step picked beside now, or alone, and Play walks the steps', () => withLab({}, async ({ page, errors, lab }) => {
  await page.goto(`${lab.url}?d1.steps=100#D`);
  await waitForModule(page);
  await panelButton(page, 'sorter', 'Start').click();
  await waitForPanel(page, 'sorter', { state: 'done', minStep: 100 });
  assert.equal(await scrubber(page, 'sorter').getAttribute('data-steps'), '0 50 100');
  for (const id of ['#exp-D5', '#exp-D6']) await until(page, id, '100');
  const now = { D5: await shown(page, '#exp-D5'), D6: await shown(page, '#exp-D6') };

  // Beside now (the default), two sides drawn alike: the last snapshot is the model now, step 50 is not.
  await slide(page, 'sorter', 2);
  const last = {};
  for (const id of ['D5', 'D6']) {
    await until(page, `#exp-${id}`, '100 100');
    last[id] = await shown(page, `#exp-${id}`);
    assert.equal(last[id].past.pixels, last[id].now.pixels, `${id}: the snapshot at step 100 is the model now`);
  }
  await slide(page, 'sorter', 1);
  for (const id of ['D5', 'D6']) {
    await until(page, `#exp-${id}`, '50 100');
    const beside = await shown(page, `#exp-${id}`);
    assert.deepEqual([beside.past.step, beside.now.step], [50, 100]);
    assert.notEqual(beside.past.pixels, beside.now.pixels, `${id}: the sorter at step 50 differs from step 100`);
    assert.equal(beside.now.pixels, last[id].now.pixels, `${id}: the now side is the model now`);
    assert.match(await page.locator(`#exp-${id} .story-meta`).textContent(), /sorter at step 50 \(timeline\) beside now at step 100/);
  }
  const [png] = await Promise.all([page.waitForEvent('download'), page.locator('#exp-D5 [data-side="past"] .save-png').first().click()]);
  assert.equal(png.suggestedFilename(), 'D5-sorter-step-50-layer-0-mean-over-heads.png', 'a side\'s PNG is named after its step');

  // Alone: step 50 only, drawn where the model now was.
  await showMode(page, 'sorter', 'alone');
  for (const id of ['D5', 'D6']) {
    await until(page, `#exp-${id}`, '50');
    const alone = await shown(page, `#exp-${id}`);
    assert.equal(alone.now, undefined, `${id}: the model now is not shown`);
    assert.equal(alone.past.step, 50);
    assert.notEqual(alone.past.pixels, now[id].now.pixels, `${id}: step 50 is drawn, not the model now`);
  }
  assert.match(new URL(page.url()).search, /tl\.sorter=alone/, 'the choice is kept in the URL');

  // Play: every step in turn, each drawn, then now.
  await page.evaluate(() => {
    window.stepsSeen = { D5: [], D6: [] };
    for (const id of ['D5', 'D6']) {
      const card = document.querySelector(`#exp-${id}`);
      new MutationObserver(() => window.stepsSeen[id].push([...card.querySelectorAll('.side')].map((b) => `${b.dataset.side} ${b.dataset.step}`).join()))
        .observe(card, { attributes: true, attributeFilter: ['data-sides'] });
    }
  });
  await scrubber(page, 'sorter').locator('button', { hasText: 'Play' }).click();
  await page.waitForFunction(() => !document.querySelector('.timeline[data-slot="sorter"]').dataset.playing, null, { timeout: 60_000 });
  const seen = await page.evaluate(() => window.stepsSeen);
  for (const id of ['D5', 'D6']) assert.deepEqual(seen[id].filter((s, i, all) => s !== all[i - 1]), ['past 0', 'past 50', 'past 100', 'now 100'], `${id} while playing`);
  assert.equal(await scrubber(page, 'sorter').getAttribute('data-at'), '', 'Play ends on the model now');
  for (const id of ['D5', 'D6']) assert.equal((await shown(page, `#exp-${id}`)).now.pixels, now[id].now.pixels, `${id}: back to the model now`);
  assert.deepEqual(errors, []);
}));

test('the toy guesses show the toy transformer at a past step beside now; while it trains only now is read again', () => withLab({}, async ({ page, errors, lab }) => {
  await page.goto(`${lab.url}?b3.steps=100000&live=1#B`);
  await waitForModule(page);
  await waitForViews(page, 'B');
  await page.evaluate(() => {  // counts the page's calls on a past step's model
    const client = window.lab.client, request = client.request.bind(client);
    window.pastCalls = 0;
    client.request = (type, payload, options) => ((payload?.at ?? null) !== null && window.pastCalls++, request(type, payload, options));
  });
  await panelButton(page, 'toy-transformer', 'Start').click();
  await page.waitForFunction(() => document.querySelector('.timeline[data-slot="toy-transformer"]').dataset.steps.startsWith('0 50 100'), null, { timeout: 60_000 });
  const table = '#exp-B-guesses [data-model="toy-transformer"]';
  await slide(page, 'toy-transformer', 0);
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.sides?.startsWith('0 '), table, { timeout: 60_000 });
  const first = await shown(page, table);
  const calls = await page.evaluate(() => window.pastCalls);
  await page.waitForFunction(([sel, step]) => Number(document.querySelector(`${sel} [data-side="now"]`)?.dataset.step) > step + 100, [table, first.now.step], { timeout: 60_000 });
  const later = await shown(page, table);
  assert.equal(await page.evaluate(() => window.pastCalls), calls, 'the live rounds read the model now only');
  assert.equal(later.past.rows, first.past.rows, 'step 0 as it was');
  assert.match(later.past.text, /MyTransformer at step 0 \(timeline\)/);
  assert.notEqual(later.past.rows, later.now.rows, 'the untrained guesses differ from the trained ones');
  await panelButton(page, 'toy-transformer', 'Pause').click();
  assert.deepEqual(errors, []);
}));

test('the sample story at a past step is written by that step\'s model with the seed of the story now', () => withLab({}, async ({ page, errors, lab }) => {
  await page.goto(`${lab.url}?corpus=http://127.0.0.1:9/none&c1.dim=32&c1.heads=2&c1.layers=2&c1.steps=50#C`);
  await waitForModule(page);
  await page.evaluate(() => window.lab.corpus.useBuiltin());
  await page.waitForFunction(() => window.lab.corpus.state.status === 'ready', null, { timeout: 60_000 });
  await panelButton(page, 'stories-diffusion', 'Start').click();
  await waitForPanel(page, 'stories-diffusion', { state: 'done', minStep: 50 });
  const sample = '#exp-C-write .live-sample';
  const stories = () => page.$$eval(`${sample} .sample-story`, (ps) => ps.map((p) => p.dataset.text));
  await slide(page, 'stories-diffusion', 1);  // step 50: the model now, kept
  await page.waitForFunction((sel) => document.querySelectorAll(`${sel} .side`).length === 2 && document.querySelector(sel).dataset.step === '50', sample);
  const [kept, now] = await stories();
  assert.equal(kept, now, 'the snapshot of the last step writes the story the model now writes');
  await slide(page, 'stories-diffusion', 0);
  await page.waitForFunction((sel) => document.querySelector(sel).dataset.step === '0', sample);
  const [untrained, later] = await stories();
  assert.equal(later, now);
  assert.notEqual(untrained, now, 'the untrained model writes another story');
  assert.match(await page.locator(`${sample} .story-meta`).textContent(), /Live sample at step 0 \(timeline\) beside now at step 50/);
  assert.deepEqual(errors.filter((e) => !/ERR_UNSAFE_PORT|Failed to load resource/.test(e)), []);
}));
