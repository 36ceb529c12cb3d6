//===- StubDriver.h - control of the stub CUDA driver (tests only) --------===//
//
// StubDriver.cpp implements the cu* functions of stub/cuda.h on the host:
// device memory is a table of allocations (addresses no host pointer has,
// fresh memory filled with 0xCD, freed memory kept and marked), streams are
// queues that run only when something waits for them (cuStreamSynchronize,
// cuEventSynchronize, a cuStreamWaitEvent on another stream's event,
// cuCtxSynchronize, cuMemFree), in the least favourable order CUDA allows:
// a CU_STREAM_NON_BLOCKING stream is not ordered with the legacy stream,
// cuMemcpyHtoD from pageable memory returns once the bytes are staged and
// lands when the legacy stream runs, cuMemcpyHtoDAsync reads the host bytes
// only when it runs. Every kernel reads its first three parameters as
// device pointers to tensor maps (the GEMM ABI of GemmKernelConfig.h) when
// it runs; what it finds there (an encoded map, bytes never written, freed
// memory) is recorded for the test, with the launch's cluster dimensions
// (cuLaunchKernelEx's CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION): a kernel that a
// test declares a cluster kernel (requireCluster) and that runs in other
// clusters is a fault, as its cluster code (mapa, multicast) would be on a
// GPU.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_UNITTESTS_RUNTIME_STUBDRIVER_H
#define FP8_UNITTESTS_RUNTIME_STUBDRIVER_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace fp8stub {

/// A tensor map as cuTensorMapEncodeTiled received it (innermost first).
struct MapArgs {
  uint32_t dataType = 0, rank = 0, swizzle = 0;
  uint64_t globalAddress = 0;
  uint64_t globalDim[5] = {};
  uint64_t globalStrides[4] = {};
  uint32_t box[5] = {};
};

/// One kernel that ran: its name, grid, cluster dimensions (1, 1, 1 without
/// the attribute) and the three maps it read.
struct KernelRun {
  std::string name;
  unsigned grid = 0;
  unsigned cluster[3] = {1, 1, 1};
  MapArgs maps[3];
};

/// What went wrong since the last call (a map read after cuMemFree, bytes
/// that are no encoded map, an access outside device memory), and clears it.
std::vector<std::string> takeFaults();
/// The kernels that ran since the last call, in the order they ran.
std::vector<KernelRun> takeRuns();
/// Live device allocations.
size_t liveAllocations();
/// CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT of device 0 (default 132).
void setMultiprocessorCount(int count);
/// The kernel `name` runs in clusters of `ctas` x 1 x 1 CTAs: run in others
/// (a launch without the cluster attribute: 1 x 1 x 1) it is a fault.
void requireCluster(const std::string &name, unsigned ctas);
/// Called once, by the next cuLaunchKernel or cuLaunchKernelEx on entry,
/// before the launch takes effect: a test's way to act (from another host
/// thread) while a launch is being issued. The stub is single-threaded:
/// the hook must not return while another thread is inside the stub.
void setLaunchHook(std::function<void()> hook);
/// What cuModuleUnload returns (default CUDA_SUCCESS; CUDA_ERROR_DEINITIALIZED
/// as at process exit after the driver shut down).
void setModuleUnloadResult(int result);
/// What cuInit returns (default CUDA_SUCCESS; CUDA_ERROR_NO_DEVICE as on a
/// machine with a driver and no GPU). CUDA_ERROR_STUB_LIBRARY also makes
/// cuGetErrorName answer it, as NVIDIA's stub libcuda answers every call.
void setInitResult(int result);

} // namespace fp8stub

#endif // FP8_UNITTESTS_RUNTIME_STUBDRIVER_H
