// Shared by the node --test files: where the builds and the native CLI are, loading either build (and a
// describe block per build that checks for leaked handles), and a few array helpers. The builds come from scripts/build-wasm.sh (web/wasm/, or $TINYFORMER_WASM_DIR).
import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { loadTinyformer, TinyformerError } from '../../wasm/tinyformer.js';

export const root = new URL('../../', import.meta.url);
export const wasmDir = process.env.TINYFORMER_WASM_DIR
  ? pathToFileURL(process.env.TINYFORMER_WASM_DIR.replace(/\/?$/, '/'))
  : new URL('web/wasm/', root);

// Both builds, by name, for tests that run on each ($TINYFORMER_BUILDS=st or mt picks one).
export const builds = [
  { name: 'single-threaded', key: 'st', threads: false },
  { name: 'threaded', key: 'mt', threads: true },
].filter((b) => !process.env.TINYFORMER_BUILDS || process.env.TINYFORMER_BUILDS.split(',').includes(b.key));

export function load(threads) {
  return loadTinyformer({ threads, baseUrl: wasmDir, poolSize: 2 });
}

// Each build in a describe block of its own (`${title} (single-threaded build)`), its module loaded before
// the tests: `lab.tf`, with `lab.build` and `lab.baseline`, the live handles before the tests; after them
// every handle they made must have been deleted.
export function describeBuilds(title, body) {
  for (const build of builds) {
    describe(`${title} (${build.name} build)`, () => {
      const lab = { build, tf: null, baseline: 0 };
      before(async () => {
        lab.tf = await load(build.threads);
        lab.baseline = lab.tf.liveHandles();
      });
      after(() => assert.equal(lab.tf.liveHandles(), lab.baseline, 'every handle was deleted'));
      body(lab);
    });
  }
}

// The native CLI (built by `cmake -S . -B build/native -G Ninja && ninja -C build/native tinyformer`).
export const nativeCli = process.env.TINYFORMER_CLI ?? fileURLToPath(new URL('build/native/cli/tinyformer', root));
export const haveNative = existsSync(nativeCli);
export const noNative = haveNative ? false : `no native CLI at ${nativeCli} (build it, or set TINYFORMER_CLI)`;

export function native(args, env = {}) {
  return execFileSync(nativeCli, args, { encoding: 'utf8', env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

// fn() throws a TinyformerError whose message matches `pattern` and holds no library text.
export function throwsTf(fn, pattern) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof TinyformerError, `expected a TinyformerError, got ${e?.constructor?.name}: ${e?.message}`);
    assert.match(e.message, pattern);
    assert.doesNotMatch(e.message, /json\.exception|map::at/);
    return true;
  });
}

export function scratchDir() {
  return mkdtempSync(join(tmpdir(), 'tinyformer-wasm-'));
}

export function maxAbsDiff(a, b) {
  let m = 0;
  for (let i = 0; i < a.length; ++i) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

export function mean(xs) {
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

// Row r of a [rows, cols] array.
export function row(t, r) {
  const cols = t.shape[t.shape.length - 1];
  return t.data.subarray(r * cols, (r + 1) * cols);
}

// A copy of the checkpoint with number `index` of the float32 tensor `name` (by default its first parameter's
// first number) replaced by `value`: a hostile or diverged file made by hand.
export function withValue(bytes, value, name = null, index = 0) {
  const copy = new Uint8Array(bytes);
  const view = new DataView(copy.buffer);
  const headerLength = Number(view.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(copy.subarray(8, 8 + headerLength)));
  name ??= Object.keys(header).find((n) => n !== '__metadata__' && !n.startsWith('optim.'));
  view.setFloat32(8 + headerLength + header[name].data_offsets[0] + 4 * index, value, true);
  return copy;
}

export const poisoned = (bytes) => withValue(bytes, NaN);

// fn(...runs), one run per config made by tf.createRun; each run is deleted afterwards, however fn ends.
export async function withRuns(tf, configs, fn) {
  const runs = [];
  try {
    for (const config of configs) runs.push(tf.createRun(config));
    return await fn(...runs);
  } finally {
    for (const run of runs) run.delete();
  }
}
