// The module's API end to end, on both builds: each task trains a few steps with a small model, every view
// the page draws comes back with the right shapes and properties, checkpoints round-trip (a resumed run
// continues with exactly the losses of the uninterrupted one), and every handle is freed.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';

import { describeBuilds, maxAbsDiff, row, throwsTf } from './support.mjs';

function rowSums(t) {
  const [rows, cols] = [t.data.length / t.shape[t.shape.length - 1], t.shape[t.shape.length - 1]];
  const out = [];
  for (let r = 0; r < rows; ++r) out.push(row(t, r).reduce((a, b) => a + b, 0));
  assert.equal(out.length, rows);
  return out.length ? out : [cols];
}

function assertRowsSumToOne(t, tol = 1e-5) {
  for (const s of rowSums(t)) assert.ok(Math.abs(s - 1) < tol, `row sum ${s}`);
}

const storyText = { train: null, valid: null };

describeBuilds('API', (lab) => {
  before(() => {
    storyText.train ??= lab.tf.builtinStories(1, 300_000);
    storyText.valid ??= lab.tf.builtinStories(2, 40_000);
  });

  test('describes itself', () => {
    assert.equal(lab.tf.threaded, lab.build.threads);
    assert.equal(lab.tf.simd, true);
    assert.match(lab.tf.version, /^\d+\.\d+\.\d+$/);
    assert.ok(lab.tf.threads() >= 1 && lab.tf.threads() <= lab.tf.maxThreads);
    assert.ok(lab.tf.memoryBytes() > 0);
    if (lab.build.threads) {
      lab.tf.setThreads(1);
      assert.equal(lab.tf.threads(), 1);
      lab.tf.setThreads(lab.tf.maxThreads);
      assert.equal(lab.tf.threads(), lab.tf.maxThreads);
    } else {
      assert.equal(lab.tf.maxThreads, 1);
    }
  });

  test('names every field in camelCase, and still takes a snake_case config', () => {
    const snakeFields = (value, path = '') => {
      if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return [];
      return Object.entries(value).flatMap(([k, v]) =>
        [...(k.includes('_') ? [`${path}${k}`] : []), ...(k === 'metadata' || k === 'counts' ? [] : snakeFields(v, `${path}${k}.`))]);
    };
    const config = lab.tf.defaultConfig('sort');
    assert.deepEqual(snakeFields(config), []);
    assert.equal(config.maxSkips, 20);
    assert.ok(config.model.maxLength > 0 && config.model.encoderLayers > 0);
    const run = lab.tf.createRun({ task: 'sort', batch: 4, max_skips: 7, model: { dim: 8, heads: 2, encoder_layers: 1, decoderLayers: 1 } });
    try {
      assert.deepEqual([run.trainConfig.maxSkips, run.config.encoderLayers, run.config.decoderLayers], [7, 1, 1]);
      run.train(1);
      const info = lab.tf.inspectCheckpoint(run.checkpoint());
      assert.deepEqual(snakeFields(info), []);
      assert.deepEqual(snakeFields(run.evaluate(1)), []);
      assert.deepEqual(snakeFields(run.sorterAttention('7 2 9 0 4 4 1 8 3 6')), []);
      assert.deepEqual(snakeFields(lab.tf.attentionWalkthrough()), []);
    } finally {
      run.delete();
    }
  });

  test('gives the course defaults and the tokenizer', () => {
    const toy = lab.tf.defaultConfig('toy');
    assert.deepEqual([toy.model.vocab, toy.model.dim, toy.model.heads, toy.model.layers], [14, 32, 1, 1]);
    assert.equal(toy.steps, 1500);
    const sort = lab.tf.defaultConfig('sort');
    assert.equal(sort.model.kind, 'sorter');
    assert.equal(sort.optimizer, 'adamw');
    assert.deepEqual(lab.tf.tokenize("Once upon a time, Lily's cat ran.<|endoftext|>The end!"), [
      'once', 'upon', 'a', 'time', ',', "lily's", 'cat', 'ran', '.', 'the', 'end', '!',
    ]);
    assert.deepEqual(lab.tf.tokenize('the _ is alive', 'prompt'), ['the', '_', 'is', 'alive']);
    assert.match(storyText.train, /<\|endoftext\|>/);
    assert.ok(storyText.train.length >= 300_000);
  });

  test('trains the toy language and shows its figures', () => {
    const run = lab.tf.createRun({ task: 'toy', seed: 3 });
    try {
      assert.equal(run.task, 'toy');
      assert.deepEqual(run.vocabulary.slice(0, 3), ['the', 'cat', 'box']);
      const r = run.train(30);
      assert.ok(r.losses instanceof Float32Array);
      assert.equal(r.losses.length, 30);
      assert.equal(r.step, 30);
      assert.equal(run.stepsDone, 30);
      assert.ok(r.losses.every(Number.isFinite));
      assert.ok(r.tokensPerSecond > 0 && r.gflopsPerSecond > 0);
      assert.equal(run.validationLoss(), null);

      const a = run.attention('the _ is alive');
      assert.deepEqual(a.tokens, ['the', '_', 'is', 'alive']);
      assert.equal(a.layers.length, 1);
      assert.deepEqual(a.layers[0].shape, [1, 4, 4]);
      assertRowsSumToOne(a.layers[0]);
      assert.deepEqual(a.rollout.shape, [4, 4]);
      assertRowsSumToOne(a.rollout);
      assert.deepEqual(a.logits.shape, [4, 14]);

      const sal = run.tokenSaliency('the _ is alive');
      assert.deepEqual(sal.tokens, ['the', '_', 'is', 'alive']);
      assert.equal(sal.written.length, 4);
      assert.deepEqual(sal.saliency.shape, [4, 4]);
      assertRowsSumToOne(sal.saliency);

      const p = run.probabilities('the _ is alive', { forbidden: [13] });
      assert.deepEqual(p.shape, [4, 14]);
      assertRowsSumToOne(p);
      assert.equal(p.data[14 + 13], 0);

      const g = run.toyGuesses();
      assert.equal(g.prompts.length, 3);
      assert.deepEqual(g.prompts.map((x) => x.prompt), ['_ _ _ _', '_ _ is alive', 'the _ _ empty']);
      assert.ok(Math.abs(g.prompts[0].exact[1] - 0.8) < 1e-6, 'GuessX0: cat with probability 0.8 at position 2');

      const c = run.undiffuseCensus({ count: 50, steps: 4, seed: 1 });
      assert.equal(c.sentences, 50);
      assert.equal(Object.values(c.counts).reduce((a, b) => a + b, 0), 50);
      assert.equal(c.networkCalls, 4);

      const w = run.write({ prompt: 'the', suffix: 'alive', length: 4, count: 3, seed: 2 });
      assert.equal(w.sampler, 'undiffuse');
      for (const s of w.stories) {
        assert.equal(s.tokens.length, 4);
        assert.equal(s.tokens[0], 'the');
        assert.equal(s.tokens[3], 'alive');
        assert.deepEqual([s.revealStep[0], s.revealStep[3]], [0, 0]);
        assert.ok(!s.tokens.includes('_'));
      }
      const e = run.evaluate(5);
      assert.equal(e.undiffuse.sentences, 1000);
      const params = run.parameters();
      assert.equal(params.total, params.rows.reduce((s, r) => s + r.count, 0));
      assert.deepEqual(new Set(params.groups.map((x) => x.group)), new Set(['embedding', 'attention', 'ffn', 'layernorm', 'output']));
    } finally {
      run.delete();
    }
  });

  test("reports a model config's parameters unbuilt, as a built model of that config reports them", () => {
    const run = lab.tf.createRun({ task: 'toy', model: { dim: 32, heads: 2, layers: 2 } });
    try {
      assert.deepEqual(lab.tf.parameterReport(run.config), run.parameters());
    } finally {
      run.delete();
    }
    // B5's MyTransformer(2002): a vocabulary no task gives, counted by piece without a run.
    const big = lab.tf.parameterReport({ kind: 'transformer', vocab: 2002, dim: 128, heads: 4, layers: 4, maxLength: 64 });
    assert.equal(big.total, big.rows.reduce((s, r) => s + r.count, 0));
    assert.equal(big.rows.find((r) => r.name.startsWith('embed')).shape, '(2002, 128)');
    throwsTf(() => lab.tf.parameterReport({ dim: 30, heads: 4 }), /dim/);
  });

  test('trains the sorter and shows its attention and saliency', () => {
    const run = lab.tf.createRun({ task: 'sort', batch: 16, model: { dim: 16, heads: 2, encoderLayers: 1, decoderLayers: 1 } });
    try {
      assert.ok(run.train(3).losses.every(Number.isFinite));
      const digits = '7 2 9 0 4 4 1 8 3 6';
      const s = run.sorterAttention(digits);
      assert.deepEqual(s.input, [7, 2, 9, 0, 4, 4, 1, 8, 3, 6]);
      assert.equal(s.output.length, 10);
      assert.equal(s.encoder.length, 1);
      assert.deepEqual(s.encoder[0].shape, [2, 10, 10]);
      assert.deepEqual(s.decoderSelf[0].shape, [2, 10, 10]);
      assert.deepEqual(s.cross[0].shape, [2, 10, 10]);
      assertRowsSumToOne(s.cross[0]);
      // Causal decoder self-attention: nothing above the diagonal.
      for (let i = 0; i < 10; ++i) for (let j = i + 1; j < 10; ++j) assert.equal(s.decoderSelf[0].data[i * 10 + j], 0);
      assertRowsSumToOne(s.rollout);
      const sal = run.saliency([7, 2, 9, 0, 4, 4, 1, 8, 3, 6]);
      assert.deepEqual(sal.saliency.shape, [10, 10]);
      assert.deepEqual(sal.output, s.output);
      assertRowsSumToOne(sal.saliency);
      const sorted = run.sortDigits(digits);
      assert.equal(sorted.correct, JSON.stringify(sorted.output) === JSON.stringify([0, 1, 2, 3, 4, 4, 6, 7, 8, 9]));
      // What is not a whole number is refused as written, not read as 0 or wrapped to 32 bits.
      assert.throws(() => run.sortDigits('x 2 9 0 4 4 1 8 3 6'), /^TinyformerError: digits must be whole numbers like "7 2 9 0 4 4 1 8 3 6": "x" is not a digit$/);
      assert.throws(() => run.sortDigits('9876543210 2 9 0 4 4 1 8 3 6'), /: "9876543210" is not a digit$/);
      assert.throws(() => run.saliency([7.5, 2, 9, 0, 4, 4, 1, 8, 3, 6]), /: "7.5" is not a digit$/);
      const e = run.evaluate(1);
      assert.equal(e.sequences, 2000);
      assert.ok(e.digitAccuracy >= 0 && e.digitAccuracy <= 1);
    } finally {
      run.delete();
    }
  });

  test('trains stories on the built-in corpus and writes', () => {
    const config = { task: 'stories', batch: 8, seqLen: 16, model: { dim: 32, heads: 2, layers: 1, maxLength: 32 } };
    const run = lab.tf.createRun(config, { ...storyText, topWords: 500 });
    const causal = lab.tf.createRun({ ...config, model: { ...config.model, causal: true, rotary: true } }, { ...storyText, topWords: 500 });
    try {
      assert.equal(run.config.vocab, 502);
      assert.deepEqual(run.vocabulary.slice(-2), ['<unk>', '_']);
      const r = run.train(5);
      assert.ok(r.losses.every(Number.isFinite));
      assert.ok(r.losses[0] > 5 && r.losses[0] < 8, `per-token loss near log(502), got ${r.losses[0]}`);
      const v = run.validationLoss();
      assert.ok(Number.isFinite(v));
      assert.equal(run.validationLoss(), v, 'validation uses fixed windows and masks');
      assert.equal(run.evaluate().validationLoss, v);

      const w = run.write({ prompt: 'one day , lily went', suffix: 'and they were happy .', length: 20, count: 2, steps: 10, seed: 4 });
      for (const s of w.stories) {
        assert.equal(s.tokens.length, 20);
        assert.deepEqual(s.tokens.slice(0, 5), ['one', 'day', ',', 'lily', 'went']);
        assert.deepEqual(s.tokens.slice(-5), ['and', 'they', 'were', 'happy', '.']);
        assert.ok(!s.tokens.includes('_') && !s.tokens.includes('<unk>'));
        assert.ok(s.networkCalls >= 1 && s.networkCalls <= 10, 'at most one network call per step');
        assert.ok(s.revealStep.slice(5, 15).every((x) => x >= 1 && x <= 10));
      }
      const greedy = run.write({ sampler: 'greedy', length: 8, count: 1 });
      assert.equal(greedy.sampler, 'greedy');

      assert.ok(causal.train(2).losses.every(Number.isFinite));
      const l = causal.write({ prompt: 'once upon a time', length: 12, count: 2, topK: 5, temperature: 0.8 });
      assert.equal(l.sampler, 'left-to-right');
      for (const s of l.stories) {
        assert.deepEqual(s.tokens.slice(0, 4), ['once', 'upon', 'a', 'time']);
        assert.equal(s.tokens.length, 12);
        assert.equal(s.networkCalls, 8);
      }
      assert.throws(() => causal.write({ suffix: 'the end .' }), /cannot fill in before a suffix/);
      const maps = causal.attention('the cat sat on the mat');
      for (let i = 0; i < 6; ++i) for (let j = i + 1; j < 6; ++j) assert.equal(maps.layers[0].data[i * 6 + j], 0);
    } finally {
      run.delete();
      causal.delete();
    }
  });

  test('resumes a run from its checkpoint with the same losses', () => {
    const config = { task: 'toy', seed: 11, model: { dim: 16, heads: 2 } };
    const a = lab.tf.createRun(config);
    const firstLosses = Array.from(a.train(10).losses);
    const bytes = a.checkpoint();
    const info = lab.tf.inspectCheckpoint(bytes);
    assert.equal(info.step, 10);
    assert.equal(info.task, 'toy');
    assert.equal(info.resumable, true);
    assert.equal(info.config.dim, 16);
    const b = lab.tf.loadRun(bytes);
    const m = lab.tf.loadModel(bytes);
    try {
      assert.equal(b.stepsDone, 10);
      assert.deepEqual(b.trainConfig, a.trainConfig);
      assert.equal(maxAbsDiff(m.logits('the cat _ alive').data, a.logits('the cat _ alive').data), 0);
      const resumedLosses = b.train(10).losses;
      assert.deepEqual(resumedLosses, a.train(10).losses);
      // The loss history is part of the run: in its checkpoint, and carried on by the resumed run.
      assert.deepEqual(info.losses, firstLosses);
      const history = lab.tf.inspectCheckpoint(b.checkpoint()).losses;
      assert.equal(history.length, 20);
      assert.deepEqual(history, [...firstLosses, ...resumedLosses]);
      assert.throws(() => m.train(1), TypeError, 'a loaded model does not train');
      const weights = lab.tf.loadModel(m.checkpoint());
      try {
        assert.deepEqual(weights.logits('the cat _ alive').data, m.logits('the cat _ alive').data);
        assert.equal(lab.tf.inspectCheckpoint(m.checkpoint()).resumable, false);
        assert.throws(() => lab.tf.loadRun(m.checkpoint()), /weights only/);
      } finally {
        weights.delete();
      }
      // Course C10: start from a run's weights; the optimizer starts fresh.
      const c = lab.tf.createRun(config);
      try {
        c.loadWeights(bytes);
        assert.deepEqual(c.logits('the cat _ alive').data, m.logits('the cat _ alive').data);
      } finally {
        c.delete();
      }
    } finally {
      a.delete();
      b.delete();
      m.delete();
    }
  });

  test('draws the section A figures', () => {
    const pe = lab.tf.positionalEncoding({ positions: 16, dim: 32 });
    assert.deepEqual(pe.arrays.encoding.shape, [16, 32]);
    assert.deepEqual(pe.arrays.similarity.shape, [16, 16]);
    const w = lab.tf.attentionWalkthrough({ sentence: 'the cat sat on the mat', dModel: 16, dK: 8, heads: 4, seed: 1 });
    assert.deepEqual(w.arrays.weights.shape, [6, 6]);
    assert.deepEqual(w.arrays.heads.shape, [4, 6, 6]);
    assert.ok(w.values.rowSums.every((s) => Math.abs(s - 1) < 1e-5));
    assert.ok(w.values.permutationGap < 1e-5);
    assert.ok(w.values.fusedKernelGap < 1e-5);
    const e = lab.tf.entropyVsDk({ dims: [4, 64, 1024], queries: 64, keys: 32, seed: 1 });
    assert.deepEqual(e.arrays.dims.data, new Float32Array([4, 64, 1024]));
    assert.ok(Math.abs(e.values.uniform - Math.log(32)) < 1e-9);
    assert.ok(e.arrays.raw.data[2] < e.arrays.scaled.data[2], 'unscaled attention is sharper at d = 1024');
    assert.ok(lab.tf.feedForwardCheck({ seed: 1 }).values.perPositionGap < 1e-5);
    assert.ok(lab.tf.layerNormCheck({ seed: 1 }).values.gap < 1e-4);
    assert.equal(lab.tf.residualStream({ blocks: 3, seed: 1 }).values.updateNorms.length, 3);
    assert.equal(lab.tf.blockParameterEstimate(12, 768), 12 * 12 * 768 * 768);
  });
});
