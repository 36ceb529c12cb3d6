//===- OutlineColumnKernels.cpp - the column-sum kernel -------------------===//
//
// A column sum (RMSNorm's weight gradient: the sum over the tokens of each
// hidden column) marked `fp8.column_lanes` by fp8-split-reductions
// (`row-kernels`) runs as one launch: each CTA holds the 32 lanes of 8
// columns, its threads compute the lanes' partial sums and then the halving
// tree through shared memory, a barrier between the levels. The additions
// are those of the split the CPU pipeline runs as loops (docs/numerics.md,
// "Reduction order"), in their order; split on the GPU too, the same sum
// was seven launches (the partials' -0.0 fill, the partial sums, four tree
// levels and the final add), six round trips of the partials through
// global memory. OutlineHostKernels.cpp builds the launch around it.
//
//===----------------------------------------------------------------------===//
#include "OutlineHostKernels.h"

#include "fp8/Dialect/FP8/IR/ReductionLanes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::fp8::detail;

FailureOr<RowSum> fp8::detail::matchColumnSum(linalg::GenericOp op,
                                              std::string &why) {
  FailureOr<RowSum> sum = matchRowSum(op, why);
  if (failed(sum))
    return failure();
  // (A column max is never marked: fp8-split-reductions leaves it alone.)
  if (sum->max)
    return why = "its body must yield an f32 arith.addf (a column max is "
                 "not split)",
           failure();
  return sum;
}

namespace {

/// The parallel indices of the iteration `linear` (row-major over the
/// parallel iterators, the last fastest; the reduction's index 0 until the
/// walk sets it).
SmallVector<Value> delinearize(OpBuilder &b, Location loc, linalg::GenericOp op,
                               unsigned reductionDim, Value linear) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<Value> dims(ranges.size());
  dims[reductionDim] = arith::ConstantIndexOp::create(b, loc, 0);
  Value rest = linear;
  for (int64_t d = ranges.size() - 1; d >= 0; --d) {
    if (d == static_cast<int64_t>(reductionDim))
      continue;
    Value extent = arith::ConstantIndexOp::create(b, loc, ranges[d]);
    dims[d] = arith::RemUIOp::create(b, loc, rest, extent);
    rest = arith::DivUIOp::create(b, loc, rest, extent);
  }
  return dims;
}

/// `cond ? then() : otherwise`: an scf.if yielding one value.
Value select(OpBuilder &b, Location loc, Value cond,
             llvm::function_ref<Value()> then, Value otherwise) {
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{otherwise.getType()}, cond,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  scf::YieldOp::create(b, loc, then());
  b.setInsertionPointToStart(ifOp.elseBlock());
  scf::YieldOp::create(b, loc, otherwise);
  return ifOp.getResult(0);
}

} // namespace

void fp8::detail::emitColumnSum(OpBuilder &b, gpu::LaunchOp launch,
                                linalg::GenericOp op, const RowSum &sum,
                                Value init) {
  Location loc = op.getLoc();
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto slotsType = MemRefType::get({kColumnThreads}, b.getF32Type(),
                                   MemRefLayoutAttrInterface(), workgroup);
  Value slots = launch.addWorkgroupAttribution(slotsType, loc);
  b.setInsertionPoint(op);
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  // Thread t: lane t / 8 of the CTA's column t % 8; consecutive threads
  // read consecutive columns of a token's row (coalesced: a warp reads 4
  // tokens' runs of 8 columns, 32-byte sectors of f32).
  Value tid = launch.getThreadIds().x;
  Value columns = cst(kColumnsPerCta);
  Value lane = arith::DivUIOp::create(b, loc, tid, columns);
  Value inCta = arith::RemUIOp::create(b, loc, tid, columns);
  Value first = arith::MulIOp::create(b, loc, launch.getBlockIds().x, columns);
  Value column = arith::AddIOp::create(b, loc, first, inCta);
  SmallVector<Value> dims = delinearize(b, loc, op, sum.reductionDim, column);
  // The last CTA's columns past the end add nothing but take part in every
  // barrier (a barrier must be reached by all the CTA's threads).
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        column, cst(sum.rows));
  Value identity = emitIdentity(b, loc, sum);
  Value v = select(
      b, loc, inRange,
      [&] { return emitPartialSum(b, loc, op, sum, dims, lane); }, identity);
  // The tree: at level h, lane l < h adds lane l + h's value (slot t + 8 h)
  // to its own, its own on the left: fp8-split-reductions' p[i] + p[i + h].
  // Level h reads the slots of lanes [h, 2h), which those lanes store just
  // before it (their value after level 2h, or their partial sum): each
  // lane but 0 stores once. The barrier between orders the stores before
  // the reads; a level's reads and the next level's stores touch other
  // slots ([h, 2h) and [h / 2, h)).
  for (int64_t h = kWarpSize / 2; h >= 1; h /= 2) {
    Value fromH =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, lane, cst(h));
    Value below2H = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          lane, cst(2 * h));
    Value stores = arith::AndIOp::create(b, loc, fromH, below2H);
    auto ifStores = scf::IfOp::create(b, loc, stores);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifStores.thenBlock());
      memref::StoreOp::create(b, loc, v, slots, ValueRange{tid});
    }
    gpu::BarrierOp::create(b, loc);
    Value low =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lane, cst(h));
    v = select(
        b, loc, low,
        [&] {
          Value at =
              arith::AddIOp::create(b, loc, tid, cst(h * kColumnsPerCta));
          Value high = memref::LoadOp::create(b, loc, slots, ValueRange{at});
          return combine(b, loc, sum, v, high);
        },
        v);
  }
  // Lane 0: the init on the side the body had its accumulator.
  Value isLane0 =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, cst(0));
  Value stores = arith::AndIOp::create(b, loc, isLane0, inRange);
  auto ifStore = scf::IfOp::create(b, loc, stores);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifStore.thenBlock());
  OpOperand *out = op.getDpsInitOperand(0);
  SmallVector<Value> at =
      applyMap(b, loc, op.getMatchingIndexingMap(out), dims);
  Value old = init ? init : memref::LoadOp::create(b, loc, out->get(), at);
  Value result = sum.accumulatorFirst ? combine(b, loc, sum, old, v)
                                      : combine(b, loc, sum, v, old);
  memref::StoreOp::create(b, loc, result, out->get(), at);
}
