// Weights taken from another model (CLI --init-from, course C10 on the page) only mean the same thing when
// both models number their words the same way; matching tensor shapes is not enough (two story texts give
// two vocabularies of the same size). This is the check, with a message that says how far they differ.
#pragma once
#include <string>
#include <vector>

namespace tf {

// Throws tf::Error when both vocabularies are known (non-empty) and differ in size or in any word.
void require_same_vocabulary(const std::vector<std::string>& weights, const std::vector<std::string>& run);

}  // namespace tf
