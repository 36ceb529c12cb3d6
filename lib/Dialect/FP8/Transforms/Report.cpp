//===- Report.cpp - fp8-report --------------------------------------------===//
//
// What a user looks at first: every contraction with its role, precision,
// reason, shape and FLOPs; the sensitive non-matmul ops grouped by role (the
// JSON lists them one by one); totals (FP8 share of matmul FLOPs, weight
// bytes before/after).
//
//===----------------------------------------------------------------------===//
#include "ReportCount.h"
#include "ReportFP8Ops.h"

#include "fp8/Dialect/FP8/Analysis/RoleAnalysis.h"

#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"
#include "fp8/Target/Hopper/GemmCostModel.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8REPORTPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

namespace {

struct Row {
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
  /// The high-precision values a training GEMM's A and B operands come
  /// from (highPrecisionRoot); for a weight gradient kept in high precision,
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

/// The precision column: the precision's name, or "" when it has none.
StringRef precisionName(std::optional<Precision> precision) {
  return precision ? stringifyPrecision(*precision) : StringRef();
}
StringRef precisionName(const Row &r) { return precisionName(r.precision); }

std::string locationString(Location loc) {
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

std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleave(
      shape, os,
      [&](int64_t d) {
        if (ShapedType::isDynamic(d))
          os << '?';
        else
          os << d;
      },
      "x");
  return s;
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

/// The product of the static trip counts of the loops around `op` inside
/// `func`: an fp8.scaled_matmul in fp8-insert-quant's loop over the experts
/// of a grouped linear runs once per expert. A loop without a static trip
/// count counts once.
Count runsPerCall(Operation *op, Operation *func) {
  Count n = 1;
  for (Operation *p = op->getParentOp(); p && p != func; p = p->getParentOp())
    if (auto loop = dyn_cast<LoopLikeOpInterface>(p))
      if (std::optional<APInt> trips = loop.getStaticTripCount())
        n *= trips->getLimitedValue(INT64_MAX);
  return n;
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

/// What a training recipe keeps in high precision besides the GEMMs: the
/// master weights, the weight gradients and the optimizer (AdamW) moments.
struct TrainingState {
  StringRef master, grads, moments;
  int64_t masterBytes, gradBytes, momentBytes; // per parameter
};

TrainingState getTrainingState(PolicyAttr policy) {
  StringRef name = policy.getName().getValue();
  // DeepSeek-V3 §3.3.3 (low-precision storage): FP32 master weights and
  // weight gradients (accumulated in FP32), BF16 AdamW moments. The other
  // presets follow the usual mixed-precision AdamW (TransformerEngine,
  // torchao): everything in FP32.
  if (name == "deepseek-v3" || name == "hybrid")
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
    if (r.gemm == GemmKind::fprop && r.aRoot)
      fpropReads.insert(r.aRoot);
    if (r.gemm == GemmKind::dgrad && r.aRoot)
      dgradReads.insert(r.aRoot);
  }
  for (Row &r : rows) {
    Value a = r.aRoot, b = r.bRoot, x;
    if (r.gemm != GemmKind::wgrad || !a || !b)
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

/// What the forwards of a split step return in place of the activations
/// the weight gradients read, after fp8-cache-activations: each result
/// whose attribute `fp8.cached` names the high-precision type it replaces
/// (the codes) and the result after it (the scales). Measured from the
/// result types, not modelled.
struct CachedActivations {
  int64_t tensors = 0;
  Count elements = 0, highBytes = 0, fp8Bytes = 0;
};

/// The elements of a static shape (a Count: no int64 wrap).
Count numElements(ArrayRef<int64_t> shape) {
  Count n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

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
  return c;
}

class ReportPass : public fp8::impl::FP8ReportPassBase<ReportPass> {
public:
  using FP8ReportPassBase::FP8ReportPassBase;
  LogicalResult initialize(MLIRContext *ctx) override;
  void runOnOperation() override;

private:
  std::string fmt;                    // resolved in initialize()
  const ChipSpec *chipSpec = nullptr; // resolved in initialize()
  void collect(FunctionOpInterface func, PolicyAttr policy,
               const RoleAnalysis &roles, std::vector<Row> &rows);
  /// Writes the rendered report to `output` ("-": stdout); an open or write
  /// error fails the pass with a diagnostic.
  void write(StringRef text, ModuleOp module);
};

void ReportPass::collect(FunctionOpInterface func, PolicyAttr policy,
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
    Row r;
    r.func = fname;
    r.count = runsPerCall(op, func.getOperation());
    r.op = op->getName().getStringRef().str();
    r.location = locationString(op->getLoc());
    r.role = role.getValue();
    if (auto p =
            op->getAttrOfType<PrecisionAttr>(FP8Dialect::kPrecisionAttrName))
      r.precision = p.getValue();
    if (auto s = op->getAttrOfType<StringAttr>(FP8Dialect::kReasonAttrName))
      r.reason = s.getValue().str();
    if (auto g = op->getAttrOfType<GemmKindAttr>(FP8Dialect::kGemmAttrName))
      r.gemm = g.getValue();
    // A weight gradient reads X, saved by the forward pass: which operand
    // it is is resolved once every row is known (resolveSavedActivations).
    if (r.gemm && op->getNumOperands() >= 2) {
      r.aRoot = highPrecisionRoot(op->getOperand(0));
      r.bRoot = highPrecisionRoot(op->getOperand(1));
      if (r.gemm == GemmKind::wgrad)
        r.gradOperand = roles.getWgradGradientOperand(op);
    }

    if (auto mm = dyn_cast<ScaledMatmulOp>(op)) {
      ArrayRef<int64_t> a = mm.getA().getType().getShape();
      ArrayRef<int64_t> b = mm.getB().getType().getShape();
      r.isMatmul = true;
      r.precision = Precision::fp8;
      r.flops = gemmFlops(a[0], b[0], a[1]);
      r.flopsPerToken = flopsPerToken(a[0], b[0], a[1]);
      r.shape = (shapeString({a[0], b[0], a[1]}));
      r.m = a[0];
      r.n = b[0];
      r.k = a[1];
      if (r.gemm != GemmKind::wgrad && isQuantizedWeight(mm.getB())) {
        Type src = sourceElementType(mm.getB());
        if (!src)
          src = mm.getResult().getType().getElementType();
        ScaledTensorType bt = mm.getB().getType();
        r.weightElements = Count(b[0]) * b[1];
        r.weightBytesBefore = r.weightElements * bytesOf(src);
        r.weightBytesAfter =
            fp8WeightBytes(b[0], b[1], bt.getBlockShape(), bt.getScaleType());
      }
      rows.push_back(r);
      return WalkResult::advance();
    }
    if (auto gmm = dyn_cast<GroupedScaledMatmulOp>(op)) {
      // One GEMM (one launch) of G per-group products: its FLOPs count
      // every row as valid (counts are run-time values), its shape is one
      // group's, its weight bytes are all G experts'.
      ArrayRef<int64_t> a = gmm.getA().getType().getShape();
      ArrayRef<int64_t> b = gmm.getB().getType().getShape();
      bool masked = gmm.getLayout() == GroupLayout::masked;
      r.isMatmul = true;
      r.precision = Precision::fp8;
      r.groups = b[0];
      r.m = masked ? a[1] : a[0];
      // Masked: G slabs of M rows; contiguous: each of the M rows meets one
      // group's N x K weight.
      if (!llvm::any_of(a, ShapedType::isDynamic))
        r.flops = masked ? gemmFlops(a[1], b[1], b[2]) * a[0]
                         : gemmFlops(a[0], b[1], b[2]);
      r.n = b[1];
      r.k = b[2];
      r.shape =
          std::to_string(b[0]) + " groups x " + shapeString({r.m, r.n, r.k});
      if (r.gemm != GemmKind::wgrad && isQuantizedWeight(gmm.getB()) &&
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
      rows.push_back(r);
      return WalkResult::advance();
    }
    if (const Contraction *c = roles.getContraction(op)) {
      r.isMatmul = true;
      r.flops = gemmFlops(c->m, c->n, c->k);
      r.flopsPerToken = flopsPerToken(c->m, c->n, c->k);
      r.shape = shapeString({c->m, c->n, c->k});
      r.m = c->m;
      r.n = c->n;
      r.k = c->k;
      Value b = c->op->getOperand(1);
      if (r.gemm != GemmKind::wgrad &&
          getWeightSource(b) != WeightSource::none &&
          r.role != Role::attention && !ShapedType::isDynamic(c->n) &&
          !ShapedType::isDynamic(c->k)) {
        int64_t bytes = bytesOf(getElementTypeOrSelf(b.getType()));
        r.weightElements = Count(c->n) * c->k;
        r.weightBytesBefore = r.weightElements * bytes;
        r.weightBytesAfter =
            r.precision == Precision::fp8
                ? fp8WeightBytes(c->n, c->k, policy.getWeightBlock(),
                                 policy.getScaleType())
                : r.weightBytesBefore;
      }
      rows.push_back(r);
      return WalkResult::skip();
    }
    bool sensitive = role.getValue() != Role::other &&
                     role.getValue() != Role::linear && !isDataMovement(op);
    if (sensitive) {
      // One FLOP per loop iteration: the work of an elementwise/reduction
      // op, to compare with the matmuls.
      if (auto lop = dyn_cast<linalg::LinalgOp>(op)) {
        Count n = 1;
        for (int64_t d : lop.getStaticLoopRanges())
          n = ShapedType::isDynamic(d) ? Count(0) : n * d;
        r.flops = n;
        if (op->getNumResults())
          if (auto t = dyn_cast<ShapedType>(op->getResult(0).getType()))
            r.shape = shapeString(t.getShape());
      }
      rows.push_back(r);
    }
    return isLinalg ? WalkResult::skip() : WalkResult::advance();
  });
}

/// Beyond 10^18 (a count near int64's limit or past it) with an exponent.
std::string humanFlops(Count count) {
  double f = count.value();
  if (f >= 1e18)
    return llvm::formatv("{0:e3} FLOP", f).str();
  if (f >= 1000000000)
    return llvm::formatv("{0:F2} GFLOP", f / 1e9).str();
  if (f >= 1000000)
    return llvm::formatv("{0:F2} MFLOP", f / 1e6).str();
  return count.str() + " FLOP";
}

std::string humanBytes(Count count) {
  double b = count.value();
  if (b >= 1e18)
    return llvm::formatv("{0:e3} B", b).str();
  if (b >= (1 << 20))
    return llvm::formatv("{0:F2} MiB", b / double(1 << 20)).str();
  if (b >= (1 << 10))
    return llvm::formatv("{0:F2} KiB", b / double(1 << 10)).str();
  return count.str() + " B";
}

/// A text table whose columns fit their widest cell: op names such as
/// `fp8.grouped_scaled_matmul` and long locations would otherwise push the
/// rest of their row out of line. A column is at least `minWidth` wide (the
/// usual layout of short names), left-aligned unless `right`; the last
/// column is not padded and is set off by two spaces.
class Table {
public:
  struct Column {
    unsigned minWidth;
    bool right = false;
  };
  explicit Table(SmallVector<Column> columns) : columns(std::move(columns)) {}

  void add(SmallVector<std::string> cells) {
    assert(cells.size() == columns.size() && "one cell per column");
    rows.push_back(std::move(cells));
  }

  void print(llvm::raw_ostream &os) const {
    SmallVector<size_t> width;
    for (const Column &c : columns)
      width.push_back(c.minWidth);
    for (const SmallVector<std::string> &row : rows)
      for (size_t i = 0; i + 1 < row.size(); ++i)
        width[i] = std::max(width[i], row[i].size());
    for (const SmallVector<std::string> &row : rows) {
      for (size_t i = 0; i + 1 < row.size(); ++i) {
        size_t pad = width[i] - row[i].size();
        if (columns[i].right)
          os.indent(pad) << row[i];
        else
          os << row[i] << std::string(pad, ' ');
        os << (i + 2 == row.size() ? "  " : " ");
      }
      os << row.back() << "\n";
    }
  }

private:
  SmallVector<Column> columns;
  SmallVector<SmallVector<std::string>> rows;
};

/// The model's configuration of an FP8 GEMM (null for other rows): the
/// fields of the #fp8.gemm_kernel of fp8-lower-to-nvvm config=auto, the
/// problem it was modelled at, and why it leaves SMs idle, if it does.
llvm::json::Value kernelConfigJson(const Row &r) {
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

/// Options are checked before any IR is seen (no module dump with the error).
LogicalResult ReportPass::initialize(MLIRContext *ctx) {
  if (tokens < 0)
    return emitError(UnknownLoc::get(ctx))
           << "fp8-report: option tokens=" << static_cast<int64_t>(tokens)
           << " is negative (expected a token count, or 0 for per-token "
              "FLOPs)";
  fmt = format;
  if (fmt != "table" && fmt != "json")
    return emitError(UnknownLoc::get(ctx))
           << "fp8-report: unknown format '" << fmt
           << "' in option format (expected table or json)";
  chipSpec = lookupChip(chip);
  if (!chipSpec)
    return emitError(UnknownLoc::get(ctx))
           << "fp8-report: unknown chip '" << chip
           << "' in option chip (expected one of " << knownChipNames() << ")";
  if (StringRef(output).empty())
    return emitError(UnknownLoc::get(ctx))
           << "fp8-report: option output is empty (expected a file name, or "
              "'-' for stdout)";
  return success();
}

void ReportPass::runOnOperation() {
  markAllAnalysesPreserved();
  ModuleOp module = getOperation();
  auto policy = module->getAttrOfType<PolicyAttr>(FP8Dialect::kPolicyAttrName);
  bool hasPolicy = static_cast<bool>(policy);
  if (!policy)
    policy = PolicyAttr::getPreset(&getContext(), "deepseek-v3");

  const RoleAnalysis &roles = getAnalysis<RoleAnalysis>();
  std::vector<Row> rows;
  module.walk([&](FunctionOpInterface func) {
    if (!func.isExternal())
      collect(func, policy, roles, rows);
  });

  resolveSavedActivations(rows, policy, tokens);
  // An op in loops counts once per iteration.
  for (Row &r : rows) {
    r.flops *= r.count;
    r.flopsPerToken *= r.count;
    r.weightBytesBefore *= r.count;
    r.weightBytesAfter *= r.count;
    r.weightElements *= r.count;
  }
  // A dynamic GEMM counts `tokens` rows when the option is given; else its
  // per-token FLOPs are totalled apart.
  for (Row &r : rows)
    if (r.flopsPerToken && tokens > 0) {
      r.flops = r.flopsPerToken * int64_t(tokens);
      r.flopsPerToken = 0;
    }
  // The kernel configuration of every FP8 GEMM the GPU lowering can build
  // (static N and K; M static or given by `tokens`; each below 2^31).
  auto buildable = [](int64_t d) {
    return d > 0 && d < GemmKernelConfig::kMaxExtent;
  };
  for (Row &r : rows) {
    int64_t m = ShapedType::isDynamic(r.m) ? int64_t(tokens) : r.m;
    if (r.isMatmul && r.precision == Precision::fp8 && buildable(m) &&
        buildable(r.n) && buildable(r.k))
      // A Wgrad GEMM's B (an activation) has [1, 128] blocks: the
      // per-column-scale kernel, with its own register limit and bytes.
      r.kernel = chooseGemmConfigByModel(
          m, r.n, r.k, *chipSpec, /*blockMDivides=*/0, /*groups=*/1,
          /*grouped=*/false, /*bScalesPerColumn=*/r.gemm == GemmKind::wgrad);
  }
  // In a training graph a weight is read by its fprop and its dgrad: count
  // it once, at the fprop (at the dgrad in a backward function without
  // fprops).
  llvm::StringSet<> funcsWithFprop;
  for (const Row &r : rows)
    if (r.gemm == GemmKind::fprop)
      funcsWithFprop.insert(r.func);
  for (Row &r : rows)
    if (r.gemm == GemmKind::dgrad && funcsWithFprop.contains(r.func))
      r.weightBytesBefore = r.weightBytesAfter = r.weightElements = 0;
  // Per GEMM kind: count, FLOPs in FP8 and in high precision.
  struct KindTotals {
    Count count = 0, fp8 = 0, high = 0;
  };
  KindTotals kinds[3];
  bool training = false;
  Count savedBefore = 0, savedAfter = 0, weightElements = 0;
  DenseSet<Value> savedSeen;
  // In a cached split step the X the forward still returns in high
  // precision stays so; the cached ones are measured.
  CachedActivations cached = measureCachedActivations(module);
  for (const Row &r : rows) {
    if (!r.isMatmul || !r.gemm)
      continue;
    training = true;
    KindTotals &k = kinds[static_cast<unsigned>(*r.gemm)];
    k.count += r.count;
    (r.precision == Precision::fp8 ? k.fp8 : k.high) += r.flops;
    if (r.savedRoot && savedSeen.insert(r.savedRoot).second) {
      savedBefore += r.savedBytesBefore;
      // A weight gradient kept high keeps its X high too.
      savedAfter += r.precision == Precision::fp8 && !cached.tensors
                        ? r.savedBytesAfter
                        : r.savedBytesBefore;
    }
  }
  savedBefore += cached.highBytes;
  savedAfter += cached.fp8Bytes;
  Count mmFlops = 0, fp8Flops = 0, mmPerToken = 0, fp8PerToken = 0;
  Count before = 0, after = 0;
  for (const Row &r : rows) {
    if (r.isMatmul) {
      mmFlops += r.flops;
      mmPerToken += r.flopsPerToken;
      if (r.precision == Precision::fp8) {
        fp8Flops += r.flops;
        fp8PerToken += r.flopsPerToken;
      }
    }
    before += r.weightBytesBefore;
    after += r.weightBytesAfter;
    weightElements += r.weightElements;
  }
  TrainingState state = getTrainingState(policy);
  // The share at many tokens when dynamic GEMMs are left per token.
  double share = mmPerToken ? 100.0 * fp8PerToken.value() / mmPerToken.value()
                 : mmFlops  ? 100.0 * fp8Flops.value() / mmFlops.value()
                            : 0.0;

  // The report is rendered into a string and written at the end, so that a
  // write error (a full disk, a closed stdout) becomes a diagnostic here
  // instead of LLVM's "IO failure on output stream" abort when the stream
  // is destroyed.
  std::string text;
  llvm::raw_string_ostream os(text);
  std::string policyName = policy.getName().getValue().str();

  if (fmt == "json") {
    llvm::json::Array ops;
    for (const Row &r : rows)
      ops.push_back(llvm::json::Object{
          {"function", r.func},
          {"op", r.op},
          {"location", r.location},
          {"role", stringifyRole(r.role)},
          {"precision", precisionName(r)},
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
    llvm::json::Object perKind;
    for (GemmKind g : {GemmKind::fprop, GemmKind::dgrad, GemmKind::wgrad}) {
      const KindTotals &k = kinds[static_cast<unsigned>(g)];
      perKind[stringifyGemmKind(g)] =
          llvm::json::Object{{"count", k.count.toJson()},
                             {"fp8_flops", k.fp8.toJson()},
                             {"high_flops", k.high.toJson()}};
    }
    llvm::json::Value trainingJson = nullptr;
    if (training)
      trainingJson = llvm::json::Object{
          {"gemms", std::move(perKind)},
          {"saved_activation_bytes_before", savedBefore.toJson()},
          {"saved_activation_bytes_after", savedAfter.toJson()},
          {"cached_activations",
           llvm::json::Object{{"tensors", cached.tensors},
                              {"elements", cached.elements.toJson()},
                              {"high_bytes", cached.highBytes.toJson()},
                              {"bf16_bytes", (cached.elements * 2).toJson()},
                              {"fp8_bytes", cached.fp8Bytes.toJson()}}},
          {"weight_elements", weightElements.toJson()},
          {"master_weights", state.master},
          {"weight_gradients", state.grads},
          {"optimizer_moments", state.moments},
          {"master_weight_bytes",
           (weightElements * state.masterBytes).toJson()},
          {"weight_gradient_bytes",
           (weightElements * state.gradBytes).toJson()},
          {"optimizer_moment_bytes",
           (weightElements * state.momentBytes).toJson()}};
    llvm::json::Object root{
        {"policy", policyName},
        {"policy_from_module", hasPolicy},
        {"chip", chipSpec->name},
        {"ops", std::move(ops)},
        {"totals",
         llvm::json::Object{
             {"matmul_flops", mmFlops.toJson()},
             {"fp8_matmul_flops", fp8Flops.toJson()},
             {"matmul_flops_per_token", mmPerToken.toJson()},
             {"fp8_matmul_flops_per_token", fp8PerToken.toJson()},
             {"tokens", static_cast<int64_t>(tokens)},
             {"fp8_matmul_flop_share", share / 100.0},
             {"weight_bytes_before", before.toJson()},
             {"weight_bytes_after", after.toJson()}}},
        {"training", std::move(trainingJson)},
        {"fp8_ops",
         fp8OpsJson(module, [](Operation *op, llvm::json::Object &o) {
           auto func = op->getParentOfType<FunctionOpInterface>();
           o["function"] =
               cast<SymbolOpInterface>(func.getOperation()).getName().str();
           o["location"] = locationString(op->getLoc());
           o["count"] = runsPerCall(op, func.getOperation()).toJson();
         })}};
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
    return write(text, module);
  }

  os << "fp8-report: policy " << policyName << " (" << policy.getFormat()
     << ", activation block " << shapeString(policy.getActivationBlock())
     << ", weight block " << shapeString(policy.getWeightBlock()) << ", scales "
     << policy.getScaleType() << ", high " << policy.getHigh() << ")\n\n";
  os << "Matmuls (M x N x K)\n";
  Table matmuls({{4}, {22}, {28}, {12}, {5}, {18}, {12, /*right=*/true}, {0}});
  matmuls.add(
      {"#", "op", "location", "role", "prec", "MxNxK", "FLOPs", "reason"});
  // A matmul that runs several times per call (one GEMM per expert in the
  // loop of a grouped linear), and consecutive matmuls that differ in
  // nothing shown, share a row: "<count> x MxNxK" and their summed FLOPs
  // (format=json lists each op with its count).
  unsigned idx = 0;
  auto same = [](const Row &x, const Row &y) {
    return x.op == y.op && x.location == y.location && x.func == y.func &&
           x.role == y.role && x.precision == y.precision &&
           x.shape == y.shape && x.reason == y.reason;
  };
  for (size_t i = 0; i < rows.size();) {
    const Row &r = rows[i];
    size_t j = i + 1;
    Count flops = r.flops, perToken = r.flopsPerToken, count = r.count;
    if (r.isMatmul)
      for (; j < rows.size() && rows[j].isMatmul && same(r, rows[j]); ++j) {
        flops += rows[j].flops;
        perToken += rows[j].flopsPerToken;
        count += rows[j].count;
      }
    if (r.isMatmul) {
      std::string shape =
          count.value() > 1 ? count.str() + " x " + r.shape : r.shape;
      matmuls.add(
          {std::to_string(++idx), r.op,
           r.location.empty() ? r.func : r.location,
           r.gemm ? (stringifyRole(r.role) + "/" + stringifyGemmKind(*r.gemm))
                        .str()
                  : stringifyRole(r.role).str(),
           precisionName(r).str(), shape,
           perToken ? humanFlops(perToken) + "/tok" : humanFlops(flops),
           r.reason});
    }
    i = j;
  }
  matmuls.print(os);

  // Sensitive non-matmul ops, grouped (fp8-report{format=json} lists each).
  struct Group {
    Role role;
    std::optional<Precision> precision;
    std::string reason;
    unsigned count = 0;
    Count flops = 0;
  };
  std::vector<Group> groups;
  for (const Row &r : rows) {
    if (r.isMatmul)
      continue;
    auto it = llvm::find_if(groups, [&](const Group &g) {
      return g.role == r.role && g.precision == r.precision &&
             g.reason == r.reason;
    });
    if (it == groups.end()) {
      groups.push_back({r.role, r.precision, r.reason, 0, 0});
      it = std::prev(groups.end());
    }
    ++it->count;
    it->flops += r.flops;
  }
  os << "\nSensitive non-matmul ops (grouped; format=json lists each)\n";
  Table sensitive({{14}, {5}, {5, /*right=*/true}, {14, /*right=*/true}, {0}});
  sensitive.add({"role", "prec", "ops", "FLOPs", "reason"});
  for (const Group &g : groups)
    sensitive.add({stringifyRole(g.role).str(),
                   precisionName(g.precision).str(), std::to_string(g.count),
                   humanFlops(g.flops), g.reason});
  sensitive.print(os);

  os << "\nTotals\n";
  // "X + Y per token" when dynamic GEMMs are reported per token.
  auto total = [&](Count fixed, Count perToken) {
    std::string s = humanFlops(fixed);
    if (mmPerToken)
      s += " + " + humanFlops(perToken) + " per token";
    return s;
  };
  StringRef shareOf = mmPerToken ? " of the per-token FLOPs" : "";
  os << llvm::formatv("  matmul FLOPs:        {0}\n",
                      total(mmFlops, mmPerToken));
  os << llvm::formatv("  in FP8:              {0} ({1:F1}%{2})\n",
                      total(fp8Flops, fp8PerToken), share, shareOf);
  os << llvm::formatv("  in high precision:   {0} ({1:F1}%{2})\n",
                      total(mmFlops - fp8Flops, mmPerToken - fp8PerToken),
                      mmFlops || mmPerToken ? 100.0 - share : 0.0, shareOf);
  os << llvm::formatv("  linear weights:      {0} before, {1} after "
                      "(FP8 codes + scales; one weight per linear)\n",
                      humanBytes(before), humanBytes(after));
  if (training) {
    os << "\nTraining (fp8.gemm: the three GEMMs of each linear)\n";
    os << llvm::formatv("  {0,-6} {1,6} {2,14} {3,14} {4,9}\n", "gemm", "count",
                        "FP8 FLOPs", "high FLOPs", "FP8 share");
    for (GemmKind g : {GemmKind::fprop, GemmKind::dgrad, GemmKind::wgrad}) {
      const KindTotals &k = kinds[static_cast<unsigned>(g)];
      double all = (k.fp8 + k.high).value();
      os << llvm::formatv("  {0,-6} {1,6} {2,14} {3,14} {4,8:F1}%\n",
                          stringifyGemmKind(g), k.count.str(),
                          humanFlops(k.fp8), humanFlops(k.high),
                          all ? 100.0 * k.fp8.value() / all : 0.0);
    }
    os << llvm::formatv("  saved activations:   {0} in high precision, {1} "
                        "cached as FP8 (codes + scales; the weight "
                        "gradients' X)\n",
                        humanBytes(savedBefore), humanBytes(savedAfter));
    if (cached.tensors)
      os << llvm::formatv("  cached by the forward: {0} activations, {1} as "
                          "bf16, {2} as FP8 (codes + scales; measured: the "
                          "forward's results)\n",
                          cached.tensors, humanBytes(cached.elements * 2),
                          humanBytes(cached.fp8Bytes));
    os << llvm::formatv(
        "  master weights {0} ({1}), weight gradients {2} ({3}), optimizer "
        "moments {4} ({5}) for the {6} linear weight elements\n",
        state.master, humanBytes(weightElements * state.masterBytes),
        state.grads, humanBytes(weightElements * state.gradBytes),
        state.moments, humanBytes(weightElements * state.momentBytes),
        weightElements.str());
  }
  write(text, module);
}

void ReportPass::write(StringRef text, ModuleOp module) {
  // Errors on the module's location, not an op: no dump of the whole module.
  auto fail = [&](StringRef what, StringRef why) {
    emitError(module.getLoc())
        << "fp8-report: option output: cannot " << what << " the report "
        << (output == "-" ? std::string("on standard output")
                          : "to '" + output + "'")
        << ": " << why;
    signalPassFailure();
  };
  if (output == "-") {
    llvm::raw_fd_ostream &out = llvm::outs();
    out << text;
    out.flush();
    if (std::error_code ec = out.error()) {
      // Cleared so that the stream's destructor at exit does not abort.
      out.clear_error();
      return fail("write", ec.message());
    }
    return;
  }
  std::string errorMessage;
  std::unique_ptr<llvm::ToolOutputFile> file =
      openOutputFile(output, &errorMessage);
  if (!file)
    return fail("write", errorMessage);
  file->os() << text;
  file->os().close();
  if (std::error_code ec = file->os().error()) {
    file->os().clear_error();
    // Not kept: ToolOutputFile removes the partial file.
    return fail("write", ec.message());
  }
  file->keep();
}

} // namespace
