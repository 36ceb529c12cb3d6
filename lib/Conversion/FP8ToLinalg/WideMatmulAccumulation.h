//===- WideMatmulAccumulation.h - k16 model for bf16/f16 matmuls -*- C++
//-*-===//
//
// fp8-lower-to-linalg{accumulator=sm90} on linalg.matmul / batch_matmul
// with bf16 or f16 operands and an f32 result: the sums of Hopper's
// `wgmma ... k16` (tensorcore::accumulateChain16).
//
//===----------------------------------------------------------------------===//
#ifndef FP8_LIB_CONVERSION_FP8TOLINALG_WIDEMATMULACCUMULATION_H
#define FP8_LIB_CONVERSION_FP8TOLINALG_WIDEMATMULACCUMULATION_H

#include "mlir/IR/Operation.h"

namespace mlir::fp8::detail {

/// Replaces every linalg.matmul and linalg.batch_matmul under `root` (on
/// tensors, operand maps that are dimension permutations) whose operands are
/// both bf16 or both f16 and whose result is f32 by a linalg.generic that
/// computes each output as the k16 chain from its init value: groups of 16
/// K elements in order (a shorter last group), each group one step of
/// tensorcore::accumulateGroup16. Other matmuls are left alone.
void lowerWideMatmulsToK16Chains(Operation *root);

} // namespace mlir::fp8::detail

#endif // FP8_LIB_CONVERSION_FP8TOLINALG_WIDEMATMULACCUMULATION_H
