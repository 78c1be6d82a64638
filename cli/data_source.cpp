#include "data_source.hpp"

#include <cstdio>
#include <sstream>

#include "data/story_grammar.hpp"
#include "data/text_file.hpp"
#include "progress_bar.hpp"
#include "util/error.hpp"

namespace tf::cli {

namespace {

std::string join_files(const std::string& list) {
  std::string text;
  std::stringstream ss(list);
  for (std::string path; std::getline(ss, path, ',');) {
    if (path.empty()) continue;
    text += read_text_file(path);
    text += "\n";
  }
  TF_CHECK(!text.empty(), "--data names no files");
  return text;
}

}  // namespace

StoryText load_story_text(const Args& a) {
  std::string data = a.str("data", "builtin");
  StoryText t;
  if (data == "builtin") {
    t.train = generate_stories(kStoryTrainSeed);
    t.valid = generate_stories(kStoryValidSeed, kStoryCorpusBytes / 10);
    t.description = "built-in story grammar";
  } else if (data == "tinystories") {
    t.train = fetch_course_corpus(a);
    t.description = "TinyStoriesV2-GPT4-valid.txt, first 4,000,000 bytes";
  } else {
    t.train = join_files(data);
    t.description = data;
  }
  if (a.has("valid")) t.valid = join_files(a.str("valid"));
  return t;
}

}  // namespace tf::cli
