//===- fp8-emu.cpp - run the generated sm_90a kernels on the CPU ----------===//
//
// Reads a module that `fp8-opt --fp8-lower-to-nvvm` printed (the host
// functions with their ops' fp8.kernel_ref and the NVVM-level gpu.module),
// and for each selected GEMM (2-D or grouped: masked with row counts
// including 0 and 1, contiguous with empty, single-row and padded groups)
// or quantize kernel generates seeded random inputs (GEMM operands
// quantized on the host with the project's HostQuantizer) and runs the
// kernel through its production launcher: the op that launches it, cloned
// into a wrapper on plain tensors, lowered by fp8-gpu-pipeline after
// fp8-lower-to-nvvm (fp8-launch-kernels, host=llvm target=emulator; the
// kernels' code as the input gives it), JIT-compiled in this process and
// called against libfp8_emu_mgpu, the mgpu* runtime on the emulated device
// (fp8/Emulator). It compares the output bit for bit with an independent
// host reference of the numerics contract. Exit status 1 with a report on
// a mismatch or a fault the emulator detected (deadlock, transaction
// counts, wgmma ordering, races between TMA and wgmma, out-of-bounds or
// uninitialised accesses).
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/Pipelines/Passes.h"
#include "fp8/Dialect/FP8/Utils/FP8Arith.h"
#include "fp8/Emulator/Emulator.h"
#include "fp8/Emulator/Kernels.h"
#include "fp8/Emulator/MgpuRuntime.h"
#include "fp8/Emulator/MgpuRuntimeControl.h"
#include "fp8/InitAll.h"
#include "fp8/Tools/JitEngine.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <random>

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::emu;
namespace cl = llvm::cl;

/// The tool's own options: --help lists these (and LLVM's generic
/// ones such as --version), not the hundreds every linked library
/// registers.
static cl::OptionCategory toolOptions("fp8-emu options");

static cl::opt<std::string> inputFile(cl::Positional, cl::cat(toolOptions),
                                      cl::desc("<input>"), cl::init("-"));
static cl::list<std::string>
    kernels("kernel", cl::cat(toolOptions),
            cl::desc("Kernel to run (repeatable; default: every "
                     "GEMM and quantize kernel of the module)"));
static cl::opt<int64_t>
    runtimeM("m", cl::cat(toolOptions),
             cl::desc("M (GEMM) or rows (quantize) for kernels compiled for a "
                      "run-time M (m = ? in their #fp8.gemm_kernel)"),
             cl::init(200));
static cl::opt<uint64_t> seed("seed", cl::cat(toolOptions),
                              cl::desc("Seed of the inputs and the scheduler"),
                              cl::init(1));
static cl::opt<int> smCount("sm-count", cl::cat(toolOptions),
                            cl::desc("SMs of the device: the persistent "
                                     "grid is min(tiles, sm-count)"),
                            cl::init(kDefaultSmCount));
static cl::opt<unsigned>
    quantum("max-quantum", cl::cat(toolOptions),
            cl::desc("Most instructions a thread runs before a switch"),
            cl::init(64));
static cl::opt<int64_t>
    blockM("block-m", cl::cat(toolOptions),
           cl::desc("GEMM BLOCK_M the kernel was compiled with (default: "
                    "its #fp8.gemm_kernel's)"),
           cl::init(0));
static cl::opt<int64_t>
    blockN("block-n", cl::cat(toolOptions),
           cl::desc("GEMM BLOCK_N (default: its #fp8.gemm_kernel's)"),
           cl::init(0));
static cl::opt<int64_t>
    stages("stages", cl::cat(toolOptions),
           cl::desc("GEMM stages (default: its #fp8.gemm_kernel's)"),
           cl::init(0));
static cl::opt<bool>
    noUninit("no-uninitialised-check", cl::cat(toolOptions),
             cl::desc("Do not report reads of uninitialised shared memory"),
             cl::init(false));
static cl::opt<bool>
    specials("specials", cl::cat(toolOptions),
             cl::desc("Quantize inputs: replace about 1/32 of the elements by "
                      "specials (+-Inf, NaN, +-1e30, f32 subnormals, -0)"),
             cl::init(false));
static cl::opt<unsigned> schedules(
    "schedules", cl::cat(toolOptions),
    cl::desc("Run each kernel under this many scheduler seeds (seed, "
             "seed + 1, ...; same inputs) and stop at the first fault or "
             "mismatch: a search for ordering bugs"),
    cl::init(1));
static cl::opt<std::string> accumulator(
    "accumulator", cl::cat(toolOptions),
    cl::desc("wgmma accumulation model of the emulator and the reference: "
             "exact (k-order f32 sums, the default), sm90 (Hopper), sm89"),
    cl::init("exact"));
static cl::opt<bool> timing("time", cl::cat(toolOptions),
                            cl::desc("Print the emulation time"),
                            cl::init(false));
static cl::opt<std::string> copies(
    "copies", cl::cat(toolOptions),
    cl::desc("When TMA copies land: seeded (the scheduler seed chooses, per "
             "CTA, every copy late or each by a coin flip; the default), "
             "late (only when no thread can run), prompt (at random "
             "moments)"),
    cl::init("seeded"));

namespace {

/// Largest --m: the emulator generates the operands in host memory and
/// runs one thread at a time, so rows beyond this are out of its reach
/// (and TMA coordinates are signed 32-bit).
constexpr int64_t kMaxRows = int64_t(1) << 20;
/// Largest operand (elements) of one kernel run: 1 GiB of f32 inputs.
constexpr int64_t kMaxOperandElements = int64_t(1) << 28;

uint32_t f32Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

/// Random values with magnitudes spread over ~2^-6..2^6 per row, some
/// exact zeros: exercises scales, FP8 subnormals and cancellation.
std::vector<float> randomMatrix(std::mt19937_64 &rng, int64_t rows,
                                int64_t cols) {
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_int_distribution<int> expo(-6, 6), zero(0, 31);
  std::vector<float> x(size_t(rows) * cols);
  for (int64_t i = 0; i < rows; ++i) {
    float rowScale = std::ldexp(1.0f, expo(rng));
    for (int64_t j = 0; j < cols; ++j)
      x[i * cols + j] = zero(rng) == 0 ? 0.0f : normal(rng) * rowScale;
  }
  return x;
}

/// Quantizes x [rows, cols] in blocks of br x 128 with HostQuantizer.
void quantizeHost(MLIRContext &ctx, Type fp8, const std::vector<float> &x,
                  int64_t rows, int64_t cols, int64_t br,
                  std::vector<uint8_t> &codes, std::vector<float> &scales) {
  HostQuantizer q(fp8, Float32Type::get(&ctx), 1e-4, false, true);
  int64_t rb = (rows + br - 1) / br, cb = (cols + 127) / 128;
  codes.assign(x.size(), 0);
  scales.assign(size_t(rb) * cb, 0);
  for (int64_t bi = 0; bi < rb; ++bi)
    for (int64_t bj = 0; bj < cb; ++bj) {
      float amax = 0;
      int64_t i1 = std::min(rows, (bi + 1) * br),
              j1 = std::min(cols, (bj + 1) * 128);
      for (int64_t i = bi * br; i < i1; ++i)
        for (int64_t j = bj * 128; j < j1; ++j)
          amax = q.updateAmax(amax, x[i * cols + j]);
      uint32_t s = q.getStoredScale(amax);
      float sf;
      std::memcpy(&sf, &s, 4);
      scales[bi * cb + bj] = sf;
      for (int64_t i = bi * br; i < i1; ++i)
        for (int64_t j = bj * 128; j < j1; ++j)
          codes[i * cols + j] = q.quantize(x[i * cols + j], s);
    }
}

Type fp8TypeOf(MLIRContext &ctx, KernelElementType t) {
  return t == KernelElementType::e5m2 ? Type(Float8E5M2Type::get(&ctx))
                                      : Type(Float8E4M3FNType::get(&ctx));
}

std::string hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%x", v);
  return buf;
}

template <typename T>
bool compare(const std::string &name, const char *what,
             const std::vector<T> &got, const std::vector<T> &want,
             int64_t cols) {
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i] && bad++ == 0)
      first = i;
  if (!bad)
    return true;
  llvm::errs() << "fp8-emu: error: kernel '" << name << "': " << bad << " of "
               << got.size() << " " << what
               << " differ from the host reference; first at (" << first / cols
               << ", " << first % cols << "): got " << hex(got[first])
               << ", expected " << hex(want[first]) << "\n";
  return false;
}

/// C [rows, cols] for a GEMM with an accumulator operand: random values of
/// the output's magnitude, as f32 bits or (bf16) rounded to nearest even
/// from them.
std::vector<uint32_t> randomAccumulator(std::mt19937_64 &rng, int64_t rows,
                                        int64_t cols, KernelElementType type) {
  std::vector<float> xc = randomMatrix(rng, rows, cols);
  std::vector<uint32_t> c(xc.size());
  for (size_t i = 0; i < xc.size(); ++i) {
    uint32_t bits = f32Bits(xc[i] * 64.0f);
    c[i] = type == KernelElementType::bf16
               ? (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
               : bits;
  }
  return c;
}

/// Runs `launch` under --schedules scheduler seeds from `opt`'s, comparing
/// each run's outputs `got` ([rows, cols]) with `want`; false after the first
/// failed launch (its report printed with the seed) or difference. `last`:
/// the last launch's result.
bool runSchedules(const std::string &name, const Options &opt,
                  const std::vector<uint32_t> &want, int64_t cols,
                  std::vector<uint32_t> &got, LaunchResult &last,
                  llvm::function_ref<LaunchResult(const Options &)> launch) {
  Options o = opt;
  for (unsigned i = 0; i < schedules; ++i, ++o.seed) {
    last = launch(o);
    if (!last.ok) {
      llvm::errs() << last.report << "  with scheduler seed " << o.seed << "\n";
      return false;
    }
    if (!compare(name, "outputs", got, want, cols))
      return false;
  }
  return true;
}

bool optionError(const std::string &what) {
  llvm::errs() << "fp8-emu: error: " << what << "\n";
  return false;
}

//===----------------------------------------------------------------------===//
// The production launcher: each kernel's host op in a wrapper function,
// lowered by fp8-gpu-pipeline after fp8-lower-to-nvvm, JIT-compiled and
// called against libfp8_emu_mgpu.
//===----------------------------------------------------------------------===//

/// A tensor crossing the wrapper's C interface: row-major bytes of `shape`
/// elements of `elementBytes` each.
struct HostTensor {
  std::vector<int64_t> shape;
  int elementBytes = 4;
  std::vector<uint8_t> bytes;
};

/// The low `bytes` bytes of each element of `v` (bf16 bits in the low half
/// of a uint32_t, FP8 codes, f32 or i32 bits), packed as a tensor of
/// `shape`.
template <typename T>
HostTensor packTensor(std::vector<int64_t> shape, int bytes,
                      const std::vector<T> &v) {
  HostTensor t;
  t.shape = std::move(shape);
  t.elementBytes = bytes;
  t.bytes.resize(v.size() * bytes);
  for (size_t i = 0; i < v.size(); ++i)
    std::memcpy(&t.bytes[i * bytes], &v[i], bytes);
  return t;
}

/// The elements of `t` zero-extended into `T`s.
template <typename T> std::vector<T> unpackTensor(const HostTensor &t) {
  size_t n = t.bytes.size() / t.elementBytes;
  std::vector<T> v(n, 0);
  for (size_t i = 0; i < n; ++i)
    std::memcpy(&v[i], &t.bytes[i * t.elementBytes], t.elementBytes);
  return v;
}

int elementBytesOf(Type t) { return (t.getIntOrFloatBitWidth() + 7) / 8; }

/// The wrapper of kernel `kernel`: what the program calls to launch it.
std::string wrapperName(const std::string &kernel) {
  return "fp8_emu_" + kernel;
}

/// The host op of the input that launches `kernel` (its fp8.kernel_ref
/// names it), null if none does.
Operation *findHostOp(ModuleOp module, const std::string &kernel) {
  Operation *found = nullptr;
  module.walk([&](Operation *op) {
    if (isa<gpu::GPUModuleOp>(op))
      return WalkResult::skip();
    auto ref = op->getAttrOfType<SymbolRefAttr>("fp8.kernel_ref");
    if (ref && ref.getLeafReference() == kernel) {
      found = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// Adds to `program` the function `wrapperName(kernel)` that runs `hostOp`
/// (cloned with its fp8.kernel_ref) on plain tensors: an !fp8.scaled operand
/// is two arguments (codes, scales: fp8.assemble), an !fp8.scaled result two
/// results (fp8.disassemble), other operands and results as they are.
void buildWrapper(ModuleOp program, Operation *hostOp,
                  const std::string &kernel) {
  OpBuilder b = OpBuilder::atBlockEnd(program.getBody());
  Location loc = hostOp->getLoc();
  SmallVector<Type> argTypes, resultTypes;
  for (Value v : hostOp->getOperands()) {
    if (auto st = dyn_cast<ScaledTensorType>(v.getType())) {
      argTypes.push_back(st.getDataTensorType());
      argTypes.push_back(st.getScaleTensorType());
    } else {
      argTypes.push_back(v.getType());
    }
  }
  for (Type t : hostOp->getResultTypes()) {
    if (auto st = dyn_cast<ScaledTensorType>(t)) {
      resultTypes.push_back(st.getDataTensorType());
      resultTypes.push_back(st.getScaleTensorType());
    } else {
      resultTypes.push_back(t);
    }
  }
  auto fn = func::FuncOp::create(b, loc, wrapperName(kernel),
                                 b.getFunctionType(argTypes, resultTypes));
  fn->setAttr("llvm.emit_c_interface", b.getUnitAttr());
  Block *body = fn.addEntryBlock();
  b.setInsertionPointToStart(body);
  IRMapping map;
  unsigned arg = 0;
  for (Value v : hostOp->getOperands()) {
    if (auto st = dyn_cast<ScaledTensorType>(v.getType())) {
      Value data = body->getArgument(arg++);
      Value scales = body->getArgument(arg++);
      auto assembled = AssembleOp::create(b, loc, st, data, scales);
      map.map(v, assembled.getResult());
    } else {
      map.map(v, body->getArgument(arg++));
    }
  }
  Operation *clone = b.clone(*hostOp, map);
  SmallVector<Value> results;
  for (Value r : clone->getResults()) {
    if (isa<ScaledTensorType>(r.getType())) {
      auto parts = DisassembleOp::create(b, loc, r);
      results.push_back(parts.getData());
      results.push_back(parts.getScales());
    } else {
      results.push_back(r);
    }
  }
  func::ReturnOp::create(b, loc, results);
}

/// The JIT-compiled wrappers of the selected kernels.
class LauncherProgram {
public:
  /// Lowers `program` (the wrappers and the input's gpu.modules) with
  /// fp8-gpu-pipeline{host=llvm target=emulator} after fp8-lower-to-nvvm,
  /// the launchers' grid for --sm-count SMs, and compiles it.
  static std::unique_ptr<LauncherProgram> create(ModuleOp program) {
    FP8GPUPipelineOptions opts;
    opts.host = "llvm";
    opts.target = "emulator";
    opts.smCount = smCount;
    PassManager pm(program.getContext());
    buildFP8GPUPipelineAfterLowerToNVVM(pm, opts, /*kernelLocations=*/true);
    if (failed(pm.run(program))) {
      llvm::errs() << "fp8-emu: error: the launchers did not lower "
                      "(fp8-gpu-pipeline host=llvm target=emulator)\n";
      return nullptr;
    }
    JitEngineOptions options;
    options.sharedLibs = getRunnerUtilsLibraryPaths();
    options.irOptLevel = 0;
    auto engine = createJitEngine(program, options);
    if (!engine) {
      llvm::errs() << "fp8-emu: error: the launchers: "
                   << llvm::toString(engine.takeError()) << "\n";
      return nullptr;
    }
    auto p = std::make_unique<LauncherProgram>();
    p->engine = std::move(*engine);
    return p;
  }

  /// Calls the wrapper of `kernel` on `args` under `opt` and returns its
  /// results (each `results[i]` says its rank in its shape's size and its
  /// element bytes on entry) and the launch of `kernel` (its grid in
  /// `ctas`); a fault or a failed call in `r`'s report.
  LaunchResult call(const std::string &kernel, const Options &opt,
                    std::vector<HostTensor> &args,
                    std::vector<HostTensor> &results, uint64_t &ctas) {
    setMgpuLaunchOptions(opt);
    takeMgpuLaunchRecords();
    fp8emuGetLastError();
    // Memref descriptors of the C interface: allocated and aligned
    // pointers, offset, sizes, strides (row-major).
    std::vector<std::vector<int64_t>> descs;
    for (HostTensor &t : args) {
      std::vector<int64_t> d = {reinterpret_cast<int64_t>(t.bytes.data()),
                                reinterpret_cast<int64_t>(t.bytes.data()), 0};
      d.insert(d.end(), t.shape.begin(), t.shape.end());
      std::vector<int64_t> strides(t.shape.size(), 1);
      for (int i = int(t.shape.size()) - 2; i >= 0; --i)
        strides[i] = strides[i + 1] * t.shape[i + 1];
      d.insert(d.end(), strides.begin(), strides.end());
      descs.push_back(std::move(d));
    }
    size_t resultWords = 0;
    for (HostTensor &t : results)
      resultWords += 3 + 2 * t.shape.size();
    std::vector<int64_t> out(resultWords, 0);
    std::vector<void *> pointers;
    void *outPtr = out.data();
    pointers.push_back(&outPtr);
    std::vector<void *> descPtrs;
    for (auto &d : descs)
      descPtrs.push_back(d.data());
    for (void *&p : descPtrs)
      pointers.push_back(&p);
    LaunchResult r;
    if (llvm::Error e = engine->invokePacked(
            "_mlir_ciface_" + wrapperName(kernel), pointers)) {
      r.ok = false;
      r.report = "fp8-emu: error: cannot call the launcher of '" + kernel +
                 "': " + llvm::toString(std::move(e)) + "\n";
      return r;
    }
    size_t w = 0;
    for (HostTensor &t : results) {
      size_t rank = t.shape.size();
      auto *allocated = reinterpret_cast<uint8_t *>(out[w]);
      auto *aligned = reinterpret_cast<uint8_t *>(out[w + 1]);
      int64_t offset = out[w + 2], n = 1;
      for (size_t i = 0; i < rank; ++i)
        n *= t.shape[i] = out[w + 3 + i];
      t.bytes.assign(aligned + offset * t.elementBytes,
                     aligned + (offset + n) * t.elementBytes);
      std::free(allocated);
      w += 3 + 2 * rank;
    }
    // The kernel's launches (the per-tensor quantize has two); the
    // launcher's others (the A-scale transposition) are not counted.
    for (const MgpuLaunchRecord &l : takeMgpuLaunchRecords())
      if (l.kernel == kernel) {
        ctas = l.ctas;
        r.instructions += l.instructions;
      }
    if (const char *err = fp8emuGetLastError()) {
      r.ok = false;
      r.report = err;
    }
    return r;
  }

private:
  std::unique_ptr<fp8::JitEngine> engine;
};

/// Empty result tensors of `kernel`'s wrapper for LauncherProgram::call: the
/// rank and element size of each of its results.
std::vector<HostTensor> wrapperResults(ModuleOp input,
                                       const std::string &kernel) {
  std::vector<HostTensor> results;
  Operation *op = findHostOp(input, kernel);
  auto add = [&](RankedTensorType t) {
    HostTensor h;
    h.shape.assign(t.getRank(), 0);
    h.elementBytes = elementBytesOf(t.getElementType());
    results.push_back(std::move(h));
  };
  for (Type t : op->getResultTypes()) {
    if (auto st = dyn_cast<ScaledTensorType>(t)) {
      add(st.getDataTensorType());
      add(st.getScaleTensorType());
    } else {
      add(cast<RankedTensorType>(t));
    }
  }
  return results;
}

/// What the kernels run through: the input (its host ops say each kernel's
/// operands) and the compiled wrappers.
struct Session {
  ModuleOp input;
  LauncherProgram *program = nullptr;
};

/// Runs kernel `name`'s wrapper on `args` under `o`; its results in
/// `results`, its grid in `ctas`.
LaunchResult launch(Session &session, const std::string &name, const Options &o,
                    std::vector<HostTensor> args,
                    std::vector<HostTensor> &results, uint64_t &ctas) {
  results = wrapperResults(session.input, name);
  return session.program->call(name, o, args, results, ctas);
}

/// The --block-m / --block-n / --stages checks, where given, on the
/// kernel's own configuration (BLOCK_M fixes the consumer warpgroups: one
/// per 64 rows and column split). They must form a valid configuration that
/// the kernel's code agrees with (its block of threads, wgmma N and
/// mbarriers) and that its #fp8.gemm_kernel names, which the launcher
/// launches: tiles other than the kernel's would show up as a fault of it.
bool applyTileOptions(const KernelModule &km, const std::string &name,
                      GemmKernelConfig &cfg, bool grouped) {
  if (!blockM && !blockN && !stages)
    return true;
  const GemmKernelConfig own = cfg;
  std::string given;
  if (blockM) {
    // The kernel's column splits stay (BLOCK_N 256 over two consumers).
    int64_t splits = std::max<int64_t>(1, cfg.colSplits());
    cfg.blockM = blockM;
    cfg.consumers = std::max<int64_t>(1, blockM / 64) * splits;
    cfg.consumerRegs =
        GemmKernelConfig::consumerRegsFor(cfg.consumers, cfg.producerRegs);
    given += " --block-m " + std::to_string(blockM);
  }
  if (blockN) {
    cfg.blockN = blockN;
    given += " --block-n " + std::to_string(blockN);
  }
  if (stages) {
    cfg.stages = stages;
    given += " --stages " + std::to_string(stages);
  }
  given = given.substr(1) + " for kernel '" + name + "': ";
  const char *why =
      grouped ? checkGroupedGemmKernelConfig(cfg) : checkGemmKernelConfig(cfg);
  if (*why)
    return optionError(given + why);
  KernelInfo info = km.getKernelInfo(name);
  auto differs = [&](const std::string &ours, int64_t mine,
                     const std::string &kernels, int64_t its) {
    return optionError(given + ours + " " + std::to_string(mine) +
                       ", the kernel's code " + kernels + " " +
                       std::to_string(its));
  };
  if (info.maxThreads && info.maxThreads != cfg.threads())
    return differs("the tiles take a block of", cfg.threads(),
                   "(nvvm.maxntid) is for", info.maxThreads);
  if (info.wgmmaN && info.wgmmaN != cfg.consumerN())
    return differs("the tiles give each consumer a wgmma N of", cfg.consumerN(),
                   "has wgmma N", info.wgmmaN);
  if (info.mbarrierInits && info.mbarrierInits != 2 * cfg.stages)
    return differs("two mbarriers per stage make", 2 * cfg.stages,
                   "initialises", info.mbarrierInits);
  // The launcher launches the configuration of the kernel's
  // #fp8.gemm_kernel: tiles the code agrees with but the attribute does not
  // name would not be the ones run.
  if (cfg.blockM != own.blockM || cfg.blockN != own.blockN ||
      cfg.stages != own.stages || cfg.consumers != own.consumers)
    return optionError(given +
                       "its #fp8.gemm_kernel, which the launcher "
                       "launches, has BLOCK_M " +
                       std::to_string(own.blockM) + ", BLOCK_N " +
                       std::to_string(own.blockN) + ", " +
                       std::to_string(own.stages) + " stages");
  return true;
}

/// Whether a GEMM run of `m` rows (per slab) is in the emulator's reach;
/// `m` = 0 (a run-time M of no rows) has nothing to run: said, not failed.
bool checkRows(const std::string &name, int64_t m, int64_t slabs, int64_t n,
               int64_t k, bool &nothing) {
  nothing = m == 0;
  if (nothing) {
    llvm::outs() << "fp8-emu: SKIP " << name
                 << ": --m 0 gives no rows, nothing to run\n";
    return true;
  }
  if (slabs * m * std::max(n, k) <= kMaxOperandElements)
    return true;
  return optionError("--m " + std::to_string(m) + " for kernel '" + name +
                     "': an operand of " + std::to_string(slabs * m) + " x " +
                     std::to_string(std::max(n, k)) +
                     " elements exceeds the emulator's 2^28");
}

bool runGemmKernel(MLIRContext &ctx, Session &session, const KernelModule &km,
                   const std::string &name, const GemmKernelDesc &spec,
                   const Options &opt) {
  if (spec.k == GemmKernelConfig::kDynamicK)
    return optionError("kernel '" + name +
                       "' takes K at run time (k = ?): run it through the "
                       "compiled host program (fp8-gpu-pipeline{host=llvm "
                       "target=emulator}), which passes K");
  int64_t M = spec.m == GemmKernelConfig::kDynamicM ? runtimeM : spec.m;
  bool nothing;
  if (!checkRows(name, M, 1, spec.n, spec.k, nothing) || nothing)
    return nothing;
  GemmKernelConfig cfg;
  getGemmKernelConfig(km, name, M, cfg);
  if (!applyTileOptions(km, name, cfg, /*grouped=*/false))
    return false;
  // The host reference takes scales per 128-K block and reads D back.
  if (cfg.hasWholeKScales() || cfg.promotionsPerBlock() > 1)
    return optionError("kernel '" + name +
                       "' has scales along the whole K (scale_k = k) or per "
                       "32 K (mxfp8), which fp8-emu's host reference does "
                       "not take: its host program runs it (fp8-gpu-pipeline "
                       "host=llvm target=emulator)");
  if (cfg.kSplits > 1)
    return optionError("kernel '" + name + "' is split-K (k_splits = " +
                       std::to_string(cfg.kSplits) +
                       "), whose sum fp8-emu's host reference does not "
                       "split: its host program runs it (fp8-gpu-pipeline "
                       "host=llvm target=emulator)");
  if (cfg.quantizeEpilogue)
    return optionError("kernel '" + name +
                       "' has the quantize epilogue (D stored as FP8 codes "
                       "and 1x128 scales), which fp8-emu's host reference "
                       "does not compute: its host program runs it "
                       "(fp8-gpu-pipeline host=llvm target=emulator)");
  std::mt19937_64 rng(seed);
  GemmOperands ops;
  ops.m = M;
  ops.n = spec.n;
  ops.k = spec.k;
  std::vector<float> xa = randomMatrix(rng, M, spec.k),
                     xb = randomMatrix(rng, spec.n, spec.k);
  quantizeHost(ctx, fp8TypeOf(ctx, spec.a), xa, M, spec.k, 1, ops.a, ops.sa);
  // B in [1, 128] blocks for a per-column-scale (Wgrad) kernel.
  ops.bBlockRows = spec.bScalesPerColumn ? 1 : 128;
  quantizeHost(ctx, fp8TypeOf(ctx, spec.b), xb, spec.n, spec.k, ops.bBlockRows,
               ops.b, ops.sb);
  if (spec.hasAcc) {
    ops.cType = spec.acc;
    ops.c = randomAccumulator(rng, M, spec.n, spec.acc);
  }
  std::vector<uint32_t> got;
  auto t0 = std::chrono::steady_clock::now();
  std::vector<uint32_t> want =
      referenceGemm(ops, spec.a, spec.b, spec.out, opt.accumulate.fp8);
  LaunchResult r;
  uint64_t ctas = 0;
  const int64_t KB = (spec.k + 127) / 128;
  std::vector<HostTensor> args = {
      packTensor({M, spec.k}, 1, ops.a), packTensor({M, KB}, 4, ops.sa),
      packTensor({spec.n, spec.k}, 1, ops.b),
      packTensor({int64_t(ops.sb.size()) / KB, KB}, 4, ops.sb)};
  if (spec.hasAcc)
    args.push_back(packTensor(
        {M, spec.n}, spec.acc == KernelElementType::bf16 ? 2 : 4, ops.c));
  if (!runSchedules(name, opt, want, spec.n, got, r, [&](const Options &o) {
        std::vector<HostTensor> results;
        LaunchResult l = launch(session, name, o, args, results, ctas);
        got = unpackTensor<uint32_t>(results[0]);
        return l;
      }))
    return false;
  auto t1 = std::chrono::steady_clock::now();
  llvm::outs() << "fp8-emu: PASS " << name << ": " << M << "x" << spec.n << "x"
               << spec.k << ", " << got.size() << " outputs bit-exact (grid "
               << ctas << ", " << r.instructions << " instructions)";
  if (timing)
    llvm::outs() << " in " << std::chrono::duration<double>(t1 - t0).count()
                 << " s";
  llvm::outs() << "\n";
  return true;
}

/// Row counts of a masked grouped GEMM: every case the kernel distinguishes
/// in turn (all M rows, none, a single row, a random count, and counts the
/// op clamps: negative, past M).
std::vector<int32_t> randomCounts(std::mt19937_64 &rng, int64_t groups,
                                  int64_t m) {
  std::uniform_int_distribution<int64_t> any(0, m);
  std::vector<int32_t> counts(groups);
  for (int64_t g = 0; g < groups; ++g) {
    int64_t cases[] = {m, 0, std::min<int64_t>(1, m), any(rng), -3, m + 7};
    counts[g] = static_cast<int32_t>(cases[g % 6]);
  }
  return counts;
}

/// The group of each of the m rows of a contiguous grouped GEMM: groups in
/// index order, each run starting at a multiple of `align` (the op's
/// m_alignment, which the launcher asserts and the kernel's BLOCK_M
/// divides) and followed by padding rows (-1) up to the next multiple; run
/// lengths cycle through a full tile and more, an empty group, a single row and
/// a random length. Rows past the last group are padding.
std::vector<int32_t> randomGroupIds(std::mt19937_64 &rng, int64_t groups,
                                    int64_t m, int64_t align) {
  std::uniform_int_distribution<int64_t> any(1, 2 * align);
  std::vector<int32_t> ids(m, -1);
  int64_t r = 0;
  for (int64_t g = 0; g < groups && r < m; ++g) {
    int64_t cases[] = {align + 3, 0, 1, any(rng)};
    int64_t len = std::min(cases[g % 4], m - r);
    if (len == 0)
      continue;
    std::fill(ids.begin() + r, ids.begin() + r + len, static_cast<int32_t>(g));
    r = (r + len + align - 1) / align * align;
  }
  return ids;
}

bool runGroupedGemmKernel(MLIRContext &ctx, Session &session,
                          const KernelModule &km, const std::string &name,
                          const GroupedGemmKernelDesc &spec,
                          const Options &opt) {
  if (spec.kGrouped) {
    llvm::errs() << "fp8-emu: error: kernel '" << name
                 << "' is k-grouped (the MoE Wgrad, layout = k_grouped): it "
                    "runs through its compiled host program only "
                    "(fp8-gpu-pipeline target=emulator)\n";
    return false;
  }
  int64_t M = spec.m == GemmKernelConfig::kDynamicM ? runtimeM : spec.m;
  const int64_t G = spec.groups, N = spec.n, K = spec.k;
  const int64_t slabs = spec.masked ? G : 1;
  bool nothing;
  if (!checkRows(name, M, slabs, N, K, nothing) || nothing)
    return nothing;
  GemmKernelConfig cfg;
  getGemmKernelConfig(km, name, M, cfg);
  if (!applyTileOptions(km, name, cfg, /*grouped=*/true))
    return false;
  std::mt19937_64 rng(seed);
  GroupedGemmOperands ops;
  ops.masked = spec.masked;
  ops.groups = G;
  ops.m = M;
  ops.n = N;
  ops.k = K;
  // A: 1x128 tiles never cross a row, so the slabs quantize as one matrix;
  // B: each expert's 128x128 blocks on its own (N need not be a multiple
  // of 128).
  std::vector<float> xa = randomMatrix(rng, slabs * M, K);
  quantizeHost(ctx, fp8TypeOf(ctx, spec.a), xa, slabs * M, K, 1, ops.a, ops.sa);
  for (int64_t g = 0; g < G; ++g) {
    std::vector<float> xb = randomMatrix(rng, N, K);
    std::vector<uint8_t> codes;
    std::vector<float> scales;
    quantizeHost(ctx, fp8TypeOf(ctx, spec.b), xb, N, K, 128, codes, scales);
    ops.b.insert(ops.b.end(), codes.begin(), codes.end());
    ops.sb.insert(ops.sb.end(), scales.begin(), scales.end());
  }
  if (spec.hasAcc) {
    ops.cType = spec.acc;
    ops.c = randomAccumulator(rng, slabs * M, N, spec.acc);
  }
  if (spec.masked && spec.hasCounts)
    ops.rows = randomCounts(rng, G, M);
  else if (!spec.masked)
    ops.rows = randomGroupIds(
        rng, G, M,
        cast<GroupedScaledMatmulOp>(findHostOp(session.input, name))
            .getMAlignment());
  std::vector<uint32_t> got;
  std::vector<uint32_t> want =
      referenceGroupedGemm(ops, spec.a, spec.b, spec.out, opt.accumulate.fp8);
  LaunchResult r;
  uint64_t ctas = 0;
  const int64_t KB = (K + 127) / 128, NB = (N + 127) / 128;
  std::vector<int64_t> rowsShape =
      spec.masked ? std::vector<int64_t>{G, M} : std::vector<int64_t>{M};
  auto rowsBy = [&](int64_t cols) {
    std::vector<int64_t> shape = rowsShape;
    shape.push_back(cols);
    return shape;
  };
  std::vector<HostTensor> args = {
      packTensor(rowsBy(K), 1, ops.a), packTensor(rowsBy(KB), 4, ops.sa),
      packTensor({G, N, K}, 1, ops.b), packTensor({G, NB, KB}, 4, ops.sb)};
  if (!ops.rows.empty())
    args.push_back(packTensor({int64_t(ops.rows.size())}, 4, ops.rows));
  if (spec.hasAcc)
    args.push_back(packTensor(
        rowsBy(N), spec.acc == KernelElementType::bf16 ? 2 : 4, ops.c));
  if (!runSchedules(name, opt, want, N, got, r, [&](const Options &o) {
        std::vector<HostTensor> results;
        LaunchResult l = launch(session, name, o, args, results, ctas);
        got = unpackTensor<uint32_t>(results[0]);
        return l;
      }))
    return false;
  // What the run covered: the rows each group computed.
  std::string rows;
  if (spec.masked && spec.hasCounts) {
    for (int32_t cnt : ops.rows)
      rows += (rows.empty() ? "" : ",") + std::to_string(cnt);
    rows = ", counts [" + rows + "]";
  } else if (!spec.masked) {
    std::vector<int64_t> perGroup(G, 0);
    int64_t padding = 0;
    for (int32_t id : ops.rows)
      id < 0 ? ++padding : ++perGroup[id];
    for (int64_t n : perGroup)
      rows += (rows.empty() ? "" : ",") + std::to_string(n);
    rows = ", rows per group [" + rows + "] + " + std::to_string(padding) +
           " padding";
  }
  size_t nonzero = llvm::count_if(want, [](uint32_t v) { return v != 0; });
  llvm::outs() << "fp8-emu: PASS " << name << ": " << G << " groups, " << M
               << "x" << N << "x" << K << rows << ", " << got.size()
               << " outputs bit-exact, " << nonzero << " non-zero (grid "
               << ctas << ", " << r.instructions << " instructions)\n";
  return true;
}

/// Runs a quantize (or, with `inScales`, requantize) kernel under
/// `schedules` scheduler seeds and compares each run's codes and scales
/// with the reference's; false, reported, on a fault or a mismatch.
bool runAndCompare(Session &session, const std::string &name, int64_t cols,
                   int64_t scaleCols, const std::vector<HostTensor> &args,
                   const std::vector<uint8_t> &wantCodes,
                   const std::vector<uint32_t> &wantScales, const Options &opt,
                   LaunchResult &r) {
  std::vector<uint32_t> w32(wantCodes.begin(), wantCodes.end());
  Options o = opt;
  for (unsigned i = 0; i < schedules; ++i, ++o.seed) {
    std::vector<HostTensor> results;
    uint64_t ctas = 0;
    r = launch(session, name, o, args, results, ctas);
    if (!r.ok) {
      llvm::errs() << r.report << "  with scheduler seed " << o.seed << "\n";
      return false;
    }
    std::vector<uint32_t> c32 = unpackTensor<uint32_t>(results[0]);
    std::vector<uint32_t> scales = unpackTensor<uint32_t>(results[1]);
    if (!compare(name, "scales", scales, wantScales, scaleCols) ||
        !compare(name, "codes", c32, w32, cols))
      return false;
  }
  return true;
}

/// A requantize kernel ([T, F] FP8 codes in 1x128 tiles -> [F, T]): the
/// input quantized on the host from seeded random values, the output
/// against referenceRequantize, under `schedules` seeds.
bool runRequantizeKernel(MLIRContext &ctx, Session &session,
                         const std::string &name,
                         const QuantizeKernelDesc &spec, const Options &opt) {
  const int64_t tokens = spec.cols, features = spec.rows;
  std::mt19937_64 rng(seed);
  std::vector<float> xf = randomMatrix(rng, tokens, features);
  std::vector<uint8_t> inCodes8;
  std::vector<float> inScalesF;
  quantizeHost(ctx, fp8TypeOf(ctx, spec.input), xf, tokens, features, 1,
               inCodes8, inScalesF);
  std::vector<uint32_t> inCodes(inCodes8.begin(), inCodes8.end()),
      inScales(inScalesF.size());
  for (size_t i = 0; i < inScalesF.size(); ++i)
    inScales[i] = f32Bits(inScalesF[i]);
  std::vector<uint8_t> wantCodes;
  std::vector<uint32_t> wantScales;
  referenceRequantize(ctx, spec, inCodes, inScales, wantCodes, wantScales);
  LaunchResult r;
  std::vector<HostTensor> args = {
      packTensor({tokens, features}, 1, inCodes),
      packTensor({tokens, int64_t(inScales.size()) / tokens}, 4, inScales)};
  if (!runAndCompare(session, name, tokens, (tokens + 127) / 128, args,
                     wantCodes, wantScales, opt, r))
    return false;
  llvm::outs() << "fp8-emu: PASS " << name << ": " << tokens << "x" << features
               << " -> " << features << "x" << tokens << ", "
               << wantCodes.size() << " codes and " << wantScales.size()
               << " scales bit-exact (" << r.instructions << " instructions)\n";
  return true;
}

bool runQuantizeKernel(MLIRContext &ctx, Session &session,
                       const std::string &name, const QuantizeKernelDesc &spec,
                       const Options &opt) {
  if (spec.transpose)
    return runRequantizeKernel(ctx, session, name, spec, opt);
  int64_t rows =
      spec.rows == QuantizeKernelConfig::kDynamicRows ? runtimeM : spec.rows;
  bool nothing;
  if (!checkRows(name, rows, 1, spec.cols, spec.cols, nothing) || nothing)
    return nothing;
  std::mt19937_64 rng(seed);
  std::vector<float> xf = randomMatrix(rng, rows, spec.cols);
  if (specials) {
    const float values[] = {INFINITY, -INFINITY, NAN,   1e30f,
                            -1e30f,   1e-40f,    -0.0f, 3e38f};
    std::uniform_int_distribution<int> pick(0, 255);
    for (float &v : xf)
      if (int r = pick(rng); r < 8)
        v = values[r];
  }
  bool bf16 = spec.input == KernelElementType::bf16;
  std::vector<uint32_t> x(xf.size());
  for (size_t i = 0; i < xf.size(); ++i) {
    uint32_t b = f32Bits(xf[i]);
    x[i] = bf16 ? b >> 16 : b; // bf16 inputs: truncated (any bf16 will do)
  }
  std::vector<uint8_t> wantCodes;
  std::vector<uint32_t> wantScales;
  referenceQuantize(ctx, spec, rows, x, wantCodes, wantScales);
  LaunchResult r;
  std::vector<HostTensor> args = {
      packTensor({rows, spec.cols}, bf16 ? 2 : 4, x)};
  // The scales' columns: one block per whole tensor, else ceil(cols /
  // block columns).
  int64_t scaleCols =
      spec.perTensor ? 1 : (spec.cols + spec.blockCols - 1) / spec.blockCols;
  if (!runAndCompare(session, name, spec.cols, scaleCols, args, wantCodes,
                     wantScales, opt, r))
    return false;
  llvm::outs() << "fp8-emu: PASS " << name << ": " << rows << "x" << spec.cols
               << ", " << wantCodes.size() << " codes and " << wantScales.size()
               << " scales bit-exact (" << r.instructions << " instructions)\n";
  return true;
}

/// The options that do not depend on a kernel, each checked against its
/// range with an error naming it (a bad value would otherwise abort,
/// hang or run nothing).
bool validateOptions(Options &opt) {
  auto range = [](const char *name, int64_t v, int64_t lo, int64_t hi,
                  const char *why) {
    if (v >= lo && v <= hi)
      return true;
    return optionError(std::string("--") + name + " must be in " +
                       std::to_string(lo) + ".." + std::to_string(hi) + " (" +
                       why + "), got " + std::to_string(v));
  };
  bool ok = range("m", runtimeM, 0, kMaxRows,
                  "rows of a kernel compiled for a run-time M");
  ok &= range("sm-count", smCount, 1, 1024,
              "SMs of the emulated device: the persistent grid is "
              "min(tiles, sm-count)");
  ok &= range("max-quantum", quantum, 1, 1 << 20,
              "instructions a thread runs before a switch");
  ok &= range("schedules", schedules, 1, 1 << 20,
              "scheduler seeds each kernel runs under");
  ok &= range("block-m", blockM, 0, 256, "0: the kernel's own");
  ok &= range("block-n", blockN, 0, 256, "0: the kernel's own");
  ok &= range("stages", stages, 0, 64, "0: the kernel's own");
  if (copies == "seeded" || copies == "late" || copies == "prompt")
    opt.copies = copies == "late"     ? CopyLanding::Late
                 : copies == "prompt" ? CopyLanding::Prompt
                                      : CopyLanding::Seeded;
  else
    ok = optionError("--copies must be seeded, late or prompt, got '" + copies +
                     "'");
  return ok;
}

/// Whether `name` is a GEMM kernel of the BF16 variant.
bool isBF16GemmKernel(const KernelModule &km, const std::string &name) {
  auto attr = dyn_cast_or_null<GemmKernelAttr>(km.getKernelAttribute(name));
  return attr && attr.getConfig().hasBF16Operands();
}

/// The wrappers of the kernels of `names` that fp8-emu runs (each through
/// the host op of `input` that launches it) with the input's gpu.modules as
/// given; null when none is run.
OwningOpRef<ModuleOp> buildProgram(ModuleOp input, const KernelModule &km,
                                   ArrayRef<std::string> names) {
  OwningOpRef<ModuleOp> program = ModuleOp::create(input.getLoc());
  (*program)->setAttrs(input->getAttrDictionary());
  bool any = false;
  for (const std::string &name : names) {
    GemmKernelDesc g;
    GroupedGemmKernelDesc gg;
    QuantizeKernelDesc q;
    if (!km.hasKernel(name) ||
        !(getGemmKernelDesc(km, name, g) ||
          (getGroupedGemmKernelDesc(km, name, gg) && !gg.kGrouped) ||
          getQuantizeKernelDesc(km, name, q)))
      continue;
    Operation *hostOp = findHostOp(input, name);
    if (!hostOp)
      continue;
    buildWrapper(*program, hostOp, name);
    any = true;
  }
  if (!any)
    return nullptr;
  OpBuilder b = OpBuilder::atBlockEnd(program->getBody());
  for (auto gpuModule : input.getOps<gpu::GPUModuleOp>())
    b.clone(*gpuModule.getOperation());
  return program;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions(toolOptions);
  cl::ParseCommandLineOptions(
      argc, argv,
      "fp8-emu: run the sm_90a kernels of fp8-lower-to-nvvm on a CPU "
      "emulator and compare with a host reference\n");
  Options opt;
  if (!validateOptions(opt))
    return 1;
  DialectRegistry registry;
  fp8::registerFP8RequiredDialects(registry);
  fp8::registerFP8Dialect(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();

  llvm::SourceMgr sm;
  std::string err;
  auto buf = llvm::MemoryBuffer::getFileOrSTDIN(inputFile);
  if (!buf) {
    llvm::errs() << "fp8-emu: error: cannot read '" << inputFile << "'\n";
    return 1;
  }
  sm.AddNewSourceBuffer(std::move(*buf), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sm, &ctx);
  if (!module)
    return 1;
  std::unique_ptr<KernelModule> km = KernelModule::create(*module, err);
  if (!km) {
    llvm::errs() << "fp8-emu: error: " << err << "\n";
    return 1;
  }
  std::vector<std::string> names(kernels.begin(), kernels.end());
  const bool selected = !names.empty();
  if (!selected)
    names = km->getKernelNames();
  // The BF16 GEMM kernels are left to the host programs' tests: fp8-emu's
  // inputs and reference are FP8 (it reported every output of a correct
  // kernel as a mismatch).
  bool ok = true;
  llvm::erase_if(names, [&](const std::string &name) {
    if (!isBF16GemmKernel(*km, name))
      return false;
    llvm::errs() << "fp8-emu: " << (selected ? "error" : "note") << ": kernel '"
                 << name
                 << "' is a BF16 GEMM (a = b = bf16): fp8-emu generates FP8 "
                    "operands and an FP8 reference, so it "
                 << (selected ? "cannot run" : "skips")
                 << " it; run the compiled host program on the emulated "
                    "runtime instead (fp8-emu-run, or "
                    "fp8-gpu-pipeline{host=llvm target=emulator})\n";
    ok &= !selected;
    return true;
  });
  Session session;
  session.input = *module;
  OwningOpRef<ModuleOp> lowered = buildProgram(*module, *km, names);
  std::unique_ptr<LauncherProgram> program;
  if (lowered) {
    program = LauncherProgram::create(*lowered);
    if (!program)
      return 1;
    session.program = program.get();
  }
  opt.seed = seed;
  opt.maxQuantum = quantum;
  opt.checkUninitialisedShared = !noUninit;
  if (!getAccumulator(accumulator, opt.accumulate)) {
    llvm::errs() << "fp8-emu: error: --accumulator must be exact, sm90 or "
                    "sm89, got '"
                 << accumulator << "'\n";
    return 1;
  }
  for (const std::string &name : names) {
    if (!km->hasKernel(name)) {
      llvm::errs() << "fp8-emu: error: no kernel '" << name
                   << "' in the module\n";
      ok = false;
      continue;
    }
    if (km->getKernelAttribute(name) && !findHostOp(*module, name)) {
      llvm::errs() << "fp8-emu: error: kernel '" << name
                   << "': no op of the module launches it (fp8.kernel_ref = "
                      "@fp8_kernels::@"
                   << name
                   << ", which fp8-lower-to-nvvm sets): fp8-emu runs a "
                      "kernel through the launcher of its op\n";
      ok = false;
      continue;
    }
    GemmKernelDesc g;
    GroupedGemmKernelDesc gg;
    QuantizeKernelDesc q;
    if (getGemmKernelDesc(*km, name, g))
      ok &= runGemmKernel(ctx, session, *km, name, g, opt);
    else if (getGroupedGemmKernelDesc(*km, name, gg))
      ok &= runGroupedGemmKernel(ctx, session, *km, name, gg, opt);
    else if (getQuantizeKernelDesc(*km, name, q))
      ok &= runQuantizeKernel(ctx, session, name, q, opt);
    else {
      llvm::errs() << "fp8-emu: error: kernel '" << name
                   << "' has no fp8.kernel attribute (#fp8.gemm_kernel or "
                      "#fp8.quantize_kernel, which fp8-lower-to-nvvm "
                      "records): nothing says what it computes\n";
      ok = false;
    }
  }
  return ok ? 0 : 1;
}
