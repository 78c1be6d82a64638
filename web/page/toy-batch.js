// The toy language's batch that sections A and B look at: 64 sentences, "the cat is alive" 80 % and
// "the box is empty" 20 % (a fixed pattern of draws, so every visit shows the same batch).
export function toyBatch() {
  return Array.from({ length: 64 }, (_, i) => ((i * 37) % 10 < 8 ? 'the cat is alive' : 'the box is empty'));
}
