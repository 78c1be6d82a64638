// What the views that look inside a trained story model (C4 and its sources view) share: the sentence they
// start from, with one word masked.
export const DEFAULT_SENTENCE = 'lily went to the _ to play with her ball .';
