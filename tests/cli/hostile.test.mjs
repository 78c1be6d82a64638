// Hostile files and unlucky runs, round 2 (issue 26): headers near the 100 MB limit are refused while they
// stream, within 10 s and 1.5 GB, with a message and no library text; text input has the device refusal and
// cap of every file; a run learns before it trains that its checkpoint could not be written; exit statuses
// follow the README (2 usage, 1 a bad file or a failed run); `write` is bounded; validation is never silently
// computed on training windows; messages quoting a file escape its control characters.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import { hostileHeaders, joinFile, splitFile } from '../support/hostile-files.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = process.env.TINYFORMER_CLI ?? join(root, 'build', 'native', 'cli', 'tinyformer');
const dir = mkdtempSync(join(tmpdir(), 'tinyformer-hostile-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const gnuTime = ['/usr/bin/time'].find(existsSync);  // GNU time: the peak memory of a command
const toyRun = join(dir, 'toy.safetensors');

// The command's exit status, output, seconds and (with GNU time) peak memory in bytes. The seconds are CPU
// time with GNU time (what the command costs, whatever else the machine runs), else wall time.
function run(args, { input } = {}) {
  const command = gnuTime ? [gnuTime, '-f', 'peak-kb %M cpu %U %S', cli, ...args] : [cli, ...args];
  const started = Date.now();
  const r = spawnSync(command[0], command.slice(1), { encoding: 'utf8', timeout: 120_000, input, maxBuffer: 1 << 28 });
  const used = /peak-kb (\d+) cpu ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr);
  return {
    code: r.status, signal: r.signal, out: r.stdout, err: used ? r.stderr.slice(0, used.index) : r.stderr,
    seconds: used ? Number(used[2]) + Number(used[3]) : (Date.now() - started) / 1000,
    peakBytes: used ? Number(used[1]) * 1024 : null,
  };
}

// Refused as a bad file: exit 1, the message, no library text, within 10 s and 1.5 GB.
function refused(r, pattern) {
  assert.equal(r.signal, null, `no crash (${r.signal})`);
  assert.equal(r.code, 1, r.err);
  assert.match(r.err, pattern);
  assert.doesNotMatch(r.err, /json\.exception|basic_string|bad_alloc|std::|terminate/);
  assert.ok(r.seconds < 10, `took ${r.seconds} s`);
  if (r.peakBytes !== null) assert.ok(r.peakBytes < 1.5e9, `peak ${(r.peakBytes / 1e6).toFixed(0)} MB`);
}

before(() => {
  const r = run(['train', '--task', 'toy', '--steps', '3', '--batch', '8', '--no-eval', '--save', toyRun]);
  assert.equal(r.code, 0, r.err);
});

test('headers near the 100 MB limit are refused as they stream: info, eval and write', { timeout: 300_000 }, () => {
  const good = readFileSync(toyRun);
  for (const [name, { make, refusal }] of Object.entries(hostileHeaders)) {
    const path = join(dir, `${name}.safetensors`);
    writeFileSync(path, make(good, 95e6));
    const commands = name === 'lossHistory' ? ['info', 'eval', 'write'] : ['info'];
    for (const command of commands) {
      const r = run([command, '--checkpoint', path]);
      refused(r, refusal);
      console.log(`# ${name} (${(readFileSync(path).length / 1e6).toFixed(0)} MB) ${command}: ${r.seconds.toFixed(2)} s${gnuTime ? ' CPU' : ''}, ` +
        (r.peakBytes ? `${(r.peakBytes / 1e6).toFixed(0)} MB` : 'peak memory not measured (no GNU time)'));
    }
    rmSync(path);
  }
});

test('a message quoting a file escapes its control characters on stderr too', () => {
  const { header, data } = splitFile(readFileSync(toyRun));
  header['\u001b[2Jevil\u0007'] = { dtype: 'F32', shape: [0], data_offsets: [0, 0] };
  const path = join(dir, 'escape.safetensors');
  writeFileSync(path, joinFile(JSON.stringify(header), data));
  const r = run(['info', '--checkpoint', path]);
  refused(r, /'\\x1b\[2Jevil\\x07'/);
  assert.doesNotMatch(r.err, /[\u0000-\u0009\u000b-\u001f\u007f\u0080-\u009f]/);
});

test('one vocabulary rule: info refuses a word given twice, as write and eval do', () => {
  const { header, data } = splitFile(readFileSync(toyRun));
  const words = JSON.parse(header.__metadata__['tinyformer.vocab']);
  words[3] = words[2];
  header.__metadata__['tinyformer.vocab'] = JSON.stringify(words);
  const path = join(dir, 'twice.safetensors');
  writeFileSync(path, joinFile(JSON.stringify(header), data));
  for (const command of ['info', 'eval', 'write']) refused(run([command, '--checkpoint', path]), /vocabulary has the word ".*" twice \(token ids 2 and 3\)/);
});

test('a tensor missing, extra or one number short is named after the count', () => {
  const { header, data } = splitFile(readFileSync(toyRun));
  const [begin, end] = header['out.bias'].data_offsets;
  header['out.bias'] = { dtype: 'F32', shape: [13], data_offsets: [begin, end - 4] };
  for (const [name, entry] of Object.entries(header))
    if (entry.data_offsets && entry.data_offsets[0] >= end) entry.data_offsets = entry.data_offsets.map((o) => o - 4);
  const path = join(dir, 'short.safetensors');
  writeFileSync(path, joinFile(JSON.stringify(header), Buffer.concat([data.subarray(0, end - 4), data.subarray(end)])));
  refused(run(['info', '--checkpoint', path]),
    /tensors hold \d+ numbers: parameter 'out\.bias' has shape \(13\) in the checkpoint but \(14\) in the model/);
});

test('story text is read as every file is: devices refused, a stated cap', () => {
  refused(run(['train', '--task', 'stories', '--data', '/dev/zero', '--steps', '1']), /'\/dev\/zero': it is a device, not a file/);
  refused(run(['train', '--task', 'stories', '--data', 'builtin', '--valid', '/dev/urandom', '--steps', '1']), /it is a device/);
  const big = join(dir, 'big.txt');
  writeFileSync(big, 'once upon a time . '.repeat(100_000));  // 1.9 MB
  refused(run(['train', '--task', 'stories', '--data', big, '--max-text-bytes', '1000000', '--steps', '1']),
    /over the limit of 1000000/);
  const help = run(['train', '--help']);
  assert.match(help.out, /--max-text-bytes/);
});

test('a checkpoint that cannot be written is found before training, not after it', () => {
  const r = run(['train', '--task', 'toy', '--steps', '100000000', '--save', join(dir, 'no-such-folder', 'run.safetensors')]);
  refused(r, /cannot write '.*no-such-folder\/run\.safetensors'/);
  assert.ok(r.seconds < 5, `refused after ${r.seconds} s: it trained first`);
});

test('a temporary file left by a save that was killed goes at the next save', () => {
  const saves = mkdtempSync(join(dir, 'killed-'));
  const gone = spawnSync('true').pid;  // a process that has ended, as one killed mid-save
  writeFileSync(join(saves, `run.safetensors.tmp.${gone}.0`), 'half a checkpoint');
  const r = run(['train', '--task', 'toy', '--steps', '2', '--no-eval', '--save', join(saves, 'run.safetensors')]);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(readdirSync(saves), ['run.safetensors']);
});

test('write: 1 for a bad file (NaN weights), 2 for bad options; length has a stated cap', () => {
  const { header, data } = splitFile(readFileSync(toyRun));
  const nan = Buffer.from(data);
  nan.writeFloatLE(NaN, header['embed.weight'].data_offsets[0]);
  const path = join(dir, 'nan.safetensors');
  writeFileSync(path, joinFile(JSON.stringify(header), nan));
  refused(run(['write', '--checkpoint', path]), /cannot write with .*nan\.safetensors: parameter 'embed\.weight' holds NaN/);
  let r = run(['write', '--checkpoint', toyRun, '--prompt', 'the dog']);
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /"dog" is not in the model's vocabulary/);
  r = run(['write', '--checkpoint', toyRun, '--length', '65536']);
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /--length: needs a whole number in 1\.\.2048/);
});

test('write keeps memory flat in length: long stories are written a batch at a time', { timeout: 120_000 }, () => {
  const long = join(dir, 'long.safetensors');
  let r = run(['train', '--task', 'stories', '--data', 'builtin', '--dim', '16', '--heads', '2', '--layers', '1',
    '--max-length', '2048', '--seq-len', '16', '--steps', '1', '--no-eval', '--save', long]);
  assert.equal(r.code, 0, r.err);
  r = run(['write', '--checkpoint', long, '--length', '2048', '--count', '24', '--steps', '2', '--json']);
  assert.equal(r.code, 0, r.err);
  assert.equal(JSON.parse(r.out).stories.length, 24);
  if (r.peakBytes !== null) assert.ok(r.peakBytes < 400e6, `peak ${(r.peakBytes / 1e6).toFixed(0)} MB`);
  r = run(['write', '--checkpoint', long, '--length', '2048', '--prompt', 'the '.repeat(3000)]);
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /the prompt and suffix have 3000 tokens, more than the length 2048/);
});

test('a resumed run with nothing to train, or whose every step is skipped, exits 1 and says why', () => {
  let r = run(['train', '--resume', toyRun, '--steps', '3', '--no-eval']);
  refused(r, /is at step 3 already: --steps 3 \(the new total\) leaves nothing to train/);
  const { header, data } = splitFile(readFileSync(toyRun));
  const huge = Buffer.from(data);  // output biases that overflow every loss: each step is skipped
  const [begin, end] = header['out.bias'].data_offsets;
  for (let at = begin; at < end; at += 4) huge.writeFloatLE(at === begin ? 3e38 : -3e38, at);
  const path = join(dir, 'diverged.safetensors');
  writeFileSync(path, joinFile(JSON.stringify(header), huge));
  r = run(['train', '--resume', path, '--steps', '5', '--no-eval']);
  refused(r, /every one of the 2 steps was skipped/);
});

test('validation is never computed on training windows', () => {
  const story = join(dir, 'story.txt'), tiny = join(dir, 'tiny.txt');
  writeFileSync(story, 'once upon a time there was a cat . the cat sat on a mat and was happy . '.repeat(50));
  writeFileSync(tiny, 'a cat sat .');
  const small = ['--dim', '8', '--heads', '1', '--layers', '1', '--max-length', '8', '--seq-len', '8', '--steps', '1'];
  refused(run(['train', '--task', 'stories', '--data', story, '--valid', tiny, ...small]),
    /the held-out text has 4 tokens: too few for one window of 8/);
  const ckpt = join(dir, 'story.safetensors');
  let r = run(['train', '--task', 'stories', '--data', story, ...small, '--save', ckpt]);
  assert.equal(r.code, 0, r.err);
  const last = JSON.parse(r.out.trim().split('\n').pop());
  assert.ok(Number.isFinite(last.validation_loss), 'the held-out tail is long enough');
  r = run(['train', '--task', 'stories', '--data', tiny, '--dim', '8', '--heads', '1', '--layers', '1', '--max-length', '2', '--seq-len', '2', '--steps', '1']);
  assert.equal(r.code, 0, r.err);
  const none = JSON.parse(r.out.trim().split('\n').pop());
  assert.equal(none.validation_loss, null, 'too little held-out text: no number, said so');
  assert.match(none.evaluation.validation, /none: the held-out tail of the training text has \d+ tokens, too few/);
  refused(run(['eval', '--checkpoint', ckpt, '--data', story, '--valid', tiny]), /the held-out text has 4 tokens/);
});
