// Section B in the browser: the toy transformer trained in the page reaches the course's loss (≤ 0.6, the
// optimum is 0.50) and its attention is drawn with word tick labels; a paused run survives a reload; a
// downloaded .safetensors (or one trained by the native CLI) loads at once; bad input is refused plainly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { ROOT, startLab, launch, openPage, waitForModule, waitForViews, waitForPanel, panelState, panelButton } from './lab-browser.mjs';

async function openB(query = '') {
  const lab = await startLab();
  const browser = await launch();
  const { page, errors } = await openPage(browser.context);
  await page.goto(`${lab.url}${query}#B`);
  await waitForModule(page);
  await waitForViews(page, 'B');
  return { lab, browser, page, errors, close: async () => (await browser.close(), await lab.close()) };
}

test('the toy transformer trains to a loss of at most 0.6 and its attention map has word labels', async () => {
  const b = await openB();
  try {
    await panelButton(b.page, 'toy-transformer', 'Start').click();
    await waitForPanel(b.page, 'toy-transformer', { state: 'done' });
    const s = await panelState(b.page, 'toy-transformer');
    assert.equal(s.step, 1500);
    assert.ok(s.loss <= 0.6, `loss ${s.loss}`);
    const canvas = b.page.locator('#exp-B4 canvas').first();
    await canvas.waitFor({ timeout: 60_000 });
    assert.deepEqual(JSON.parse(await canvas.getAttribute('data-x-labels')), ['the', '_', 'is', 'alive']);
    assert.deepEqual(JSON.parse(await canvas.getAttribute('data-y-labels')), ['the', '_', 'is', 'alive']);
    const colours = await canvas.evaluate((c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      const seen = new Set();
      for (let i = 0; i < d.length; i += 4) seen.add(`${d[i]},${d[i + 1]},${d[i + 2]}`);
      return seen.size;
    });
    assert.ok(colours > 20, `the heatmap has only ${colours} colours`);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('a paused run is checkpointed and resumes where it was after a reload', async () => {
  const b = await openB('?b1.steps=100000');
  try {
    await panelButton(b.page, 'toy-notalking', 'Start').click();
    await waitForPanel(b.page, 'toy-notalking', { state: 'training', minStep: 300 });
    await panelButton(b.page, 'toy-notalking', 'Pause').click();
    await waitForPanel(b.page, 'toy-notalking', { state: 'paused' });
    await b.page.waitForFunction(() => {
      const p = document.querySelector('.trainer[data-slot="toy-notalking"]');
      return p.dataset.saved === p.dataset.step;
    });
    const before = await panelState(b.page, 'toy-notalking');
    assert.ok(before.step >= 300);
    await b.page.reload();
    await waitForModule(b.page);
    await waitForPanel(b.page, 'toy-notalking', { state: 'paused', minStep: 1 });
    const after = await panelState(b.page, 'toy-notalking');
    assert.equal(after.step, before.step);
    assert.ok(Math.abs(after.loss - before.loss) < 1e-6, `loss ${after.loss} vs ${before.loss}`);
    assert.match(await b.page.locator('.trainer[data-slot="toy-notalking"] .status').textContent(), /Restored the run saved at step/);
    await panelButton(b.page, 'toy-notalking', 'Resume').click();
    await waitForPanel(b.page, 'toy-notalking', { state: 'training', minStep: before.step + 50 });
    await panelButton(b.page, 'toy-notalking', 'Stop').click();
    await waitForPanel(b.page, 'toy-notalking', { state: 'stopped' });
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('a downloaded .safetensors loads back at once, and a file of the wrong kind is refused plainly', async () => {
  const b = await openB('?b1.steps=200');
  const cleanups = [];
  try {
    await panelButton(b.page, 'toy-notalking', 'Start').click();
    await waitForPanel(b.page, 'toy-notalking', { state: 'done', minStep: 200 });
    const [download] = await Promise.all([b.page.waitForEvent('download'), panelButton(b.page, 'toy-notalking', 'Download .safetensors').click()]);
    assert.equal(download.suggestedFilename(), 'toy-notalking-step200.safetensors');
    const folder = await mkdtemp(path.join(os.tmpdir(), 'tinyformer-download-'));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    const file = path.join(folder, download.suggestedFilename());
    await download.saveAs(file);

    const wrong = b.page.locator('.trainer[data-slot="toy-withposition"]');
    await wrong.locator('input[type="file"]').setInputFiles(file);
    await wrong.locator('.status [role="alert"]').waitFor();
    assert.match(await wrong.locator('.status').textContent(), /holds a notalking .*needs a withposition/);
    assert.equal(await wrong.getAttribute('data-state'), 'empty');

    const panel = b.page.locator('.trainer[data-slot="toy-notalking"]');
    await panel.locator('input[name="steps"]').fill('300');
    await panel.locator('input[name="steps"]').dispatchEvent('change');
    await panelButton(b.page, 'toy-notalking', 'Resume').click();
    await waitForPanel(b.page, 'toy-notalking', { state: 'done', minStep: 300 });
    await panel.locator('input[type="file"]').setInputFiles(file);
    await b.page.waitForFunction(() => /Loaded toy-notalking-step200/.test(document.querySelector('.trainer[data-slot="toy-notalking"] .status').textContent));
    assert.equal((await panelState(b.page, 'toy-notalking')).step, 200);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
    for (const c of cleanups) await c();
  }
});

test('settings go into the URL; bad ones are refused with a message and nothing drawn is lost', async () => {
  const b = await openB();
  try {
    const steps = b.page.locator('.trainer[data-slot="toy-transformer"] input[name="steps"]');
    await steps.fill('2000');
    await steps.dispatchEvent('change');
    assert.equal(new URL(b.page.url()).searchParams.get('b3.steps'), '2000', 'settings are kept in the URL');
    await steps.fill('-5');
    await steps.dispatchEvent('change');
    assert.match(await b.page.locator('.trainer[data-slot="toy-transformer"] .status').textContent(), /^steps must be a whole number from 1 to 100000000$/);
    assert.equal(await steps.getAttribute('aria-invalid'), 'true');
    assert.equal(new URL(b.page.url()).searchParams.get('b3.steps'), '2000');
    await b.page.evaluate(() => (location.hash = '#A'));
    await waitForViews(b.page, 'A');
    const a3 = b.page.locator('#exp-A3');
    assert.equal(await a3.locator('canvas').count(), 3);
    await a3.locator('input[type="text"]').fill('hi');
    await a3.locator('button', { hasText: 'Compute' }).click();
    await a3.locator('.status [role="alert"]').waitFor();
    assert.match(await a3.locator('.status').textContent(), /at least three words/);
    assert.equal(await a3.locator('canvas').count(), 3);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

const CLI = path.join(ROOT, 'build', 'native', 'cli', 'tinyformer');

test('a run trained by the native CLI loads in the page and is looked inside at once', { skip: !existsSync(CLI) && 'build the native CLI first' }, async () => {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'tinyformer-cli-'));
  const file = path.join(folder, 'cli-toy.safetensors');
  const b = await openB();
  try {
    execFileSync(CLI, ['train', '--task', 'toy', '--model', 'transformer', '--steps', '300', '--threads', '1', '--save', file], { stdio: 'ignore' });
    await b.page.locator('.trainer[data-slot="toy-transformer"] input[type="file"]').setInputFiles(file);
    await b.page.waitForFunction(() => /Loaded cli-toy.safetensors/.test(document.querySelector('.trainer[data-slot="toy-transformer"] .status').textContent));
    assert.equal((await panelState(b.page, 'toy-transformer')).step, 300);
    await b.page.waitForFunction(() => /MyTransformer at step 300/.test(document.querySelector('#exp-B-guesses').textContent));
    await b.page.locator('#exp-B4 canvas').first().waitFor();
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
    await rm(folder, { recursive: true, force: true });
  }
});
