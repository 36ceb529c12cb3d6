//===- Promotion.h - option `promotion` of the graph passes -----*- C++ -*-===//
//
// Where the FP8 GEMMs promote their tensor-core partial sums into FP32: the
// `promotion` option of fp8-assign-precision and fp8-pipeline, recorded in
// the policy it writes on the module (`promote_interval`). A header of its
// own so the pipeline options can name it without the generated pass
// declarations.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_DIALECT_FP8_TRANSFORMS_PROMOTION_H
#define FP8_DIALECT_FP8_TRANSFORMS_PROMOTION_H

namespace mlir {
namespace fp8 {

enum class Promotion {
  /// Every `promote_interval` K elements, as the policy preset says (128
  /// for deepseek-v3: DeepSeek-V3 §3.3.2's recipe).
  policy,
  /// Once per GEMM, at the end of its K (the policy's `promote_interval =
  /// ?`): the tensor-core accumulator runs over the whole sum, DeepSeek-V3
  /// §3.3.2's experiment without promotion. Needs whole-K scale blocks
  /// (per-tensor, rowwise).
  none,
};

} // namespace fp8
} // namespace mlir

#endif // FP8_DIALECT_FP8_TRANSFORMS_PROMOTION_H
