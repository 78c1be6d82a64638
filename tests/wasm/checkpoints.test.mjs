// Checkpoint bytes in the page's module (issue 9, 10): hostile files are refused before anything is
// allocated for them (the wasm heap does not grow), deep or mistyped metadata is a clear TinyformerError,
// and models read one parameter or copy weights from each other in memory, without file bytes.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';

import { TinyformerError } from '../../wasm/tinyformer.js';
import { describeBuilds, maxAbsDiff, throwsTf, withValue } from './support.mjs';


// Rewrites a safetensors file's metadata (the data section is kept as it is).
function withMetadata(bytes, edit) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Number(view.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  edit(header.__metadata__);
  const text = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(8 + text.length + bytes.length - 8 - n);
  new DataView(out.buffer).setBigUint64(0, BigInt(text.length), true);
  out.set(text, 8);
  out.set(bytes.subarray(8 + n), 8 + text.length);
  return out;
}

describeBuilds('checkpoints', (lab) => {
  let good;
  before(() => {
    const run = lab.tf.createRun({ task: 'toy', seed: 3, model: { dim: 16, heads: 2 } });
    run.train(2);
    good = run.checkpoint();
    run.delete();
  });

  test("a checkpoint's tensors are read by name through a Model, with their shapes and the file's numbers", () => {
    const model = lab.tf.loadModel(withValue(good, 1.5, 'embed.weight', 3));
    try {
      const t = model.parameter('embed.weight');
      assert.deepEqual(t.shape, [14, 16]);
      assert.equal(t.data[3], 1.5);
      throwsTf(() => model.parameter('missing'), /no parameter 'missing'/);
    } finally {
      model.delete();
    }
    throwsTf(() => lab.tf.loadModel(new Uint8Array(16)), /safetensors/);
  });

  test('a checkpoint with a NaN or an infinity anywhere is refused, naming its first such tensor', () => {
    const resaved = (bytes) => {
      const model = lab.tf.loadModel(bytes);
      try {
        return model.checkpoint();
      } finally {
        model.delete();
      }
    };
    assert.ok(resaved(withValue(good, 3.4e38, 'out.bias')) instanceof Uint8Array, 'large but finite');
    for (const [edits, first] of [[[['out.bias', NaN]], 'out.bias'], [[['embed.weight', Infinity], ['out.bias', NaN]], 'embed.weight'],
      [[['out.weight', -Infinity]], 'out.weight']]) {
      const bytes = edits.reduce((b, [name, value]) => withValue(b, value, name, 1), good);
      assert.throws(() => resaved(bytes), (e) => e instanceof TinyformerError && e.kind === 'not-finite' &&
        e.message.includes(`parameter '${first}' holds NaN or infinity`));
    }
  });

  test('a small file asking for a billion parameters is refused and the heap stays as it was', () => {
    const big = withMetadata(good, (m) => {
      m['tinyformer.config'] = JSON.stringify({ ...JSON.parse(m['tinyformer.config']), vocab: 1000000, dim: 1024 });
      delete m['tinyformer.train'];
    });
    const before = lab.tf.memoryBytes();
    for (const open of [() => lab.tf.inspectCheckpoint(big), () => lab.tf.loadModel(big), () => lab.tf.loadRun(big)])
      throwsTf(open, /more than Tinyformer's limit of 100000000/);
    const bigger = withMetadata(good, (m) => {
      m['tinyformer.config'] = JSON.stringify({ ...JSON.parse(m['tinyformer.config']), dim: 1024, heads: 4 });
      delete m['tinyformer.train'];
    });
    throwsTf(() => lab.tf.loadModel(bigger), /describes a transformer of \d+ parameters, but its tensors hold \d+ numbers/);
    assert.ok(lab.tf.memoryBytes() - before < 8 << 20, `the heap grew by ${lab.tf.memoryBytes() - before} bytes`);
  });

  test('metadata nested tens of thousands deep is a clear error, not a stack overflow', () => {
    const deep = withMetadata(good, (m) => {
      m['tinyformer.train'] = `{"task":"toy","model":${'['.repeat(50000)}${']'.repeat(50000)}}`;
    });
    throwsTf(() => lab.tf.inspectCheckpoint(deep), /training config nests deeper than 16 levels/);
    throwsTf(() => lab.tf.loadRun(deep), /nests deeper/);
  });

  test('mistyped fields, a vocabulary of the wrong length and a weights-only resume are named', () => {
    const odd = withMetadata(good, (m) => {
      m['tinyformer.train'] = JSON.stringify({ ...JSON.parse(m['tinyformer.train']), steps: 31.5 });
    });
    throwsTf(() => lab.tf.loadRun(odd), /training config field 'steps' has the wrong type: must be an integer, got 31\.5/);
    const vocab = withMetadata(good, (m) => {
      m['tinyformer.vocab'] = JSON.stringify(['a', 'b', 'c']);
    });
    throwsTf(() => lab.tf.inspectCheckpoint(vocab), /vocabulary has 3 entries but the model config says vocab 14/);
    const model = lab.tf.loadModel(good);
    try {
      const info = lab.tf.inspectCheckpoint(model.checkpoint());
      assert.equal(info.task, 'toy');
      assert.equal(info.train, null);
      assert.equal(info.resumable, false);
      throwsTf(() => lab.tf.loadRun(model.checkpoint()), /holds weights only/);
    } finally {
      model.delete();
    }
  });

  test('inspecting describes the run without building it', () => {
    const info = lab.tf.inspectCheckpoint(good);
    assert.equal(info.task, 'toy');
    assert.equal(info.step, 2);
    assert.equal(info.train.model.dim, 16);
    assert.equal(info.table.rows[0].name, 'embed.weight');
    assert.equal(info.parameters, info.table.total);
  });

  test('one parameter by name, and weights copied between models in memory', () => {
    const a = lab.tf.loadModel(good);
    const b = lab.tf.createRun({ task: 'toy', seed: 9, model: { dim: 16, heads: 2 } });
    const small = lab.tf.createRun({ task: 'toy', model: { dim: 8, heads: 2 } });
    try {
      const table = a.parameter('embed.weight');
      assert.deepEqual(table.shape, [14, 16]);
      assert.ok(maxAbsDiff(table.data, b.parameter('embed.weight').data) > 0);
      throwsTf(() => a.parameter('nope'), /no parameter 'nope'/);
      const before = b.parameter('out.weight').data;
      throwsTf(() => b.copyWeightsFrom(small), /shape/);
      assert.equal(maxAbsDiff(b.parameter('out.weight').data, before), 0, 'a failed copy changes nothing');
      b.copyWeightsFrom(a);
      assert.equal(maxAbsDiff(b.parameter('embed.weight').data, table.data), 0);
      assert.equal(maxAbsDiff(b.logits('the cat _ alive').data, a.logits('the cat _ alive').data), 0);
      assert.ok(b.train(1).losses.every(Number.isFinite), 'the run trains on from the copied weights');
      assert.throws(() => b.copyWeightsFrom({}), TinyformerError);
    } finally {
      a.delete();
      b.delete();
      small.delete();
    }
  });
});
