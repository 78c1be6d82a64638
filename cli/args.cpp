#include "args.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <stdexcept>

#include <CLI/CLI.hpp>

#include "tinyformer.hpp"

namespace tf::cli {

namespace {

// The whole string as a base-10 integer that fits in 64 bits, or nothing (no silent wrap-around).
std::optional<int64_t> parse_whole(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (*end != '\0' || errno == ERANGE) return std::nullopt;
  return v;
}

std::optional<double> parse_number(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (*end != '\0' || !std::isfinite(v)) return std::nullopt;
  return v;
}

template <class T>
std::string range_text(T min, T max) {
  std::ostringstream os;
  os << min;
  if (max == std::numeric_limits<T>::max())
    os << " or more";
  else
    os << ".." << max;
  return os.str();
}

CLI::Option* value_option(CLI::App& app, const std::string& name, const std::string& value_name,
                          const std::string& help) {
  CLI::Option* o = app.add_option("--" + name, help);
  o->type_name(value_name);
  return o;
}

template <class T>
std::string text_of(T value) {
  std::ostringstream os;
  os << value;
  return os.str();
}

// An option whose value must read (through `read`) as a T in [min, max]; `needs` names what it must be.
template <class T>
void ranged_option(CLI::App& app, const std::string& name, const std::string& value_name,
                   const std::string& help, T min, T max, std::optional<T> (*read)(const std::string&),
                   const char* needs, std::optional<T> fallback) {
  std::string range = range_text(min, max);
  CLI::Option* o = value_option(app, name, value_name, help + " [" + range + "]");
  o->check(CLI::Validator(
      [range, min, max, read, needs](std::string& s) -> std::string {
        std::optional<T> v = read(s);
        if (v && *v >= min && *v <= max) return "";
        return std::string("needs ") + needs + " in " + range + ", got '" + s + "'";
      },
      ""));
  if (fallback) o->default_str(text_of(*fallback));
}

// The option's value read as a T; the table guarantees one unless the option has neither value nor default.
template <class T>
T value_of(const std::string& name, const std::string& text, std::optional<T> (*read)(const std::string&)) {
  std::optional<T> v = read(text);
  if (!v) throw std::logic_error("--" + name + " has no value and no default");
  return *v;
}

}  // namespace

void OptionTable::integer(const std::string& name, const std::string& value_name, const std::string& help,
                          int64_t min, int64_t max, std::optional<int64_t> fallback) {
  ranged_option(app_, name, value_name, help, min, max, &parse_whole, "a whole number", fallback);
}

void OptionTable::number(const std::string& name, const std::string& help, double min, double max,
                         std::optional<double> fallback) {
  ranged_option(app_, name, "X", help, min, max, &parse_number, "a number", fallback);
}

void OptionTable::text(const std::string& name, const std::string& value_name, const std::string& help,
                       std::optional<std::string> fallback, bool required) {
  CLI::Option* o = value_option(app_, name, value_name, help);
  if (fallback) o->default_str(*fallback);
  if (required) o->required();
}

void OptionTable::choice(const std::string& name, const std::vector<std::string>& choices,
                         const std::string& help, std::optional<std::string> fallback) {
  std::string names;
  for (const std::string& c : choices) names += (names.empty() ? "" : "|") + c;
  CLI::Option* o = value_option(app_, name, names, help);
  o->check(CLI::Validator(
      [name, choices, names](std::string& s) -> std::string {
        for (const std::string& c : choices)
          if (s == c) return "";
        return "unknown " + name + " '" + s + "' (expected " + names + ")";
      },
      ""));
  if (fallback) o->default_str(*fallback);
}

void OptionTable::output_file(const std::string& name, const std::string& help) {
  CLI::Option* o = value_option(app_, name, "FILE", help);
  o->check(CLI::Validator(
      [](std::string& s) -> std::string {
        try {
          check_replaceable(s);
        } catch (const Error& e) {
          return e.what();
        }
        return "";
      },
      ""));
}

void OptionTable::flag(const std::string& name, const std::string& help) { app_.add_flag("--" + name, help); }

bool Args::has(const std::string& name) const { return app_.get_option("--" + name)->count() > 0; }

std::string Args::str(const std::string& name) const {
  const CLI::Option* o = app_.get_option("--" + name);
  return o->count() > 0 ? o->results().front() : o->get_default_str();
}

int64_t Args::integer(const std::string& name) const { return value_of(name, str(name), &parse_whole); }

double Args::number(const std::string& name) const { return value_of(name, str(name), &parse_number); }

std::string Args::str(const std::string& name, const std::string& fallback) const {
  return has(name) ? str(name) : fallback;
}

int64_t Args::integer(const std::string& name, int64_t fallback) const {
  return has(name) ? integer(name) : fallback;
}

double Args::number(const std::string& name, double fallback) const {
  return has(name) ? number(name) : fallback;
}

}  // namespace tf::cli
