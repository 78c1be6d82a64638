// tinyformer: the native command line of the lab, for full-size runs on CPU or CUDA. Errors in what the
// user typed or gave us exit with status 2 and one clear line; failures while running exit with 1.
#include <cstdio>
#include <string>
#include <vector>

#include "commands.hpp"
#include "util/error.hpp"

namespace {

const char* kUsage = R"(usage: tinyformer <command> [options]

commands:
  train   train a model       --task toy|sort|stories  --model notalking|withposition|transformer|sorter
                              --causal --rotary --data tinystories|builtin|FILE[,FILE...] --valid FILE
                              --steps N --batch N --seq-len N --dim N --heads N --layers N --max-length N
                              --lr X --optimizer adam|adamw|sgd --schedule constant|onecycle|cosine
                              --weight-decay X --clip X --seed N --threads N --device cpu|cuda
                              --save FILE --checkpoint-every N --resume FILE --init-from FILE
                              --log FILE.jsonl --eval-every N --no-eval --cache-dir DIR --url URL
  write   write with a model  --checkpoint FILE --prompt TEXT (use _ for masks) --suffix TEXT
                              --sampler undiffuse|greedy|left-to-right --steps T --temperature X
                              --top-k N --length N --count N --seed N --input "7 2 9 ..." (sorter) --json
  eval    evaluate a model    --checkpoint FILE [--data ... --valid FILE] --seed N --threads N --device cpu|cuda
  info    describe a file     --checkpoint FILE

The last line of train and eval is one JSON object with the final figures.
)";

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  std::string command = args[0];
  args.erase(args.begin());
  try {
    if (command == "train") return tf::cli::train_command(args);
    if (command == "write") return tf::cli::write_command(args);
    if (command == "eval") return tf::cli::eval_command(args);
    if (command == "info") return tf::cli::info_command(args);
    std::fprintf(stderr, "tinyformer: unknown command '%s'\n\n%s", command.c_str(), kUsage);
    return 2;
  } catch (const tf::Error& e) {
    std::fprintf(stderr, "tinyformer %s: error: %s\n", command.c_str(), e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tinyformer %s: failed: %s\n", command.c_str(), e.what());
    return 1;
  }
}
