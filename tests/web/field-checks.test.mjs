// Fields checked as they are changed, in the reader's words: a training panel's number out of its own
// bounds is marked invalid at once, with the message Start would give; a device that is not one leaves the
// selector on auto and the banner says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { withLab, waitForModule, panelButton } from './lab-browser.mjs';

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
  await panelButton(page, 'sorter', 'Start').click();
  await page.waitForFunction((p) => document.querySelector(`${p} .status [role="alert"]`), panel);
  assert.equal(await page.locator(`${panel} .status [role="alert"]`).textContent(), 'steps must be a whole number from 1 to 100000000');
  await steps.fill('2');
  await steps.dispatchEvent('change');
  assert.equal(await steps.getAttribute('aria-invalid'), null);
  assert.deepEqual(errors, []);
  assert.deepEqual(failedRequests, []);
}));

