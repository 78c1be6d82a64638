// scripts/serve.mjs: the COOP/COEP headers that make the page cross-origin isolated (and none with
// --no-isolation), the npm files under vendor/ and the wasm wrapper from where they live, correct types for modules and wasm, nothing outside (no
// symlink out either), 400 for malformed URLs, error answers without internals, and a server process that
// stays up when a file cannot be opened or file handles run out (run as a child process to see it live).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { parseArgs, startServer } from '../../scripts/serve.mjs';
import { WRAPPER_FILES } from '../../scripts/wasm-files.mjs';

const SERVE = fileURLToPath(new URL('../../scripts/serve.mjs', import.meta.url));

function get(port, target) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: target, method: 'GET' }, (res) => {
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
  assert.match((await get(port, '/page/main.js')).headers['content-type'], /text\/javascript/);
}));

test('the page\'s wasm/ modules are the one wrapper in wasm/, even beside a stale copy in web/wasm/', async () => {
  const modules = WRAPPER_FILES.filter((name) => name.endsWith('.js'));
  assert.ok(modules.includes('tinyformer.js') && modules.includes('model.js'), modules.join(', '));
  const stale = new URL('../../web/wasm/tinyformer.js', import.meta.url);
  const hadCopy = existsSync(stale);
  mkdirSync(new URL('.', stale), { recursive: true });
  if (!hadCopy) writeFileSync(stale, '// an old copy\n');
  try {
    await withServer({}, async (port) => {
      for (const name of modules) {
        const r = await get(port, `/wasm/${name}`);
        assert.equal(r.status, 200, name);
        assert.match(r.headers['content-type'], /text\/javascript/);
        assert.equal(r.body, readFileSync(new URL(`../../wasm/${name}`, import.meta.url), 'utf8'));
      }
    });
  } finally {
    if (!hadCopy) rmSync(stale);
  }
});

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

// A temporary folder to serve: index.html, a file that links inside, and links that lead out of it.
async function withFolder(work) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tinyformer-serve-'));
  const outside = await mkdtemp(path.join(os.tmpdir(), 'tinyformer-outside-'));
  try {
    await chmod(dir, 0o755);
    await writeFile(path.join(dir, 'index.html'), '<title>served</title>');
    await writeFile(path.join(outside, 'secret.txt'), 'secret');
    await symlink(path.join(dir, 'index.html'), path.join(dir, 'inner.html'));
    await symlink(path.join(outside, 'secret.txt'), path.join(dir, 'secret.txt'));
    await symlink(outside, path.join(dir, 'out'));
    await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  }
}

// `node scripts/serve.mjs --dir DIR --port 0` as a child process (with a shell prefix such as a ulimit, and as
// another user when given one); resolves with its port once it listens.
function spawnServer(dir, { prefix = '', uid } = {}) {
  const child = spawn('bash', ['-c', `${prefix} exec "${process.execPath}" "${SERVE}" --port 0 --dir "${dir}"`],
    { stdio: ['ignore', 'pipe', 'pipe'], ...(uid === undefined ? {} : { uid, gid: uid }) });
  let output = '';
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const port = new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      output += d;
      const m = output.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) resolve(Number(m[1]));
    });
    child.stderr.on('data', (d) => (output += d));
    exited.then(({ code, signal }) => reject(new Error(`the server exited (${code ?? signal}): ${output}`)));
  });
  return { port, exited, output: () => output, stop: () => (child.kill(), exited) };
}

const running = (server) => Promise.race([server.exited.then(() => false), new Promise((r) => setTimeout(() => r(true), 200))]);

test('every answer says nosniff, errors included', () => withServer({}, async (port) => {
  for (const target of ['/', '/page/main.js', '/no-such-file.js', '/%zz']) {
    assert.equal((await get(port, target)).headers['x-content-type-options'], 'nosniff', target);
  }
}));

test('malformed URLs are answered 400 without internals', () => withServer({}, async (port) => {
  for (const target of ['/%zz', '/%E0%A4%A', '/index.html%00.js', '/%', '*']) {
    const r = await get(port, target);
    assert.equal(r.status, 400, target);
    assert.equal(r.body, '400 bad request\n', target);
  }
}));

test('vendor/ serves only its listed files: __proto__ and friends are 404 without internals', () => withServer({}, async (port) => {
  for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    const r = await get(port, `/vendor/${name}`);
    assert.equal(r.status, 404, name);
    assert.equal(r.body, '404 not found\n', name);
  }
}));

test('symlinks that lead out of the served folder are not followed; ones inside are', () => withFolder((dir) =>
  withServer({ dir }, async (port) => {
    assert.equal((await get(port, '/inner.html')).status, 200);
    for (const target of ['/secret.txt', '/out/secret.txt']) {
      const r = await get(port, target);
      assert.equal(r.status, 404, target);
      assert.doesNotMatch(r.body, /secret|tinyformer-/, target);
    }
  })));

test('a file the server cannot open is a 403 and the server stays up', () => withFolder(async (dir) => {
  await writeFile(path.join(dir, 'locked.js'), 'locked');
  await chmod(path.join(dir, 'locked.js'), 0o000);
  // root reads any file, so the server runs as nobody there
  const server = spawnServer(dir, { uid: process.getuid() === 0 ? 65534 : undefined });
  try {
    const port = await server.port;
    const r = await get(port, '/locked.js');
    assert.equal(r.status, 403);
    assert.doesNotMatch(r.body, /locked|EACCES|\//);
    assert.ok(await running(server), `the server died: ${server.output()}`);
    assert.equal((await get(port, '/index.html')).status, 200);
  } finally {
    await server.stop();
  }
}));

// Requests that hold their file open (the client reads nothing until all have answered).
function holdOpen(port, target, count) {
  return Promise.all(Array.from({ length: count }, () => new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: target, agent: false }, (res) => {
      res.pause();
      resolve({ status: res.statusCode, res });
    });
    req.on('error', (error) => resolve({ status: error.code }));
    req.end();
  })));
}

test('when file handles run out the server answers 503 and stays up', () => withFolder(async (dir) => {
  await writeFile(path.join(dir, 'big.bin'), Buffer.alloc(8 << 20, 7));
  const server = spawnServer(dir, { prefix: 'ulimit -n 48;' });
  try {
    const port = await server.port;
    const first = await holdOpen(port, '/big.bin', 4);
    assert.deepEqual(first.map((a) => a.status), [200, 200, 200, 200]);
    const answers = [...first, ...(await holdOpen(port, '/big.bin', 120))];
    const statuses = answers.map((a) => a.status);
    assert.ok(statuses.includes(503), `no request ran out of handles: ${statuses.join(' ')}`);
    for (const s of statuses) assert.ok([200, 503, 'ECONNRESET'].includes(s), `unexpected ${s}`);
    for (const a of answers) if (a.res) a.res.destroy();
    assert.ok(await running(server), `the server died: ${server.output()}`);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await get(port, '/index.html')).status, 200);
  } finally {
    await server.stop();
  }
}));
