//===- Kernels.cpp - the generated kernels behind the Python module -------===//
//
// What the Python module reads of the sm_90a kernels of a lowered module:
// their #fp8.gemm_kernel / #fp8.quantize_kernel / #fp8.transpose_kernel
// attributes (gpuKernels), and
// runs of them on the CPU emulator (emulateGemm, emulateQuantize).
//
//===----------------------------------------------------------------------===//
#include "Core.h"
#include "CoreInternal.h"

#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/IR/ShapeString.h"
#include "fp8/Emulator/Emulator.h"
#include "fp8/Emulator/Kernels.h"
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

#include <type_traits>

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

fp8py::GemmKernelInfo describe(fp8::GemmKernelAttr attr, std::string symbol) {
  fp8py::GemmKernelInfo g;
  g.symbol = std::move(symbol);
  g.attribute = attrString(attr);
  g.config = attr.getConfig();
  g.a = typeString(attr.getA());
  g.b = typeString(attr.getB());
  g.d = typeString(attr.getD());
  g.c = typeString(attr.getC());
  g.aScale = typeString(attr.getAScale());
  g.bScale = typeString(attr.getBScale());
  g.bScaleRows = attr.getBScaleRows();
  if (attr.getLayout())
    g.layout = fp8::stringifyGroupLayout(*attr.getLayout()).str();
  g.groups = attr.getGroups();
  g.counts = attr.hasCounts();
  g.multicast = attr.getMulticast();
  g.swapAB = attr.getSwapAb() && attr.getSwapAb().getValue();
  g.epilogue = fp8::stringifyKernelEpilogue(attr.getEpilogue()).str();
  g.q = typeString(attr.getQ());
  g.qEps = floatValue(attr.getQEps());
  g.qPow2 = attr.getQPow2() && attr.getQPow2().getValue();
  if (attr.getChip())
    g.chip = attr.getChip().getValue().str();
  g.ctas = attr.getCtas();
  g.modelledUs = floatValue(attr.getModelledUs());
  g.modelledTflops = floatValue(attr.getModelledTflops());
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

/// Appends the kernel `op` describes, if any and not seen yet.
void addKernel(Operation *op, llvm::StringSet<> &seen,
               std::vector<fp8py::KernelInfo> &out) {
  Attribute attr = op->getAttr(fp8::FP8Dialect::kKernelAttrName);
  std::string symbol = attr ? kernelSymbol(op) : "";
  if (symbol.empty() || seen.contains(symbol))
    return;
  if (auto g = dyn_cast<fp8::GemmKernelAttr>(attr))
    out.push_back(describe(g, symbol));
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

namespace {

/// Parses `text` and translates its kernels for the emulator.
std::unique_ptr<fp8::emu::KernelModule>
loadKernels(MLIRContext &ctx, const std::string &text, std::string &error) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &ctx);
  if (!module) {
    error = "fp8-emu: error: the kernel module does not parse";
    return nullptr;
  }
  auto km = fp8::emu::KernelModule::create(*module, error);
  if (!km)
    error = "fp8-emu: error: " + error;
  return km;
}

/// loadKernels, then `kernel`'s description read by `getDesc` into `desc`;
/// a null module and `error` naming `what` it is not when it has none.
template <typename Desc>
std::unique_ptr<fp8::emu::KernelModule>
loadKernel(MLIRContext &ctx, const std::string &text, const std::string &kernel,
           bool (*getDesc)(const fp8::emu::KernelModule &, const std::string &,
                           Desc &),
           const char *what, Desc &desc, std::string &error) {
  auto km = loadKernels(ctx, text, error);
  if (km && !getDesc(*km, kernel, desc)) {
    // A quantize kernel the single-launch runner does not run says why.
    std::string why;
    if constexpr (std::is_same_v<Desc, fp8::emu::QuantizeKernelDesc>)
      why = fp8::emu::quantizeRunnerRefusal(*km, kernel);
    error = "fp8-emu: error: " +
            (why.empty() ? "'" + kernel + "' is not a " + what : why);
    return nullptr;
  }
  return km;
}

/// The error of a kernel compiled for sizes `compiled` (the first one
/// `dynamicFirst`: any size) run on `shape`; "" when they agree.
std::string checkCompiledFor(const std::string &kernel,
                             ArrayRef<int64_t> compiled,
                             ArrayRef<int64_t> shape, int64_t dynamicFirst) {
  for (auto [i, c] : llvm::enumerate(compiled))
    if (c != shape[i] && !(i == 0 && c == dynamicFirst))
      return "fp8-emu: error: kernel '" + kernel + "' is not compiled for " +
             fp8::shapeString(shape);
  return "";
}

} // namespace

std::string fp8py::emulateGemm(const std::string &kernelsIr,
                               const std::string &kernel, int64_t m, int64_t n,
                               int64_t k, const uint8_t *a, const float *sa,
                               const uint8_t *b, const float *sb, uint32_t *out,
                               uint64_t seed, int smCount,
                               const std::string &accumulator,
                               const std::atomic<bool> *stop) {
  using namespace fp8::emu;
  MLIRContext ctx(getRegistry());
  std::string error;
  fp8::emu::GemmKernelDesc spec;
  auto km = loadKernel(ctx, kernelsIr, kernel, getGemmKernelDesc,
                       "GEMM kernel (no #fp8.gemm_kernel)", spec, error);
  if (!km)
    return error;
  error = checkCompiledFor(kernel, {spec.m, spec.n, spec.k}, {m, n, k},
                           fp8::GemmKernelConfig::kDynamicM);
  if (!error.empty())
    return error;
  fp8::GemmKernelConfig cfg;
  getGemmKernelConfig(*km, kernel, m, cfg);
  GemmOperands ops;
  ops.m = m;
  ops.n = n;
  ops.k = k;
  int64_t kb = cfg.kBlocks();
  ops.a.assign(a, a + m * k);
  ops.b.assign(b, b + n * k);
  ops.sa.assign(sa, sa + m * kb);
  // B scales [ceil(N/128), KB], or [N, KB] for a per-column-scale kernel.
  ops.bBlockRows = cfg.bScalesPerColumn ? 1 : 128;
  ops.sb.assign(sb, sb + cfg.bScaleRows() * kb);
  Options opt;
  opt.seed = seed;
  opt.stop = stop;
  if (!getAccumulator(accumulator, opt.accumulate))
    return "fp8-emu: error: unknown accumulation model '" + accumulator + "'";
  std::vector<uint32_t> result;
  LaunchResult r =
      runGemm(*km, kernel, cfg, smCount, spec.out, ops, result, opt);
  if (!r.ok)
    return r.report;
  std::copy(result.begin(), result.end(), out);
  return "";
}

std::string fp8py::emulateQuantize(const std::string &kernelsIr,
                                   const std::string &kernel, int64_t rows,
                                   int64_t cols, const uint32_t *x,
                                   uint8_t *codes, uint32_t *scales,
                                   uint64_t seed,
                                   const std::atomic<bool> *stop) {
  using namespace fp8::emu;
  MLIRContext ctx(getRegistry());
  std::string error;
  QuantizeKernelDesc spec;
  auto km =
      loadKernel(ctx, kernelsIr, kernel, getQuantizeKernelDesc,
                 "quantize kernel (no #fp8.quantize_kernel)", spec, error);
  if (!km)
    return error;
  error = checkCompiledFor(kernel, {spec.rows, spec.cols}, {rows, cols},
                           fp8::QuantizeKernelConfig::kDynamicRows);
  if (!error.empty())
    return error;
  fp8::QuantizeKernelConfig cfg =
      fp8::makeQuantizeKernelConfig(rows, cols, spec.blockRows);
  Options opt;
  opt.seed = seed;
  opt.stop = stop;
  std::vector<uint32_t> in(x, x + rows * cols), sc;
  std::vector<uint8_t> q;
  LaunchResult r =
      runQuantize(*km, kernel, cfg, spec.input == fp8::KernelElementType::bf16,
                  in, q, sc, opt);
  if (!r.ok)
    return r.report;
  std::copy(q.begin(), q.end(), codes);
  std::copy(sc.begin(), sc.end(), scales);
  return "";
}
