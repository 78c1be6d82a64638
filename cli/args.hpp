// Command-line options: each command declares its options once in an OptionTable (name, kind, range or
// choices, default, help) on a CLI11 subcommand, so parsing, range checks and the `--help` text come from the
// same table. Values are read back through Args. What the user typed wrongly is a UsageError (exit 2).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tinyformer.hpp"

namespace CLI {
class App;
}

namespace tf::cli {

// A mistake on the command line itself: the process exits with status 2 and a pointer to --help.
class UsageError : public Error {
 public:
  explicit UsageError(const std::string& message) : Error(message) {}
};

// Runs fn, turning a tf::Error it throws into a UsageError: for core calls that only check what was typed.
template <class Fn>
auto checking_options(Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const UsageError&) {
    throw;
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
}

// Declares a subcommand's options. Names are given without the leading "--".
class OptionTable {
 public:
  explicit OptionTable(CLI::App& app) : app_(app) {}
  // A whole number within [min, max]; no default means "absent unless given" (the command picks one).
  void integer(const std::string& name, const std::string& value_name, const std::string& help, int64_t min,
               int64_t max, std::optional<int64_t> fallback = std::nullopt);
  // A finite number within [min, max].
  void number(const std::string& name, const std::string& help, double min, double max,
              std::optional<double> fallback = std::nullopt);
  // Free text (a path, a prompt); `required` makes the command refuse to run without it.
  void text(const std::string& name, const std::string& value_name, const std::string& help,
            std::optional<std::string> fallback = std::nullopt, bool required = false);
  // One of a fixed list of words.
  void choice(const std::string& name, const std::vector<std::string>& choices, const std::string& help,
              std::optional<std::string> fallback = std::nullopt);
  // A path that the command will replace: a regular file or a new name (see io/file_bytes.hpp).
  void output_file(const std::string& name, const std::string& help);
  void flag(const std::string& name, const std::string& help);

 private:
  CLI::App& app_;
};

// The values a subcommand was given, by option name (without "--").
class Args {
 public:
  explicit Args(const CLI::App& app) : app_(app) {}
  bool has(const std::string& name) const;  // given on the command line
  bool flag(const std::string& name) const { return has(name); }
  std::string str(const std::string& name) const;  // the value, or the table's default
  int64_t integer(const std::string& name) const;
  double number(const std::string& name) const;
  // For options whose default depends on other options (e.g. the task's course settings).
  std::string str(const std::string& name, const std::string& fallback) const;
  int64_t integer(const std::string& name, int64_t fallback) const;
  double number(const std::string& name, double fallback) const;

 private:
  const CLI::App& app_;
};

}  // namespace tf::cli
