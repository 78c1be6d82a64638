// tinyformer lens: the logit lens of a story or toy model on a sentence (core/interp/logit_lens): what the
// residual stream after each block would predict through the final norm and output layer, per position, and
// the rank of the word it should predict (the next one, or for a diffusion model a masked one).
#include <cstdio>
#include <sstream>

#include "args.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "printable.hpp"
#include "tinyformer.hpp"

namespace tf::cli {

namespace {

std::vector<int64_t> positions_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<int64_t> out;
  for (int64_t p; in >> p;) out.push_back(p);
  if (!in.eof()) throw UsageError("--mask needs positions separated by spaces, e.g. \"1 3\"");
  return out;
}

// The figure with its ids as words: one entry per row (the embeddings, then each block).
nlohmann::json lens_json(const Figure& f, const WordCodec& codec) {
  auto words = [&](const nlohmann::json& ids) {
    nlohmann::json w = nlohmann::json::array();
    for (int32_t id : ids) w.push_back(id < 0 ? nlohmann::json() : nlohmann::json(codec.words()[id]));
    return w;
  };
  const Tensor& probs = f.array("probs");
  std::vector<float> p = probs.to_vector(), target_p = f.array("target_prob").to_vector();
  const size_t T = static_cast<size_t>(probs.size(1)), top = static_cast<size_t>(probs.size(2));
  nlohmann::json rows = nlohmann::json::array();
  for (size_t r = 0; r < static_cast<size_t>(probs.size(0)); ++r) {
    nlohmann::json tops = nlohmann::json::array();
    for (size_t t = 0; t < T; ++t)
      tops.push_back(
          {{"words", words(f.values["top_words"][r][t])},
           {"p", std::vector<float>(p.begin() + (r * T + t) * top, p.begin() + (r * T + t + 1) * top)}});
    rows.push_back(
        {{"row", r == 0 ? "embeddings" : "block " + std::to_string(r - 1)},
         {"top", tops},
         {"target_p", std::vector<float>(target_p.begin() + r * T, target_p.begin() + (r + 1) * T)},
         {"target_rank", f.values["target_rank"][r]}});
  }
  return {{"input", words(f.values["input"])}, {"targets", words(f.values["targets"])}, {"rows", rows}};
}

// One line per row: each position's likeliest word and its probability, and the target's rank.
void print_lens(const nlohmann::json& j) {
  std::printf("%-12s", "input");
  for (const auto& w : j["input"]) std::printf(" %-22s", printable(w.get<std::string>()).c_str());
  std::printf("\n%-12s", "target");
  for (const auto& w : j["targets"])
    std::printf(" %-22s", w.is_null() ? "-" : printable(w.get<std::string>()).c_str());
  std::printf("\n");
  for (const auto& row : j["rows"]) {
    std::printf("%-12s", row["row"].get<std::string>().c_str());
    for (size_t t = 0; t < row["top"].size(); ++t) {
      const auto& top = row["top"][t];
      std::string cell = printable(top["words"][0].get<std::string>()) + " " +
                         std::to_string(static_cast<int>(top["p"][0].get<float>() * 100)) + "%";
      if (row["target_rank"][t] >= 0) cell += " #" + std::to_string(row["target_rank"][t].get<int>());
      std::printf(" %-22s", cell.c_str());
    }
    std::printf("\n");
  }
}

void lens_options(OptionTable& o) {
  o.text("checkpoint", "FILE", "a story or toy model (MyTransformer)", std::nullopt, true);
  o.text("text", "TEXT", "the sentence to read", std::nullopt, true);
  o.text("mask", "\"P P ...\"", "positions (from 0) the model reads as _ and fills in (diffusion models)",
         "");
  o.integer("top", "N", "likeliest words shown per position and block", 1, 100, 5);
  compute_options(o);
  o.flag("json", "print only the JSON result on stdout, not the table");
}

int lens_command(const Args& a) {
  apply_threads(a);
  std::unique_ptr<Session> s = Session::view(load_saved_run(a.str("checkpoint")), device_option(a));
  const WordCodec& codec = s->codec("the logit lens");
  const MyTransformer& net = s->model().transformer_model("the logit lens");
  std::vector<int64_t> masked = positions_of(a.str("mask"));
  Figure f = checking_options([&] {
    return logit_lens(net, codec.encode(a.str("text")), masked, codec.mask_id(), a.integer("top"));
  });
  nlohmann::json j = lens_json(f, codec);
  if (!a.flag("json")) print_lens(j);
  print_json_line(j);
  return 0;
}

}  // namespace

const Command lens_subcommand{"lens", "the logit lens: what each block's residual stream predicts",
                              lens_options, lens_command};

}  // namespace tf::cli
