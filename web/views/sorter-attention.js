// D3, D4: for one input, the encoder self-attention (2 layers x 4 heads, digit against digit) and the
// decoder cross-attention (rows = output step, columns = input position); redrawn by itself while the
// sorter trains (live views).
import { heatmap, slice } from '../widgets/heatmap.js';
import { el, button } from '../widgets/ui.js';
import { SORTER, requireSorter, showsModel } from '../page/model-slots.js';
import { digitLabels, sorterInputField } from '../widgets/sorter-inputs.js';

function maps(layers, prefix, x, y, cmap) {
  return layers.flatMap((layer, l) => Array.from({ length: layer.shape[0] }, (_, h) =>
    heatmap(slice(layer, h), `${prefix} L${l} head ${h}`, { vmin: 0, vmax: 1, xLabels: x, yLabels: y, cmap, maxCell: 26 })));
}

export default {
  id: 'D3, D4',
  title: 'Encoder self-attention and decoder cross-attention',
  text: 'Encoder: rows = query digit, columns = key digit. Cross-attention: each output step looks back at the input.',
  mount(card, ctx) {
    const digits = sorterInputField();
    const render = async () => {
      const info = requireSorter(ctx);
      const r = await ctx.client.call(SORTER, 'sorterAttention', digits.input.value);
      const { src, out } = digitLabels(r);
      card.output.replaceChildren(
        el('p', { class: 'mono' }, `input [${r.input.join(' ')}] → output [${r.output.join(' ')}] ${r.correct ? '✓' : '✗'} (step ${info.stepsDone ?? '?'})`),
        el('h4', {}, 'Encoder self-attention'), el('div', { class: 'grid narrow' }, ...maps(r.encoder, 'encoder', src, src, 'blues')),
        el('h4', {}, 'Decoder cross-attention'), el('div', { class: 'grid narrow' }, ...maps(r.cross, 'cross-attn', src, out, 'greens')));
      showsModel(card, SORTER, info.stepsDone);
    };
    const draw = () => card.busy(render, 'Reading the attention…');
    card.controls.append(digits.wrap, button('Show', draw));
    ctx.models.onReady(SORTER, draw);
    ctx.live.watch([SORTER], render);
  },
};
