// D1: the encoder–decoder sorter (d = 64, 4 heads, 2 + 2 blocks) trained with teacher forcing: AdamW,
// one-cycle schedule with 10 % warm-up, clipping at 1.0, batch 128, 1200 steps. Loss on a log scale.
import { LossChart } from '../widgets/charts.js';
import { TrainingPanel } from '../widgets/training-panel.js';
import { SORTER } from '../page/model-slots.js';

export default {
  id: 'D1',
  title: 'Train a transformer to sort',
  text: 'Ten random digits in, the same digits sorted out. The decoder sees the answer so far (shifted right, ' +
    'after <sos>) and the encoded input, and guesses the next digit.',
  async mount(card, ctx) {
    const chart = new LossChart({ title: 'Training the transformer to sort', window: 20 });
    const panel = new TrainingPanel(ctx, {
      slot: SORTER, name: 'sorter', task: 'sort', kind: 'sorter', urlKey: 'd1', chart,
      fields: ['dim', 'heads', 'sorterLayers', 'steps', 'lr', 'batch', 'seed'],
    });
    card.output.append(chart.container, panel.node);
    await panel.init();
  },
};
