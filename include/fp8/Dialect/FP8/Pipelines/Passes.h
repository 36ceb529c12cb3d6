//===- Passes.h - fp8 pass pipelines ----------------------------*- C++ -*-===//
//
// The three pipelines of the project, each with a public options struct, a
// build function for an embedder's own pass manager and a registration
// function for textual pipelines (as upstream mlir/Dialect/GPU/Pipelines/
// Passes.h):
//   fp8-pipeline      model graph -> FP8 graph (+ report)
//   fp8-cpu-pipeline  fp8 IR on tensors -> LLVM dialect (CPU reference)
//   fp8-gpu-pipeline  fp8 IR -> sm_90a kernels in a gpu.binary
//
//===----------------------------------------------------------------------===//
#ifndef FP8_DIALECT_FP8_PIPELINES_PASSES_H
#define FP8_DIALECT_FP8_PIPELINES_PASSES_H

#include "fp8/Conversion/FP8ToLinalg/FP8ToLinalg.h"
#include "fp8/Conversion/FP8ToNVVM/GemmKernelOptions.h"
#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/Transforms/Promotion.h"

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
class OpPassManager;
namespace fp8 {

/// The help of fp8-pipeline's `policy` option: "Precision policy preset: "
/// and the presets of #fp8.policy (PolicyAttr::getPresetNameList), so that
/// a new preset is listed without an edit here.
llvm::StringRef getPolicyOptionDescription();

/// Options of `fp8-pipeline`.
struct FP8PipelineOptions : public PassPipelineOptions<FP8PipelineOptions> {
  PassOptions::Option<std::string> policy{
      *this, "policy", llvm::cl::desc(getPolicyOptionDescription()),
      llvm::cl::init(PolicyAttr::getDefaultPresetName().str())};
  PassOptions::Option<Promotion> promotion{
      *this, "promotion",
      llvm::cl::desc("Where FP8 GEMMs promote into FP32 (see "
                     "fp8-assign-precision)"),
      llvm::cl::init(Promotion::policy),
      llvm::cl::values(
          clEnumValN(Promotion::policy, "policy",
                     "every promote_interval K elements of the policy"),
          clEnumValN(Promotion::none, "none",
                     "once per GEMM, at the end of its K"))};
  PassOptions::Option<WgradOperands> wgradOperands{
      *this, "wgrad-operands",
      llvm::cl::desc("How a weight gradient's operands are made (see "
                     "fp8-assign-precision)"),
      llvm::cl::init(WgradOperands::requantize),
      llvm::cl::values(clEnumValN(WgradOperands::requantize, "requantize",
                                  "from the forward's FP8 codes and scales"),
                       clEnumValN(WgradOperands::fresh, "fresh",
                                  "from the high-precision tensor"))};
  PassOptions::ListOption<std::string> overrides{
      *this, "overrides",
      llvm::cl::desc("PATTERN:ROLE-or-PRECISION pairs matched against loc "
                     "names (see fp8-assign-precision)")};
  PassOptions::Option<bool> strict{
      *this, "strict",
      llvm::cl::desc("Fail instead of remarking on what the passes cannot "
                     "handle"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> cacheActivations{
      *this, "cache-activations",
      llvm::cl::desc("Run fp8-cache-activations after fp8-insert-quant: a "
                     "split forward returns the weight gradients' "
                     "activations as FP8 codes + scales"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> report{
      *this, "report", llvm::cl::desc("Run fp8-report"), llvm::cl::init(true)};
  PassOptions::Option<std::string> reportFormat{
      *this, "report-format",
      llvm::cl::desc("fp8-report format: table or json"),
      llvm::cl::init("table")};
  PassOptions::Option<std::string> reportOutput{
      *this, "report-output",
      llvm::cl::desc("fp8-report output file ('-' = stdout)"),
      llvm::cl::init("-")};
  PassOptions::Option<int64_t> reportTokens{
      *this, "report-tokens",
      llvm::cl::desc("fp8-report tokens: the run-time M at which dynamic "
                     "GEMMs are evaluated (0: per token)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> foldMaxElements{
      *this, "fold-max-elements",
      llvm::cl::desc("fp8-fold-constant-weights: largest dense constant "
                     "quantized at compile time, in elements (splats: any "
                     "size)"),
      llvm::cl::init(int64_t(1) << 24)};
};

/// Appends the graph pipeline to `pm` (a module pass manager), in this
/// order: fp8-convert-tosa (TOSA to linalg; a no-op on linalg graphs),
/// fp8-normalize-forms (LLVM 22 linalg forms into generic and matmul forms),
/// fp8-assign-precision, fp8-insert-quant, fp8-cache-activations (with
/// `cache-activations`), fp8-report (on the graph as
/// classified, before the cleanup folds ops away), canonicalize + cse
/// (shared quantizations merge, quantize(dequantize) folds),
/// fp8-fold-constant-weights (constant weights quantized at compile time),
/// canonicalize.
void buildFP8Pipeline(OpPassManager &pm, const FP8PipelineOptions &options);

/// The most threads fp8-cpu-pipeline's `threads` option takes.
constexpr unsigned kMaxCPUThreads = 1024;

/// Options of `fp8-cpu-pipeline`.
struct FP8CPUPipelineOptions
    : public PassPipelineOptions<FP8CPUPipelineOptions> {
  PassOptions::Option<AccumulatorModel> accumulator{
      *this, "accumulator",
      llvm::cl::desc("Partial sums inside a promotion interval "
                     "(fp8-lower-to-linalg's option)"),
      llvm::cl::init(AccumulatorModel::exact),
      llvm::cl::values(
          clEnumValN(AccumulatorModel::exact, "exact", "exact f32 sums"),
          clEnumValN(AccumulatorModel::sm90, "sm90",
                     "Hopper wgmma, bit-exact: 32-product groups"),
          clEnumValN(AccumulatorModel::sm89, "sm89",
                     "Ada mma.sync: 16-product groups"))};
  PassOptions::Option<unsigned> accumulatorBits{
      *this, "accumulator-bits",
      llvm::cl::desc("Generic model: emulated tensor-core accumulator bits "
                     "inside a promotion interval (0 = not used)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> tiled{
      *this, "tiled",
      llvm::cl::desc("scaled_matmul through the register-tiled kernel, "
                     "quantize / dequantize / requantize through the "
                     "vectorised ones (fp8-lower-to-linalg's option; "
                     "bit-identical results)"),
      llvm::cl::init(true)};
  PassOptions::Option<unsigned> vectorLanes{
      *this, "vector-lanes",
      llvm::cl::desc("f32 lanes of the tiled kernel's vectors: 8 (AVX2), 16 "
                     "(AVX-512), 0 = the host's (16 where it has AVX-512F, "
                     "else 8)"),
      llvm::cl::init(0)};
  PassOptions::Option<unsigned> threads{
      *this, "threads",
      llvm::cl::desc("Threads of the tiled kernels' loops (scaled_matmul: "
                     "over output chunks; quantize / dequantize / requantize: "
                     "over chunks of block rows): 1 = sequential code (the "
                     "default, no runtime "
                     "library); N > 1 = an OpenMP parallel loop of N "
                     "threads (at most 1024); 0 = OpenMP's default "
                     "(OMP_NUM_THREADS, else every core). With OpenMP the "
                     "program needs the LLVM "
                     "OpenMP runtime (libomp) at run time"),
      llvm::cl::init(1)};
  PassOptions::Option<bool> deallocate{
      *this, "deallocate",
      llvm::cl::desc("Run the upstream buffer deallocation pipeline"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> vectorizeContractions{
      *this, "vectorize-contractions",
      llvm::cl::desc("High-precision linalg.matmul / batch_matmul as "
                     "register tiles of vector FMAs "
                     "(fp8-vectorize-contractions) instead of scalar loops"),
      llvm::cl::init(false)};
  PassOptions::Option<unsigned> reductionLanes{
      *this, "reduction-lanes",
      llvm::cl::desc("Lanes of the float row sums' reduction order "
                     "(fp8-split-reductions: lane-strided partial sums, "
                     "then a halving tree; docs/numerics.md, \"Reduction "
                     "order\"); 0 = sequential sums"),
      llvm::cl::init(32)};
  PassOptions::Option<bool> verifyShapes{
      *this, "verify-shapes",
      llvm::cl::desc("Check at run time that the dynamic sizes of each "
                     "linalg op's operands agree (fp8-verify-dynamic-shapes: "
                     "a failed check prints the op, its location and the "
                     "dimension, and aborts); a few integer compares per "
                     "op with dynamic shapes"),
      llvm::cl::init(true)};
  PassOptions::Option<unsigned> reductionVector{
      *this, "reduction-vector",
      llvm::cl::desc("Consecutive elements per lane and step of the float "
                     "row sums' order (fp8-split-reductions' vector: a "
                     "power of two in [1, 16]; 1 = lane-strided)"),
      llvm::cl::init(4)};
};

/// fp8-cpu-pipeline: value-level fp8 IR on tensors (func/linalg/tensor/arith
/// around it) -> LLVM dialect runnable by mlir-runner or the
/// ExecutionEngine: fp8-lower-to-linalg, fp8-expand-arith, fp8-expand-math
/// (transcendental math ops as arith + math.fma/sqrt, as in
/// fp8-gpu-pipeline{host=llvm}), fp8-verify-dynamic-shapes (run-time
/// checks of the linalg ops' dynamic operand sizes), one-shot
/// bufferization with function boundaries (identity layouts), buffer
/// deallocation, linalg -> loops, the upstream conversions to LLVM,
/// fp8-strip-annotations. Functions with `llvm.emit_c_interface` get
/// `_mlir_ciface_` wrappers.
void buildFP8CPUPipeline(OpPassManager &pm,
                         const FP8CPUPipelineOptions &options);

/// Options of `fp8-gpu-pipeline`.
struct FP8GPUPipelineOptions
    : public PassPipelineOptions<FP8GPUPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("Target chip"), llvm::cl::init("sm_90a")};
  PassOptions::Option<std::string> features{*this, "features",
                                            llvm::cl::desc("PTX features"),
                                            llvm::cl::init("+ptx80")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("gpu-module-to-binary format: isa (PTX), bin (cubin, "
                     "needs ptxas), fatbin"),
      llvm::cl::init("isa")};
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("What the gpu.binary holds: ptx (gpu-module-to-binary "
                     "in `format`) or emulator (the gpu.module's MLIR text, "
                     "fp8-gpu-module-to-text, for the CPU emulator's "
                     "mgpuModuleLoad)"),
      llvm::cl::init("ptx")};
  PassOptions::Option<std::string> host{
      *this, "host",
      llvm::cl::desc("Host side: launch (host functions launch the kernels: "
                     "gpu.launch_func, on tensors/memrefs), llvm (also "
                     "lowered to the LLVM dialect with llvm.emit_c_interface "
                     "on public functions), none (kernels only, host ops "
                     "stay)"),
      llvm::cl::init("launch")};
  PassOptions::Option<int64_t> smCount{
      *this, "sm-count",
      llvm::cl::desc("SMs for the persistent GEMM grid min(tiles, SMs): 0 "
                     "reads the device's count at run time, N > 0 compiles "
                     "N in"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> resident{
      *this, "resident",
      llvm::cl::desc("host=llvm: tensors passed from kernel to kernel stay "
                     "on the device; only the host program's arguments and "
                     "results (and what a host op reads) cross "
                     "(fp8-launch-kernels' `resident`); false: every launch "
                     "copies its operands in and its result out"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> hostKernels{
      *this, "host-kernels",
      llvm::cl::desc("host=llvm with resident: the host program's linalg "
                     "ops on static buffers (RMSNorm, softmax, SwiGLU, the "
                     "loss) become GPU kernels computing the CPU "
                     "pipeline's bits (fp8-outline-host-kernels); false: "
                     "they run on the host"),
      llvm::cl::init(true)};
  PassOptions::Option<unsigned> reductionLanes{
      *this, "reduction-lanes",
      llvm::cl::desc("host=llvm: fp8-cpu-pipeline's reduction-lanes for the "
                     "host program (the same value gives the CPU "
                     "pipeline's bits)"),
      llvm::cl::init(32)};
  PassOptions::Option<unsigned> reductionVector{
      *this, "reduction-vector",
      llvm::cl::desc("host=llvm: fp8-cpu-pipeline's reduction-vector for "
                     "the host program (the same value gives the CPU "
                     "pipeline's bits)"),
      llvm::cl::init(4)};
  /// fp8-lower-to-nvvm's GEMM kernel options (config, device, block-m,
  /// ..., require-kernels: GemmKernelOptions.h), which it forwards.
  GemmKernelOptions<mlir::detail::PassOptions> gemm{*this};
};

/// fp8-gpu-pipeline: fp8-lower-to-nvvm, fp8-launch-kernels (host=launch or
/// llvm), then scf/nvvm/arith/cf to LLVM inside the gpu.module, then
/// gpu-module-to-binary; with host=llvm, the host program is lowered to the
/// LLVM dialect as by fp8-cpu-pipeline, plus convert-nvgpu-to-nvvm and
/// gpu-to-llvm for the launches.
void buildFP8GPUPipeline(OpPassManager &pm,
                         const FP8GPUPipelineOptions &options);

/// fp8-gpu-pipeline after its fp8-lower-to-nvvm: the launchers, the
/// gpu.module's lowering and serialization, the host lowering, on a module
/// whose kernels fp8-lower-to-nvvm produced (fp8-emu runs them as given).
/// `kernelLocations` (target=emulator): the embedded text keeps the
/// kernels' locations, so the emulator's fault reports name the input's
/// lines.
void buildFP8GPUPipelineAfterLowerToNVVM(OpPassManager &pm,
                                         const FP8GPUPipelineOptions &options,
                                         bool kernelLocations = false);

/// Register one pipeline with the global pass-pipeline registry, for its
/// textual form (`--fp8-pipeline="policy=rowwise"`).
void registerFP8Pipeline();
void registerFP8CPUPipeline();
/// Also validates `format` (upstream gpu-module-to-binary does not fail on
/// an unknown one).
void registerFP8GPUPipeline();

/// All three of the above.
void registerFP8Pipelines();

} // namespace fp8
} // namespace mlir

#endif // FP8_DIALECT_FP8_PIPELINES_PASSES_H
