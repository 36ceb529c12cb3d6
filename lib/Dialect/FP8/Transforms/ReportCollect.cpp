//===- ReportCollect.cpp - fp8-report's analysis --------------------------===//
//
// collectReport(): every contraction with its role, precision, reason,
// shape, FLOPs, weight bytes and modelled kernel; the sensitive non-matmul
// ops; the totals (FP8 share of matmul FLOPs, weight bytes before/after,
// the training step's GEMMs and saved activations). Printing is
// ReportTable.cpp's and ReportJson.cpp's.
//
//===----------------------------------------------------------------------===//
#include "ReportCollect.h"

#include "fp8/Dialect/FP8/Analysis/RoleAnalysis.h"
#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/IR/ShapeString.h"
#include "fp8/Dialect/FP8/Transforms/Report.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::fp8;

static_assert(kReportDynamic == ShapedType::kDynamic,
              "a plain row's dynamic size is MLIR's");

namespace {

/// A row while it is collected: the plain row, the decisions it shows as
/// text, and the collection's own links to the IR, read by no printer: the
/// high-precision values a training GEMM's A and B operands come from
/// (highPrecisionRoot); for a weight gradient kept in high precision,
/// which of them is dY as the role analysis paired it; its activation
/// operand X (saved by the forward pass): its high-precision root, bytes in
/// high precision and as FP8 codes + 1x128 scales (FP8 activation caching,
/// DeepSeek-V3 §3.3.3), a dynamic (token) dimension counted at `tokens`
/// (resolveSavedActivations).
struct Row : ReportRow {
  Role roleKind = Role::other;
  std::optional<Precision> precisionKind;
  std::optional<GemmKind> gemmKind;
  /// The element type the op computes in (getComputeElementType), if any.
  Type computeType;
  Value aRoot, bRoot;
  std::optional<unsigned> gradOperand;
  Value savedRoot;
  Count savedBytesBefore = 0, savedBytesAfter = 0;

  bool isFP8() const { return precisionKind == Precision::fp8; }
};

/// What a training recipe keeps in high precision besides the GEMMs: the
/// master weights, the weight gradients and the optimizer (AdamW) moments.
struct TrainingState {
  StringRef master, grads, moments;
  int64_t masterBytes, gradBytes, momentBytes; // per parameter
};

/// The high-precision value an operand of a weight gradient comes from:
/// back through fp8.requantize / fp8.assemble of transposed codes /
/// fp8.quantize and the data movement before them.
Value highPrecisionRoot(Value v) {
  for (unsigned i = 0; i < 16 && v; ++i) {
    Operation *def = v.getDefiningOp();
    if (auto r = dyn_cast_or_null<RequantizeOp>(def)) {
      v = r.getInput();
    } else if (auto a = dyn_cast_or_null<AssembleOp>(def)) {
      Value data = a.getData();
      if (auto t = data.getDefiningOp<linalg::TransposeOp>())
        data = t.getInput();
      auto parts = data.getDefiningOp<DisassembleOp>();
      if (!parts)
        return {};
      v = parts.getInput();
    } else if (auto q = dyn_cast_or_null<QuantizeOp>(def)) {
      return traceSource(q.getInput());
    } else {
      return traceSource(v);
    }
  }
  return {};
}

/// 2 * M * N * K of a GEMM of static sizes, else 0.
Count gemmFlops(int64_t m, int64_t n, int64_t k) {
  if (ShapedType::isDynamic(m) || ShapedType::isDynamic(n) ||
      ShapedType::isDynamic(k))
    return 0;
  return Count(2) * m * n * k;
}

/// 2 * the static sizes of a GEMM with exactly one dynamic size (the tokens:
/// M of an fprop or dgrad, K of a wgrad), else 0.
Count flopsPerToken(int64_t m, int64_t n, int64_t k) {
  Count flops = 2;
  int64_t dynamic = 0;
  for (int64_t d : {m, n, k}) {
    if (ShapedType::isDynamic(d))
      ++dynamic;
    else
      flops *= d;
  }
  return dynamic == 1 ? flops : Count(0);
}

/// Bytes of one element of type `t`, for any element type a graph may hold
/// (the passes leave unsupported ones in high precision, not out of the
/// report): both parts of a complex number, 8 for `index`, 1 for a type
/// without a width.
int64_t bytesOf(Type t) {
  if (auto c = dyn_cast<ComplexType>(t))
    return 2 * bytesOf(c.getElementType());
  if (t.isIndex())
    return 8;
  if (!t.isIntOrFloat())
    return 1;
  return std::max<int64_t>(1, t.getIntOrFloatBitWidth() / 8);
}

/// FP8 bytes of an [N, K] weight: one byte per code plus the scales.
/// (A dynamic block size is the whole dimension.) `n` may exceed int64: the
/// rows of an activation at `tokens`.
Count fp8WeightBytes(Count n, int64_t k, ArrayRef<int64_t> block,
                     Type scaleType) {
  if (n.isZero() || k == 0)
    return 0;
  Count nBlocks =
      ShapedType::isDynamic(block[0]) ? Count(1) : n.ceilDiv(block[0]);
  int64_t kBlocks =
      ShapedType::isDynamic(block[1]) ? 1 : getNumBlocks(k, block[1]);
  return n * k + nBlocks * kBlocks * bytesOf(scaleType);
}

/// The data a group's (or the groups') FP8 operand is viewed from: the
/// source of a tensor.extract_slice (one group) or tensor.expand_shape
/// ([G * X, K] viewed as [G, X, K]), or `data` itself.
Value throughGroupView(Value data) {
  if (auto slice = data.getDefiningOp<tensor::ExtractSliceOp>())
    return slice.getSource();
  if (auto expand = data.getDefiningOp<tensor::ExpandShapeOp>())
    return expand.getSrc();
  return data;
}

/// The stacked operand a grouped FP8 operand is viewed from
/// (fp8-insert-quant's grouped linears: fp8.assemble of views of an
/// fp8.disassemble), or `v` itself.
Value throughGroupSlice(Value v) {
  auto assemble = v.getDefiningOp<AssembleOp>();
  if (!assemble)
    return v;
  Value data = throughGroupView(assemble.getData());
  if (auto parts = data.getDefiningOp<DisassembleOp>())
    return parts.getInput();
  return v;
}

/// The high-precision element type an FP8 operand was quantized from.
Type sourceElementType(Value v) {
  v = throughGroupSlice(v);
  for (unsigned i = 0; i < 8 && v; ++i) {
    Operation *def = v.getDefiningOp();
    if (auto q = dyn_cast_or_null<QuantizeOp>(def))
      return q.getInput().getType().getElementType();
    if (auto r = dyn_cast_or_null<RequantizeOp>(def)) {
      v = r.getInput();
      continue;
    }
    break;
  }
  return {};
}

/// True when an FP8 operand is a weight: quantized from a parameter, or a
/// constant folded at compile time (fp8.assemble of constants, or of slices
/// of constants for one expert of a grouped linear).
bool isQuantizedWeight(Value v) {
  Operation *def = throughGroupSlice(v).getDefiningOp();
  if (auto q = dyn_cast_or_null<QuantizeOp>(def))
    return getWeightSource(q.getInput()) != WeightSource::none;
  if (auto a = dyn_cast_or_null<AssembleOp>(def)) {
    Value data = throughGroupView(a.getData());
    return data.getDefiningOp() &&
           data.getDefiningOp()->hasTrait<OpTrait::ConstantLike>();
  }
  return false;
}

/// True for DeepSeek-V3's recipe, read from the fields: the linears' GEMMs
/// in FP8 (linear not kept high) with its fine-grained scaling, 1xB tiles
/// of activations and gradients and BxB blocks of weights (§3.3.2). The
/// presets deepseek-v3 and hybrid; not bf16 (every GEMM high), per-tensor,
/// rowwise or mxfp8 (no square weight blocks).
bool isFineGrainedFP8Training(PolicyAttr policy) {
  ArrayRef<int64_t> act = policy.getActivationBlock();
  ArrayRef<int64_t> weight = policy.getWeightBlock();
  return !policy.keepsHigh(Role::linear) && act.size() == 2 &&
         weight.size() == 2 && act[0] == 1 && !ShapedType::isDynamic(act[1]) &&
         act[1] > 1 && weight[0] == act[1] && weight[1] == act[1];
}

TrainingState getTrainingState(PolicyAttr policy) {
  // DeepSeek-V3 §3.3.3 (low-precision storage): FP32 master weights and
  // weight gradients (accumulated in FP32), BF16 AdamW moments. Other
  // policies follow the usual mixed-precision AdamW (TransformerEngine,
  // torchao): everything in FP32.
  if (isFineGrainedFP8Training(policy))
    return {"f32", "f32", "bf16", 4, 4, 2 * 2};
  return {"f32", "f32", "f32", 4, 4, 2 * 4};
}

/// X of each weight gradient, the operand that is not dY: as the role
/// analysis paired a Wgrad kept in high precision; for an FP8 one, the
/// operand an Fprop of the graph reads, or the partner of the operand a
/// Dgrad reads (dY); else the operand defined first. Its bytes count a
/// dynamic (token) dimension at `tokens` (none without it).
void resolveSavedActivations(std::vector<Row> &rows, PolicyAttr policy,
                             int64_t tokens) {
  DenseSet<Value> fpropReads, dgradReads;
  for (const Row &r : rows) {
    if (r.gemmKind == GemmKind::fprop && r.aRoot)
      fpropReads.insert(r.aRoot);
    if (r.gemmKind == GemmKind::dgrad && r.aRoot)
      dgradReads.insert(r.aRoot);
  }
  for (Row &r : rows) {
    Value a = r.aRoot, b = r.bRoot, x;
    if (r.gemmKind != GemmKind::wgrad || !a || !b)
      continue;
    if (r.gradOperand)
      x = *r.gradOperand == 0 ? b : a;
    else if (fpropReads.contains(a) != fpropReads.contains(b))
      x = fpropReads.contains(a) ? a : b;
    else if (dgradReads.contains(a) != dgradReads.contains(b))
      x = dgradReads.contains(a) ? b : a;
    else
      x = definedBefore(a, b) ? a : b;
    auto t = dyn_cast<RankedTensorType>(x.getType());
    if (!t || t.getRank() < 1)
      continue;
    SmallVector<int64_t> shape;
    for (int64_t d : t.getShape())
      shape.push_back(ShapedType::isDynamic(d) ? tokens : d);
    // X viewed as rows x cols, its rows the product of the leading sizes.
    Count rows = 1;
    for (int64_t d : ArrayRef(shape).drop_back())
      rows *= d;
    int64_t cols = shape.back();
    if (rows.isZero() || cols <= 0)
      continue;
    r.savedRoot = x;
    r.savedBytesBefore = rows * cols * bytesOf(t.getElementType());
    r.savedBytesAfter = fp8WeightBytes(rows, cols, policy.getActivationBlock(),
                                       policy.getScaleType());
  }
}

/// The elements of a static shape (a Count: no int64 wrap).
Count numElements(ArrayRef<int64_t> shape) {
  Count n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// The cached activations, bf16Bytes their size in bf16 (what an unscaled
/// cache would hold).
CachedActivations measureCachedActivations(ModuleOp module) {
  CachedActivations c;
  for (auto f : module.getOps<FunctionOpInterface>()) {
    ArrayRef<Type> results = f.getResultTypes();
    for (unsigned i = 0; i + 1 < results.size(); ++i) {
      auto high = f.getResultAttrOfType<TypeAttr>(i, "fp8.cached");
      auto codes = dyn_cast<RankedTensorType>(results[i]);
      auto scales = dyn_cast<RankedTensorType>(results[i + 1]);
      if (!high || !codes || !scales || !codes.hasStaticShape() ||
          !scales.hasStaticShape())
        continue;
      ++c.tensors;
      Count elements = numElements(codes.getShape());
      c.elements += elements;
      c.highBytes += elements * bytesOf(getElementTypeOrSelf(high.getValue()));
      c.fp8Bytes +=
          elements * bytesOf(codes.getElementType()) +
          numElements(scales.getShape()) * bytesOf(scales.getElementType());
    }
  }
  c.bf16Bytes = c.elements * 2;
  return c;
}

/// The fields every reported op has: where it is, how often it runs, what
/// the precision pass decided, and the operands a training GEMM reads.
Row baseRow(Operation *op, RoleAttr role, StringRef fname,
            FunctionOpInterface func, const RoleAnalysis &roles) {
  Row r;
  r.function = fname.str();
  r.count = runsPerCall(op, func.getOperation());
  r.op = op->getName().getStringRef().str();
  r.location = locationString(op->getLoc());
  r.roleKind = role.getValue();
  if (auto p = op->getAttrOfType<PrecisionAttr>(FP8Dialect::kPrecisionAttrName))
    r.precisionKind = p.getValue();
  r.computeType = getComputeElementType(op);
  if (auto s = op->getAttrOfType<StringAttr>(FP8Dialect::kReasonAttrName))
    r.reason = s.getValue().str();
  if (auto g = op->getAttrOfType<GemmKindAttr>(FP8Dialect::kGemmAttrName))
    r.gemmKind = g.getValue();
  // A weight gradient reads X, saved by the forward pass: which operand
  // it is is resolved once every row is known (resolveSavedActivations).
  if (r.gemmKind && op->getNumOperands() >= 2) {
    r.aRoot = highPrecisionRoot(op->getOperand(0));
    r.bRoot = highPrecisionRoot(op->getOperand(1));
    if (r.gemmKind == GemmKind::wgrad)
      r.gradOperand = roles.getWgradGradientOperand(op);
  }
  return r;
}

void fillScaledMatmul(ScaledMatmulOp mm, Row &r) {
  ArrayRef<int64_t> a = mm.getA().getType().getShape();
  ArrayRef<int64_t> b = mm.getB().getType().getShape();
  r.matmul = true;
  r.precisionKind = Precision::fp8;
  r.flops = gemmFlops(a[0], b[0], a[1]);
  r.flopsPerToken = flopsPerToken(a[0], b[0], a[1]);
  r.shape = (shapeString({a[0], b[0], a[1]}));
  r.m = a[0];
  r.n = b[0];
  r.k = a[1];
  if (r.gemmKind != GemmKind::wgrad && isQuantizedWeight(mm.getB())) {
    Type src = sourceElementType(mm.getB());
    if (!src)
      src = mm.getResult().getType().getElementType();
    ScaledTensorType bt = mm.getB().getType();
    r.weightElements = Count(b[0]) * b[1];
    r.weightBytesBefore = r.weightElements * bytesOf(src);
    r.weightBytesAfter =
        fp8WeightBytes(b[0], b[1], bt.getBlockShape(), bt.getScaleType());
  }
}

/// One GEMM (one launch) of G per-group products: its FLOPs count every
/// row as valid (counts are run-time values), its shape is one group's, its
/// weight bytes are all G experts'.
/// A k_grouped op (the experts' Wgrads, [G, M, N] over T tokens): every
/// token meets one group, so the FLOPs are one M x N x T GEMM's; its
/// operands are activations, no weight.
void fillKGroupedMatmul(GroupedScaledMatmulOp gmm, Row &r) {
  ArrayRef<int64_t> a = gmm.getA().getType().getShape();
  ArrayRef<int64_t> b = gmm.getB().getType().getShape();
  r.matmul = true;
  r.precisionKind = Precision::fp8;
  r.groups = gmm.getNumGroups();
  r.m = a[0];
  r.n = b[0];
  r.k = a[1];
  if (!llvm::any_of(a, ShapedType::isDynamic) && !ShapedType::isDynamic(b[0]))
    r.flops = gemmFlops(a[0], b[0], a[1]);
  r.shape = std::to_string(r.groups) + " groups x " +
            shapeString({r.m, r.n, r.k}) + " (K grouped)";
}

void fillGroupedMatmul(GroupedScaledMatmulOp gmm, Row &r) {
  if (gmm.isKGrouped())
    return fillKGroupedMatmul(gmm, r);
  ArrayRef<int64_t> a = gmm.getA().getType().getShape();
  ArrayRef<int64_t> b = gmm.getB().getType().getShape();
  bool masked = gmm.getLayout() == GroupLayout::masked;
  r.matmul = true;
  r.precisionKind = Precision::fp8;
  r.groups = b[0];
  r.m = masked ? a[1] : a[0];
  // Masked: G slabs of M rows; contiguous: each of the M rows meets one
  // group's N x K weight.
  if (!llvm::any_of(a, ShapedType::isDynamic))
    r.flops = masked ? gemmFlops(a[1], b[1], b[2]) * a[0]
                     : gemmFlops(a[0], b[1], b[2]);
  r.n = b[1];
  r.k = b[2];
  r.shape = std::to_string(b[0]) + " groups x " + shapeString({r.m, r.n, r.k});
  if (r.gemmKind != GemmKind::wgrad && isQuantizedWeight(gmm.getB()) &&
      !llvm::any_of(b, ShapedType::isDynamic)) {
    Type src = sourceElementType(gmm.getB());
    if (!src)
      src = gmm.getResult().getType().getElementType();
    ScaledTensorType bt = gmm.getB().getType();
    r.weightElements = Count(b[0]) * b[1] * b[2];
    r.weightBytesBefore = r.weightElements * bytesOf(src);
    r.weightBytesAfter =
        fp8WeightBytes(b[1], b[2], bt.getBlockShape().drop_front(),
                       bt.getScaleType()) *
        b[0];
  }
}

/// A high-precision contraction before fp8-insert-quant (or one it left):
/// its weight bytes after are the policy's FP8 codes + scales when the
/// precision pass chose FP8.
void fillContraction(const Contraction &c, PolicyAttr policy, Row &r) {
  r.matmul = true;
  r.flops = gemmFlops(c.m, c.n, c.k);
  r.flopsPerToken = flopsPerToken(c.m, c.n, c.k);
  r.shape = shapeString({c.m, c.n, c.k});
  r.m = c.m;
  r.n = c.n;
  r.k = c.k;
  Value b = c.op->getOperand(1);
  if (r.gemmKind != GemmKind::wgrad &&
      getWeightSource(b) != WeightSource::none &&
      r.roleKind != Role::attention && !ShapedType::isDynamic(c.n) &&
      !ShapedType::isDynamic(c.k)) {
    int64_t bytes = bytesOf(getElementTypeOrSelf(b.getType()));
    r.weightElements = Count(c.n) * c.k;
    r.weightBytesBefore = r.weightElements * bytes;
    r.weightBytesAfter = r.isFP8()
                             ? fp8WeightBytes(c.n, c.k, policy.getWeightBlock(),
                                              policy.getScaleType())
                             : r.weightBytesBefore;
  }
}

/// One FLOP per loop iteration: the work of an elementwise/reduction op,
/// to compare with the matmuls.
void fillSensitive(Operation *op, Row &r) {
  auto lop = dyn_cast<linalg::LinalgOp>(op);
  if (!lop)
    return;
  Count n = 1;
  for (int64_t d : lop.getStaticLoopRanges())
    n = ShapedType::isDynamic(d) ? Count(0) : n * d;
  r.flops = n;
  if (op->getNumResults())
    if (auto t = dyn_cast<ShapedType>(op->getResult(0).getType()))
      r.shape = shapeString(t.getShape());
}

/// The rows of `func`'s ops that carry fp8.role, in program order: the
/// FP8 GEMMs, the contractions (not their bodies), the ops of a sensitive
/// role that do more than move data.
void collectFunction(FunctionOpInterface func, PolicyAttr policy,
                     const RoleAnalysis &roles, std::vector<Row> &rows) {
  std::string fname =
      cast<SymbolOpInterface>(func.getOperation()).getName().str();
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == func.getOperation())
      return WalkResult::advance();
    auto role = op->getAttrOfType<RoleAttr>(FP8Dialect::kRoleAttrName);
    bool isLinalg = isa<linalg::LinalgOp>(op);
    if (!role)
      return isLinalg ? WalkResult::skip() : WalkResult::advance();
    Row r = baseRow(op, role, fname, func, roles);
    if (auto mm = dyn_cast<ScaledMatmulOp>(op)) {
      fillScaledMatmul(mm, r);
      rows.push_back(r);
      return WalkResult::advance();
    }
    if (auto gmm = dyn_cast<GroupedScaledMatmulOp>(op)) {
      fillGroupedMatmul(gmm, r);
      rows.push_back(r);
      return WalkResult::advance();
    }
    if (const Contraction *c = roles.getContraction(op)) {
      fillContraction(*c, policy, r);
      rows.push_back(r);
      return WalkResult::skip();
    }
    bool sensitive = role.getValue() != Role::other &&
                     role.getValue() != Role::linear && !isDataMovement(op);
    if (sensitive) {
      fillSensitive(op, r);
      rows.push_back(r);
    }
    return isLinalg ? WalkResult::skip() : WalkResult::advance();
  });
}

/// An op in loops counts once per iteration; a dynamic GEMM counts `tokens`
/// rows when the option is given, else its per-token FLOPs are totalled
/// apart.
void applyCounts(std::vector<Row> &rows, int64_t tokens) {
  for (Row &r : rows) {
    r.flops *= r.count;
    r.flopsPerToken *= r.count;
    r.weightBytesBefore *= r.count;
    r.weightBytesAfter *= r.count;
    r.weightElements *= r.count;
  }
  for (Row &r : rows)
    if (r.flopsPerToken && tokens > 0) {
      r.flops = r.flopsPerToken * int64_t(tokens);
      r.flopsPerToken = 0;
    }
}

/// The kernel configuration of every FP8 GEMM the GPU lowering can build
/// (static N and K; M static or given by `tokens`; each below 2^31).
void chooseKernels(std::vector<Row> &rows, int64_t tokens,
                   const ChipSpec &chip) {
  auto buildable = [](int64_t d) {
    return d > 0 && d < GemmKernelConfig::kMaxExtent;
  };
  for (Row &r : rows) {
    int64_t m = ShapedType::isDynamic(r.m) ? int64_t(tokens) : r.m;
    if (r.matmul && r.isFP8() && buildable(m) && buildable(r.n) &&
        buildable(r.k))
      // A Wgrad GEMM's B (an activation) has [1, 128] blocks: the
      // per-column-scale kernel, with its own register limit and bytes.
      r.kernel = chooseGemmConfigByModel(
          m, r.n, r.k, chip, /*blockMDivides=*/0, /*groups=*/1,
          /*grouped=*/false,
          /*bScalesPerColumn=*/r.gemmKind == GemmKind::wgrad);
  }
}

/// In a training graph a weight is read by its fprop and its dgrad: count
/// it once, at the fprop (at the dgrad in a backward function without
/// fprops).
void countWeightsOnce(std::vector<Row> &rows) {
  llvm::StringSet<> funcsWithFprop;
  for (const Row &r : rows)
    if (r.gemmKind == GemmKind::fprop)
      funcsWithFprop.insert(r.function);
  for (Row &r : rows)
    if (r.gemmKind == GemmKind::dgrad && funcsWithFprop.contains(r.function))
      r.weightBytesBefore = r.weightBytesAfter = r.weightElements = 0;
}

GemmKindTotals &kindTotals(ReportGemms &gemms, GemmKind g) {
  switch (g) {
  case GemmKind::fprop:
    return gemms.fprop;
  case GemmKind::dgrad:
    return gemms.dgrad;
  case GemmKind::wgrad:
    break;
  }
  return gemms.wgrad;
}

/// Per GEMM kind: count, FLOPs in FP8 and in high precision; the saved
/// activations (each X once); the state the recipe keeps besides, for
/// `weightElements` linear weight elements. None without a training GEMM.
std::optional<ReportTraining> totalTraining(ArrayRef<Row> rows, ModuleOp module,
                                            PolicyAttr policy,
                                            Count weightElements) {
  if (llvm::none_of(rows, [](const Row &r) { return r.matmul && r.gemmKind; }))
    return std::nullopt;
  ReportTraining t;
  DenseSet<Value> savedSeen;
  // In a cached split step the X the forward still returns in high
  // precision stays so; the cached ones are measured.
  t.cachedActivations = measureCachedActivations(module);
  const CachedActivations &cached = t.cachedActivations;
  for (const Row &r : rows) {
    if (!r.matmul || !r.gemmKind)
      continue;
    GemmKindTotals &k = kindTotals(t.gemms, *r.gemmKind);
    k.count += r.count;
    (r.isFP8() ? k.fp8Flops : k.highFlops) += r.flops;
    if (r.savedRoot && savedSeen.insert(r.savedRoot).second) {
      t.savedActivationBytesBefore += r.savedBytesBefore;
      // A weight gradient kept high keeps its X high too.
      t.savedActivationBytesAfter +=
          r.isFP8() && !cached.tensors ? r.savedBytesAfter : r.savedBytesBefore;
    }
  }
  t.savedActivationBytesBefore += cached.highBytes;
  t.savedActivationBytesAfter += cached.fp8Bytes;
  TrainingState state = getTrainingState(policy);
  t.weightElements = weightElements;
  t.masterWeights = state.master.str();
  t.weightGradients = state.grads.str();
  t.optimizerMoments = state.moments.str();
  t.masterWeightBytes = weightElements * state.masterBytes;
  t.weightGradientBytes = weightElements * state.gradBytes;
  t.optimizerMomentBytes = weightElements * state.momentBytes;
  return t;
}

/// The matmul FLOPs (all, in FP8; fixed and per token) and weight bytes.
ReportTotals totalMatmuls(ArrayRef<Row> rows, int64_t tokens) {
  ReportTotals t;
  t.tokens = tokens;
  for (const Row &r : rows) {
    if (r.matmul) {
      t.matmulFlops += r.flops;
      t.matmulFlopsPerToken += r.flopsPerToken;
      if (r.isFP8()) {
        t.fp8MatmulFlops += r.flops;
        t.fp8MatmulFlopsPerToken += r.flopsPerToken;
      }
    }
    t.weightBytesBefore += r.weightBytesBefore;
    t.weightBytesAfter += r.weightBytesAfter;
  }
  // The share at many tokens when dynamic GEMMs are left per token.
  Count mm = t.matmulFlops, fp8 = t.fp8MatmulFlops;
  Count mmPerToken = t.matmulFlopsPerToken;
  t.fp8SharePercent =
      mmPerToken ? 100.0 * t.fp8MatmulFlopsPerToken.value() / mmPerToken.value()
      : mm       ? 100.0 * fp8.value() / mm.value()
                 : 0.0;
  t.fp8MatmulFlopShare = t.fp8SharePercent / 100.0;
  return t;
}

/// The policy as the table shows it.
ReportPolicy describePolicy(PolicyAttr policy, bool fromModule) {
  auto text = [](auto value) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << value;
    return s;
  };
  return {policy.getName().getValue().str(),
          fromModule,
          text(policy.getFormat()),
          shapeString(policy.getActivationBlock()),
          shapeString(policy.getWeightBlock()),
          text(policy.getScaleType()),
          text(policy.getHigh())};
}

/// The precision a row shows: FP8, or BF16 for an f32 contraction the
/// precision pass casts to it (fp8-insert-quant), else the element type
/// the op computes in (f64, f16, an FP8 type, i8, complex<f32>, ...): the
/// precision attribute alone would misname these (the pass marks an f64 or
/// f16 op kept in its own type f32 or bf16, an integer or complex op not
/// at all).
std::string precisionText(const Row &r) {
  if (r.precisionKind == Precision::fp8 || !r.computeType ||
      (r.precisionKind == Precision::bf16 && r.computeType.isF32()))
    return r.precisionKind ? stringifyPrecision(*r.precisionKind).str() : "";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << r.computeType;
  return s;
}

/// The plain rows: the decisions as the report names them.
std::vector<ReportRow> finishRows(std::vector<Row> &rows) {
  std::vector<ReportRow> out;
  for (Row &r : rows) {
    r.role = stringifyRole(r.roleKind).str();
    r.precision = precisionText(r);
    if (r.gemmKind)
      r.gemm = stringifyGemmKind(*r.gemmKind).str();
    out.push_back(std::move(static_cast<ReportRow &>(r)));
  }
  return out;
}

} // namespace

std::string mlir::fp8::locationString(Location loc) {
  if (auto n = dyn_cast<NameLoc>(loc))
    return n.getName().str();
  if (auto f = dyn_cast<FileLineColLoc>(loc))
    return (llvm::sys::path::filename(f.getFilename().getValue()) + ":" +
            Twine(f.getLine()))
        .str();
  if (auto f = dyn_cast<FusedLoc>(loc))
    for (Location l : f.getLocations()) {
      std::string s = locationString(l);
      if (!s.empty())
        return s;
    }
  if (auto c = dyn_cast<CallSiteLoc>(loc))
    return locationString(c.getCallee());
  return "";
}

/// The product of the static trip counts of the loops around `op` inside
/// `func`: an fp8.scaled_matmul in fp8-insert-quant's loop over the experts
/// of a grouped linear runs once per expert. A loop without a static trip
/// count counts once.
Count mlir::fp8::runsPerCall(Operation *op, Operation *func) {
  Count n = 1;
  for (Operation *p = op->getParentOp(); p && p != func; p = p->getParentOp())
    if (auto loop = dyn_cast<LoopLikeOpInterface>(p))
      if (std::optional<APInt> trips = loop.getStaticTripCount())
        n *= trips->getLimitedValue(INT64_MAX);
  return n;
}

Report mlir::fp8::collectReport(ModuleOp module, const RoleAnalysis &roles,
                                const ChipSpec &chip, int64_t tokens) {
  auto policy = module->getAttrOfType<PolicyAttr>(FP8Dialect::kPolicyAttrName);
  bool fromModule = static_cast<bool>(policy);
  if (!policy)
    policy = PolicyAttr::getDefaultPreset(module.getContext());
  std::vector<Row> rows;
  module.walk([&](FunctionOpInterface func) {
    if (!func.isExternal())
      collectFunction(func, policy, roles, rows);
  });
  resolveSavedActivations(rows, policy, tokens);
  applyCounts(rows, tokens);
  chooseKernels(rows, tokens, chip);
  countWeightsOnce(rows);
  Count weightElements = 0;
  for (const Row &r : rows)
    weightElements += r.weightElements;

  Report report;
  report.policy = describePolicy(policy, fromModule);
  report.chip = chip.name;
  report.totals = totalMatmuls(rows, tokens);
  report.training = totalTraining(rows, module, policy, weightElements);
  report.rows = finishRows(rows);
  report.fp8Ops = collectFP8Ops(module);
  return report;
}
