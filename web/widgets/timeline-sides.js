// The one way the views that look inside a model follow its timeline (timeline.js): read the model as the
// scrubber shows it (the picked step alone, the picked step beside the model now, or now) and draw each
// side the same way. A past step's result is read once per input (a snapshot never changes: while the run
// trains only the "now" side is read again, at the live views' cadence); now is read at every draw.
import { el } from './ui.js';
import { showsModel } from '../page/model-slots.js';
import { callAt } from './timeline.js';

// [{slot, at, step, result}] for each side shown, the picked step first. read(call) reads one side through
// call(method, ...args); key names what read reads (the view and its inputs) for the past sides' memory.
export async function readSides(ctx, slot, key, read) {
  return Promise.all(ctx.timeline.shown(slot).map(async (at) => {
    const call = (method, ...args) => callAt(ctx, slot, at, method, ...args);
    const step = at ?? ctx.models.get(slot)?.stepsDone ?? null;
    const result = await (at === null ? read(call) : ctx.timeline.remember(slot, at, key, () => read(call)));
    return { slot, at, step, result };
  }));
}

// "step 50 (timeline) beside now at step 300", "step 50 (timeline)" or "step 300".
export function sidesText(sides) {
  const one = ({ at, step }) => (at === null ? `step ${step ?? '?'}` : `step ${at} (timeline)`);
  return sides.length > 1 ? `${one(sides[0])} beside now at ${one(sides[1])}` : one(sides[0]);
}

// Each side drawn by draw(result, side) in a box that says which step it is (data-side past|now, data-step,
// and data-model for the names of its PNGs); two sides stand in a row under their steps.
export function sidesFigure(sides, draw) {
  const boxes = sides.map((side) => el('div', {
    class: 'side', dataset: { side: side.at === null ? 'now' : 'past', step: side.step ?? '', model: `${side.slot} step ${side.step ?? 0}` },
  },
    sides.length > 1 ? el('h4', { class: 'side-step' }, side.at === null ? `now (step ${side.step ?? '?'})` : `step ${side.at}`) : null,
    draw(side.result, side)));
  return boxes.length > 1 ? el('div', { class: 'sides' }, ...boxes) : boxes[0];
}

// The card shows `slot` as the sides say: data-step is the picked step (or now), data-sides every step shown.
export function showsSides(card, slot, sides) {
  showsModel(card, slot, sides[0].step);
  card.node.dataset.sides = sides.map((s) => s.step).join(' ');
}

// redraw(slot) whenever the step shown for one of `slots`, or how it is shown, changes.
export function followTimeline(ctx, slots, redraw) {
  for (const slot of slots) ctx.timeline.onPick(slot, () => redraw(slot));
}
