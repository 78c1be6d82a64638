// tinyformer write: stories from a trained model (core/sample/write_text: undiffusing with a random or greedy
// reveal order, infilling between a prompt and a suffix, or left to right with a causal model), or sorted
// digits from the sorter.
#include <cstdio>
#include <sstream>

#include "args.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "data/word_codec.hpp"
#include "io/model_loader.hpp"
#include "sample/write_text.hpp"
#include "util/error.hpp"

namespace tf::cli {

namespace {

const std::set<std::string> kOptions = {"checkpoint",  "prompt",  "suffix", "sampler", "steps",
                                        "temperature", "top-k",   "length", "count",   "seed",
                                        "input",       "threads", "device"};
const std::set<std::string> kFlags = {"json"};

nlohmann::json sort_digits(const Model& model, const Args& a) {
  const Sorter& net = model.sorter_model("sorting");
  std::istringstream in(a.str("input"));
  std::vector<int32_t> digits;
  for (int d; in >> d;) {
    TF_CHECK(d >= 0 && d <= 9, "the sorter reads digits 0-9, got ", d);
    digits.push_back(d);
  }
  TF_CHECK(in.eof() && digits.size() == 10,
           "--input needs ten digits separated by spaces, e.g. \"7 2 9 0 4 4 1 8 3 6\"");
  Ids out = net.greedy(Ids(digits, Shape{1, 10}), 10);
  std::vector<int32_t> sorted = digits;
  std::sort(sorted.begin(), sorted.end());
  return {{"input", digits}, {"output", out.data}, {"correct", out.data == sorted}};
}

}  // namespace

int write_command(const std::vector<std::string>& argv) {
  Args a(argv, kOptions, kFlags);
  TF_CHECK(a.has("checkpoint"), "write needs --checkpoint FILE");
  apply_threads(a);
  Checkpoint ck = load_checkpoint(a.str("checkpoint"));
  std::unique_ptr<Model> model = load_model(ck, device_option(a));
  if (model->sorter()) {
    TF_CHECK(a.has("input"), "the sorter needs --input \"ten digits\"");
    nlohmann::json r = sort_digits(*model, a);
    if (!a.flag("json")) {
      std::string line;
      for (int d : r["output"]) line += std::to_string(d) + " ";
      std::printf("%s%s\n", line.c_str(), r["correct"].get<bool>() ? "(sorted)" : "(not sorted)");
    }
    print_json_line(r);
    return 0;
  }
  TF_CHECK(!ck.vocab.empty(), "this checkpoint holds no vocabulary to write with");
  WriteRequest r;
  r.prompt = a.str("prompt", "");
  r.suffix = a.str("suffix", "");
  r.sampler = a.str("sampler", "");
  r.length = a.integer("length", 32);
  r.count = a.integer("count", 5);
  r.steps = a.integer("steps", 0);
  r.top_k = a.integer("top-k", 0);
  r.temperature = static_cast<float>(a.number("temperature", 1.0));
  r.seed = static_cast<uint64_t>(a.integer("seed", 0));
  nlohmann::json result = write_text(*model, WordCodec(ck.vocab), r);
  if (!a.flag("json"))
    for (const auto& st : result["stories"]) std::printf("%s\n", st["text"].get<std::string>().c_str());
  print_json_line(result);
  return 0;
}

}  // namespace tf::cli
