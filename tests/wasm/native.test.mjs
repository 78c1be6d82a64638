// wasm against the native build (the CLI): the same seed gives the same first 20 losses, a checkpoint the
// CLI wrote loads in wasm with the same network outputs, and one wasm wrote loads in the CLI. Against the
// native build's best kernels (AVX-512 / AVX2 with FMA) losses agree within 1e-5 relative; against its SSE4.1
// kernels, the ones wasm runs, bitwise: wasm/README.md says why. Skipped when the CLI has not been built.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { builds, load, native, noNative, scratchDir } from './support.mjs';

const kRelative = 1e-5;

function nativeLosses(dir, extra = [], env = {}) {
  const log = join(dir, `log-${Math.random().toString(36).slice(2)}.jsonl`);
  native(['train', '--task', 'toy', '--model', 'transformer', '--steps', '20', '--log', log, '--seed', '7', '--no-eval', ...extra], env);
  return readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l).loss);
}

function assertClose(actual, expected, what) {
  assert.equal(actual.length, expected.length);
  for (let i = 0; i < expected.length; ++i) {
    const rel = Math.abs(actual[i] - expected[i]) / Math.max(Math.abs(expected[i]), 1e-12);
    assert.ok(rel <= kRelative, `${what} ${i}: wasm ${actual[i]} native ${expected[i]} (relative ${rel.toExponential(2)})`);
  }
}

function guessesOf(g) {
  return g.prompts.flatMap((p) => p.network);
}

describe('wasm against the native build', { skip: noNative }, () => {
  let dir;
  let expected;
  let expectedSse41;
  before(() => {
    dir = scratchDir();
    expected = nativeLosses(dir);
    expectedSse41 = nativeLosses(dir, [], { TF_CPU_ISA: 'sse4.1' });
  });

  for (const build of builds) {
    test(`the same seed gives the same first 20 losses (${build.name} build)`, async (t) => {
      const tf = await load(build.threads);
      const run = tf.createRun({ task: 'toy', seed: 7, steps: 20 });
      try {
        const losses = Array.from(run.train(20).losses);
        assertClose(losses, expected, 'loss');
        const identical = losses.filter((x, i) => Math.fround(expected[i]) === x).length;
        t.diagnostic(`${identical} of 20 losses bitwise equal to the native build's (its best instruction set)`);
        // The same kernels as wasm's (xsimd's SSE4.1 path, no FMA) run natively give the same bits in the
        // single-threaded build; the pthreads build differs in the last bit of a few (wasm/README.md).
        if (build.threads) assertClose(losses, expectedSse41, 'loss (native SSE4.1)');
        else assert.deepEqual(losses, expectedSse41.map(Math.fround), 'bitwise equal to native with TF_CPU_ISA=sse4.1');
      } finally {
        run.delete();
      }
    });
  }

  test('a checkpoint written by the CLI loads in wasm with the same outputs, and back', async () => {
    const tf = await load(false);
    const path = join(dir, 'native.safetensors');
    native(['train', '--task', 'toy', '--model', 'transformer', '--steps', '30', '--seed', '3', '--no-eval', '--save', path]);
    const nativeEval = JSON.parse(native(['eval', '--checkpoint', path, '--seed', '5']).trim().split('\n').pop());
    const model = tf.loadModel(readFileSync(path));
    try {
      assert.equal(tf.inspectCheckpoint(readFileSync(path)).step, 30);
      const ours = guessesOf(model.toyGuesses());
      const theirs = guessesOf(nativeEval.evaluation.guesses_at_position_2);
      assert.equal(ours.length, 42);
      for (let i = 0; i < ours.length; ++i) assert.ok(Math.abs(ours[i] - theirs[i]) <= 1e-6, `probability ${i}: ${ours[i]} vs ${theirs[i]}`);

      // And back: a run trained in wasm, resumed natively for a few more steps and read by `info`.
      const run = tf.createRun({ task: 'toy', seed: 4, model: { dim: 16, heads: 2 } });
      try {
        run.train(10);
        const back = join(dir, 'wasm.safetensors');
        writeFileSync(back, run.checkpoint());
        const info = JSON.parse(native(['info', '--checkpoint', back]).trim().split('\n').pop());
        assert.equal(info.step, 10);
        assert.equal(info.config.dim, 16);
        assert.equal(info.optimizer_state, true);
        const evalBack = JSON.parse(native(['eval', '--checkpoint', back, '--seed', '5']).trim().split('\n').pop());
        const wasmGuesses = guessesOf(run.toyGuesses());
        const nativeGuesses = guessesOf(evalBack.evaluation.guesses_at_position_2);
        for (let i = 0; i < wasmGuesses.length; ++i) assert.ok(Math.abs(wasmGuesses[i] - nativeGuesses[i]) <= 1e-6);
        const log = join(dir, 'resumed.jsonl');
        native(['train', '--resume', back, '--steps', '15', '--log', log, '--no-eval']);
        const resumed = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l).loss);
        assertClose(resumed, Array.from(run.train(5).losses), 'resumed loss');
      } finally {
        run.delete();
      }
    } finally {
      model.delete();
    }
  });
});
