// Section C in the browser: with the built-in stories (the fetch fails: no server listens) a small
// diffusion model trains a few steps and writes stories; infilling keeps the prefix and the suffix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';

import { startLab, launch, openPage, waitForModule, waitForPanel } from './lab-browser.mjs';

// A port nobody listens on: bind one, then let it go.
async function closedPort() {
  const s = createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

async function storiesAfterWriting(page, buttonName) {
  await page.locator('#exp-C-write button', { hasText: buttonName }).click();
  await page.waitForFunction(() => document.querySelector('#exp-C-write')?.dataset.written === 'done', null, { timeout: 120_000 });
  return page.$$eval('#exp-C-write .story', (nodes) => nodes.map((n) => n.dataset.text));
}

test('a story model trains on the built-in stories and writes, fills in the middle', async () => {
  const settings = 'c1.dim=64&c1.heads=4&c1.layers=2&c1.steps=20';
  const lab = await startLab();
  const browser = await launch();
  try {
    const { page, errors } = await openPage(browser.context);
    await page.goto(`${lab.url}?corpus=${encodeURIComponent(`http://127.0.0.1:${await closedPort()}/stories.txt`)}&${settings}#C`);
    await waitForModule(page);
    await page.waitForFunction(() => document.querySelector('#exp-C-corpus')?.dataset.corpus === 'failed', null, { timeout: 30_000 });
    await page.locator('#exp-C-corpus button', { hasText: 'Use the built-in stories' }).click();
    await page.waitForFunction(() => document.querySelector('#exp-C-corpus')?.dataset.corpus === 'ready', null, { timeout: 60_000 });
    await page.locator('.trainer[data-slot="stories-diffusion"] button', { hasText: 'Start' }).click();
    await waitForPanel(page, 'stories-diffusion', { state: 'done', minStep: 20 });

    const stories = await storiesAfterWriting(page, 'Write');
    assert.equal(stories.length, 5);
    for (const s of stories) {
      assert.equal(s.split(' ').length, 32, s);
      assert.ok(!s.split(' ').includes('_') && !s.includes('<unk>'), s);
    }
    const calls = await page.locator('#exp-C-write .story-meta').allTextContents();
    assert.ok(calls.some((t) => /\d+ network calls for 32 tokens/.test(t)), calls.join('|'));

    const filled = await storiesAfterWriting(page, 'C3: fill in the middle');
    assert.equal(filled.length, 3);
    for (const s of filled) {
      assert.ok(s.startsWith('one day , lily went to the park .'), s);
      assert.ok(s.endsWith('and they were all happy .'), s);
    }
    assert.deepEqual(errors.filter((e) => !/ERR_CONNECTION_REFUSED/.test(e)), []);
  } finally {
    await browser.close();
    await lab.close();
  }
});
