// A training panel says what slow work is doing: a new run shows step 0 and no rate of the run before
// until its first steps come back, the time left is shown from the rate measured while it trains, and
// Stop says at once that the run is stopping (it ends between two chunks of steps), then where it stopped.
// A reload resumes a run that was training, from a save at most a few seconds old.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { withLab, waitForModule, waitForPanel, panelButton } from './lab-browser.mjs';

const PANEL = '.trainer[data-slot="sorter"]';

// The panel's stats as {term: value}.
const stats = (page) => page.evaluate((p) => Object.fromEntries([...document.querySelectorAll(`${p} .stats dt`)]
  .map((dt) => [dt.textContent, dt.nextElementSibling.textContent])), PANEL);

test('a new run starts from step 0 on show, the time left is measured, and Stop says it is stopping', () => withLab({}, async ({ page, errors, lab }) => {
  await page.goto(`${lab.url}?d1.steps=30#D`);
  await waitForModule(page);
  await panelButton(page, 'sorter', 'Start').click();
  await waitForPanel(page, 'sorter', { state: 'done', minStep: 30 });
  await page.waitForFunction((p) => document.querySelector(p).dataset.saved === '30', PANEL);  // its last save shown
  assert.equal((await stats(page)).step, '30 / 30');
  assert.equal((await stats(page))['time left'], '–');

  const steps = page.locator(`${PANEL} input[name=steps]`);
  await steps.fill('100000');
  await steps.dispatchEvent('change');
  // Every step count the panel shows from the click on, in order.
  await page.evaluate((p) => {
    window.shownSteps = [];
    const node = document.querySelector(`${p} .stats`);
    new MutationObserver(() => window.shownSteps.push([...node.querySelectorAll('dt')].find((dt) => dt.textContent === 'step')?.nextElementSibling.textContent))
      .observe(node, { childList: true, subtree: true, characterData: true });
  }, PANEL);
  await panelButton(page, 'sorter', 'New run').click();
  await waitForPanel(page, 'sorter', { state: 'training', minStep: 1 });
  const shown = await page.evaluate(() => window.shownSteps);
  assert.equal(shown[0], '0 / 100000', `the first step shown after the click: ${shown.join(', ')}`);
  await page.waitForFunction((p) => [...document.querySelectorAll(`${p} .stats dt`)].find((dt) => dt.textContent === 'time left')
    ?.nextElementSibling.textContent.match(/^\d+ (s|min \d+ s|h \d+ min)$/), PANEL, { timeout: 60_000 });

  await panelButton(page, 'sorter', 'Stop').click();
  const right = await page.evaluate((p) => ({
    status: document.querySelector(`${p} .status`).textContent,
    stop: [...document.querySelectorAll(`${p} button`)].find((b) => b.textContent === 'Stop').disabled,
  }), PANEL);
  assert.equal(right.status, 'Stopping after the steps under way…');
  assert.equal(right.stop, true, 'Stop waits for the run to stop');
  await waitForPanel(page, 'sorter', { state: 'stopped' });
  const step = (await stats(page)).step.split(' / ')[0];
  assert.equal(await page.locator(`${PANEL} .status`).textContent(), `Stopped at step ${step}.`);
  assert.equal((await stats(page))['time left'], '–');
  assert.deepEqual(errors, []);
}));

test('a reload resumes a run that was training, from a save a few seconds old at most', () => withLab({}, async ({ page, errors, lab }) => {
  await page.goto(`${lab.url}?d1.steps=100000#D`);
  await waitForModule(page);
  await panelButton(page, 'sorter', 'Start').click();
  await page.waitForFunction((p) => Number(document.querySelector(p).dataset.saved) > 0, PANEL, { timeout: 60_000 });
  const early = Number(await page.locator(PANEL).getAttribute('data-step'));
  await page.waitForTimeout(4000);  // two autosaves' time
  await page.reload();
  await waitForModule(page);
  await waitForPanel(page, 'sorter', { state: 'training' });
  const status = await page.locator(`${PANEL} .status`).textContent();
  const restored = Number(/^Restored the run saved at step (\d+)\. Training goes on from there\.$/.exec(status)?.[1]);
  assert.ok(restored >= early, `restored at step ${restored}; the page showed step ${early} 4 s before the reload (${status})`);
  await waitForPanel(page, 'sorter', { state: 'training', minStep: restored + 5 });
  await panelButton(page, 'sorter', 'Stop').click();
  await waitForPanel(page, 'sorter', { state: 'stopped' });
  assert.deepEqual(errors, []);
}));
