// Fields checked as they are changed, in the reader's words: a training panel's number out of its own
// bounds is marked invalid at once, with the message Start would give; a device that is not one leaves the
// selector on auto and the banner says so; the sorter's digit fields refuse what is not a digit as written,
// and "Sort mine" shows its latest result alone. A panel's bounds are the core's (tf.trainBounds()).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { loadTinyformer } from '../../wasm/tinyformer.js';
import { RunSettings } from '../../web/widgets/run-settings.js';
import { withLab, waitForModule, waitForPanel, panelButton } from './lab-browser.mjs';

const BUILDS = new URL('../../web/wasm/', import.meta.url);

test('a training panel takes the bounds of steps, batch and the learning rate from the core', async () => {
  const tf = await loadTinyformer({ threads: false, baseUrl: BUILDS });
  const bounds = tf.trainBounds();
  const keys = ['steps', 'batch', 'lr'];
  const { limits } = new RunSettings({ name: 'toy', keys, urlKey: 'x', defaults: tf.defaultConfig('toy'), bounds }, {});
  assert.deepEqual(limits.lr, { min: bounds.lr.min, max: bounds.lr.max, minOpen: bounds.lr.minOpen, maxOpen: bounds.lr.maxOpen });
  assert.deepEqual(limits.batch, { min: bounds.batch.min, max: bounds.batch.max, minOpen: false, maxOpen: false });
  assert.deepEqual(limits.steps, { min: 1, max: bounds.steps.max, minOpen: false, maxOpen: false }, 'a run trains at least one step');
  // Whatever the bounds, the panel follows them: here a core whose bounds were other numbers.
  const moved = { ...bounds, steps: { ...bounds.steps, max: 5000 }, batch: { ...bounds.batch, min: 2, max: 7 } };
  const other = new RunSettings({ name: 'toy', keys, urlKey: 'x', defaults: tf.defaultConfig('toy'), bounds: moved }, {});
  assert.deepEqual([other.limits.steps.max, other.limits.batch.min, other.limits.batch.max], [5000, 2, 7]);
});

const alertOf = (page, selector) => page.locator(`${selector} .status [role="alert"]`).textContent();

test('a field out of its bounds is marked at the change, as Start would say it; an unknown device leaves auto, said', () => withLab({}, async ({ page, errors, failedRequests, lab }) => {
  await page.goto(`${lab.url}?device=bogus#D`);
  const info = await waitForModule(page);
  assert.equal(await page.locator('#module-status select[name=device]').inputValue(), 'auto');
  assert.match(info.banner, /\?device=bogus is not a device \(auto, webgpu, wasm-threads, wasm-single\): auto chose\./);

  const panel = '.trainer[data-slot="sorter"]';
  const steps = page.locator(`${panel} input[name=steps]`);
  await steps.fill('1e12');
  await steps.dispatchEvent('change');
  assert.equal(await steps.getAttribute('aria-invalid'), 'true', 'marked invalid as it was changed');
  assert.equal(await page.locator(`${panel} .status [role="alert"]`).textContent(), 'steps must be a whole number from 1 to 100000000');
  assert.equal(await steps.getAttribute('min'), '1');
  assert.equal(await steps.getAttribute('max'), '100000000');
  assert.equal(await page.locator(`${panel} input[name=batch]`).getAttribute('max'), '65536');
  await panelButton(page, 'sorter', 'Start').click();
  await page.waitForFunction((p) => document.querySelector(`${p} .status [role="alert"]`), panel);
  assert.equal(await page.locator(`${panel} .status [role="alert"]`).textContent(), 'steps must be a whole number from 1 to 100000000');
  await steps.fill('2');
  await steps.dispatchEvent('change');
  assert.equal(await steps.getAttribute('aria-invalid'), null);
  assert.deepEqual(errors, []);
  assert.deepEqual(failedRequests, []);
}));

test('the sorter\'s digits refuse what is not a digit as written, and "Sort mine" shows its latest result alone', () => withLab({}, async ({ page, errors, lab }) => {
  await page.goto(`${lab.url}?d1.steps=2#D`);
  await waitForModule(page);
  await panelButton(page, 'sorter', 'Start').click();
  await waitForPanel(page, 'sorter', { state: 'done', minStep: 2 });
  const digits = page.locator('#exp-D2 input[type=text]');
  const sortMine = page.locator('#exp-D2 button', { hasText: 'Sort mine' });
  for (const [typed, bad] of [['x 2 9 0 4 4 1 8 3 6', 'x'], ['9876543210 2 9 0 4 4 1 8 3 6', '9876543210']]) {
    await digits.fill(typed);
    await sortMine.click();
    await page.waitForFunction((b) => document.querySelector('#exp-D2 > .status [role="alert"]')?.textContent.includes(`"${b}"`), bad);
    assert.match(await alertOf(page, '#exp-D2 >'), new RegExp(`digits must be whole numbers like "7 2 9 0 4 4 1 8 3 6": "${bad}" is not a digit$`));
  }
  await digits.fill('3 1 2 0 4 4 1 8 3 6');
  for (let i = 0; i < 3; i++) {
    await sortMine.click();
    await page.waitForFunction(() => document.querySelectorAll('#exp-D2 .your-digits .mono').length === 1);
  }
  assert.match(await page.locator('#exp-D2 .your-digits').textContent(), /^in {2}\[3 1 2 0 4 4 1 8 3 6\]/);
  assert.equal(await page.locator('#exp-D2 .mono', { hasText: 'in  [3 1 2 0 4 4 1 8 3 6]' }).count(), 1, 'one result, not one per press');
  assert.deepEqual(errors, []);
}));
