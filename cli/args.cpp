#include "args.hpp"

#include <cmath>
#include <cstdlib>

#include "util/error.hpp"

namespace tf::cli {

Args::Args(const std::vector<std::string>& argv, const std::set<std::string>& options,
           const std::set<std::string>& flags) {
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    TF_CHECK(a.size() > 2 && a.compare(0, 2, "--") == 0, "unexpected argument '", a,
             "' (options start with --)");
    std::string name = a.substr(2), value;
    bool inline_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      inline_value = true;
    }
    if (flags.count(name)) {
      TF_CHECK(!inline_value, "--", name, " takes no value");
      flags_.insert(name);
      continue;
    }
    TF_CHECK(options.count(name), "unknown option --", name, " (see `tinyformer help`)");
    if (!inline_value) {
      TF_CHECK(i + 1 < argv.size(), "--", name, " needs a value");
      value = argv[++i];
    }
    TF_CHECK(!values_.count(name), "--", name, " given twice");
    values_[name] = value;
  }
}

std::string Args::str(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

int64_t Args::integer(const std::string& name, int64_t fallback) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  char* end = nullptr;
  long long v = std::strtoll(it->second.c_str(), &end, 10);
  TF_CHECK(!it->second.empty() && *end == '\0', "--", name, " needs a whole number, got '", it->second, "'");
  return v;
}

double Args::number(const std::string& name, double fallback) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  char* end = nullptr;
  double v = std::strtod(it->second.c_str(), &end);
  TF_CHECK(!it->second.empty() && *end == '\0' && std::isfinite(v), "--", name, " needs a number, got '",
           it->second, "'");
  return v;
}

}  // namespace tf::cli
