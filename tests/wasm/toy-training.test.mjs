// Course B3 in wasm: MyTransformer(14, 32, 1, 1), Adam 1e-3, batch 64, 1500 steps on the two-sentence toy
// language ends near its entropy 0.50 (mean of the last 200 losses at most 0.56), and its guesses at
// position 2 follow GuessX0. Trained once per build, in batches of steps as the page's worker does.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { builds, load, mean } from './support.mjs';

for (const build of builds) {
  test(`the toy language reaches the entropy in wasm (${build.name} build)`, async () => {
    const tf = await load(build.threads);
    const run = tf.createRun({ task: 'toy', seed: 0 });
    try {
      assert.deepEqual([run.config.dim, run.config.heads, run.config.layers, run.trainConfig.batch], [32, 1, 1, 64]);
      assert.equal(run.trainConfig.optimizer, 'adam');
      const losses = [];
      while (run.stepsDone < 1500) losses.push(...run.train(100).losses);
      assert.equal(losses.length, 1500);
      const final = mean(losses.slice(-200));
      assert.ok(final <= 0.56, `mean of the last 200 losses ${final.toFixed(4)} > 0.56`);
      assert.ok(final >= 0.4, `below the entropy 0.50 by too much: ${final.toFixed(4)}`);
      const g = run.toyGuesses();
      assert.ok(g.maxAbsDifference < 0.1, `guesses differ from GuessX0 by ${g.maxAbsDifference}`);
    } finally {
      run.delete();
    }
  });
}
