// Benchmark (not a test): where the time of the wasm story step goes, and what the profiler costs there.
// The step of bench/wasm_step_bench.mjs (MyTransformer(2002), 64 x 32 windows, Adam), in one build at
// 1 thread: `rounds` rounds of `steps` steps with the profiler off, then on (alternating, so the machine's
// drift hits both); prints the overhead and the profile table of the steps it was on for, as
// `build/native/bench/step_bench N --profile` does natively.
//   node bench/wasm_profile_bench.mjs [--steps N] [--rounds R] [--build st|mt] [--causal]
import { existsSync, readFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const steps = Number(option('--steps', 5));
const rounds = Number(option('--rounds', 5));
const build = option('--build', 'st');
const causal = args.includes('--causal');

function storyText(tinyformer) {
  const shared = new URL('../shared/data/tinystories-train-head.txt', root);
  return existsSync(shared) ? { train: readFileSync(shared, 'utf8') } : { train: tinyformer.builtinStories(1, 4_000_000) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// The same columns as the core's profile_table (core/profile/profile.cpp), per step.
function table(p) {
  const per = 1 / Math.max(p.steps, 1), step = p.stepMs * per;
  const num = (v, w, d = 3) => v.toFixed(d).padStart(w);
  const pct = (v) => `${(step > 0 ? (v / step) * 100 : 0).toFixed(1)}%`.padStart(9);
  const lines = [`${'stem'.padEnd(14)} ${'fwd ms'.padStart(10)} ${'bwd ms'.padStart(10)} ${'other ms'.padStart(10)} ${'calls/step'.padStart(10)} ${'% of step'.padStart(9)}`];
  for (const s of p.stems)
    lines.push(`${s.stem.padEnd(14)} ${num(s.forwardMs * per, 10)} ${num(s.backwardMs * per, 10)} ${num(s.otherMs * per, 10)} ${num(s.calls * per, 10, 1)} ${pct((s.forwardMs + s.backwardMs + s.otherMs) * per)}`);
  lines.push(`${'phase'.padEnd(14)} ${'ms'.padStart(10)} ${'% of step'.padStart(42)}`);
  for (const [name, ms] of Object.entries(p.phasesMs)) lines.push(`${name.padEnd(14)} ${num(ms * per, 10)} ${' '.repeat(32)} ${pct(ms * per)}`);
  lines.push(`${p.steps} steps of ${step.toFixed(3)} ms on ${p.backends}`);
  return lines.join('\n');
}

const { loadTinyformer } = await import('../wasm/tinyformer.js');
const tf = await loadTinyformer({ threads: build === 'mt', baseUrl: process.env.TINYFORMER_WASM_DIR ?? new URL('web/wasm/', root), poolSize: 2 });
tf.setThreads(1);
const run = tf.createRun({ task: 'stories', batch: 64, seq_len: 32, model: { causal } }, storyText(tf));
run.train(2);
tf.resetProfile();
const off = [], on = [];
for (let r = 0; r < rounds; ++r) {
  off.push((run.train(steps).seconds / steps) * 1e3);
  tf.startProfile();
  on.push((run.train(steps).seconds / steps) * 1e3);
  tf.stopProfile();
}
const profile = tf.profile();
run.delete();
console.log(`wasm ${build}, 1 thread, ${causal ? 'causal' : 'diffusion'} story step: ${rounds} rounds of ${steps} steps`);
console.log(`ms/step off ${off.map((v) => v.toFixed(1)).join(' ')}; on ${on.map((v) => v.toFixed(1)).join(' ')}`);
console.log(`median off ${median(off).toFixed(1)} ms, on ${median(on).toFixed(1)} ms: overhead ${((median(on) / median(off) - 1) * 100).toFixed(2)} %`);
console.log(table(profile));
