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
  assert.deepEqual(Object.keys(lines[0]).sort(), ['grad_norm', 'loss', 'lr', 'skipped', 'step', 'tokens_per_s']);
  assert.ok(lines.every((l) => l.skipped === false && l.grad_norm > 0));

  r = run('info', '--checkpoint', ckpt);
  assert.equal(r.code, 0, r.err);
  assert.equal(lastJson(r.out).step, 60);
  assert.equal(lastJson(r.out).loss_history_steps, 60, 'the checkpoint carries every step\'s loss');
  assert.match(r.out, /losses +60 steps/);
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
  assert.equal(lastJson(run('info', '--checkpoint', ckpt, '--json').out).loss_history_steps, 80, 'the history goes on');

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

test('lens and patch: what each block predicts, and which head or position carries the answer', () => {
  const toy = join(dir, 'lens-toy.safetensors'), sort = join(dir, 'patch-sort.safetensors');
  let r = run('train', '--task', 'toy', '--steps', '300', '--seed', '1', '--save', toy, '--no-eval');
  assert.equal(r.code, 0, r.err);
  r = run('lens', '--checkpoint', toy, '--text', 'the cat is alive', '--mask', '1 3');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^input +the +_ +is +_/m);
  assert.match(r.out, /^block 0 +the \d+% #0 +cat \d+% #0 +is \d+% #0 +alive \d+% #0/m, 'the last block fills in the toy sentence');
  const lens = lastJson(r.out);
  assert.deepEqual(lens.rows.map((x) => x.row), ['embeddings', 'block 0']);
  assert.deepEqual(lens.targets, ['the', 'cat', 'is', 'alive']);
  assert.equal(lens.rows[1].top[1].words.length, 5);
  r = run('lens', '--checkpoint', toy, '--text', 'the cat', '--mask', '2');
  assert.equal(r.code, 2);
  assert.match(r.err, /masked position 2 is outside the 2 words/);

  r = run('patch', '--checkpoint', toy, '--clean', 'the cat is _', '--corrupted', 'the box is _', '--json');
  assert.equal(r.code, 0, r.err);
  const p = JSON.parse(r.out);
  assert.equal(p.target_word, 'alive');
  assert.deepEqual([p.heads.shape, p.residuals.shape], [[1, 1], [1, 4]]);
  assert.equal(p.residuals.data[1], p.clean, 'the embedding that differs, patched in, gives the clean run');
  assert.ok(p.clean > 0.5 && p.corrupted < 0.5);
  r = run('patch', '--checkpoint', toy, '--clean', 'the cat is _', '--corrupted', 'the box _', '--json');
  assert.equal(r.code, 2);
  assert.match(r.err, /the same length/);

  r = run('train', '--task', 'sort', '--steps', '5', '--batch', '16', '--save', sort, '--no-eval');
  assert.equal(r.code, 0, r.err);
  r = run('patch', '--checkpoint', sort, '--clean', '7 2 9 0 4 4 1 8 3 6', '--corrupted', '7 2 5 0 4 4 1 8 3 6');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^dec1\.h3 /m);
  const s = lastJson(r.out);
  assert.deepEqual(s.heads.shape, [2, 4, 10]);
  assert.equal(s.answer.length, 10);
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

// Every entry of a safetensors file as Tinyformer writes them: F32 tensors as name -> Float32Array, and the
// optimizer's step counts (I64, under optim.) as name -> BigInt64Array.
function tensorsOf(bytes) {
  const headerLength = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + headerLength).toString('utf8'));
  const tensors = {}, counts = {};
  for (const [name, e] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    const [begin, end] = e.data_offsets.map((o) => 8 + headerLength + o);
    const data = bytes.buffer.slice(bytes.byteOffset + begin, bytes.byteOffset + end);
    if (e.dtype === 'I64') {
      assert.match(name, /^optim\.steps?(\.|$)/, 'only step counts are integers');
      counts[name] = new BigInt64Array(data);
    } else {
      assert.equal(e.dtype, 'F32');
      tensors[name] = new Float32Array(data);
    }
  }
  return { headerLength, header, tensors, counts };
}

test('a diverging run skips non-finite steps, reports them and leaves only finite checkpoints', () => {
  const ckpt = join(dir, 'diverged.safetensors'), log = join(dir, 'diverged.jsonl');
  const diverge = ['train', '--task', 'toy', '--optimizer', 'sgd', '--lr', '9.9', '--seed', '1', '--no-eval'];
  let r = run(...diverge, '--steps', '30', '--max-skips', '100', '--checkpoint-every', '2', '--save', ckpt, '--log', log);
  assert.equal(r.code, 1, 'the last step was skipped, so the final save is refused');
  assert.match(r.err, /not saving .*diverged\.safetensors at step 30/);
  const lines = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const skipped = lines.filter((l) => l.skipped);
  assert.ok(skipped.length >= 10, `most steps diverge at lr 9.9, got ${skipped.length} skipped`);
  assert.ok(skipped.every((l) => l.loss === null || l.grad_norm === null || !Number.isFinite(l.grad_norm)));
  const result = lastJson(r.out);
  assert.equal(result.skipped_steps, skipped.length);
  assert.equal(result.checkpoint, undefined);
  // The file holds the last checkpoint taken right after a step that trained, and every number is finite.
  const lastGood = Math.max(...lines.filter((l) => l.step % 2 === 0 && !l.skipped).map((l) => l.step));
  r = run('info', '--checkpoint', ckpt);
  assert.equal(r.code, 0, r.err);
  assert.equal(lastJson(r.out).step, lastGood);
  const saved = tensorsOf(readFileSync(ckpt));
  for (const [name, values] of Object.entries(saved.tensors))
    assert.ok(values.every(Number.isFinite), `${name} is finite`);
  const trained = lines.filter((l) => l.step <= lastGood && !l.skipped).length;  // a skipped step is uncounted
  assert.deepEqual([...saved.counts['optim.steps']], [BigInt(trained)], 'the optimizer counted the steps that trained');
  // Finite weights can still give a loss that is not: eval says so instead of printing "loss": null. (The
  // checkpoint's own loss is near float's limit or past it, by the rounding of the run; the output biases
  // set to +-3e38 put every target's loss past it: log-sum-exp near 3e38 minus a target's -3e38.)
  const bytes = readFileSync(ckpt), { headerLength, header } = tensorsOf(bytes);
  const [begin, end] = header['out.bias'].data_offsets.map((o) => 8 + headerLength + o);
  for (let at = begin; at < end; at += 4) bytes.writeFloatLE(at === begin ? 3e38 : -3e38, at);
  const overflowing = join(dir, 'overflowing.safetensors');
  writeFileSync(overflowing, bytes);
  r = run('eval', '--checkpoint', overflowing);
  assert.notEqual(r.code, 0);
  assert.match(r.err, /loss is not finite/);
  // With the default limit the run stops by itself, naming the cause.
  r = run(...diverge, '--steps', '200');
  assert.notEqual(r.code, 0);
  assert.match(r.err, /training stopped at step \d+: 20 steps in a row had a non-finite loss or gradient norm/);
});

test('eval refuses a checkpoint whose weights hold NaN, naming the parameter', () => {
  const good = join(dir, 'finite.safetensors'), poisoned = join(dir, 'poisoned.safetensors');
  let r = run('train', '--task', 'toy', '--steps', '2', '--save', good, '--no-eval');
  assert.equal(r.code, 0, r.err);
  const bytes = readFileSync(good);
  const { headerLength, header } = tensorsOf(bytes);
  const name = Object.keys(header).find((n) => n !== '__metadata__' && !n.startsWith('optim.'));
  bytes.writeFloatLE(NaN, 8 + headerLength + header[name].data_offsets[0]);
  writeFileSync(poisoned, bytes);
  r = run('eval', '--checkpoint', poisoned);
  assert.notEqual(r.code, 0);
  assert.match(r.err, new RegExp(`parameter '${name.replace(/\./g, '\\.')}' holds NaN or infinity`));
  assert.doesNotMatch(r.out, /"loss"/);
});

test('train --profile prints where the time goes and adds the profile to the JSON line', () => {
  const r = run('train', '--task', 'toy', '--steps', '5', '--eval-every', '2', '--profile', '--no-eval');
  assert.equal(r.code, 0, r.err);
  const { profile } = lastJson(r.out);
  assert.equal(profile.steps, 5, 'the validation runs between steps are not profiled');
  assert.ok(profile.step_ms > 0);
  const stems = profile.stems.map((s) => s.stem);
  for (const stem of ['gemm', 'attention', 'layer_norm', 'optimizer']) assert.ok(stems.includes(stem), stem);
  const gemm = profile.stems.find((s) => s.stem === 'gemm');
  assert.ok(gemm.forward_ms > 0 && gemm.backward_ms > 0 && gemm.calls > 0);
  const kernelMs = profile.stems.reduce((sum, s) => sum + s.forward_ms + s.backward_ms + s.other_ms, 0);
  assert.ok(kernelMs <= profile.step_ms);
  assert.deepEqual(profile.phases.map((p) => p.phase), ['batch', 'forward', 'backward', 'optimizer', 'copies', 'other']);
  const phaseMs = profile.phases.reduce((sum, p) => sum + p.ms, 0);
  assert.ok(Math.abs(phaseMs - profile.step_ms) < 1e-6 * profile.step_ms + 1e-9);
  assert.equal(profile.enqueue_only, false);
  assert.match(r.err, /stem +fwd ms +bwd ms +other ms +calls\/step +% of step/);
  assert.match(r.err, /\ngemm +[\d.]+ +[\d.]+ +[\d.]+ +[\d.]+ +[\d.]+%/);
  assert.match(r.err, /\nbackward +[\d.]+ +[\d.]+%/);
  assert.match(r.err, /5 steps of [\d.]+ ms on cpu/);
  const plain = lastJson(run('train', '--task', 'toy', '--steps', '1', '--no-eval').out);
  assert.equal(plain.profile, undefined, 'no profile unless asked');
});
