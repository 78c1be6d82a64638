// Bad input reaches JS as a TinyformerError carrying the C++ message, and nothing breaks: the handle that
// threw keeps working, a model over the parameter limit or too big for wasm memory is refused clearly (not a
// crash), and no Embind object is left behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { TinyformerError } from '../../wasm/tinyformer.js';
import { describeBuilds, throwsTf } from './support.mjs';


describeBuilds('errors', (lab) => {

  // Each bound is the one createRun checks: a value just past either end is refused, naming the field;
  // a closed end itself is taken.
  test('trainBounds are the bounds createRun checks, by field', () => {
    const bounds = lab.tf.trainBounds();
    assert.deepEqual(Object.keys(bounds).sort(), ['batch', 'lr', 'maxSkips', 'momentum', 'pctStart', 'steps', 'weightDecay']);
    assert.deepEqual(bounds.lr, { min: 0, max: 10, minOpen: true, maxOpen: true, whole: false });
    const snake = (key) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    for (const [key, b] of Object.entries(bounds)) {
      const step = b.whole ? 1 : b.max * 1e-3;
      const refused = [b.minOpen ? b.min : b.min - step, b.maxOpen ? b.max : b.max + step];
      for (const value of refused) throwsTf(() => lab.tf.createRun({ task: 'toy', [key]: value }), new RegExp(`\\b${snake(key)} must be `));
      const taken = b.minOpen ? (b.min + b.max) / 2 : b.min;
      lab.tf.createRun({ task: 'toy', [key]: taken }).delete();
    }
  });

  test('bad config values are refused with the field named', () => {
    throwsTf(() => lab.tf.createRun({ task: 'nope' }), /unknown task 'nope'/);
    throwsTf(() => lab.tf.createRun({ task: 'toy', lr: -1 }), /lr must be in \(0, 10\), got -1/);
    throwsTf(() => lab.tf.createRun({ task: 'toy', batch: 0 }), /batch must be between 1 and 65536, got 0/);
    throwsTf(() => lab.tf.createRun({ task: 'toy', model: { dim: 30, heads: 4 } }), /dim 30 must be a positive multiple of heads 4/);
    throwsTf(() => lab.tf.createRun({ task: 'toy', optimizer: 'rmsprop' }), /unknown optimizer 'rmsprop'/);
    throwsTf(() => lab.tf.createRun({ task: 'toy', bogus: 1 }), /unknown training config field 'bogus'/);
    throwsTf(() => lab.tf.createRun({ task: 'toy', lr: 'fast' }), /field 'lr' has the wrong type/);
    throwsTf(() => lab.tf.createRun({ task: 'toy', model: { kind: 'gpt' } }), /unknown model 'gpt'/);
    throwsTf(() => lab.tf.createRun({ task: 'sort', model: { kind: 'transformer' } }), /the sort task trains the sorter/);
    throwsTf(() => lab.tf.createRun({ task: 'stories' }), /the stories task needs text/);
    throwsTf(() => lab.tf.createRun({ task: 'stories' }, { train: 'too short' }), /too few for windows/);
    throwsTf(() => lab.tf.setThreads(0), /setThreads/);
    assert.equal(lab.tf.liveHandles(), lab.baseline);
  });

  test('corrupt checkpoint bytes are refused', () => {
    const run = lab.tf.createRun({ task: 'toy', model: { dim: 8, heads: 2 } });
    const good = run.checkpoint();
    run.delete();
    const flipped = good.slice();
    flipped[10] ^= 0xff;
    const garbage = Uint8Array.from({ length: 256 }, (_, i) => (i * 37) & 0xff);
    for (const bytes of [new Uint8Array(0), garbage, good.subarray(0, good.length - 17), good.subarray(0, 40), flipped]) {
      throwsTf(() => lab.tf.loadModel(bytes), /safetensors|checkpoint|header|JSON/i);
      throwsTf(() => lab.tf.inspectCheckpoint(bytes), /safetensors|checkpoint|header|JSON/i);
      throwsTf(() => lab.tf.loadRun(bytes), /safetensors|checkpoint|header|JSON/i);
    }
    assert.throws(() => lab.tf.loadModel('not bytes'), TinyformerError);
    const back = lab.tf.loadModel(good);
    back.delete();
  });

  test('a handle keeps working after its calls fail', () => {
    const run = lab.tf.createRun({ task: 'toy', seed: 1 });
    try {
      run.train(2);
      throwsTf(() => run.write({ sampler: 'bogus' }), /unknown sampler 'bogus'/);
      throwsTf(() => run.write({ length: 1000 }), /length must be 1\.\.64/);
      throwsTf(() => run.attention('the dog is alive'), /"dog" is not in the model's vocabulary/);
      throwsTf(() => run.logits([99, 1, 2, 3]), /embedding/);
      throwsTf(() => run.sorterAttention('1 2 3'), /needs the sorter model/);
      throwsTf(() => run.train(0), /a run trains 1 <= n <= 1e6 steps at a time, got 0/);
      throwsTf(() => run.undiffuseCensus({ count: 0 }), /census/);
      throwsTf(() => run.loadWeights(new Uint8Array(3)), /safetensors|checkpoint/i);
      const other = lab.tf.createRun({ task: 'toy', model: { dim: 16, heads: 2 } });
      throwsTf(() => run.loadWeights(other.checkpoint()), /shape/);
      other.delete();
      const r = run.train(3);
      assert.equal(r.step, 5);
      assert.ok(r.losses.every(Number.isFinite));
    } finally {
      run.delete();
    }
    assert.equal(run.deleted, true);
    throwsTf(() => run.train(1), /deleted/);
    run.delete();
  });

  test('a model too big for wasm memory is refused, not a crash', () => {
    const before = lab.tf.memoryBytes();
    throwsTf(() => lab.tf.createRun({ task: 'toy', model: { vocab: 1000000, dim: 1024 } }), /more than Tinyformer's limit of 100000000/);
    throwsTf(() => lab.tf.createRun({ task: 'toy', model: { vocab: 1000000, dim: 8192 } }), /more than Tinyformer's limit of 100000000/);
    assert.equal(lab.tf.liveHandles(), lab.baseline);
    assert.ok(lab.tf.memoryBytes() - before < 64 << 20, 'nothing big was kept');
    const run = lab.tf.createRun({ task: 'toy' });
    assert.ok(run.train(2).losses.every(Number.isFinite));
    run.delete();
  });
});
