//===- mgpu_cuda_runtime.cpp - the mgpu* host ABI on the CUDA driver ------===//
//
// The functions that host code lowered by fp8-gpu-pipeline (host=llvm) calls:
// upstream MLIR's `mgpu*` runtime ABI, as `gpu-to-llvm`,
// `convert-nvgpu-to-nvvm` and the GPU dialect's LLVM IR translation
// (`#gpu.select_object`) emit it for MLIR 22. Debian ships no MLIR CUDA
// runtime library, so this is the project's own implementation over the CUDA
// driver API, written from the ABI (signatures in docs/gpu-kernel.md, "Host
// ABI"); a program built against it also runs with upstream's
// libmlir_cuda_runtime where one exists.
//
// The ABI returns no status: a failing driver call is reported on stderr and
// counted; fp8_mgpu_error_count() / fp8_mgpu_last_error() let a caller check
// after a host call (the benchmark harness and the Python "cuda" backend
// do). fp8_mgpu_init_status() and its companions let a caller ask, before
// any ABI call, whether the driver has a device to run on (the Python
// backend raises instead of running a host program on no context).
//
//===----------------------------------------------------------------------===//
#include "fp8/Target/Hopper/LaunchLimits.h"
#include "fp8/Target/Hopper/TensorMapABI.h"

#include <cuda.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

std::mutex errorMutex;
std::string lastErrorText;
long errorCount = 0;

/// CUDA's name of `r`: the driver's (cuGetErrorName); where the driver
/// names nothing (NVIDIA's stub libcuda, which answers every call with
/// CUDA_ERROR_STUB_LIBRARY, or a driver torn down at process exit), the
/// enumerator of cuda.h for the results that initialising and loading a
/// module return.
const char *errorName(CUresult r) {
  const char *name = nullptr;
  if (cuGetErrorName(r, &name) == CUDA_SUCCESS && name)
    return name;
  switch (r) {
#define FP8_CU_ERROR_NAME(e)                                                   \
  case e:                                                                      \
    return #e;
    FP8_CU_ERROR_NAME(CUDA_ERROR_NOT_INITIALIZED)
    FP8_CU_ERROR_NAME(CUDA_ERROR_DEINITIALIZED)
    FP8_CU_ERROR_NAME(CUDA_ERROR_STUB_LIBRARY)
    FP8_CU_ERROR_NAME(CUDA_ERROR_NO_DEVICE)
    FP8_CU_ERROR_NAME(CUDA_ERROR_INVALID_DEVICE)
    FP8_CU_ERROR_NAME(CUDA_ERROR_NO_BINARY_FOR_GPU)
    FP8_CU_ERROR_NAME(CUDA_ERROR_INVALID_PTX)
    FP8_CU_ERROR_NAME(CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
    FP8_CU_ERROR_NAME(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH)
#undef FP8_CU_ERROR_NAME
  default:
    return "unnamed error";
  }
}

/// "what: NAME (CUresult N)". The number too: at process exit the driver may
/// be torn down and name nothing (seen once as "unknown error" from a module
/// unload).
std::string describe(CUresult r, const std::string &what) {
  return what + ": " + errorName(r) + " (CUresult " +
         std::to_string(static_cast<int>(r)) + ")";
}

/// Reports a failed driver call `what`; `detail` (the driver's own log, when
/// it wrote one) follows CUDA's error name.
void report(CUresult r, const char *what, const char *detail = "") {
  if (r == CUDA_SUCCESS)
    return;
  std::string text = describe(r, what);
  if (*detail)
    text += std::string(": ") + detail;
  std::lock_guard<std::mutex> lock(errorMutex);
  lastErrorText = std::move(text);
  ++errorCount;
  std::fprintf(stderr, "fp8 mgpu runtime: %s\n", lastErrorText.c_str());
}
void report(CUresult r, const std::string &what) { report(r, what.c_str()); }

#define CU_REPORT(expr) report((expr), #expr)

int defaultDevice = 0;

/// The primary context of the default device, created once, and what
/// creating it found: the failing step with CUDA's error name, or the
/// device's name and compute capability.
struct DeviceContext {
  CUcontext context = nullptr;
  CUresult result = CUDA_SUCCESS;
  std::string step;  // the call that failed
  std::string error; // describe(result, step)
  std::string name;
  int computeCapability = 0; // 10 * major + minor; 0: not known
};

DeviceContext initialise(int ordinal) {
  DeviceContext dc;
  CUdevice device = 0;
  dc.step = "cuInit(0)";
  CUresult r = cuInit(0);
  if (r == CUDA_SUCCESS) {
    dc.step = "cuDeviceGet(device " + std::to_string(ordinal) + ")";
    r = cuDeviceGet(&device, ordinal);
  }
  if (r == CUDA_SUCCESS) {
    dc.step = "cuDevicePrimaryCtxRetain";
    r = cuDevicePrimaryCtxRetain(&dc.context, device);
  }
  if (r != CUDA_SUCCESS) {
    dc.context = nullptr;
    dc.result = r;
    dc.error = describe(r, dc.step);
    return dc;
  }
  dc.step.clear();
  // Descriptive only: a failed query leaves the name empty, the capability 0.
  char name[256] = {};
  if (cuDeviceGetName(name, sizeof(name) - 1, device) == CUDA_SUCCESS)
    dc.name = name;
  int major = 0, minor = 0;
  if (cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                           device) == CUDA_SUCCESS &&
      cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                           device) == CUDA_SUCCESS)
    dc.computeCapability = 10 * major + minor;
  return dc;
}

const DeviceContext &deviceContext() {
  static const DeviceContext dc = initialise(defaultDevice);
  return dc;
}

/// Makes the primary context of the default device current; without one,
/// the reason is reported once (the ABI call that needed it does nothing).
bool makeContextCurrent() {
  const DeviceContext &dc = deviceContext();
  if (!dc.context) {
    static std::once_flag reported;
    std::call_once(reported, [&] {
      report(dc.result, "initialising the CUDA primary context: " + dc.step);
    });
    return false;
  }
  CU_REPORT(cuCtxSetCurrent(dc.context));
  return true;
}

/// Device copies of tensor maps, by content: the ABI has no call that frees
/// one, and host functions encode the same maps on every call (same
/// buffers), so identical maps share one device copy.
///
/// Lifetimes. A map handed out by mgpuTensorMapEncodeTiledMemref is
/// *pending* until the same thread's next mgpuLaunchKernel (the launch the
/// host code is preparing: it encodes the maps, then launches with them)
/// has issued its kernel. That launch uploads a new map with
/// cuMemcpyHtoDAsync on its own stream, from the cache's host copy (the
/// key, alive until eviction), so the copy is ordered before the kernel on
/// that stream; an event recorded after the copy orders later launches on
/// other streams behind it. Bounded: past kLimit entries the context is
/// synchronised (every launch issued so far has finished) and every map
/// that no thread still holds pending is freed; a pending map stays, since
/// the launch that will read it is not issued yet. The upload, the launch
/// and the release happen under the cache's lock, so another thread's
/// eviction comes before the upload or after the kernel is issued, never
/// in between (where it would free the maps the kernel is about to read).
struct TensorMapCache {
  struct Entry {
    CUdeviceptr dev = 0;
    CUevent uploaded = nullptr; // recorded after the upload, once issued
    int pending = 0;            // hand-outs not yet followed by a launch
  };
  using Iterator = std::map<std::string, Entry>::iterator;
  static constexpr size_t kLimit = 4096;

  std::mutex mutex;
  std::map<std::string, Entry> maps; // node-based: iterators stay valid
  std::map<std::thread::id, std::vector<Iterator>> pendingByThread;

  CUdeviceptr get(const CUtensorMap &map) {
    std::string key(reinterpret_cast<const char *>(&map), sizeof(map));
    std::lock_guard<std::mutex> lock(mutex);
    auto it = maps.find(key);
    if (it == maps.end()) {
      if (maps.size() >= kLimit)
        evictUnheld();
      CUdeviceptr dev = 0;
      CU_REPORT(cuMemAlloc(&dev, sizeof(CUtensorMap)));
      if (!dev)
        return 0;
      it = maps.emplace(std::move(key), Entry{dev, nullptr, 0}).first;
    }
    ++it->second.pending;
    pendingByThread[std::this_thread::get_id()].push_back(it);
    return it->second.dev;
  }

  /// Every launch on `stream` goes through here (`issue` empty when nothing
  /// launches): the maps this thread holds pending are uploaded on `stream`
  /// (new ones) or waited for there (uploaded by an earlier launch, maybe
  /// on another stream), `issue` launches the kernel, and the maps are no
  /// longer pending; all under the lock (see above).
  void launchWithMaps(CUstream stream, const std::function<void()> &issue) {
    std::unique_lock<std::mutex> lock(mutex);
    bool launching = static_cast<bool>(issue);
    auto held = pendingByThread.find(std::this_thread::get_id());
    if (held == pendingByThread.end()) {
      if (launching)
        issue();
      return;
    }
    for (Iterator it : held->second) {
      Entry &e = it->second;
      if (launching && !e.uploaded) {
        CU_REPORT(cuMemcpyHtoDAsync(e.dev, it->first.data(),
                                    sizeof(CUtensorMap), stream));
        CU_REPORT(cuEventCreate(&e.uploaded, CU_EVENT_DISABLE_TIMING));
        if (e.uploaded)
          CU_REPORT(cuEventRecord(e.uploaded, stream));
      } else if (launching) {
        CU_REPORT(cuStreamWaitEvent(stream, e.uploaded, 0));
      }
    }
    if (launching)
      issue();
    for (Iterator it : held->second)
      --it->second.pending;
    pendingByThread.erase(held);
  }

private:
  /// Frees every map no thread holds pending, after every launch issued so
  /// far finished (the only ones that may read them).
  void evictUnheld() {
    CU_REPORT(cuCtxSynchronize());
    for (auto it = maps.begin(); it != maps.end();) {
      if (it->second.pending > 0) {
        ++it;
        continue;
      }
      if (it->second.uploaded)
        CU_REPORT(cuEventDestroy(it->second.uploaded));
      CU_REPORT(cuMemFree(it->second.dev));
      it = maps.erase(it);
    }
  }
};

TensorMapCache &tensorMaps() {
  static TensorMapCache cache;
  return cache;
}

/// The GPU time of each kernel (project extension: fp8_mgpu_profile and
/// fp8_mgpu_profile_text). While on, every launch is bracketed by two
/// timing events on its own stream; reading folds the events recorded so
/// far (cuEventSynchronize on each end event, cuEventElapsedTime) into the
/// kernel's launch count and milliseconds. The time of a launch is its
/// stream's time from the kernel's start to its end, queueing behind
/// earlier work on the same stream excluded; kernels on different streams
/// that overlap are each counted in full.
struct KernelProfile {
  struct Launch {
    std::string kernel;
    CUevent start = nullptr, end = nullptr;
  };
  struct Total {
    long launches = 0;
    double ms = 0;
  };
  /// Pending launches folded at this many (bounds the events alive).
  static constexpr size_t kFoldAt = 4096;

  std::mutex mutex;
  bool on = false;
  std::map<CUfunction, std::string> names; // from mgpuModuleGetFunction
  std::vector<Launch> pending;
  std::map<std::string, Total> totals;
  std::string text;

  void setName(CUfunction fn, const char *name) {
    std::lock_guard<std::mutex> lock(mutex);
    names[fn] = name;
  }
  /// Issues `launch` (the driver call) bracketed by events when on.
  void issue(CUfunction fn, CUstream stream,
             const std::function<void()> &launch) {
    std::unique_lock<std::mutex> lock(mutex);
    if (!on) {
      lock.unlock();
      launch();
      return;
    }
    Launch l;
    auto it = names.find(fn);
    l.kernel = it == names.end() ? "(unnamed)" : it->second;
    CU_REPORT(cuEventCreate(&l.start, CU_EVENT_DEFAULT));
    CU_REPORT(cuEventCreate(&l.end, CU_EVENT_DEFAULT));
    CU_REPORT(cuEventRecord(l.start, stream));
    launch();
    CU_REPORT(cuEventRecord(l.end, stream));
    pending.push_back(std::move(l));
    if (pending.size() >= kFoldAt)
      fold();
  }
  /// Waits for the pending launches and adds their times (mutex held).
  void fold() {
    for (Launch &l : pending) {
      float ms = 0;
      CU_REPORT(cuEventSynchronize(l.end));
      CU_REPORT(cuEventElapsedTime(&ms, l.start, l.end));
      Total &t = totals[l.kernel];
      ++t.launches;
      t.ms += ms;
      CU_REPORT(cuEventDestroy(l.start));
      CU_REPORT(cuEventDestroy(l.end));
    }
    pending.clear();
  }
  void start(bool enable) {
    std::lock_guard<std::mutex> lock(mutex);
    fold();
    if (enable)
      totals.clear();
    on = enable;
  }
  /// "kernel<TAB>launches<TAB>milliseconds" per kernel, by name.
  const char *read() {
    std::lock_guard<std::mutex> lock(mutex);
    fold();
    text.clear();
    char line[64];
    for (const auto &[kernel, t] : totals) {
      std::snprintf(line, sizeof(line), "\t%ld\t%.6f\n", t.launches, t.ms);
      text += kernel + line;
    }
    return text.c_str();
  }
};

KernelProfile &kernelProfile() {
  static KernelProfile profile;
  return profile;
}

} // namespace

extern "C" {

// --- Status (project extension, not part of the upstream ABI) -------------
long fp8_mgpu_error_count(void) {
  std::lock_guard<std::mutex> lock(errorMutex);
  return errorCount;
}
const char *fp8_mgpu_last_error(void) {
  std::lock_guard<std::mutex> lock(errorMutex);
  return lastErrorText.c_str();
}

/// Initialises the driver and the default device's primary context, as the
/// first ABI call would, without reporting: CUDA_SUCCESS (0) when there is
/// a context to run on, else the failing call's CUresult, which
/// fp8_mgpu_init_error() names ("cuInit(0): CUDA_ERROR_NO_DEVICE (CUresult
/// 100)"). A caller asks before it runs a host program, whose ABI calls
/// would otherwise each fail on no context.
int32_t fp8_mgpu_init_status(void) {
  return static_cast<int32_t>(deviceContext().result);
}
const char *fp8_mgpu_init_error(void) { return deviceContext().error.c_str(); }
/// The device's compute capability as 10 * major + minor (90: Hopper, what
/// sm_90a kernels need), 0 when unknown; and its name ("" when unknown).
int32_t fp8_mgpu_compute_capability(void) {
  return deviceContext().computeCapability;
}
const char *fp8_mgpu_device_name(void) { return deviceContext().name.c_str(); }

/// The kernel profile: `on` != 0 clears it and times every later launch
/// (two timing events around each on its stream); 0 stops timing. What was
/// timed stays readable until the next start.
void fp8_mgpu_profile(int32_t on) { kernelProfile().start(on != 0); }
/// The profile as text, one line per kernel name (sorted):
/// "NAME\tLAUNCHES\tMILLISECONDS\n"; waits for the launches timed so
/// far. Valid until the next call.
const char *fp8_mgpu_profile_text(void) { return kernelProfile().read(); }

// --- Modules (emitted by the gpu.binary translation, in global ctors) -----
void *mgpuModuleLoad(void *data, size_t /*size*/) {
  if (!makeContextCurrent())
    return nullptr;
  CUmodule module = nullptr;
  CU_REPORT(cuModuleLoadData(&module, data));
  return module;
}

/// PTX text (NUL-terminated), JIT-compiled by the driver at `optLevel`
/// (fp8-gpu-pipeline's default format=isa); the driver's error log is part
/// of the report when the PTX does not load.
void *mgpuModuleLoadJIT(void *data, int optLevel) {
  if (!makeContextCurrent())
    return nullptr;
  CUmodule module = nullptr;
  char log[4096] = {};
  CUjit_option options[] = {CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {reinterpret_cast<void *>(static_cast<intptr_t>(optLevel)),
                    log, reinterpret_cast<void *>(sizeof(log) - 1)};
  CUresult r = cuModuleLoadDataEx(&module, data, 3, options, values);
  report(r, "cuModuleLoadDataEx(PTX)", log);
  return module;
}

void mgpuModuleUnload(void *module) {
  if (!module)
    return;
  CUresult result = cuModuleUnload(static_cast<CUmodule>(module));
  // A host program unloads its module from a global destructor, at process
  // exit, which may run after the driver has shut down; the driver then
  // answers CUDA_ERROR_DEINITIALIZED (the H200 runs of 2026-12-04: after
  // every call) and has released the module itself: not an error.
  if (result != CUDA_ERROR_DEINITIALIZED)
    report(result, "cuModuleUnload(module)");
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  if (!module) {
    report(CUDA_ERROR_INVALID_HANDLE, std::string("mgpuModuleGetFunction(") +
                                          name + "): the module did not load");
    return nullptr;
  }
  CUfunction function = nullptr;
  CU_REPORT(
      cuModuleGetFunction(&function, static_cast<CUmodule>(module), name));
  if (function)
    kernelProfile().setName(function, name);
  return function;
}

/// What every launch does: the tensor maps this thread holds pending
/// uploaded on `stream` (or released, when nothing launches: no function,
/// no context), dynamic shared memory above the default 48 KB opted in
/// (CUDA C++ Programming Guide, "Shared Memory", compute capability 9.0),
/// then `issue` launches `function`, before the maps are released.
static void launchWith(void *function, void *stream, int32_t smem,
                       const std::function<void(CUfunction)> &issue) {
  bool launching = function && makeContextCurrent();
  auto fn = static_cast<CUfunction>(function);
  std::function<void()> launch;
  if (launching)
    launch = [&] {
      if (smem > 48 * 1024)
        CU_REPORT(cuFuncSetAttribute(
            fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem));
      kernelProfile().issue(fn, static_cast<CUstream>(stream),
                            [&] { issue(fn); });
    };
  tensorMaps().launchWithMaps(static_cast<CUstream>(stream), launch);
}

/// `function`, or nullptr (nothing launches: the maps are released) after
/// reporting a grid or block the driver would take truncated to its
/// `unsigned int` (a grid x of 2^32 + 1 as 1 CTA) or refuse.
static void *checkedDims(void *function, const char *entry,
                         const std::array<intptr_t, 3> &grid,
                         const std::array<intptr_t, 3> &block) {
  std::string bad = mlir::fp8::checkLaunchDims(grid, block);
  if (bad.empty())
    return function;
  report(CUDA_ERROR_INVALID_VALUE, entry, bad.c_str());
  return nullptr;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t /*paramsCount*/) {
  function = checkedDims(function, "mgpuLaunchKernel", {gridX, gridY, gridZ},
                         {blockX, blockY, blockZ});
  launchWith(function, stream, smem, [&](CUfunction fn) {
    CU_REPORT(cuLaunchKernel(fn, gridX, gridY, gridZ, blockX, blockY, blockZ,
                             smem, static_cast<CUstream>(stream), params,
                             extra));
  });
}

/// gpu.launch_func with clusters (gpu-to-llvm): the kernel in clusters of
/// clusterX x clusterY x clusterZ CTAs (cuLaunchKernelEx with the cluster
/// dimension attribute; the GEMM kernel's 2-CTA clusters share their B tile
/// by TMA multicast).
void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, void *stream, void **params,
                             void **extra, size_t /*paramsCount*/) {
  function = checkedDims(function, "mgpuLaunchClusterKernel",
                         {gridX, gridY, gridZ}, {blockX, blockY, blockZ});
  launchWith(function, stream, smem, [&](CUfunction fn) {
    CUlaunchAttribute attr;
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = static_cast<unsigned>(clusterX);
    attr.value.clusterDim.y = static_cast<unsigned>(clusterY);
    attr.value.clusterDim.z = static_cast<unsigned>(clusterZ);
    CUlaunchConfig config = {};
    config.gridDimX = static_cast<unsigned>(gridX);
    config.gridDimY = static_cast<unsigned>(gridY);
    config.gridDimZ = static_cast<unsigned>(gridZ);
    config.blockDimX = static_cast<unsigned>(blockX);
    config.blockDimY = static_cast<unsigned>(blockY);
    config.blockDimZ = static_cast<unsigned>(blockZ);
    config.sharedMemBytes = static_cast<unsigned>(smem);
    config.hStream = static_cast<CUstream>(stream);
    config.attrs = &attr;
    config.numAttrs = 1;
    CU_REPORT(cuLaunchKernelEx(&config, fn, params, extra));
  });
}

// --- Streams and events (gpu-to-llvm: gpu.wait, async tokens) -------------
void *mgpuStreamCreate(void) {
  CUstream stream = nullptr;
  if (makeContextCurrent())
    CU_REPORT(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  return stream;
}
void mgpuStreamDestroy(void *stream) {
  CU_REPORT(cuStreamDestroy(static_cast<CUstream>(stream)));
}
void mgpuStreamSynchronize(void *stream) {
  CU_REPORT(cuStreamSynchronize(static_cast<CUstream>(stream)));
}
void mgpuStreamWaitEvent(void *stream, void *event) {
  CU_REPORT(cuStreamWaitEvent(static_cast<CUstream>(stream),
                              static_cast<CUevent>(event), 0));
}
void *mgpuEventCreate(void) {
  CUevent event = nullptr;
  if (makeContextCurrent())
    CU_REPORT(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING));
  return event;
}
void mgpuEventDestroy(void *event) {
  CU_REPORT(cuEventDestroy(static_cast<CUevent>(event)));
}
void mgpuEventSynchronize(void *event) {
  CU_REPORT(cuEventSynchronize(static_cast<CUevent>(event)));
}
void mgpuEventRecord(void *event, void *stream) {
  CU_REPORT(cuEventRecord(static_cast<CUevent>(event),
                          static_cast<CUstream>(stream)));
}

// --- Memory (gpu.alloc / gpu.dealloc / gpu.memcpy / gpu.memset) -----------
void *mgpuMemAlloc(uint64_t sizeBytes, void * /*stream*/, bool isHostShared) {
  if (!makeContextCurrent())
    return nullptr;
  CUdeviceptr ptr = 0;
  if (sizeBytes == 0)
    return nullptr;
  if (isHostShared)
    CU_REPORT(cuMemAllocManaged(&ptr, sizeBytes, CU_MEM_ATTACH_GLOBAL));
  else
    CU_REPORT(cuMemAlloc(&ptr, sizeBytes));
  return reinterpret_cast<void *>(ptr);
}
void mgpuMemFree(void *ptr, void * /*stream*/) {
  if (ptr)
    CU_REPORT(cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)));
}
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  if (sizeBytes)
    CU_REPORT(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                            reinterpret_cast<CUdeviceptr>(src), sizeBytes,
                            static_cast<CUstream>(stream)));
}
void mgpuMemset32(void *dst, unsigned value, size_t count, void *stream) {
  CU_REPORT(cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                             static_cast<CUstream>(stream)));
}
void mgpuMemset16(void *dst, unsigned short value, size_t count, void *stream) {
  CU_REPORT(cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                             static_cast<CUstream>(stream)));
}
void mgpuSetDefaultDevice(int32_t device) { defaultDevice = device; }

// --- Device properties (project extension) --------------------------------
/// The multiprocessor count of the current context's device: the width of
/// the persistent GEMM grid that host code of fp8-launch-kernels{sm-count=0}
/// (the default) computes at run time, min(tiles, this). At least 1 (a
/// failed query is reported; one CTA still covers every tile).
int32_t fp8_mgpu_sm_count(void) {
  int count = 0;
  if (makeContextCurrent()) {
    CUdevice device;
    CUresult r = cuCtxGetDevice(&device);
    if (r == CUDA_SUCCESS)
      r = cuDeviceGetAttribute(&count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                               device);
    report(r, "fp8_mgpu_sm_count: cuDeviceGetAttribute(MULTIPROCESSOR_COUNT)");
  }
  return count > 0 ? count : 1;
}

// --- TMA descriptors (nvgpu.tma.create.descriptor) ------------------------
/// `descriptor`: a ranked memref descriptor {allocated, aligned, offset,
/// sizes[rank], strides[rank]} of a row-major device buffer; `boxDims`: the
/// box in memref order (outermost first). Returns a device pointer to the
/// encoded CUtensorMap (dimensions innermost first, as the driver takes
/// them).
void *mgpuTensorMapEncodeTiledMemref(int64_t rank, void *descriptor,
                                     int64_t dataType, int64_t interleave,
                                     int64_t swizzle, int64_t l2Promotion,
                                     int64_t oobFill, int64_t *boxDims) {
  namespace tma = mlir::fp8::tma;
  if (rank < 1 || rank > tma::kTensorMapMaxRank || dataType < 0 ||
      dataType >= tma::kTensorMapDataTypes || !descriptor || !boxDims) {
    report(CUDA_ERROR_INVALID_VALUE,
           "mgpuTensorMapEncodeTiledMemref: rank, data type or "
           "arguments out of range");
    return nullptr;
  }
  tma::TensorMapGeometry g =
      tma::decodeTiledMemref(rank, descriptor, dataType, boxDims);
  if (g.innermostStride != 1) {
    report(CUDA_ERROR_INVALID_VALUE,
           "mgpuTensorMapEncodeTiledMemref: the innermost dimension must be "
           "contiguous (stride 1)");
    return nullptr;
  }
  cuuint64_t globalDim[tma::kTensorMapMaxRank],
      globalStrides[tma::kTensorMapMaxRank];
  cuuint32_t box[tma::kTensorMapMaxRank],
      elementStrides[tma::kTensorMapMaxRank];
  for (int64_t i = 0; i < tma::kTensorMapMaxRank; ++i) {
    globalDim[i] = g.globalDim[i];
    globalStrides[i] = g.globalStrides[i];
    box[i] = g.box[i];
    elementStrides[i] = g.elementStrides[i];
  }
  if (!makeContextCurrent())
    return nullptr;
  CUtensorMap map;
  std::memset(&map, 0, sizeof(map));
  CUresult r = cuTensorMapEncodeTiled(
      &map, static_cast<CUtensorMapDataType>(dataType),
      static_cast<cuuint32_t>(rank), reinterpret_cast<void *>(g.globalAddress),
      globalDim, globalStrides, box, elementStrides,
      static_cast<CUtensorMapInterleave>(interleave),
      static_cast<CUtensorMapSwizzle>(swizzle),
      static_cast<CUtensorMapL2promotion>(l2Promotion),
      static_cast<CUtensorMapFloatOOBfill>(oobFill));
  report(r, "cuTensorMapEncodeTiled");
  if (r != CUDA_SUCCESS)
    return nullptr;
  return reinterpret_cast<void *>(tensorMaps().get(map));
}

} // extern "C"
