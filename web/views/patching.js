// E3: activation patching. A clean and a corrupted sentence of the same length; the corrupted one runs again
// with one head's output (at every position), or one block's input at one position, copied from the clean
// run, and the heatmaps show how much of the clean answer's probability comes back (1: all of it, 0: none,
// grey: the two sentences give the answer nearly the same probability). For the sorter: every
// cross-attention head, per output digit. Redrawn by itself while the model trains, at the step its timeline
// picks (beside the model now, or alone); inputs in the URL.
import { heatmap } from '../widgets/heatmap.js';
import { readSetting, urlField, writeSetting } from '../page/url-state.js';
import { el, button, field, fmt, grid } from '../widgets/ui.js';
import { LOOKABLE_MODELS, SORTER, lookableModel, requireSorter } from '../page/model-slots.js';
import { followTimeline, readSides, showsSides, sidesFigure, sidesText } from '../widgets/timeline-sides.js';

const MODELS = [...LOOKABLE_MODELS, { slot: SORTER, name: 'the sorter' }];
const LIVE_EVERY = 4;  // live rounds per redraw while training
const DEFAULTS = {
  diffusion: ['when lily and tom went to the park , tom gave a ball to _', 'when lily and tom went to the park , lily gave a ball to _'],
  causal: ['when lily and tom went to the park , tom gave a ball to', 'when lily and tom went to the park , lily gave a ball to'],
  toy: ['the cat is _', 'the box is _'],
  sorter: ['7 2 9 0 4 4 1 8 3 6', '7 2 5 0 4 4 1 8 3 6'],
};
const RESTORED = { cmap: 'diverging', vmin: -1, vmax: 1, maxCell: 44 };

function familyOf(slot, info) {
  if (slot === SORTER) return 'sorter';
  if (slot.startsWith('toy')) return 'toy';
  return info?.config?.causal ? 'causal' : 'diffusion';
}

function tokenFigures(p, name) {
  const [L, H] = p.heads.shape;
  const blocks = Array.from({ length: L }, (_, b) => `block ${b}`);
  return [
    el('p', { class: 'mono' }, `p(${p.target}) at position ${p.position} ("${p.tokens[p.position]}"): clean ${fmt(p.clean, 3)}, corrupted ${fmt(p.corrupted, 3)}`),
    grid(heatmap(p.headsRestored, `${name}: restored by one head's output`, { ...RESTORED, xLabels: Array.from({ length: H }, (_, h) => `head ${h}`), yLabels: blocks }),
      heatmap(p.residualsRestored, `${name}: restored by one block's input at one position`, { ...RESTORED, xLabels: p.tokens, yLabels: blocks, maxCell: 36 })),
  ];
}

function sorterFigures(p) {
  const [L, H, S] = p.headsRestored.shape;
  const heads = Array.from({ length: L * H }, (_, i) => `decoder ${Math.floor(i / H)} head ${i % H}`);
  return [
    el('p', { class: 'mono' }, `answer [${p.answer.join(' ')}]`),
    heatmap({ data: p.headsRestored.data, shape: [L * H, S] }, 'the sorter: restored by one cross-attention head, per output digit',
      { ...RESTORED, xLabels: p.answer.map((d) => `→${d}`), yLabels: heads, maxCell: 36 }),
  ];
}

export default {
  id: 'E3',
  title: 'Activation patching: which heads carry the answer',
  text: 'Change a word, then copy one piece of the clean run back into the corrupted one: the pieces that ' +
    'bring the answer back are the ones that carry it. Beyond the course.',
  mount(card, ctx) {
    const model = field('model', { kind: 'select', value: readSetting('e3.model') || MODELS[0].slot, options: MODELS.map((m) => [m.slot, m.name]) });
    const family = () => familyOf(model.input.value, ctx.models.get(model.input.value));
    const clean = urlField('e3.clean', 'clean', DEFAULTS[family()][0]);
    const corrupted = urlField('e3.corrupted', 'corrupted (as many words)', DEFAULTS[family()][1]);
    const position = urlField('e3.position', 'position (-1: the last)', -1, { kind: 'number', min: -1 });
    const target = urlField('e3.target', 'target word (empty: the clean run\'s likeliest)', '');
    let shown = family();
    const retarget = () => {  // the other family's defaults give way to this one's
      const now = family();
      if (clean.input.value === DEFAULTS[shown][0] && corrupted.input.value === DEFAULTS[shown][1]) [clean.input.value, corrupted.input.value] = DEFAULTS[now];
      shown = now;
      for (const f of [position, target]) f.wrap.hidden = now === 'sorter';
    };
    model.input.addEventListener('change', () => writeSetting('e3.model', model.input.value, MODELS[0].slot));
    const render = async () => {
      retarget();
      const slot = model.input.value;
      const pair = [clean.input.value, corrupted.input.value];
      let name = 'the sorter', read, figures;
      if (slot === SORTER) {
        requireSorter(ctx);
        [read, figures] = [(call) => call('sorterPatching', ...pair), (p) => el('div', {}, ...sorterFigures(p))];
      } else {
        ({ name } = lookableModel(ctx, slot));
        const asked = { clean: pair[0], corrupted: pair[1], position: Number(position.input.value), target: target.input.value.trim() || -1 };
        [read, figures] = [(call) => call('patching', asked), (p, { at, step }) => el('div', {}, ...tokenFigures(p, at === null ? name : `${name}, step ${step}`))];
      }
      const sides = await readSides(ctx, slot, ['E3', pair, position.input.value, target.input.value], read);
      card.output.replaceChildren(el('p', { class: 'story-meta' }, `${name} at ${sidesText(sides)}`), sidesFigure(sides, figures));
      showsSides(card, slot, sides);
    };
    const draw = () => card.busy(render, 'Patching…');
    for (const f of [model, clean, corrupted, position, target]) f.input.addEventListener('change', draw);
    card.controls.append(model.wrap, clean.wrap, corrupted.wrap, position.wrap, target.wrap, button('Show', draw));
    for (const m of MODELS) ctx.models.onReady(m.slot, () => model.input.value === m.slot && draw());
    followTimeline(ctx, MODELS.map((m) => m.slot), (slot) => model.input.value === slot && draw());
    // Patching runs the model about 80 times on a story sentence (blocks x heads, blocks x positions): 70 ms
    // of the worker's time, more than the other live views together, so it is redrawn in one round of four.
    ctx.live.watch(MODELS.map((m) => m.slot), (slot) => (slot === model.input.value ? render() : Promise.resolve()), { every: LIVE_EVERY });
    if (ctx.models.isReady(model.input.value)) draw();  // a model trained before the section was opened
  },
};
