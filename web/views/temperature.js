// A4: multiplying the queries by a number multiplies every energy: 10·q freezes each row onto one key
// (cold), 0.1·q melts it towards the uniform average (hot).
import { heatmap } from '../widgets/heatmap.js';
import { grid } from '../widgets/ui.js';
import { mountWalkthrough } from '../page/walkthrough.js';

export default {
  id: 'A4',
  title: 'Temperature',
  text: 'Scaling the queries scales every energy. Which of these is hot and which is cold?',
  mount(card, ctx) {
    mountWalkthrough(card, ctx, (f, t) => {
      const map = (a, title) => heatmap(a, title, { vmin: 0, vmax: 1, xLabels: t, yLabels: t });
      return [grid(
        map(f.arrays.weightsCold, 'Attention(10·q, k, v): cold'),
        map(f.arrays.weights, 'Attention(q, k, v)'),
        map(f.arrays.weightsHot, 'Attention(0.1·q, k, v): hot'),
      )];
    }, { heads: 0 });
  },
};
