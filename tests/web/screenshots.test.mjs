// Screenshots of every section (test-artifacts/web/*.png) at 1280×800 after short training runs, and at a
// phone's width, where nothing may stick out sideways nor scroll sideways inside (the benchmark's table
// included) and checkboxes are a finger's size. Every control is reachable from the keyboard.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { withLab, waitForModule, waitForViews, waitForPanel, screenshot, smallStories } from './lab-browser.mjs';

const SHORT = ['b1.steps=300', 'b2.steps=300', 'b3.steps=600', 'c1.dim=64', 'c1.layers=2', 'c1.steps=15',
  'c6.dim=64', 'c6.layers=2', 'c6.steps=15', 'd1.steps=150'].join('&');

async function show(page, section) {
  await page.evaluate((s) => (location.hash = `#${s}`), section);
  await waitForViews(page, section);
}

const click = (page, selector, name) => page.locator(selector, { hasText: name }).first().click();

test('every section, trained a little, as screenshots at 1280×800', () => withLab({ corpus: smallStories() }, async ({ page, errors, lab, corpus }) => {
  await page.goto(`${lab.url}?corpus=${encodeURIComponent(corpus.url)}&${SHORT}#A`);
  await waitForModule(page);
  await show(page, 'A');
  await screenshot(page, 'section-A');

  await show(page, 'B');
  await click(page, '#exp-B-train button', 'Train all three');
  await waitForPanel(page, 'toy-transformer', { state: 'done', minStep: 600 });
  await waitForViews(page, 'B');
  await screenshot(page, 'section-B');

  await show(page, 'C');
  await page.waitForFunction(() => document.querySelector('#exp-C-corpus')?.dataset.corpus === 'ready', null, { timeout: 120_000 });
  await click(page, '#exp-C-corpus button', 'Use the built-in stories');  // more words than the test text
  await page.waitForFunction(() => /Using built-in/.test(document.querySelector('#exp-C-corpus .output p.ok')?.textContent), null, { timeout: 120_000 });
  await click(page, '.trainer[data-slot="stories-diffusion"] button', 'Start');
  await waitForPanel(page, 'stories-diffusion', { state: 'done', minStep: 15 });
  await click(page, '.trainer[data-slot="stories-causal"] button', 'Start');
  await waitForPanel(page, 'stories-causal', { state: 'done', minStep: 15 });
  await click(page, '#exp-C-write button', 'C3: fill in the middle');
  await page.waitForFunction(() => document.querySelector('#exp-C-write')?.dataset.written === 'done', null, { timeout: 120_000 });
  await click(page, '#exp-C4 button', 'Show');
  await waitForViews(page, 'C');
  await screenshot(page, 'section-C');

  await show(page, 'D');
  await click(page, '.trainer[data-slot="sorter"] button', 'Start');
  await waitForPanel(page, 'sorter', { state: 'done', minStep: 150 });
  await page.locator('#exp-D3-D4 canvas').first().waitFor();
  await waitForViews(page, 'D');
  await screenshot(page, 'section-D');
  assert.deepEqual(errors, []);
}));

// The boxes of the header, the footer (the benchmark) and a section that scroll sideways within themselves
// (a table wider than its scrolling wrapper), as "id class: content width > box width".
const sidewaysInside = (page, section) => page.evaluate((s) => [...document.querySelectorAll(`header *, footer *, #section-${s} *`)]
  .filter((n) => n.scrollWidth > n.clientWidth + 1 && ['auto', 'scroll'].includes(getComputedStyle(n).overflowX))
  .map((n) => `${n.closest('[id]')?.id} ${n.className}: ${n.scrollWidth} > ${n.clientWidth}`), section);

// Visible checkboxes smaller than 24 × 24 px (the smallest target WCAG 2.2 allows).
const smallCheckboxes = (page, section) => page.evaluate((s) => [...document.querySelectorAll(`header input[type=checkbox], footer input[type=checkbox], #section-${s} input[type=checkbox]`)]
  .map((n) => n.getBoundingClientRect()).filter((r) => r.width > 0 && (r.width < 24 || r.height < 24))
  .map((r) => `${r.width} × ${r.height}`), section);

test('at a phone\'s width nothing sticks out sideways, and the keyboard reaches the controls', () => withLab({ corpus: smallStories(), launchOptions: { width: 390, height: 844 } }, async ({ page, errors, lab, corpus }) => {
  await page.goto(`${lab.url}?corpus=${encodeURIComponent(corpus.url)}#A`);
  await waitForModule(page);
  // The benchmark's table, filled: its rows are wider than its headings.
  await page.evaluate(() => (document.getElementById('device-bench').open = true));
  await page.locator('#device-bench input[name=bench-steps]').fill('2');
  await page.locator('#device-bench button', { hasText: 'Run the benchmark' }).click();
  await page.waitForFunction(() => /^Done/.test(document.querySelector('#device-bench .status').textContent), null, { timeout: 120_000 });
  for (const section of ['A', 'B', 'C', 'D']) {
    await show(page, section);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `section ${section} is ${overflow}px wider than the screen`);
    assert.deepEqual(await sidewaysInside(page, section), [], `section ${section} scrolls sideways inside`);
    assert.deepEqual(await smallCheckboxes(page, section), [], `section ${section}'s checkboxes are too small for a finger`);
    await screenshot(page, `phone-section-${section}`);
  }
  await show(page, 'B');
  // The header's settings (device, threads, live views) come first in the tab order; past them the
  // keyboard must reach the section's buttons and inputs.
  const focused = [];
  for (let i = 0; i < 24 && !(focused.includes('BUTTON') && focused.includes('INPUT')); i++) {
    await page.keyboard.press('Tab');
    focused.push(await page.evaluate(() => document.activeElement.tagName));
  }
  assert.ok(focused.includes('BUTTON') && focused.includes('INPUT'), focused.join(' '));
  assert.deepEqual(errors, []);
}));
