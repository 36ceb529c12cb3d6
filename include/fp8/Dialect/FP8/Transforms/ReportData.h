//===- ReportData.h - fp8-report's result as plain data ---------*- C++ -*-===//
//
// What fp8-report reports, as plain C++ (no MLIR type): filled by
// collectReport() (Report.h), rendered by reportTable() and reportJson(),
// which only format what is here, and bound field by field by the Python
// package (fp8_mlir.Report). Each field is documented with the key of the
// JSON document that prints it (docs/design.md); a field without a key is
// read by the table or by Python only.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_DIALECT_FP8_TRANSFORMS_REPORTDATA_H
#define FP8_DIALECT_FP8_TRANSFORMS_REPORTDATA_H

#include "fp8/Dialect/FP8/Transforms/ReportCount.h"
#include "fp8/Target/Hopper/GemmCostModel.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace mlir::fp8 {

/// A size the IR leaves to run time (MLIR's ShapedType::kDynamic).
constexpr int64_t kReportDynamic = std::numeric_limits<int64_t>::min();

/// The policy the report applied, its fields as printed in the IR.
struct ReportPolicy {
  std::string name;            // "policy"
  bool fromModule = false;     // "policy_from_module"
  std::string format;          // f8E4M3FN
  std::string activationBlock; // 1x128
  std::string weightBlock;     // 128x128
  std::string scaleType, high; // f32, bf16
};

/// One reported op: a contraction, or an op of a sensitive role ("ops").
/// FLOPs and bytes are totals over the `count` runs per call.
struct ReportRow {
  std::string function, op, location; // "function", "op", "location"
  std::string role;                   // "role"
  /// "precision": fp8, bf16, f32, or the element type the op computes in
  /// where those do not name it (f64, f16, an FP8 type, an integer or a
  /// complex type); "" for an op without an element type or precision.
  std::string precision;
  std::string reason, shape; // "reason", "shape" (MxNxK of a matmul)
  bool matmul = false;       // "matmul"
  /// "count": runs per call of the function (the static trip counts of
  /// the loops around the op: the experts of a grouped linear).
  Count count = 1;
  /// "groups": of an fp8.grouped_scaled_matmul (m, n, k one group's), else 1.
  int64_t groups = 1;
  Count flops = 0; // "flops"
  /// "flops_per_token": of a GEMM with one dynamic (token) dimension left
  /// per token (M of an fprop or dgrad, K of a wgrad); 0 otherwise.
  Count flopsPerToken = 0;
  Count weightBytesBefore = 0, weightBytesAfter = 0; // "weight_bytes_*"
  /// Elements of the weight counted in weightBytesBefore.
  Count weightElements = 0;
  /// "gemm": the GEMM of a linear's training step (fp8.gemm: "fprop",
  /// "dgrad", "wgrad"), if any.
  std::optional<std::string> gemm;
  /// M x N x K of a contraction (kReportDynamic: dynamic).
  int64_t m = 0, n = 0, k = 0;
  /// "kernel_config": the sm_90a kernel the cost model chooses for an FP8
  /// GEMM of static shape (at `tokens` rows for a dynamic M) on the chip.
  std::optional<GemmChoice> kernel;
};

/// "totals".
struct ReportTotals {
  Count matmulFlops = 0, fp8MatmulFlops = 0;                 // "*_flops"
  Count matmulFlopsPerToken = 0, fp8MatmulFlopsPerToken = 0; // "*_per_token"
  int64_t tokens = 0; // "tokens": the option (0: per token)
  /// The FP8 share of the matmul FLOPs (of the per-token FLOPs when dynamic
  /// GEMMs are left per token): in percent, as the table shows it, and
  /// that / 100 ("fp8_matmul_flop_share").
  double fp8SharePercent = 0, fp8MatmulFlopShare = 0;
  Count weightBytesBefore = 0, weightBytesAfter = 0; // "weight_bytes_*"
};

/// One GEMM kind's count and FLOPs in FP8 and in high precision
/// ("count", "fp8_flops", "high_flops").
struct GemmKindTotals {
  Count count = 0, fp8Flops = 0, highFlops = 0;
};

/// "gemms": per GEMM kind of the training step.
struct ReportGemms {
  GemmKindTotals fprop, dgrad, wgrad;
};

/// "cached_activations": what the forwards of a split step return in place
/// of the activations the weight gradients read, after
/// fp8-cache-activations (measured from the result types).
struct CachedActivations {
  int64_t tensors = 0;
  Count elements = 0, highBytes = 0; // "elements", "high_bytes"
  Count bf16Bytes = 0, fp8Bytes = 0; // "bf16_bytes", "fp8_bytes"
};

/// "training": a training graph's step (some matmul carries fp8.gemm).
struct ReportTraining {
  ReportGemms gemms;
  /// "saved_activation_bytes_before" / "_after": the weight gradients' X
  /// in high precision and as cached (FP8 codes + scales, or high).
  Count savedActivationBytesBefore = 0, savedActivationBytesAfter = 0;
  CachedActivations cachedActivations;
  Count weightElements = 0; // "weight_elements"
  /// "master_weights", "weight_gradients", "optimizer_moments": the element
  /// types the recipe keeps them in, and their bytes ("*_bytes").
  std::string masterWeights, weightGradients, optimizerMoments;
  Count masterWeightBytes = 0, weightGradientBytes = 0,
        optimizerMomentBytes = 0;
};

/// A tensor type of an FP8 op: "shape" and "element_type"; an !fp8.scaled
/// one also "block" and "scale_type". A size `?` is std::nullopt.
struct ReportTensorType {
  std::vector<std::optional<int64_t>> shape;
  std::string elementType;
  bool scaled = false;
  std::vector<std::optional<int64_t>> block;
  std::string scaleType;
};

/// "fp8_ops": an fp8.quantize, fp8.requantize, fp8.scaled_matmul or
/// fp8.grouped_scaled_matmul with its types and attributes as data (keys
/// present by op: "input" and "scale_mode" of the quantizations,
/// "permutation" of fp8.requantize, "a", "b", "promote_interval" and
/// "accumulator" of the matmuls).
struct ReportFP8Op {
  std::string op, function, location; // "op", "function", "location"
  Count count = 1;                    // "count"
  ReportTensorType result;            // "result"
  std::optional<ReportTensorType> input, a, b;
  std::optional<std::string> scaleMode;
  /// "permutation" of a requantize (std::nullopt: none, JSON null).
  std::optional<std::vector<std::optional<int64_t>>> permutation;
  int64_t promoteInterval = 0;
  bool accumulator = false; // whether a C operand is added

  /// Whether the op has a "permutation" (null or not).
  bool isRequantize() const { return op == "fp8.requantize"; }
};

/// Everything fp8-report prints.
struct Report {
  /// The module's policy, or the default preset (deepseek-v3) when it has
  /// none.
  ReportPolicy policy;
  std::string chip;                       // "chip": the cost model's
  std::vector<ReportRow> rows;            // "ops", in program order
  ReportTotals totals;                    // "totals"
  std::optional<ReportTraining> training; // "training" (null: none)
  std::vector<ReportFP8Op> fp8Ops;        // "fp8_ops", in program order
};

/// The table a user reads.
std::string reportTable(const Report &report);
/// The JSON document of docs/design.md.
std::string reportJson(const Report &report);

} // namespace mlir::fp8

#endif // FP8_DIALECT_FP8_TRANSFORMS_REPORTDATA_H
