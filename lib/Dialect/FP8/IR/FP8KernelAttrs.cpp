//===- FP8KernelAttrs.cpp - the generated kernels' attributes -------------===//
//
// #fp8.gemm_kernel, #fp8.quantize_kernel, #fp8.transpose_kernel (a kernel's
// decision: verifiers, launch configurations, symbol names) and
// #fp8.kernel_model, and the kernel module's table of kernels by decision.
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/IR/FP8KernelAttrs.h"
#include "fp8/Dialect/FP8/IR/ShapeString.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fp8;

namespace mlir::fp8::detail {
/// A kernel attribute's size: an integer, or `?` (ShapedType::kDynamic) for
/// one known at run time only.
FailureOr<int64_t> parseKernelSize(AsmParser &parser) {
  if (succeeded(parser.parseOptionalQuestion()))
    return ShapedType::kDynamic;
  int64_t v = 0;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseInteger(v))
    return failure();
  // -2^63 is how a run-time size is stored: written out it would read back
  // as `?`.
  if (ShapedType::isDynamic(v))
    return parser.emitError(loc) << "size " << v
                                 << " is out of range (a size known at run "
                                    "time only is written ?)";
  return v;
}
void printKernelSize(AsmPrinter &printer, int64_t v) {
  if (ShapedType::isDynamic(v))
    printer << "?";
  else
    printer << v;
}
} // namespace mlir::fp8::detail

#define GET_ATTRDEF_CLASSES
#include "fp8/Dialect/FP8/IR/FP8KernelAttrs.cpp.inc"

void FP8Dialect::registerKernelAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "fp8/Dialect/FP8/IR/FP8KernelAttrs.cpp.inc"
      >();
}

bool mlir::fp8::detail::isKernelAttrMnemonic(StringRef mnemonic) {
  return llvm::is_contained(
      {GemmKernelAttr::getMnemonic(), QuantizeKernelAttr::getMnemonic(),
       TransposeKernelAttr::getMnemonic(), KernelModelAttr::getMnemonic()},
      mnemonic);
}

OptionalParseResult mlir::fp8::detail::parseKernelAttr(AsmParser &parser,
                                                       StringRef *mnemonic,
                                                       Type type,
                                                       Attribute &value) {
  return generatedAttributeParser(parser, mnemonic, type, value);
}

LogicalResult mlir::fp8::detail::printKernelAttr(Attribute attr,
                                                 AsmPrinter &printer) {
  return generatedAttributePrinter(attr, printer);
}

KernelElementType mlir::fp8::getKernelElementType(Type t) {
  if (isa<Float8E5M2Type>(t))
    return KernelElementType::e5m2;
  if (isa<Float8E4M3FNType>(t))
    return KernelElementType::e4m3;
  return t.isBF16() ? KernelElementType::bf16 : KernelElementType::f32;
}

static bool isBF16OrF32(Type t) { return t && (t.isBF16() || t.isF32()); }

/// The launch configuration of a #fp8.gemm_kernel's fields.
static GemmKernelConfig
makeConfig(int64_t m, int64_t n, int64_t k, int64_t blockM, int64_t blockN,
           int64_t blockK, int64_t stages, int64_t consumers, int64_t groupM,
           int64_t bScaleRows, int64_t scaleK, int64_t cluster, int64_t overlap,
           KernelEpilogue epilogue, BoolAttr tmaStore, int64_t kSplits,
           int64_t waves, Type a, std::optional<OperandMajor> aMajor,
           std::optional<OperandMajor> bMajor, int64_t aHeads, int64_t bHeads,
           int64_t dHeads) {
  GemmKernelConfig c;
  if (a && a.isBF16())
    c.operands = GemmOperandType::bf16;
  // Absent majors are the operand type's defaults (A K-major; B MN-major
  // for bf16, K-major for FP8).
  auto major = [](std::optional<OperandMajor> m, GemmOperandMajor dflt) {
    if (!m)
      return dflt;
    return *m == OperandMajor::mn ? GemmOperandMajor::mn : GemmOperandMajor::k;
  };
  c.aMajor = major(aMajor, GemmOperandMajor::k);
  c.bMajor = major(bMajor, GemmKernelConfig::defaultBMajor(c.operands));
  c.aHeads = aHeads;
  c.bHeads = bHeads;
  c.dHeads = dHeads;
  c.m = ShapedType::isDynamic(m) ? GemmKernelConfig::kDynamicM : m;
  c.n = n;
  c.k = ShapedType::isDynamic(k) ? GemmKernelConfig::kDynamicK : k;
  c.blockM = blockM;
  c.blockN = blockN;
  c.blockK = blockK;
  c.stages = stages;
  c.consumers = consumers;
  c.groupM = groupM;
  c.cluster = cluster;
  c.overlap = overlap;
  c.bScalesPerColumn = bScaleRows == 1;
  c.scaleK = scaleK;
  c.quantizeEpilogue = epilogue == KernelEpilogue::quantize;
  c.tmaStore = tmaStore && tmaStore.getValue();
  c.kSplits = kSplits;
  c.waves = waves;
  // The consumers share what the producer's setmaxnreg gives up.
  if (c.consumers >= 1 && c.consumers <= 4)
    c.consumerRegs =
        GemmKernelConfig::consumerRegsFor(c.consumers, c.producerRegs);
  return c;
}

GemmKernelConfig GemmKernelAttr::getConfig() const {
  return makeConfig(getM(), getN(), getK(), getBlockM(), getBlockN(),
                    getBlockK(), getStages(), getConsumers(), getGroupM(),
                    getBScaleRows(), getScaleK(), getCluster(), getOverlap(),
                    getEpilogue(), getTmaStore(), getKSplits(), getWaves(),
                    getA(), getAMajor(), getBMajor(), getAHeads(), getBHeads(),
                    getDHeads());
}

GemmKernelProblem GemmKernelAttr::getProblem() const {
  GemmKernelProblem p;
  p.a = getA();
  p.b = getB();
  p.d = getD();
  p.c = getC();
  p.accInit = getAccInit();
  p.layout = getLayout();
  p.groups = getGroups();
  p.counts = hasCounts();
  p.swapAB = getSwapAb() && getSwapAb().getValue();
  p.q = getQ();
  if (getQEps())
    p.qEps = getQEps().getValueAsDouble();
  p.qPow2 = getQPow2() && getQPow2().getValue();
  return p;
}

/// The inverse of getConfig (and getProblem): every field of `c` as its
/// parameter. Flags at their default are absent parameters (BoolAttr()),
/// as the parser makes them, so that equal decisions are equal attributes.
GemmKernelAttr GemmKernelAttr::get(MLIRContext *ctx, const GemmKernelProblem &p,
                                   const GemmKernelConfig &c) {
  Builder b(ctx);
  auto flag = [&](bool set) { return set ? b.getBoolAttr(true) : BoolAttr(); };
  Type f32 = b.getF32Type();
  const bool quantize = c.quantizeEpilogue;
  // A major at its default is absent, as the parser makes it.
  auto major = [](GemmOperandMajor m,
                  GemmOperandMajor dflt) -> std::optional<OperandMajor> {
    if (m == dflt)
      return std::nullopt;
    return m == GemmOperandMajor::mn ? OperandMajor::mn : OperandMajor::k;
  };
  return get(ctx,
             c.m == GemmKernelConfig::kDynamicM ? ShapedType::kDynamic : c.m,
             c.n, c.hasDynamicK() ? ShapedType::kDynamic : c.k, p.a, p.b,
             major(c.aMajor, GemmOperandMajor::k),
             major(c.bMajor, GemmKernelConfig::defaultBMajor(c.operands)),
             c.aHeads, c.bHeads, c.dHeads, p.d, p.c, p.accInit, /*a_scale=*/f32,
             /*b_scale=*/f32, c.bScalesPerColumn ? 1 : 128, c.scaleK, p.layout,
             p.groups, flag(p.counts), c.blockM, c.blockN, c.blockK, c.stages,
             c.consumers, c.cluster,
             /*multicast=*/c.cluster, c.groupM, c.overlap, flag(p.swapAB),
             quantize ? KernelEpilogue::quantize : KernelEpilogue::store,
             quantize ? p.q : Type(),
             quantize ? b.getF32FloatAttr(p.qEps) : FloatAttr(),
             flag(quantize && p.qPow2), flag(c.tmaStore), c.kSplits, c.waves);
}

/// The BF16 variant's batch kernel (a linalg.batch_matmul of G batches of M
/// x N x K, the masked layout without counts): KernelNames.h's BF16 name
/// with the batch count in front, `dyn` for a run-time one.
static std::string getBF16BatchGemmKernelName(int64_t g, int64_t m, int64_t n,
                                              int64_t k,
                                              KernelElementType out) {
  std::string name = getBF16GemmKernelName(m, n, k, out);
  StringRef rest = StringRef(name).drop_front(StringRef("fp8_matmul_").size());
  return "fp8_batch_matmul_" +
         (ShapedType::isDynamic(g) ? std::string("dyn") : std::to_string(g)) +
         "x" + rest.str();
}

std::string GemmKernelAttr::getSymbolName() const {
  GemmKernelConfig c = getConfig();
  KernelElementType a = getKernelElementType(getA()),
                    b = getKernelElementType(getB()),
                    d = getKernelElementType(getD());
  std::string name =
      c.hasBF16Operands()
          ? (isGrouped()
                 ? getBF16BatchGemmKernelName(getGroups(), c.m, c.n, c.k, d)
                 : getBF16GemmKernelName(c.m, c.n, c.k, d))
      : isGrouped()
          ? getGroupedGemmKernelName(stringifyGroupLayout(*getLayout()).data(),
                                     getGroups(), c.m, c.n, c.k, a, b, d)
          : getGemmKernelName(c.m, c.n, c.k, a, b, d);
  if (hasCounts())
    name += getGroupedGemmKernelCountsSuffix();
  if (getC())
    name += getGemmKernelAccSuffix(getKernelElementType(getC()));
  if (getAccInit())
    name +=
        getGemmKernelAccInitSuffix(getAccInit().getValue().convertToFloat());
  name += getGemmKernelMajorsSuffix(c.hasBF16Operands() && c.aMNMajor(),
                                    c.hasBF16Operands() && !c.bMNMajor());
  name += getGemmKernelHeadsSuffix(c.aHeads, c.bHeads, c.dHeads);
  if (c.bScalesPerColumn)
    name += getGemmKernelColumnScalesSuffix();
  if (c.hasWholeKScales() && !c.hasBF16Operands())
    name += getGemmKernelWholeKScalesSuffix();
  if (c.scaleK == GemmKernelConfig::kMxScaleK)
    name += getGemmKernelMxScalesSuffix();
  if (getSwapAb() && getSwapAb().getValue())
    name += getGemmKernelSwapABSuffix();
  if (hasQuantizeEpilogue())
    name += getGemmKernelQuantizeSuffix(
        getKernelElementType(getQ()), getQPow2() && getQPow2().getValue(),
        static_cast<float>(getQEps().getValueAsDouble()));
  return name + getGemmKernelConfigSuffix(c);
}

/// Every static size of a kernel below 2^31: the kernels and launchers
/// compute coordinates, row counts and TMA extents in signed 32 bits
/// (GemmKernelConfig::kMaxExtent), so a larger size would wrap in them.
static LogicalResult
verifyKernelExtents(function_ref<InFlightDiagnostic()> emitError,
                    StringRef names, ArrayRef<int64_t> sizes) {
  for (int64_t s : sizes)
    if (!ShapedType::isDynamic(s) && s >= GemmKernelConfig::kMaxExtent)
      return emitError() << "needs " << names
                         << " below 2^31 (the kernels' coordinates and row "
                            "counts are signed 32-bit), got "
                         << s;
  return success();
}

/// The problem and element types of a GEMM kernel.
static LogicalResult
verifyGemmKernelProblem(function_ref<InFlightDiagnostic()> emitError, int64_t m,
                        int64_t n, int64_t k, Type a, Type b, Type d, Type c,
                        Type aScale, Type bScale, int64_t bScaleRows) {
  if ((!ShapedType::isDynamic(m) && m < 1) || n < 1 ||
      (!ShapedType::isDynamic(k) && k < 1))
    return emitError() << "needs m, n and k >= 1 (m and k may be ?), got "
                       << shapeString({m, n, k});
  if (failed(verifyKernelExtents(emitError, "m, n and k", {m, n, k})))
    return failure();
  const bool bf16 = a.isBF16() && b.isBF16();
  if (!bf16 && (!isSupportedFP8Type(a) || !isSupportedFP8Type(b)))
    return emitError() << "needs FP8 operands a and b (f8E4M3FN or f8E5M2) "
                          "or bf16 operands a and b (the BF16 variant), got "
                       << a << " and " << b;
  if (!isBF16OrF32(d) || (c && !isBF16OrF32(c)))
    return emitError() << "needs a bf16 or f32 result d and accumulator c";
  if (!aScale.isF32() || !bScale.isF32())
    return emitError() << "needs f32 scales, got " << aScale << " and "
                       << bScale;
  if (bScaleRows != 128 && bScaleRows != 1)
    return emitError() << "needs b_scale_rows 128 (128 x 128 B blocks) or 1 "
                          "(per-column B scales), got "
                       << bScaleRows;
  return success();
}

/// a_major, b_major: MN-major or K-major operands of the BF16 variant other
/// than its defaults (A k, B mn); FP8 operands are K-major (wgmma
/// transposes .f16/.bf16 only), and a major written at its default would
/// make a second attribute of one kernel.
static LogicalResult
verifyOperandMajors(function_ref<InFlightDiagnostic()> emitError, Type a,
                    std::optional<OperandMajor> aMajor,
                    std::optional<OperandMajor> bMajor) {
  if (!aMajor && !bMajor)
    return success();
  if (!a.isBF16())
    return emitError() << "a_major and b_major need bf16 operands: FP8 "
                          "operands are K-major (wgmma has no transpose of "
                          "FP8 operands; imm-trans-a and imm-trans-b are "
                          ".f16/.bf16 only, PTX ISA wgmma.mma_async)";
  if (aMajor == OperandMajor::k)
    return emitError() << "a_major = k is the bf16 kernel's default: leave "
                          "it out (equal kernels have equal attributes)";
  if (bMajor == OperandMajor::mn)
    return emitError() << "b_major = mn is the bf16 kernel's default: leave "
                          "it out (equal kernels have equal attributes)";
  return success();
}

/// The BF16 batch kernel (a linalg.batch_matmul's): bf16 operands, the
/// masked layout without counts. Head views split its batch.
static bool isBF16BatchKernel(Type a, std::optional<GroupLayout> layout,
                              BoolAttr counts) {
  return a.isBF16() && layout == GroupLayout::masked &&
         !(counts && counts.getValue());
}

/// a_heads, b_heads: head views of the BF16 batch kernel's operands
/// (GemmKernelConfig::aHeads): batch g read at (g / H, g % H) of a [B,
/// rows, H, cols] source, so G must be a static multiple of H; the packed
/// [G, rows, cols] of the FP8 and 2-D kernels has no heads.
static LogicalResult
verifyOperandHeads(function_ref<InFlightDiagnostic()> emitError, Type a,
                   int64_t m, std::optional<GroupLayout> layout, int64_t groups,
                   BoolAttr counts, int64_t aHeads, int64_t bHeads) {
  if (aHeads == 1 && bHeads == 1)
    return success();
  if (aHeads < 1 || bHeads < 1)
    return emitError() << "needs a_heads and b_heads >= 1, got " << aHeads
                       << " and " << bHeads;
  if (!isBF16BatchKernel(a, layout, counts))
    return emitError() << "a_heads and b_heads need the bf16 batch kernel "
                          "(a = bf16, layout = masked without counts): the "
                          "head view splits a batch_matmul's batch";
  if (ShapedType::isDynamic(groups) || ShapedType::isDynamic(m))
    return emitError() << "a_heads and b_heads need static groups and m "
                          "(the head view's batch and row extents)";
  for (int64_t heads : {aHeads, bHeads})
    if (groups % heads != 0)
      return emitError() << "heads " << heads << " do not divide groups "
                         << groups << " (batch g is head g % H of sequence "
                         << "g / H)";
  return success();
}

/// d_heads: the BF16 batch kernel's D written through a head view
/// (GemmKernelConfig::dHeads): batch g's rows at (g / H, row, g % H) of a
/// [B, M, H, N] result, so G must be a static multiple of H and M static.
/// Without C: the op's C is its packed [G, M, N] init, which the kernel
/// would have to read through D's view.
static LogicalResult
verifyResultHeads(function_ref<InFlightDiagnostic()> emitError, Type a,
                  int64_t m, std::optional<GroupLayout> layout, int64_t groups,
                  BoolAttr counts, Type c, int64_t dHeads) {
  if (dHeads == 1)
    return success();
  if (dHeads < 1)
    return emitError() << "needs d_heads >= 1, got " << dHeads;
  if (!isBF16BatchKernel(a, layout, counts))
    return emitError() << "d_heads needs the bf16 batch kernel (a = bf16, "
                          "layout = masked without counts): the head view "
                          "splits a batch_matmul's batch";
  if (ShapedType::isDynamic(groups) || ShapedType::isDynamic(m))
    return emitError() << "d_heads needs static groups and m (the head "
                          "view's batch and row extents)";
  if (groups % dHeads != 0)
    return emitError() << "d_heads " << dHeads << " does not divide groups "
                       << groups << " (batch g is head g % H of sequence "
                       << "g / H)";
  if (c)
    return emitError() << "d_heads needs a kernel without C (c absent): C "
                          "is the op's packed [G, M, N] init, not [B, M, H, "
                          "N] as D";
  return success();
}

/// acc_init: an f32 constant, on the BF16 variant (a = bf16) without C
/// (the kernel's accumulators start at it in C's place; the FP8 kernels
/// start from C or +0.0 and promote, their fill is not folded).
static LogicalResult verifyAccInit(function_ref<InFlightDiagnostic()> emitError,
                                   FloatAttr accInit, Type a, Type c) {
  if (!accInit)
    return success();
  if (!accInit.getType().isF32())
    return emitError() << "needs an f32 acc_init (the accumulators' start), "
                          "got "
                       << accInit.getType();
  if (!a.isBF16() || c)
    return emitError() << "acc_init needs the bf16 variant (a = b = bf16) "
                          "without c (the accumulators start at acc_init in "
                          "C's place)";
  return success();
}

/// The quantize epilogue's fields: present with it only; FP8 codes, a
/// finite non-negative eps; a 2-D kernel with a static K (a run-time K of 0
/// has no launch to write the codes).
static LogicalResult
verifyQuantizeEpilogue(function_ref<InFlightDiagnostic()> emitError,
                       KernelEpilogue epilogue, Type q, FloatAttr qEps,
                       BoolAttr qPow2, bool groupedOrSwapped, bool dynamicK) {
  if (epilogue != KernelEpilogue::quantize) {
    if (q || qEps || qPow2)
      return emitError() << "q, q_eps and q_pow2 need epilogue = quantize";
    return success();
  }
  if (!q || !isSupportedFP8Type(q) || !qEps)
    return emitError() << "epilogue = quantize needs q (f8E4M3FN or f8E5M2) "
                          "and q_eps";
  double eps = qEps.getValueAsDouble();
  if (!(eps >= 0.0) || std::isinf(eps))
    return emitError() << "needs a finite q_eps >= 0, got " << eps;
  if (groupedOrSwapped || dynamicK)
    return emitError() << "epilogue = quantize needs the 2-D kernel (no "
                          "layout, no swap_ab) with a static k";
  return success();
}

LogicalResult GemmKernelAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, int64_t m, int64_t n,
    int64_t k, Type a, Type b, std::optional<OperandMajor> aMajor,
    std::optional<OperandMajor> bMajor, int64_t aHeads, int64_t bHeads,
    int64_t dHeads, Type d, Type c, FloatAttr accInit, Type aScale, Type bScale,
    int64_t bScaleRows, int64_t scaleK, std::optional<GroupLayout> layout,
    int64_t groups, BoolAttr counts, int64_t blockM, int64_t blockN,
    int64_t blockK, int64_t stages, int64_t consumers, int64_t cluster,
    int64_t multicast, int64_t groupM, int64_t overlap, BoolAttr swapAB,
    KernelEpilogue epilogue, Type q, FloatAttr qEps, BoolAttr qPow2,
    BoolAttr tmaStore, int64_t kSplits, int64_t waves) {
  if (failed(verifyGemmKernelProblem(emitError, m, n, k, a, b, d, c, aScale,
                                     bScale, bScaleRows)) ||
      failed(verifyAccInit(emitError, accInit, a, c)) ||
      failed(verifyOperandMajors(emitError, a, aMajor, bMajor)) ||
      failed(verifyOperandHeads(emitError, a, m, layout, groups, counts, aHeads,
                                bHeads)) ||
      failed(verifyResultHeads(emitError, a, m, layout, groups, counts, c,
                               dHeads)))
    return failure();
  if (failed(verifyQuantizeEpilogue(emitError, epilogue, q, qEps, qPow2,
                                    layout.has_value() ||
                                        (swapAB && swapAB.getValue()),
                                    ShapedType::isDynamic(k))))
    return failure();
  // groups = ?: the batch count at run time (the bf16 batch kernel only,
  // checked below).
  const bool dynamicGroups = ShapedType::isDynamic(groups);
  if ((!dynamicGroups && groups < 1) || (!layout && groups != 1))
    return emitError() << "needs groups >= 1, and 1 without a layout, got "
                       << (dynamicGroups ? "?" : std::to_string(groups));
  if (failed(verifyKernelExtents(emitError, "groups", {groups})))
    return failure();
  if (counts && counts.getValue() && layout != GroupLayout::masked)
    return emitError() << "counts needs the masked layout";
  // k_grouped (the MoE Wgrad): B's [1, 128] blocks, one scale per column
  // and K block, as the 2-D Wgrad kernel's; the other layouts' B is an
  // expert's weight in 128 x 128 blocks.
  if (layout == GroupLayout::k_grouped && bScaleRows != 1)
    return emitError() << "the k_grouped layout needs b_scale_rows 1 "
                          "(per-column B scales), got "
                       << bScaleRows;
  if (layout && layout != GroupLayout::k_grouped && bScaleRows != 128)
    return emitError() << "a masked or contiguous grouped kernel needs "
                          "b_scale_rows 128";
  // Swap-AB: the 2-D kernel of B A^T, A's per-row scales as per-column B
  // scales, B's blocks as per-row A scales, both per K block, M and K
  // static.
  if (swapAB && swapAB.getValue() &&
      (layout || bScaleRows != 1 || scaleK != 128 || ShapedType::isDynamic(m) ||
       ShapedType::isDynamic(k)))
    return emitError() << "swap_ab needs a 2-D kernel (no layout) with "
                          "b_scale_rows 1, scale_k 128 and static m and k";
  // A run-time K: the 2-D or k-grouped kernel with a scale per K block (the
  // Wgrad GEMM over a run-time token count).
  if (ShapedType::isDynamic(k) &&
      ((layout && layout != GroupLayout::k_grouped) || scaleK != 128))
    return emitError() << "k = ? needs a 2-D or k_grouped kernel with a "
                          "scale per K block (scale_k 128)";
  // One scale per K block, or one along the whole K (rowwise, per-tensor:
  // then B's are per column, and the kernel reads K block 0's scales).
  // Or mxfp8's a scale per 32 K (b per column; K static, checked above).
  const bool mx =
      scaleK == GemmKernelConfig::kMxScaleK && bScaleRows == 1 && !layout;
  if (scaleK != 128 && !mx && (scaleK != k || bScaleRows != 1 || layout))
    return emitError() << "needs scale_k 128 (a scale per K block), k = " << k
                       << " with b_scale_rows 1 and no layout (one scale "
                          "along the whole K) or 32 with b_scale_rows 1 and "
                          "no layout (mxfp8), got scale_k "
                       << scaleK << ", b_scale_rows " << bScaleRows;
  // The BF16 variant (a = b = bf16): the 2-D kernel, or the batch kernel
  // of a batch_matmul (the masked layout without counts: A [G, M, K], B
  // [G, K, N], C and D [G, M, N]; m may be ?, the run-time M of every
  // batch); no swap-AB. Its tile checks are checkGemmKernelConfig's
  // (block_k 64, no scales to promote).
  const bool bf16 = a.isBF16();
  const bool bf16Batch =
      layout == GroupLayout::masked && !(counts && counts.getValue());
  if (bf16 && ((layout && !bf16Batch) || (swapAB && swapAB.getValue())))
    return emitError() << "bf16 operands need the 2-D kernel (no layout, no "
                          "swap_ab) or the batch kernel (layout = masked "
                          "without counts)";
  // A run-time batch count is the bf16 batch kernel's i32 parameter; the
  // FP8 grouped kernels compile their G in (the B scales' group offsets,
  // the contiguous layout's group test).
  if (dynamicGroups && !(bf16 && bf16Batch))
    return emitError() << "groups = ? needs the bf16 batch kernel (a = b = "
                          "bf16, layout = masked without counts)";
  if (!bf16 && blockK != 128)
    return emitError() << "needs block_k 128 (one promotion interval per "
                          "stage), got "
                       << blockK;
  // A cluster's CTAs share their B tile: each B load multicasts to all of
  // them. The 2-D kernel only (a grouped tile pair could straddle two
  // groups; swap-AB's B is the activation).
  if (cluster < 1 || multicast != cluster)
    return emitError() << "needs multicast = cluster >= 1 (every CTA of a "
                          "cluster receives the B tile), got cluster "
                       << cluster << ", multicast " << multicast;
  if (cluster > 1 && (layout || (swapAB && swapAB.getValue())))
    return emitError() << "cluster " << cluster
                       << " needs the 2-D kernel (no layout, no swap_ab)";
  if (kSplits != 1 && swapAB && swapAB.getValue())
    return emitError() << "k_splits " << kSplits
                       << " needs the kernel without swap_ab";
  if (waves != 1 && swapAB && swapAB.getValue())
    return emitError() << "waves " << waves
                       << " needs the kernel without swap_ab";
  GemmKernelConfig cfg =
      makeConfig(m, n, k, blockM, blockN, blockK, stages, consumers, groupM,
                 bScaleRows, scaleK, cluster, overlap, epilogue, tmaStore,
                 kSplits, waves, a, aMajor, bMajor, aHeads, bHeads, dHeads);
  StringRef why =
      layout ? checkGroupedGemmKernelConfig(cfg) : checkGemmKernelConfig(cfg);
  if (why.empty())
    return success();
  InFlightDiagnostic diag = emitError();
  diag << "invalid tile configuration block_m = " << blockM
       << ", block_n = " << blockN << ", stages = " << stages
       << ", consumers = " << consumers;
  if (overlap)
    diag << ", overlap = " << overlap;
  if (cfg.tmaStore)
    diag << ", tma_store = true";
  if (kSplits != 1)
    diag << ", k_splits = " << kSplits;
  if (waves != 1)
    diag << ", waves = " << waves;
  return diag << ": " << why;
}

QuantizeKernelConfig QuantizeKernelAttr::getConfig() const {
  if (isPerTensor())
    return makePerTensorQuantizeKernelConfig(getRows(), getCols());
  return makeQuantizeKernelConfig(ShapedType::isDynamic(getRows())
                                      ? QuantizeKernelConfig::kDynamicRows
                                      : getRows(),
                                  getCols(), getBlockRows(), getBlockCols());
}

std::string QuantizeKernelAttr::getSymbolName() const {
  QuantizeKernelConfig c = getConfig();
  return getQuantizeKernelName(
             c.rows, c.cols, c.blockRows, getKernelElementType(getInput()),
             getKernelElementType(getFp8()), getScaleMode() == ScaleMode::pow2,
             static_cast<float>(getEps().getValueAsDouble()), isTranspose(),
             c.blockCols, isPerTensor()) +
         (isa<Float8E8M0FNUType>(getScale()) ? "_ue8m0" : "");
}

std::string TransposeKernelAttr::getSymbolName() const {
  return getTransposeKernelName(getBits(), getRepeatRows(), getWidenE8m0());
}

LogicalResult
TransposeKernelAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                            int64_t bits, int64_t repeatRows, bool widenE8M0) {
  if (widenE8M0 && bits != 8)
    return emitError() << "widen_e8m0 needs bits 8 (E8M0 codes in), got "
                       << bits;
  // The kernel moves FP8 codes (one byte), bf16 results (two) or f32
  // scales and results (four).
  if (bits != 8 && bits != 16 && bits != 32)
    return emitError() << "needs bits 8 (FP8 codes), 16 (bf16) or 32 (f32), "
                          "got "
                       << bits;
  if (repeatRows < 1)
    return emitError() << "needs repeat_rows >= 1, got " << repeatRows;
  // The kernel divides its 32-bit row index by it.
  if (failed(verifyKernelExtents(emitError, "repeat_rows", {repeatRows})))
    return failure();
  return success();
}

LogicalResult
QuantizeKernelAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           int64_t rows, int64_t cols, int64_t blockRows,
                           int64_t blockCols, Type input, Type fp8, Type scale,
                           ScaleMode scaleMode, FloatAttr eps,
                           BoolAttr transpose, BoolAttr perTensor) {
  if ((!ShapedType::isDynamic(rows) && rows < 1) || cols < 1)
    return emitError() << "needs rows and cols >= 1 (rows may be ?), got "
                       << shapeString({rows, cols});
  if (failed(verifyKernelExtents(emitError, "rows and cols", {rows, cols})))
    return failure();
  const bool isTranspose = transpose && transpose.getValue();
  if (perTensor && perTensor.getValue()) {
    // One block, the whole tensor, walked in 1x128 tiles: a static row
    // count (the block's), a bf16/f32 input.
    if (isTranspose || ShapedType::isDynamic(rows) || blockRows != rows ||
        blockCols != cols)
      return emitError() << "with per_tensor = true needs a static rows, "
                            "block_rows = rows, block_cols = cols and no "
                            "transpose, got "
                         << blockRows << "x" << blockCols << " blocks of "
                         << shapeString({rows, cols});
  } else if (blockRows != 1 && blockRows != 128)
    return emitError() << "needs block_rows 1 or 128, got " << blockRows;
  // Rowwise blocks span the whole row (a warp per row); MX blocks are 1x32
  // (a warp per block); column blocks are 128x1 (a CTA per 128 x 128
  // region).
  else if (blockCols != 128 && !(blockRows == 128 && blockCols == 1) &&
           (blockRows != 1 ||
            (blockCols != 32 && (blockCols != cols || cols <= 128))))
    return emitError() << "needs block_cols 128, or with block_rows = 1 32 "
                          "(MX) or cols > 128 (rowwise), or with block_rows "
                          "= 128 1 (per column), got "
                       << blockRows << "x" << blockCols << " blocks of " << cols
                       << " columns";
  // E8M0 scales hold powers of two only.
  const bool scaleOk = scale.isF32() || (isa<Float8E8M0FNUType>(scale) &&
                                         scaleMode == ScaleMode::pow2);
  if (isTranspose) {
    // The requantize kernel: one warp per 1x128 output tile, whose 128
    // values come from 128 input rows (QuantizeTranspose.cpp).
    if (!isSupportedFP8Type(input) || !isSupportedFP8Type(fp8) || !scaleOk ||
        blockRows != 1 || blockCols != 128 || ShapedType::isDynamic(rows))
      return emitError() << "with transpose = true needs an FP8 input "
                            "(f8E4M3FN or f8E5M2), FP8 codes, f32 scales "
                            "(or f8E8M0FNU with scale_mode pow2), "
                            "block_rows = 1 and a static rows";
  } else if (!isBF16OrF32(input) || !isSupportedFP8Type(fp8) || !scaleOk)
    return emitError() << "needs a bf16 or f32 input, FP8 codes (f8E4M3FN or "
                          "f8E5M2) and f32 scales (or f8E8M0FNU with "
                          "scale_mode pow2)";
  // An infinite eps makes every scale infinite and every code zero.
  if (!eps.getType().isF32() || !(eps.getValueAsDouble() >= 0) ||
      std::isinf(eps.getValueAsDouble()))
    return emitError() << "needs a finite non-negative f32 eps, got " << eps;
  return success();
}

LogicalResult
KernelModelAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        StringAttr chip, int64_t ctas, FloatAttr modelledUs,
                        FloatAttr modelledTflops) {
  if (chip.getValue().empty())
    return emitError() << "needs the cost model's chip, got \"\"";
  if (ctas < 0 || (modelledUs && !(modelledUs.getValueAsDouble() >= 0)) ||
      (modelledTflops && !(modelledTflops.getValueAsDouble() >= 0)))
    return emitError() << "needs non-negative modelled ctas, time and TFLOPS";
  return success();
}

//===----------------------------------------------------------------------===//
// The kernel module's kernels, by decision
//===----------------------------------------------------------------------===//

std::string mlir::fp8::getKernelSymbolName(Attribute decision) {
  return llvm::TypeSwitch<Attribute, std::string>(decision)
      .Case<GemmKernelAttr, QuantizeKernelAttr, TransposeKernelAttr>(
          [](auto attr) { return attr.getSymbolName(); })
      .Default([](Attribute) { return std::string(); });
}

/// The kernel of `kernelModule` whose fp8.kernel equals `decision`.
static Operation *lookupKernel(Operation *kernelModule, Attribute decision) {
  for (Operation &op : kernelModule->getRegion(0).front())
    if (op.getAttr(FP8Dialect::kKernelAttrName) == decision)
      return &op;
  return nullptr;
}

StringAttr
mlir::fp8::getOrInsertKernel(Operation *kernelModule, Attribute decision,
                             Attribute model,
                             function_ref<Operation *(StringRef name)> build) {
  if (Operation *kernel = lookupKernel(kernelModule, decision))
    return SymbolTable::getSymbolName(kernel);
  // The table of the symbols before the kernel exists: inserting it renames
  // it if its readable name is taken (by a kernel of another decision that
  // the name does not tell apart).
  SymbolTable symbols(kernelModule);
  Operation *kernel = build(getKernelSymbolName(decision));
  kernel->setAttr(FP8Dialect::kKernelAttrName, decision);
  if (model)
    kernel->setAttr(FP8Dialect::kKernelModelAttrName, model);
  return symbols.insert(kernel);
}
