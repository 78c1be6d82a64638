// A2: the embedding is a table with a row per token; looking up a sentence gives one row per word, and a
// word that comes twice gets the same row twice. The table here belongs to a fresh toy MyTransformer.
import { Msg } from '../shared/protocol.js';
import { heatmap } from '../widgets/heatmap.js';
import { el, button, field, facts, grid, verdict } from '../widgets/ui.js';
import { toyBatch } from '../page/toy-batch.js';

const SLOT = 'a2-embedding';

// Whether the batch's first sentence got `rows`, the rows that sentence gets alone.
const firstRowsAre = (batch, rows) => rows.data.every((v, i) => v === batch.data[i]);

// Groups of positions whose rows are identical.
function repeatedRows(rows) {
  const [n, d] = rows.shape;
  const key = (i) => Array.from(rows.data.subarray(i * d, (i + 1) * d)).join(',');
  const groups = new Map();
  for (let i = 0; i < n; i++) groups.set(key(i), [...(groups.get(key(i)) || []), i]);
  return [...groups.values()].filter((g) => g.length > 1);
}

export default {
  id: 'A2',
  title: 'Words to vectors: the embedding',
  text: 'An embedding is a table with one row per token. table[x] looks up every token of x at once.',
  mount(card, ctx) {
    const sentence = field('sentence (toy words)', { kind: 'text', value: 'the cat is the box' });
    const dim = field('d', { value: 8, min: 2, max: 64, step: 2 });
    const seed = field('seed', { value: 0, min: 0 });
    const draw = () => card.busy(async () => {
      const d = dim.whole();
      await ctx.client.request(Msg.CREATE_RUN, {
        slot: SLOT, config: { task: 'toy', seed: seed.whole(), model: { dim: d, heads: 1 } },
      });
      const r = await ctx.client.request(Msg.EMBEDDING_ROWS, { slot: SLOT, input: sentence.input.value });
      const sentences = toyBatch();
      const b = await ctx.client.request(Msg.EMBEDDING_ROWS, { slot: SLOT, input: sentences });
      const [B, T] = b.rows.shape;
      const first = await ctx.client.request(Msg.EMBEDDING_ROWS, { slot: SLOT, input: sentences[0] });
      const groups = repeatedRows(r.rows);
      const dims = Array.from({ length: d }, (_, i) => `d${i}`);
      card.output.replaceChildren(grid(heatmap(r.rows, `table[x] for "${r.tokens.join(' ')}"`, {
        cmap: 'diverging', symmetric: true, xLabels: dims, yLabels: r.tokens, xTitle: 'component', maxCell: 32,
      })), facts([
        ['table', `[${r.table.join(', ')}]: ${r.table[0]} tokens × d = ${r.table[1]}`],
        ['x', `[${r.ids.join(', ')}]`],
        ['table[x]', `[${r.rows.shape.join(', ')}]`],
        [`a batch x of ${B} toy sentences of ${T} tokens`, el('span', {}, `table[x] is [${b.rows.shape.join(', ')}]; sentence 0's rows `,
          verdict(firstRowsAre(b.rows, first.rows), 'are its rows alone', 'differ from its rows alone'))],
        ['identical rows', groups.length ? groups.map((g) => `${g.map((i) => `row ${i}`).join(' = ')} ("${r.tokens[g[0]]}")`).join('; ') : 'none: no word repeats'],
      ]));
    }, 'Looking up…');
    card.controls.append(sentence.wrap, dim.wrap, seed.wrap, button('Look up', draw));
    draw();
  },
};
