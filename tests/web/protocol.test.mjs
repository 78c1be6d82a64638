// The worker protocol's replies ({type, id, ok, result | error}), the buffers a reply moves instead of
// copying, and the one-parameter read the worker uses for course A2, on a real model of the module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';

import { Msg, MODEL_METHODS, reply, failure, transferables } from '../../web/protocol.js';
import { firstNonFinite, readTensor } from '../../web/safetensors.js';

test('a reply carries a result and a failure carries only the error message', () => {
  assert.deepEqual(reply(Msg.TRAIN, 7, { step: 3 }), { type: 'train', id: 7, ok: true, result: { step: 3 } });
  assert.deepEqual(failure(Msg.CALL, 8, new Error('bad input')), { type: 'call', id: 8, ok: false, error: 'bad input' });
  assert.equal(failure(Msg.CALL, 9, 'plain').error, 'plain');
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

function safetensors(tensors) {
  let offset = 0;
  const header = {};
  for (const [name, values, shape] of tensors) {
    header[name] = { dtype: 'F32', shape, data_offsets: [offset, offset + values.length * 4] };
    offset += values.length * 4;
  }
  const json = new TextEncoder().encode(JSON.stringify(header));
  const bytes = new Uint8Array(8 + json.length + offset);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(json.length), true);
  bytes.set(json, 8);
  let at = 8 + json.length;
  for (const [, values] of tensors) {
    bytes.set(new Uint8Array(Float32Array.from(values).buffer), at);
    at += values.length * 4;
  }
  return bytes;
}

test('the safetensors reader finds a tensor by name, with its shape', () => {
  const bytes = safetensors([['a', [1, 2], [2]], ['embed.weight', [1, 2, 3, 4, 5, 6], [3, 2]]]);
  const t = readTensor(bytes, 'embed.weight');
  assert.deepEqual(t.shape, [3, 2]);
  assert.deepEqual(Array.from(t.data), [1, 2, 3, 4, 5, 6]);
  assert.throws(() => readTensor(bytes, 'missing'), /no tensor missing/);
  assert.throws(() => readTensor(new Uint8Array(16), 'a'), /not a safetensors file/);
});

test('a checkpoint with a NaN or an infinity anywhere names its first such tensor', () => {
  assert.equal(firstNonFinite(safetensors([['a', [1, -2], [2]], ['b', [3.4e38, 0], [2]]])), null);
  assert.equal(firstNonFinite(safetensors([['a', [1, 2], [2]], ['b', [0, NaN, 1], [3]]])), 'b');
  assert.equal(firstNonFinite(safetensors([['a', [Infinity], [1]], ['b', [NaN], [1]]])), 'a');
  assert.equal(firstNonFinite(safetensors([['a', [1, 2, 3], [3]], ['w', [4, -Infinity], [2]]])), 'w');
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
