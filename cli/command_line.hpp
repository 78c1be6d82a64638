// The tinyformer command line as a library: the parser built from every command's option table, the parse,
// and the mapping of outcomes to exit statuses. main.cpp is one call to it; a test or a fuzz target can pass
// its own runner to parse command lines without training anything.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "commands.hpp"

namespace tf::cli {

// Runs a parsed command; the default runs it for real (Command::run).
using Runner = std::function<int(const Command& command, const Args& args)>;

// argv without the program name. Returns the exit status: 0 done (and for --help, --version), 1 failed
// while running, 2 usage error, 130 train interrupted. Messages go to stderr, help and results to stdout.
int run_command_line(const std::vector<std::string>& args, const Runner& runner = {});
// Inside a catch block: prints the error being handled as coming from `where` ("tinyformer train") and
// returns its exit status (2 usage error, 1 anything else).
int report_failure(const std::string& where);

}  // namespace tf::cli
