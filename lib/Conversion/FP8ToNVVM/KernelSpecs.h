//===- KernelSpecs.h - which fp8 ops get which sm_90a kernel ----*- C++ -*-===//
#ifndef FP8_LIB_CONVERSION_FP8TONVVM_KERNELSPECS_H
#define FP8_LIB_CONVERSION_FP8TONVVM_KERNELSPECS_H

#include "GemmKernel.h"
#include "QuantizeKernel.h"

#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Target/Hopper/GemmCostModel.h"

#include <optional>
#include <string>

namespace mlir {
namespace fp8 {

/// Symbol of the gpu.module fp8-lower-to-nvvm creates and fp8-launch-kernels
/// launches from.
constexpr llvm::StringLiteral kKernelModuleName = "fp8_kernels";

/// The `fp8.kernel_config` key of a kernel with per-column B scales (b
/// blocks [1, 128]) and its value; absent for [128, 128] B blocks.
constexpr llvm::StringLiteral kKernelConfigBScalesKey = "b_scales";
constexpr llvm::StringLiteral kBScalesPerColumn = "per_column";

/// Why `op` (a GEMM or quantize) needs no kernel: its result is empty (a
/// static dimension of 0) or its contraction is (static K = 0); empty when
/// it does. Such an op stays on the host, whose lowering computes it
/// without a launch (an empty result; C or +0.0).
std::string getEmptyProblemReason(Operation *op);

/// Checks that `op` is in the form the sm_90a GEMM kernel implements and
/// returns its spec; emits an error naming what is wrong otherwise (also an
/// invalid configuration, naming the options). The configuration: the
/// `overrides` when any is set; otherwise, with `model` (config=auto) and a
/// static M, the one the cost model chooses for that chip
/// (GemmCostModel.h); otherwise the shape's fixed default
/// (chooseGemmKernelConfig).
FailureOr<GemmKernelSpec>
getGemmKernelSpec(ScaledMatmulOp op, const GemmKernelOverrides &overrides,
                  const ChipSpec *model);

/// The same for fp8.grouped_scaled_matmul (GemmGrouping): its spec's
/// config.m is M of one group (masked) or of A (contiguous); the model
/// (config=auto) chooses for G * M x N x K (masked) or M x N x K with
/// BLOCK_M dividing m_alignment (contiguous).
FailureOr<GemmKernelSpec>
getGroupedGemmKernelSpec(GroupedScaledMatmulOp op,
                         const GemmKernelOverrides &overrides,
                         const ChipSpec *model);

/// Resolves the `config` and `device` options of fp8-lower-to-nvvm and
/// fp8-launch-kernels: the chip to model (also for config=fixed, whose
/// kernels record their modelled time) and whether the model chooses.
/// Emits an error naming the bad value.
LogicalResult parseKernelConfigOptions(Location loc, StringRef pass,
                                       StringRef config, StringRef device,
                                       const ChipSpec *&chip, bool &autoConfig);

/// The `fp8.kernel_config` dictionary of a GEMM kernel of configuration `c`
/// modelled on `chip`: block_m, block_n, block_k, stages, cluster (1: the
/// generator has no clusters), consumers, group_m (the tile order's group
/// height, 1: row-major), ctas (the persistent grid on the
/// chip's SMs), modelled_us and modelled_tflops (absent for a dynamic M),
/// chip; b_scales = "per_column" for per-column B scales.
DictionaryAttr getKernelConfigAttr(MLIRContext *ctx, const GemmKernelConfig &c,
                                   const ChipSpec &chip);

/// The configuration recorded in the `fp8.kernel_config` dictionary `dict`
/// of a GEMM kernel for an M x N x K problem (`m` may be
/// GemmKernelConfig::kDynamicM): block_m, block_n, stages, consumers,
/// group_m (optional, default 1); the
/// derived sizes (setmaxnreg share, ring layout) follow GemmKernelConfig.h.
/// Fails with `why` set when a key is missing or the configuration is not
/// one the kernel generator emits (block_k 128, cluster 1,
/// checkGemmKernelConfig) or its b_scales differs from
/// `bScalesPerColumn` (the op's B blocks).
FailureOr<GemmKernelConfig>
getKernelConfigFromAttr(DictionaryAttr dict, int64_t m, int64_t n, int64_t k,
                        bool bScalesPerColumn, std::string &why);

/// The quantize kernel's spec for `op`, or nullopt when the op stays a host
/// (CPU) op; with `remark`, a remark says why.
std::optional<QuantizeKernelSpec> getQuantizeSpec(QuantizeOp op, bool remark);

} // namespace fp8
} // namespace mlir

#endif // FP8_LIB_CONVERSION_FP8TONVVM_KERNELSPECS_H
