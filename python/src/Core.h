//===- Core.h - compiler entry points of the Python module ------*- C++ -*-===//
//
// Plain C++ (std types and the compiler's plain data: the report of
// fp8/Dialect/FP8/Transforms/ReportData.h, the kernel configurations) between
// MLIR and pybind11: the binding file never touches an MLIR type, and nothing
// here throws. Every failure comes back as `ok = false` with the MLIR
// diagnostics that explain it, so a bad input or a failing pass raises a Python
// exception instead of aborting the interpreter.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_PYTHON_CORE_H
#define FP8_PYTHON_CORE_H

#include "fp8/Dialect/FP8/Transforms/ReportData.h"
#include "fp8/Target/Hopper/GemmKernelConfig.h"
#include "fp8/Target/Hopper/QuantizeKernelConfig.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace fp8py {

/// One MLIR diagnostic: severity ("error", "warning", "remark", "note"), its
/// location as text (`file:line:col`, or a `loc("name")` string), the message,
/// and the attached notes as "location: message".
struct DiagnosticInfo {
  std::string severity;
  std::string location;
  std::string message;
  std::vector<std::string> notes;
};

/// A serialized object of a `gpu.binary` op (e.g. PTX for `format = isa`).
struct GpuObject {
  std::string binary; // symbol name of the gpu.binary op
  std::string target; // printed target attribute, e.g. #nvvm.target<...>
  std::string format; // "isa" (assembly text), "bin", "fatbin", "offload"
  std::string data;   // the object bytes (text for isa)
};

/// A GEMM kernel of a lowered module as its #fp8.gemm_kernel says (the
/// attribute's fields, docs in FP8KernelAttrs.td) and the cost model's
/// figures of its #fp8.kernel_model: `symbol` names the kernel's
/// llvm.func (a reference, derived from the attribute for humans and
/// parsed by nobody); element types are MLIR types as printed ("f8E4M3FN",
/// "bf16", "" for an absent accumulator C); `config` the attribute's
/// GemmKernelConfig (GemmKernelAttr::getConfig: the problem, the tiles,
/// the scale layout, as the emitter, the launchers and the emulator read
/// it); `layout` "" (a 2-D GEMM), "masked" or "contiguous"; the modelled
/// fields (`chip`, `ctas`, `modelledUs`, `modelledTflops`) empty when the
/// kernel has no #fp8.kernel_model or it models none.
struct GemmKernelInfo {
  std::string symbol, attribute;
  mlir::fp8::GemmKernelConfig config;
  std::string a, b, d, c, aScale, bScale;
  /// The BF16 variant without C: the f32 constant its accumulators start
  /// at (acc_init, a folded fill); nullopt otherwise.
  std::optional<double> accInit;
  int64_t bScaleRows = 0;
  std::string layout;
  /// nullopt: the bf16 batch kernel of a run-time batch count.
  std::optional<int64_t> groups = 1;
  bool counts = false;
  int64_t multicast = 1; // the cluster: config.cluster
  bool swapAB = false;
  std::string epilogue, chip;
  /// The quantize epilogue's code type ("" without it), eps and pow2.
  std::string q;
  std::optional<double> qEps;
  bool qPow2 = false;
  int64_t ctas = 0;
  std::optional<double> modelledUs, modelledTflops;
};

/// A quantize kernel as its #fp8.quantize_kernel says (fields as
/// GemmKernelInfo's): `config` the attribute's QuantizeKernelConfig (rows,
/// cols, block rows); `scaleMode` "f32" or "pow2"; `eps` the f32 clamp of
/// the amax.
struct QuantizeKernelInfo {
  std::string symbol, attribute;
  mlir::fp8::QuantizeKernelConfig config;
  std::string input, fp8, scale, scaleMode;
  double eps = 0;
  bool transpose = false;
};

/// The transpose kernel as its #fp8.transpose_kernel says: the element
/// width `bits` (8, 16, 32), `repeatRows` (each input row written that
/// many times) and `widenE8M0` (E8M0 codes in, their f32 values out); its
/// sizes are run-time parameters.
struct TransposeKernelInfo {
  std::string symbol, attribute;
  int64_t bits = 0, repeatRows = 1;
  bool widenE8M0 = false;
};

using KernelInfo =
    std::variant<GemmKernelInfo, QuantizeKernelInfo, TransposeKernelInfo>;

/// Everything a pipeline run produced.
struct PipelineResult {
  bool ok = false;
  /// On failure, what failed: "pipeline" (the pass pipeline text), "parse"
  /// (the input does not parse), "verify" (it parses but does not verify),
  /// "pass" (a pass failed), "jit" (the translation to LLVM or the JIT),
  /// "crash" (MLIR crashed or raised a fatal error; recovered),
  /// "interrupted" (`poll` asked to stop; the run stopped between passes),
  /// or "report" (the ReportOptions are invalid).
  std::string stage;
  std::string ir;       // the module after the pipeline (when ok)
  std::string rendered; // diagnostics as mlir-opt prints them
  std::vector<DiagnosticInfo> diagnostics;
  std::string capturedStdout; // what passes printed to stdout (reports)
  std::string capturedStderr; // what passes printed to stderr
  std::vector<GpuObject> gpuObjects;
  /// The generated kernels as the pipeline last had them in a top-level
  /// gpu.module (after fp8-gpu-pipeline: the kernels its gpu.binary holds,
  /// whose attributes serialization drops), in module order.
  std::vector<KernelInfo> kernels;
  /// fp8-report's Report of the module after the pipeline, when asked for
  /// (ReportOptions).
  std::optional<mlir::fp8::Report> report;
};

/// Asks runPipeline for fp8-report's Report of the resulting module, as
/// the pass collects it with options `chip` (the cost model's, e.g. "h200")
/// and `tokens` (0: dynamic GEMMs per token).
struct ReportOptions {
  std::string chip = "h200";
  int64_t tokens = 0;
};

/// Called about every 50 ms by the waiting caller of a long run; returning
/// true asks the run to stop at the next pass boundary (stage
/// "interrupted").
using PollFn = std::function<bool()>;

/// Parses `text` (named `sourceName` in locations), verifies it, runs the
/// textual `pipeline` (`"canonicalize,cse"` or `"builtin.module(...)"`; empty =
/// parse and verify only) and prints the result. With `captureOutput`, what
/// the call writes on stdout/stderr (report passes print there, the pass
/// option parser prints its reasons there) is returned in the result, and
/// only that: the call's thread has descriptors 1 and 2 of its own
/// (Core.cpp, ThreadOutputCapture), the process's are left alone. `genericForm`
/// prints generic ops, `locations` prints every op's location inline. The work
/// runs on a thread of its own with a large stack and crash recovery
/// (fp8/Tools/CrashReport.h): a crash, stack overflow or fatal error inside
/// MLIR is a failed result (stage "crash"), never the end of the process. With
/// `report`, the result also holds the module's Report (collected in-process,
/// not printed and parsed back).
PipelineResult runPipeline(const std::string &text, const std::string &pipeline,
                           const std::string &sourceName, bool captureOutput,
                           bool genericForm, bool locations,
                           const PollFn &poll = nullptr,
                           const std::optional<ReportOptions> &report = {});

/// True if `name` is a registered pass or pass pipeline (as `fp8-opt --name`).
bool isRegisteredPass(const std::string &name);

/// Names of the `#fp8.policy` presets (PolicyAttr::getPresetNames).
std::vector<std::string> policyPresets();

/// The preset `fp8-pipeline` uses when given no `policy` option (the
/// default of FP8PipelineOptions::policy).
std::string defaultPolicy();

/// An FP8 format as the compiler defines it: its name in the package
/// ("e4m3", "e5m2"), the MLIR element type ("f8E4M3FN"), the largest finite
/// value the quantizer saturates to, the smallest normal and subnormal
/// magnitudes, the exponent and mantissa widths, the exponent bias, and
/// whether it has infinities and NaNs (the element type's semantics).
struct FormatLimits {
  std::string name, mlirType;
  double max = 0, minNormal = 0, minSubnormal = 0;
  int exponentBits = 0, mantissaBits = 0, bias = 0;
  bool hasInf = false, hasNaN = false;
};

/// The supported FP8 formats, E4M3FN first.
std::vector<FormatLimits> formatLimits();

/// A #fp8.policy preset: its name, whether it puts linears in FP8 (every
/// preset but the `bf16` baseline, which keeps them high), and the formats
/// of its forward and gradient operands (FormatLimits::name).
struct PolicyPreset {
  std::string name;
  bool fp8 = false;
  std::string format, gradFormat;
};

/// The presets in documentation order (the order of policyPresets()).
std::vector<PolicyPreset> policyPresetInfo();

/// Signature of one function of a JIT module, recorded before lowering: every
/// argument is a memref (element bit width, shape with -1 for dynamic) or a
/// scalar (rank -1, bit width of the scalar).
struct ArgInfo {
  std::string elementType; // printed MLIR element type, e.g. "f32", "i8"
  int64_t bitWidth = 0;
  int64_t rank = -1; // -1: scalar (index, iN, fN)
  std::vector<int64_t> shape;
  /// Memrefs: the bytes of one element as the compiled code addresses it
  /// (0: no NumPy array can hold it) and the NumPy kinds (`dtype.kind`)
  /// whose values are the element's bits, not a reinterpretation of them:
  /// "f" for f16/f32/f64, "iub" for integers and index, "c" for complex,
  /// "iu" for the floats NumPy has no type of (bf16, FP8: bit patterns).
  int64_t elementBytes = 0;
  std::string numpyKinds;
  /// Memrefs with a strided layout: its static strides and offset
  /// (ShapedType::kDynamic for `?`); empty for the identity layout. The
  /// code uses a static stride or offset as it is, not the descriptor's.
  std::vector<int64_t> layoutStrides;
  int64_t layoutOffset = 0;
  /// Non-empty when no array can be passed for this memref (a layout that
  /// is not strided), saying why.
  std::string unsupported;
  /// A memref the function only reads: every use is a
  /// `bufferization.to_tensor` without `writable` (bufferization then never
  /// writes it in place), so a read-only array may be passed.
  bool readOnly = false;
};
struct FunctionInfo {
  std::string name;
  std::vector<ArgInfo> args;
  bool hasResults = false;
};

/// A module compiled by MLIR's ExecutionEngine (ORC JIT). Functions are called
/// through the engine's packed interface with memref descriptors built from
/// caller-owned buffers (destination-passing: functions return nothing).
class JitModule {
public:
  /// Parses `text`, records the signatures of its `func.func`s, runs `pipeline`
  /// (which must end in the LLVM dialect) and JIT-compiles the result, loading
  /// `sharedLibs` (e.g. libmlir_c_runner_utils.so) for symbol resolution.
  /// Returns null with `result.ok = false` and the diagnostics on failure.
  /// Runs like runPipeline (own thread, crash recovery, `captureOutput`).
  static std::unique_ptr<JitModule>
  create(const std::string &text, const std::string &pipeline,
         const std::vector<std::string> &sharedLibs, int optLevel,
         bool captureOutput, PipelineResult &result,
         const PollFn &poll = nullptr);
  ~JitModule();

  const std::vector<FunctionInfo> &functions() const;
  const FunctionInfo *lookupFunction(const std::string &name) const;

  struct CallArg;
  /// "" when the sizes of `args` (checked against the signature's static
  /// sizes already) agree with what the body of `name` implies for the
  /// dynamic ones (JitSizes.h), else a message naming the argument and
  /// dimension: a call that disagrees would read or write past an array.
  std::string checkSizes(const std::string &name,
                         const std::vector<CallArg> &args) const;

  /// One argument of a call: a buffer (data pointer, sizes, strides in
  /// elements) for a memref parameter, or the raw bits of a scalar.
  struct CallArg {
    void *data = nullptr;
    std::vector<int64_t> sizes;
    std::vector<int64_t> strides;
    int64_t scalarBits = 0; // for scalar parameters (integer or float bits)
  };
  /// Calls `name` with `args`, which the caller has checked against the
  /// recorded signature. Returns false and sets `error` if the engine could
  /// not find the function, or if the compiled code crashed (`crashed` set:
  /// a crash signal, a stack overflow or abort(), e.g. a failed cf.assert,
  /// recovered as in runPipeline; the call runs on its own thread). When
  /// `poll` (called every 50 ms) returns true, the compiled code stops at
  /// its next allocation (a false result, `error` saying so; its outputs
  /// are undefined, what it allocated is leaked) or runs to its end.
  bool invoke(const std::string &name, std::vector<CallArg> &args,
              std::string &error, bool &crashed, const PollFn &poll = nullptr);

private:
  JitModule();
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// The generated kernels of `ir` (a module after fp8-lower-to-nvvm, or after
/// fp8-gpu-pipeline, whose launchers keep the attribute and a reference to
/// their kernel once the kernels are serialized), in module order, each
/// once. False with `error` set when `ir` does not parse.
bool gpuKernels(const std::string &ir, std::vector<KernelInfo> &out,
                std::string &error);

} // namespace fp8py

#endif // FP8_PYTHON_CORE_H
