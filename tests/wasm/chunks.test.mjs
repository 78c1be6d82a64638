// Run.trainChunk (steps that read nothing back; their step log read once afterwards, asynchronously, as the
// WebGPU page must) against the per-step path, skips and the maxSkips stop settled from the log, and
// Model.snapshotTo against copyWeightsFrom: on the CPU, through the same read path the WebGPU build uses.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { TinyformerError } from '../../wasm/tinyformer.js';
import { describeBuilds, poisoned, withRuns } from './support.mjs';

function sameParameters(a, b) {
  for (const { name } of a.parameters().rows) assert.deepEqual(a.parameter(name).data, b.parameter(name).data, name);
}

describeBuilds('training in chunks', (lab) => {
  test('chunks give the losses, steps and weights of train()', async () => {
    const config = { task: 'toy', seed: 3, batch: 8, clip: 0.5 };  // the toy's early norms are clipped
    await withRuns(lab.tf, [config, config], async (single, chunked) => {
      assert.equal(chunked.device, 'cpu');
      const stepped = single.train(12);
      const first = await chunked.trainChunk(5);
      const second = await chunked.trainChunk(7);
      const stats = [...first.stats, ...second.stats];
      assert.equal(stats.length, 12);
      assert.deepEqual(stats.map((s) => s.loss), Array.from(stepped.losses));
      assert.deepEqual(stats.map((s) => s.step), Array.from({ length: 12 }, (_, i) => i + 1));
      for (const s of stats) {
        assert.equal(s.skipped, false);
        assert.ok(Number.isFinite(s.gradNorm) && s.gradNorm > 0, `norm ${s.gradNorm}`);
        assert.equal(s.lr, stepped.lr);
        assert.ok(s.tokens > 0 && s.flops > 0 && s.seconds >= 0);
      }
      assert.ok(stats.some((s) => s.gradNorm > 0.5), 'the clip factor was used');
      // The core's totals of each chunk: the figures train(n) gives, from the same steps' stats.
      for (const [chunk, from] of [[first, 0], [second, 5]]) {
        const own = stats.slice(from, from + chunk.stats.length);
        assert.deepEqual(Array.from(chunk.losses), Array.from(stepped.losses.slice(from, from + own.length)));
        assert.equal(chunk.step, own.at(-1).step);
        assert.equal(chunk.lr, stepped.lr);
        assert.equal(chunk.skipped, 0);
        assert.equal(chunk.skippedSteps, 0);
        assert.ok(chunk.seconds > 0 && chunk.tokensPerSecond > 0 && chunk.gflopsPerSecond > 0);
        const tokens = own.reduce((sum, s) => sum + s.tokens, 0);
        assert.ok(Math.abs(chunk.tokensPerSecond * chunk.seconds - tokens) < 1e-6 * tokens, 'tokens per second');
      }
      assert.equal(chunked.stepsDone, 12);
      sameParameters(single, chunked);
    });
  });

  test('skips are settled from the log; maxSkips in a row reject the chunk', async () => {
    await withRuns(lab.tf, [{ task: 'toy', seed: 2, maxSkips: 3 }], async (run) => {
      run.loadWeights(poisoned(run.checkpoint()));
      const chunk = await run.trainChunk(2);
      const two = chunk.stats;
      assert.deepEqual(two.map((s) => [s.skipped, s.skippedSteps]), [[true, 1], [true, 2]]);
      assert.ok(two.every((s) => Number.isNaN(s.loss) && Number.isNaN(s.gradNorm)));
      assert.deepEqual([chunk.skipped, chunk.skippedSteps, chunk.step], [2, 2, 2]);
      await assert.rejects(run.trainChunk(2), (e) => e instanceof TinyformerError && /stopped at step 3: 3 steps in a row/.test(e.message));
      assert.equal(run.stepsDone, 4);
      await assert.rejects(run.trainChunk(0), (e) => e instanceof TinyformerError && /1 <= n/.test(e.message));
    });
  });

  test('snapshotTo copies a run into another model as copyWeightsFrom does, and checks names', async () => {
    const configs = [{ task: 'toy', seed: 4, batch: 8 }, { task: 'toy', seed: 5, batch: 8 }, { task: 'sort', seed: 1 }];
    await withRuns(lab.tf, configs, async (run, copy, sorter) => {
      await run.trainChunk(3);
      assert.equal(await run.snapshotTo(copy), copy);
      sameParameters(run, copy);
      assert.equal(copy.stepsDone, 0, 'weights only: the target keeps its own run state');
      await assert.rejects(run.snapshotTo(sorter), TinyformerError);
      await assert.rejects(run.snapshotTo({}), /snapshotTo needs a Model or Run/);
    });
  });

  test('readWeights keeps a snapshot that setWeights brings back later, names and shapes checked', async () => {
    await withRuns(lab.tf, [{ task: 'toy', seed: 7, batch: 8 }], async (run) => {
      const viewer = lab.tf.loadModel(run.checkpoint());
      try {
        await run.trainChunk(2);
        const snapshot = await run.readWeights();
        assert.deepEqual(snapshot.map((w) => w.name), run.parameters().rows.map((r) => r.name));
        assert.ok(snapshot.every((w) => w.data instanceof Float32Array && w.data.length === w.shape.reduce((a, b) => a * b, 1)));
        const then = run.attention('the _ is alive').layers[0].data;
        await run.trainChunk(5);
        assert.notDeepEqual(run.attention('the _ is alive').layers[0].data, then, 'training moved the weights');
        viewer.setWeights(snapshot);
        assert.deepEqual(viewer.attention('the _ is alive').layers[0].data, then, 'the snapshot is the run as it was');
        assert.throws(() => viewer.setWeights(snapshot.slice(1)), TinyformerError);
        assert.throws(() => viewer.setWeights([{ ...snapshot[0], shape: [1, 1] }, ...snapshot.slice(1)]), TinyformerError);
        assert.throws(() => viewer.setWeights(snapshot, ['a', 'b']), TinyformerError);
      } finally {
        viewer.delete();
      }
    });
  });

  test('readCheckpoint writes the bytes of checkpoint(), optimizer state included; runs take a device', async () => {
    await withRuns(lab.tf, [{ task: 'toy', seed: 6, batch: 8 }], async (run) => {
      await run.trainChunk(4);
      assert.deepEqual(await run.readCheckpoint(), run.checkpoint());
      const info = lab.tf.inspectCheckpoint(await run.readCheckpoint());
      assert.equal(info.resumable, true);
      assert.equal(info.step, 4);
      assert.throws(() => lab.tf.createRun({ task: 'toy' }, undefined, { device: 'webgpu' }),
        /a run's device is 'cpu' \(this is not the WebGPU build\), got webgpu/);
      const resumed = lab.tf.loadRun(await run.readCheckpoint(), undefined, { device: 'cpu' });
      try {
        assert.deepEqual(resumed.train(2).losses, run.train(2).losses);
      } finally {
        resumed.delete();
      }
    });
  });
});
