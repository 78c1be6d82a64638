// The processes of a data-parallel run and what they exchange. N ranks train one model: each draws the
// same global batch, masks and noise, computes the loss of its own slice of the rows (normalised by the
// global batch, so the slices' losses add up to the whole batch's), and after the backward pass one sum
// over a flat gradient buffer gives every rank the global batch's gradient. One process is a communicator of
// size 1 whose exchanges do nothing. The transports: MPI for host memory (the CPU, and every small
// agreement), NCCL for CUDA memory (one GPU per rank, its id sent over MPI).
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <utility>

#include "backend/device.hpp"

namespace tf {

class Communicator {
 public:
  virtual ~Communicator() = default;
  int rank() const { return rank_; }
  int size() const { return size_; }

  // Sums n floats in place over the ranks; every rank ends with the same numbers. `data` is `device` memory.
  virtual void sum(float* data, size_t n, Device device) = 0;
  // The sum in two halves, for a step whose ranks each update a part: reduce_scatter leaves this rank's
  // part (part(n)) of the sum in place (elsewhere partial sums), all_gather copies every part from the rank
  // that owns it to the others. Each rank owns n / size() numbers, give or take one.
  virtual void reduce_scatter(float* data, size_t n, Device device) { sum(data, n, device); }
  virtual void all_gather(float* data, size_t n, Device device) = 0;
  std::pair<size_t, size_t> part(size_t n, int rank) const {
    return {n * rank / size_, n * (rank + 1) / size_};
  }
  std::pair<size_t, size_t> part(size_t n) const { return part(n, rank_); }
  // Whether any rank passes true (e.g. a Ctrl-C that reached one rank first: all stop after the same step).
  virtual bool any(bool mine) = 0;
  // Rank 0's bytes on every rank (a file only rank 0's machine has, the NCCL id).
  virtual void broadcast(std::string& bytes) = 0;
  // Ends every rank's process with `status`: a failure on this rank that the others, waiting in an
  // exchange, would never learn of.
  [[noreturn]] virtual void abort(int status) = 0;
  // How a rank waiting for the others learns of a stop signal (dist/peer_watch.hpp says what it does then).
  virtual void watch_for_stop(bool (*stop_requested)()) { (void)stop_requested; }

 protected:
  int rank_ = 0, size_ = 1;
};

// The run's ranks: MPI's when this process was started by an MPI launcher (mpirun, srun) and the build has
// MPI, else this process alone. Ranks on `device` CUDA each take one GPU (by rank on their machine) and sum
// over NCCL. A rank that waits longer than `patience_s` for the others stops the run (dist/peer_watch.hpp).
// The MPI environment ends when the last holder lets go.
std::shared_ptr<Communicator> join_ranks(Device device, double patience_s = 600);
// Whether an MPI launcher started this process (its environment says so), whatever the build.
bool launched_by_mpi();

}  // namespace tf
