//===- GemmEpilogue.cpp - the GEMM kernel's stores of D -------------------===//
//
// StoreEpilogue: each thread stores its accumulator registers as register
// pairs (two adjacent columns of one row), converted to D's element type,
// masked to [M, N]; rows of a grouped kernel that hold no result (the tile
// scheduler's emitRowValid) are stored as +0.0.
//
// TmaStoreEpilogue (GemmKernelConfig::tmaStore): the warpgroup writes its
// 64 rows of D into its staging buffer in shared memory and one of its
// threads stores them with TMA (docs/gpu-kernel.md, "The epilogue").
//
//===----------------------------------------------------------------------===//
#include "GemmEpilogue.h"
#include "GemmTileScheduler.h"

#include "fp8/Target/Hopper/WgmmaFragment.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::gemm;
using namespace mlir::fp8::wgmma;

namespace {

/// D rounded to its element type, written by each consumer warpgroup into
/// its staging buffer (GemmKernelConfig::dStagingOffset) as 128B-swizzled
/// boxes of 64 rows x 128 bytes (64 bf16 or 32 f32 columns: byte b of row r
/// of a box at r * 128 + ((b / 16) xor (r % 8)) * 16 + b % 16), then stored
/// by the warpgroup's thread 0 with one cp.async.bulk.tensor per box (TMA
/// clips the boxes at M and N) in one bulk async-group (TmaStoreStaging:
/// the waits, barriers and fence around the writes). The store runs on
/// while the warpgroup computes its next tile.
class TmaStoreEpilogue final : public Epilogue {
public:
  explicit TmaStoreEpilogue(GemmEmitter &e) : Epilogue(e), staging(e) {}
  void bindOutput(Value d) override { tmapD = d; }
  void emit(const ConsumerThread &thr, const ConsumerTile &ct,
            scf::ForOp kLoop) override;

private:
  /// bf16: one stmatrix.x4 per two 8-column groups (its four 8x8 matrices
  /// are the fragment's registers 4j .. 4j+7, WgmmaFragment.h).
  void emitStagingBF16(const ConsumerThread &thr, Value buf, scf::ForOp kLoop);
  /// f32: one st.shared.v2.f32 per register pair.
  void emitStagingF32(const ConsumerThread &thr, Value buf, scf::ForOp kLoop);
  /// f32 `lo` and `hi` rounded to bf16, packed into one b32 (lo first).
  Value packBF16(Value lo, Value hi);

  TmaStoreStaging staging;
  Value tmapD;
};

} // namespace

std::unique_ptr<Epilogue> Epilogue::create(GemmEmitter &e) {
  if (e.cfg.quantizeEpilogue)
    return std::make_unique<QuantizeEpilogue>(e);
  if (e.cfg.tmaStore)
    return std::make_unique<TmaStoreEpilogue>(e);
  if (e.cfg.kSplits > 1)
    return std::make_unique<SplitKEpilogue>(e);
  return std::make_unique<StoreEpilogue>(e);
}

void TmaStoreEpilogue::emit(const ConsumerThread &thr, const ConsumerTile &ct,
                            scf::ForOp kLoop) {
  Value buf = staging.begin();
  if (spec.resultType.isBF16())
    emitStagingBF16(thr, buf, kLoop);
  else
    emitStagingF32(thr, buf, kLoop);
  const int64_t elemBytes = spec.resultType.isBF16() ? 2 : 4;
  staging.finish(thr, ct, tmapD, 128 / elemBytes, kLoop);
}

Value TmaStoreStaging::begin() {
  elected = ir.eq(e.wgThread, ir.c32(0));
  Value bufStart = ir.c32(cfg.dStagingOffset());
  Value bufBytes = ir.c32(cfg.dStagingBytesPerConsumer());
  buf = ir.add(bufStart, ir.mul(e.wg, bufBytes));
  // The previous tile's store has read the buffer before any thread of
  // the warpgroup writes it again.
  emitWaitRead();
  emitWarpgroupBarrier();
  return buf;
}

void TmaStoreStaging::finish(const ConsumerThread &thr, const ConsumerTile &ct,
                             Value tmap, int64_t boxCols, scf::ForOp kLoop) {
  // The writes are the generic proxy's, the TMA store the async proxy's:
  // each writer fences before the barrier the storing thread waits at.
  NVVM::FenceProxyOp::create(
      b,
      NVVM::ProxyKindAttr::get(b.getContext(), NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
  emitWarpgroupBarrier();
  auto ifOp = scf::IfOp::create(b, elected, false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  // TMA coordinates, innermost first: the box's first column and row.
  Value row = ir.add(ct.tile.row0, thr.wgRow);
  auto mode =
      NVVM::TMAStoreModeAttr::get(b.getContext(), NVVM::TMAStoreMode::TILE);
  for (int64_t box = 0; box < e.consumerN / boxCols; ++box) {
    Value col = ir.add(ct.col0, ir.c32(box * boxCols));
    Value src = ir.gep(e.smem, ir.add(buf, ir.c32(box * cfg.kStoreBoxBytes)));
    NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
        b, tmap, src, ValueRange{col, row}, Value(), mode, Value());
  }
  NVVM::CpAsyncBulkCommitGroupOp::create(b);
  // After the last tile's store: its source read before the CTA exits.
  // The last tile is the tile loop's last iteration: a test of the loop's
  // bounds here, rather than a hook the driver calls after the loop.
  auto tileLoop = cast<scf::ForOp>(kLoop->getParentOp());
  Value next = ir.add(tileLoop.getInductionVar(), tileLoop.getStep());
  Value last = arith::CmpIOp::create(b, arith::CmpIPredicate::uge, next,
                                     tileLoop.getUpperBound());
  auto lastIf = scf::IfOp::create(b, last, false);
  b.setInsertionPointToStart(&lastIf.getThenRegion().front());
  NVVM::CpAsyncBulkWaitGroupOp::create(b, b.getI32IntegerAttr(0),
                                       b.getUnitAttr());
}

void TmaStoreStaging::emitWaitRead() {
  auto ifOp = scf::IfOp::create(b, elected, false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  NVVM::CpAsyncBulkWaitGroupOp::create(b, b.getI32IntegerAttr(0),
                                       b.getUnitAttr());
}

void TmaStoreStaging::emitWarpgroupBarrier() {
  Value barrierId = ir.add(e.wg, ir.c32(1));
  Value barrierThreads = ir.c32(kWarpgroupThreads);
  NVVM::BarrierOp::create(b, TypeRange{}, barrierId, barrierThreads,
                          NVVM::BarrierReductionAttr(), Value());
}

Value TmaStoreEpilogue::packBF16(Value lo, Value hi) {
  Type bf16 = b.getBF16Type(), i16 = b.getI16Type();
  auto bits = [&](Value v) -> Value {
    Value rounded = arith::TruncFOp::create(b, bf16, v);
    Value raw = arith::BitcastOp::create(b, i16, rounded);
    return arith::ExtUIOp::create(b, ir.i32, raw);
  };
  Value low = bits(lo);
  Value highBits = bits(hi);
  Value high = arith::ShLIOp::create(b, highBits, ir.c32(16));
  return arith::OrIOp::create(b, low, high);
}

void TmaStoreEpilogue::emitStagingBF16(const ConsumerThread &thr, Value buf,
                                       scf::ForOp kLoop) {
  // stmatrix.x4: lane L gives the address of row L % 8 of matrix L / 8;
  // matrix i is rows 8 (i % 2) .. + 7 of the warp's 16 and column group
  // j + i / 2 (8 columns), so lane L's row is 16 warp + 8 ((L / 8) % 2) +
  // L % 8 and its chunk (j % 8 + L / 16) xor (L % 8) = (j % 8) xor
  // (L / 16 xor L % 8) (j even): a per-thread part and a constant.
  Value rowInMatrix = ir.remu(thr.lane, ir.c32(8));
  Value matrix = ir.divu(thr.lane, ir.c32(8));
  Value matrixOdd = ir.remu(matrix, ir.c32(2));
  Value rowHalf = ir.mul(matrixOdd, ir.c32(8));
  Value warpRow = ir.mul(thr.warp, ir.c32(16));
  Value row = ir.add(warpRow, ir.add(rowHalf, rowInMatrix));
  Value rowStart = ir.add(buf, ir.mul(row, ir.c32(128)));
  Value chunkBase = ir.xori(ir.divu(thr.lane, ir.c32(16)), rowInMatrix);
  auto layout = NVVM::MMALayoutAttr::get(b.getContext(), NVVM::MMALayout::row);
  auto shape = NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8);
  auto eltType = NVVM::LdStMatrixEltTypeAttr::get(b.getContext(),
                                                  NVVM::LdStMatrixEltType::B16);
  for (int64_t j = 0; j < e.consumerN / 8; j += 2) {
    Value chunk = ir.xori(chunkBase, ir.c32(j % 8));
    Value boxStart = ir.add(rowStart, ir.c32(j / 8 * cfg.kStoreBoxBytes));
    Value offset = ir.add(boxStart, ir.mul(chunk, ir.c32(16)));
    SmallVector<Value, 4> regs;
    for (int64_t r = 4 * j; r < 4 * j + 8; r += 2)
      regs.push_back(packBF16(kLoop.getResult(1 + r), kLoop.getResult(2 + r)));
    NVVM::StMatrixOp::create(b, ir.gep(e.smem, offset), regs, layout, shape,
                             eltType);
  }
}

void TmaStoreEpilogue::emitStagingF32(const ConsumerThread &thr, Value buf,
                                      scf::ForOp kLoop) {
  // Register pair r: row rowBase + 8 slot, columns 8 g + 2 q and + 1 (g =
  // r / 4, q = lane % 4): box g / 4, byte 32 (g % 4) + 8 q of its row, so
  // chunk (2 (g % 4) + q / 2) xor (row % 8) = (2 (g % 4)) xor (q / 2 xor
  // lane / 4) at byte 8 (q % 2) of it.
  Value quad = ir.remu(thr.lane, ir.c32(4));
  Value rowInOctet = ir.divu(thr.lane, ir.c32(4));
  Value chunkBase = ir.xori(ir.divu(quad, ir.c32(2)), rowInOctet);
  Value quadOdd = ir.remu(quad, ir.c32(2));
  Value inChunk = ir.mul(quadOdd, ir.c32(8));
  Value rowStart =
      ir.add(buf, ir.add(ir.mul(thr.rowBase, ir.c32(128)), inChunk));
  auto vecTy = VectorType::get({2}, ir.f32);
  for (int64_t r = 0; r < e.accRegs; r += 2) {
    int64_t g = r / 4, slot = accumulatorRowSlot(r);
    Value chunk = ir.xori(chunkBase, ir.c32(2 * (g % 4)));
    int64_t constPart = slot * 8 * 128 + g / 4 * cfg.kStoreBoxBytes;
    Value pairStart = ir.add(rowStart, ir.c32(constPart));
    Value offset = ir.add(pairStart, ir.mul(chunk, ir.c32(16)));
    Value vec = LLVM::UndefOp::create(b, vecTy);
    vec = LLVM::InsertElementOp::create(b, vec, kLoop.getResult(1 + r),
                                        ir.c32(0));
    vec = LLVM::InsertElementOp::create(b, vec, kLoop.getResult(2 + r),
                                        ir.c32(1));
    LLVM::StoreOp::create(b, vec, ir.gep(e.smem, offset), 8);
  }
}

void StoreEpilogue::bindOutput(Value d) { dPtr = ir.toGlobal(d); }

void StoreEpilogue::emit(const ConsumerThread &, const ConsumerTile &ct,
                         scf::ForOp kLoop) {
  // Wave by wave (GemmKernelConfig::waves): wave v's accumulators are the
  // loop's results 1 + v accRegs on, its rows 64 v further.
  ValueRange acc = kLoop.getResults().drop_front();
  for (int64_t v = 0; v < cfg.waves; ++v)
    emitStores(e.waveTile(ct, v), acc.slice(v * e.accRegs, e.accRegs));
}

void StoreEpilogue::emitStores(const ConsumerTile &ct, ValueRange acc) {
  const bool bf16Out = spec.resultType.isBF16();
  Value rows[2] = {ct.rowTile, ir.add(ct.rowTile, ir.c32(8))};
  Value rowOk[2] = {ir.ult(rows[0], e.mRows), ir.ult(rows[1], e.mRows)};
  Value rowOff[2];
  for (int64_t i = 0; i < 2; ++i) {
    Value n = ir.c64(cfg.n);
    rowOff[i] = ir.mul(ir.zext64(e.globalRow(ct, rows[i])), n);
  }
  // Rows of a grouped kernel that hold no result are stored as +0.0 (null:
  // every row below M holds one).
  Value rowValid[2] = {};
  for (int64_t i = 0; i < 2; ++i)
    rowValid[i] = e.scheduler->emitRowValid(ct.tile, rows[i]);
  Type outElem = bf16Out ? Type(b.getBF16Type()) : ir.f32;
  int64_t outBytes = bf16Out ? 2 : 4;
  auto storeAt = [&](Value value, Value elemIndex, int64_t align) {
    Value p = LLVM::GEPOp::create(b, ir.ptrGlobal, outElem, dPtr,
                                  ValueRange{elemIndex});
    LLVM::StoreOp::create(b, value, p, align);
  };
  auto convert = [&](Value v, int64_t slot) -> Value {
    if (rowValid[slot])
      v = arith::SelectOp::create(b, rowValid[slot], v, ir.cf32(0.0f));
    return bf16Out ? Value(arith::TruncFOp::create(b, outElem, v)) : v;
  };
  for (int64_t r = 0; r < e.accRegs; r += 2) {
    int64_t slot = accumulatorRowSlot(r);
    Value col = ir.add(ct.colTile, ir.c32(accumulatorColOffset(r)));
    Value idx = ir.add(rowOff[slot], ir.zext64(col));
    Value v0 = acc[r], v1 = acc[r + 1];
    if (cfg.n % 2 == 0) {
      // col is even and N is even: both columns are in range together and
      // the pair is naturally aligned.
      Value ok =
          arith::AndIOp::create(b, rowOk[slot], ir.ult(col, ir.c32(cfg.n)));
      auto ifOp = scf::IfOp::create(b, ok, false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      auto vecTy = VectorType::get({2}, outElem);
      Value vec = LLVM::UndefOp::create(b, vecTy);
      Value pos0 = ir.c32(0);
      vec = LLVM::InsertElementOp::create(b, vec, convert(v0, slot), pos0);
      Value pos1 = ir.c32(1);
      vec = LLVM::InsertElementOp::create(b, vec, convert(v1, slot), pos1);
      storeAt(vec, idx, 2 * outBytes);
    } else {
      for (int64_t j = 0; j < 2; ++j) {
        Value c = ir.add(col, ir.c32(j));
        Value ok =
            arith::AndIOp::create(b, rowOk[slot], ir.ult(c, ir.c32(cfg.n)));
        auto ifOp = scf::IfOp::create(b, ok, false);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
        storeAt(convert(j ? v1 : v0, slot), ir.add(idx, ir.c64(j)), outBytes);
      }
    }
  }
}

void SplitKEpilogue::appendParameterTypes(SmallVectorImpl<Type> &types) {
  types.push_back(ir.ptr);
  types.push_back(ir.ptr);
}

void SplitKEpilogue::bindTrailingParameters(Block *entry) {
  unsigned n = entry->getNumArguments();
  workspacePtr = ir.toGlobal(entry->getArgument(n - 2));
  countersPtr = ir.toGlobal(entry->getArgument(n - 1));
}

Value SplitKEpilogue::partialIndex(Value split, Value local, int64_t r) {
  // [S, tiles, accRegs, consumer threads]: for one register the threads of
  // a warp store 32 consecutive floats. One op per statement.
  const int64_t threads = cfg.consumers * kWarpgroupThreads;
  Value tiles = ir.c32(cfg.tiles());
  Value splitStart = ir.mul(split, tiles);
  Value unit = ir.add(splitStart, local);
  Value unit64 = ir.zext64(unit);
  Value regs = ir.c64(e.accRegs);
  Value unitStart = ir.mul(unit64, regs);
  Value regIndex = ir.c64(r);
  Value reg = ir.add(unitStart, regIndex);
  Value threadCount = ir.c64(threads);
  Value regStart = ir.mul(reg, threadCount);
  Value thread = ir.zext64(e.tid);
  return ir.add(regStart, thread);
}

Value SplitKEpilogue::partialAddress(Value split, Value local, int64_t r) {
  Value index = partialIndex(split, local, r);
  return LLVM::GEPOp::create(b, ir.ptrGlobal, ir.f32, workspacePtr,
                             ValueRange{index});
}

void SplitKEpilogue::emit(const ConsumerThread &, const ConsumerTile &ct,
                          scf::ForOp kLoop) {
  const Tile &t = ct.tile;
  // The unit's partial tile: every register, the tails' too (never read
  // into D's masked positions).
  for (int64_t r = 0; r < e.accRegs; ++r) {
    Value addr = partialAddress(t.group, t.local, r);
    LLVM::StoreOp::create(b, kLoop.getResult(1 + r), addr, 4);
  }
  // Release: the partials are visible at the GPU scope before the arrival
  // (membar.gl = fence.sc.gpu, PTX ISA "membar/fence").
  auto gpuScope = NVVM::MemScopeKind::GPU;
  NVVM::MembarOp::create(b, gpuScope);
  const int64_t threads = cfg.consumers * kWarpgroupThreads;
  Value local64 = ir.zext64(t.local);
  Value threadCount = ir.c64(threads);
  Value tileStart = ir.mul(local64, threadCount);
  Value thread = ir.zext64(e.tid);
  Value counterIdx = ir.add(tileStart, thread);
  Value counter = LLVM::GEPOp::create(b, ir.ptrGlobal, ir.i32, countersPtr,
                                      ValueRange{counterIdx});
  Value one = ir.c32(1);
  Value arrived = LLVM::AtomicRMWOp::create(
      b, LLVM::AtomicBinOp::add, counter, one, LLVM::AtomicOrdering::monotonic,
      StringRef(), /*alignment=*/4);
  Value lastArrival = ir.c32(cfg.kSplits - 1);
  Value last = ir.eq(arrived, lastArrival);
  auto lastIf = scf::IfOp::create(b, last, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&lastIf.getThenRegion().front());
  // Acquire: every split's partial is visible after the last arrival.
  NVVM::MembarOp::create(b, gpuScope);
  // D = ((p_0 + p_1) + p_2) + ..., in split order whichever unit arrived
  // last (the CPU lowering's order); add.f32 gives the canonical NaN.
  SmallVector<Value> sums;
  Value first = ir.c32(0);
  for (int64_t r = 0; r < e.accRegs; ++r) {
    Value addr = partialAddress(first, t.local, r);
    sums.push_back(LLVM::LoadOp::create(b, ir.f32, addr, 4));
  }
  // Splits 1 .. S - 1, one per trip of a rolled loop: the loads in flight
  // stay one split's registers (an unrolled S x registers nest let ptxas
  // hoist them all: 128 bytes of spills at S = 7 and 128 columns).
  Value second = ir.c32(1);
  Value splitCount = ir.c32(cfg.kSplits);
  auto splits = scf::ForOp::create(b, second, splitCount, second, sums);
  {
    OpBuilder::InsertionGuard bodyGuard(b);
    b.setInsertionPointToStart(splits.getBody());
    SmallVector<Value> next;
    for (int64_t r = 0; r < e.accRegs; ++r) {
      Value addr = partialAddress(splits.getInductionVar(), t.local, r);
      Value p = LLVM::LoadOp::create(b, ir.f32, addr, 4);
      Value sum = arith::AddFOp::create(b, splits.getRegionIterArg(r), p);
      next.push_back(sum);
    }
    scf::YieldOp::create(b, next);
  }
  emitStores(ct, ValueRange(splits.getResults()));
}
