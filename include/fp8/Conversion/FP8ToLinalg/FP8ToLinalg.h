//===- FP8ToLinalg.h - fp8 -> linalg (CPU reference lowering) ---*- C++ -*-===//
//
// The reference lowering of the numerics contract (docs/design.md §1): fp8
// ops on `!fp8.scaled` values become linalg/tensor/arith ops on explicit data
// and scale tensors. Passes: fp8-decompose, fp8-lower-to-linalg
// (fp8/Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//
#ifndef FP8_CONVERSION_FP8TOLINALG_FP8TOLINALG_H
#define FP8_CONVERSION_FP8TOLINALG_FP8TOLINALG_H

#include "fp8/Target/Hopper/TensorCoreAccumulation.h"

#include "mlir/Pass/Pass.h"

#include <optional>

namespace mlir {
class OpBuilder;
class Value;
class ConversionTarget;
class RewritePatternSet;
class TypeConverter;
namespace fp8 {
class GroupedScaledMatmulOp;

/// The loop form of a grouped GEMM, built at `b`'s insertion point: a loop
/// over the groups (masked) or over the runs of equal group index
/// (contiguous) around ONE 2-D fp8.scaled_matmul on each group's slices
/// (fp8.disassemble, tensor.extract_slice, fp8.assemble), its products
/// inserted into the result. Returns the result; the caller replaces `op`.
/// fp8-lower-to-linalg lowers the grouped op this way; a target without a
/// grouped kernel can use it too (static slices for masked without counts).
Value expandGroupedScaledMatmul(OpBuilder &b, GroupedScaledMatmulOp op);

/// Option `accumulator` of fp8-lower-to-linalg and fp8-cpu-pipeline: how the
/// partial sum of a promotion interval is formed.
enum class AccumulatorModel {
  /// f32 partial sums (the numerics contract).
  exact,
  /// Hopper `wgmma`: tensorcore::sm90Model().
  sm90,
  /// Ada `mma.sync`: tensorcore::sm89Model().
  sm89,
};

#define GEN_PASS_DECL_FP8DECOMPOSEPASS
#define GEN_PASS_DECL_FP8LOWERTOLINALGPASS
#include "fp8/Conversion/Passes.h.inc"

/// Adds the 1:N conversion `!fp8.scaled` -> (data tensor, scale tensor) to
/// `converter`, with `fp8.assemble` / `fp8.disassemble` as materializations.
void populateFP8DecomposeTypeConversion(TypeConverter &converter);

/// Fails, with an error naming the op, when a value under `root` has a
/// type that nests `!fp8.scaled` (`tensor<2x!fp8.scaled<...>>`, the
/// function type of func.constant) or a block other than its region's
/// entry block takes a `!fp8.scaled` argument (a branch's operand): the
/// 1:N conversion has no rule for those. `pass` names the pass in the
/// error.
LogicalResult verifyScaledValuesConvertible(Operation *root, StringRef pass);

/// Converts func.func signatures, func.call and func.return (and scf
/// structural ops) through `converter`, and marks them legal once their
/// types are.
void populateFP8FunctionBoundaryConversion(TypeConverter &converter,
                                           RewritePatternSet &patterns,
                                           ConversionTarget &target);

/// Patterns lowering fp8.quantize/dequantize/requantize/scaled_matmul/
/// assemble/disassemble to linalg on explicit data + scale tensors (see
/// fp8-lower-to-linalg). `converter` must contain the decomposition.
/// `accumulator` selects the emulated tensor-core accumulation of the
/// scaled_matmul lowering (std::nullopt: exact f32 partial sums);
/// `tiledLanes` (8 or 16; 0: the reference generics) lowers the exact path
/// to the register-tiled kernel with vectors of that many f32 lanes (same
/// results).
void populateFP8ToLinalgPatterns(
    TypeConverter &converter, RewritePatternSet &patterns,
    std::optional<tensorcore::AccumulationModel> accumulator = std::nullopt,
    unsigned tiledLanes = 0);

/// The accumulation of options `accumulator` and `accumulator-bits` (see
/// fp8-lower-to-linalg): std::nullopt for exact f32 partial sums. Fails,
/// with a message naming the options, for accumulator-bits > 24 or for
/// accumulator-bits != 0 together with accumulator=sm90|sm89, or with an
/// `accumulator` that was given explicitly (`accumulatorGiven`).
FailureOr<std::optional<tensorcore::AccumulationModel>>
getAccumulationModel(AccumulatorModel accumulator, unsigned accumulatorBits,
                     bool accumulatorGiven, std::string &error);

} // namespace fp8
} // namespace mlir

#endif // FP8_CONVERSION_FP8TOLINALG_FP8TOLINALG_H
