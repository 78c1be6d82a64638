#include "jsonl_log.hpp"

#include <cerrno>
#include <cstring>

#include "tinyformer.hpp"

namespace tf::cli {

JsonlLog::JsonlLog(std::string path) : path_(std::move(path)), file_(std::fopen(path_.c_str(), "a")) {
  TF_CHECK(file_ != nullptr, "cannot open the log file '", path_, "': ", std::strerror(errno));
}

JsonlLog::~JsonlLog() { std::fclose(file_); }

void JsonlLog::write(const nlohmann::json& line) {
  std::string text = line.dump() + "\n";
  errno = 0;
  bool ok = std::fwrite(text.data(), 1, text.size(), file_) == text.size() && std::fflush(file_) == 0;
  TF_CHECK(ok, "cannot write the log file '", path_, "': ", errno ? std::strerror(errno) : "write failed");
}

}  // namespace tf::cli
