//===- StubDriver.cpp - the cu* functions of stub/cuda.h on the host ------===//
//
// See StubDriver.h. Single-threaded (the tests call the runtime from one
// thread at a time; setLaunchHook lets another run while the launching one
// waits). Streams and events follow the CUDA driver API's documented
// guarantees and nothing more: work on a stream runs in order; a stream
// runs when something waits for it; cuStreamWaitEvent orders a stream after
// the work recorded before the event; cuCtxSynchronize and cuMemFree (which
// synchronises the device) run everything.
//
//===----------------------------------------------------------------------===//
#include "StubDriver.h"

#include <cuda.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <utility>

namespace {

constexpr char kMapMagic[8] = {'S', 'T', 'U', 'B', 'T', 'M', 'A', 'P'};

struct Allocation {
  std::vector<uint8_t> bytes;
  bool live = true;
};

struct Stream;
struct CUevent_st_impl {
  Stream *stream = nullptr; // where its last record is queued
  bool signaled = true;     // never recorded: complete
  double ms = 0;            // the stub's clock when the record ran
};

struct Op {
  enum Kind { Copy, Kernel, Record, Wait } kind;
  explicit Op(Kind kind) : kind(kind) {}
  CUdeviceptr dst = 0;
  const void *src = nullptr;   // host bytes read when the op runs
  std::vector<uint8_t> staged; // or bytes staged when it was issued
  size_t bytes = 0;
  CUdeviceptr deviceSrc = 0; // device-to-device
  std::string kernel;
  unsigned grid = 0;
  unsigned cluster[3] = {1, 1, 1};
  CUdeviceptr maps[3] = {0, 0, 0};
  CUevent_st_impl *event = nullptr;
};

struct Stream {
  std::deque<Op> queue;
};

struct Driver {
  std::map<CUdeviceptr, Allocation> memory; // by base address
  CUdeviceptr next = 0x7e0000000000ull;     // above any host pointer here
  Stream legacy;
  std::vector<std::unique_ptr<Stream>> streams;
  std::vector<std::string> faults;
  std::vector<fp8stub::KernelRun> runs;
  int smCount = 132;
  CUresult moduleUnloadResult = CUDA_SUCCESS;
  CUresult initResult = CUDA_SUCCESS;
  std::map<std::string, unsigned> clusterKernels; // requireCluster
  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES by function name.
  std::map<std::string, int> maxDynamicShared;
  std::function<void()> launchHook;
  size_t live = 0; // live allocations
  /// The device clock in milliseconds: a kernel takes as many as its grid
  /// has CTAs (a time a test derives by hand).
  double clockMs = 0;

  Stream *stream(CUstream s) {
    return s ? reinterpret_cast<Stream *>(s) : &legacy;
  }
  /// The live or freed allocation holding [p, p + n), with the offset.
  Allocation *find(CUdeviceptr p, size_t n, size_t *offset) {
    auto it = memory.upper_bound(p);
    if (it == memory.begin())
      return nullptr;
    --it;
    if (p + n > it->first + it->second.bytes.size())
      return nullptr;
    *offset = p - it->first;
    return &it->second;
  }
  bool isDevice(CUdeviceptr p) { return p >= 0x7e0000000000ull; }

  void fault(const std::string &what) { faults.push_back(what); }

  void copy(const Op &op) {
    size_t off = 0;
    Allocation *a = find(op.dst, op.bytes, &off);
    if (!a || !a->live) {
      fault("a copy writes " + std::string(a ? "freed" : "no") +
            " device memory");
      return;
    }
    const uint8_t *from = op.staged.empty()
                              ? static_cast<const uint8_t *>(op.src)
                              : op.staged.data();
    if (op.deviceSrc) {
      size_t soff = 0;
      Allocation *s = find(op.deviceSrc, op.bytes, &soff);
      if (!s || !s->live) {
        fault("a copy reads freed or no device memory");
        return;
      }
      from = s->bytes.data() + soff;
    }
    std::memcpy(a->bytes.data() + off, from, op.bytes);
  }

  void kernel(const Op &op) {
    clockMs += op.grid;
    fp8stub::KernelRun run;
    run.name = op.kernel;
    run.grid = op.grid;
    std::copy(op.cluster, op.cluster + 3, run.cluster);
    checkCluster(op);
    for (int i = 0; i < 3; ++i) {
      std::string what =
          "kernel " + op.kernel + ": tensor map parameter " + std::to_string(i);
      size_t off = 0;
      Allocation *a = find(op.maps[i], sizeof(CUtensorMap), &off);
      if (!a) {
        fault(what + " is not device memory");
      } else if (!a->live) {
        fault(what + " was read after cuMemFree");
      } else if (std::memcmp(a->bytes.data() + off, kMapMagic, 8) != 0) {
        fault(what + " holds no encoded map (the upload had not landed)");
      } else {
        std::memcpy(&run.maps[i], a->bytes.data() + off + 8,
                    sizeof(fp8stub::MapArgs));
      }
    }
    runs.push_back(run);
  }

  /// A cluster kernel (requireCluster) must run in its clusters.
  void checkCluster(const Op &op) {
    auto it = clusterKernels.find(op.kernel);
    if (it == clusterKernels.end())
      return;
    if (op.cluster[0] != it->second || op.cluster[1] != 1 || op.cluster[2] != 1)
      fault("kernel " + op.kernel + " runs in clusters of " +
            std::to_string(it->second) + " x 1 x 1 CTAs, launched in " +
            std::to_string(op.cluster[0]) + " x " +
            std::to_string(op.cluster[1]) + " x " +
            std::to_string(op.cluster[2]));
  }

  /// Runs the first op of `s`.
  void step(Stream *s) {
    Op op = std::move(s->queue.front());
    s->queue.pop_front();
    switch (op.kind) {
    case Op::Copy:
      copy(op);
      break;
    case Op::Kernel:
      kernel(op);
      break;
    case Op::Record:
      op.event->signaled = true;
      op.event->ms = clockMs;
      break;
    case Op::Wait:
      runUntil(op.event);
      break;
    }
  }
  void drain(Stream *s) {
    while (!s->queue.empty())
      step(s);
  }
  void runUntil(CUevent_st_impl *e) {
    while (!e->signaled && e->stream && !e->stream->queue.empty())
      step(e->stream);
  }
  /// Everything: the created streams first, the legacy stream last (the
  /// order least favourable to work that relies on the legacy stream).
  void drainAll() {
    for (auto &s : streams)
      drain(s.get());
    drain(&legacy);
  }
};

Driver &driver() {
  static Driver d;
  return d;
}

CUresult alloc(CUdeviceptr *ptr, size_t bytes) {
  Driver &d = driver();
  if (!ptr || bytes == 0)
    return CUDA_ERROR_INVALID_VALUE;
  *ptr = d.next;
  d.memory[d.next].bytes.assign(bytes, 0xCD);
  ++d.live;
  d.next += (bytes + 511) / 256 * 256; // a gap after each allocation
  return CUDA_SUCCESS;
}

} // namespace

namespace fp8stub {
std::vector<std::string> takeFaults() {
  return std::exchange(driver().faults, {});
}
std::vector<KernelRun> takeRuns() { return std::exchange(driver().runs, {}); }
size_t liveAllocations() { return driver().live; }
void setMultiprocessorCount(int count) { driver().smCount = count; }
void requireCluster(const std::string &name, unsigned ctas) {
  driver().clusterKernels[name] = ctas;
}
void setLaunchHook(std::function<void()> hook) {
  driver().launchHook = std::move(hook);
}
void setModuleUnloadResult(int result) {
  driver().moduleUnloadResult = static_cast<CUresult>(result);
}
void setInitResult(int result) {
  driver().initResult = static_cast<CUresult>(result);
}
} // namespace fp8stub

extern "C" {

CUresult cuInit(unsigned int) { return driver().initResult; }
CUresult cuGetErrorName(CUresult error, const char **name) {
  // NVIDIA's stub library answers every call so, naming nothing.
  if (driver().initResult == CUDA_ERROR_STUB_LIBRARY)
    return CUDA_ERROR_STUB_LIBRARY;
  *name = error == CUDA_SUCCESS ? "CUDA_SUCCESS" : "CUDA_ERROR (stub)";
  return CUDA_SUCCESS;
}
CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  if (ordinal != 0)
    return CUDA_ERROR_INVALID_VALUE;
  *device = 0;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetName(char *name, int len, CUdevice device) {
  if (device != 0 || !name || len < 1)
    return CUDA_ERROR_INVALID_VALUE;
  std::snprintf(name, static_cast<size_t>(len), "%s", "stub H100");
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attrib,
                              CUdevice device) {
  if (device != 0)
    return CUDA_ERROR_INVALID_VALUE;
  switch (attrib) {
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *value = driver().smCount;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *value = 9;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *value = 0;
    return CUDA_SUCCESS;
  }
  return CUDA_ERROR_INVALID_VALUE;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice) {
  static int context;
  *ctx = reinterpret_cast<CUcontext>(&context);
  return CUDA_SUCCESS;
}
CUresult cuCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }
CUresult cuCtxGetDevice(CUdevice *device) {
  *device = 0;
  return CUDA_SUCCESS;
}
CUresult cuCtxSynchronize(void) {
  driver().drainAll();
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  static int loaded;
  if (!image)
    return CUDA_ERROR_INVALID_VALUE;
  *module = reinterpret_cast<CUmodule>(&loaded);
  return CUDA_SUCCESS;
}
/// PTX that does not start with ".version" is rejected as the driver's JIT
/// rejects it: CUDA_ERROR_INVALID_PTX, with a line in the error log buffer
/// when the caller passed one (CU_JIT_ERROR_LOG_BUFFER and its size).
CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                            unsigned int count, CUjit_option *options,
                            void **values) {
  if (image && std::strncmp(static_cast<const char *>(image), ".version", 8)) {
    char *log = nullptr;
    size_t size = 0;
    for (unsigned i = 0; i < count; ++i) {
      if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
        log = static_cast<char *>(values[i]);
      if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
        size = reinterpret_cast<size_t>(values[i]);
    }
    if (log && size)
      std::snprintf(log, size, "%s",
                    "ptxas application ptx input, line 1; fatal   : "
                    "Missing .version directive at start of file");
    return CUDA_ERROR_INVALID_PTX;
  }
  return cuModuleLoadData(module, image);
}
CUresult cuModuleUnload(CUmodule) { return driver().moduleUnloadResult; }
CUresult cuModuleGetFunction(CUfunction *function, CUmodule module,
                             const char *name) {
  if (!module || !name)
    return CUDA_ERROR_INVALID_VALUE;
  // A function handle is its name, kept for the process.
  static std::map<std::string, std::unique_ptr<std::string>> names;
  auto &slot = names[name];
  if (!slot)
    slot = std::make_unique<std::string>(name);
  *function = reinterpret_cast<CUfunction>(slot.get());
  return CUDA_SUCCESS;
}
// The dynamic shared memory opt-in, as the driver checks it (CUDA C++
// Programming Guide, "Shared Memory", compute capability 9.0): a launch may
// take at most 48 KB of dynamic shared memory unless the function's
// MAX_DYNAMIC_SHARED_SIZE_BYTES was raised, to at most 227 KB (232448
// bytes) on sm_90. Other attributes are not modelled.
constexpr int kDefaultDynamicShared = 48 * 1024, kMaxDynamicShared = 232448;
CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute attrib,
                            int value) {
  if (!f)
    return CUDA_ERROR_INVALID_VALUE;
  if (attrib == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) {
    if (value < 0 || value > kMaxDynamicShared)
      return CUDA_ERROR_INVALID_VALUE;
    driver().maxDynamicShared[*reinterpret_cast<std::string *>(f)] = value;
  }
  return CUDA_SUCCESS;
}
namespace {
/// Runs and clears the test's launch hook (setLaunchHook), if any.
void runLaunchHook() {
  if (std::function<void()> hook = std::exchange(driver().launchHook, {}))
    hook();
}

/// Queues a kernel on `stream` in clusters of `cluster` CTAs; more dynamic
/// shared memory than the function opted in to is CUDA_ERROR_INVALID_VALUE.
CUresult queueKernel(CUfunction f, unsigned int gridDimX, unsigned int smem,
                     CUstream stream, void **kernelParams,
                     const unsigned cluster[3]) {
  if (!f || !kernelParams || gridDimX == 0)
    return CUDA_ERROR_INVALID_VALUE;
  const std::string &name = *reinterpret_cast<std::string *>(f);
  auto optIn = driver().maxDynamicShared.find(name);
  unsigned limit =
      std::max(kDefaultDynamicShared,
               optIn == driver().maxDynamicShared.end() ? 0 : optIn->second);
  if (smem > limit)
    return CUDA_ERROR_INVALID_VALUE;
  Op op(Op::Kernel);
  op.kernel = *reinterpret_cast<std::string *>(f);
  op.grid = gridDimX;
  std::copy(cluster, cluster + 3, op.cluster);
  // The driver copies the parameter values at the launch.
  for (int i = 0; i < 3; ++i)
    std::memcpy(&op.maps[i], kernelParams[i], sizeof(CUdeviceptr));
  driver().stream(stream)->queue.push_back(std::move(op));
  return CUDA_SUCCESS;
}
} // namespace

CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int,
                        unsigned int, unsigned int, unsigned int, unsigned int,
                        unsigned int sharedMemBytes, CUstream stream,
                        void **kernelParams, void **) {
  runLaunchHook();
  const unsigned noCluster[3] = {1, 1, 1};
  return queueKernel(f, gridDimX, sharedMemBytes, stream, kernelParams,
                     noCluster);
}
// A launch with attributes: the cluster dimension is recorded (1 x 1 x 1
// without it), as the driver checks it: each dimension at least 1 and
// dividing the grid's, at most 8 CTAs (the portable cluster size; the
// runtime does not opt in to more). Any other attribute is not modelled.
CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f,
                          void **kernelParams, void **) {
  runLaunchHook();
  if (!config || (config->numAttrs && !config->attrs))
    return CUDA_ERROR_INVALID_VALUE;
  unsigned cluster[3] = {1, 1, 1};
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const CUlaunchAttribute &a = config->attrs[i];
    if (a.id != CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
      return CUDA_ERROR_INVALID_VALUE;
    cluster[0] = a.value.clusterDim.x;
    cluster[1] = a.value.clusterDim.y;
    cluster[2] = a.value.clusterDim.z;
  }
  const unsigned grid[3] = {config->gridDimX, config->gridDimY,
                            config->gridDimZ};
  for (int d = 0; d < 3; ++d)
    if (cluster[d] == 0 || grid[d] % cluster[d] != 0)
      return CUDA_ERROR_INVALID_VALUE;
  if (cluster[0] * cluster[1] * cluster[2] > 8)
    return CUDA_ERROR_INVALID_VALUE;
  return queueKernel(f, config->gridDimX, config->sharedMemBytes,
                     config->hStream, kernelParams, cluster);
}

CUresult cuStreamCreate(CUstream *stream, unsigned int) {
  Driver &d = driver();
  d.streams.push_back(std::make_unique<Stream>());
  *stream = reinterpret_cast<CUstream>(d.streams.back().get());
  return CUDA_SUCCESS;
}
// Work queued on a destroyed stream still completes (it runs when the
// context is synchronised); the stub keeps the queue.
CUresult cuStreamDestroy(CUstream) { return CUDA_SUCCESS; }
CUresult cuStreamSynchronize(CUstream stream) {
  driver().drain(driver().stream(stream));
  return CUDA_SUCCESS;
}
CUresult cuStreamWaitEvent(CUstream stream, CUevent event, unsigned int) {
  if (!event)
    return CUDA_ERROR_INVALID_HANDLE;
  Op op(Op::Wait);
  op.event = reinterpret_cast<CUevent_st_impl *>(event);
  driver().stream(stream)->queue.push_back(std::move(op));
  return CUDA_SUCCESS;
}
CUresult cuEventCreate(CUevent *event, unsigned int) {
  *event = reinterpret_cast<CUevent>(new CUevent_st_impl());
  return CUDA_SUCCESS;
}
// Kept allocated: a queued wait may still name it (the driver defers the
// release the same way).
CUresult cuEventDestroy(CUevent event) {
  return event ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}
CUresult cuEventSynchronize(CUevent event) {
  driver().runUntil(reinterpret_cast<CUevent_st_impl *>(event));
  return CUDA_SUCCESS;
}
CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end) {
  auto *a = reinterpret_cast<CUevent_st_impl *>(start);
  auto *b = reinterpret_cast<CUevent_st_impl *>(end);
  if (!a || !b || !ms)
    return CUDA_ERROR_INVALID_HANDLE;
  if (!a->signaled || !b->signaled)
    return CUDA_ERROR_NOT_READY;
  *ms = static_cast<float>(b->ms - a->ms);
  return CUDA_SUCCESS;
}
CUresult cuEventRecord(CUevent event, CUstream stream) {
  auto *e = reinterpret_cast<CUevent_st_impl *>(event);
  if (!e)
    return CUDA_ERROR_INVALID_HANDLE;
  e->signaled = false;
  e->stream = driver().stream(stream);
  Op op(Op::Record);
  op.event = e;
  e->stream->queue.push_back(std::move(op));
  return CUDA_SUCCESS;
}

CUresult cuMemAlloc(CUdeviceptr *ptr, size_t bytes) {
  return alloc(ptr, bytes);
}
CUresult cuMemAllocManaged(CUdeviceptr *ptr, size_t bytes, unsigned int) {
  return alloc(ptr, bytes);
}
CUresult cuMemFree(CUdeviceptr ptr) {
  Driver &d = driver();
  auto it = d.memory.find(ptr);
  if (it == d.memory.end() || !it->second.live)
    return CUDA_ERROR_INVALID_VALUE;
  d.drainAll(); // cuMemFree synchronises the device
  it->second.live = false;
  --d.live;
  std::memset(it->second.bytes.data(), 0xDD, it->second.bytes.size());
  return CUDA_SUCCESS;
}
// Pageable host memory: the legacy stream's earlier work runs first, the
// bytes are staged, and the copy lands when the legacy stream runs next
// (the call may return before the DMA completes).
CUresult cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t bytes) {
  Driver &d = driver();
  d.drain(&d.legacy);
  Op op(Op::Copy);
  op.dst = dst;
  op.bytes = bytes;
  op.staged.assign(static_cast<const uint8_t *>(src),
                   static_cast<const uint8_t *>(src) + bytes);
  d.legacy.queue.push_back(std::move(op));
  return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t bytes,
                           CUstream stream) {
  Op op(Op::Copy);
  op.dst = dst;
  op.src = src;
  op.bytes = bytes;
  driver().stream(stream)->queue.push_back(std::move(op));
  return CUDA_SUCCESS;
}
// Unified addressing: either side may be host or device memory. The
// runtime's tests copy host to device; other directions run at once.
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                       CUstream stream) {
  Driver &d = driver();
  if (!d.isDevice(dst)) {
    d.drain(d.stream(stream));
    size_t off = 0;
    Allocation *a = d.find(src, bytes, &off);
    if (!a || !a->live)
      return CUDA_ERROR_INVALID_VALUE;
    std::memcpy(reinterpret_cast<void *>(dst), a->bytes.data() + off, bytes);
    return CUDA_SUCCESS;
  }
  Op op(Op::Copy);
  op.dst = dst;
  op.bytes = bytes;
  if (d.isDevice(src))
    op.deviceSrc = src;
  else
    op.src = reinterpret_cast<const void *>(src);
  d.stream(stream)->queue.push_back(std::move(op));
  return CUDA_SUCCESS;
}
CUresult cuMemsetD32Async(CUdeviceptr, unsigned int, size_t, CUstream) {
  return CUDA_SUCCESS;
}
CUresult cuMemsetD16Async(CUdeviceptr, unsigned short, size_t, CUstream) {
  return CUDA_SUCCESS;
}

// The preconditions the driver API documents for cuTensorMapEncodeTiled
// that the runtime's arguments could break: rank 1..5, a 16-byte aligned
// global address, byte strides multiples of 16, box sizes 1..256.
CUresult cuTensorMapEncodeTiled(
    CUtensorMap *tensorMap, CUtensorMapDataType dataType, cuuint32_t rank,
    void *globalAddress, const cuuint64_t *globalDim,
    const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
    const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle swizzle,
    CUtensorMapL2promotion, CUtensorMapFloatOOBfill) {
  auto address = reinterpret_cast<uint64_t>(globalAddress);
  if (!tensorMap || rank < 1 || rank > 5 || address % 16 != 0)
    return CUDA_ERROR_INVALID_VALUE;
  fp8stub::MapArgs args;
  args.dataType = dataType;
  args.rank = rank;
  args.swizzle = swizzle;
  args.globalAddress = address;
  for (cuuint32_t i = 0; i < rank; ++i) {
    if (boxDim[i] < 1 || boxDim[i] > 256 || globalDim[i] < 1)
      return CUDA_ERROR_INVALID_VALUE;
    args.globalDim[i] = globalDim[i];
    args.box[i] = boxDim[i];
  }
  for (cuuint32_t i = 0; i + 1 < rank; ++i) {
    if (globalStrides[i] % 16 != 0)
      return CUDA_ERROR_INVALID_VALUE;
    args.globalStrides[i] = globalStrides[i];
  }
  static_assert(8 + sizeof(args) <= sizeof(CUtensorMap), "map too small");
  std::memset(tensorMap, 0, sizeof(*tensorMap));
  auto *bytes = reinterpret_cast<uint8_t *>(tensorMap);
  std::memcpy(bytes, kMapMagic, 8);
  std::memcpy(bytes + 8, &args, sizeof(args));
  return CUDA_SUCCESS;
}

} // extern "C"
