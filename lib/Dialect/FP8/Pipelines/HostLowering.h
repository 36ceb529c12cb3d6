//===- HostLowering.h - tensors to the LLVM dialect, CPU or GPU host
//--*-C++-*-===//
#ifndef FP8_LIB_DIALECT_FP8_PIPELINES_HOSTLOWERING_H
#define FP8_LIB_DIALECT_FP8_PIPELINES_HOSTLOWERING_H

#include <cstdint>

namespace mlir {
class OpPassManager;
namespace fp8 {
struct FP8CPUPipelineOptions;
namespace detail {

/// The passes of fp8-cpu-pipeline (value-level fp8 IR on tensors -> LLVM
/// dialect). With `gpuHost`, also the host side of kernel launches
/// (fp8-launch-kernels{launchers=declare} ran before): the launcher bodies
/// after buffer deallocation (grid for `smCount` SMs; 0: the device's,
/// read at run time; `resident`: fp8-launch-kernels' option),
/// convert-nvgpu-to-nvvm for the TMA descriptors and gpu-to-llvm
/// (bare-pointer kernel arguments) for the gpu ops.
void buildHostLowering(OpPassManager &pm, const FP8CPUPipelineOptions &options,
                       bool gpuHost, int64_t smCount = 0, bool resident = true);

} // namespace detail
} // namespace fp8
} // namespace mlir

#endif // FP8_LIB_DIALECT_FP8_PIPELINES_HOSTLOWERING_H
