// The subcommands of `tinyformer`; each takes the arguments after its name and returns the exit code.
#pragma once
#include <string>
#include <vector>

namespace tf::cli {

int train_command(const std::vector<std::string>& args);
int write_command(const std::vector<std::string>& args);
int eval_command(const std::vector<std::string>& args);
int info_command(const std::vector<std::string>& args);

}  // namespace tf::cli
