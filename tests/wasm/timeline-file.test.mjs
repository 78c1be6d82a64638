// A checkpoint that carries its training timeline (docs/checkpoints.md, step_<N>/ names), through the module:
// withTimeline writes the snapshots, readTimeline brings them back bit for bit, inspectCheckpoint names their
// steps, the file still resumes and loads as the run now, a snapshot's weights rebuild the model of that
// step, the native CLI reads the file as a checkpoint, and a timeline that does not fit the run is refused
// with a clear error, nothing written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describeBuilds, native, noNative, scratchDir, throwsTf } from './support.mjs';

describeBuilds('checkpoints with a timeline', (lab) => {
  test('snapshots round trip under step_<N>/ names and rebuild the model of their step', async () => {
    const run = lab.tf.createRun({ task: 'toy', seed: 5 });
    const past = [];
    try {
      for (const steps of [0, 10, 10]) {
        if (steps) run.train(steps);
        past.push({ step: run.stepsDone, weights: await run.readWeights() });
      }
      const plain = run.checkpoint();
      const bytes = lab.tf.withTimeline(plain, [past[1], past[0], past[2]]);
      assert.equal(lab.tf.inspectCheckpoint(plain).timeline.length, 0);
      const info = lab.tf.inspectCheckpoint(bytes);
      assert.deepEqual(info.timeline, [0, 10, 20]);
      assert.equal(info.step, 20);
      const back = lab.tf.readTimeline(bytes);
      assert.deepEqual(back.map((k) => k.step), [0, 10, 20]);
      for (let i = 0; i < 3; ++i) {
        for (const [j, w] of past[i].weights.entries()) {
          assert.equal(back[i].weights[j].name, w.name);
          assert.deepEqual(back[i].weights[j].shape, w.shape);
          assert.deepEqual(back[i].weights[j].data, w.data);
        }
      }
      assert.ok(past[0].weights.some((w, j) => w.data.some((x, k) => x !== past[2].weights[j].data[k])), 'training changed the weights');
      const resumed = lab.tf.loadRun(bytes);  // the file is the run now, whatever it carries
      const then = lab.tf.loadModel(bytes);
      try {
        assert.equal(resumed.stepsDone, 20);
        assert.deepEqual(resumed.attention('the cat is alive').layers, run.attention('the cat is alive').layers);
        then.setWeights(back[1].weights);
        const rebuilt = lab.tf.createRun({ task: 'toy', seed: 5 });
        try {
          rebuilt.train(10);
          assert.deepEqual(then.attention('the cat is alive').layers, rebuilt.attention('the cat is alive').layers, 'step 10 as trained');
        } finally {
          rebuilt.delete();
        }
      } finally {
        resumed.delete();
        then.delete();
      }
      if (!noNative) {
        const file = join(scratchDir(), `toy-${lab.build.key}.safetensors`);
        writeFileSync(file, bytes);
        const described = JSON.parse(native(['info', '--checkpoint', file, '--json']).trim().split('\n').at(-1));
        assert.deepEqual(described.timeline, [0, 10, 20]);
        assert.equal(described.step, 20);
      }
    } finally {
      run.delete();
    }
  });

  test('a timeline that does not fit its run is refused, nothing written', async () => {
    const run = lab.tf.createRun({ task: 'toy', seed: 5 });
    try {
      run.train(4);
      const weights = await run.readWeights();
      const bytes = run.checkpoint();
      throwsTf(() => lab.tf.withTimeline(bytes, [{ step: 5, weights }]), /snapshot at step 5, past the run's step 4/);
      throwsTf(() => lab.tf.withTimeline(bytes, [{ step: 2, weights: weights.slice(1) }]), /snapshot at step 2: the checkpoint lacks the model's parameter\(s\) '/);
      const wrong = weights.map((w, i) => (i ? w : { ...w, shape: [w.data.length], data: w.data }));
      throwsTf(() => lab.tf.withTimeline(bytes, [{ step: 2, weights: wrong }]), /snapshot at step 2: parameter '.*' has shape/);
      throwsTf(() => lab.tf.withTimeline(bytes, [{ step: 'two', weights }]), /a timeline's step must be a whole number/);
      const many = Array.from({ length: 65 }, (_, step) => ({ step, weights }));
      run.train(61);
      throwsTf(() => lab.tf.withTimeline(run.checkpoint(), many), /more than 64 steps/);
      assert.equal(lab.tf.inspectCheckpoint(bytes).timeline.length, 0);
      assert.deepEqual(lab.tf.readTimeline(bytes), []);
    } finally {
      run.delete();
    }
  });
});
