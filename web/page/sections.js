// The course's sections in the course's order, each a list of views, then the lab's own extensions (E). The
// ids (A1–E3) are explained in the repository's docs/course-map.md: for each, what it shows, its view here,
// its core function and its test.
import positionalEncoding from '../views/positional-encoding.js';
import embeddingLookup from '../views/embedding-lookup.js';
import attentionSteps from '../views/attention-steps.js';
import temperature from '../views/temperature.js';
import entropyScale from '../views/entropy-scale.js';
import permutation from '../views/permutation.js';
import masks from '../views/masks.js';
import heads from '../views/heads.js';
import feedForward from '../views/feed-forward.js';
import layerNorm from '../views/layer-norm.js';
import toyTraining from '../views/toy-training.js';
import toyGuesses from '../views/toy-guesses.js';
import undiffuseCensus from '../views/undiffuse-census.js';
import toyAttention from '../views/toy-attention.js';
import shapesCounts from '../views/shapes-counts.js';
import corpus from '../views/corpus.js';
import storyTraining from '../views/story-training.js';
import storyWriting from '../views/story-writing.js';
import storyAttention from '../views/story-attention.js';
import storySources from '../views/story-sources.js';
import causalCheck from '../views/causal-check.js';
import sorterTraining from '../views/sorter-training.js';
import sorterExamples from '../views/sorter-examples.js';
import sorterAttention from '../views/sorter-attention.js';
import rollout from '../views/rollout.js';
import saliency from '../views/saliency.js';
import parameterShares from '../views/parameter-shares.js';
import timeProfile from '../views/time-profile.js';
import logitLens from '../views/logit-lens.js';
import patching from '../views/patching.js';

export const SECTIONS = [
  {
    id: 'A', title: 'The pieces',
    text: 'Positions, attention, masks, heads, the feed-forward net and the block, each on small random pieces.',
    views: [positionalEncoding, embeddingLookup, attentionSteps, temperature, entropyScale, permutation, masks,
      heads, feedForward, layerNorm],
  },
  {
    id: 'B', title: 'A two-sentence language',
    text: '"the cat is alive" (80 %) and "the box is empty" (20 %). The best possible loss is the entropy, 0.50.',
    views: [toyTraining, toyGuesses, undiffuseCensus, toyAttention, shapesCounts],
  },
  {
    id: 'C', title: 'Stories',
    text: 'Train MyTransformer on 4 MB of TinyStories, have it write, then flip one switch to write left to right.',
    views: [corpus, storyTraining, timeProfile, storyWriting, storyAttention, storySources, causalCheck],
  },
  {
    id: 'D', title: 'A transformer that sorts',
    text: 'An encoder–decoder learns to sort ten digits; then we look at who attends to whom, and why.',
    views: [sorterTraining, sorterExamples, sorterAttention, rollout, saliency, parameterShares],
  },
  {
    id: 'E', title: 'Beyond the course: inside your own model',
    text: 'What each block would predict, and which heads carry the answer, on the models trained above, live while they train.',
    views: [logitLens, patching],
  },
];
