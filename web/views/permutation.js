// A6: without positions attention does not know the order: attention of the shuffled sentence is the
// shuffled attention of the sentence.
import { el, button, facts, verdict, fmt } from '../widgets/ui.js';
import { walkthroughControls, words } from '../page/walkthrough.js';

export default {
  id: 'A6',
  title: 'Shuffling: attention has no idea of order',
  text: 'Shuffle the positions (no position vectors added) and the output is the old output, shuffled the same way.',
  mount(card, ctx) {
    const { read, fields } = walkthroughControls(card, { heads: 0 });
    const draw = () => card.busy(async () => {
      const options = read();
      const f = await ctx.client.figure('attentionWalkthrough', options);
      const t = words(options.sentence);
      const perm = f.values.permutation;
      card.output.replaceChildren(facts([
        ['permutation', `[${perm.join(', ')}]`],
        ['shuffled sentence', perm.map((i) => t[i]).join(' ')],
        ['attention(shuffled X) == shuffled attention(X)',
          el('span', {}, verdict(f.values.permutationGap < 1e-5), ` (largest gap ${fmt(f.values.permutationGap)})`)],
      ]));
    }, 'Shuffling…');
    card.controls.append(button('Shuffle again', () => {
      const seed = fields.seed.input;
      seed.value = String(Number(seed.value) + 1);
      draw();
    }));
    draw();
  },
};
