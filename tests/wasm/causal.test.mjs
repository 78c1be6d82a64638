// Course C5 and B5 through the API: with causal attention the logits of a prefix do not depend on what
// follows it ("the cat is alive" vs "the cat is empty": the first three positions equal, the last not);
// with full attention every position differs; and a sentence's logits do not depend on the rest of its
// batch.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { builds, load, maxAbsDiff, row } from './support.mjs';

function positionRows(logits, b) {
  const [, T, V] = logits.shape;
  return Array.from({ length: T }, (_, t) => logits.data.subarray((b * T + t) * V, (b * T + t + 1) * V));
}

for (const build of builds) {
  test(`causal attention keeps prefixes independent of what follows (${build.name} build)`, async () => {
    const tf = await load(build.threads);
    const causal = tf.createRun({ task: 'toy', seed: 1, model: { causal: true, layers: 2, heads: 2 } });
    const full = tf.createRun({ task: 'toy', seed: 1, model: { causal: false, layers: 2, heads: 2 } });
    try {
      causal.train(20);
      full.train(20);
      const pair = ['the cat is alive', 'the cat is empty'];
      const c = causal.logits(pair);
      assert.deepEqual(c.shape, [2, 4, 14]);
      const [c0, c1] = [positionRows(c, 0), positionRows(c, 1)];
      for (let t = 0; t < 3; ++t) assert.equal(maxAbsDiff(c0[t], c1[t]), 0, `causal position ${t} changed`);
      assert.ok(maxAbsDiff(c0[3], c1[3]) > 1e-4, 'the last position sees the last word');

      const f = full.logits(pair);
      const [f0, f1] = [positionRows(f, 0), positionRows(f, 1)];
      for (let t = 0; t < 4; ++t) assert.ok(maxAbsDiff(f0[t], f1[t]) > 1e-6, `full attention position ${t} did not change`);

      const maps = causal.attention('the cat is alive');
      for (const layer of maps.layers) {
        const [H, T] = layer.shape;
        for (let h = 0; h < H; ++h)
          for (let i = 0; i < T; ++i) {
            const r = row({ data: layer.data, shape: [H * T, T] }, h * T + i);
            assert.ok(Math.abs(r.reduce((a, b) => a + b, 0) - 1) < 1e-5, 'causal rows still sum to one');
            for (let j = i + 1; j < T; ++j) assert.equal(r[j], 0);
          }
      }
    } finally {
      causal.delete();
      full.delete();
    }
  });

  test(`a sentence's logits do not depend on the rest of the batch (${build.name} build)`, async () => {
    const tf = await load(build.threads);
    const run = tf.createRun({ task: 'toy', seed: 2, model: { layers: 2, heads: 2 } });
    try {
      run.train(5);
      const alone = run.logits('the _ is alive');
      const batch = run.logits(['the _ is alive', 'the box _ empty', '_ _ _ _']);
      // Equal up to float rounding, as in PyTorch: alone the products have 4 rows and take the GEMM's
      // small-M path, batched they have 12 and take the packed one, which sums in another order.
      assert.ok(maxAbsDiff(alone.data, batch.data.subarray(0, alone.data.length)) < 1e-6);
      assert.ok(maxAbsDiff(alone.data, batch.data.subarray(alone.data.length, 2 * alone.data.length)) > 1e-4, 'another sentence differs');
    } finally {
      run.delete();
    }
  });
}
