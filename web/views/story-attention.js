// C4: a story sentence with one word masked, and the attention of the heads of a trained story model:
// the first and the last block by default, or any one block and head. One colour scale can be shared by
// every map shown (otherwise each map spans its own range, so a near-uniform head looks solid dark). The
// maps refresh by themselves while the model trains (live views) and show the step its timeline picks,
// beside the model now or alone.
import { heatmap, slice } from '../widgets/heatmap.js';
import { readSetting, writeSetting } from '../page/url-state.js';
import { el, button, field } from '../widgets/ui.js';
import { STORY_MODELS, storyModelInfo } from '../page/model-slots.js';
import { storyInputs, storyModelName, drawWhenReady } from '../widgets/story-inputs.js';
import { followTimeline, readSides, showsSides, sidesFigure, sidesText } from '../widgets/timeline-sides.js';

// Which blocks to show: 'ends' (first and last), 'all', or one index.
function blocksOf(choice, count) {
  if (choice === 'all') return Array.from({ length: count }, (_, i) => i);
  if (choice === 'ends') return count > 1 ? [0, count - 1] : [0];
  return [Math.min(Number(choice), count - 1)];
}

function refill(select, options, keep) {
  const value = keep ?? select.value;
  select.replaceChildren(...options.map(([v, l]) => el('option', { value: v }, l)));
  select.value = options.some(([v]) => String(v) === String(value)) ? String(value) : String(options[0][0]);
}

export default {
  id: 'C4',
  title: 'Attention of a story sentence',
  text: 'One word masked; every head of the first and of the last block, or the block and head you pick. You ' +
    'do not need to explain what you see.',
  mount(card, ctx) {
    const { model, sentence } = storyInputs('c4.sentence');
    const block = field('blocks', { kind: 'select', value: 'ends', options: [['ends', 'first and last'], ['all', 'all']] });
    const head = field('heads', { kind: 'select', value: 'all', options: [['all', 'all']] });
    const shared = field('one colour scale for all maps', { kind: 'checkbox', value: readSetting('c4.shared') === '1' });
    shared.input.addEventListener('change', () => writeSetting('c4.shared', shared.input.checked ? '1' : '0', '0'));
    const pickers = (config) => {
      refill(block.input, [['ends', 'first and last'], ['all', 'all'], ...Array.from({ length: config.layers }, (_, i) => [i, `block ${i}`])], readSetting('c4.block'));
      refill(head.input, [['all', 'all'], ...Array.from({ length: config.heads }, (_, i) => [i, `head ${i}`])], readSetting('c4.head'));
    };
    block.input.addEventListener('change', () => writeSetting('c4.block', block.input.value, 'ends'));
    head.input.addEventListener('change', () => writeSetting('c4.head', head.input.value, 'all'));

    const render = async () => {
      const slot = model.input.value;
      const info = storyModelInfo(ctx, slot);
      pickers(info.config);
      const text = sentence.input.value;
      const sides = await readSides(ctx, slot, ['C4', text], (call) => call('attention', text));
      const heads = head.input.value === 'all' ? null : [Number(head.input.value)];
      const shownOf = (a) => blocksOf(block.input.value, a.layers.length).map((b) => ({ b, last: a.layers.length - 1,
        maps: (heads || Array.from({ length: a.layers[b].shape[0] }, (_, h) => h)).map((h) => [h, slice(a.layers[b], h)]) }));
      // One scale for every map shown, of both steps when two are.
      const vmax = shared.input.checked ? Math.max(...sides.flatMap((s) => shownOf(s.result)).flatMap((s) => s.maps.map(([, m]) => m.data.reduce((x, y) => Math.max(x, y), 0)))) : undefined;
      const figure = (a) => el('div', {}, ...shownOf(a).map(({ b, last, maps }, _, all) => el('div', {},
        el('h4', {}, b === 0 && all.length > 1 ? 'First block' : b === last && all.length > 1 ? `Last block (${b})` : `Block ${b}`),
        el('div', { class: 'grid wide' }, ...maps.map(([h, m]) => heatmap(m, `block ${b} head ${h}`, { vmin: 0, vmax, xLabels: a.tokens, yLabels: a.tokens, maxCell: 24 }))))));
      card.output.replaceChildren(el('p', { class: 'story-meta', dataset: { step: sides[0].step } }, `${storyModelName(slot)} model at ${sidesText(sides)}`),
        sidesFigure(sides, figure));
      showsSides(card, slot, sides);
    };
    const draw = () => card.busy(render, 'Reading the attention…');
    for (const input of [block.input, head.input, shared.input]) input.addEventListener('change', draw);
    card.controls.append(model.wrap, sentence.wrap, block.wrap, head.wrap, shared.wrap, button('Show', draw));
    drawWhenReady(ctx, model, draw);
    followTimeline(ctx, STORY_MODELS.map((m) => m.slot), (slot) => slot === model.input.value && draw());
    ctx.live.watch(STORY_MODELS.map((m) => m.slot), (slot) => (slot === model.input.value ? render() : Promise.resolve()));
  },
};
