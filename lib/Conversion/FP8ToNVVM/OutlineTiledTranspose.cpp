//===- OutlineTiledTranspose.cpp - transposing elementwise host kernels ---===//
//
// An elementwise host kernel gives consecutive threads consecutive elements
// of its output. An input read through a permuted map whose innermost memory
// dimension is another loop dimension (a transpose, or one fused with a
// truncf) is then read 32 sectors per warp instruction, one element each:
// 8x the bytes for f32. Here such kernels stage those inputs through shared
// memory: a CTA of 256 threads takes a 32 x 32 tile over the two loop
// dimensions, loads the staged inputs with consecutive threads along their
// innermost dimension (coalesced), waits at a barrier, and then computes
// each output element exactly as the one-thread-per-element kernel does
// (the same body ops in the same order: the same bits), its threads
// consecutive along the outputs' innermost dimension (coalesced stores).
//
//===----------------------------------------------------------------------===//
#include "OutlineHostKernels.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

#include <limits>

using namespace mlir;
using namespace mlir::fp8::detail;

namespace {

/// The largest static shared memory of a CTA (48 KiB without an opt-in).
constexpr int64_t kMaxSharedBytes = 48 * 1024;

/// Whether inputs of element type `t` are staged: the types the host
/// kernels compute on. FP8 codes (moved, never computed on: the GEMM's
/// padded operands) keep one thread per element, their workgroup buffers
/// untested.
bool isStageableType(Type t) {
  if (isa<IntegerType>(t))
    return true;
  return t.isF32() || t.isBF16() || t.isF16();
}

/// The innermost memory dimension of `operand` as a loop dimension: the
/// last result of its map, when that map is a projected permutation (no
/// constants) and the buffer's last stride is 1; std::nullopt otherwise.
std::optional<unsigned> innermostLoopDim(linalg::GenericOp op,
                                         OpOperand *operand) {
  auto ty = dyn_cast<MemRefType>(operand->get().getType());
  AffineMap map = op.getMatchingIndexingMap(operand);
  if (!ty || map.getNumResults() == 0 ||
      !map.isProjectedPermutation(/*allowZeroInResults=*/false))
    return std::nullopt;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(ty.getStridesAndOffset(strides, offset)) || strides.back() != 1)
    return std::nullopt;
  return cast<AffineDimExpr>(map.getResults().back()).getPosition();
}

} // namespace

std::optional<TransposeTiling>
fp8::detail::planTransposeTiling(linalg::GenericOp op) {
  unsigned rank = op.getNumLoops();
  if (rank < 2 || rank > 4 || op.getNumReductionLoops() != 0)
    return std::nullopt;
  TransposeTiling t;
  t.inner = rank - 1;
  // Every output is written along the threads' fastest dimension.
  for (OpOperand &init : op.getDpsInitsMutable())
    if (innermostLoopDim(op, &init) != t.inner)
      return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t sharedBytes = 0;
  for (OpOperand *input : op.getDpsInputOperands()) {
    std::optional<unsigned> k = innermostLoopDim(op, input);
    if (!k || *k == t.inner ||
        !op.getMatchingIndexingMap(input).isFunctionOfDim(t.inner) ||
        op.getMatchingBlockArgument(input).use_empty())
      continue;
    Type elem = cast<MemRefType>(input->get().getType()).getElementType();
    if (!isStageableType(elem))
      continue;
    // The first such input decides the tile's second dimension; an input
    // transposed along another stays a global read.
    if (t.staged.empty())
      t.stagedDim = *k;
    if (*k != t.stagedDim)
      continue;
    sharedBytes +=
        kTile * kTilePitch * ((elem.getIntOrFloatBitWidth() + 7) / 8);
    if (sharedBytes > kMaxSharedBytes)
      break;
    t.staged.push_back(input);
  }
  if (t.staged.empty() || ranges[t.inner] < 2 || ranges[t.stagedDim] < 2)
    return std::nullopt;
  // One CTA per tile: the grid's x dimension holds at most 2^31 - 1.
  t.tiles = 1;
  for (auto [d, range] : llvm::enumerate(ranges)) {
    int64_t n =
        d == t.inner || d == t.stagedDim ? (range + kTile - 1) / kTile : range;
    if (t.tiles > std::numeric_limits<int32_t>::max() / n)
      return std::nullopt;
    t.tiles *= n;
  }
  return t;
}

namespace {

/// The IR of one tiled kernel, built before the generic `op` in its launch.
struct TiledEmitter {
  OpBuilder &b;
  Location loc;
  linalg::GenericOp op;
  const TransposeTiling &t;
  SmallVector<int64_t> ranges;

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value ult(Value x, int64_t bound) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x,
                                 cst(bound));
  }

  /// The loop indices of the tile `tile` (row-major over the tiles: the
  /// outputs' innermost tile index fastest, then the staged dimension's,
  /// then the other loop dimensions'); the two tiled dimensions hold the
  /// tile's first index along them.
  SmallVector<Value> tileOrigin(Value tile) {
    SmallVector<Value> dims(ranges.size());
    Value rest = tile;
    auto next = [&](int64_t extent) {
      Value ext = cst(extent);
      Value index = arith::RemUIOp::create(b, loc, rest, ext);
      rest = arith::DivUIOp::create(b, loc, rest, ext);
      return index;
    };
    // One op per statement: the IR order does not depend on the compiler's
    // order of evaluating arguments.
    for (unsigned d : {t.inner, t.stagedDim}) {
      Value index = next((ranges[d] + kTile - 1) / kTile);
      Value size = cst(kTile);
      dims[d] = mul(index, size);
    }
    for (int64_t d = ranges.size() - 1; d >= 0; --d)
      if (d != static_cast<int64_t>(t.inner) &&
          d != static_cast<int64_t>(t.stagedDim))
        dims[d] = next(ranges[d]);
    return dims;
  }

  /// For each of the thread's kRowsPerThread rows `r` of the tile, an
  /// element at `inner` along the outputs' innermost dimension and `staged`
  /// along the staged one (local to the tile, ty + 8 r), inside the tile's
  /// tail guard: `body(dims, a, s)` with the loop indices and the local
  /// indices.
  void
  forEachElement(ArrayRef<Value> origin, Value tx, Value ty, bool alongStaged,
                 llvm::function_ref<void(ArrayRef<Value>, Value, Value)> body) {
    Value zero = cst(0);
    Value rows = cst(kRowsPerThread);
    Value one = cst(1);
    auto loop = scf::ForOp::create(b, loc, zero, rows, one);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value row =
        add(ty, mul(loop.getInductionVar(), cst(kTile / kRowsPerThread)));
    // The warp's 32 threads are consecutive along the staged dimension when
    // loading (its innermost in memory), along the outputs' when computing.
    Value localInner = alongStaged ? row : tx;
    Value localStaged = alongStaged ? tx : row;
    SmallVector<Value> dims(origin);
    dims[t.inner] = add(origin[t.inner], localInner);
    dims[t.stagedDim] = add(origin[t.stagedDim], localStaged);
    Value innerIn = ult(dims[t.inner], ranges[t.inner]);
    Value stagedIn = ult(dims[t.stagedDim], ranges[t.stagedDim]);
    Value inRange = arith::AndIOp::create(b, loc, innerIn, stagedIn);
    auto ifIn = scf::IfOp::create(b, loc, inRange);
    b.setInsertionPointToStart(&ifIn.getThenRegion().front());
    body(dims, localInner, localStaged);
  }

  /// The element at local (inner, staged) of a tile buffer: row `inner`,
  /// padded to kTilePitch elements so that the compute phase's warp (32
  /// consecutive `inner`) reads 32 different banks.
  Value tileOffset(Value inner, Value staged) {
    return add(mul(inner, cst(kTilePitch)), staged);
  }

  void emit(Value tid, Value block, ArrayRef<Value> buffers) {
    Value tx = arith::RemUIOp::create(b, loc, tid, cst(kTile));
    Value ty = arith::DivUIOp::create(b, loc, tid, cst(kTile));
    SmallVector<Value> origin = tileOrigin(block);
    // The staged inputs, coalesced: consecutive threads along their
    // innermost dimension.
    forEachElement(
        origin, tx, ty, /*alongStaged=*/true,
        [&](ArrayRef<Value> dims, Value inner, Value staged) {
          Value at = tileOffset(inner, staged);
          for (auto [input, buffer] : llvm::zip(t.staged, buffers)) {
            Value v = memref::LoadOp::create(
                b, loc, input->get(),
                applyMap(b, loc, op.getMatchingIndexingMap(input), dims));
            memref::StoreOp::create(b, loc, v, buffer, at);
          }
        });
    // Every staged element is in shared memory before any thread reads it.
    gpu::BarrierOp::create(b, loc);
    forEachElement(origin, tx, ty, /*alongStaged=*/false,
                   [&](ArrayRef<Value> dims, Value inner, Value staged) {
                     computeElement(dims, tileOffset(inner, staged), buffers);
                   });
  }

  /// The output elements at `dims`, as the one-thread-per-element kernel
  /// computes them: the inputs (the staged ones from their tile buffers at
  /// `at`), the outputs' elements the body reads, the body, the stores.
  void computeElement(ArrayRef<Value> dims, Value at, ArrayRef<Value> buffers) {
    OperandValues loaded;
    for (auto [input, buffer] : llvm::zip(t.staged, buffers))
      loaded[input] = memref::LoadOp::create(b, loc, buffer, at);
    IRMapping mapping;
    mapInputsAt(b, loc, op, dims, loaded, mapping);
    Block *body = op.getBlock();
    for (OpOperand &init : op.getDpsInitsMutable()) {
      BlockArgument arg = op.getMatchingBlockArgument(&init);
      if (arg.use_empty())
        continue;
      mapping.map(
          arg, memref::LoadOp::create(
                   b, loc, init.get(),
                   applyMap(b, loc, op.getMatchingIndexingMap(&init), dims)));
    }
    cloneBodyAt(b, op, dims, mapping);
    for (auto [init, yielded] : llvm::zip(op.getDpsInitsMutable(),
                                          body->getTerminator()->getOperands()))
      memref::StoreOp::create(
          b, loc, mapping.lookupOrDefault(yielded), init.get(),
          applyMap(b, loc, op.getMatchingIndexingMap(&init), dims));
  }
};

} // namespace

void fp8::detail::emitTiledTranspose(OpBuilder &b, gpu::LaunchOp launch,
                                     linalg::GenericOp op,
                                     const TransposeTiling &tiling) {
  Location loc = op.getLoc();
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  SmallVector<Value> buffers;
  for (OpOperand *input : tiling.staged) {
    Type elem = cast<MemRefType>(input->get().getType()).getElementType();
    auto ty = MemRefType::get({kTile * kTilePitch}, elem,
                              MemRefLayoutAttrInterface(), workgroup);
    buffers.push_back(launch.addWorkgroupAttribution(ty, loc));
  }
  b.setInsertionPoint(op);
  TiledEmitter e{b, loc, op, tiling, op.getStaticLoopRanges()};
  e.emit(launch.getThreadIds().x, launch.getBlockIds().x, buffers);
}
