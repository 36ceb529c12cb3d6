//===- ReportJson.cpp - fp8-report's JSON ---------------------------------===//
//
// fp8-report{format=json}: every reported op one by one (the table groups
// them), its modelled kernel, the totals, the training step, and the FP8
// ops with their types. Formats a Report (ReportData.h) and nothing else:
// each key prints one field.
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/ReportData.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::fp8;

namespace {

/// An integer while exact, else a number with an exponent.
llvm::json::Value json(Count c) {
  return c.isExact() ? llvm::json::Value(c.exactValue())
                     : llvm::json::Value(c.value());
}

template <typename T> llvm::json::Value orNull(const std::optional<T> &v) {
  return v ? llvm::json::Value(*v) : llvm::json::Value(nullptr);
}

/// The model's configuration of an FP8 GEMM (null for other rows): the
/// fields of the #fp8.gemm_kernel of fp8-lower-to-nvvm config=auto, the
/// problem it was modelled at, and why it leaves SMs idle, if it does.
llvm::json::Value kernelConfigJson(const ReportRow &r) {
  if (!r.kernel)
    return nullptr;
  const GemmKernelConfig &c = r.kernel->config;
  const GemmCost &cost = r.kernel->cost;
  return llvm::json::Object{{"m", c.m},
                            {"n", c.n},
                            {"k", c.k},
                            {"block_m", c.blockM},
                            {"block_n", c.blockN},
                            {"block_k", c.blockK},
                            {"stages", c.stages},
                            {"cluster", c.cluster},
                            {"consumers", c.consumers},
                            {"group_m", c.groupM},
                            {"overlap", c.overlap},
                            {"ctas", cost.ctas},
                            {"waves", cost.waves},
                            {"modelled_us", cost.us},
                            {"modelled_tflops", cost.tflops},
                            {"hbm_bytes", cost.hbmBytes},
                            {"why_fewer_ctas", r.kernel->fewerCtasReason}};
}

llvm::json::Array opsJson(const std::vector<ReportRow> &rows) {
  llvm::json::Array ops;
  for (const ReportRow &r : rows)
    ops.push_back(
        llvm::json::Object{{"function", r.function},
                           {"op", r.op},
                           {"location", r.location},
                           {"role", r.role},
                           {"precision", r.precision},
                           {"reason", r.reason},
                           {"shape", r.shape},
                           {"matmul", r.matmul},
                           {"count", json(r.count)},
                           {"groups", r.groups},
                           {"flops", json(r.flops)},
                           {"flops_per_token", json(r.flopsPerToken)},
                           {"weight_bytes_before", json(r.weightBytesBefore)},
                           {"weight_bytes_after", json(r.weightBytesAfter)},
                           {"gemm", orNull(r.gemm)},
                           {"kernel_config", kernelConfigJson(r)}});
  return ops;
}

llvm::json::Object kindJson(const GemmKindTotals &k) {
  return llvm::json::Object{{"count", json(k.count)},
                            {"fp8_flops", json(k.fp8Flops)},
                            {"high_flops", json(k.highFlops)}};
}

llvm::json::Value trainingJson(const std::optional<ReportTraining> &training) {
  if (!training)
    return nullptr;
  const ReportTraining &t = *training;
  const CachedActivations &cached = t.cachedActivations;
  return llvm::json::Object{
      {"gemms", llvm::json::Object{{"fprop", kindJson(t.gemms.fprop)},
                                   {"dgrad", kindJson(t.gemms.dgrad)},
                                   {"wgrad", kindJson(t.gemms.wgrad)}}},
      {"saved_activation_bytes_before", json(t.savedActivationBytesBefore)},
      {"saved_activation_bytes_after", json(t.savedActivationBytesAfter)},
      {"cached_activations",
       llvm::json::Object{{"tensors", cached.tensors},
                          {"elements", json(cached.elements)},
                          {"high_bytes", json(cached.highBytes)},
                          {"bf16_bytes", json(cached.bf16Bytes)},
                          {"fp8_bytes", json(cached.fp8Bytes)}}},
      {"weight_elements", json(t.weightElements)},
      {"master_weights", t.masterWeights},
      {"weight_gradients", t.weightGradients},
      {"optimizer_moments", t.optimizerMoments},
      {"master_weight_bytes", json(t.masterWeightBytes)},
      {"weight_gradient_bytes", json(t.weightGradientBytes)},
      {"optimizer_moment_bytes", json(t.optimizerMomentBytes)}};
}

llvm::json::Object totalsJson(const ReportTotals &t) {
  return llvm::json::Object{
      {"matmul_flops", json(t.matmulFlops)},
      {"fp8_matmul_flops", json(t.fp8MatmulFlops)},
      {"matmul_flops_per_token", json(t.matmulFlopsPerToken)},
      {"fp8_matmul_flops_per_token", json(t.fp8MatmulFlopsPerToken)},
      {"tokens", t.tokens},
      {"fp8_matmul_flop_share", t.fp8MatmulFlopShare},
      {"weight_bytes_before", json(t.weightBytesBefore)},
      {"weight_bytes_after", json(t.weightBytesAfter)}};
}

/// A size list with `?` as null.
llvm::json::Array sizesJson(const std::vector<std::optional<int64_t>> &dims) {
  llvm::json::Array a;
  for (std::optional<int64_t> d : dims)
    a.push_back(orNull(d));
  return a;
}

llvm::json::Object typeJson(const ReportTensorType &t) {
  llvm::json::Object o{{"shape", sizesJson(t.shape)},
                       {"element_type", t.elementType}};
  if (t.scaled) {
    o["block"] = sizesJson(t.block);
    o["scale_type"] = t.scaleType;
  }
  return o;
}

llvm::json::Object fp8OpJson(const ReportFP8Op &op) {
  llvm::json::Object o{{"op", op.op},
                       {"function", op.function},
                       {"location", op.location},
                       {"count", json(op.count)},
                       {"result", typeJson(op.result)}};
  if (op.input)
    o["input"] = typeJson(*op.input);
  if (op.scaleMode)
    o["scale_mode"] = *op.scaleMode;
  if (op.isRequantize())
    o["permutation"] = op.permutation
                           ? llvm::json::Value(sizesJson(*op.permutation))
                           : llvm::json::Value(nullptr);
  if (op.a) {
    o["a"] = typeJson(*op.a);
    o["b"] = typeJson(*op.b);
    o["promote_interval"] = op.promoteInterval;
    o["accumulator"] = op.accumulator;
  }
  return o;
}

} // namespace

std::string mlir::fp8::reportJson(const Report &report) {
  llvm::json::Array fp8Ops;
  for (const ReportFP8Op &op : report.fp8Ops)
    fp8Ops.push_back(fp8OpJson(op));
  llvm::json::Object root{{"policy", report.policy.name},
                          {"policy_from_module", report.policy.fromModule},
                          {"chip", report.chip},
                          {"ops", opsJson(report.rows)},
                          {"totals", totalsJson(report.totals)},
                          {"training", trainingJson(report.training)},
                          {"fp8_ops", std::move(fp8Ops)}};
  return llvm::formatv("{0:2}", llvm::json::Value(std::move(root))).str() +
         "\n";
}
