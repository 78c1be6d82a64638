// Symbol.dispose on Model and Run (what `using` calls) frees the wasm handle exactly as delete() does.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { builds, load } from './support.mjs';

for (const build of builds) {
  test(`Symbol.dispose deletes a run and a model (${build.name} build)`, async () => {
    const tf = await load(build.threads);
    const baseline = tf.liveHandles();
    const run = tf.createRun({ task: 'toy', model: { dim: 8, heads: 2 } });
    const model = tf.loadModel(run.checkpoint());
    assert.equal(tf.liveHandles(), baseline + 2);
    assert.equal(run[Symbol.dispose], run.delete);
    model[Symbol.dispose]();
    run[Symbol.dispose]();
    assert.deepEqual([model.deleted, run.deleted, tf.liveHandles()], [true, true, baseline]);
    run[Symbol.dispose]();  // a second dispose, like a second delete(), does nothing
    assert.equal(tf.liveHandles(), baseline);
    assert.throws(() => run.train(1), /deleted/);
  });
}
