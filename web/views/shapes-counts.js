// B5: shapes and counts. MyTransformer(14, 32, 2, 2) on a (64, 4) batch gives (64, 4, 14); the logits of
// sentence 0 do not depend on the other sentences of the batch; the parameters of a default
// MyTransformer(2002) by piece, and the largest piece.
import { Msg } from '../shared/protocol.js';
import { el, button, facts, verdict, fmt } from '../widgets/ui.js';
import { toyBatch } from '../page/toy-batch.js';

const SMALL = 'b5-small';

function maxGap(a, b) {
  let gap = 0;
  for (let i = 0; i < a.length; i++) gap = Math.max(gap, Math.abs(a[i] - b[i]));
  return gap;
}

export default {
  id: 'B5',
  title: 'Shapes and counts',
  text: 'Nearly every bug is a shape that is not what you thought: print them. And count what there is to train.',
  mount(card, ctx) {
    const draw = () => card.busy(async () => {
      await ctx.client.request(Msg.CREATE_RUN, { slot: SMALL, config: { task: 'toy', model: { dim: 32, heads: 2, layers: 2 } } });
      const sentences = toyBatch();
      const all = await ctx.client.call(SMALL, 'logits', sentences);
      const alone = await ctx.client.call(SMALL, 'logits', sentences[0]);
      const other = await ctx.client.call(SMALL, 'logits', [sentences[0], ...sentences.slice(1).reverse()]);
      const per = all.shape[1] * all.shape[2];
      const gapAlone = maxGap(all.data.subarray(0, per), alone.data);
      const gapOther = maxGap(all.data.subarray(0, per), other.data.subarray(0, per));
      const report = await ctx.client.request(Msg.PARAMETER_REPORT, {
        model: { kind: 'transformer', vocab: 2002, dim: 128, heads: 4, layers: 4, maxLength: 64 },
      });
      const largest = [...report.rows].sort((a, b) => b.count - a.count)[0];
      card.output.replaceChildren(facts([
        ['MyTransformer(14, 32, 2, 2) on a (64, 4) batch', `logits [${all.shape.join(', ')}]`],
        ['logits of sentence 0: alone vs in the batch', el('span', {}, verdict(gapAlone < 1e-5, 'the same'), ` (gap ${fmt(gapAlone)})`)],
        ['…and with the rest of the batch reversed', el('span', {}, verdict(gapOther < 1e-5, 'the same'), ` (gap ${fmt(gapOther)})`)],
        ['MyTransformer(2002) parameters', report.total.toLocaleString('en')],
        ['by piece', report.groups.map((g) => `${g.group} ${g.count.toLocaleString('en')}`).join(', ')],
        ['largest single piece', `${largest.name} ${largest.shape}: ${largest.count.toLocaleString('en')}`],
      ]));
    }, 'Building the models…');
    card.controls.append(button('Compute', draw));
    draw();
  },
};
