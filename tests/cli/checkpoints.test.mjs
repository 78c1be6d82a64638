// Hostile and mismatched checkpoints on the command line (issue 10): each is refused at once with exit 1
// and a one-line error naming what is wrong — never a crash, a raw library message or a silent resume.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = process.env.TINYFORMER_CLI ?? join(root, 'build', 'native', 'cli', 'tinyformer');
const dir = mkdtempSync(join(tmpdir(), 'tinyformer-ckpt-'));

function run(...args) {
  const started = Date.now();
  const r = spawnSync(cli, args, { encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, signal: r.signal, out: r.stdout, err: r.stderr, seconds: (Date.now() - started) / 1000 };
}

// A safetensors file as {header, data}, and back (the tests edit metadata and tensor names).
function readFile(path) {
  const bytes = readFileSync(path);
  const n = Number(bytes.readBigUInt64LE(0));
  return { header: JSON.parse(bytes.subarray(8, 8 + n).toString('utf8')), data: bytes.subarray(8 + n) };
}
function writeFile(path, { header, data }) {
  const text = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(text.length));
  writeFileSync(path, Buffer.concat([length, text, data]));
}
function edited(from, to, edit) {
  const file = readFile(from);
  edit(file.header, file.header.__metadata__);
  writeFile(to, file);
  return to;
}
// Drops tensors by name, keeping the data section exactly covered.
function withoutTensors(file, drop) {
  const kept = Object.entries(file.header).filter(([name]) => name === '__metadata__' || !drop(name));
  const header = {};
  const parts = [];
  let at = 0;
  for (const [name, entry] of kept) {
    if (name === '__metadata__') { header[name] = entry; continue; }
    const [b, e] = entry.data_offsets;
    parts.push(file.data.subarray(b, e));
    header[name] = { ...entry, data_offsets: [at, at + e - b] };
    at += e - b;
  }
  return { header, data: Buffer.concat(parts) };
}

// A bad file is a failure, not a usage error: exit 1 (README: the command line's exit status).
function refused(r, pattern) {
  assert.equal(r.signal, null, `no crash (${r.signal})`);
  assert.equal(r.code, 1, r.err);
  assert.match(r.err, pattern);
  assert.doesNotMatch(r.err, /json\.exception|map::at|basic_filebuf|bad_alloc/);
}

const sortRun = join(dir, 'sort.safetensors');
const toyRun = join(dir, 'toy.safetensors');

test('setup: a small sort run and a small toy run', () => {
  let r = run('train', '--task', 'sort', '--steps', '3', '--batch', '8', '--save', sortRun, '--no-eval');
  assert.equal(r.code, 0, r.err);
  r = run('train', '--task', 'toy', '--steps', '3', '--batch', '8', '--save', toyRun, '--no-eval');
  assert.equal(r.code, 0, r.err);
  const names = Object.keys(readFile(toyRun).header);
  assert.ok(names.includes('optim.steps') && !names.some((n) => n.startsWith('optim.optim.')), 'one optim. prefix');
});

test('a small file asking for a billion parameters fails at once', () => {
  const big = edited(toyRun, join(dir, 'big.safetensors'), (h, meta) => {
    meta['tinyformer.config'] = JSON.stringify({ ...JSON.parse(meta['tinyformer.config']), vocab: 1000000, dim: 1024 });
  });
  for (const cmd of ['info', 'eval', 'write']) {
    const r = run(cmd, '--checkpoint', big);
    refused(r, /more than Tinyformer's limit of 100000000/);
    assert.ok(r.seconds < 5, `${cmd} took ${r.seconds} s`);
  }
});

test('/dev/zero and a directory are refused before reading', () => {
  refused(run('info', '--checkpoint', '/dev/zero'), /'\/dev\/zero'.*device, not a file/);
  refused(run('eval', '--checkpoint', dir), /is a directory/);
});

test('a training config nested tens of thousands deep is a clear error, not a stack overflow', () => {
  const deep = edited(toyRun, join(dir, 'deep.safetensors'), (h, meta) => {
    meta['tinyformer.train'] = `{"task":"toy","model":${'['.repeat(50000)}${']'.repeat(50000)}}`;
  });
  refused(run('train', '--resume', deep, '--no-eval'), /training config nests deeper than 16 levels/);
});

test('config fields of the wrong type name the file and the field', () => {
  const odd = edited(toyRun, join(dir, 'odd.safetensors'), (h, meta) => {
    meta['tinyformer.train'] = JSON.stringify({ ...JSON.parse(meta['tinyformer.train']), batch: 31.5 });
  });
  refused(run('train', '--resume', odd, '--no-eval'), /odd\.safetensors'.*training config field 'batch' has the wrong type: must be an integer, got 31\.5/);
  const huge = edited(toyRun, join(dir, 'huge.safetensors'), (h, meta) => {
    meta['tinyformer.config'] = meta['tinyformer.config'].replace('"dim":32', '"dim":1e300');
  });
  refused(run('info', '--checkpoint', huge), /model config field 'dim' has the wrong type: must be an integer/);
});

test('a weights-only file given to --resume says so', () => {
  const file = withoutTensors(readFile(toyRun), (name) => name.startsWith('optim.'));
  delete file.header.__metadata__['tinyformer.train'];
  const weights = join(dir, 'weights.safetensors');
  writeFile(weights, file);
  refused(run('train', '--resume', weights, '--no-eval'), /holds weights only/);
  const info = run('info', '--checkpoint', weights);
  assert.equal(info.code, 0, info.err);
  assert.match(info.out, /task +toy \(weights only\)/);
});

test('resuming as another task is refused', () => {
  refused(run('train', '--task', 'stories', '--resume', sortRun, '--no-eval'), /this checkpoint is a sort run; it cannot be resumed as a stories run/);
  const r = run('train', '--task', 'sort', '--resume', sortRun, '--steps', '4', '--no-eval');
  assert.equal(r.code, 0, r.err);
});

test('a vocabulary whose length disagrees with the config is refused by info', () => {
  const v = edited(toyRun, join(dir, 'vocab.safetensors'), (h, meta) => {
    meta['tinyformer.vocab'] = JSON.stringify(['a', 'b']);
  });
  refused(run('info', '--checkpoint', v), /vocabulary has 2 entries but the model config says vocab 14/);
});

test('info shows control characters in metadata escaped', () => {
  const c = edited(toyRun, join(dir, 'ctrl.safetensors'), (h, meta) => {
    meta.note = 'bell\u0007 and escape\u001b[2J';
  });
  const r = run('info', '--checkpoint', c);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /bell\\x07 and escape\\x1b\[2J/);
  assert.doesNotMatch(r.out, /[\u0007\u001b]/);
});
