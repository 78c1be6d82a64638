// The native command line end to end: every subcommand on small runs, resuming, and clear errors: exit 2
// for a bad command line, 1 for a file or run that fails. Runs build/native/cli/tinyformer (built by
// `npm test`); help.test.mjs covers the help and exits, robustness.test.mjs hostile input and signals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = process.env.TINYFORMER_CLI ?? join(root, 'build', 'native', 'cli', 'tinyformer');
const dir = mkdtempSync(join(tmpdir(), 'tinyformer-cli-'));

function run(...args) {
  const r = spawnSync(cli, args, { encoding: 'utf8', timeout: 300_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function lastJson(out) {
  const lines = out.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}

test('no command prints the usage and fails', () => {
  const r = run();
  assert.equal(r.code, 2);
  assert.match(r.err, /Usage: tinyformer/);
});

test('bad options are named in a clear error', () => {
  let r = run('train', '--task', 'toy', '--stepz', '3');
  assert.equal(r.code, 2);
  assert.match(r.err, /unknown option --stepz/);
  r = run('train', '--task', 'toy', '--steps', 'ten');
  assert.equal(r.code, 2);
  assert.match(r.err, /--steps: needs a whole number/);
  r = run('train', '--task', 'poetry');
  assert.equal(r.code, 2);
  assert.match(r.err, /unknown task 'poetry'/);
  r = run('train', '--task', 'stories', '--data', join(dir, 'missing.txt'), '--steps', '1');
  assert.equal(r.code, 1, 'a file that cannot be read is a runtime failure');
  assert.match(r.err, /missing\.txt/);
  r = run('train', '--task', 'toy', '--device', 'tpu');
  assert.equal(r.code, 2);
  assert.match(r.err, /unknown device 'tpu'/);
});

test('toy: train, log, save, info, resume, eval, write', () => {
  const ckpt = join(dir, 'toy.safetensors'), log = join(dir, 'toy.jsonl');
  let r = run('train', '--task', 'toy', '--steps', '60', '--seed', '2', '--save', ckpt, '--log', log, '--no-eval');
  assert.equal(r.code, 0, r.err);
  const result = lastJson(r.out);
  assert.equal(result.steps, 60);
  assert.ok(Number.isFinite(result.final_loss));
  assert.ok(result.tokens_per_s > 0);
  assert.doesNotMatch(r.err, /\r/, 'no progress bar redraws when stderr is not a terminal');
  const lines = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines.length, 60);
  assert.deepEqual(Object.keys(lines[0]).sort(), ['loss', 'lr', 'step', 'tokens_per_s']);

  r = run('info', '--checkpoint', ckpt);
  assert.equal(r.code, 0, r.err);
  assert.equal(lastJson(r.out).step, 60);
  assert.match(r.out, /blocks\.0\.attention\.qkv\.weight/);
  r = run('info', '--checkpoint', ckpt, '--json');
  assert.equal(r.code, 0, r.err);
  const infoLines = r.out.trim().split('\n');
  assert.equal(infoLines.length, 1, 'with --json, only JSON on stdout');
  assert.equal(JSON.parse(infoLines[0]).step, 60);
  assert.equal(typeof JSON.parse(infoLines[0]).metadata, 'object');

  r = run('train', '--resume', ckpt, '--steps', '80', '--save', ckpt, '--no-eval');
  assert.equal(r.code, 0, r.err);
  assert.equal(lastJson(r.out).steps, 80);

  r = run('eval', '--checkpoint', ckpt, '--batches', '5');
  assert.equal(r.code, 0, r.err);
  const ev = lastJson(r.out);
  assert.equal(ev.task, 'toy');
  assert.ok(ev.evaluation.undiffuse.sentences === 1000);

  r = run('write', '--checkpoint', ckpt, '--prompt', 'the _ is', '--length', '4', '--count', '3');
  assert.equal(r.code, 0, r.err);
  const w = lastJson(r.out);
  assert.equal(w.stories.length, 3);
  for (const s of w.stories) assert.match(s.text, /^the \S+ is \S+$/);
  r = run('write', '--checkpoint', ckpt, '--prompt', 'the _ is', '--length', '4', '--count', '2', '--json');
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out.trim().split('\n').length, 1, 'with --json, only JSON on stdout');
  assert.equal(JSON.parse(r.out).stories.length, 2);
});

test('a corrupt checkpoint is a clear error', () => {
  const bad = join(dir, 'bad.safetensors');
  writeFileSync(bad, Buffer.from('not a checkpoint at all'));
  const r = run('info', '--checkpoint', bad);
  assert.equal(r.code, 1);
  assert.match(r.err, /error: .*bad\.safetensors/);
});

test('sort: train a little and sort ten digits', () => {
  const ckpt = join(dir, 'sort.safetensors');
  let r = run('train', '--task', 'sort', '--steps', '20', '--batch', '32', '--save', ckpt, '--no-eval');
  assert.equal(r.code, 0, r.err);
  r = run('write', '--checkpoint', ckpt, '--input', '7 2 9 0 4 4 1 8 3 6');
  assert.equal(r.code, 0, r.err);
  assert.equal(lastJson(r.out).output.length, 10);
  r = run('write', '--checkpoint', ckpt, '--input', '7 2 9');
  assert.equal(r.code, 2);
  assert.match(r.err, /ten digits/);
});

test('stories: diffusion infilling keeps prompt and suffix; a causal model writes left to right only', () => {
  const small = ['--data', 'builtin', '--dim', '32', '--heads', '2', '--layers', '1', '--steps', '10', '--no-eval'];
  const diff = join(dir, 'diff.safetensors'), gpt = join(dir, 'gpt.safetensors');
  let r = run('train', '--task', 'stories', ...small, '--save', diff);
  assert.equal(r.code, 0, r.err);
  r = run('write', '--checkpoint', diff, '--prompt', 'one day ,', '--suffix', 'happy .', '--length', '12', '--count', '2');
  assert.equal(r.code, 0, r.err);
  for (const s of lastJson(r.out).stories) {
    const words = s.text.split(' ');
    assert.equal(words.length, 12);
    assert.deepEqual(words.slice(0, 3), ['one', 'day', ',']);
    assert.deepEqual(words.slice(-2), ['happy', '.']);
    assert.ok(!words.includes('_') && !words.includes('<unk>'));
  }
  r = run('train', '--task', 'stories', ...small, '--causal', '--save', gpt);
  assert.equal(r.code, 0, r.err);
  r = run('write', '--checkpoint', gpt, '--prompt', 'once upon a time', '--length', '12', '--count', '1');
  assert.equal(r.code, 0, r.err);
  const story = lastJson(r.out).stories[0];
  assert.ok(story.text.startsWith('once upon a time'));
  assert.equal(story.network_calls, 8);
  r = run('write', '--checkpoint', gpt, '--prompt', 'once', '--suffix', 'the end .');
  assert.equal(r.code, 2);
  assert.match(r.err, /cannot fill in/);
  assert.ok(existsSync(gpt));
});

test('--init-from takes weights only from a model with the same vocabulary', () => {
  const small = ['--dim', '32', '--heads', '2', '--layers', '1', '--steps', '3', '--no-eval'];
  const gpt = join(dir, 'init-gpt.safetensors'), other = join(dir, 'other.txt');
  let r = run('train', '--task', 'stories', '--data', 'builtin', ...small, '--causal', '--save', gpt);
  assert.equal(r.code, 0, r.err);
  r = run('train', '--task', 'stories', '--data', 'builtin', ...small, '--init-from', gpt);
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /weights from/);
  const names = ['ann', 'bob', 'cat', 'dan', 'eve'];
  writeFileSync(other, Array.from({ length: 300 }, (_, i) =>
    `${names[i % 5]} saw a ${names[(i + 2) % 5]} near the river . it was day ${i % 7} .`).join('\n<|endoftext|>\n'));
  r = run('train', '--task', 'stories', '--data', other, ...small, '--init-from', gpt);
  assert.equal(r.code, 1, 'a run that cannot start from those weights failed while running');
  assert.match(r.err, /another vocabulary: \d+ of \d+ token ids name the same word/);
});
