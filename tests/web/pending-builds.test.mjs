// npm start serves the page as soon as one build of the module is ready and makes the others in the
// background (web/wasm/builds.json says which are still building): the page runs a build that is ready, its
// banner names the builds on their way and says when one is ready, and the next load takes it, with no
// failed request and no console error. Served from a static build whose builds.json is rewritten.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';

import { build } from '../../scripts/build-page.mjs';
import { startLab, launch, openPage, waitForModule } from './lab-browser.mjs';

const note = (page) => page.locator('#module-status .builds-note');

test('while the threaded and WebGPU builds are being built the page runs one thread, says so, and takes threads at the next load once ready', async () => {
  const out = await mkdtemp(path.join(os.tmpdir(), 'tinyformer-pending-'));
  const manifest = path.join(out, 'wasm', 'builds.json');
  const states = (s) => writeFile(manifest, JSON.stringify(s));
  await build(out);
  await states({ st: 'ready', mt: 'building', gpu: 'building' });
  const lab = await startLab({ isolation: true, dir: out });
  const browser = await launch({ webgpu: true });
  try {
    const { page, errors, failedRequests } = await openPage(browser.context);
    await page.goto(lab.url);
    const first = await waitForModule(page);
    assert.equal(first.build, 'single-threaded', first.banner);
    assert.match(first.banner, /\(auto: WebGPU: the WebGPU build is still being built \(reload the page once it is ready\); threads: the threaded build is still being built/);
    assert.equal(await note(page).textContent(), 'Still building the threaded and WebGPU builds of the module.');

    await states({ st: 'ready', mt: 'ready', gpu: 'building' });
    await page.waitForFunction(() => /The threaded build is ready: reload the page to use it\.$/.test(document.querySelector('.builds-note').textContent),
      null, { timeout: 30_000 });
    assert.equal(await note(page).textContent(), 'Still building the WebGPU build of the module. The threaded build is ready: reload the page to use it.');

    await page.reload();
    const second = await waitForModule(page);
    assert.equal(second.build, 'threaded', second.banner);
    assert.equal(await note(page).textContent(), 'Still building the WebGPU build of the module.');

    await states({ st: 'ready', mt: 'ready', gpu: 'ready' });
    await page.reload();
    await waitForModule(page);
    assert.equal(await note(page).isHidden(), true, 'every build ready: no note');
    assert.deepEqual(errors, []);
    assert.deepEqual(failedRequests, []);
  } finally {
    await browser.close();
    await lab.close();
    await rm(out, { recursive: true, force: true });
  }
});
