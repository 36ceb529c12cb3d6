//===- DecomposeSoftmax.h - linalg.softmax as linalg.generic ----*- C++ -*-===//
//
// The named softmax replaced by upstream's decomposition, for
// fp8-normalize-forms and fp8-decompose-softmax (Passes.td).
//
//===----------------------------------------------------------------------===//
#ifndef FP8_DIALECT_FP8_TRANSFORMS_DECOMPOSESOFTMAX_H
#define FP8_DIALECT_FP8_TRANSFORMS_DECOMPOSESOFTMAX_H

#include "mlir/IR/Operation.h"

namespace mlir::fp8 {

/// Replaces every `linalg.softmax` below `root` by upstream's decomposition
/// (a max reduction, the exp of the difference, a sum reduction, a division,
/// as linalg.generic). Fails, with an error on the op, for a softmax on
/// buffers or one upstream does not decompose; `pass` names the caller in
/// the message.
LogicalResult decomposeSoftmaxes(Operation *root, StringRef pass);

} // namespace mlir::fp8

#endif // FP8_DIALECT_FP8_TRANSFORMS_DECOMPOSESOFTMAX_H
