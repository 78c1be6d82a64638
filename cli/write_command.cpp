// tinyformer write: stories from a trained model — undiffusing (random or greedy reveal order, infilling
// between a prompt and a suffix) or left to right with a causal model — or sorted digits from the sorter.
#include <cstdio>
#include <sstream>

#include "args.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "data/vocabulary.hpp"
#include "io/model_loader.hpp"
#include "sample/left_to_right.hpp"
#include "sample/undiffuse.hpp"
#include "util/error.hpp"

namespace tf::cli {

namespace {

const std::set<std::string> kOptions = {"checkpoint", "prompt", "suffix", "sampler", "steps", "temperature", "top-k",
                                        "length", "count", "seed", "input", "threads", "device"};
const std::set<std::string> kFlags = {"json"};

struct WriteSettings {
  std::string sampler;
  int64_t length, count;
  float temperature;
  Rng rng;
};

// The template to fill: the prompt's tokens, masks up to `length`, then the suffix's tokens.
std::vector<int32_t> story_template(const Vocabulary& vocab, const Args& a, int64_t length) {
  std::vector<int32_t> prompt = vocab.encode(a.str("prompt", "")), suffix = vocab.encode(a.str("suffix", ""));
  int64_t fixed = static_cast<int64_t>(prompt.size() + suffix.size());
  TF_CHECK(fixed <= length, "the prompt and suffix have ", fixed, " tokens, more than --length ", length);
  std::vector<int32_t> t = prompt;
  t.resize(static_cast<size_t>(length - static_cast<int64_t>(suffix.size())), vocab.mask_id());
  t.insert(t.end(), suffix.begin(), suffix.end());
  return t;
}

GuessOptions guess_options(const Vocabulary& vocab, float temperature) {
  GuessOptions o;
  o.temperature = temperature;
  o.forbidden.push_back(vocab.mask_id());
  if (vocab.word(vocab.unk_id()) == Vocabulary::kUnk) o.forbidden.push_back(vocab.unk_id());
  return o;
}

nlohmann::json write_stories(const Model& model, const Vocabulary& vocab, const Args& a, WriteSettings& s) {
  nlohmann::json stories = nlohmann::json::array();
  GuessOptions guess = guess_options(vocab, s.temperature);
  if (s.sampler == "left-to-right") {
    const MyTransformer& net = model.transformer_model("left-to-right writing");
    TF_CHECK(!a.has("suffix"), "a left-to-right model cannot fill in before a suffix (course C8); use a diffusion model");
    std::vector<int32_t> prompt = vocab.encode(a.str("prompt", ""));
    for (int32_t id : prompt) TF_CHECK(id != vocab.mask_id(), "left-to-right writing has no masks: remove the _ from the prompt");
    WriteOptions o;
    o.length = s.length;
    o.guess = guess;
    o.top_k = a.integer("top-k", 0);
    for (int64_t n = 0; n < s.count; ++n) {
      WriteResult r = write_left_to_right(net, prompt, o, s.rng);
      stories.push_back({{"text", vocab.decode(r.tokens)}, {"network_calls", r.network_calls}});
    }
    return stories;
  }
  const TokenModel& net = model.token_model("undiffusing");
  TF_CHECK(!net.config().causal, "a causal model writes left to right: use --sampler left-to-right");
  std::vector<int32_t> tmpl = story_template(vocab, a, s.length);
  std::vector<int32_t> batch;
  for (int64_t n = 0; n < s.count; ++n) batch.insert(batch.end(), tmpl.begin(), tmpl.end());
  UndiffuseOptions o;
  o.steps = static_cast<int>(a.integer("steps", s.length));
  o.greedy = s.sampler == "greedy";
  UndiffuseResult r = undiffuse(make_guesser(net, guess), Ids(batch, Shape{s.count, s.length}), vocab.mask_id(), o, s.rng);
  for (int64_t n = 0; n < s.count; ++n) {
    std::vector<int32_t> ids(r.tokens.data.begin() + n * s.length, r.tokens.data.begin() + (n + 1) * s.length);
    std::vector<int32_t> order(r.reveal_step.begin() + n * s.length, r.reveal_step.begin() + (n + 1) * s.length);
    stories.push_back({{"text", vocab.decode(ids)}, {"reveal_step", order}, {"network_calls", r.network_calls}});
  }
  return stories;
}

nlohmann::json sort_digits(const Model& model, const Args& a) {
  const Sorter& net = model.sorter_model("sorting");
  std::istringstream in(a.str("input"));
  std::vector<int32_t> digits;
  for (int d; in >> d;) {
    TF_CHECK(d >= 0 && d <= 9, "the sorter reads digits 0-9, got ", d);
    digits.push_back(d);
  }
  TF_CHECK(in.eof() && digits.size() == 10, "--input needs ten digits separated by spaces, e.g. \"7 2 9 0 4 4 1 8 3 6\"");
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
  Vocabulary vocab = Vocabulary::from_entries(ck.vocab);
  WriteSettings s{a.str("sampler", model->config().causal ? "left-to-right" : "undiffuse"), a.integer("length", 32),
                  a.integer("count", 5), static_cast<float>(a.number("temperature", 1.0)),
                  Rng(static_cast<uint64_t>(a.integer("seed", 0)))};
  TF_CHECK(s.sampler == "undiffuse" || s.sampler == "greedy" || s.sampler == "left-to-right", "unknown --sampler '",
           s.sampler, "' (expected undiffuse, greedy or left-to-right)");
  TF_CHECK(s.count >= 1 && s.count <= 10000, "--count must be 1..10000");
  TF_CHECK(s.length >= 1 && s.length <= model->config().max_length, "--length must be 1..", model->config().max_length);
  nlohmann::json stories = write_stories(*model, vocab, a, s);
  if (!a.flag("json"))
    for (const auto& st : stories) std::printf("%s\n", st["text"].get<std::string>().c_str());
  print_json_line({{"sampler", s.sampler}, {"stories", stories}});
  return 0;
}

}  // namespace tf::cli
