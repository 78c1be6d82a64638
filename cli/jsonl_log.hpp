// The training log (--log FILE.jsonl): one JSON object per line, appended and flushed every line so a
// crash loses nothing. A write that fails (a full disk, /dev/full) throws, naming the file and the reason,
// instead of leaving a log with silent gaps.
#pragma once
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

namespace tf::cli {

class JsonlLog {
 public:
  explicit JsonlLog(std::string path);  // opens for appending; throws tf::Error when it cannot
  ~JsonlLog();
  JsonlLog(const JsonlLog&) = delete;
  JsonlLog& operator=(const JsonlLog&) = delete;
  void write(const nlohmann::json& line);

 private:
  std::string path_;
  std::FILE* file_;
};

}  // namespace tf::cli
