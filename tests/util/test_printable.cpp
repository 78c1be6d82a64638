// Text from files made safe for a terminal, and the rule that every tf::Error follows: a message that quotes
// a file's names, dtype or words has their control characters escaped, whichever front end prints it.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "io/safetensors.hpp"
#include "util/error.hpp"
#include "util/printable.hpp"

using namespace tf;

TEST_SUITE("printable") {
  TEST_CASE("control characters, C1 controls and bytes that are not UTF-8 are escaped, the rest kept") {
    CHECK(printable("plain caf\xc3\xa9 \xe2\x9c\x93") == "plain caf\xc3\xa9 \xe2\x9c\x93");
    CHECK(printable("\x1b[2J\r\n\t\x07\x7f") == "\\x1b[2J\\r\\n\\t\\x07\\x7f");
    CHECK(printable("\xc2\x9b"
                    "31m") == "\\u009b31m");
    CHECK(printable("a\\b \xff\xfe") == "a\\\\b \\xff\\xfe");
  }

  TEST_CASE("every error message is printable, and one quoting another is not escaped twice") {
    try {
      fail("the word '", "\x1b]0;owned\x07", "' twice");
    } catch (const Error& e) {
      CHECK(std::string(e.what()) == "the word '\\x1b]0;owned\\x07' twice");
      CHECK(std::string(Error(e).what()) == e.what());
      CHECK(std::string(Error(std::string("'run.safetensors': ") + e.what()).what()) ==
            "'run.safetensors': the word '\\x1b]0;owned\\x07' twice");
    }
  }

  TEST_CASE("a hostile tensor name and dtype reach the message escaped") {
    std::string header =
        "{\"\\u001b[31mred\":{\"dtype\":\"F\\u009b32\",\"shape\":[1],\"data_offsets\":[0,4]}}";
    std::vector<uint8_t> file(8, 0);
    file[0] = static_cast<uint8_t>(header.size());
    file.insert(file.end(), header.begin(), header.end());
    file.resize(file.size() + 4, 0);
    CHECK_THROWS_WITH_AS(read_safetensors(file),
                         doctest::Contains("tensor '\\x1b[31mred' has an unknown dtype 'F\\u009b32'"), Error);
  }
}
