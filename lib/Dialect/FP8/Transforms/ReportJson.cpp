//===- ReportJson.cpp - fp8-report's JSON ---------------------------------===//
//
// fp8-report{format=json}: every reported op one by one (the table groups
// them), its modelled kernel, the totals, the training step, and the FP8
// ops with their types (ReportFP8Ops.h). Renders a Report (Report.h).
//
//===----------------------------------------------------------------------===//
#include "Report.h"
#include "ReportFP8Ops.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::fp8;

namespace {

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
                            {"cluster", 1},
                            {"consumers", c.consumers},
                            {"group_m", c.groupM},
                            {"ctas", cost.ctas},
                            {"waves", cost.waves},
                            {"modelled_us", cost.us},
                            {"modelled_tflops", cost.tflops},
                            {"hbm_bytes", cost.hbmBytes},
                            {"why_fewer_ctas", r.kernel->fewerCtasReason}};
}

llvm::json::Array opsJson(ArrayRef<ReportRow> rows) {
  llvm::json::Array ops;
  for (const ReportRow &r : rows)
    ops.push_back(llvm::json::Object{
        {"function", r.func},
        {"op", r.op},
        {"location", r.location},
        {"role", stringifyRole(r.role)},
        {"precision", precisionName(r.precision)},
        {"reason", r.reason},
        {"shape", r.shape},
        {"matmul", r.isMatmul},
        {"count", r.count.toJson()},
        {"groups", r.groups},
        {"flops", r.flops.toJson()},
        {"flops_per_token", r.flopsPerToken.toJson()},
        {"weight_bytes_before", r.weightBytesBefore.toJson()},
        {"weight_bytes_after", r.weightBytesAfter.toJson()},
        {"gemm", r.gemm ? llvm::json::Value(stringifyGemmKind(*r.gemm))
                        : llvm::json::Value(nullptr)},
        {"kernel_config", kernelConfigJson(r)}});
  return ops;
}

llvm::json::Value trainingJson(const Report &report) {
  if (!report.training)
    return nullptr;
  llvm::json::Object perKind;
  for (GemmKind g : {GemmKind::fprop, GemmKind::dgrad, GemmKind::wgrad}) {
    const GemmKindTotals &k = report.kindTotals(g);
    perKind[stringifyGemmKind(g)] =
        llvm::json::Object{{"count", k.count.toJson()},
                           {"fp8_flops", k.fp8.toJson()},
                           {"high_flops", k.high.toJson()}};
  }
  const CachedActivations &cached = report.cached;
  const TrainingState &state = report.state;
  Count elements = report.weightElements;
  return llvm::json::Object{
      {"gemms", std::move(perKind)},
      {"saved_activation_bytes_before", report.savedBytesBefore.toJson()},
      {"saved_activation_bytes_after", report.savedBytesAfter.toJson()},
      {"cached_activations",
       llvm::json::Object{{"tensors", cached.tensors},
                          {"elements", cached.elements.toJson()},
                          {"high_bytes", cached.highBytes.toJson()},
                          {"bf16_bytes", (cached.elements * 2).toJson()},
                          {"fp8_bytes", cached.fp8Bytes.toJson()}}},
      {"weight_elements", elements.toJson()},
      {"master_weights", state.master},
      {"weight_gradients", state.grads},
      {"optimizer_moments", state.moments},
      {"master_weight_bytes", (elements * state.masterBytes).toJson()},
      {"weight_gradient_bytes", (elements * state.gradBytes).toJson()},
      {"optimizer_moment_bytes", (elements * state.momentBytes).toJson()}};
}

llvm::json::Object totalsJson(const Report &report) {
  return llvm::json::Object{
      {"matmul_flops", report.matmulFlops.toJson()},
      {"fp8_matmul_flops", report.fp8Flops.toJson()},
      {"matmul_flops_per_token", report.matmulFlopsPerToken.toJson()},
      {"fp8_matmul_flops_per_token", report.fp8FlopsPerToken.toJson()},
      {"tokens", report.tokens},
      {"fp8_matmul_flop_share", report.fp8Share / 100.0},
      {"weight_bytes_before", report.weightBytesBefore.toJson()},
      {"weight_bytes_after", report.weightBytesAfter.toJson()}};
}

} // namespace

void mlir::fp8::printReportJson(const Report &report, ModuleOp module,
                                llvm::raw_ostream &os) {
  llvm::json::Object root{
      {"policy", report.policy.getName().getValue().str()},
      {"policy_from_module", report.policyFromModule},
      {"chip", report.chip},
      {"ops", opsJson(report.rows)},
      {"totals", totalsJson(report)},
      {"training", trainingJson(report)},
      {"fp8_ops", fp8OpsJson(module, [](Operation *op, llvm::json::Object &o) {
         auto func = op->getParentOfType<FunctionOpInterface>();
         o["function"] =
             cast<SymbolOpInterface>(func.getOperation()).getName().str();
         o["location"] = locationString(op->getLoc());
         o["count"] = runsPerCall(op, func.getOperation()).toJson();
       })}};
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
}
