// JSON that comes from outside (checkpoint metadata, the page's requests) read defensively: parsing stops
// at a fixed nesting depth (a hostile file cannot exhaust the stack of the parser's users), and each field
// is read as exactly the type it must have. Every failure is a tf::Error naming what was read and the
// field; no message of the JSON library reaches a user.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace tf::json_fields {

using Json = nlohmann::json;

constexpr int kMaxDepth = 16;  // the deepest thing Tinyformer writes is 3 levels

// Parses text; `what` names it in errors ("training config"). Refuses nesting deeper than kMaxDepth.
Json parse(const std::string& text, const std::string& what);

// The object's fields, each checked: an integer in [lo, hi] (1e300 and 31.5 are not integers), a finite
// number in [lo, hi], a string, a boolean. `what` and `field` name the value in the error.
int64_t integer(const Json& v, const std::string& what, const std::string& field, int64_t lo, int64_t hi);
uint64_t unsigned_integer(const Json& v, const std::string& what, const std::string& field);
double number(const Json& v, const std::string& what, const std::string& field, double lo, double hi);
std::string string(const Json& v, const std::string& what, const std::string& field);
bool boolean(const Json& v, const std::string& what, const std::string& field);
void require_object(const Json& v, const std::string& what);

// Reading a struct from an object: each field name has a reader that checks the value and stores it
// (into() makes the common ones); a name without a reader is an error ("unknown <what> field 'x'").
using FieldReader = std::function<void(const Json& v, const std::string& what, const std::string& field)>;
using FieldReaders = std::map<std::string, FieldReader>;
Json parse_object(const std::string& text, const std::string& what);  // parse() + require_object()
void read_fields(const Json& object, const std::string& what, const FieldReaders& readers);

// Wide bounds that keep casts defined: the struct's own validation gives each field's real range.
constexpr int64_t kWideInteger = int64_t{1} << 40;
constexpr double kWideNumber = 1e30;
FieldReader into(int64_t& out, int64_t lo = -kWideInteger, int64_t hi = kWideInteger);
FieldReader into(uint64_t& out);
FieldReader into(double& out, double lo = -kWideNumber, double hi = kWideNumber);
FieldReader into(float& out, double lo = -kWideNumber, double hi = kWideNumber);
FieldReader into(bool& out);
FieldReader into(std::string& out);
// A name read as a string and turned into T by `parse` (which throws on an unknown name).
template <class T>
FieldReader into(T& out, T (*parse)(const std::string&)) {
  return [&out, parse](const Json& v, const std::string& what, const std::string& field) {
    out = parse(string(v, what, field));
  };
}

}  // namespace tf::json_fields
