// tinyformer patch: activation patching (core/interp/patching): the corrupted sentence run again with one
// head's output, or one block's output at one position, copied from the clean run, and how much of the clean
// answer's probability comes back. For the sorter, every cross-attention head and every output step.
#include <cmath>
#include <cstdio>
#include <sstream>

#include "args.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "printable.hpp"
#include "tinyformer.hpp"

namespace tf::cli {

namespace {

// A figure as JSON: its values, and each array as {shape, data} (NaN as null).
nlohmann::json figure_json(const Figure& f) {
  nlohmann::json j = f.values;
  for (const auto& [name, t] : f.arrays) {
    nlohmann::json data = nlohmann::json::array();
    for (float v : t.to_vector()) data.push_back(std::isnan(v) ? nlohmann::json() : nlohmann::json(v));
    j[name] = {{"shape", t.shape().dims()}, {"data", data}};
  }
  return j;
}

// Rows of a [rows, cols] grid of restored fractions, labelled, as percentages ("-" where undefined).
void print_grid(const char* title, const Tensor& grid, const std::vector<std::string>& rows,
                const std::vector<std::string>& cols) {
  std::vector<float> v = grid.to_vector();
  std::printf("%s\n%-10s", title, "");
  for (const std::string& c : cols) std::printf(" %8.8s", printable(c).c_str());
  for (size_t r = 0; r < rows.size(); ++r) {
    std::printf("\n%-10s", rows[r].c_str());
    for (size_t c = 0; c < cols.size(); ++c) {
      float x = v[r * cols.size() + c];
      if (std::isnan(x))
        std::printf(" %8s", "-");
      else
        std::printf(" %7.0f%%", x * 100);
    }
  }
  std::printf("\n");
}

std::vector<std::string> labels(const char* prefix, int64_t n) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < n; ++i) out.push_back(prefix + std::to_string(i));
  return out;
}

Ids digits_of(const std::string& text, const char* option) {
  std::istringstream in(text);
  std::vector<int32_t> d;
  for (int x; in >> x;) {
    if (x < 0 || x > 9) throw UsageError(std::string("--") + option + ": the sorter reads digits 0-9");
    d.push_back(x);
  }
  if (!in.eof() || d.empty())
    throw UsageError(std::string("--") + option + " needs digits separated by spaces");
  return Ids(d, Shape{1, static_cast<int64_t>(d.size())});
}

nlohmann::json patch_sorter(const Sorter& net, const Args& a) {
  Figure f = checking_options([&] {
    return sorter_patching(net, digits_of(a.str("clean"), "clean"),
                           digits_of(a.str("corrupted"), "corrupted"));
  });
  if (!a.flag("json")) {
    const Tensor& r = f.array("heads_restored");  // [L, H, S]
    std::vector<std::string> heads;
    for (int64_t b = 0; b < r.size(0); ++b)
      for (int64_t h = 0; h < r.size(1); ++h)
        heads.push_back("dec" + std::to_string(b) + ".h" + std::to_string(h));
    std::vector<std::string> steps;
    for (int d : f.values["answer"]) steps.push_back(std::to_string(d));
    print_grid("restored per cross-attention head (rows) and output digit (columns):",
               reshape(r, Shape{r.size(0) * r.size(1), r.size(2)}), heads, steps);
  }
  return figure_json(f);
}

nlohmann::json patch_tokens(const Session& s, const Args& a) {
  const WordCodec& codec = s.codec("patching");
  int32_t target = -1;
  if (a.has("target")) {
    std::vector<int32_t> t = codec.encode(a.str("target"));
    if (t.size() != 1) throw UsageError("--target must be one word of the model's vocabulary");
    target = t[0];
  }
  std::vector<int32_t> clean = codec.encode(a.str("clean")), corrupted = codec.encode(a.str("corrupted"));
  Figure f = checking_options([&] {
    return token_patching(
        s.model().transformer_model("patching"), Ids(clean, Shape{1, static_cast<int64_t>(clean.size())}),
        Ids(corrupted, Shape{1, static_cast<int64_t>(corrupted.size())}), a.integer("position"), target);
  });
  f.values["target_word"] = codec.words()[f.values["target"].get<size_t>()];
  if (!a.flag("json")) {
    std::printf("p(%s) at position %d: clean %.4f, corrupted %.4f\n",
                printable(f.values["target_word"].get<std::string>()).c_str(),
                f.values["position"].get<int>(), f.values["clean"].get<float>(),
                f.values["corrupted"].get<float>());
    const Tensor& heads = f.array("heads_restored");
    print_grid("restored by one head's output:", heads, labels("block ", heads.size(0)),
               labels("head ", heads.size(1)));
    print_grid("restored by one block's output at one position:", f.array("residuals_restored"),
               labels("block ", heads.size(0)), codec.decode(clean));
  }
  return figure_json(f);
}

void patch_options(OptionTable& o) {
  o.text("checkpoint", "FILE", "a story, toy or sorter model", std::nullopt, true);
  o.text("clean", "TEXT", "the clean sentence (the sorter: digits)", std::nullopt, true);
  o.text("corrupted", "TEXT", "the corrupted one, as many words (digits)", std::nullopt, true);
  o.integer("position", "N", "where the target is read (-1: the last position)", -1, 65535, -1);
  o.text("target", "WORD", "the word whose probability is measured (default: the clean run's likeliest)");
  compute_options(o);
  o.flag("json", "print only the JSON result on stdout, not the tables");
}

int patch_command(const Args& a) {
  apply_threads(a);
  std::unique_ptr<Session> s = Session::view(load_saved_run(a.str("checkpoint")), device_option(a));
  const Sorter* sorter = s->model().sorter();
  print_json_line(sorter ? patch_sorter(*sorter, a) : patch_tokens(*s, a));
  return 0;
}

}  // namespace

const Command patch_subcommand{"patch", "activation patching: which heads and positions carry the answer",
                               patch_options, patch_command};

}  // namespace tf::cli
