#include "data_source.hpp"

#include <cstdio>
#include <filesystem>
#include <sstream>

#include "fetch.hpp"
#include "progress_bar.hpp"
#include "tinyformer.hpp"

namespace tf::cli {

namespace {

// The files' text, joined; `cap` bytes at most, all files together (--max-text-bytes).
std::string join_files(const std::string& list, uint64_t cap) {
  std::string text;
  std::stringstream ss(list);
  for (std::string path; std::getline(ss, path, ',');) {
    if (path.empty()) continue;
    TF_CHECK(!std::filesystem::is_directory(path), "'", path,
             "' is a folder; --data and --valid take text files");
    TF_CHECK(text.size() < cap, "the text files are over --max-text-bytes ", cap, " together");
    text += read_text_file(path, -1, cap - text.size());
    text += "\n";
  }
  TF_CHECK(!text.empty(), "--data names no files");
  return text;
}

// The course's 4 MB slice, downloaded once (with a progress bar) and then read from the cache.
std::string fetch_course_corpus(const Args& a) {
  FetchOptions o;
  o.cache_dir = a.str("cache-dir");
  o.url = a.str("url");
  std::string cached = cached_slice_path(o);
  ProgressBar bar("download", o.bytes, "byte");
  bool downloaded = false;
  o.progress = [&](int64_t received, int64_t) {
    downloaded = true;
    bar.update(received, human_bytes(static_cast<double>(received)));
  };
  std::string text = fetch_tinystories_text(o);
  if (downloaded) bar.finish(human_bytes(static_cast<double>(o.bytes)));
  std::fprintf(stderr, "corpus cached at %s\n", cached.c_str());
  return text;
}

}  // namespace

void data_options(OptionTable& o) {
  o.text("data", "tinystories|builtin|FILE[,FILE...]",
         "story text: the course's TinyStories slice (downloaded once), the built-in story grammar, or files",
         "builtin");
  o.text("valid", "FILE[,FILE...]", "held-out story text (default: the tail of the training text)");
  o.integer("max-text-bytes", "N", "the most bytes --data or --valid files may hold, each list together", 1,
            static_cast<int64_t>(kMaxFileBytes), static_cast<int64_t>(kMaxTextBytes));
  o.text("cache-dir", "DIR", "where --data tinystories is cached (default: ~/.cache/tinyformer)");
  o.text("url", "URL", "where --data tinystories is downloaded from", std::string(kTinyStoriesUrl));
}

StoryText load_story_text(const Args& a) {
  std::string data = a.str("data");
  StoryText t;
  if (data == "builtin") {
    t.train = generate_stories(kStoryTrainSeed);
    t.valid = generate_stories(kStoryValidSeed, kStoryCorpusBytes / 10);
    t.description = "built-in story grammar";
  } else if (data == "tinystories") {
    t.train = fetch_course_corpus(a);
    t.description = "TinyStoriesV2-GPT4-valid.txt, first 4,000,000 bytes";
  } else {
    t.train = join_files(data, static_cast<uint64_t>(a.integer("max-text-bytes")));
    t.description = data;
  }
  if (a.has("valid"))
    t.valid = join_files(a.str("valid"), static_cast<uint64_t>(a.integer("max-text-bytes")));
  return t;
}

}  // namespace tf::cli
