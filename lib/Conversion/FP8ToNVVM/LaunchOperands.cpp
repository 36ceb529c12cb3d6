//===- LaunchOperands.cpp - operands as the kernels read them -------------===//
//
// At the call site the tensors are handed over with bufferization.to_buffer
// (read-only) and the result comes back through bufferization.to_tensor of
// a fresh memref.alloc, so one-shot bufferization of the host program needs
// nothing special.
//
//===----------------------------------------------------------------------===//
#include "LaunchOperands.h"

#include "Launchers.h"
#include "TransposeKernel.h"

#include "fp8/Target/Hopper/GemmKernelConfig.h"
#include "fp8/Target/Hopper/TransposeKernelConfig.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::fp8;

namespace {

/// Sizes the kernels index with signed 32-bit values (TMA coordinates, the
/// i32 row count parameter) stay below this.
constexpr int64_t kMaxKernelExtent = GemmKernelConfig::kMaxExtent;

MemRefType memrefOf(Type tensorType) {
  auto t = cast<RankedTensorType>(tensorType);
  return MemRefType::get(t.getShape(), t.getElementType());
}

} // namespace

Value mlir::fp8::padCodes(ImplicitLocOpBuilder &b, Value codes) {
  auto ty = cast<RankedTensorType>(codes.getType());
  int64_t rank = ty.getRank();
  int64_t k = ty.getDimSize(rank - 1);
  if (ShapedType::isDynamic(k)) {
    // A run-time K (the Wgrad's tokens): padded to roundUp(K, 16) at run
    // time (a copy of the codes also when K is a multiple of 16).
    Value kv = tensor::DimOp::create(b, codes, rank - 1);
    Value sixteen = arith::ConstantIndexOp::create(b, 16);
    Value kPadV = arith::MulIOp::create(
        b, arith::CeilDivUIOp::create(b, kv, sixteen), sixteen);
    Value zero = arith::ConstantOp::create(
        b, ty.getElementType(), b.getFloatAttr(ty.getElementType(), 0.0));
    SmallVector<OpFoldResult> low(rank, b.getIndexAttr(0)),
        high(rank, b.getIndexAttr(0));
    high.back() = OpFoldResult(arith::SubIOp::create(b, kPadV, kv).getResult());
    return tensor::PadOp::create(b, ty, codes, low, high, zero);
  }
  int64_t kPad = GemmKernelConfig::ceilDiv(k, 16) * 16;
  if (k == kPad)
    return codes;
  SmallVector<int64_t> shape(ty.getShape());
  shape.back() = kPad;
  auto padTy = RankedTensorType::get(shape, ty.getElementType());
  Value zero = arith::ConstantOp::create(
      b, ty.getElementType(), b.getFloatAttr(ty.getElementType(), 0.0));
  SmallVector<OpFoldResult> low(rank, b.getIndexAttr(0)),
      high(rank, b.getIndexAttr(0));
  high.back() = b.getIndexAttr(kPad - k);
  return tensor::PadOp::create(b, padTy, codes, low, high, zero);
}

namespace {

/// "_<in>_to_<out>" of two shapes ("dyn" for a run-time size): the suffix
/// of a transpose launcher's name, for humans.
std::string shapeSuffix(RankedTensorType in, RankedTensorType out) {
  std::string s;
  llvm::raw_string_ostream os(s);
  auto print = [&](RankedTensorType t) {
    llvm::interleave(
        t.getShape(), os,
        [&](int64_t d) {
          if (ShapedType::isDynamic(d))
            os << "dyn";
          else
            os << d;
        },
        "x");
  };
  os << "_";
  print(in);
  os << "_to_";
  print(out);
  return s;
}

} // namespace

FailureOr<Value> mlir::fp8::transposeOnDevice(ImplicitLocOpBuilder &b,
                                              ModuleOp module, Operation *user,
                                              Value v, int64_t rowMultiple,
                                              int64_t staticRows,
                                              int64_t repeatRows,
                                              bool widenE8M0) {
  auto ty = cast<RankedTensorType>(v.getType());
  int64_t rank = ty.getRank();
  int64_t rows = ty.getDimSize(rank - 2), cols = ty.getDimSize(rank - 1);
  SmallVector<int64_t> shape(ty.getShape().drop_back(2));
  SmallVector<Value> sizes; // the result's dynamic sizes, in order
  for (int64_t d = 0; d + 2 < rank; ++d)
    if (ty.isDynamicDim(d))
      sizes.push_back(tensor::DimOp::create(b, v, d));
  if (ShapedType::isDynamic(cols))
    sizes.push_back(tensor::DimOp::create(b, v, rank - 1));
  int64_t padRows = staticRows;
  if (!ShapedType::isDynamic(rows) && !staticRows)
    padRows = GemmKernelConfig::roundUp(rows, rowMultiple);
  if (ShapedType::isDynamic(rows)) {
    Value r = tensor::DimOp::create(b, v, rank - 2);
    Value mult = arith::ConstantIndexOp::create(b, rowMultiple);
    sizes.push_back(
        arith::MulIOp::create(b, arith::CeilDivUIOp::create(b, r, mult), mult));
    padRows = ShapedType::kDynamic;
  }
  shape.append({cols, padRows});
  // E8M0 scales are widened to the f32 the kernels read on the way.
  const bool widen = widenE8M0 && isa<Float8E8M0FNUType>(ty.getElementType());
  auto outTy = RankedTensorType::get(shape, widen ? b.getF32Type()
                                                  : ty.getElementType());
  auto kernel = getOrBuildTransposeKernel(
      module, ty.getElementType().getIntOrFloatBitWidth(), repeatRows, user,
      widen);
  if (failed(kernel))
    return failure();
  Value in = toBuffer(b, v);
  Value out = allocLike(b, outTy, sizes);
  // The kernel's element index is a signed 32-bit value: a static count
  // past it is an error here (fp8-lower-to-nvvm's remark keeps such a GEMM
  // on the host: explainScaleCount), a dynamic one a run-time check.
  if (outTy.hasStaticShape() &&
      outTy.getNumElements() > TransposeKernelConfig::kMaxElements)
    return user->emitOpError("fp8-launch-kernels: an operand transposed on "
                             "the device has ")
           << outTy.getNumElements() << " elements (" << outTy
           << "); the transpose kernel's element index is signed 32-bit "
              "(at most 2^31 - 1)";
  if (!outTy.hasStaticShape()) {
    Value n = arith::ConstantIndexOp::create(b, 1);
    for (int64_t d = 0; d < rank; ++d)
      n = arith::MulIOp::create(b, n, memref::DimOp::create(b, out, d));
    Value limit =
        arith::ConstantIndexOp::create(b, TransposeKernelConfig::kMaxElements);
    cf::AssertOp::create(
        b, arith::CmpIOp::create(b, arith::CmpIPredicate::ule, n, limit),
        (user->getName().getStringRef() +
         ": an operand transposed on the device has 2^31 elements or more "
         "at run time; the transpose kernel's element index is signed "
         "32-bit")
            .str());
  }
  func::FuncOp fn = getOrDeclareLauncher(module, kernel->first, kernel->second,
                                         TypeRange{in.getType(), out.getType()},
                                         shapeSuffix(ty, outTy));
  func::CallOp::create(b, fn, ValueRange{in, out});
  return toTensor(b, out, outTy);
}

Value mlir::fp8::broadcastTensorScale(ImplicitLocOpBuilder &b, Value scales,
                                      Value codes) {
  auto codesTy = cast<RankedTensorType>(codes.getType());
  SmallVector<Value> dyn;
  if (codesTy.isDynamicDim(0))
    dyn.push_back(tensor::DimOp::create(b, codes, 0));
  Value zero = arith::ConstantIndexOp::create(b, 0);
  Value s = tensor::ExtractOp::create(b, scales, ValueRange{zero, zero});
  Value init = tensor::EmptyOp::create(b, {codesTy.getDimSize(0), 1},
                                       b.getF32Type(), dyn);
  return linalg::FillOp::create(b, s, init).getResult(0);
}

FailureOr<Value> mlir::fp8::widenE8M0OnDevice(ImplicitLocOpBuilder &b,
                                              ModuleOp module, Operation *user,
                                              Value scales) {
  auto ty = cast<RankedTensorType>(scales.getType());
  if (!isa<Float8E8M0FNUType>(ty.getElementType()))
    return scales;
  // [..., R, C] -> [..., R, 1, C] -> (transposed) [..., R, C, 1] -> [..., R,
  // C]: each one-row transpose keeps its elements in place.
  int64_t rank = ty.getRank();
  SmallVector<ReassociationIndices> rowOne;
  for (int64_t d = 0; d < rank; ++d)
    rowOne.push_back(d < rank - 2    ? ReassociationIndices{d}
                     : d == rank - 2 ? ReassociationIndices{d, d + 1}
                                     : ReassociationIndices{d + 1});
  SmallVector<int64_t> shape(ty.getShape());
  shape.insert(shape.end() - 1, 1);
  Value rows = tensor::ExpandShapeOp::create(
      b, RankedTensorType::get(shape, ty.getElementType()), scales, rowOne);
  FailureOr<Value> wide =
      transposeOnDevice(b, module, user, rows, /*rowMultiple=*/1);
  if (failed(wide))
    return failure();
  SmallVector<ReassociationIndices> colOne;
  for (int64_t d = 0; d < rank; ++d)
    colOne.push_back(d < rank - 1 ? ReassociationIndices{d}
                                  : ReassociationIndices{d, d + 1});
  return tensor::CollapseShapeOp::create(
             b, RankedTensorType::get(ty.getShape(), b.getF32Type()), *wide,
             colOne)
      .getResult();
}

Value mlir::fp8::toBuffer(ImplicitLocOpBuilder &b, Value tensor) {
  return bufferization::ToBufferOp::create(b, memrefOf(tensor.getType()),
                                           tensor, /*readOnly=*/true);
}

Value mlir::fp8::allocLike(ImplicitLocOpBuilder &b, RankedTensorType type,
                           ValueRange dynSizes) {
  return memref::AllocOp::create(b, memrefOf(type), dynSizes);
}

Value mlir::fp8::toTensor(ImplicitLocOpBuilder &b, Value buffer,
                          Type tensorType) {
  return bufferization::ToTensorOp::create(b, tensorType, buffer,
                                           /*restrict=*/true,
                                           /*writable=*/true);
}

// Run-time checks of inputs the kernels cannot report: cf.assert in the host
// program before the launcher call, so a bad input stops the program with a
// message on every runtime (CUDA or emulated) instead of a kernel storing
// +0.0 or wrapping a coordinate; the CPU lowering reports the same inputs.

void mlir::fp8::assertRowsFitKernel(ImplicitLocOpBuilder &b, Value rows,
                                    Operation *op) {
  Value limit = arith::ConstantIndexOp::create(b, kMaxKernelExtent);
  Value fits = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, rows, limit);
  cf::AssertOp::create(
      b, fits,
      (op->getName().getStringRef() +
       ": 2^31 rows or more (M) at run time; the GPU kernels' TMA "
       "coordinates and row counts are signed 32-bit")
          .str());
}

namespace {
/// One extent of a bf16 matmul's operand: (operand name, its value, dim).
struct Extent {
  StringRef operand;
  Value value;
  int64_t dim;
};
} // namespace

/// cf.assert that the extents `extents` (one iterator's, named `what`) are
/// equal at run time, where one of each pair with the first is dynamic;
/// `compiledIn` names what the kernel does not read from A.
static void assertSameExtent(ImplicitLocOpBuilder &b, Operation *op,
                             StringRef what, ArrayRef<Extent> extents,
                             StringRef compiledIn) {
  auto isDynamic = [](const Extent &e) {
    return cast<ShapedType>(e.value.getType()).isDynamicDim(e.dim);
  };
  const Extent &first = extents.front();
  const bool firstDynamic = isDynamic(first);
  for (const Extent &other : extents.drop_front()) {
    const bool otherDynamic = isDynamic(other);
    if (!firstDynamic && !otherDynamic)
      continue; // compared by the linalg verifier
    Value x = tensor::DimOp::create(b, first.value, first.dim);
    Value y = tensor::DimOp::create(b, other.value, other.dim);
    Value same = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, x, y);
    cf::AssertOp::create(
        b, same,
        (op->getName().getStringRef() + ": the " + what + " of " +
         first.operand + " (dimension " + Twine(first.dim) + ") and of " +
         other.operand + " (dimension " + Twine(other.dim) +
         ") differ at run time; the bf16 kernel computes " + compiledIn)
            .str());
  }
}

void mlir::fp8::assertBF16MatmulSizes(ImplicitLocOpBuilder &b, Operation *op,
                                      Value acc, const GemmKernelConfig &c,
                                      int64_t groups) {
  auto mm = cast<linalg::LinalgOp>(op);
  Value a = mm.getDpsInputs()[0], bw = mm.getDpsInputs()[1];
  auto aTy = cast<ShapedType>(a.getType());
  // A [G, M, K], B [G, K, N], C [G, M, N]; a matmul without G.
  const int64_t r = aTy.getRank() - 2;
  // A run-time batch count (groups = ?): the kernel takes A's G and M.
  const bool dynamicG = ShapedType::isDynamic(groups);
  StringRef compiledIn =
      dynamicG ? "A's batch count and M rows with its compiled-in N and K"
               : "A's M rows with its compiled-in batch, N and K";
  if (r == 1)
    assertSameExtent(b, op, "batch", {{"A", a, 0}, {"B", bw, 0}, {"C", acc, 0}},
                     compiledIn);
  assertSameExtent(b, op, "M", {{"A", a, r}, {"C", acc, r}}, compiledIn);
  assertSameExtent(b, op, "N", {{"B", bw, r + 1}, {"C", acc, r + 1}},
                   compiledIn);
  assertSameExtent(b, op, "K", {{"A", a, r + 1}, {"B", bw, r}}, compiledIn);
  const bool dynamicM = aTy.isDynamicDim(r);
  if (!dynamicM && !dynamicG)
    return; // the static sizes: fp8-lower-to-nvvm's checks
  Value m = dynamicM ? tensor::DimOp::create(b, a, r).getResult()
                     : arith::ConstantIndexOp::create(b, c.m).getResult();
  if (dynamicM)
    assertRowsFitKernel(b, m, op);
  Value limit = arith::ConstantIndexOp::create(b, kMaxKernelExtent);
  Value g = dynamicG ? tensor::DimOp::create(b, a, 0).getResult()
                     : arith::ConstantIndexOp::create(b, groups).getResult();
  if (r == 1) {
    // G x M < 2^62 here: M is below 2^31 and A's G x M x K elements (K >= 8)
    // are in memory. With M >= 1 it also bounds G, the kernel's i32 (with
    // M = 0 nothing is launched).
    Value rows = arith::MulIOp::create(b, g, m);
    cf::AssertOp::create(
        b, arith::CmpIOp::create(b, arith::CmpIPredicate::ult, rows, limit),
        (op->getName().getStringRef() +
         ": the batch's G x M rows of C and D are 2^31 or more at run time; "
         "the bf16 batch kernel's row index g * M + row is signed 32-bit")
            .str());
  }
  // G x ceil(M / BLOCK_M) < 2^31 and ceil(N / BLOCK_N) < 2^31: no overflow.
  Value blockM = arith::ConstantIndexOp::create(b, c.blockM);
  Value mTiles = arith::CeilDivUIOp::create(b, m, blockM);
  Value nTiles = arith::ConstantIndexOp::create(b, c.nTiles());
  Value tiles =
      arith::MulIOp::create(b, arith::MulIOp::create(b, g, mTiles), nTiles);
  cf::AssertOp::create(
      b, arith::CmpIOp::create(b, arith::CmpIPredicate::ult, tiles, limit),
      (op->getName().getStringRef() + ": 2^31 tiles or more (G x ceil(M / " +
       Twine(c.blockM) + ") x ceil(N / " + Twine(c.blockN) +
       ")) at run time; the bf16 kernel's tile index is signed 32-bit")
          .str());
}

void mlir::fp8::assertQuantizeBlocksFitKernel(ImplicitLocOpBuilder &b,
                                              Value rowBlocks, int64_t colTiles,
                                              Operation *op) {
  // rowBlocks < 2^31 (the rows are, assertRowsFitKernel) and colTiles <
  // 2^31: the index product does not wrap.
  Value perRow = arith::ConstantIndexOp::create(b, colTiles);
  Value blocks = arith::MulIOp::create(b, rowBlocks, perRow);
  Value limit = arith::ConstantIndexOp::create(b, kMaxKernelExtent);
  Value fits =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, blocks, limit);
  cf::AssertOp::create(
      b, fits,
      (op->getName().getStringRef() +
       ": 2^31 blocks or more at run time (ceil(rows / block rows) x " +
       Twine(colTiles) +
       " per block row); the quantize kernel's block index is signed 32-bit")
          .str());
}

void mlir::fp8::assertDepthFitsKernel(ImplicitLocOpBuilder &b, Value k,
                                      Operation *op) {
  Value limit = arith::ConstantIndexOp::create(b, kMaxKernelExtent);
  Value fits = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, k, limit);
  cf::AssertOp::create(
      b, fits,
      (op->getName().getStringRef() +
       ": a K of 2^31 or more at run time; the GPU kernels' TMA "
       "coordinates and K are signed 32-bit")
          .str());
}

void mlir::fp8::assertContiguousGroups(ImplicitLocOpBuilder &b,
                                       GroupedScaledMatmulOp op) {
  Value ids = op.getGroupIds();
  int64_t groups =
      cast<ScaledTensorType>(op.getB().getType()).getShape().front();
  Type i32 = b.getI32Type();
  Value zero = arith::ConstantIndexOp::create(b, 0);
  Value one = arith::ConstantIndexOp::create(b, 1);
  Value rows = tensor::DimOp::create(b, ids, 0);
  Value align = arith::ConstantIndexOp::create(b, op.getMAlignment());
  Value none = arith::ConstantIntOp::create(b, i32, -1);
  Value g = arith::ConstantIntOp::create(b, i32, groups);
  Value noRow = arith::ConstantIntOp::create(b, i32, -2); // before row 0
  Value yes = arith::ConstantIntOp::create(b, 1, 1);
  scf::ForOp::create(
      b, zero, rows, one, ValueRange{noRow},
      [&](OpBuilder &fb, Location l, Value r, ValueRange prev) {
        ImplicitLocOpBuilder lb(l, fb);
        Value gid = tensor::ExtractOp::create(lb, ids, ValueRange{r});
        // One op per statement, in the order the nested form was built.
        Value belowGroups =
            arith::CmpIOp::create(lb, arith::CmpIPredicate::slt, gid, g);
        Value atLeastNone =
            arith::CmpIOp::create(lb, arith::CmpIPredicate::sge, gid, none);
        Value inRange = arith::AndIOp::create(lb, atLeastNone, belowGroups);
        cf::AssertOp::create(lb, inRange,
                             "fp8.grouped_scaled_matmul: a group index in "
                             "group_ids is outside [-1, G)");
        Value newGroup = arith::CmpIOp::create(lb, arith::CmpIPredicate::ne,
                                               gid, prev.front());
        Value inAGroup =
            arith::CmpIOp::create(lb, arith::CmpIPredicate::ne, gid, none);
        Value startsGroupRun = arith::AndIOp::create(lb, inAGroup, newGroup);
        Value aligned =
            arith::CmpIOp::create(lb, arith::CmpIPredicate::eq,
                                  arith::RemUIOp::create(lb, r, align), zero);
        cf::AssertOp::create(
            lb,
            arith::OrIOp::create(
                lb, arith::XOrIOp::create(lb, startsGroupRun, yes), aligned),
            "fp8.grouped_scaled_matmul: a group's rows in group_ids start "
            "at a row that is not a multiple of m_alignment");
        scf::YieldOp::create(lb, ValueRange{gid});
      });
}
