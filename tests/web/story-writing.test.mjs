// The writing card and its presets: "fill in the middle" keeps a fixed ending, which writing left to right
// cannot do; with that sampler the preset is not offered and the card says why, where the presets are.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { withLab, waitForModule } from './lab-browser.mjs';

const preset = (page, name) => page.locator('#exp-C-write button', { hasText: name });

test('fill in the middle is not offered to a left-to-right sampler, and the card says why', () => withLab({ corpus: 'unused' }, async ({ page, errors, lab, corpus }) => {
  await page.goto(`${lab.url}?corpus=${encodeURIComponent(`${corpus.base}/missing.txt`)}#C`);
  await waitForModule(page);
  await page.locator('#exp-C-write').waitFor();
  assert.equal(await preset(page, 'C3: fill in the middle').isDisabled(), false);
  assert.equal(await page.locator('#exp-C-write .preset-note').isVisible(), false);

  await page.locator('#exp-C-write select').nth(1).selectOption('left-to-right');
  assert.equal(await preset(page, 'C3: fill in the middle').isDisabled(), true);
  assert.equal(await preset(page, 'C7: once upon a time').isDisabled(), false, 'a preset with no fixed ending stays');
  assert.equal(await page.locator('#exp-C-write .preset-note').textContent(),
    'Fill in the middle needs an undiffusing sampler: writing left to right cannot keep a fixed ending. Choose the diffusion model, or an undiffuse sampler.');

  await page.locator('#exp-C-write select').nth(1).selectOption('undiffuse');
  assert.equal(await preset(page, 'C3: fill in the middle').isDisabled(), false);
  assert.equal(await page.locator('#exp-C-write .preset-note').isVisible(), false);
  assert.deepEqual(errors.filter((e) => !/404 \(Not Found\)/.test(e)), []);
}));
