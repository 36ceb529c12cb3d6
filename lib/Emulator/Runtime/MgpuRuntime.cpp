//===- MgpuRuntime.cpp - upstream mgpu* runtime ABI on the emulator -------===//
//
// libfp8_emu_mgpu: what fp8/Emulator/MgpuRuntime.h describes. One emulated
// device per process; every entry point takes one lock.
//
//===----------------------------------------------------------------------===//
#include "fp8/Emulator/MgpuRuntime.h"
#include "fp8/Emulator/Emulator.h"
#include "fp8/Emulator/MgpuRuntimeControl.h"
#include "fp8/Target/Hopper/LaunchLimits.h"
#include "fp8/Target/Hopper/TensorMapABI.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>

using namespace mlir;
using namespace mlir::fp8;

namespace {

struct EmuModule {
  std::unique_ptr<MLIRContext> ctx;
  std::unique_ptr<emu::KernelModule> kernels;
};
struct EmuFunction {
  EmuModule *module;
  std::string name;
};

/// The FP8_EMU_* settings that fp8_mgpu_set_option gave, in place of the
/// environment's; their own lock, since error() reads one with the
/// runtime's lock held.
struct OptionOverrides {
  std::mutex mu;
  std::map<std::string, std::string> values;
};
OptionOverrides &optionOverrides() {
  static OptionOverrides *o = new OptionOverrides();
  return *o;
}

/// The names fp8_mgpu_set_option takes: every variable the runtime reads.
constexpr const char *kOptionNames[] = {
    "FP8_EMU_ACCUMULATOR", "FP8_EMU_CONTINUE_ON_FAULT", "FP8_EMU_SCHEDULE",
    "FP8_EMU_SEED",        "FP8_EMU_SM_COUNT",          "FP8_EMU_TRACE"};

/// Setting `name`: fp8_mgpu_set_option's value, else the environment's;
/// nullopt when neither has one.
std::optional<std::string> option(const char *name) {
  OptionOverrides &o = optionOverrides();
  {
    std::lock_guard<std::mutex> lock(o.mu);
    auto it = o.values.find(name);
    if (it != o.values.end())
      return it->second;
  }
  if (const char *text = std::getenv(name))
    return std::string(text);
  return std::nullopt;
}

/// Set by fp8_mgpu_request_stop: every launch polls it (emu::Options::stop).
std::atomic<bool> stopRequested{false};

struct Runtime {
  std::mutex mu;
  emu::Device device;
  std::string lastError;
  std::vector<std::unique_ptr<EmuFunction>> functions;
  // Device copies of the tensor maps mgpuTensorMapEncodeTiledMemref
  // returned, by content: the ABI never frees one, and a host function
  // encodes the same maps on every call over the same buffers.
  std::map<std::string, uint64_t> tensorMaps;
  // Bytes mgpuMemcpy moved between host and device memory
  // (fp8_mgpu_transfer_bytes).
  uint64_t toDevice = 0, toHost = 0;
  // fp8_mgpu_profile: launches by kernel name while on (no device time:
  // the emulator has none), and the text last read.
  bool profiling = false;
  std::map<std::string, long> profile;
  std::string profileText;
  // setMgpuLaunchOptions: the options of every launch, faults kept (not
  // printed, not fatal), launches recorded.
  std::optional<emu::Options> hostOptions;
  std::vector<emu::MgpuLaunchRecord> records;

  void error(const std::string &what) {
    if (hostOptions) {
      if (lastError.empty())
        lastError = what;
      return;
    }
    std::fprintf(stderr, "%s%s", what.c_str(),
                 what.empty() || what.back() != '\n' ? "\n" : "");
    if (!continueOnFault())
      std::exit(1);
    if (lastError.empty())
      lastError = what;
  }

  /// FP8_EMU_CONTINUE_ON_FAULT: 1 goes on past a fault, 0 (or unset) stops
  /// at the first. Any other value ends the process: whether to go on is
  /// the very thing it leaves open.
  static bool continueOnFault() {
    const char *name = "FP8_EMU_CONTINUE_ON_FAULT";
    std::optional<bool> on = readFlag(name);
    if (!on) {
      std::fprintf(stderr, "%s\n", invalidFlag(name).c_str());
      std::exit(1);
    }
    return *on;
  }
  /// A switch FP8_EMU_*: unset, empty or 0 is off, 1 is on, anything else
  /// (none: a variable's presence alone does not turn it on, so that `=0`
  /// means off).
  static std::optional<bool> readFlag(const char *name) {
    std::optional<std::string> text = option(name);
    if (!text || text->empty() || *text == "0")
      return false;
    if (*text == "1")
      return true;
    return std::nullopt;
  }
  static std::string invalidFlag(const char *name) {
    return std::string("fp8 emulator: ") + name + "='" +
           option(name).value_or("") +
           "' is invalid: expected 1 (on) or 0 (off, as when unset)";
  }
};

Runtime &runtime() {
  static Runtime *rt = new Runtime();
  return *rt;
}

uint64_t addr(const void *p) { return reinterpret_cast<uint64_t>(p); }

/// The emulated device's SMs (fp8_mgpu_sm_count): an H100 SXM / H200, as
/// fp8-emu's --sm-count default; FP8_EMU_SM_COUNT emulates another device.
constexpr int32_t kDefaultSmCount = 132;
constexpr long kMaxSmCount = 1024;

} // namespace

extern "C" {

void *mgpuModuleLoad(void *data, size_t size) {
  Runtime &rt = runtime();
  std::lock_guard<std::mutex> lock(rt.mu);
  // The blob is the NVVM-level gpu.module: its dialects only, so the
  // runtime links the emulator and not the compiler.
  DialectRegistry registry;
  emu::registerKernelDialects(registry);
  auto m = std::make_unique<EmuModule>();
  // No worker threads: host code calls mgpuModuleLoad from a global
  // constructor, i.e. inside dlopen with the loader lock held, and MLIR's
  // threaded verifier deadlocks there (a new thread's first thread_local
  // registration waits for that lock).
  m->ctx =
      std::make_unique<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
  const char *text = static_cast<const char *>(data);
  std::string source = size ? std::string(text, size) : std::string(text);
  // The blob may carry a trailing NUL (an embedded string constant).
  while (!source.empty() && source.back() == '\0')
    source.pop_back();
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(source, m->ctx.get(), "fp8-emu-module");
  if (!module) {
    rt.error("mgpuModuleLoad (fp8 emulator): the blob is not an MLIR module "
             "holding the NVVM-level gpu.module");
    return nullptr;
  }
  std::string err;
  m->kernels = emu::KernelModule::create(*module, err);
  if (!m->kernels) {
    rt.error("mgpuModuleLoad (fp8 emulator): " + err);
    return nullptr;
  }
  return m.release();
}

void mgpuModuleUnload(void *module) { delete static_cast<EmuModule *>(module); }

void *mgpuModuleGetFunction(void *module, const char *name) {
  Runtime &rt = runtime();
  std::lock_guard<std::mutex> lock(rt.mu);
  auto *m = static_cast<EmuModule *>(module);
  if (!m || !name || !m->kernels->hasKernel(name)) {
    rt.error(std::string("mgpuModuleGetFunction (fp8 emulator): no kernel '") +
             (name ? name : "(null)") + "'");
    return nullptr;
  }
  rt.functions.push_back(std::make_unique<EmuFunction>(EmuFunction{m, name}));
  return rt.functions.back().get();
}

} // extern "C"

namespace {
/// The FP8_EMU_* variables of a launch into `opt` (and `trace`); false
/// after reporting one that holds no accepted value.
bool readLaunchOptions(Runtime &rt, emu::Options &opt, bool &trace) {
  std::optional<std::string> seedText = option("FP8_EMU_SEED");
  const char *seed = seedText ? seedText->c_str() : nullptr;
  if (seed && *seed) {
    // Decimal digits only: strtoull alone takes "-1" (as 2^64 - 1) and
    // reads "abc" as 0.
    char *end = nullptr;
    errno = 0;
    opt.seed = std::strtoull(seed, &end, 10);
    if (*end || errno == ERANGE || *seed < '0' || *seed > '9') {
      rt.error(
          std::string("mgpuLaunchKernel (fp8 emulator): FP8_EMU_SEED='") +
          seed +
          "' is invalid: expected a decimal seed, 0..18446744073709551615");
      return false;
    }
  }
  opt.continueOnFault = Runtime::continueOnFault();
  std::optional<bool> traceFlag = Runtime::readFlag("FP8_EMU_TRACE");
  if (!traceFlag) {
    rt.error(Runtime::invalidFlag("FP8_EMU_TRACE"));
    return false;
  }
  trace = *traceFlag;
  if (std::optional<std::string> schedule = option("FP8_EMU_SCHEDULE")) {
    opt.lockstep = *schedule == "lockstep";
    if (!opt.lockstep && *schedule != "random") {
      rt.error(std::string("mgpuLaunchKernel (fp8 emulator): "
                           "FP8_EMU_SCHEDULE='") +
               *schedule +
               "' is invalid: expected random (the default) or "
               "lockstep");
      return false;
    }
  }
  // FP8_EMU_ACCUMULATOR: the wgmma accumulation model (emu::getAccumulator:
  // exact, the default; sm90, Hopper's, so that results compare with
  // fp8-cpu-pipeline{accumulator=sm90}, the oracle of a run on silicon).
  if (std::optional<std::string> model = option("FP8_EMU_ACCUMULATOR")) {
    if (!emu::getAccumulator(*model, opt.accumulate)) {
      rt.error(std::string("mgpuLaunchKernel (fp8 emulator): "
                           "FP8_EMU_ACCUMULATOR='") +
               *model + "' is invalid: expected exact, sm90 or sm89");
      return false;
    }
  }
  opt.stop = &stopRequested;
  return true;
}

/// mgpuLaunchKernel and mgpuLaunchClusterKernel (clusters of 1 CTA for the
/// former).
void launch(void *function, intptr_t clusterX, intptr_t clusterY,
            intptr_t clusterZ, intptr_t gridX, intptr_t gridY, intptr_t gridZ,
            intptr_t blockX, intptr_t blockY, intptr_t blockZ, int32_t smem,
            void **params, void **extra, size_t paramsCount) {
  Runtime &rt = runtime();
  std::lock_guard<std::mutex> lock(rt.mu);
  auto *f = static_cast<EmuFunction *>(function);
  if (!f) {
    rt.error("mgpuLaunchKernel (fp8 emulator): null function");
    return;
  }
  std::string dimsError = mlir::fp8::checkLaunchDims({gridX, gridY, gridZ},
                                                     {blockX, blockY, blockZ});
  if (dimsError.empty() && smem < 0)
    dimsError = "dynamic shared memory of " + std::to_string(smem) + " bytes";
  if (!dimsError.empty()) {
    rt.error("mgpuLaunchKernel (fp8 emulator): " + dimsError);
    return;
  }
  if (extra) {
    rt.error("mgpuLaunchKernel (fp8 emulator): `extra` launch parameters "
             "are not supported");
    return;
  }
  if (rt.profiling)
    ++rt.profile[f->name];
  std::vector<int> bytes = f->module->kernels->getParamBytes(f->name);
  if (paramsCount && paramsCount != bytes.size()) {
    rt.error("mgpuLaunchKernel (fp8 emulator): kernel '" + f->name +
             "' takes " + std::to_string(bytes.size()) + " parameters, got " +
             std::to_string(paramsCount));
    return;
  }
  std::vector<emu::KernelArg> args;
  for (size_t i = 0; i < bytes.size(); ++i) {
    uint64_t v = 0;
    std::memcpy(&v, params[i], bytes[i]);
    args.push_back(v);
  }
  emu::LaunchDims dims;
  dims.grid = static_cast<uint32_t>(gridX);
  dims.block = static_cast<uint32_t>(blockX);
  dims.gridY = static_cast<uint32_t>(gridY);
  dims.gridZ = static_cast<uint32_t>(gridZ);
  dims.blockY = static_cast<uint32_t>(blockY);
  dims.blockZ = static_cast<uint32_t>(blockZ);
  dims.dynamicSharedBytes = static_cast<uint32_t>(smem);
  if (clusterX < 1 || clusterY < 1 || clusterZ < 1 || clusterX > 16 ||
      clusterY > 16 || clusterZ > 16) {
    rt.error("mgpuLaunchClusterKernel (fp8 emulator): cluster dimensions out "
             "of range");
    return;
  }
  dims.clusterX = static_cast<uint32_t>(clusterX);
  dims.clusterY = static_cast<uint32_t>(clusterY);
  dims.clusterZ = static_cast<uint32_t>(clusterZ);
  emu::Options opt;
  bool trace = false;
  if (rt.hostOptions)
    opt = *rt.hostOptions;
  else if (!readLaunchOptions(rt, opt, trace))
    return;
  // FP8_EMU_TRACE: one line per launch, so tests can check the grid, block
  // and shared memory that the host code computed (and the CTAs per
  // cluster, when more than one).
  if (trace) {
    std::fprintf(stderr,
                 "fp8-emu-mgpu: launch %s grid %lld block %lld smem %d "
                 "params %zu",
                 f->name.c_str(), static_cast<long long>(gridX * gridY * gridZ),
                 static_cast<long long>(blockX * blockY * blockZ), smem,
                 bytes.size());
    const long long clusterCtas = clusterX * clusterY * clusterZ;
    if (clusterCtas > 1)
      std::fprintf(stderr, " cluster %lld", clusterCtas);
    std::fprintf(stderr, "\n");
  }
  emu::LaunchResult r =
      f->module->kernels->launch(f->name, rt.device, dims, args, opt);
  // Device printf goes to stdout when the launch ends (CUDA flushes its
  // printf buffer at synchronisation points; launches here are
  // synchronous), before a fault's report.
  if (!r.output.empty()) {
    std::fwrite(r.output.data(), 1, r.output.size(), stdout);
    std::fflush(stdout);
  }
  if (rt.hostOptions)
    rt.records.push_back({f->name, dims.ctas(), r.instructions, /*ok=*/r.ok});
  if (!r.ok)
    rt.error(r.report);
}

} // namespace

extern "C" {

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount) {
  (void)stream;
  launch(function, 1, 1, 1, gridX, gridY, gridZ, blockX, blockY, blockZ, smem,
         params, extra, paramsCount);
}

void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, void *stream, void **params,
                             void **extra, size_t paramsCount) {
  // gpu-to-llvm's call passes no parameter count (upstream's wrapper
  // ignores it): the register holds garbage, so it is not checked.
  (void)stream;
  (void)paramsCount;
  launch(function, clusterX, clusterY, clusterZ, gridX, gridY, gridZ, blockX,
         blockY, blockZ, smem, params, extra, /*paramsCount=*/0);
}

void *mgpuStreamCreate(void) {
  static int token;
  return &token;
}
void mgpuStreamDestroy(void *) {}
void mgpuStreamSynchronize(void *) {}
void mgpuStreamWaitEvent(void *, void *) {}
void *mgpuEventCreate(void) {
  static int token;
  return &token;
}
void mgpuEventDestroy(void *) {}
void mgpuEventSynchronize(void *) {}
void mgpuEventRecord(void *, void *) {}

void *mgpuMemAlloc(uint64_t sizeBytes, void *, bool isHostShared) {
  Runtime &rt = runtime();
  std::lock_guard<std::mutex> lock(rt.mu);
  if (isHostShared) {
    rt.error("mgpuMemAlloc (fp8 emulator): host-shared memory is not "
             "modelled");
    return nullptr;
  }
  // cuMemAlloc does not clear memory: fill with 0xFF bytes (NaN as f32 or
  // bf16), so an output element a kernel never stores differs from any
  // value the oracle computes (+0.0 included) instead of reading as zero.
  uint64_t dev = rt.device.alloc(sizeBytes);
  if (sizeBytes)
    std::memset(rt.device.resolve(dev, sizeBytes), 0xFF, sizeBytes);
  return reinterpret_cast<void *>(dev);
}

void mgpuMemFree(void *ptr, void *) {
  Runtime &rt = runtime();
  std::lock_guard<std::mutex> lock(rt.mu);
  if (ptr && !rt.device.free(addr(ptr)))
    rt.error("mgpuMemFree (fp8 emulator): " + rt.device.describe(addr(ptr)) +
             " is not a device allocation");
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *) {
  Runtime &rt = runtime();
  std::lock_guard<std::mutex> lock(rt.mu);
  uint8_t *d = rt.device.resolve(addr(dst), sizeBytes);
  uint8_t *s = rt.device.resolve(addr(src), sizeBytes);
  // A pointer outside every allocation is host memory (device addresses
  // are outside the host's address space); a device pointer whose range
  // runs past its allocation is an error.
  auto isDevice = [&](void *p) { return (addr(p) >> 56) != 0; };
  if ((isDevice(dst) && !d) || (isDevice(src) && !s)) {
    rt.error("mgpuMemcpy (fp8 emulator): " +
             rt.device.describe(addr(isDevice(dst) && !d ? dst : src)) + " + " +
             std::to_string(sizeBytes) + " bytes is outside its allocation");
    return;
  }
  std::memmove(d ? d : static_cast<uint8_t *>(dst),
               s ? s : static_cast<uint8_t *>(src), sizeBytes);
  if (d && !s)
    rt.toDevice += sizeBytes;
  else if (s && !d)
    rt.toHost += sizeBytes;
}

void fp8_mgpu_profile(int32_t on) {
  Runtime &rt = runtime();
  std::lock_guard<std::mutex> lock(rt.mu);
  if (on)
    rt.profile.clear();
  rt.profiling = on != 0;
}

const char *fp8_mgpu_profile_text(void) {
  Runtime &rt = runtime();
  std::lock_guard<std::mutex> lock(rt.mu);
  rt.profileText.clear();
  for (const auto &[name, launches] : rt.profile)
    rt.profileText += name + "\t" + std::to_string(launches) + "\t0.000000\n";
  return rt.profileText.c_str();
}

uint64_t fp8_mgpu_transfer_bytes(int32_t direction) {
  Runtime &rt = runtime();
  std::lock_guard<std::mutex> lock(rt.mu);
  uint64_t bytes = direction == 0 ? rt.toDevice : rt.toHost;
  if (direction == 0)
    rt.toDevice = 0;
  else
    rt.toHost = 0;
  return bytes;
}

void mgpuMemset32(void *dst, unsigned int value, size_t count, void *) {
  Runtime &rt = runtime();
  std::lock_guard<std::mutex> lock(rt.mu);
  uint8_t *d = rt.device.resolve(addr(dst), count * 4);
  if (!d) {
    rt.error("mgpuMemset32 (fp8 emulator): not a device range");
    return;
  }
  for (size_t i = 0; i < count; ++i)
    std::memcpy(d + 4 * i, &value, 4);
}

void mgpuMemset16(void *dst, unsigned short value, size_t count, void *) {
  Runtime &rt = runtime();
  std::lock_guard<std::mutex> lock(rt.mu);
  uint8_t *d = rt.device.resolve(addr(dst), count * 2);
  if (!d) {
    rt.error("mgpuMemset16 (fp8 emulator): not a device range");
    return;
  }
  for (size_t i = 0; i < count; ++i)
    std::memcpy(d + 2 * i, &value, 2);
}

void mgpuSetDefaultDevice(int32_t) {}

int32_t fp8_mgpu_sm_count(void) {
  Runtime &rt = runtime();
  std::lock_guard<std::mutex> lock(rt.mu);
  std::optional<std::string> setting = option("FP8_EMU_SM_COUNT");
  const char *text = setting ? setting->c_str() : nullptr;
  if (!text || !*text)
    return kDefaultSmCount;
  char *end = nullptr;
  long n = std::strtol(text, &end, 10);
  if (*end || n < 1 || n > kMaxSmCount) {
    rt.error(
        std::string("fp8_mgpu_sm_count (fp8 emulator): FP8_EMU_SM_COUNT='") +
        text + "' is not a count of SMs (1.." + std::to_string(kMaxSmCount) +
        ")");
    return kDefaultSmCount;
  }
  return static_cast<int32_t>(n);
}

namespace {
/// Encodes a map into `out` (128 bytes); the error text, empty on success.
std::string encodeMap(void *out, int64_t dataType, uint32_t rank,
                      void *globalAddress, const uint64_t *globalDim,
                      const uint64_t *globalStrides, const uint32_t *boxDim,
                      const uint32_t *elementStrides, int64_t interleave,
                      int64_t swizzle, int64_t oobFill) {
  if (dataType < 0 || dataType >= tma::kTensorMapDataTypes || interleave != 0 ||
      oobFill != 0 || swizzle < 0 || swizzle > 3)
    return "data type, interleave (NONE only), swizzle or OOB fill (NONE "
           "only) not modelled";
  emu::TensorMap map;
  std::string err = emu::encodeTensorMapTiled(
      map, tma::kTensorMapElementBytes[dataType], rank, addr(globalAddress),
      globalDim, globalStrides, boxDim, elementStrides,
      static_cast<emu::TensorMapSwizzle>(swizzle));
  if (!err.empty())
    return err;
  std::memset(out, 0, 128);
  std::memcpy(out, &map, sizeof(map));
  return "";
}
} // namespace

void mgpuTensorMapEncodeTiled(void *tensorMap, int dataType, uint32_t rank,
                              void *globalAddress, const uint64_t *globalDim,
                              const uint64_t *globalStrides,
                              const uint32_t *boxDim,
                              const uint32_t *elementStrides, int interleave,
                              int swizzle, int l2Promotion, int oobFill) {
  Runtime &rt = runtime();
  std::lock_guard<std::mutex> lock(rt.mu);
  (void)l2Promotion;
  std::string err = encodeMap(tensorMap, dataType, rank, globalAddress,
                              globalDim, globalStrides, boxDim, elementStrides,
                              interleave, swizzle, oobFill);
  if (!err.empty())
    rt.error("mgpuTensorMapEncodeTiled (fp8 emulator): " + err);
}

void *mgpuTensorMapEncodeTiledMemref(int64_t rank, void *memrefDescriptor,
                                     int64_t dataType, int64_t interleave,
                                     int64_t swizzle, int64_t l2Promotion,
                                     int64_t oobFill, int64_t *boxDims) {
  Runtime &rt = runtime();
  std::lock_guard<std::mutex> lock(rt.mu);
  (void)l2Promotion;
  if (rank < 1 || rank > emu::TensorMap::kMaxRank || dataType < 0 ||
      dataType >= tma::kTensorMapDataTypes || !boxDims || !memrefDescriptor) {
    rt.error("mgpuTensorMapEncodeTiledMemref (fp8 emulator): rank (1..5), "
             "data type or arguments out of range");
    return nullptr;
  }
  tma::TensorMapGeometry g =
      tma::decodeTiledMemref(rank, memrefDescriptor, dataType, boxDims);
  if (g.innermostStride != 1) {
    rt.error("mgpuTensorMapEncodeTiledMemref (fp8 emulator): the innermost "
             "dimension must be contiguous (stride 1)");
    return nullptr;
  }
  char bytes[128];
  std::string err = encodeMap(bytes, dataType, static_cast<uint32_t>(rank),
                              reinterpret_cast<void *>(g.globalAddress),
                              g.globalDim, g.globalStrides, g.box,
                              g.elementStrides, interleave, swizzle, oobFill);
  if (!err.empty()) {
    rt.error("mgpuTensorMapEncodeTiledMemref (fp8 emulator): " + err);
    return nullptr;
  }
  std::string key(bytes, sizeof(bytes));
  auto it = rt.tensorMaps.find(key);
  if (it != rt.tensorMaps.end())
    return reinterpret_cast<void *>(it->second);
  uint64_t dev = rt.device.alloc(sizeof(bytes));
  rt.device.write(dev, bytes, sizeof(bytes));
  rt.tensorMaps.emplace(key, dev);
  return reinterpret_cast<void *>(dev);
}

const char *fp8emuGetLastError(void) {
  Runtime &rt = runtime();
  std::lock_guard<std::mutex> lock(rt.mu);
  static std::string returned;
  returned.swap(rt.lastError);
  rt.lastError.clear();
  return returned.empty() ? nullptr : returned.c_str();
}

int32_t fp8_mgpu_set_option(const char *name, const char *value) {
  if (!name || llvm::none_of(kOptionNames, [&](const char *known) {
        return std::strcmp(name, known) == 0;
      }))
    return -1;
  OptionOverrides &o = optionOverrides();
  std::lock_guard<std::mutex> lock(o.mu);
  if (value)
    o.values[name] = value;
  else
    o.values.erase(name);
  return 0;
}

void fp8_mgpu_request_stop(int32_t stop) { stopRequested = stop != 0; }

} // extern "C"

void mlir::fp8::emu::setMgpuLaunchOptions(const Options &options) {
  Runtime &rt = runtime();
  std::lock_guard<std::mutex> lock(rt.mu);
  rt.hostOptions = options;
}

std::vector<emu::MgpuLaunchRecord> mlir::fp8::emu::takeMgpuLaunchRecords() {
  Runtime &rt = runtime();
  std::lock_guard<std::mutex> lock(rt.mu);
  std::vector<MgpuLaunchRecord> records;
  records.swap(rt.records);
  return records;
}
