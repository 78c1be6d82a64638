// Another project using the packed tarball, as its users would write it: TypeScript, --strict. The package
// test type-checks it against the package's .d.ts with the Debian tsc, runs the JavaScript tsc emits and
// reads the one JSON line it prints. The @ts-expect-error lines fail the check if the types degrade to any.
import { loadTinyformer, TinyformerError } from 'tinyformer';
import type { Run, TrainConfigInput } from 'tinyformer';

const STEPS = 1000;

// Never called: misuses that the types must refuse.
export function misuse(run: Run): void {
  // @ts-expect-error threads is 'auto' or a boolean
  void loadTinyformer({ threads: 'yes' });
  // @ts-expect-error train() takes a count, not options
  run.train({ steps: 10 });
  // @ts-expect-error the losses are a Float32Array, not a number
  const loss: number = run.train(1).losses;
  void loss;
}

async function main(): Promise<void> {
  const tf = await loadTinyformer({ threads: false });
  const config: TrainConfigInput = { task: 'toy', seed: 0 };
  const run = tf.createRun(config);
  const losses: number[] = [];
  while (run.stepsDone < STEPS) losses.push(...run.train(100).losses);
  let refused = '';
  try {
    tf.createRun({ task: 'toy', lr: -1 });
  } catch (error) {
    if (error instanceof TinyformerError) refused = error.message;
  }
  run[Symbol.dispose]();
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(JSON.stringify({
    first: mean(losses.slice(0, 20)),
    last: mean(losses.slice(-200)),
    steps: losses.length,
    refused,
    deleted: run.deleted,
    liveHandles: tf.liveHandles(),
  }));
}

main();
