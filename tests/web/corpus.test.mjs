// The story corpus in the browser: fetched from a local test server with a Range request for the first
// 4,000,000 bytes, with a progress bar, kept in IndexedDB so a reload does not fetch again; a failing
// fetch says so plainly and offers the built-in stories.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { withLab, waitForModule, smallStories } from './lab-browser.mjs';

const corpusState = (page) => page.locator('#exp-C-corpus').getAttribute('data-corpus');

test('the corpus is fetched with a Range request and a progress bar, and a reload uses the cached copy', () => withLab({ corpus: smallStories(), textServer: { chunks: 12, delayMs: 250 } }, async ({ page, errors, lab, corpus: server }) => {
  await page.goto(`${lab.url}?corpus=${encodeURIComponent(server.url)}#C`);
  await waitForModule(page);
  const seen = await page.waitForFunction(() => {
    const p = document.querySelector('#exp-C-corpus .output progress');
    return p && p.value > 0 && p.value < p.max && { value: p.value, max: p.max };
  }, null, { timeout: 30_000 });
  const { value, max } = await seen.jsonValue();
  assert.ok(value > 0 && value < max, `progress ${value} / ${max}`);
  await page.waitForFunction(() => document.querySelector('#exp-C-corpus')?.dataset.corpus === 'ready', null, { timeout: 30_000 });
  const gets = server.log.filter((r) => r.method === 'GET');
  assert.equal(gets.length, 1);
  assert.equal(gets[0].range, 'bytes=0-3999999');
  await page.reload();
  await waitForModule(page);
  await page.waitForFunction(() => document.querySelector('#exp-C-corpus')?.dataset.corpus === 'ready', null, { timeout: 30_000 });
  assert.match(await page.locator('#exp-C-corpus .output p.ok').textContent(), /kept from an earlier visit/);
  assert.equal(server.log.filter((r) => r.method === 'GET').length, 1, 'the reload fetched again');
  assert.deepEqual(errors, []);
}));

test('a failing fetch says so plainly and offers a dropped file or the built-in stories instead', () => withLab({ corpus: 'unused' }, async ({ page, errors, lab, corpus: server }) => {
  await page.goto(`${lab.url}?corpus=${encodeURIComponent(`${server.base}/missing.txt`)}#C`);
  await waitForModule(page);
  await page.waitForFunction(() => document.querySelector('#exp-C-corpus')?.dataset.corpus === 'failed', null, { timeout: 30_000 });
  const alert = await page.locator('#exp-C-corpus [role="alert"]').textContent();
  assert.match(alert, /Could not download the stories .*404/);
  assert.equal(await corpusState(page), 'failed');
  const file = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'mine.txt', { type: 'text/plain' }));
    return dt;
  }, smallStories(20));
  await page.dispatchEvent('#exp-C-corpus .dropzone', 'drop', { dataTransfer: file });
  await page.waitForFunction(() => /Using your file mine.txt/.test(document.querySelector('#exp-C-corpus .output p.ok')?.textContent));
  await page.locator('#exp-C-corpus button', { hasText: 'Use the built-in stories' }).click();
  await page.waitForFunction(() => /Using built-in stories/.test(document.querySelector('#exp-C-corpus .output p.ok')?.textContent), null, { timeout: 60_000 });
  assert.deepEqual(errors.filter((e) => !/404 \(Not Found\)/.test(e)), []);
}));
