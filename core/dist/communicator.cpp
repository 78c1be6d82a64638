#include "dist/communicator.hpp"

#include <cstdlib>

#include "util/error.hpp"

namespace tf {

#ifdef TF_WITH_MPI
std::shared_ptr<Communicator> join_mpi(Device device, double patience_s);  // dist/mpi_communicator.cpp
#endif

namespace {

// This process alone: every sum is already the total, every broadcast already here.
class OneProcess : public Communicator {
 public:
  void sum(float*, size_t, Device) override {}
  void all_gather(float*, size_t, Device) override {}
  bool any(bool mine) override { return mine; }
  void broadcast(std::string&) override {}
  [[noreturn]] void abort(int status) override { std::exit(status); }
};

// The number of ranks an MPI launcher says it started (Open MPI, MPICH's Hydra, PMIx launchers), or 0.
long launched_ranks() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"})
    if (const char* value = std::getenv(name)) return std::atol(value);
  return std::getenv("PMIX_RANK") ? 1 : 0;
}

}  // namespace

bool launched_by_mpi() { return launched_ranks() > 0; }

std::shared_ptr<Communicator> join_ranks(Device device, double patience_s) {
  if (!launched_by_mpi()) return std::make_shared<OneProcess>();
#ifdef TF_WITH_MPI
  return join_mpi(device, patience_s);
#else
  (void)device, (void)patience_s;
  TF_CHECK(launched_ranks() <= 1, "an MPI launcher started ", launched_ranks(),
           " copies of this tinyformer, which was built without MPI: each would train alone. Build it with "
           "MPI (libopenmpi-dev; cmake -DTF_MPI=ON)");
  return std::make_shared<OneProcess>();
#endif
}

}  // namespace tf
