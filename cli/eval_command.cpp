// tinyformer eval: the course's figures for a saved model — toy: mean diffusion loss on fresh batches,
// guesses at position 2 beside GuessX0 and the nonsense fraction; sort: accuracy on 2000 fresh inputs;
// stories: loss per token on held-out text, in windows of the run's own sequence length. The last line is
// one JSON object.
#include <cmath>

#include "args.hpp"
#include "commands.hpp"
#include "common.hpp"
#include "data_source.hpp"
#include "tinyformer.hpp"

namespace tf::cli {

namespace {
// Mean training-objective loss over `batches` fresh batches (toy and sort have unlimited fresh data).
double fresh_loss(const Task& task, const Model& model, int64_t batches, Rng& rng) {
  NoGrad no_grad;
  double total = 0;
  for (int64_t i = 0; i < batches; ++i) {
    LossResult r = task.batch_loss(model, rng);
    total += r.loss.item() * r.report_scale;
  }
  return total / static_cast<double>(batches);
}
void eval_options(OptionTable& o) {
  o.text("checkpoint", "FILE", "the saved model", std::nullopt, true);
  data_options(o);
  o.integer("batches", "N", "toy and sort: fresh batches in the mean loss", 1, 1000000, 100);
  o.integer("seed", "N", "seed of the fresh batches and the evaluation", 0, INT64_MAX, 123);
  compute_options(o);
}

int eval_command(const Args& a) {
  apply_threads(a);
  SavedRun run = load_saved_run(a.str("checkpoint"));
  check_checkpoint_finite(run.file, "cannot evaluate " + a.str("checkpoint"));
  std::unique_ptr<Model> model = build_model(run, device_option(a));
  std::unique_ptr<Task> task = task_for(run, story_data_for(run, a));  // the run's own sequence length
  Rng rng(static_cast<uint64_t>(a.integer("seed")));
  nlohmann::json result = {
      {"task", task_name(run.task)}, {"model", kind_name(model->config().kind)}, {"step", run.step()}};
  if (run.task == TaskKind::Stories) result["seq_len"] = task_config(run).seq_len;
  if (std::optional<float> v = task->validation_loss(*model)) {
    result["loss"] = *v;
  } else {
    TF_CHECK(run.task != TaskKind::Stories, "cannot evaluate ", a.str("checkpoint"),
             ": the held-out text is too short for one window of ", task_config(run).seq_len,
             " tokens; give more with --valid (the loss on training text would not say how well it learned)");
    result["loss"] = fresh_loss(*task, *model, a.integer("batches"), rng);
  }
  TF_CHECK(std::isfinite(result["loss"].get<double>()), "cannot evaluate ", a.str("checkpoint"),
           ": its loss is not finite (its weights are finite but the run that wrote them diverged)");
  result["evaluation"] = task->evaluate(*model, rng);
  print_json_line(result);
  return 0;
}

}  // namespace

const Command eval_subcommand{"eval", "the course's figures for a saved model", eval_options, eval_command};

}  // namespace tf::cli
