//===- Registration.cpp - textual registration of the fp8 pipelines -------===//
#include "fp8/Dialect/FP8/Pipelines/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::fp8;

/// The host-side options given explicitly that another option turns off
/// (empty when none): each would be dropped silently. Only options given
/// in the text count: the defaults (resident, host-kernels) fit every host.
static std::string
explainHostOptionConflict(const FP8GPUPipelineOptions &options) {
  StringRef host = options.host;
  for (auto [name, given, value] :
       {std::tuple{"resident", options.resident.hasValue(),
                   bool(options.resident)},
        std::tuple{"host-kernels", options.hostKernels.hasValue(),
                   bool(options.hostKernels)}})
    if (given && host != "llvm")
      return (Twine("options host=") + host + " and " + name + "=" +
              (value ? "true" : "false") +
              " contradict: only host=llvm lowers the host program that " +
              name + " is about; give host=llvm, or leave " + name + " out")
          .str();
  // The host kernels take device buffers only: the residency's.
  if (options.hostKernels.hasValue() && options.hostKernels &&
      !options.resident)
    return "options host-kernels=true and resident=false contradict: the "
           "host kernels need the residency (their launches take device "
           "buffers only); give resident=true (the default) with "
           "host-kernels=true, or host-kernels=false with resident=false";
  return "";
}

void fp8::registerFP8GPUPipeline() {
  // Registered through registerPassPipeline (not PassPipelineRegistration)
  // so the options can be validated: upstream gpu-module-to-binary only
  // prints "Invalid format specified." for a bad format and does not fail.
  registerPassPipeline(
      "fp8-gpu-pipeline",
      "fp8.scaled_matmul -> sm_90a GEMM kernels in a gpu.binary (PTX by "
      "default): fp8-lower-to-nvvm, then scf/nvvm/arith/cf to LLVM inside "
      "the gpu.module, then gpu-module-to-binary",
      [](OpPassManager &pm, StringRef optionsStr,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        FP8GPUPipelineOptions options;
        if (failed(options.parseFromString(optionsStr)))
          return failure();
        StringRef format = options.format;
        // The names gpu-module-to-binary accepts (with their long forms).
        if (!llvm::is_contained({"isa", "assembly", "bin", "binary", "fatbin",
                                 "fatbinary", "llvm", "offloading"},
                                format))
          return errorHandler("fp8-gpu-pipeline: option format='" + format +
                              "' is not a gpu-module-to-binary format "
                              "(expected isa (PTX), bin (cubin), fatbin or "
                              "llvm)");
        StringRef target = options.target;
        if (target != "ptx" && target != "emulator")
          return errorHandler("fp8-gpu-pipeline: option target='" + target +
                              "' is invalid (expected ptx or emulator)");
        StringRef host = options.host;
        if (!llvm::is_contained({"launch", "llvm", "none"}, host))
          return errorHandler("fp8-gpu-pipeline: option host='" + host +
                              "' is invalid (expected launch, llvm or none)");
        std::string conflict = explainHostOptionConflict(options);
        if (!conflict.empty())
          return errorHandler("fp8-gpu-pipeline: " + conflict);
        buildFP8GPUPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optHandler) {
        optHandler(FP8GPUPipelineOptions());
      });
}

void fp8::registerFP8Pipeline() {
  PassPipelineRegistration<FP8PipelineOptions>(
      "fp8-pipeline",
      "Model graph (linalg-on-tensors or TOSA) -> FP8 graph under a precision "
      "policy, with a report: fp8-convert-tosa, fp8-normalize-forms, "
      "fp8-assign-precision, "
      "fp8-insert-quant, fp8-report, canonicalize, cse, "
      "fp8-fold-constant-weights, canonicalize",
      buildFP8Pipeline);
}

void fp8::registerFP8CPUPipeline() {
  // Registered through registerPassPipeline so that the accumulator options
  // are validated here: whether `accumulator` was given explicitly (an
  // explicit accumulator=exact contradicts accumulator-bits=N) is known only
  // from the parsed text.
  registerPassPipeline(
      "fp8-cpu-pipeline",
      "Lower value-level fp8 IR on tensors to the LLVM dialect for "
      "mlir-runner: fp8-lower-to-linalg, fp8-expand-arith, fp8-expand-math, "
      "one-shot "
      "bufferization (function boundaries, identity layouts), buffer "
      "deallocation, linalg to loops, conversions to LLVM",
      [](OpPassManager &pm, StringRef optionsStr,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        FP8CPUPipelineOptions options;
        if (failed(options.parseFromString(optionsStr)))
          return failure();
        std::string error;
        if (failed(getAccumulationModel(options.accumulator,
                                        options.accumulatorBits,
                                        options.accumulator.hasValue(), error)))
          return errorHandler("fp8-cpu-pipeline: " + error);
        // OpenMP's num_threads is an i32, and a team past the cores only
        // fails at run time (libomp aborts when it cannot start them).
        if (options.threads > kMaxCPUThreads)
          return errorHandler("fp8-cpu-pipeline: option threads=" +
                              Twine(unsigned(options.threads)) +
                              " is invalid (expected 0 = OpenMP's default, 1 "
                              "= sequential, or at most " +
                              Twine(kMaxCPUThreads) + " threads)");
        buildFP8CPUPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optHandler) {
        optHandler(FP8CPUPipelineOptions());
      });
}

void fp8::registerFP8Pipelines() {
  registerFP8Pipeline();
  registerFP8CPUPipeline();
  registerFP8GPUPipeline();
}
