#include "ranks.hpp"

#include "command_line.hpp"

namespace tf::cli {

void rank_options(OptionTable& o) {
  o.number("rank-timeout",
           "under mpirun: seconds a rank waits for the others (a rank that hangs) before it stops the run", 1,
           1e6, 600);
}

std::shared_ptr<Communicator> join_ranks(const Args& a, Device device) {
  return tf::join_ranks(device, a.number("rank-timeout"));
}

StoryText shared_story_text(const Args& a, Communicator& ranks) {
  StoryText t;
  if (ranks.rank() == 0) t = load_story_text(a);
  for (std::string* part : {&t.train, &t.valid, &t.description}) ranks.broadcast(*part);
  return t;
}

SavedRun shared_saved_run(const std::string& path, Communicator& ranks) {
  if (ranks.size() == 1) return load_saved_run(path);
  std::string bytes;
  if (ranks.rank() == 0) {
    std::vector<uint8_t> file = read_file_bytes(path);
    bytes.assign(file.begin(), file.end());
  }
  ranks.broadcast(bytes);
  try {
    return load_saved_run_bytes(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  } catch (const Error& e) {
    fail("'", path, "': ", e.what());  // as load_saved_run names the file
  }
}

int on_every_rank(Communicator& ranks, const std::function<int()>& body) {
  if (ranks.size() == 1) return body();
  try {
    return body();
  } catch (...) {
    std::string where = "tinyformer train (rank " + std::to_string(ranks.rank()) + " of " +
                        std::to_string(ranks.size()) + ")";
    ranks.abort(report_failure(where));
  }
}

}  // namespace tf::cli
