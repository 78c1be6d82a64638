// The command line's help and conventions: every option a subcommand accepts (listed by the parser itself
// through the hidden --list-options) is in that subcommand's --help, -h and `help CMD` print the same text,
// --version prints package.json's version, and the exit statuses are the documented ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = process.env.TINYFORMER_CLI ?? join(root, 'build', 'native', 'cli', 'tinyformer');
const commands = ['train', 'write', 'eval', 'info', 'lens', 'patch'];

function run(...args) {
  const r = spawnSync(cli, args, { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function acceptedOptions(command) {
  const r = run(command, '--list-options');
  assert.equal(r.code, 0, r.err);
  return r.out.trim().split('\n');
}

test('the parser lists the options each command accepts, including those the old usage text missed', () => {
  const expected = {
    train: ['--pct-start', '--top-words', '--warmup', '--task', '--save', '--resume', '--help'],
    write: ['--device', '--threads', '--checkpoint', '--json', '--input'],
    eval: ['--batches', '--cache-dir', '--url', '--checkpoint'],
    info: ['--checkpoint', '--json'],
    lens: ['--checkpoint', '--text', '--mask', '--top', '--json'],
    patch: ['--checkpoint', '--clean', '--corrupted', '--position', '--target', '--json'],
  };
  for (const command of commands) {
    const options = acceptedOptions(command);
    for (const name of options) assert.match(name, /^--[a-z][a-z0-9-]*$/);
    for (const name of expected[command]) assert.ok(options.includes(name), `${command} accepts ${name}`);
  }
  assert.ok(acceptedOptions('train').length >= 30);
});

test('every accepted option appears in its command\'s --help', () => {
  for (const command of commands) {
    const help = run(command, '--help');
    assert.equal(help.code, 0, help.err);
    assert.match(help.out, new RegExp(`Usage: tinyformer ${command}`));
    for (const name of acceptedOptions(command)) {
      const shown = new RegExp(`(^|[\\s,])${name}([\\s=]|$)`, 'm');
      assert.match(help.out, shown, `tinyformer ${command} --help shows ${name}`);
    }
    assert.doesNotMatch(help.out, /--list-options/, 'the listing flag itself stays hidden');
  }
});

test('-h and `help CMD` print the same help as --help; the top-level help lists the commands', () => {
  for (const command of commands) {
    const long = run(command, '--help').out;
    assert.equal(run(command, '-h').out, long);
    assert.equal(run('help', command).out, long);
  }
  const top = run('--help');
  assert.equal(top.code, 0);
  for (const command of commands) assert.match(top.out, new RegExp(`^\\s+${command}\\s`, 'm'));
  assert.match(top.out, /Exit status: 0 done; 1 failed while running .*; 2 usage error/);
});

test('--version prints the version package.json carries', () => {
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  const r = run('--version');
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out.trim(), version);
});

test('exit status 2 for a bad command line, naming the problem and pointing at --help', () => {
  const cases = [
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['train', 'stray'], /unexpected argument 'stray'/],
    [['train', '--stepz=3'], /unknown option --stepz/],
    [['info'], /--checkpoint is required/],
    [['write', '--checkpoint', 'x', '--sampler', 'beam'], /unknown sampler 'beam'/],
    [['write', '--checkpoint', 'x', '--temperature', 'hot'], /--temperature: needs a number/],
    [['train', '--task', 'toy', '--checkpoint-every', '5'], /--checkpoint-every needs --save/],
    [['train', '--task', 'toy', '--dim', '33', '--heads', '2'], /dim 33 must be a positive multiple of heads 2/],
  ];
  for (const [args, message] of cases) {
    const r = run(...args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, message);
    assert.match(r.err, /--help/);
    assert.equal(r.out, '', 'nothing on stdout');
  }
});
