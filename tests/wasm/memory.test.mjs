// Wasm memory does not grow while training: after a warm-up, 200 more steps of a story model leave
// HEAPU8.length (and the core allocator's live bytes) where they were, because the core's caching
// allocator hands the same blocks out again every step.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { builds, load } from './support.mjs';

for (const build of builds) {
  test(`wasm memory is flat over 200 training steps (${build.name} build)`, async (t) => {
    const tf = await load(build.threads);
    const text = { train: tf.builtinStories(1, 200_000), valid: tf.builtinStories(2, 20_000), topWords: 500 };
    const run = tf.createRun({ task: 'stories', batch: 16, seqLen: 32, model: { dim: 64, heads: 4, layers: 2 } }, text);
    try {
      run.train(20);
      const heap = tf.memoryBytes();
      const live = tf.poolBytes().live;
      for (let i = 0; i < 10; ++i) run.train(20);
      assert.equal(run.stepsDone, 220);
      t.diagnostic(`heap ${heap} -> ${tf.memoryBytes()} bytes; pool live ${live} -> ${tf.poolBytes().live}`);
      assert.equal(tf.memoryBytes(), heap, 'HEAPU8.length grew');
      assert.equal(tf.poolBytes().live, live, 'the core holds more tensors than before');
    } finally {
      run.delete();
    }
  });
}
