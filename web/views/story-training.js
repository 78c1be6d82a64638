// C1, C6, C9, C10: the diffusion model and the left-to-right (causal) model trained on the stories, their
// losses per token on one plot with the lines at 7.6 (every word equally likely) and 5.4 (knowing which
// words are common). Rotary positions are a switch (C9). C10 starts a diffusion model from the trained
// causal model's weights with the triangle of infinite energies removed.
import { Msg } from '../shared/protocol.js';
import { LossChart } from '../widgets/charts.js';
import { TrainingPanel } from '../widgets/training-panel.js';
import { el, fmt } from '../widgets/ui.js';
import { STORY_MODELS } from '../page/model-slots.js';

const FIELDS = ['dim', 'heads', 'layers', 'length', 'steps', 'lr', 'batch', 'seed', 'rotary'];

export default {
  id: 'C1, C6, C9, C10',
  key: 'C-train',
  title: 'Train on stories',
  text: 'Batches of 64 random windows of 32 words. The diffusion model fills in masks; the causal one guesses ' +
    'the next word and may only listen to its left. The course trains 5000 steps of each (1500 without a GPU).',
  async mount(card, ctx) {
    const chart = new LossChart({
      title: 'Loss per token (window average over 100 steps)',
      lines: [{ value: 7.6, label: '7.6 uniform' }, { value: 5.4, label: '5.4 word frequencies' }],
    });
    const validation = el('p', { class: 'story-meta', 'aria-live': 'polite' });
    const common = { task: 'stories', kind: 'transformer', chart, needsCorpus: true };
    const diffusion = new TrainingPanel(ctx, { ...common, ...STORY_MODELS[0], urlKey: 'c1', fields: FIELDS, causalRequired: false });
    const causal = new TrainingPanel(ctx, {
      ...common, ...STORY_MODELS[1], urlKey: 'c6', fields: FIELDS, causalRequired: true,
      overrides: (c) => (c.model.causal = true),
    });
    const fromCausal = new TrainingPanel(ctx, {
      ...common, ...STORY_MODELS[2], urlKey: 'c10', fields: ['steps', 'lr', 'batch', 'seed'], causalRequired: false,
      adjustConfig: (c) => {
        const source = ctx.models.get(STORY_MODELS[1].slot);
        if (!source || !source.config) throw new Error('train (or upload) the left-to-right model first: C10 starts from its weights');
        return { ...c, model: { ...source.config, causal: false } };
      },
      // Refused when the two vocabularies differ (e.g. a causal model trained by the CLI on other text):
      // the new run is dropped again and the panel says why.
      afterCreate: (info) => ctx.client.request(Msg.LOAD_WEIGHTS, { slot: info.slot, from: STORY_MODELS[1].slot })
        .catch(async (error) => {
          await ctx.client.request(Msg.DROP, { slot: info.slot });
          throw new Error(`C10 cannot start from the left-to-right model: ${error.message}`);
        }),
    });
    card.output.append(chart.container, validation, diffusion.node, causal.node,
      el('h4', {}, 'C10: diffusion from a causal model'),
      el('p', { class: 'lead' }, 'Take the trained left-to-right weights, remove the causal mask and train on with the diffusion loss.'),
      fromCausal.node);
    const losses = new Map();
    for (const m of STORY_MODELS) {
      ctx.models.onReady(m.slot, async () => {
        const v = await ctx.client.call(m.slot, 'validationLoss').catch(() => null);
        if (v !== null) losses.set(m.name, v);
        validation.textContent = losses.size ? `Held-out loss per token: ${[...losses].map(([n, l]) => `${n} ${fmt(l, 4)}`).join(', ')}` : '';
      });
    }
    await Promise.all([diffusion, causal, fromCausal].map((p) => p.init()));
  },
};
