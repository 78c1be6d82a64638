// A diverging run through the JS API: non-finite steps are skipped and counted in the step stats (what the
// page needs to stop autosaving and offer the last good checkpoint), maxSkips in a row throw, and a run
// holding NaN weights cannot be turned into checkpoint bytes: the core refuses with the reason as the
// TinyformerError's kind.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { TinyformerError } from '../../wasm/tinyformer.js';
import { describeBuilds, poisoned } from './support.mjs';

describeBuilds('divergence', (lab) => {
  test('a huge learning rate gives skipped steps, counted in the step stats', () => {
    const run = lab.tf.createRun({ task: 'toy', optimizer: 'sgd', lr: 9.9, seed: 1, maxSkips: 100 });
    try {
      assert.equal(run.trainConfig.maxSkips, 100);
      const first = run.train(2);
      assert.equal(first.skipped, 0);
      assert.equal(first.skippedSteps, 0);
      const r = run.train(28);
      assert.equal(r.step, 30, 'skipped steps are steps taken');
      const nonFinite = Array.from(r.losses).filter((l) => !Number.isFinite(l)).length;
      assert.ok(r.skipped >= 10, `most steps diverge at lr 9.9, got ${r.skipped} skipped`);
      assert.ok(r.skipped >= nonFinite);
      assert.equal(r.skippedSteps, r.skipped);
    } finally {
      run.delete();
    }
  });

  test('NaN weights: every step is skipped, maxSkips in a row throw, and no checkpoint is made', () => {
    const run = lab.tf.createRun({ task: 'toy', seed: 2, maxSkips: 3 });
    try {
      run.loadWeights(poisoned(run.checkpoint()));
      assert.throws(() => run.checkpoint(), (e) => e instanceof TinyformerError && /holds NaN or infinity/.test(e.message) &&
        e.kind === 'not-finite');
      const r = run.train(2);
      assert.equal(r.skipped, 2);
      assert.ok(Array.from(r.losses).every(Number.isNaN));
      assert.throws(() => run.checkpoint(), (e) => e instanceof TinyformerError && /last step was skipped.*not finite/.test(e.message) &&
        e.kind === 'skipped-step');
      assert.throws(() => run.train(1), (e) => e instanceof TinyformerError && /3 steps in a row/.test(e.message));
      assert.equal(run.stepsDone, 3);
    } finally {
      run.delete();
    }
  });
});
