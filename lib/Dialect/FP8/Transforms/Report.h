//===- Report.h - fp8-report's result and its printers ----------*- C++ -*-===//
//
// fp8-report in three steps: collectReport() analyses a module into a
// Report (plain data: one row per reported op, the totals), and the text
// and JSON printers render it; neither printer looks at the analysis, and
// the analysis prints nothing.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_LIB_DIALECT_FP8_TRANSFORMS_REPORT_H
#define FP8_LIB_DIALECT_FP8_TRANSFORMS_REPORT_H

#include "ReportCount.h"

#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/IR/ShapeString.h"
#include "fp8/Target/Hopper/GemmCostModel.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::fp8 {

class RoleAnalysis;

/// One reported op: a contraction, or an op of a sensitive role.
struct ReportRow {
  std::string op, location, reason, shape, func;
  Role role = Role::other;
  /// None for an op the precision pass left without one (integer ops).
  std::optional<Precision> precision;
  bool isMatmul = false;
  Count flops = 0;
  /// FLOPs per token of a GEMM with one dynamic (token) dimension: M of an
  /// fprop or dgrad, K of a wgrad (2 * the other two); 0 when all static.
  Count flopsPerToken = 0;
  Count weightBytesBefore = 0, weightBytesAfter = 0;
  /// Elements of the weight counted in weightBytesBefore.
  Count weightElements = 0;
  /// How many times the op runs per call of its function (the static trip
  /// counts of the loops around it: the experts of a grouped linear); the
  /// FLOPs and weight bytes above are totals over all of them.
  Count count = 1;
  /// Groups of an fp8.grouped_scaled_matmul (one GEMM of G per-group
  /// products; m, n, k are one group's), 1 otherwise.
  int64_t groups = 1;
  /// The GEMM of a linear's training step (fp8.gemm), if any.
  std::optional<GemmKind> gemm;
  /// M x N x K of a contraction (M dynamic: ShapedType::kDynamic).
  int64_t m = 0, n = 0, k = 0;
  /// The sm_90a kernel configuration the cost model chooses for an FP8 GEMM
  /// of static shape (at `tokens` rows for a dynamic M) on `chip`.
  std::optional<GemmChoice> kernel;
  /// The collection's own links to the IR, read by no printer: the
  /// high-precision values a training GEMM's A and B operands come from
  /// (highPrecisionRoot); for a weight gradient kept in high precision,
  /// which of them is dY as the role analysis paired it.
  Value aRoot, bRoot;
  std::optional<unsigned> gradOperand;
  /// A weight gradient's activation operand X (saved by the forward pass):
  /// its high-precision root, bytes in high precision and as FP8 codes +
  /// 1x128 scales (FP8 activation caching, DeepSeek-V3 §3.3.3), a dynamic
  /// (token) dimension counted at `tokens` (resolveSavedActivations).
  Value savedRoot;
  Count savedBytesBefore = 0, savedBytesAfter = 0;
};

/// What a training recipe keeps in high precision besides the GEMMs: the
/// master weights, the weight gradients and the optimizer (AdamW) moments.
struct TrainingState {
  StringRef master, grads, moments;
  int64_t masterBytes, gradBytes, momentBytes; // per parameter
};

/// What the forwards of a split step return in place of the activations
/// the weight gradients read, after fp8-cache-activations: each result
/// whose attribute `fp8.cached` names the high-precision type it replaces
/// (the codes) and the result after it (the scales). Measured from the
/// result types, not modelled.
struct CachedActivations {
  int64_t tensors = 0;
  Count elements = 0, highBytes = 0, fp8Bytes = 0;
};

/// One GEMM kind's count and FLOPs in FP8 and in high precision.
struct GemmKindTotals {
  Count count = 0, fp8 = 0, high = 0;
};

/// Everything fp8-report prints.
struct Report {
  /// The module's policy, or the deepseek-v3 preset (policyFromModule
  /// false) when it has none.
  PolicyAttr policy;
  bool policyFromModule = false;
  /// The cost model's chip, and the `tokens` option (0: per token).
  std::string chip;
  int64_t tokens = 0;
  /// In program order, FLOPs and bytes already multiplied by `count`.
  std::vector<ReportRow> rows;

  Count matmulFlops = 0, fp8Flops = 0;
  Count matmulFlopsPerToken = 0, fp8FlopsPerToken = 0;
  Count weightBytesBefore = 0, weightBytesAfter = 0;
  /// The FP8 share of the matmul FLOPs in percent (of the per-token FLOPs
  /// when dynamic GEMMs are left per token).
  double fp8Share = 0;

  /// True when some matmul carries fp8.gemm (a training graph); the
  /// fields below describe the training step.
  bool training = false;
  /// Indexed by GemmKind (fprop, dgrad, wgrad).
  GemmKindTotals gemmKinds[3];
  Count savedBytesBefore = 0, savedBytesAfter = 0;
  CachedActivations cached;
  Count weightElements = 0;
  TrainingState state;

  const GemmKindTotals &kindTotals(GemmKind g) const {
    return gemmKinds[static_cast<unsigned>(g)];
  }
};

/// Analyses `module` (its functions with a body) under `policy`.
Report collectReport(ModuleOp module, PolicyAttr policy, bool policyFromModule,
                     const RoleAnalysis &roles, const ChipSpec &chip,
                     int64_t tokens);

/// The table a user reads.
void printReportTable(const Report &report, llvm::raw_ostream &os);
/// The JSON document of docs/design.md; its "fp8_ops" list is read from
/// `module` (the FP8 ops themselves, not the analysis).
void printReportJson(const Report &report, ModuleOp module,
                     llvm::raw_ostream &os);

/// The precision column: the precision's name, or "" when it has none.
inline StringRef precisionName(std::optional<Precision> precision) {
  return precision ? stringifyPrecision(*precision) : StringRef();
}

/// A row's location: the name of a NameLoc, "file:line" of a
/// FileLineColLoc, the first such inside a fused or call-site location.
std::string locationString(Location loc);
/// The product of the static trip counts of the loops around `op` inside
/// `func`.
Count runsPerCall(Operation *op, Operation *func);

} // namespace mlir::fp8

#endif // FP8_LIB_DIALECT_FP8_TRANSFORMS_REPORT_H
