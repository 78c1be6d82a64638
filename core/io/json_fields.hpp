// JSON that comes from outside (checkpoint metadata, the page's requests) read defensively: parsing stops
// at a fixed nesting depth (a hostile file cannot exhaust the stack of the parser's users), and each field
// is read as exactly the type it must have. Every failure is a tf::Error naming what was read and the
// field; no message of the JSON library reaches a user.
#pragma once
#include <cstdint>
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

}  // namespace tf::json_fields
