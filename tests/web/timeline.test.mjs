// E1's cadence and thinning (web/worker/timeline.js), without a browser: a run keeps a snapshot every 50
// steps, then 100, then 500, and never more than it may; thinning keeps the first and the last and takes
// the densest stretch, the oldest first.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { nextMark, thin } from '../../web/worker/timeline.js';

// The steps a run of `steps` steps keeps, at most `most` at a time.
function kept(steps, most) {
  const timeline = [{ step: 0 }];
  for (let step = nextMark(0); step <= steps; step = nextMark(step)) {
    timeline.push({ step });
    thin(timeline, most);
  }
  return timeline.map((k) => k.step);
}

test('snapshots every 50 steps up to 1000, every 100 up to 5000, then every 500', () => {
  assert.deepEqual([0, 49, 50, 950, 999, 1000, 4900, 5000, 5100].map(nextMark), [50, 50, 100, 1000, 1000, 1100, 5000, 5500, 5500]);
  assert.deepEqual(kept(300, 40), [0, 50, 100, 150, 200, 250, 300]);
});

test('a long run keeps at most 40, its first and last among them, thinned where they lie closest', () => {
  const steps = kept(20000, 40);
  assert.equal(steps.length, 40);
  assert.equal(steps[0], 0);
  assert.equal(steps.at(-1), 20000);
  const gaps = steps.slice(1).map((s, i) => s - steps[i]);
  assert.ok(Math.max(...gaps) <= 1000, `gaps ${gaps}`);
  assert.ok(gaps.slice(-10).every((g) => g >= 500), 'the newest stretch keeps its 500-step snapshots');
  assert.deepEqual(kept(300, 4), [0, 100, 200, 300], 'a model too big for more keeps them evenly');
});
