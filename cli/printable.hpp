// Text from a file made safe for a terminal: `info` prints metadata strings that anyone could have written,
// and control characters in them (escape sequences, carriage returns, C1 controls, bytes that are not UTF-8)
// could rewrite the screen. They are shown as escapes (\n, \x1b, \u009b) instead.
#pragma once
#include <string>
#include <string_view>

namespace tf::cli {

std::string printable(std::string_view text);

}  // namespace tf::cli
