// A TinyformerError nobody catches ends a Node program the way any error does: exit code 1 and a short
// report naming the error, its message and the caller's line, not emcc's minified glue (its handlers for
// uncaughtException / unhandledRejection used to rethrow from inside it, printing its 98 KB line).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

import { builds, wasmDir } from './support.mjs';

const wrapper = new URL('../../wasm/tinyformer.js', import.meta.url).href;

function uncaught(threads, failing) {
  const program = `import { loadTinyformer } from '${wrapper}';
const tf = await loadTinyformer({ threads: ${threads}, baseUrl: '${wasmDir.href}', poolSize: 2 });
${failing}`;
  return spawnSync(process.execPath, ['--input-type=module', '-e', program], { encoding: 'utf8' });
}

for (const build of builds) {
  test(`an uncaught TinyformerError prints its message, not the glue (${build.name} build)`, () => {
    const failings = [
      "tf.createRun({ task: 'nope' });",                                        // thrown at the top level
      "setTimeout(() => tf.createRun({ task: 'toy', lr: -1 }), 0);",            // uncaughtException
      "Promise.resolve().then(() => tf.createRun({ task: 'toy', lr: -1 }));",  // unhandledRejection
    ];
    for (const failing of failings) {
      const r = uncaught(build.threads, failing);
      assert.equal(r.status, 1, r.stderr.slice(0, 2000));
      assert.match(r.stderr, /TinyformerError: (unknown task 'nope'|lr must be in \(0, 10\), got -1)/);
      assert.ok(r.stderr.length < 3000, `stderr is ${r.stderr.length} bytes: ${r.stderr.slice(0, 300)}`);
      assert.doesNotMatch(r.stderr, /tinyformer-(st|mt)\.mjs/);
    }
  });
}
