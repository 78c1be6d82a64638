// The worked example of core/tinyformer.hpp, compiled the way a front end sees the core (the public
// headers only) and run by ctest. The lines between the markers are the header's, word for word
// (scripts/check-public-api.sh compares them); the checks after them make the comments' claims hold.
#include <cstdio>

#include "tinyformer.hpp"

using namespace tf;

int main() {
  try {
    // example begin
    TrainConfig config = TrainConfig::for_task("toy");  // MyTransformer(14, 32, 1, 1), Adam 1e-3, batch 64
    config.steps = 300;
    std::unique_ptr<Session> run = Session::create(config, nullptr);
    float first = run->advance(1)[0].loss;       // the diffusion loss, about 11.6 at the start
    float last = run->advance(299).back().loss;  // about 0.3 after 300 steps

    const TokenModel& net = run->model().token_model("looking inside");
    Tensor logits = net.forward(Ids(toy::encode("the _ is alive"), Shape{1, 4}));  // [1, 4, 14]
    Tensor weights = net.attention_weights()[0];                                   // [1, 1, 4, 4]

    std::vector<uint8_t> file = save_checkpoint_bytes(run->checkpoint());  // or save_checkpoint(path, ...)
    SavedRun saved = load_saved_run_bytes(file.data(), file.size());       // or load_saved_run(path)
    std::unique_ptr<Session> again = Session::resume(saved, nullptr);      // step 300, the same optimizer
    // example end

    std::printf("first loss %.3f, after 300 steps %.3f\n", first, last);
    bool ok = first > 8.0f && first < 15.0f && last < 0.6f && logits.shape() == Shape{1, 4, 14} &&
              weights.shape() == Shape{1, 1, 4, 4} && saved.task == TaskKind::Toy && saved.step() == 300 &&
              saved.resumable() && again->steps_done() == 300;
    if (!ok) std::printf("the example's figures are not what its comments say\n");
    return ok ? 0 : 1;
  } catch (const Error& e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
}
