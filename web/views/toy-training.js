// B1–B3: NoTalking, WithPosition and MyTransformer(14, 32, 1, 1) trained on the two sentences with the
// diffusion loss, their losses on one log-scale plot with the course's lines at 6.55 (guessing word
// frequencies), 1.0 (knowing the position) and 0.50 (the entropy: the best anyone can do).
import { LossChart } from '../widgets/charts.js';
import { TrainingPanel } from '../widgets/training-panel.js';
import { button } from '../widgets/ui.js';
import { TOY_RUNS } from '../page/model-slots.js';

export default {
  id: 'B1–B3',
  key: 'B-train',
  title: 'Train three networks on two sentences',
  text: 'NoTalking sees only its own token: it can only learn word frequencies (4 × 1.64 = 6.55). WithPosition ' +
    'also knows where it is (1.0). MyTransformer lets the positions talk and closes the gap to 0.50.',
  async mount(card, ctx) {
    const chart = new LossChart({
      title: 'Diffusion loss (window average over 100 steps)',
      lines: [{ value: 6.55, label: '6.55 NoTalking' }, { value: 1.0, label: '1.0 WithPosition' }, { value: 0.5, label: '0.50 entropy' }],
    });
    const panels = TOY_RUNS.map((r) => new TrainingPanel(ctx, { ...r, task: 'toy', chart }));
    const all = button('Train all three, one after another', async () => {
      all.disabled = true;
      for (const p of panels) await p.start();
      all.disabled = false;
    }, { class: 'primary' });
    card.controls.append(all);
    card.output.append(chart.container, ...panels.map((p) => p.node));
    await Promise.all(panels.map((p) => p.init()));
  },
};
