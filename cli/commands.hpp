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

void train_options(OptionTable& o);
int train_command(const Args& a);
void write_options(OptionTable& o);
int write_command(const Args& a);
void eval_options(OptionTable& o);
int eval_command(const Args& a);
void info_options(OptionTable& o);
int info_command(const Args& a);
void lens_options(OptionTable& o);
int lens_command(const Args& a);
void patch_options(OptionTable& o);
int patch_command(const Args& a);

inline const std::vector<Command>& commands() {
  static const std::vector<Command> all = {
      {"train", "train a model (toy, sort or stories) and save it", train_options, train_command},
      {"write", "write stories (or sort digits) with a saved model", write_options, write_command},
      {"eval", "the course's figures for a saved model", eval_options, eval_command},
      {"info", "what a checkpoint holds: config, metadata, parameters", info_options, info_command},
      {"lens", "the logit lens: what each block's residual stream predicts", lens_options, lens_command},
      {"patch", "activation patching: which heads and positions carry the answer", patch_options,
       patch_command},
  };
  return all;
}

}  // namespace tf::cli
