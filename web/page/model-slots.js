// The worker slots that hold the page's trained models, named once: the views that train a model (B1-B3,
// C1/C6/C10, D1) and the views that look inside it afterwards use the same slot names from here.

// B1-B3: the toy-language runs, their settings kept in the URL under urlKey.
export const TOY_RUNS = [
  { slot: 'toy-notalking', name: 'NoTalking', kind: 'notalking', urlKey: 'b1', fields: ['dim', 'steps', 'lr', 'batch', 'seed'] },
  { slot: 'toy-withposition', name: 'WithPosition', kind: 'withposition', urlKey: 'b2', fields: ['dim', 'steps', 'lr', 'batch', 'seed'] },
  { slot: 'toy-transformer', name: 'MyTransformer', kind: 'transformer', urlKey: 'b3', fields: ['dim', 'heads', 'layers', 'steps', 'lr', 'batch', 'seed'] },
];

// C1, C6, C10: the story models.
export const STORY_MODELS = [
  { slot: 'stories-diffusion', name: 'diffusion' },
  { slot: 'stories-causal', name: 'left to right' },
  { slot: 'stories-from-causal', name: 'diffusion from causal' },
];

// A trained (or uploaded) story model in `slot`, or an error that says to train one.
export function storyModelInfo(ctx, slot) {
  const info = ctx.models.get(slot);
  if (!info || info.state === 'empty' || !info.config) throw new Error('train a story model above first (or upload one)');
  return info;
}

// D1: the encoder-decoder sorter.
export const SORTER = 'sorter';

export function requireSorter(ctx) {
  const info = ctx.models.get(SORTER);
  if (!info || info.state === 'empty') throw new Error('train the sorter in D1 first (or upload one)');
  return info;
}

// The card shows `slot` at `step` (data-step), and its PNGs are named after them (ui.pngButton).
export function showsModel(card, slot, step) {
  card.node.dataset.step = String(step);
  card.node.dataset.model = `${slot} step ${step ?? 0}`;
}

// E2, E3: the models with blocks to look inside (MyTransformer): the story models and B3's toy transformer.
export const LOOKABLE_MODELS = [...STORY_MODELS.map((m) => ({ ...m, name: `${m.name} story model` })),
  { slot: 'toy-transformer', name: 'toy MyTransformer' }];

// The model in `slot` of LOOKABLE_MODELS: {slot, name, info}, or an error that says to train it.
export function lookableModel(ctx, slot) {
  const model = LOOKABLE_MODELS.find((m) => m.slot === slot) ?? LOOKABLE_MODELS[0];
  const info = ctx.models.get(model.slot);
  if (!info || info.state === 'empty' || !info.config) throw new Error(`train the ${model.name} above first (or upload one)`);
  return { ...model, info };
}
