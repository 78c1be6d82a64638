// web/serve.mjs: the COOP/COEP headers that make the page cross-origin isolated (and none with
// --no-isolation), the npm files under vendor/, correct types for modules and wasm, nothing outside.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';

import { parseArgs, startServer } from '../../web/serve.mjs';

function get(port, path) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function withServer(options, work) {
  const server = await startServer({ ...parseArgs([]), port: 0, ...options });
  try {
    await work(server.address().port);
  } finally {
    await new Promise((r) => server.close(r));
  }
}

test('the page is served with COOP/COEP headers by default', () => withServer({}, async (port) => {
  const r = await get(port, '/');
  assert.equal(r.status, 200);
  assert.equal(r.headers['cross-origin-opener-policy'], 'same-origin');
  assert.equal(r.headers['cross-origin-embedder-policy'], 'require-corp');
  assert.match(r.headers['content-type'], /text\/html/);
  assert.match(r.body, /Tinyformer lab/);
}));

test('--no-isolation leaves the isolation headers out', () => withServer(parseArgs(['--no-isolation']), async (port) => {
  const r = await get(port, '/index.html');
  assert.equal(r.status, 200);
  assert.equal(r.headers['cross-origin-opener-policy'], undefined);
  assert.equal(r.headers['cross-origin-embedder-policy'], undefined);
}));

test('vendor files come from node_modules, modules as JavaScript', () => withServer({}, async (port) => {
  const r = await get(port, '/vendor/uPlot.esm.js');
  assert.equal(r.status, 200);
  assert.match(r.headers['content-type'], /text\/javascript/);
  assert.match(r.body, /export/);
  assert.match((await get(port, '/main.js')).headers['content-type'], /text\/javascript/);
}));

test('paths outside the page folder are not served', () => withServer({}, async (port) => {
  assert.equal((await get(port, '/../package.json')).status, 404);
  assert.equal((await get(port, '/%2e%2e/package.json')).status, 404);
  assert.equal((await get(port, '/no-such-file.js')).status, 404);
}));

test('bad arguments are refused with a message', () => {
  assert.throws(() => parseArgs(['--port', 'x']), /--port needs a number/);
  assert.throws(() => parseArgs(['--frobnicate']), /unknown argument --frobnicate/);
  assert.equal(parseArgs(['--port', '9000']).port, 9000);
});
