//===- FP8ToNVVM.h - fp8 -> sm_90a kernels in NVVM --------------*- C++ -*-===//
//
// The GPU lowering: block-scaled FP8 GEMM and quantize kernels for sm_90a
// (TMA, wgmma, FP32 promotion) generated into a gpu.module, and the CPU-run
// model of the GEMM kernel's tiled schedule. Passes: fp8-lower-to-nvvm,
// fp8-tile-scaled-matmul (fp8/Conversion/Passes.td). Launch configurations
// and the kernel ABI: fp8/Target/Hopper/.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_CONVERSION_FP8TONVVM_FP8TONVVM_H
#define FP8_CONVERSION_FP8TONVVM_FP8TONVVM_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace fp8 {

template <typename Owner> class GemmKernelOptions; // GemmKernelOptions.h

#define GEN_PASS_DECL_FP8LOWERTONVVMPASS
#define GEN_PASS_DECL_FP8LAUNCHKERNELSPASS
#define GEN_PASS_DECL_FP8GPUMODULETOTEXTPASS
#define GEN_PASS_DECL_FP8TILESCALEDMATMULPASS
#define GEN_PASS_DECL_FP8CHOOSEKSPLITSPASS
#define GEN_PASS_DECL_FP8OUTLINEHOSTKERNELSPASS
#define GEN_PASS_DECL_FP8HOSTKERNELSTONVVMPASS
#include "fp8/Conversion/Passes.h.inc"

/// fp8-lower-to-nvvm with `options` and the GEMM kernel options of `gemm`
/// (fp8-gpu-pipeline's: the pass gets a copy of each).
std::unique_ptr<Pass> createFP8LowerToNVVMPass(
    const FP8LowerToNVVMPassOptions &options,
    const GemmKernelOptions<mlir::detail::PassOptions> &gemm);

} // namespace fp8
} // namespace mlir

#endif // FP8_CONVERSION_FP8TONVVM_FP8TONVVM_H
