// The built-in story corpus: a small probabilistic grammar of children's stories written for this project
// (a cast with names, places, objects, feelings, a plot or two with dialogue, an ending), in the format
// of TinyStories V2 (paragraphs on lines, stories ended by an "<|endoftext|>" line). It lets training,
// tests and the page run offline; it is deterministic for a seed and makes ~4 MB in a fraction of a second.
#pragma once
#include <cstdint>
#include <string>

namespace tf {

constexpr uint64_t kStoryTrainSeed = 1;  // the default training text
constexpr uint64_t kStoryValidSeed = 2;  // a separate text for validation
constexpr int64_t kStoryCorpusBytes = 4'000'000;

// Whole stories until the text holds at least `min_bytes` bytes (so it ends with a separator line).
std::string generate_stories(uint64_t seed, int64_t min_bytes = kStoryCorpusBytes);

}  // namespace tf
