// tinyformer: the native command line of the lab, for full-size runs on CPU or CUDA (cli/command_line.hpp:
// the parser, the commands and the exit statuses).
#include <string>
#include <vector>

#include "command_line.hpp"

int main(int argc, char** argv) { return tf::cli::run_command_line({argv + 1, argv + argc}); }
