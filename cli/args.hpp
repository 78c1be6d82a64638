// Command-line options: `--name value` and bare `--flag`s, each declared by the command that reads it, so
// a misspelt or unknown option is an error rather than silently ignored.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace tf::cli {

class Args {
 public:
  // argv after the subcommand. `flags` take no value; `options` take one.
  Args(const std::vector<std::string>& argv, const std::set<std::string>& options,
       const std::set<std::string>& flags);

  bool has(const std::string& name) const { return values_.count(name) > 0; }
  bool flag(const std::string& name) const { return flags_.count(name) > 0; }
  std::string str(const std::string& name, const std::string& fallback = "") const;
  int64_t integer(const std::string& name,
                  int64_t fallback) const;  // whole numbers only, clear error otherwise
  double number(const std::string& name, double fallback) const;

 private:
  std::map<std::string, std::string> values_;
  std::set<std::string> flags_;
};

}  // namespace tf::cli
