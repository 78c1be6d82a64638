// The subcommands of `tinyformer`: each declares its options into a table (which also writes its --help) and
// runs with the values given, returning the exit status.
#pragma once
#include <vector>

#include "args.hpp"

namespace tf::cli {

struct Command {
  const char* name;
  const char* summary;
  void (*declare)(OptionTable& options);
  int (*run)(const Args& args);
};

// One per subcommand, defined beside its options and its run (cli/<name>_command.cpp).
extern const Command train_subcommand, write_subcommand, eval_subcommand, info_subcommand, lens_subcommand,
    patch_subcommand;

inline const std::vector<Command>& commands() {
  static const std::vector<Command> all = {train_subcommand, write_subcommand, eval_subcommand,
                                           info_subcommand,  lens_subcommand,  patch_subcommand};
  return all;
}

}  // namespace tf::cli
