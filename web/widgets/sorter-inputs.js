// What the views that look inside the trained sorter (D3-D6) share: the input-digits field, the axis
// labels of their maps (input digits; output steps marked with an arrow) and the body of their mount.
import { SORTER, requireSorter } from '../page/model-slots.js';
import { followTimeline, readSides, showsSides, sidesFigure, sidesText } from './timeline-sides.js';
import { button, el, field } from './ui.js';

export function digitLabels(r) {
  return { src: r.input.map(String), out: r.output.map((d) => `→${d}`) };
}

function sorterInputField() {
  return field('input digits', { kind: 'text', value: '7 2 9 0 4 4 1 8 3 6' });
}

// A sorter view's controls and drawing: `read(call, input)` at the sorter's timeline sides (cached under
// [key, input]), each drawn by `figure`, under "sorter at ..." unless the figure says the step itself
// (`captioned`). It draws when the sorter is ready or a step is picked (`busy` says what it does meanwhile)
// and redraws while the sorter trains.
export function mountSorterView(card, ctx, { key, busy, read, figure, captioned = true }) {
  const digits = sorterInputField();
  const render = async () => {
    requireSorter(ctx);
    const input = digits.input.value;
    const sides = await readSides(ctx, SORTER, [key, input], (call) => read(call, input));
    const caption = captioned ? [el('p', { class: 'story-meta' }, `sorter at ${sidesText(sides)}`)] : [];
    card.output.replaceChildren(...caption, sidesFigure(sides, figure));
    showsSides(card, SORTER, sides);
  };
  const draw = () => card.busy(render, busy);
  card.controls.append(digits.wrap, button('Show', draw));
  ctx.models.onReady(SORTER, draw);
  followTimeline(ctx, [SORTER], draw);
  ctx.live.watch([SORTER], render);
}
