// JSON that comes from outside (checkpoint metadata, the page's requests) read defensively: parsing stops
// at a fixed nesting depth (a hostile file cannot exhaust the stack of the parser's users), and each field
// is read as exactly the type it must have. Every failure is a tf::Error naming what was read and the
// field; no message of the JSON library reaches a user.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

namespace tf::json_fields {

using Json = nlohmann::json;

constexpr int kMaxDepth = 16;  // the deepest thing Tinyformer writes is 3 levels

constexpr size_t kMaxText = 1 << 20;  // a config or request: what Tinyformer writes is under 2 KB

// Parses text; `what` names it in errors ("training config"). Refuses text over kMaxText bytes and nesting
// deeper than kMaxDepth, so a document tree never costs more than a small multiple of a megabyte.
Json parse(const std::string& text, const std::string& what);

// Streams a JSON array of plain values (strings, numbers, booleans, null) to each(value, index) as it is
// parsed, refusing nesting and, as soon as it begins, entry max_count + 1: a hostile array costs at most
// max_count values, never a document tree of its whole text.
void for_each_in_array(const std::string& text, const std::string& what, size_t max_count,
                       const std::function<void(const Json& value, size_t index)>& each);

// The object's fields, each checked: an integer in [lo, hi] (1e300 and 31.5 are not integers), a finite
// number in [lo, hi], a string, a boolean. `what` and `field` name the value in the error.
int64_t integer(const Json& v, const std::string& what, const std::string& field, int64_t lo, int64_t hi);
uint64_t unsigned_integer(const Json& v, const std::string& what, const std::string& field);
double number(const Json& v, const std::string& what, const std::string& field, double lo, double hi);
std::string string(const Json& v, const std::string& what, const std::string& field);
bool boolean(const Json& v, const std::string& what, const std::string& field);
void require_object(const Json& v, const std::string& what);
[[noreturn]] void unknown_field(const std::string& what, const std::string& field);

// Wide bounds that keep casts defined: the struct's own validation gives each field's real range.
constexpr int64_t kWideInteger = int64_t{1} << 40;
constexpr double kWideNumber = 1e30;

Json parse_object(const std::string& text, const std::string& what);  // parse() + require_object()

// A value of type T checked as above (integers and numbers within the wide bounds).
template <class T>
T checked(const Json& v, const std::string& what, const std::string& field) {
  if constexpr (std::is_same_v<T, bool>)
    return boolean(v, what, field);
  else if constexpr (std::is_same_v<T, std::string>)
    return string(v, what, field);
  else if constexpr (std::is_same_v<T, uint64_t>)
    return unsigned_integer(v, what, field);
  else if constexpr (std::is_integral_v<T>)
    return static_cast<T>(integer(v, what, field, -kWideInteger, kWideInteger));
  else
    return static_cast<T>(number(v, what, field, -kWideNumber, kWideNumber));
}

// One field of a struct S, named once for both directions: how it is written into an object and how a
// value is checked and stored. A struct's JSON form is its list of fields.
template <class S>
struct Field {
  std::string name;
  std::function<void(const S&, Json&)> write;
  std::function<void(S&, const Json& v, const std::string& what)> read;
};
template <class S>
using Fields = std::vector<Field<S>>;

// A member written as itself and read as checked<T>.
template <class S, class T>
Field<S> field(const char* name, T S::*member) {
  return {name, [name, member](const S& s, Json& j) { j[name] = s.*member; },
          [name, member](S& s, const Json& v, const std::string& what) {
            s.*member = checked<T>(v, what, name);
          }};
}

// A member written as its name, to_name(value), and read back by from_name (which throws on a bad name).
template <class S, class E>
Field<S> named(const char* name, E S::*member, std::string (*to_name)(E),
               E (*from_name)(const std::string&)) {
  return {name, [name, member, to_name](const S& s, Json& j) { j[name] = to_name(s.*member); },
          [name, member, from_name](S& s, const Json& v, const std::string& what) {
            s.*member = from_name(string(v, what, name));
          }};
}

template <class S>
Json write_fields(const S& s, const Fields<S>& fields) {
  Json j = Json::object();
  for (const Field<S>& f : fields) f.write(s, j);
  return j;
}

// Stores each field of `object` into s; a name that is not in `fields` is an error ("unknown <what> field").
template <class S>
void read_fields(S& s, const Json& object, const std::string& what, const Fields<S>& fields) {
  for (const auto& item : object.items()) {
    const std::string& key = item.key();
    auto f = std::find_if(fields.begin(), fields.end(), [&](const Field<S>& x) { return x.name == key; });
    if (f == fields.end()) unknown_field(what, key);
    f->read(s, item.value(), what);
  }
}

}  // namespace tf::json_fields
