// tinyformer write: stories from a trained model (core/sample/write_text: undiffusing with a random or greedy
// reveal order, infilling between a prompt and a suffix, or left to right with a causal model), or sorted
// digits from the sorter.
#include <cstdio>
#include <sstream>

#include "args.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "printable.hpp"
#include "tinyformer.hpp"

namespace tf::cli {

namespace {

nlohmann::json sort_digits(const Model& model, const Args& a) {
  const Sorter& net = model.sorter_model("sorting");
  std::istringstream in(a.str("input"));
  std::vector<int32_t> digits;
  for (int d; in >> d;) {
    if (d < 0 || d > 9) throw UsageError("the sorter reads digits 0-9, got " + std::to_string(d));
    digits.push_back(d);
  }
  if (!in.eof() || digits.size() != 10)
    throw UsageError("--input needs ten digits separated by spaces, e.g. \"7 2 9 0 4 4 1 8 3 6\"");
  Ids out = net.greedy(Ids(digits, Shape{1, 10}), 10);
  std::vector<int32_t> sorted = digits;
  std::sort(sorted.begin(), sorted.end());
  return {{"input", digits}, {"output", out.data}, {"correct", out.data == sorted}};
}

void write_options(OptionTable& o) {
  o.text("checkpoint", "FILE", "the saved model", std::nullopt, true);
  o.text("prompt", "TEXT", "the start of every story; _ marks a word to fill in", "");
  o.text("suffix", "TEXT", "the end of every story (undiffusing fills in between)", "");
  o.choice("sampler", {"undiffuse", "greedy", "left-to-right"},
           "reveal order (default: left-to-right for a causal model, else undiffuse)");
  o.integer("length", "N", "tokens per story, prompt and suffix included (at most the model's max length)", 1,
            kMaxWriteLength, 32);
  o.integer("count", "N", "stories to write", 1, 10000, 5);
  o.integer("steps", "T", "undiffusing steps (0 = one per token)", 0, 100000, 0);
  o.number("temperature", "sampling temperature (> 0)", 0, 100, 1.0);
  o.integer("top-k", "N", "left to right: sample among the k likeliest words (0 = all)", 0, 1000000, 0);
  o.integer("seed", "N", "seed of the sampling", 0, INT64_MAX, 0);
  o.text("input", "\"D D ... D\"", "the sorter: ten digits 0-9 to sort");
  compute_options(o);
  o.flag("json", "print only the JSON result on stdout, not the stories as text");
}

int write_command(const Args& a) {
  apply_threads(a);
  SavedRun run = load_saved_run(a.str("checkpoint"));
  check_checkpoint_finite(run.file, "cannot write with " + a.str("checkpoint"));
  std::unique_ptr<Model> model = build_model(run, device_option(a));
  if (model->sorter()) {
    if (!a.has("input")) throw UsageError("the sorter needs --input \"ten digits\"");
    nlohmann::json r = sort_digits(*model, a);
    if (!a.flag("json")) {
      std::string line;
      for (int d : r["output"]) line += std::to_string(d) + " ";
      std::printf("%s%s\n", line.c_str(), r["correct"].get<bool>() ? "(sorted)" : "(not sorted)");
    }
    print_json_line(r);
    return 0;
  }
  TF_CHECK(!run.vocab().empty(), "this checkpoint holds no vocabulary to write with");
  WriteRequest r;
  r.prompt = a.str("prompt");
  r.suffix = a.str("suffix");
  r.sampler = a.str("sampler", "");
  r.length = a.integer("length");
  r.count = a.integer("count");
  r.steps = a.integer("steps");
  r.top_k = a.integer("top-k");
  r.temperature = static_cast<float>(a.number("temperature"));
  r.seed = static_cast<uint64_t>(a.integer("seed"));
  // The request's errors are about the options (exit 2); writing's own (memory, the device) are not.
  WordCodec codec(run.vocab());
  r = checking_options([&] { return check_write_request(*model, codec, r); });
  nlohmann::json result = write_text(*model, codec, r);
  if (!a.flag("json"))
    for (const auto& st : result["stories"])
      std::printf("%s\n", printable(st["text"].get<std::string>()).c_str());
  print_json_line(result);
  return 0;
}

}  // namespace

const Command write_subcommand{"write", "write stories (or sort digits) with a saved model", write_options,
                               write_command};

}  // namespace tf::cli
