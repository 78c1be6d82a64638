// Where story text comes from on the command line: --data tinystories (the course's 4 MB slice, fetched
// once into a cache with a progress bar), builtin (the project's own story grammar, offline), or files
// (comma-separated; their texts are joined). --valid names held-out text; without it the task holds out
// the tail of the training text (or, for builtin, a second generated text).
#pragma once
#include <string>

#include "args.hpp"

namespace tf::cli {

struct StoryText {
  std::string train, valid, description;
};

void data_options(OptionTable& o);  // --data, --valid, --cache-dir, --url
StoryText load_story_text(const Args& args);

}  // namespace tf::cli
