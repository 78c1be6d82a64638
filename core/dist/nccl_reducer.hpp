// Sums over the ranks in CUDA memory with NCCL. Each rank takes one GPU, picked by its index among the ranks
// on its machine; the NCCL id is made on rank 0 and sent to the others by `broadcast` (MPI's). Built only
// with NCCL (core/dist/CMakeLists.txt); plain C++ here so that the MPI side needs no CUDA header.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace tf {

class NcclReducer {
 public:
  NcclReducer(int rank, int size, int local_rank, const std::function<void(std::string&)>& broadcast);
  ~NcclReducer();
  NcclReducer(const NcclReducer&) = delete;
  NcclReducer& operator=(const NcclReducer&) = delete;
  // Sums n floats of device memory in place, on the stream every kernel runs on; returns once it is done.
  void sum(float* data, size_t n);
  // Copies each rank's part of `data` ([begin, end) in floats, parts[rank]) from it to every other rank.
  void gather(float* data, const std::vector<std::pair<size_t, size_t>>& parts);

 private:
  void* comm_ = nullptr;  // ncclComm_t
};

}  // namespace tf
