#include "io/json_fields.hpp"

#include <cmath>

#include "util/error.hpp"

namespace tf::json_fields {
namespace {

// A short, printable picture of a value for an error message (never a whole hostile document).
std::string shown(const Json& v) {
  if (v.is_object()) return "an object";
  if (v.is_array()) return "an array";
  if (v.is_null()) return "null";
  std::string text = v.dump(-1, ' ', true, Json::error_handler_t::replace);
  return text.size() > 40 ? text.substr(0, 37) + "..." : text;
}

const char* kind_of(const Json& v) {
  if (v.is_object()) return "an object";
  if (v.is_array()) return "an array";
  if (v.is_string()) return "a string";
  if (v.is_boolean()) return "a boolean";
  if (v.is_null()) return "null";
  return "a number";
}

// The SAX events of one flat array (see for_each_in_array).
struct ArrayStream {
  const std::string& what;
  size_t max, count;
  const std::function<void(const Json&, size_t)>& each;
  int depth;

  bool start_array(size_t) { return depth++ == 0 || nested("an array"); }
  bool start_object(size_t) { return depth > 0 ? nested("an object") : not_array(); }
  bool end_array() { return --depth, true; }
  bool end_object() { return true; }
  bool key(std::string&) { return true; }
  bool null() { return value(Json()); }
  bool boolean(bool v) { return value(Json(v)); }
  bool number_integer(int64_t v) { return value(Json(v)); }
  bool number_unsigned(uint64_t v) { return value(Json(v)); }
  bool number_float(double v, const std::string&) { return value(Json(v)); }
  bool string(std::string& v) { return value(Json(std::move(v))); }
  bool binary(Json::binary_t&) { return true; }
  bool parse_error(size_t at, const std::string&, const nlohmann::detail::exception&) {
    fail(what, " is not a JSON array (invalid JSON at byte ", at, ")");
  }
  bool value(const Json& v) {
    if (depth == 0) return not_array();
    TF_CHECK(count < max, what, " has more than ", max, " entries");
    return each(v, count++), true;
  }
  bool not_array() { fail(what, " is not a JSON array"); }
  bool nested(const char* kind) { fail(what, " entry ", count, " is ", kind, ", not a plain value"); }
};

}  // namespace

void for_each_in_array(const std::string& text, const std::string& what, size_t max_count,
                       const std::function<void(const Json& value, size_t index)>& each) {
  ArrayStream stream{what, max_count, 0, each, 0};
  Json::sax_parse(text, &stream);
}

Json parse(const std::string& text, const std::string& what) {
  TF_CHECK(text.size() <= kMaxText, what, " is ", text.size(), " bytes, over the limit of ", kMaxText);
  auto limit = [&](int depth, Json::parse_event_t event, Json&) {
    if ((event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start) &&
        depth >= kMaxDepth)
      fail(what, " nests deeper than ", kMaxDepth, " levels");
    return true;
  };
  try {
    return Json::parse(text, limit);
  } catch (const Json::parse_error& e) {
    fail(what, " is not valid JSON (at byte ", e.byte, ")");
  } catch (const Json::exception&) {
    fail(what, " is not valid JSON");
  }
}

void require_object(const Json& v, const std::string& what) {
  TF_CHECK(v.is_object(), what, " must be a JSON object, got ", kind_of(v));
}

int64_t integer(const Json& v, const std::string& what, const std::string& field, int64_t lo, int64_t hi) {
  TF_CHECK(v.is_number_integer(), what, " field '", field, "' has the wrong type: must be an integer, got ",
           shown(v));
  if (v.is_number_unsigned())
    TF_CHECK(v.get<uint64_t>() <= static_cast<uint64_t>(hi), what, " field '", field, "' must be ", lo, "..",
             hi, ", got ", shown(v));
  int64_t n = v.get<int64_t>();
  TF_CHECK(n >= lo && n <= hi, what, " field '", field, "' must be ", lo, "..", hi, ", got ", shown(v));
  return n;
}

uint64_t unsigned_integer(const Json& v, const std::string& what, const std::string& field) {
  TF_CHECK(v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0), what, " field '",
           field, "' has the wrong type: must be a non-negative integer, got ", shown(v));
  return v.get<uint64_t>();
}

double number(const Json& v, const std::string& what, const std::string& field, double lo, double hi) {
  TF_CHECK(v.is_number(), what, " field '", field, "' has the wrong type: must be a number, got ", shown(v));
  double x = v.get<double>();
  TF_CHECK(std::isfinite(x) && x >= lo && x <= hi, what, " field '", field, "' must be in [", lo, ", ", hi,
           "], got ", shown(v));
  return x;
}

std::string string(const Json& v, const std::string& what, const std::string& field) {
  TF_CHECK(v.is_string(), what, " field '", field, "' has the wrong type: must be a string, got ",
           kind_of(v));
  return v.get<std::string>();
}

bool boolean(const Json& v, const std::string& what, const std::string& field) {
  TF_CHECK(v.is_boolean(), what, " field '", field, "' has the wrong type: must be true or false, got ",
           shown(v));
  return v.get<bool>();
}

Json parse_object(const std::string& text, const std::string& what) {
  Json j = parse(text, what);
  require_object(j, what);
  return j;
}

void unknown_field(const std::string& what, const std::string& field) {
  fail("unknown ", what, " field '", field, "'");
}

}  // namespace tf::json_fields
