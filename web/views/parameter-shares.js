// D7: where the parameters are. Attention vs FFN vs LayerNorm inside one encoder block of the sorter, the
// 12·d² rule of thumb, and 12·L·d² for GPT-2 small, GPT-2 XL and GPT-3.
import { Msg } from '../shared/protocol.js';
import { el, button, facts, barChart, percent } from '../widgets/ui.js';
import { SORTER } from '../page/model-slots.js';

const GPTS = [['GPT-2 small', 768, 12], ['GPT-2 XL', 1600, 48], ['GPT-3', 12288, 96]];

export default {
  id: 'D7',
  title: 'Where the parameters are',
  text: 'A block is 4·d² of attention and 8·d² of feed-forward net: 12·d². Multiply by the layers for a GPT.',
  mount(card, ctx) {
    const draw = () => card.busy(async () => {
      let info = ctx.models.get(SORTER);
      if (!info || info.state === 'empty') {  // counting needs no training: a fresh sorter will do
        info = await ctx.client.request(Msg.CREATE_RUN, { slot: 'd7-fresh', config: { task: 'sort' } });
      }
      const report = await ctx.client.call(info.slot, 'parameters');
      const block = report.rows.filter((r) => r.name.startsWith('enc.0.'));
      const by = (g) => block.filter((r) => r.group === g).reduce((s, r) => s + r.count, 0);
      const total = block.reduce((s, r) => s + r.count, 0);
      const d = info.config.dim;
      const estimates = await Promise.all(GPTS.map(([, dim, L]) => ctx.client.request(Msg.ESTIMATE, { layers: L, dim })));
      card.output.replaceChildren(facts([
        ['sorter parameters', report.total.toLocaleString('en')],
        [`encoder block (d = ${d})`, `attention ${by('attention').toLocaleString('en')}, FFN ${by('ffn').toLocaleString('en')}, LayerNorm ${by('layernorm').toLocaleString('en')}`],
        ['12·d²', (12 * d * d).toLocaleString('en')],
      ]), barChart([['attention', by('attention')], ['FFN', by('ffn')], ['LayerNorm', by('layernorm')]].map(([label, n]) => ({ label, value: n / total })),
        { caption: 'Share of one block', format: (v) => percent(v, 1) }),
      el('div', { class: 'table-wrap' }, el('table', {}, el('thead', {}, el('tr', {}, ...['model', 'd', 'layers', '12·L·d²'].map((h) => el('th', {}, h)))),
        el('tbody', {}, ...GPTS.map(([name, dim, L], i) => el('tr', {}, el('td', {}, name), el('td', { class: 'num' }, String(dim)),
          el('td', { class: 'num' }, String(L)), el('td', { class: 'num' }, `${(estimates[i] / 1e9).toFixed(2)} B parameters in the blocks`)))))));
    }, 'Counting…');
    card.controls.append(button('Count', draw));
    ctx.models.onReady(SORTER, draw);
    draw();
  },
};
