// D3, D4: for one input, the encoder self-attention (2 layers x 4 heads, digit against digit) and the
// decoder cross-attention (rows = output step, columns = input position); it follows the sorter's timeline
// (the picked step beside now, or alone) and redraws by itself while the sorter trains (live views).
import { heatmap, slice } from '../widgets/heatmap.js';
import { el } from '../widgets/ui.js';
import { digitLabels, mountSorterView } from '../widgets/sorter-inputs.js';

function maps(layers, prefix, x, y, cmap) {
  return layers.flatMap((layer, l) => Array.from({ length: layer.shape[0] }, (_, h) =>
    heatmap(slice(layer, h), `${prefix} L${l} head ${h}`, { vmin: 0, vmax: 1, xLabels: x, yLabels: y, cmap, maxCell: 26 })));
}

function attention(r, { at, step }) {
  const { src, out } = digitLabels(r);
  return el('div', {},
    el('p', { class: 'mono' }, `input [${r.input.join(' ')}] → output [${r.output.join(' ')}] ${r.correct ? '✓' : '✗'} (step ${step ?? '?'}${at === null ? '' : ', timeline'})`),
    el('h4', {}, 'Encoder self-attention'), el('div', { class: 'grid narrow' }, ...maps(r.encoder, 'encoder', src, src, 'blues')),
    el('h4', {}, 'Decoder cross-attention'), el('div', { class: 'grid narrow' }, ...maps(r.cross, 'cross-attn', src, out, 'greens')));
}

export default {
  id: 'D3, D4',
  title: 'Encoder self-attention and decoder cross-attention',
  text: 'Encoder: rows = query digit, columns = key digit. Cross-attention: each output step looks back at the input.',
  mount(card, ctx) {
    mountSorterView(card, ctx, {
      key: 'D3', busy: 'Reading the attention…', read: (call, input) => call('sorterAttention', input), figure: attention, captioned: false,
    });
  },
};
