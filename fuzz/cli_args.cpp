// Fuzz target: command lines. The input split at NUL bytes is argv after the program name; the real parser
// (CLI11 over every command's option table, with the ranges it checks) runs, and a stand-in runner takes the
// parsed command instead of training or reading files. Whatever the words, the outcome is an exit status
// of 0 (parsed, or --help/--version) or 2 (a usage error, named), never a crash or an escaped exception.
#include <string>
#include <vector>

#include "command_line.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args;
  std::string word;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] != 0) {
      word.push_back(static_cast<char>(data[i]));
      continue;
    }
    args.push_back(word);
    word.clear();
  }
  if (!word.empty() || args.empty()) args.push_back(word);
  int status =
      tf::cli::run_command_line(args, [](const tf::cli::Command&, const tf::cli::Args&) { return 0; });
  FUZZ_CHECK(status == 0 || status == 2, "a command line is parsed (0) or a usage error (2)");
  return 0;
}
