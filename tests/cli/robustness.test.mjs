// The command line against hostile or unlucky input (issue 10's CLI defects) and signals: numbers out of
// range are refused rather than wrapped, a folder as --data is named, eval keeps the run's sequence length,
// info escapes control characters, a full disk under --log fails the run, --save replaces only regular
// files, and Ctrl-C / SIGTERM during train save the run atomically and exit 130.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = process.env.TINYFORMER_CLI ?? join(root, 'build', 'native', 'cli', 'tinyformer');
const dir = mkdtempSync(join(tmpdir(), 'tinyformer-cli-robust-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const toy = ['train', '--task', 'toy', '--threads', '1', '--no-eval'];

function run(...args) {
  const r = spawnSync(cli, args, { encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function infoJson(path) {
  const r = run('info', '--checkpoint', path, '--json');
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out);
}

// A copy of a checkpoint with one more metadata entry, written into the safetensors header directly.
function withMetadata(from, to, key, value) {
  const bytes = readFileSync(from);
  const headerLength = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + headerLength).toString('utf8'));
  header.__metadata__[key] = value;
  const text = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(text.length));
  writeFileSync(to, Buffer.concat([length, text, bytes.subarray(8 + headerLength)]));
}

// Starts a long toy run; resolves once `ready(stderr, logLines)` holds, then sends `signal`.
function interruptRun(args, log, signal, ready) {
  return new Promise((resolve, reject) => {
    const child = spawn(cli, [...toy, '--steps', '1000000', '--log', log, ...args]);
    let err = '';
    let sent = false;
    child.stderr.on('data', (d) => (err += d));
    const poll = setInterval(() => {
      const lines = existsSync(log) ? readFileSync(log, 'utf8').split('\n').length - 1 : 0;
      if (!sent && ready(err, lines)) {
        sent = true;
        child.kill(signal);
      }
    }, 50);
    const guard = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(poll);
      clearTimeout(guard);
      resolve({ code, err });
    });
  });
}

test('numbers that do not fit are usage errors, not wrapped around', () => {
  let r = run(...toy, '--threads', '4294967297');
  assert.equal(r.code, 2);
  assert.match(r.err, /--threads: needs a whole number in 1\.\.256, got '4294967297'/);
  r = run(...toy, '--threads', '300');  // the core's thread pool takes 256 at most: refused here, as usage
  assert.equal(r.code, 2);
  assert.match(r.err, /--threads: needs a whole number in 1\.\.256, got '300'/);
  r = run(...toy, '--steps', '99999999999999999999');
  assert.equal(r.code, 2);
  assert.match(r.err, /--steps: needs a whole number in 0\.\.100000000, got '99999999999999999999'/);
  r = run(...toy, '--seed', '-1');
  assert.equal(r.code, 2);
  assert.match(r.err, /--seed: needs a whole number in 0 or more/);
  r = run(...toy, '--lr', '1e999');
  assert.equal(r.code, 2);
  assert.match(r.err, /--lr: needs a number in 0\.\.10/);
});

test('a folder as --data is named in the error', () => {
  const r = run('train', '--task', 'stories', '--data', dir, '--steps', '1');
  assert.equal(r.code, 1);
  assert.ok(r.err.includes(`'${dir}' is a folder`), r.err);
});

test('eval uses the sequence length the run was trained with', () => {
  const ckpt = join(dir, 'short.safetensors');
  const small = ['--data', 'builtin', '--dim', '16', '--heads', '2', '--layers', '1', '--steps', '2'];
  let r = run('train', '--task', 'stories', ...small, '--max-length', '12', '--seq-len', '12', '--no-eval',
    '--save', ckpt);
  assert.equal(r.code, 0, r.err);
  r = run('eval', '--checkpoint', ckpt);
  assert.equal(r.code, 0, r.err);
  const ev = JSON.parse(r.out.trim().split('\n').pop());
  assert.equal(ev.seq_len, 12);
  assert.ok(Number.isFinite(ev.loss));
});

test('info escapes control characters from the metadata; --json keeps them as JSON escapes', () => {
  const plain = join(dir, 'plain.safetensors'), hostile = join(dir, 'hostile.safetensors');
  let r = run(...toy, '--steps', '1', '--save', plain);
  assert.equal(r.code, 0, r.err);
  const note = '\x1b[2J\rgone\u009b31m\ttab\nline';
  withMetadata(plain, hostile, 'note\x07', note);
  r = run('info', '--checkpoint', hostile);
  assert.equal(r.code, 0, r.err);
  assert.ok(r.out.includes('note\\x07'), r.out);
  assert.ok(r.out.includes('\\x1b[2J\\rgone\\u009b31m\\ttab\\nline'), r.out);
  const controls = /[\x00-\x09\x0b-\x1f\x7f\u0080-\u009f]/;
  assert.doesNotMatch(r.out, controls, 'the table and the JSON line');
  r = run('info', '--checkpoint', hostile, '--json');
  assert.doesNotMatch(r.out, controls);
  assert.equal(JSON.parse(r.out).metadata['note\x07'], note);
});

test('a log that cannot be written fails the run with the reason', { skip: !existsSync('/dev/full') }, () => {
  const r = run(...toy, '--steps', '5', '--log', '/dev/full');
  assert.equal(r.code, 1);
  assert.match(r.err, /cannot write the log file '\/dev\/full': No space left on device/);
});

test('--save replaces only a regular file or a new name, through a temporary file beside it', () => {
  const target = join(dir, 'target.bin'), link = join(dir, 'link.safetensors');
  writeFileSync(target, 'keep me');
  symlinkSync(target, link);
  let r = run(...toy, '--steps', '1', '--save', link);
  assert.equal(r.code, 2);
  assert.match(r.err, /--save: cannot write '.*link\.safetensors': it is a symbolic link/);
  assert.ok(lstatSync(link).isSymbolicLink());
  assert.equal(readFileSync(target, 'utf8'), 'keep me');
  r = run(...toy, '--steps', '1', '--save', '/dev/null');
  assert.equal(r.code, 2);
  assert.match(r.err, /it is not a regular file/);
  r = run(...toy, '--steps', '1', '--save', dir);
  assert.equal(r.code, 2);
  assert.match(r.err, /it is a folder/);

  const saves = mkdtempSync(join(dir, 'saves-'));
  r = run(...toy, '--steps', '3', '--checkpoint-every', '1', '--save', join(saves, 'run.safetensors'));
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(readdirSync(saves), ['run.safetensors']);
});

test('a save that fails half-way (a file-size limit, as a full disk) exits 1 and leaves no temporary file', () => {
  const saves = mkdtempSync(join(dir, 'full-'));
  const ckpt = join(saves, 'run.safetensors');
  const script = `trap '' XFSZ; ulimit -f 8; exec "$0" "$@"`;  // 8 KiB at most; EFBIG instead of SIGXFSZ
  const r = spawnSync('bash', ['-c', script, cli, ...toy, '--steps', '2', '--save', ckpt], { encoding: 'utf8' });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /cannot write '.*run\.safetensors': File too large/);
  assert.deepEqual(readdirSync(saves), []);
});

test('Ctrl-C during train saves the run, prints where, and exits 130; stderr gets plain progress lines',
  { timeout: 120_000 }, async () => {
    const runDir = mkdtempSync(join(dir, 'sigint-'));
    const ckpt = join(runDir, 'run.safetensors'), log = join(runDir, 'run.jsonl');
    // Without a terminal the progress is a plain line every 10 s: wait for the first, then interrupt.
    const r = await interruptRun(['--save', ckpt], log, 'SIGINT', (err) => /\ntrain \[[#.]+\] \d+\/1000000 step/.test(err));
    assert.equal(r.code, 130, r.err);
    assert.doesNotMatch(r.err, /\r/, 'no redraws without a terminal');
    assert.match(r.err, /tinyformer: stopping after this step\n/, 'the signal is acknowledged at once');
    const [, step] = r.err.match(/SIGINT at step (\d+): saved .*run\.safetensors/);
    assert.ok(Number(step) > 0);
    assert.equal(infoJson(ckpt).step, Number(step), 'the saved run is the one that was stopped');
    assert.equal(readFileSync(log, 'utf8').trim().split('\n').length, Number(step));
    assert.deepEqual(readdirSync(runDir).sort(), ['run.jsonl', 'run.safetensors'], 'no temporary file left');
  });

test('SIGTERM while checkpoints are written every step leaves one whole checkpoint and no temporary file',
  { timeout: 120_000 }, async () => {
    const runDir = mkdtempSync(join(dir, 'sigterm-'));
    const ckpt = join(runDir, 'run.safetensors'), log = join(runDir, 'run.jsonl');
    const r = await interruptRun(['--save', ckpt, '--checkpoint-every', '1'], log, 'SIGTERM', (_, lines) => lines >= 20);
    assert.equal(r.code, 130, r.err);
    const [, step] = r.err.match(/SIGTERM at step (\d+): saved/);
    assert.equal(infoJson(ckpt).step, Number(step));
    assert.deepEqual(readdirSync(runDir).sort(), ['run.jsonl', 'run.safetensors']);
  });

test('Ctrl-C without --save says nothing was kept and still exits 130', { timeout: 120_000 }, async () => {
  const log = join(mkdtempSync(join(dir, 'nosave-')), 'run.jsonl');
  const r = await interruptRun([], log, 'SIGINT', (_, lines) => lines >= 5);
  assert.equal(r.code, 130, r.err);
  assert.match(r.err, /SIGINT at step \d+: nothing saved \(no --save\)/);
});
