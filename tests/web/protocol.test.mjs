// The worker protocol's replies ({type, id, ok, result | error}), the buffers a reply moves instead of
// copying, and the one-parameter read the worker uses for course A2, on a real model of the module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';

import { Msg, MODEL_METHODS, reply, failure, transferables } from '../../web/shared/protocol.js';

test('a reply carries a result and a failure carries only the error message', () => {
  assert.deepEqual(reply(Msg.TRAIN, 7, { step: 3 }), { type: 'train', id: 7, ok: true, result: { step: 3 } });
  assert.deepEqual(failure(Msg.CALL, 8, new Error('bad input')), { type: 'call', id: 8, ok: false, error: 'bad input' });
  assert.equal(failure(Msg.CALL, 9, 'plain').error, 'plain');
  const refused = Object.assign(new Error('not saved'), { kind: 'skipped-step' });  // a TinyformerError's reason
  assert.deepEqual(failure(Msg.CHECKPOINT, 10, refused), { type: 'checkpoint', id: 10, ok: false, error: 'not saved', kind: 'skipped-step' });
});

test('message types are distinct and the page may call no method that deletes', () => {
  const types = Object.values(Msg);
  assert.equal(new Set(types).size, types.length);
  assert.ok(!MODEL_METHODS.includes('delete') && !MODEL_METHODS.includes('loadWeights'));
});

test('every array buffer of a result is listed once for transfer', () => {
  const a = new Float32Array(4), b = new Uint8Array(3);
  const list = transferables({ x: { data: a }, ys: [a, b], n: 1, s: 'text' });
  assert.equal(list.length, 2);
  assert.ok(list.includes(a.buffer) && list.includes(b.buffer));
});

const BUILDS = new URL('../../web/wasm/', import.meta.url);

test('the worker reads the token table of a real model of the module by name', { skip: !existsSync(new URL('tinyformer-st.wasm', BUILDS)) && 'run bash scripts/build-wasm.sh' }, async () => {
  const { loadTinyformer } = await import('../../wasm/tinyformer.js');
  const tf = await loadTinyformer({ threads: false, baseUrl: BUILDS });
  const run = tf.createRun({ task: 'toy', model: { dim: 8, heads: 1 } });
  try {
    const table = run.parameter('embed.weight');
    assert.deepEqual(table.shape, [14, 8]);
    assert.ok(table.data.some((v) => v !== 0));
    assert.throws(() => run.parameter('missing'), /no parameter 'missing'/);
  } finally {
    run.delete();
  }
});
