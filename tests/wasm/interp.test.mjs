// The logit lens and activation patching through the module, on both builds: shapes and words, the lens's
// last row equal to the model's own probabilities, a patch of every difference restoring the clean
// probability, the sorter's heads per output step, and readable errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { describeBuilds } from './support.mjs';

describeBuilds('logit lens and patching', (lab) => {
  test('the lens of a toy model: a row per block input and the last block output, the last the model\'s own', () => {
    const run = lab.tf.createRun({ task: 'toy', seed: 3 });
    try {
      run.train(40);
      const lens = run.logitLens('the cat is alive', { masked: [1], top: 14 });
      assert.deepEqual(lens.words, ['the', 'cat', 'is', 'alive']);
      assert.deepEqual(lens.input, ['the', '_', 'is', 'alive']);
      assert.deepEqual(lens.targets, ['the', 'cat', 'is', 'alive']);
      assert.deepEqual(lens.probs.shape, [2, 4, 14]);
      assert.deepEqual(lens.targetProb.shape, [2, 4]);
      assert.equal(lens.topWords.length, 2);
      const own = run.probabilities('the _ is alive');  // [4, 14], the model's own guess
      const vocab = run.vocabulary;
      for (let t = 0; t < 4; ++t) {
        for (let k = 0; k < 14; ++k) {
          const id = vocab.indexOf(lens.topWords[1][t][k]);
          assert.ok(Math.abs(lens.probs.data[(4 + t) * 14 + k] - own.data[t * 14 + id]) < 1e-6);
        }
        const target = lens.targetProb.data[4 + t];
        assert.ok(Math.abs(target - own.data[t * 14 + vocab.indexOf(lens.targets[t])]) < 1e-6);
        assert.equal(lens.targetRank[1][t], Array.from(lens.probs.data.slice((4 + t) * 14, (5 + t) * 14)).filter((p) => p > target).length);
      }
      assert.throws(() => run.logitLens('the cat', { masked: [5] }), /masked position 5/);
    } finally {
      run.delete();
    }
  });

  test('patching a toy model: the grids, and the embedding that differs restoring the clean answer', () => {
    const run = lab.tf.createRun({ task: 'toy', seed: 4 });
    try {
      run.train(40);
      const p = run.patching({ clean: 'the cat is _', corrupted: 'the box is _' });
      assert.deepEqual(p.tokens, ['the', 'cat', 'is', '_']);
      assert.equal(p.position, 3);
      const own = run.probabilities('the cat is _');
      assert.equal(p.target, run.vocabulary[own.data.slice(42, 56).indexOf(Math.max(...own.data.slice(42, 56)))]);
      assert.ok(Math.abs(p.clean - own.data[42 + run.vocabulary.indexOf(p.target)]) < 1e-6);
      assert.deepEqual(p.heads.shape, [1, 1]);
      assert.deepEqual(p.residuals.shape, [1, 4]);
      assert.deepEqual(p.headsRestored.shape, [1, 1]);
      assert.equal(p.residuals.data[1], p.clean, 'the only word that differs, patched in, is the clean run');
      assert.equal(p.residuals.data[0], p.corrupted, 'a word both share changes nothing');
      const chosen = run.patching({ clean: 'the cat is _', corrupted: 'the box is _', position: 1, target: 'cat' });
      assert.equal(chosen.target, 'cat');
      assert.equal(chosen.position, 1);
      assert.throws(() => run.patching({ clean: 'the cat is _', corrupted: 'the box is _', target: 'dog' }), /'dog' is not a word/);
      assert.throws(() => run.patching({ clean: 'the cat is _', corrupted: 'the box _' }), /the same length/);
    } finally {
      run.delete();
    }
  });

  test('patching the sorter: every cross-attention head, per output step', () => {
    const run = lab.tf.createRun({ task: 'sort', batch: 16, model: { dim: 16, heads: 2, encoderLayers: 1, decoderLayers: 2 } });
    try {
      run.train(3);
      const p = run.sorterPatching('7 2 9 0 4 4 1 8 3 6', [7, 2, 5, 0, 4, 4, 1, 8, 3, 6]);
      assert.deepEqual(p.answer, run.sortDigits('7 2 9 0 4 4 1 8 3 6').output);
      assert.equal(p.clean.length, 10);
      assert.equal(p.corrupted.length, 10);
      assert.deepEqual(p.heads.shape, [2, 2, 10]);
      assert.deepEqual(p.headsRestored.shape, [2, 2, 10]);
      assert.throws(() => run.patching({ clean: [1, 2], corrupted: [3, 4] }), /needs a transformer model/);
      assert.throws(() => run.logitLens([1, 2]), /needs a transformer model/);
    } finally {
      run.delete();
    }
  });
});
