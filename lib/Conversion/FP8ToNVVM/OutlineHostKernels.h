//===- OutlineHostKernels.h - fp8-outline-host-kernels' pieces --*- C++ -*-===//
//
// What the files of fp8-outline-host-kernels share: the checks of the op
// kernels (OutlineHostKernels.cpp) that the loop kernels also apply, the
// analysis of the host loops that become one kernel each
// (OutlineHostLoops.cpp), and the pieces of the warp-per-row kernel of a
// marked row sum (OutlineRowKernels.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef FP8_LIB_CONVERSION_FP8TONVVM_OUTLINEHOSTKERNELS_H
#define FP8_LIB_CONVERSION_FP8TONVVM_OUTLINEHOSTKERNELS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::fp8::detail {

/// Element types a kernel may load and store (bare pointers of them).
bool isMemoryType(Type t);

/// Why a body op has no GPU lowering computing the host's bits (empty when
/// it has one). Float arithmetic is f32 only: bf16/f16 arithmetic would be
/// native on the GPU and widened on the host; f64 is not emulated.
std::string unsupportedBodyOp(Operation *op);

/// Why the buffer `v` cannot be a kernel parameter (empty when it can):
/// kernels take bare pointers, so its type must describe it.
std::string whyNotParameter(Value v);

/// Whether `op` is inside a host-parallel loop (the tiled CPU kernels'
/// scf.forall, OpenMP with threads > 1), which would launch from several
/// threads, one tiny kernel per chunk.
bool inHostParallelLoop(Operation *op);

/// Whether every iterator of `op` is parallel or a reduction (the loop
/// nests a kernel runs).
bool hasParallelOrReductionIterators(linalg::LinalgOp op);

/// Whether the host loop `loop` views its buffers at its own indices: a
/// memref.subview, load or store directly in its body (not in a linalg op
/// or a nested loop). The linalg ops on such views have dynamic offsets and
/// cannot be kernels one by one (the embedding gradient's scatter-add of
/// each token's row into the table row of its id).
bool viewsPerIteration(scf::ForOp loop);

/// Why the host loop `loop` cannot become one kernel running the loop nest
/// (empty when it can; threadOp says whether threads split it): the host's
/// order for every element, so the host's bits. Accepted: loops without results
/// whose bodies hold nested scf.for, memref.subview/load/store, linalg ops on
/// buffers with parallel/reduction iterators, and the arith/math ops the
/// op kernels accept; the values they use from above are scalars or
/// buffers a kernel can take (static shapes and layouts).
std::string whyHostLoop(scf::ForOp loop);

/// The linalg op of the host loop `loop` (whyHostLoop) whose iterations the
/// loop kernel's threads split, each thread running the whole loop for its
/// own element (null: one thread runs the loop). Every element then
/// accumulates in the loop's order, as on the host: the embedding
/// backward's threads over the hidden columns each add the tokens' rows in
/// token order. It must be the loop body's only op with a region or a
/// write, all its iterators parallel (static ranges, `total` of them), its
/// one output indexed by a permutation (each element one thread's) through
/// views that keep each thread's elements across iterations
/// (keepsThreadElements), and no buffer the loop reads outside that output
/// element the output's.
linalg::LinalgOp threadOp(scf::ForOp loop, int64_t &total);

/// The rows of the buffer a loop kernel's threaded op writes one at a time
/// (the embedding gradient's table row at each token's id): `offset`, the
/// row of this iteration, a value of the loop body; `extent`, the buffer's
/// rows.
struct OwnedRows {
  Value offset;
  int64_t extent = 1;
};

/// The rows `split` (threadOp's op of `loop`) writes per iteration, when
/// exactly one offset of the views between its output and the buffer moves
/// with the iterations, along a unit dimension of a view of a buffer the
/// iterations share. The kernel's threads then also split those rows into
/// chunks, each thread running the loop for its element in its chunk's
/// rows only: every element is still added to by one thread, in the loop's
/// order. std::nullopt: no such row (or several moving offsets).
std::optional<OwnedRows> ownedRows(linalg::LinalgOp split, scf::ForOp loop);

/// A row kernel's lanes per row: a warp.
constexpr int64_t kWarpSize = 32;

/// A row sum marked `fp8.reduction_lanes` (fp8-split-reductions'
/// `row-kernels`): its reduction iterator, the number of its parallel
/// iterations (rows) and the side of the body's addition the accumulator
/// is on.
struct RowSum {
  unsigned reductionDim = 0;
  int64_t rows = 1;
  bool accumulatorFirst = true;
  arith::FastMathFlagsAttr fastmath;
  /// A row max (`arith.maximumf`): no order changes its result.
  bool max = false;
  /// Consecutive elements per lane and step (`fp8.reduction_vector`, 1
  /// when absent): lane l adds elements 32 V j + V l + v.
  int64_t vector = 1;
};

/// `lhs + rhs`, or with `sum.max` `maximumf(lhs, rhs)`, with the op's
/// fastmath flags.
Value combine(OpBuilder &b, Location loc, const RowSum &sum, Value lhs,
              Value rhs);

/// `op` as a row sum the row kernel computes, or why not (in `why`): one
/// init, one reduction iterator of a static size of at least the lanes (32,
/// a warp), a body yielding an f32 `arith.addf` or
/// `arith.maximumf` of the init's block argument (used by nothing else)
/// and a value of the inputs: the conditions of fp8-split-reductions,
/// checked again because the attribute may be written by hand.
FailureOr<RowSum> matchRowSum(linalg::GenericOp op, std::string &why);

/// The indices `map` reads at the loop indices `dims`.
/// Clones `op`'s body (its block arguments already in `mapping`) at the
/// loop indices `dims` (its linalg.index ops); the value it yields.
Value cloneBodyAt(OpBuilder &b, linalg::GenericOp op, ArrayRef<Value> dims,
                  IRMapping &mapping);

SmallVector<Value> applyMap(OpBuilder &b, Location loc, AffineMap map,
                            ArrayRef<Value> dims);

/// Values of a lane walk's operands at its current element (an input's
/// element extracted from a vector load, or a value in registers).
using OperandValues = llvm::SmallDenseMap<OpOperand *, Value, 4>;

/// One element of a lane walk (emitLaneWalk) at the loop indices `dims`:
/// `loaded` holds the operands already read, `acc` the values the walk
/// carries; returns them after the element and appends the outputs' values
/// to store at `dims` to `stores`.
using LaneElement = llvm::function_ref<SmallVector<Value>(
    OpBuilder &b, ArrayRef<Value> dims, const OperandValues &loaded,
    ValueRange acc, SmallVectorImpl<std::pair<OpOperand *, Value>> &stores)>;

/// Lane `lane`'s elements of the row at the parallel indices `dims` (of
/// N = `n` elements along order.reductionDim, set here) in the reduction
/// order of fp8-split-reductions with V = order.vector (docs/numerics.md,
/// "Reduction order"): the whole vector steps, elements `32 V j + V lane +
/// v` (V > 1), then the rest lane-strided, `offset + 32 i + lane`, then the
/// last (N - offset) % 32 elements for the lanes below their count.
/// `element` is called for each, carrying the values `start` builds (at
/// the point the V = 1 row kernels' IR always built them); in the vector
/// steps the operands of `operands` that isVectorLoadable accepts are read
/// (inputs) or written (outputs) with one aligned vector access per step
/// when every such buffer's base is aligned at run time, with scalar
/// accesses otherwise. Returns the carried values after the last element.
SmallVector<Value> emitLaneWalk(OpBuilder &b, Location loc, const RowSum &order,
                                int64_t n, SmallVector<Value> dims, Value lane,
                                ArrayRef<OpOperand *> operands,
                                llvm::function_ref<SmallVector<Value>()> start,
                                LaneElement element);

/// The lane map of a walk in `order` over rows of `n`: V where the vector
/// steps run (V > 1, n >= 32 V), else 1 (lane-strided). Two walks read
/// each other's elements in the same lane only when their maps agree.
int64_t laneMapOf(const RowSum &order, int64_t n);

/// The combiner's identity: -0.0 for the sum, -inf for the max.
Value emitIdentity(OpBuilder &b, Location loc, const RowSum &sum);

/// Maps each input block argument of `op` that `mapping` does not map yet
/// to its element at the loop indices `dims`: from `loaded` where it holds
/// the operand, a scalar operand itself, else a load through the operand's
/// indexing map (in operand order).
void mapInputsAt(OpBuilder &b, Location loc, linalg::GenericOp op,
                 ArrayRef<Value> dims, const OperandValues &loaded,
                 IRMapping &mapping);

/// The body of the reduction `op` applied to the element at `dims` and the
/// accumulator `acc`: the combined value. An input in `loaded` is taken
/// from there, the other buffers are loaded.
Value emitStep(OpBuilder &b, Location loc, linalg::GenericOp op,
               ArrayRef<Value> dims, Value acc,
               const OperandValues &loaded = OperandValues());

/// Lane `lane`'s partial sum of the row at the parallel indices `dims`
/// (dims[r] is set here): the combiner's identity (-0.0, or -inf for a
/// max), then the body's combination of the lane's elements in the order
/// of emitLaneWalk (the vector steps, the lane-strided rest, the tail), the
/// body's operand order kept (fp8-split-reductions' partial sums,
/// docs/numerics.md).
Value emitPartialSum(OpBuilder &b, Location loc, linalg::GenericOp op,
                     const RowSum &sum, SmallVector<Value> dims, Value lane);

/// The halving tree over the warp's partial sums: `v + shfl.sync.bfly(v,
/// h)` for h = 16, 8, 4, 2, 1, each lane's own value on the left. Lane 0
/// then holds fp8-split-reductions' tree: p[i] + p[i + h] for i < h.
Value emitButterfly(OpBuilder &b, Location loc, const RowSum &sum, Value v);

/// Why the one-reduction-or-more `op` (on buffers, parallel iterators
/// first) is no row kernel and runs as one thread per output element, its
/// reduction sequential (the remark on each such fallback kernel): several
/// reduction iterators, a column or contraction, rows shorter than a warp,
/// a body that is no sum or max.
std::string whyNoRowKernel(linalg::GenericOp op);

/// A column-sum kernel's threads per CTA: kWarpSize lanes of
/// kColumnsPerCta columns (256 threads, the host kernels' usual CTA).
constexpr int64_t kColumnsPerCta = 8;
constexpr int64_t kColumnThreads = kWarpSize * kColumnsPerCta;

/// `op` (marked `fp8.column_lanes`) as a sum the column kernel computes,
/// or why not (in `why`): 32 lanes, one output, one reduction iterator of
/// a static size of at least 32, a body yielding an f32 `arith.addf` of the
/// accumulator (used by nothing else) and a value of the inputs. `rows` of
/// the result counts the columns (the parallel iterations).
FailureOr<RowSum> matchColumnSum(linalg::GenericOp op, std::string &why);

/// The column sum `op` (matchColumnSum's `sum`) computed in `launch`
/// (ceil(columns / kColumnsPerCta) CTAs of kColumnThreads threads), before
/// `op` (which the caller erases): thread t of CTA b runs lane t /
/// kColumnsPerCta of column b kColumnsPerCta + t % kColumnsPerCta, its
/// partial sum (emitPartialSum: -0.0, then the column's elements 32 i +
/// lane, then the tail) into a shared-memory array of kColumnThreads f32
/// (thread t's slot t), then the halving tree over the lanes, level h
/// adding lane l + h's slot to lane l < h's value, a barrier before each
/// level (every thread reaches each: no barrier under a branch); lane 0
/// adds the init (`init` when the init's fill is folded, else the buffer's
/// element) on the side the body had its accumulator and stores the
/// column's result. The additions of fp8-split-reductions' column split,
/// in its order (docs/numerics.md, "Reduction order").
void emitColumnSum(OpBuilder &b, gpu::LaunchOp launch, linalg::GenericOp op,
                   const RowSum &sum, Value init);

/// An op of a fused row group (`fp8.row_group`, fp8-split-reductions) after
/// its row sum: a per-row op (over the sum's rows) or an elementwise op
/// (over the sum's elements).
struct RowGroupMember {
  linalg::GenericOp op;
  bool element = false;
  /// A chained row reduction (marked fp8.reduction_lanes too) over the
  /// sum's rows and elements: its partial sums, butterfly and init in the
  /// same launch, after the ops before it.
  std::optional<RowSum> reduction;
  /// A reduction's init value where its fill is folded into the kernel
  /// (foldableInitFill): the scalar every lane combines after the
  /// butterfly, in place of the buffer's element; null: loaded.
  Value init;
};

/// The outputs of a fused group that nothing reads after its kernel
/// (findDeadOutputs): the kernel never stores them, and their allocations
/// go with their deallocs (eraseDeadAllocation), so the residency
/// allocates no device buffer for them.
struct DeadOutputs {
  /// Their root allocations.
  SmallVector<Value> roots;
  /// Each dead output of an elementwise op (the value the group's ops read)
  /// -> that op: a later walk reading its elements recomputes them.
  llvm::SmallDenseMap<Value, linalg::GenericOp, 4> writers;
  /// Whether the output `out` (a view of a root or a root) is dead.
  bool isDead(Value out) const;
};

/// A marked row sum's fused group, checked on buffers (planRowGroup).
struct RowGroupPlan {
  /// The group's elementwise producers before the sum, in block order:
  /// computed and stored by the lanes before the sum's partial sums.
  SmallVector<RowGroupMember> producers;
  /// The group's ops after the sum, in block order.
  SmallVector<RowGroupMember> members;
  /// The memref.dealloc ops between the sum and its last member: the
  /// launch takes the sum's place after them, so they move after it.
  SmallVector<Operation *> deallocs;
  /// The outputs nothing reads after the kernel (findDeadOutputs).
  DeadOutputs dead;
};

/// The group `sum` (marked fp8.row_group, `row` its RowSum) leads, or why
/// the row kernel cannot compute it in one launch (in `why`): each member
/// an all-parallel linalg.generic over the sum's rows or elements, one
/// output by the identity, its body not reading it, `whyHost` empty; every
/// buffer a member reads that the group writes is the value an earlier op
/// of the group computed, read at its own row (broadcast along the row
/// by an elementwise op) or element, no other op reads a buffer the group
/// writes; between the sum and the last member only ops without memory
/// effects, allocations and deallocations.
FailureOr<RowGroupPlan>
planRowGroup(linalg::GenericOp sum, const RowSum &row,
             llvm::function_ref<std::string(linalg::LinalgOp)> whyHost,
             std::string &why);

/// Fills `plan.dead` (the group of `sum`, planRowGroup; the members' folded
/// inits set, `sumInit` the sum's): the outputs whose root is an allocation
/// (not a function argument) that exactly one op of the group writes and
/// whose every other use, through any view, is an op of the group, a
/// memref.dealloc or the fill of its init folded into the group's
/// reduction (foldableInitFill). A reduction's output is dead only with
/// its init folded (otherwise the kernel loads it). Nothing is dead in a
/// group that writes a buffer twice: a recomputed op would read the other
/// write.
void findDeadOutputs(linalg::GenericOp sum, Value sumInit, RowGroupPlan &plan);

/// Erases the dead output's allocation `root` (findDeadOutputs), its
/// deallocs and views, once the kernel and the folded fills no longer use
/// it; an error when another use is left (nothing is erased then).
LogicalResult eraseDeadAllocation(RewriterBase &rewriter, Value root);

/// The row reduction (marked fp8.reduction_lanes: a fused group's or a
/// standalone row kernel's) whose init `fill` writes, where the kernel may
/// take the fill's scalar as the init instead of loading the buffer (and
/// the fill's launch goes), or null with `why`: the fill writes an f32
/// buffer of an allocation (no other name can reach it) with an f32
/// scalar, the first op after it in its block that touches the allocation
/// (through any view, in any nested op) is that reduction, writing the
/// same view as its init and reading no view of it, one row per element of
/// the view: the reduction writes every element of its init, so the
/// readers after it see its result, never the fill's.
linalg::GenericOp foldableInitFill(linalg::FillOp fill, std::string &why);

/// The lane maps (laneMapOf) of the walks a fused row kernel ran so far
/// over the group's elements (element loops and partial sums). A walk under
/// another map touches elements that other lanes stored or read: a
/// `bar.warp.sync` (full mask) before it orders the memory accesses of the
/// warp's lanes (PTX ISA, bar.warp.sync). Where the maps agree each lane
/// touches only its own elements, in its program order: nothing is emitted.
struct WalkedLaneMaps {
  /// The maps of the walks since the last sync.
  SmallVector<int64_t, 2> maps;
  /// Emits the sync before a walk under `map` where the map of a walk since
  /// the last sync differs, and records `map`.
  void emitBefore(OpBuilder &b, Location loc, int64_t map);
};

/// The elementwise ops `ops` over the row of N = `n` elements at `dims`
/// (the sum's loop indices, dims[reductionDim] unused), in the lane map of
/// `order` (emitLaneWalk: the order of the reduction that reads them back,
/// with vector loads and stores where the types and the run-time alignment
/// allow), all ops for one element before the next, each output stored;
/// `values` maps the group's buffers to this lane's values known in
/// registers (the per-row ones). With a `reduction` (whose order is
/// `order`) the walk also carries the lane's partial sum of it, the
/// elements it reads that `ops` computed taken from registers (the same
/// values, added in emitPartialSum's order: the same bits), and returns it;
/// otherwise null. The outputs in `dead` are not stored; an element of one
/// that an earlier walk computed is recomputed from what this walk loads,
/// through its writer (recursively): the same ops on the same operands.
Value emitElementLoop(OpBuilder &b, Location loc, int64_t n,
                      const RowSum &order, ArrayRef<RowGroupMember> ops,
                      ArrayRef<Value> dims, Value lane, const IRMapping &values,
                      linalg::GenericOp reduction = {},
                      const DeadOutputs *dead = nullptr);

/// A row reduction's result after the butterfly (every lane holds the
/// row's `total`): lane 0 loads the init, shfl.sync.idx gives its value to
/// every lane (or every lane has `init`, a folded fill's scalar: the bits
/// the load would give), every lane combines it on the body's side (the
/// same bits in each lane), lane 0 stores it unless `store` is false (a
/// dead output: findDeadOutputs); the result (every lane's).
Value emitRowResult(OpBuilder &b, Location loc, linalg::GenericOp op,
                    const RowSum &sum, ArrayRef<Value> dims, Value lane,
                    Value total, Value init = {}, bool store = true);

/// The group's ops in the row's warp (every lane), after the row sum's
/// result `rowValue` (every lane the same bits) at the sum's loop indices
/// `dims` (dims[reductionDim] unused): each per-row op computed in
/// registers by every lane, lane 0 storing its output; then the
/// elementwise ops (emitElementLoop), each op's output stored, in the lane
/// map of the chained reduction after them (whose partial sum the loop
/// carries), or of the last reduction for the ops after it; a chained
/// reduction with no elementwise op before it sums the lane's own elements
/// (emitPartialSum). Each lane reads back only what it stored itself where
/// the reductions' orders agree (`walked`: the maps of the walks before,
/// the producers' and the sum's). Then the butterfly and init
/// (emitRowResult), and the ops after it follow alike. The outputs in
/// `plan.dead` are not stored (a dead element output an earlier walk
/// computed is recomputed where a later walk reads it).
void emitRowGroup(OpBuilder &b, Location loc, linalg::GenericOp sum,
                  const RowSum &row, const RowGroupPlan &plan,
                  ArrayRef<Value> dims, Value lane, Value rowValue,
                  WalkedLaneMaps &walked);

/// The tile of a transposing elementwise kernel (OutlineTiledTranspose.cpp):
/// kTile x kTile elements per CTA of kTile * kTile / kRowsPerThread threads,
/// each thread kRowsPerThread elements; a tile buffer's rows padded to
/// kTilePitch elements against bank conflicts.
constexpr int64_t kTile = 32;
constexpr int64_t kTilePitch = kTile + 1;
constexpr int64_t kRowsPerThread = 4;
constexpr int64_t kTileThreads = kTile * kTile / kRowsPerThread;

/// An all-parallel elementwise op whose inputs `staged` are read along
/// another innermost dimension than its outputs are written: a kernel of
/// `tiles` CTAs stages them through shared memory.
struct TransposeTiling {
  /// The outputs' innermost loop dimension (the last loop).
  unsigned inner = 0;
  /// The staged inputs' innermost loop dimension.
  unsigned stagedDim = 0;
  /// The inputs read through shared memory.
  SmallVector<OpOperand *, 2> staged;
  /// The CTAs: the tiles over `inner` and `stagedDim` times the other
  /// loops' extents (at most 2^31 - 1, the grid's x limit).
  int64_t tiles = 1;
};

/// The tiling of the elementwise `op` (parallel iterators only, loops of
/// rank 2 to 4, static ranges, after whyHost accepted it), or std::nullopt
/// where it keeps one thread per element: every output's map ends in the
/// last loop and its buffer's last stride is 1, and some input (f32, bf16,
/// f16 or integers, its value used) has a unit-stride last dimension read
/// at another loop through a projected permutation that also reads the
/// last loop; both tiled extents at least 2, the staged buffers within
/// 48 KiB of shared memory, the grid within 2^31 - 1 CTAs. Inputs
/// transposed along a third loop stay global reads.
std::optional<TransposeTiling> planTransposeTiling(linalg::GenericOp op);

/// The tiled kernel of `op` (inside `launch`, of `tiling.tiles` CTAs of
/// kTileThreads threads) built before it: a workgroup buffer per staged
/// input; thread (tx, ty) = (tid % 32, tid / 32) loads the staged elements
/// (ty + 8 r, tx) of its CTA's tile (r < 4, local indices along the
/// outputs' and the staged innermost dimensions: consecutive threads along
/// the staged inputs' memory), `gpu.barrier`, then computes the output
/// elements (tx, ty + 8 r) with the op's body, the staged values from
/// shared memory, the others loaded as before; elements outside the loop
/// ranges (the tails) neither load nor compute. `op` is left to erase.
void emitTiledTranspose(OpBuilder &b, gpu::LaunchOp launch,
                        linalg::GenericOp op, const TransposeTiling &tiling);

} // namespace mlir::fp8::detail

#endif // FP8_LIB_CONVERSION_FP8TONVVM_OUTLINEHOSTKERNELS_H
