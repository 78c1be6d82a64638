// NcclReducer (dist/nccl_reducer.hpp): one ncclAllReduce per sum (one ncclBroadcast per part for a gather)
// on the legacy default stream, where every kernel of the CUDA backend runs, so it follows the backward pass
// and precedes the optimizer in order.
// Host calls only, so the C++ compiler builds it against the toolkit's headers.
#include <cuda_runtime.h>
#include <nccl.h>

#include "dist/nccl_reducer.hpp"
#include "util/error.hpp"

namespace tf {

namespace {

void check(ncclResult_t r, const char* what) {
  TF_CHECK(r == ncclSuccess, "NCCL: ", what, ": ", ncclGetErrorString(r));
}

void check(cudaError_t e, const char* what) {
  TF_CHECK(e == cudaSuccess, "CUDA: ", what, ": ", cudaGetErrorString(e));
}

}  // namespace

NcclReducer::NcclReducer(int rank, int size, int local_rank,
                         const std::function<void(std::string&)>& broadcast) {
  int gpus = 0;
  check(cudaGetDeviceCount(&gpus), "counting GPUs");
  TF_CHECK(gpus > 0, "no CUDA device is present");
  // Before any other CUDA call of this process: the backend's allocations land on this GPU.
  check(cudaSetDevice(local_rank % gpus), "choosing this rank's GPU");
  ncclUniqueId id;
  if (rank == 0) check(ncclGetUniqueId(&id), "making the communicator's id");
  std::string bytes(reinterpret_cast<const char*>(&id), sizeof id);
  broadcast(bytes);
  TF_CHECK(bytes.size() == sizeof id, "NCCL: the communicator's id arrived with ", bytes.size(), " bytes");
  std::copy(bytes.begin(), bytes.end(), reinterpret_cast<char*>(&id));
  ncclComm_t comm;
  check(ncclCommInitRank(&comm, size, id, rank), "joining the ranks");
  comm_ = comm;
}

NcclReducer::~NcclReducer() { ncclCommDestroy(static_cast<ncclComm_t>(comm_)); }

void NcclReducer::sum(float* data, size_t n) {
  check(ncclAllReduce(data, data, n, ncclFloat, ncclSum, static_cast<ncclComm_t>(comm_), cudaStreamLegacy),
        "summing over the ranks");
  check(cudaStreamSynchronize(cudaStreamLegacy), "waiting for the sum");  // a rank that died shows here
}

void NcclReducer::gather(float* data, const std::vector<std::pair<size_t, size_t>>& parts) {
  auto comm = static_cast<ncclComm_t>(comm_);
  check(ncclGroupStart(), "gathering the ranks' parts");
  for (size_t r = 0; r < parts.size(); ++r) {
    float* at = data + parts[r].first;
    check(ncclBroadcast(at, at, parts[r].second - parts[r].first, ncclFloat, static_cast<int>(r), comm,
                        cudaStreamLegacy),
          "gathering the ranks' parts");
  }
  check(ncclGroupEnd(), "gathering the ranks' parts");
  check(cudaStreamSynchronize(cudaStreamLegacy), "waiting for the parts");
}

}  // namespace tf
