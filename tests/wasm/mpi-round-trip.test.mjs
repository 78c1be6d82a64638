// From the JS API to a cluster and back (issue 24): a story run trained through the wasm module continues
// under `mpirun -np 2 tinyformer train --resume` on the same text, with the losses the wasm run would have
// had (within 1e-5 relative); the JS API then loads what the ranks saved and writes a story with it.
// Skipped without the native CLI or mpirun.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { load, nativeCli, noNative, scratchDir } from './support.mjs';

const haveMpirun = spawnSync('mpirun', ['--version']).status === 0;
const skip = noNative || (haveMpirun ? false : 'no mpirun (scripts/setup.sh test installs Open MPI)');

function mpirun(ranks, args) {
  const root = process.getuid?.() === 0 ? ['--allow-run-as-root'] : [];
  const r = spawnSync('mpirun', [...root, '--oversubscribe', '--bind-to', 'none', '-np', String(ranks), nativeCli, ...args],
    { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  return r;
}

test('a run trained in wasm continues on 2 ranks under mpirun, and wasm writes with the result', { skip }, async (t) => {
  const tf = await load(false);
  const dir = scratchDir();
  const text = { train: tf.builtinStories(1, 400_000), valid: tf.builtinStories(2, 40_000) };
  const config = { task: 'stories', seed: 5, batch: 8, seqLen: 16, steps: 20, model: { dim: 32, heads: 2, layers: 1 } };
  const run = tf.createRun(config, text);
  let expected;
  try {
    run.train(10);
    writeFileSync(join(dir, 'page.safetensors'), run.checkpoint());
    expected = Array.from(run.train(10).losses);  // what the run does next, in wasm
  } finally {
    run.delete();
  }
  writeFileSync(join(dir, 'train.txt'), text.train);
  writeFileSync(join(dir, 'valid.txt'), text.valid);

  const log = join(dir, 'cluster.jsonl'), back = join(dir, 'cluster.safetensors');
  mpirun(2, ['train', '--resume', join(dir, 'page.safetensors'), '--data', join(dir, 'train.txt'), '--valid',
    join(dir, 'valid.txt'), '--steps', '20', '--threads', '1', '--no-eval', '--log', log, '--save', back]);
  const losses = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l).loss);
  assert.equal(losses.length, 10);
  let worst = 0;
  for (let i = 0; i < 10; ++i) {
    const rel = Math.abs(losses[i] - expected[i]) / expected[i];
    assert.ok(rel <= 1e-5, `step ${11 + i}: ranks ${losses[i]}, wasm ${expected[i]} (relative ${rel.toExponential(2)})`);
    worst = Math.max(worst, rel);
  }
  t.diagnostic(`losses on 2 ranks against wasm's: worst relative difference ${worst.toExponential(2)}`);

  const bytes = readFileSync(back);
  assert.equal(tf.inspectCheckpoint(bytes).step, 20);
  const model = tf.loadModel(bytes);
  try {
    const { stories } = model.write({ prompt: 'once upon a time', length: 16, count: 1, seed: 3 });
    assert.equal(stories.length, 1);
    assert.match(stories[0].text, /^once upon a time \S+/);
  } finally {
    model.delete();
  }
});
