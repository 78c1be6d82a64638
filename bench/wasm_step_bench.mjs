// Benchmark (not a test): one training step of MyTransformer(2002) (dim 128, 4 heads, 4 blocks) on 64 x 32
// windows with Adam, diffusion loss and causal next-token loss, at 1 and 2 threads: our wasm module (both
// builds), TensorFlow.js's wasm backend running the same architecture written with tfjs ops, and our
// native build (bench/step_bench.cpp, when built). Prints one table: ms/step, GFLOP/s (the core's flop
// count of one step, the same work for every contender) and the ratios. tfjs runs in a child process per
// thread count because its backend is configured once per process. tfjs' wasm backend has no scatter-add
// kernel (UnsortedSegmentSum), so its embedding gradient is a one-hot matmul (about 1 GFLOP per step more).
// Its products go through mm below, its fast way.
//   node bench/wasm_step_bench.mjs [--steps N] [--builds st,mt] [--native PATH]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const steps = Number(option('--steps', 10));
const V = 2002, C = 128, H = 4, L = 4, B = 64, T = 32, MASK = 2001;

// Token windows from real text when the shared excerpt is there (its vocabulary fills all 2000 words).
function storyText(tinyformer) {
  const shared = new URL('../shared/data/tinystories-train-head.txt', root);
  return existsSync(shared) ? { train: readFileSync(shared, 'utf8') } : { train: tinyformer.builtinStories(1, 4_000_000) };
}

async function ours(threaded) {
  const { loadTinyformer } = await import('../wasm/tinyformer.js');
  const tinyformer = await loadTinyformer({ threads: threaded, baseUrl: process.env.TINYFORMER_WASM_DIR ?? new URL('web/wasm/', root), poolSize: 2 });
  const text = storyText(tinyformer);
  const rows = [];
  for (const threads of threaded ? [1, 2] : [1]) {
    tinyformer.setThreads(threads);
    for (const causal of [false, true]) {
      const run = tinyformer.createRun({ task: 'stories', batch: B, seqLen: T, model: { causal } }, text);
      if (run.config.vocab !== V) throw new Error(`vocabulary ${run.config.vocab}, expected ${V}`);
      run.train(3);
      const r = run.train(steps);
      rows.push({ who: `tinyformer wasm ${threaded ? 'mt' : 'st'}`, threads, causal, ms: (r.seconds / steps) * 1e3, gflopPerStep: (r.gflopsPerSecond * r.seconds) / steps });
      run.delete();
    }
  }
  return rows;
}

// ---------------------------------------------------------------- TensorFlow.js

function tfjsModel(tf, causal) {
  const init = (shape) => tf.variable(tf.randomNormal(shape, 0, 0.02));
  const zeros = (n) => tf.variable(tf.zeros([n]));
  const ones = (n) => tf.variable(tf.ones([n]));
  const p = { tok: init([V, C]), pos: init([64, C]), blocks: [], gf: ones(C), bf: zeros(C), wo: init([C, V]), bo: zeros(V) };
  for (let l = 0; l < L; ++l)
    p.blocks.push({ g1: ones(C), b1: zeros(C), wqkv: init([C, 3 * C]), bqkv: zeros(3 * C), wp: init([C, C]), bp: zeros(C),
      g2: ones(C), b2: zeros(C), w1: init([C, 4 * C]), c1: zeros(4 * C), w2: init([4 * C, C]), c2: zeros(C) });
  const D = C / H;
  // Every product through mm, whose gradient transposes explicitly: the wasm backend's matMul is fast on
  // plain operands and slow with its transpose flags (which tfjs' own matMul gradient uses; 1 Dec 2026, one
  // thread: 1.7 s per step this way, 7.2 s that way), so this is its fast way and the fair comparison.
  const lastTwo = (x) => tf.transpose(x, [...Array(x.rank - 2).keys(), x.rank - 1, x.rank - 2]);
  const mm = tf.customGrad((a, b, save) => {
    save([a, b]);
    return { value: tf.matMul(a, b), gradFunc: (dy, [sa, sb]) => [tf.matMul(dy, lastTwo(sb)), tf.matMul(lastTwo(sa), dy)] };
  });
  const blocked = tf.mul(tf.sub(1, tf.linalg.bandPart(tf.ones([T, T]), -1, 0)), -1e9);
  // Gather forward; its gradient as a one-hot matmul (the wasm backend cannot scatter-add).
  const embed = tf.customGrad((table, ids, save) => {
    save([ids]);
    return { value: tf.gather(table, ids), gradFunc: (dy, [saved]) => [tf.matMul(tf.transpose(tf.oneHot(saved, V)), dy), tf.zerosLike(saved)] };
  });
  const norm = (x, g, b) => {
    const { mean, variance } = tf.moments(x, -1, true);
    return tf.add(tf.mul(tf.div(tf.sub(x, mean), tf.sqrt(tf.add(variance, 1e-5))), g), b);
  };
  const gelu = (x) => tf.mul(tf.mul(x, 0.5), tf.add(1, tf.tanh(tf.mul(Math.sqrt(2 / Math.PI), tf.add(x, tf.mul(0.044715, tf.pow(x, 3)))))));
  const heads = (x) => tf.transpose(tf.reshape(x, [B, T, H, D]), [0, 2, 1, 3]);
  const forward = (ids) => {
    let x = tf.add(tf.reshape(embed(p.tok, tf.reshape(ids, [B * T])), [B, T, C]), tf.slice(p.pos, [0, 0], [T, C]));
    for (const k of p.blocks) {
      const qkv = tf.add(mm(tf.reshape(norm(x, k.g1, k.b1), [B * T, C]), k.wqkv), k.bqkv);
      const [q, kk, v] = tf.split(tf.reshape(qkv, [B, T, 3 * C]), 3, 2).map(heads);
      let s = tf.mul(mm(q, lastTwo(kk)), 1 / Math.sqrt(D));
      if (causal) s = tf.add(s, blocked);
      const o = tf.reshape(tf.transpose(mm(tf.softmax(s), v), [0, 2, 1, 3]), [B * T, C]);
      x = tf.add(x, tf.reshape(tf.add(mm(o, k.wp), k.bp), [B, T, C]));
      const h = tf.reshape(norm(x, k.g2, k.b2), [B * T, C]);
      x = tf.add(x, tf.reshape(tf.add(mm(gelu(tf.add(mm(h, k.w1), k.c1)), k.w2), k.c2), [B, T, C]));
    }
    return tf.add(mm(tf.reshape(norm(x, p.gf, p.bf), [B * T, C]), p.wo), p.bo);  // [B*T, V]
  };
  const ce = (logits, labels) => tf.neg(tf.sum(tf.mul(tf.oneHot(labels, V), tf.logSoftmax(logits)), -1));
  const optimizer = tf.train.adam(1e-3, 0.9, 0.999, 1e-8);
  return () => {
    const x0 = Int32Array.from({ length: B * T }, () => Math.floor(Math.random() * 2000));
    const cost = tf.tidy(() => optimizer.minimize(() => {
      if (causal) {
        const logits = tf.reshape(forward(tf.tensor2d(x0, [B, T], 'int32')), [B, T, V]);
        const next = tf.reshape(tf.slice(logits, [0, 0, 0], [B, T - 1, V]), [B * (T - 1), V]);
        const labels = tf.reshape(tf.slice(tf.tensor2d(x0, [B, T], 'int32'), [0, 1], [B, T - 1]), [B * (T - 1)]);
        return tf.mean(ce(next, labels));
      }
      // Diffusion loss: per sentence t ~ U(0, 1], mask with probability t, (1 / t) * CE over masked positions.
      const t = Float32Array.from({ length: B }, () => 1 - Math.random());
      const masked = new Float32Array(B * T), xt = Int32Array.from(x0);
      for (let i = 0; i < B * T; ++i) if (Math.random() < t[Math.floor(i / T)]) { masked[i] = 1 / t[Math.floor(i / T)]; xt[i] = MASK; }
      const per = ce(forward(tf.tensor2d(xt, [B, T], 'int32')), tf.tensor1d(x0, 'int32'));
      return tf.div(tf.sum(tf.mul(per, tf.tensor1d(masked))), B);
    }, true));
    cost.dataSync();
    cost.dispose();
  };
}

async function tfjsChild(threads) {
  const require = createRequire(import.meta.url);
  const tf = require('@tensorflow/tfjs');  // the umbrella package: tfjs-core plus its gradients
  const wasm = require('@tensorflow/tfjs-backend-wasm');
  wasm.setWasmPaths(fileURLToPath(new URL('node_modules/@tensorflow/tfjs-backend-wasm/dist/', import.meta.url)));  // bench/node_modules
  wasm.setThreadsCount(threads);
  await tf.setBackend('wasm');
  await tf.ready();
  const info = { simd: await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT'), threads: wasm.getThreadsCount() };
  if (!(await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT'))) info.threads = 1;
  const rows = [];
  for (const causal of [false, true]) {
    const step = tfjsModel(tf, causal);
    step();
    const t0 = performance.now();
    const n = Math.max(2, Math.ceil(steps / 3));  // tfjs is slow: fewer timed steps
    for (let i = 0; i < n; ++i) step();
    rows.push({ who: `tfjs-wasm${info.simd ? ' simd' : ''}`, threads: info.threads, causal, ms: (performance.now() - t0) / n });
  }
  process.stdout.write(JSON.stringify(rows) + '\n');
}

function tfjs(threads) {
  const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--tfjs-child', String(threads), '--steps', String(steps)], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop());
}

function native() {
  const exe = option('--native', fileURLToPath(new URL('build/wasm-native/step_bench', root)));
  if (!existsSync(exe)) return [];
  const rows = [];
  for (const line of execFileSync(exe, [String(steps)], { encoding: 'utf8' }).trim().split('\n')) {
    const j = JSON.parse(line);
    for (const causal of [false, true]) {
      const r = causal ? j.causal : j.diffusion;
      rows.push({ who: 'tinyformer native', threads: j.threads, causal, ms: r.ms, gflopPerStep: r.gflop_per_step });
    }
  }
  return rows;
}

if (args[0] === '--tfjs-child') {
  await tfjsChild(Number(args[1]));
} else {
  // tfjs' threaded wasm variant needs SharedArrayBuffer workers it only starts in browsers: in Node it
  // reports no multithread support and runs one thread, so it is timed once and compared with every row.
  const which = option('--builds', 'st,mt').split(',');
  const rows = [];
  const add = (more) => {
    for (const r of more) console.error(JSON.stringify(r));  // progress, in case the run is cut short
    rows.push(...more);
  };
  for (const b of which) add(await ours(b === 'mt'));
  add(native());
  add(tfjs(1));
  // The core's flop count of each loss's step (the causal one scores every row), for every contender.
  const gflopOf = (causal) => rows.find((r) => r.gflopPerStep && r.causal === causal)?.gflopPerStep;
  const find = (who, threads, causal) => rows.find((r) => r.who.startsWith(who) && r.threads === threads && r.causal === causal);
  console.log(`MyTransformer(2002) B${B} x T${T} training step (Adam); ${steps} timed steps; GFLOP/step: diffusion ${gflopOf(false)?.toFixed(2)}, causal ${gflopOf(true)?.toFixed(2)}`);
  console.log('who                      threads  loss       ms/step   GFLOP/s   tfjs/this  this/native');
  for (const r of rows) {
    const tfjsRow = find('tfjs', r.threads, r.causal) ?? find('tfjs', 1, r.causal);
    const nativeRow = find('tinyformer native', r.threads, r.causal);
    console.log([
      r.who.padEnd(24), String(r.threads).padStart(7), (r.causal ? 'causal' : 'diffusion').padStart(10),
      r.ms.toFixed(1).padStart(9), (gflopOf(r.causal) / r.ms * 1e3).toFixed(2).padStart(9),
      (tfjsRow ? (tfjsRow.ms / r.ms).toFixed(2) + 'x' : '-').padStart(10),
      (nativeRow ? (r.ms / nativeRow.ms).toFixed(2) + 'x' : '-').padStart(12),
    ].join(' '));
  }
  process.exit(0);
}
