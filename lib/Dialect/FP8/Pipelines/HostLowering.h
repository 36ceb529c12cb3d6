//===- HostLowering.h - tensors to the LLVM dialect, CPU or GPU host ------===//
//
// The pass builders fp8-cpu-pipeline (CPUPipeline.cpp) and fp8-gpu-pipeline
// (GPUPipeline.cpp) share, defined in HostLowering.cpp, which calls neither
// pipeline.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_LIB_DIALECT_FP8_PIPELINES_HOSTLOWERING_H
#define FP8_LIB_DIALECT_FP8_PIPELINES_HOSTLOWERING_H

#include <cstdint>

namespace mlir {
class OpPassManager;
namespace fp8 {
struct FP8CPUPipelineOptions;
struct FP8GPUPipelineOptions;
namespace detail {

/// The passes of fp8-cpu-pipeline (value-level fp8 IR on tensors -> LLVM
/// dialect). With `gpu` (fp8-gpu-pipeline's options), also the host side of
/// kernel launches (fp8-launch-kernels{launchers=declare} ran before): the
/// host kernels (`host-kernels`: fp8-outline-host-kernels, their
/// gpu.module lowered with the host's arith/math lowering and serialized
/// for `target`), the launcher bodies after buffer deallocation (grid for
/// `sm-count` SMs; `resident`: fp8-launch-kernels' option),
/// convert-nvgpu-to-nvvm for the TMA descriptors and gpu-to-llvm
/// (bare-pointer kernel arguments) for the gpu ops.
void buildHostLowering(OpPassManager &pm, const FP8CPUPipelineOptions &options,
                       const FP8GPUPipelineOptions *gpu = nullptr);

/// The gpu.modules, lowered to the NVVM level, serialized as `opts.target`
/// loads them: MLIR text for the emulator (fp8-gpu-module-to-text), else
/// gpu-module-to-binary with `opts.format`.
void buildGPUModuleSerialization(OpPassManager &pm,
                                 const FP8GPUPipelineOptions &opts);

} // namespace detail
} // namespace fp8
} // namespace mlir

#endif // FP8_LIB_DIALECT_FP8_PIPELINES_HOSTLOWERING_H
