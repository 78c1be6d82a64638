// A worker that crashes (an uncaught error inside it) or hangs (a loop that never yields) while a run
// trains: the page starts a new worker, the pending training request fails with a message saying so, the
// run comes back from its last save and trains on. The fault is injected through Playwright's handle on
// the worker, so the page code under test is the real one.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { withLab, waitForModule, waitForViews, waitForPanel, panelState, panelButton, trainingAfterASave } from './lab-browser.mjs';

const SLOT = 'toy-notalking';
const button = (page, name) => panelButton(page, SLOT, name);

// Section B with a long toy run saved at a paused step and training again; returns that step.
async function trainingInB(page, url) {
  await page.goto(`${url}?b1.steps=100000#B`);
  await waitForModule(page);
  await waitForViews(page, 'B');
  return trainingAfterASave(page, SLOT);
}

const labWorker = (page) => page.workers().find((w) => new URL(w.url()).pathname === '/worker/worker.js');

async function expectRestored(page, saved, reason) {
  await page.waitForFunction(() => document.getElementById('worker-restart'), null, { timeout: 60_000 });
  assert.match(await page.locator('#worker-restart').textContent(),
    new RegExp(`^The lab's worker ${reason} and was restarted: the runs go back to their last save\\.$`));
  await page.waitForFunction((s) => /Restored the run/.test(document.querySelector(`.trainer[data-slot="${s}"] .status`).textContent),
    SLOT, { timeout: 60_000 });
  const status = await page.locator(`.trainer[data-slot="${SLOT}"] .status`).textContent();
  assert.match(status, new RegExp(`The lab's worker ${reason}; it was restarted, so this request was lost\\. Restored the run saved at step ${saved}\\.`));
  const state = await panelState(page, SLOT);
  assert.equal(state.state, 'paused');
  assert.equal(state.step, saved);
  await button(page, 'Resume').click();
  await waitForPanel(page, SLOT, { state: 'training', minStep: saved + 50 });
  await button(page, 'Stop').click();
  await waitForPanel(page, SLOT, { state: 'stopped' });
}

test('a worker that crashes is restarted, its pending request fails with a message, the run comes back', () => withLab({}, async ({ page, errors, lab }) => {
  const saved = await trainingInB(page, lab.url);
  await labWorker(page).evaluate(() => setTimeout(() => {
    throw new Error('injected crash');
  }));
  await expectRestored(page, saved, 'crashed \\(.*injected crash\\)');
  assert.equal(await page.evaluate(() => window.lab.client.restarts), 1);
  assert.deepEqual(errors, []);
}));

test('a worker that stops answering is replaced after the time limit', () => withLab({}, async ({ page, errors, lab }) => {
  const saved = await trainingInB(page, lab.url);
  await page.evaluate(() => (window.lab.client.unresponsiveMs = 3000));
  await labWorker(page).evaluate(() => setTimeout(() => {
    for (;;);
  }));
  await expectRestored(page, saved, 'did not answer for \\d+ s');
  assert.deepEqual(errors, []);
}));
