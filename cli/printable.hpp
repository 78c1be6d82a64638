// Text from a file made safe for a terminal: `info` prints metadata strings that anyone could have written,
// and control characters in them (escape sequences, carriage returns, C1 controls, bytes that are not UTF-8)
// could rewrite the screen. They are shown as escapes (\n, \x1b, \u009b) instead. JSON for stdout gets the
// same care: the C1 controls and DEL, which JSON allows raw, are written as \u escapes.
#pragma once
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tf::cli {

std::string printable(std::string_view text);
// One line of JSON with every control character escaped (and bytes that are not UTF-8 replaced).
std::string printable_json(const nlohmann::json& j);

}  // namespace tf::cli
