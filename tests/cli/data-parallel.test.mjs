// Data-parallel training under mpirun (issue 24): two ranks train the model one process trains (the same
// losses and final weights within 1e-5 relative, a checkpoint with the same header), --resume works with a
// different number of ranks, a rank that dies or hangs stops the others with a message and the last
// checkpoint whole, and Ctrl-C on mpirun (or SIGTERM to the ranks) saves once. Needs Open MPI's mpirun
// (scripts/setup.sh test installs it) and a CLI built with MPI.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = process.env.TINYFORMER_CLI ?? join(root, 'build', 'native', 'cli', 'tinyformer');
const haveMpirun = spawnSync('mpirun', ['--version'], { encoding: 'utf8' }).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'tinyformer-mpi-'));
const kRelative = 1e-5;

// A tiny story model, one thread per rank so two ranks fit two cores.
const story = ['train', '--task', 'stories', '--data', 'builtin', '--dim', '32', '--heads', '2', '--layers', '1',
  '--batch', '8', '--seq-len', '16', '--threads', '1', '--seed', '3', '--no-eval'];

function mpirunArgs(ranks, args) {
  const root = process.getuid?.() === 0 ? ['--allow-run-as-root'] : [];
  return [...root, '--oversubscribe', '--bind-to', 'none', '-np', String(ranks), cli, ...args];
}

// One process without mpirun, or `ranks` under it.
function train(ranks, args) {
  const r = ranks === 1
    ? spawnSync(cli, args, { encoding: 'utf8', timeout: 120_000 })
    : spawnSync('mpirun', mpirunArgs(ranks, args), { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `${ranks} rank(s): ${r.stderr}`);
  return r;
}

function losses(log) {
  return readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l).loss);
}

// A safetensors file: its header (metadata included) and each tensor's numbers.
function readCheckpoint(path) {
  const bytes = readFileSync(path);
  const n = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + n).toString('utf8'));
  const tensors = {};
  for (const [name, t] of Object.entries(header)) {
    if (name === '__metadata__' || t.dtype !== 'F32') continue;
    const [b, e] = t.data_offsets;
    tensors[name] = new Float32Array(bytes.buffer.slice(bytes.byteOffset + 8 + n + b, bytes.byteOffset + 8 + n + e));
  }
  return { header, tensors };
}

function assertLossesClose(actual, expected, what) {
  assert.equal(actual.length, expected.length, what);
  for (let i = 0; i < expected.length; ++i) {
    const rel = Math.abs(actual[i] - expected[i]) / Math.abs(expected[i]);
    assert.ok(rel <= kRelative, `${what}: step ${i + 1}: ${actual[i]} against ${expected[i]} (relative ${rel.toExponential(2)})`);
  }
}

// Every tensor within 1e-5 of the other's largest magnitude; returns the worst such difference.
function assertWeightsClose(a, b) {
  let worst = 0;
  for (const [name, x] of Object.entries(b.tensors)) {
    const y = a.tensors[name];
    let diff = 0, scale = 0;
    for (let i = 0; i < x.length; ++i) {
      diff = Math.max(diff, Math.abs(x[i] - y[i]));
      scale = Math.max(scale, Math.abs(x[i]));
    }
    const rel = scale > 0 ? diff / scale : diff;
    assert.ok(rel <= kRelative, `${name}: differs by ${rel.toExponential(2)} of its largest number`);
    worst = Math.max(worst, rel);
  }
  return worst;
}

// Rank `rank`'s process among mpirun's children (Open MPI names it in their environment).
function rankPid(mpirun, rank) {
  const children = spawnSync('pgrep', ['-P', String(mpirun.pid)], { encoding: 'utf8' }).stdout.trim().split('\n');
  return Number(children.find((pid) => readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0')
    .includes(`OMPI_COMM_WORLD_RANK=${rank}`)));
}

// Starts a long 2-rank run that checkpoints every 5 steps; resolves once its log has `lines` lines.
async function longRun(name, extra = []) {
  const log = join(dir, `${name}.jsonl`), save = join(dir, `${name}.safetensors`);
  const child = spawn('mpirun', mpirunArgs(2, [...story, '--steps', '1000000', '--log', log, '--save', save,
    '--checkpoint-every', '5', ...extra]), { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => { err += d; });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const started = Date.now();
  while (!(existsSync(log) && readFileSync(log, 'utf8').split('\n').length > 20)) {
    assert.ok(Date.now() - started < 60_000, `the run did not get going: ${err}`);
    await sleep(100);
  }
  return { child, log, save, exited, stderr: () => err };
}

// Waits for the run to end (at most `seconds`), returning its status and how long it took.
async function ending(run, seconds) {
  const started = Date.now();
  const cancel = new AbortController();
  const timeout = sleep(seconds * 1000, 'hung', { signal: cancel.signal }).catch(() => 'ended');
  const result = await Promise.race([run.exited, timeout]);
  cancel.abort();
  if (result === 'hung') run.child.kill('SIGKILL');
  assert.notEqual(result, 'hung', `still running after ${seconds} s: ${run.stderr()}`);
  return { ...result, seconds: (Date.now() - started) / 1000 };
}

function checkpointStep(path) {
  const r = spawnSync(cli, ['info', '--checkpoint', path, '--json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, `the checkpoint is whole: ${r.stderr}`);
  return JSON.parse(r.stdout).step;
}

function noTemporaryFiles() {
  assert.deepEqual(readdirSync(dir).filter((f) => f.includes('.tmp.')), [], 'no half-written checkpoint left');
}

describe('data-parallel training under mpirun', { skip: haveMpirun ? false : 'no mpirun (scripts/setup.sh test installs Open MPI)' }, () => {
  test('two (and three) ranks train as one process: 20 story steps, the same losses, weights and checkpoint header', (t) => {
    const one = join(dir, 'one'), two = join(dir, 'two');
    train(1, [...story, '--steps', '20', '--log', `${one}.jsonl`, '--save', `${one}.safetensors`]);
    const r = train(2, [...story, '--steps', '20', '--log', `${two}.jsonl`, '--save', `${two}.safetensors`]);
    assert.match(r.stderr, /2 ranks/);
    assert.equal(r.stdout.trim().split('\n').length, 1, 'rank 0 alone prints the final line');
    assertLossesClose(losses(`${two}.jsonl`), losses(`${one}.jsonl`), 'two ranks against one');
    const a = readCheckpoint(`${two}.safetensors`), b = readCheckpoint(`${one}.safetensors`);
    // The losses the file keeps differ by rounding, as the logs do; the rest of the header byte for byte.
    const kept = (c) => JSON.parse(c.header.__metadata__['tinyformer.losses']);
    assertLossesClose(kept(a), kept(b), 'the losses the checkpoints keep');
    for (const c of [a, b]) delete c.header.__metadata__['tinyformer.losses'];
    assert.deepEqual(a.header, b.header, 'the same header: names, shapes, offsets, step, RNG state, settings');
    t.diagnostic(`largest weight difference: ${assertWeightsClose(a, b).toExponential(2)} of a tensor's scale`);
    // Three ranks: the batch's rows and the gradient sum's ring go in uneven parts.
    const three = join(dir, 'three');
    train(3, [...story, '--steps', '20', '--log', `${three}.jsonl`, '--save', `${three}.safetensors`]);
    assertLossesClose(losses(`${three}.jsonl`), losses(`${one}.jsonl`), 'three ranks against one');
    assertWeightsClose(readCheckpoint(`${three}.safetensors`), b);
  });

  test('--resume takes a run on to another number of ranks and back', () => {
    const straight = join(dir, 'straight'), half = join(dir, 'half'), on2 = join(dir, 'on2');
    train(1, [...story, '--steps', '16', '--log', `${straight}.jsonl`, '--save', `${straight}.safetensors`]);
    train(1, [...story, '--steps', '8', '--save', `${half}.safetensors`]);
    train(2, [...story, '--resume', `${half}.safetensors`, '--steps', '12', '--log', `${on2}.jsonl`, '--save', `${on2}.safetensors`]);
    const back = join(dir, 'back');
    train(1, [...story, '--resume', `${on2}.safetensors`, '--steps', '16', '--log', `${back}.jsonl`, '--save', `${back}.safetensors`]);
    const expected = losses(`${straight}.jsonl`);
    assertLossesClose([...losses(`${on2}.jsonl`), ...losses(`${back}.jsonl`)], expected.slice(8), 'resumed on 2 ranks, then on 1');
    assertWeightsClose(readCheckpoint(`${back}.safetensors`), readCheckpoint(`${straight}.safetensors`));
  });

  test('a rank that dies stops the other at once with a message; the last checkpoint stays whole', async (t) => {
    const run = await longRun('death');
    process.kill(rankPid(run.child, 1), 'SIGKILL');
    const end = await ending(run, 30);
    t.diagnostic(`the run ended ${end.seconds.toFixed(1)} s after the kill`);
    assert.notEqual(end.code, 0);
    assert.match(run.stderr(), /rank 0 of 2: stopped while waiting for the other ranks, which no longer answer/);
    assert.ok(checkpointStep(run.save) % 5 === 0);
    noTemporaryFiles();
  });

  test('a rank that hangs stops the run after --rank-timeout', async () => {
    const run = await longRun('hang', ['--rank-timeout', '2']);
    process.kill(rankPid(run.child, 1), 'SIGSTOP');
    const end = await ending(run, 30);
    assert.notEqual(end.code, 0);
    assert.match(run.stderr(), /rank 0 of 2: no answer from the other ranks for 2 s/);
    assert.ok(checkpointStep(run.save) % 5 === 0);
    noTemporaryFiles();
  });

  test('Ctrl-C on mpirun: every rank stops after the same step, rank 0 saves it once', async () => {
    const run = await longRun('interrupted');
    run.child.kill('SIGINT');
    await ending(run, 30);
    const said = run.stderr().match(/SIGTERM at step (\d+): saved/g) ?? [];
    assert.equal(said.length, 1, `rank 0 alone saves and says so: ${run.stderr()}`);
    const step = Number(said[0].match(/\d+/)[0]);
    assert.equal(checkpointStep(run.save), step);
    assert.equal(losses(run.log).length, step, 'the log ends at the saved step');
    noTemporaryFiles();
  });

  test('SIGTERM to every rank (a batch system cancelling the job): the same stop, and mpirun exits 130', async () => {
    const run = await longRun('cancelled');
    const pids = [rankPid(run.child, 0), rankPid(run.child, 1)];
    for (const pid of pids) process.kill(pid, 'SIGTERM');
    const end = await ending(run, 30);
    assert.equal(end.code, 130, run.stderr());
    const step = Number(run.stderr().match(/SIGTERM at step (\d+): saved/)[1]);
    assert.equal(checkpointStep(run.save), step);
    noTemporaryFiles();
  });
});
