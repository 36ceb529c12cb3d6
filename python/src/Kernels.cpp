//===- Kernels.cpp - the generated kernels behind the Python module -------===//
//
// What the Python module reads of the sm_90a kernels of a lowered module:
// their #fp8.gemm_kernel / #fp8.quantize_kernel / #fp8.transpose_kernel
// attributes (gpuKernels).
//
//===----------------------------------------------------------------------===//
#include "Core.h"
#include "CoreInternal.h"

#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/IR/ShapeString.h"
#include "fp8/Tools/CrashReport.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {

std::string typeString(Type type) {
  std::string s;
  if (type) {
    llvm::raw_string_ostream os(s);
    type.print(os);
  }
  return s;
}

std::string attrString(Attribute attr) {
  std::string s;
  llvm::raw_string_ostream os(s);
  attr.print(os);
  return s;
}

std::optional<double> floatValue(FloatAttr attr) {
  if (!attr)
    return std::nullopt;
  return attr.getValueAsDouble();
}

/// The kernel's decision and the cost model's figures for it (null when
/// it has none).
fp8py::GemmKernelInfo describe(fp8::GemmKernelAttr attr, std::string symbol,
                               fp8::KernelModelAttr model) {
  fp8py::GemmKernelInfo g;
  g.symbol = std::move(symbol);
  g.attribute = attrString(attr);
  g.config = attr.getConfig();
  g.a = typeString(attr.getA());
  g.b = typeString(attr.getB());
  g.d = typeString(attr.getD());
  g.c = typeString(attr.getC());
  g.accInit = floatValue(attr.getAccInit());
  g.aScale = typeString(attr.getAScale());
  g.bScale = typeString(attr.getBScale());
  g.bScaleRows = attr.getBScaleRows();
  if (attr.getLayout())
    g.layout = fp8::stringifyGroupLayout(*attr.getLayout()).str();
  if (ShapedType::isDynamic(attr.getGroups()))
    g.groups = std::nullopt;
  else
    g.groups = attr.getGroups();
  g.counts = attr.hasCounts();
  g.multicast = attr.getMulticast();
  g.swapAB = attr.getSwapAb() && attr.getSwapAb().getValue();
  g.epilogue = fp8::stringifyKernelEpilogue(attr.getEpilogue()).str();
  g.q = typeString(attr.getQ());
  g.qEps = floatValue(attr.getQEps());
  g.qPow2 = attr.getQPow2() && attr.getQPow2().getValue();
  if (!model)
    return g;
  g.chip = model.getChip().getValue().str();
  g.ctas = model.getCtas();
  g.modelledUs = floatValue(model.getModelledUs());
  g.modelledTflops = floatValue(model.getModelledTflops());
  return g;
}

fp8py::QuantizeKernelInfo describe(fp8::QuantizeKernelAttr attr,
                                   std::string symbol) {
  fp8py::QuantizeKernelInfo q;
  q.symbol = std::move(symbol);
  q.attribute = attrString(attr);
  q.config = attr.getConfig();
  q.input = typeString(attr.getInput());
  q.fp8 = typeString(attr.getFp8());
  q.scale = typeString(attr.getScale());
  q.scaleMode = fp8::stringifyScaleMode(attr.getScaleMode()).str();
  q.eps = attr.getEps().getValueAsDouble();
  q.transpose = attr.isTranspose();
  return q;
}

fp8py::TransposeKernelInfo describe(fp8::TransposeKernelAttr attr,
                                    std::string symbol) {
  fp8py::TransposeKernelInfo t;
  t.symbol = std::move(symbol);
  t.attribute = attrString(attr);
  t.bits = attr.getBits();
  t.repeatRows = attr.getRepeatRows();
  t.widenE8M0 = attr.getWidenE8m0();
  return t;
}

/// The kernel `op` describes: a kernel itself (its symbol) or a launcher
/// (the kernel its fp8.kernel_ref names); "" for another op.
std::string kernelSymbol(Operation *op) {
  if (auto ref =
          op->getAttrOfType<SymbolRefAttr>(fp8::FP8Dialect::kKernelRefAttrName))
    return ref.getLeafReference().str();
  if (auto name =
          op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
    return name.str();
  return "";
}

/// The cost model's figures for the kernel `op` describes: its own
/// fp8.kernel_model, or a launcher's kernel's.
fp8::KernelModelAttr kernelModel(Operation *op) {
  auto model = op->getAttrOfType<fp8::KernelModelAttr>(
      fp8::FP8Dialect::kKernelModelAttrName);
  auto ref =
      op->getAttrOfType<SymbolRefAttr>(fp8::FP8Dialect::kKernelRefAttrName);
  Operation *kernel =
      model || !ref ? nullptr : SymbolTable::lookupNearestSymbolFrom(op, ref);
  if (kernel)
    model = kernel->getAttrOfType<fp8::KernelModelAttr>(
        fp8::FP8Dialect::kKernelModelAttrName);
  return model;
}

/// Appends the kernel `op` describes, if any and not seen yet.
void addKernel(Operation *op, llvm::StringSet<> &seen,
               std::vector<fp8py::KernelInfo> &out) {
  Attribute attr = op->getAttr(fp8::FP8Dialect::kKernelAttrName);
  std::string symbol = attr ? kernelSymbol(op) : "";
  if (symbol.empty() || seen.contains(symbol))
    return;
  if (auto g = dyn_cast<fp8::GemmKernelAttr>(attr))
    out.push_back(describe(g, symbol, kernelModel(op)));
  else if (auto q = dyn_cast<fp8::QuantizeKernelAttr>(attr))
    out.push_back(describe(q, symbol));
  else if (auto t = dyn_cast<fp8::TransposeKernelAttr>(attr))
    out.push_back(describe(t, symbol));
  else
    return;
  seen.insert(symbol);
}

} // namespace

std::vector<fp8py::KernelInfo> fp8py::readKernels(ModuleOp module,
                                                  bool launchers) {
  std::vector<KernelInfo> out;
  llvm::StringSet<> seen;
  if (launchers) {
    module->walk([&](Operation *op) { addKernel(op, seen, out); });
    return out;
  }
  for (auto kernels : module.getOps<gpu::GPUModuleOp>())
    for (Operation &op : kernels.getBody()->getOperations())
      addKernel(&op, seen, out);
  return out;
}

bool fp8py::gpuKernels(const std::string &ir, std::vector<KernelInfo> &out,
                       std::string &error) {
  out.clear();
  fp8::RecoveredFailure failure = fp8::runRecoverable(
      [&] {
        fp8::setCrashStage("reading the kernels of a module", "");
        MLIRContext ctx(getRegistry(), MLIRContext::Threading::DISABLED);
        std::string firstError;
        ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
          if (firstError.empty() &&
              d.getSeverity() == DiagnosticSeverity::Error)
            firstError = d.str();
          return success();
        });
        OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(ir, &ctx);
        if (!module)
          error = "the module does not parse: " + firstError;
        else
          out = readKernels(*module, /*launchers=*/true);
        fp8::clearCrashStage();
      },
      size_t(256) << 20);
  if (failure.kind != fp8::RecoveredFailure::None)
    error = failure.message;
  return error.empty();
}
