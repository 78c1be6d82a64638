// "Where the time goes" in the browser: before any training the view says so; while the toy transformer
// trains (in section B), the view in section C redraws by itself with the kernel stems of that run, its
// profiled step count growing between two redraws; each stem's total stands alone, its forward and
// backward parts on a line below; the backend is named as WebAssembly; a reload shows the last profile.
// On WebGPU (Chromium's adapter offers timestamp-query) the bars are the kernels' GPU times, and it says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { startLab, launch, openPage, waitForModule, waitForViews, waitForPanel, startTextServer, smallStories } from './lab-browser.mjs';

const SLOT = 'toy-transformer';

async function profileShown(page, minSteps) {
  await page.waitForFunction((min) => {
    const p = document.querySelector('#exp-C-time .time-profile');
    return p && Number(p.dataset.steps) >= min;
  }, minSteps, { timeout: 60_000 });
  return page.evaluate(() => {
    const p = document.querySelector('#exp-C-time .time-profile');
    const bars = [...p.querySelectorAll('figure.bars')].map((f) => [...f.querySelectorAll('.bar-row')].map((r) => ({
      label: r.querySelector('.bar-label').textContent, value: r.querySelector('.bar-value').textContent,
      note: r.querySelector('.bar-note')?.textContent, valueTop: r.querySelector('.bar-value').getBoundingClientRect().top,
      noteTop: r.querySelector('.bar-note')?.getBoundingClientRect().top,
    })));
    const facts = Object.fromEntries([...p.querySelectorAll('.facts dt')].map((dt) => [dt.textContent, dt.nextElementSibling.textContent]));
    const caption = p.querySelector('figure.bars figcaption')?.textContent;
    return { slot: p.dataset.slot, steps: Number(p.dataset.steps), stems: bars[0], phases: bars[1], facts, caption, text: p.textContent };
  });
}

test('the time view shows the stems of the running model and redraws while it trains', async () => {
  const lab = await startLab();
  const stories = await startTextServer(smallStories());  // section C fetches its corpus on opening
  const browser = await launch();
  const { page, errors } = await openPage(browser.context);
  try {
    await page.goto(`${lab.url}?corpus=${encodeURIComponent(stories.url)}&b3.steps=1000000&live=1#C`);
    await waitForModule(page);
    await waitForViews(page, 'C');
    assert.match(await page.locator('#exp-C-time .output').textContent(), /No model has trained yet/);

    await page.evaluate(() => { location.hash = '#B'; });
    await waitForViews(page, 'B');
    await page.locator(`.trainer[data-slot="${SLOT}"] button`, { hasText: 'Start' }).click();
    await waitForPanel(page, SLOT, { state: 'training', minStep: 20 });
    await page.evaluate(() => { location.hash = '#C'; });

    const first = await profileShown(page, 1);
    assert.equal(first.slot, SLOT);
    const labels = first.stems.map((s) => s.label);
    for (const stem of ['gemm', 'attention', 'layer_norm', 'embedding', 'optimizer']) assert.ok(labels.includes(stem), `${stem} in ${labels}`);
    // A stem's total alone in the value column; its forward and backward parts on their own line below it.
    for (const s of first.stems) {
      assert.match(s.value, /^[\d.,e+-]+ ms$/);
      assert.match(s.note, /^forward [\d.,e+-]+ ms · backward [\d.,e+-]+ ms$/);
      assert.ok(s.noteTop > s.valueTop, 'the note is under the value, not beside it');
    }
    assert.match(first.facts.backend, /^WebAssembly SIMD \(the CPU kernels, compiled to wasm\)/);
    assert.deepEqual(first.phases.map((p) => p.label), ['batch', 'forward', 'backward', 'optimizer', 'copies', 'other']);
    const later = await profileShown(page, first.steps + 1);  // a live redraw, not a click
    assert.ok(later.steps > first.steps);

    await page.evaluate(() => { location.hash = '#B'; });
    await page.locator(`.trainer[data-slot="${SLOT}"] button`, { hasText: 'Stop' }).click();
    await waitForPanel(page, SLOT, { state: 'stopped' });

    // A reload starts a worker with no profile: the last one is shown, said to be from before the load.
    await page.reload();
    await waitForModule(page);
    await page.evaluate(() => { location.hash = '#C'; });
    const kept = await profileShown(page, later.steps);
    assert.equal(kept.slot, SLOT);
    assert.match(kept.facts.model, new RegExp(`^${SLOT}, as profiled on .+ \\(before this page was loaded\\)$`));
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await lab.close();
    await stories.close();
  }
});

test('on WebGPU the time view shows the kernels\' GPU times from timestamp queries', async () => {
  const lab = await startLab();
  const stories = await startTextServer(smallStories());
  const browser = await launch({ webgpu: true });
  const { page, errors } = await openPage(browser.context);
  try {
    await page.goto(`${lab.url}?device=webgpu&corpus=${encodeURIComponent(stories.url)}&b3.steps=1000000#B`);
    const loaded = await waitForModule(page);
    assert.equal(loaded.module.device, 'webgpu', loaded.banner);
    await waitForViews(page, 'B');
    await page.locator(`.trainer[data-slot="${SLOT}"] button`, { hasText: 'Start' }).click();
    await waitForPanel(page, SLOT, { state: 'training', minStep: 2 });
    await page.evaluate(() => { location.hash = '#C'; });
    const shown = await profileShown(page, 1);
    assert.match(shown.caption, /^GPU time per step, by kernel stem \(timestamp queries/);
    assert.match(shown.text, /Kernel times are GPU times, from timestamp queries/);
    assert.ok(shown.stems.some((s) => s.label === 'gemm' && /^[\d.,e+-]+ ms$/.test(s.value) && !/^0 ms$/.test(s.value)), JSON.stringify(shown.stems));
    for (const s of shown.stems) assert.match(s.note, /^enqueue: forward [\d.,e+-]+ ms · backward [\d.,e+-]+ ms$/);
    await page.evaluate(() => { location.hash = '#B'; });
    await page.locator(`.trainer[data-slot="${SLOT}"] button`, { hasText: 'Stop' }).click();
    await waitForPanel(page, SLOT, { state: 'stopped' });
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await lab.close();
    await stories.close();
  }
});
