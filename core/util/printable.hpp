// Text that anyone could have written (a file's names and metadata, a corpus) made safe for a terminal:
// control characters (escape sequences, carriage returns, C1 controls such as CSI) and bytes that are not
// UTF-8 could rewrite the screen, so they are shown as escapes (\n, \x1b, \u009b), and with `backslashes` a
// backslash as two (text shown on its own, where the escapes must be unambiguous). Every tf::Error message
// passes through it without that, so no front end prints file content raw on any stream, and a message that
// quotes another (already escaped) is not escaped twice.
#pragma once
#include <string>
#include <string_view>

namespace tf {

std::string printable(std::string_view text, bool backslashes = true);

}  // namespace tf
