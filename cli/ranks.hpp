// The command line's side of a data-parallel run (mpirun -np N tinyformer train). Rank 0 reads the files (the
// story text, a checkpoint to resume or start from) and sends them to the others, so they need to exist on
// its machine only; rank 0 alone prints, logs, validates, evaluates and saves; after each step the ranks
// agree whether a signal stops them, so all stop after the same step; a failure on one rank is printed
// naming it and ends every rank with its exit status.
#pragma once
#include <functional>
#include <string>

#include "args.hpp"
#include "data_source.hpp"
#include "tinyformer.hpp"

namespace tf::cli {

void rank_options(OptionTable& o);  // --rank-timeout S
std::shared_ptr<Communicator> join_ranks(const Args& args, Device device);
StoryText shared_story_text(const Args& args, Communicator& ranks);
SavedRun shared_saved_run(const std::string& path, Communicator& ranks);
// body() on this rank; a failure it throws is reported with the rank named, and ends every rank.
int on_every_rank(Communicator& ranks, const std::function<int()>& body);

}  // namespace tf::cli
