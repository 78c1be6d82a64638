// Text from a file made safe for a terminal: tf::printable (util/printable.hpp) for text, and the same care
// for JSON on stdout: the C1 controls and DEL, which JSON allows raw, are written as \u escapes.
#pragma once
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "tinyformer.hpp"

namespace tf::cli {

// One line of JSON with every control character escaped (and bytes that are not UTF-8 replaced).
std::string printable_json(const nlohmann::json& j);

}  // namespace tf::cli
