// The profiler through the JS API, on both builds: a toy run's steps show up as kernel stems with forward
// and backward time, in camelCase; the phases add up to the step time; only what runs between start and
// stop is recorded; reset clears.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { builds, load } from './support.mjs';

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

for (const build of builds) {
  describe(`profile (${build.name} build)`, () => {
    let tf;
    let run;

    before(async () => {
      tf = await load(build.threads);
      run = tf.createRun({ task: 'toy', steps: 10 });
    });
    after(() => run.delete());

    test('a run\'s steps come back as kernel stems, forward and backward, adding up', () => {
      tf.resetProfile();
      assert.equal(tf.profiling(), false);
      tf.startProfile();
      assert.equal(tf.profiling(), true);
      const r = run.train(3);
      tf.stopProfile();
      const p = tf.profile();
      assert.equal(p.steps, 3);
      assert.ok(p.stepMs > 0 && p.stepMs <= r.seconds * 1e3 * 1.01 + 1, `${p.stepMs} ms vs ${r.seconds * 1e3}`);
      const stems = new Map(p.stems.map((s) => [s.stem, s]));
      for (const stem of ['gemm', 'attention', 'layer_norm', 'embedding', 'cross_entropy', 'optimizer'])
        assert.ok(stems.has(stem), `no ${stem}`);
      const gemm = stems.get('gemm');
      assert.deepEqual(Object.keys(gemm).sort(), ['backwardMs', 'calls', 'forwardMs', 'otherMs', 'stem']);
      assert.ok(gemm.forwardMs > 0 && gemm.backwardMs > 0 && gemm.calls > 0);
      assert.equal(stems.get('optimizer').forwardMs + stems.get('optimizer').backwardMs, 0);
      assert.ok(sum(p.stems.map((s) => s.forwardMs + s.backwardMs + s.otherMs)) <= p.stepMs);
      assert.deepEqual(Object.keys(p.phasesMs), ['batch', 'forward', 'backward', 'optimizer', 'copies', 'other']);
      assert.ok(Math.abs(sum(Object.values(p.phasesMs)) - p.stepMs) < 1e-6 * p.stepMs + 1e-9);
      assert.ok(p.phasesMs.backward > 0 && p.phasesMs.forward > 0);
      assert.equal(p.enqueueOnly, false);
      assert.match(p.backends, /^cpu/);
    });

    test('only what runs while profiling is recorded, and reset clears it', () => {
      tf.resetProfile();
      tf.startProfile();
      run.train(1);
      tf.stopProfile();
      const one = tf.profile();
      run.train(2);  // not profiled
      const later = tf.profile();
      assert.equal(later.steps, 1);
      assert.deepEqual(later.stems, one.stems);
      tf.resetProfile();
      const cleared = tf.profile();
      assert.equal(cleared.steps, 0);
      assert.equal(cleared.stepMs, 0);
      assert.deepEqual(cleared.stems, []);
    });
  });
}
