// The ranks of an MPI launch (mpirun, srun): sums of host memory with MPI_Allreduce, of CUDA memory with NCCL
// (dist/nccl_reducer.hpp) when the build has it. Only the main thread calls MPI (MPI_THREAD_FUNNELED); a
// PeerWatch bounds every wait. Built when TF_MPI is on (core/dist/CMakeLists.txt).
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <memory>

#include "dist/communicator.hpp"
#include "dist/peer_watch.hpp"
#include "util/error.hpp"
#ifdef TF_WITH_NCCL
#include "dist/nccl_reducer.hpp"
#endif

namespace tf {

namespace {

constexpr size_t kMaxCount = INT_MAX;  // MPI counts are ints: longer buffers go in pieces

// This rank's index among the ranks on its machine (its GPU).
int local_rank() {
  MPI_Comm local;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
  int r = 0;
  MPI_Comm_rank(local, &r);
  MPI_Comm_free(&local);
  return r;
}

class MpiCommunicator : public Communicator {
 public:
  MpiCommunicator(Device device, double patience_s) {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    watch_ = std::make_unique<PeerWatch>(
        "tinyformer rank " + std::to_string(rank_) + " of " + std::to_string(size_), patience_s);
    if (device == Device::CPU) return;
    TF_CHECK(device == Device::CUDA, "ranks train on the CPU or on CUDA GPUs, not on ", device_name(device));
#ifdef TF_WITH_NCCL
    int here = local_rank();
    nccl_ = std::make_unique<NcclReducer>(rank_, size_, here, [this](std::string& b) { broadcast(b); });
#else
    TF_CHECK(size_ == 1, "training on CUDA over several ranks needs NCCL, which this build left out");
#endif
  }

  ~MpiCommunicator() override {
#ifdef TF_WITH_NCCL
    nccl_.reset();
#endif
    watch_.reset();
    if (std::uncaught_exceptions() == 0) MPI_Finalize();  // else the caller aborts the ranks
  }

  void sum(float* data, size_t n, Device device) override {
    if (size_ == 1) return;
#ifdef TF_WITH_NCCL
    if (device != Device::CPU) return watch_->watch([&] { nccl_->sum(data, n); });
#endif
    TF_CHECK(device == Device::CPU, "this build sums only host memory over MPI");
    for (size_t at = 0; at < n; at += kMaxCount) {
      int count = static_cast<int>(std::min(kMaxCount, n - at));
      watch_->watch(
          [&] { MPI_Allreduce(MPI_IN_PLACE, data + at, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); });
    }
  }

  bool any(bool mine) override {
    int in = mine ? 1 : 0, out = 0;
    watch_->watch([&] { MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD); });
    return out != 0;
  }

  void broadcast(std::string& bytes) override {
    unsigned long long n = bytes.size();
    watch_->watch([&] { MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD); });
    bytes.resize(n);
    for (size_t at = 0; at < n; at += kMaxCount) {
      int count = static_cast<int>(std::min<size_t>(kMaxCount, n - at));
      watch_->watch([&] { MPI_Bcast(&bytes[at], count, MPI_CHAR, 0, MPI_COMM_WORLD); });
    }
  }

  [[noreturn]] void abort(int status) override {
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, status);
    std::_Exit(status);
  }

  void watch_for_stop(bool (*stop_requested)()) override { watch_->set_stop_check(stop_requested); }

 private:
  std::unique_ptr<PeerWatch> watch_;
#ifdef TF_WITH_NCCL
  std::unique_ptr<NcclReducer> nccl_;
#endif
};

}  // namespace

std::shared_ptr<Communicator> join_mpi(Device device, double patience_s) {
  return std::make_shared<MpiCommunicator>(device, patience_s);
}

}  // namespace tf
