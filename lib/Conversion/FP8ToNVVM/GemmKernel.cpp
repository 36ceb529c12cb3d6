//===- GemmKernel.cpp - sm_90a block-scaled FP8 GEMM kernel generator -----===//
//
// Builds the kernel described in Passes.td (fp8-lower-to-nvvm) directly in
// the NVVM + LLVM dialects, with scf/arith for the control flow and index
// math (lowered afterwards by the upstream scf-to-cf / arith-to-llvm /
// nvvm-to-llvm conversions).
//
// Where things come from:
// - The pipeline structure (producer warpgroup + consumer warpgroups, full/
//   empty mbarrier ring, per-K-block promotion after wgmma.wait_group 0,
//   A scales loaded by TMA as a K-block-major [KB, M] tensor) follows
//   DeepGEMM's public SM90 FP8 GEMM design; no code is taken from it.
// - Instruction semantics (wgmma, TMA, mbarrier, setmaxnreg) and the
//   descriptor/fragment layouts: PTX ISA 8.x, encoded in WgmmaFragment.h.
// - The upstream NVVM ops are used as they are in MLIR 22; those without an
//   LLVM intrinsic (try_wait.parity) become inline PTX in convert-nvvm-to-llvm.
//
//===----------------------------------------------------------------------===//
#include "GemmKernel.h"
#include "KernelBuilder.h"

#include "fp8/Target/Hopper/WgmmaFragment.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <numeric>

using namespace mlir;
using namespace mlir::fp8;

namespace {

/// Warps per warpgroup: the empty barriers count one arrival per warp.
constexpr int64_t kWarpsPerWarpgroup = wgmma::kWarpgroupThreads / 32;

NVVM::WGMMATypes wgmmaType(Type t) {
  return isa<Float8E5M2Type>(t) ? NVVM::WGMMATypes::e5m2
                                : NVVM::WGMMATypes::e4m3;
}

} // namespace

namespace {

/// How many consecutive 128-column B-scale blocks one tile can touch: the
/// tile starts at a multiple of gcd(blockN, 128) inside its first block, so
/// at most 128 - gcd columns in.
int64_t scaleBlocksPerTile(int64_t blockN) {
  int64_t maxStart = 128 - std::gcd(blockN, int64_t(128));
  return GemmKernelConfig::ceilDiv(maxStart + blockN, 128);
}

} // namespace

LLVM::LLVMFuncOp mlir::fp8::buildGemmKernel(OpBuilder &builder, Location loc,
                                            const GemmKernelSpec &spec,
                                            StringRef name,
                                            StringRef smemSymbol) {
  using namespace wgmma;
  const GemmKernelConfig &cfg = spec.config;
  MLIRContext *ctx = builder.getContext();
  ImplicitLocOpBuilder b(loc, builder);
  KernelBuilder k(b);

  // --- Signature and launch attributes --------------------------------------
  // tmapA, tmapB, tmapSA, sb, d (pointers), m (i32)[, c (pointer)]:
  // GemmKernelConfig.h; grouped kernels end with the pointer to the group
  // counts (masked) or the per-row group index (contiguous), both i32.
  SmallVector<Type> argTypes(5, k.ptr);
  argTypes.push_back(k.i32);
  const bool hasAcc = static_cast<bool>(spec.accType);
  if (hasAcc)
    argTypes.push_back(k.ptr);
  const bool masked = spec.grouping == GemmGrouping::masked;
  const bool contiguous = spec.grouping == GemmGrouping::contiguous;
  const bool grouped = masked || contiguous;
  const bool hasGroupArg = contiguous || (masked && spec.hasCounts);
  if (hasGroupArg)
    argTypes.push_back(k.ptr);
  auto fnType =
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), argTypes);
  auto fn = LLVM::LLVMFuncOp::create(b, name, fnType);
  fn->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), b.getUnitAttr());
  // gpu.kernel: the entry point of gpu.launch_func (fp8-launch-kernels).
  fn->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  // .maxntid + .minnctapersm 1 give ptxas the register cap at entry that
  // setmaxnreg needs (otherwise it ignores setmaxnreg, warning C7508).
  fn->setAttr(
      NVVM::NVVMDialect::getMaxntidAttrName(),
      b.getDenseI32ArrayAttr({static_cast<int32_t>(cfg.threads()), 1, 1}));
  fn->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(), b.getI32IntegerAttr(1));

  Block *entry = fn.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  Value tmapA = entry->getArgument(0), tmapB = entry->getArgument(1),
        tmapSA = entry->getArgument(2);
  Value sbPtr =
      LLVM::AddrSpaceCastOp::create(b, k.ptrGlobal, entry->getArgument(3));
  Value dPtr =
      LLVM::AddrSpaceCastOp::create(b, k.ptrGlobal, entry->getArgument(4));
  Value cPtr = hasAcc ? Value(LLVM::AddrSpaceCastOp::create(
                            b, k.ptrGlobal, entry->getArgument(6)))
                      : Value();
  Value groupPtr = hasGroupArg
                       ? Value(LLVM::AddrSpaceCastOp::create(
                             b, k.ptrGlobal, entry->getArguments().back()))
                       : Value();

  assert((!cfg.bScalesPerColumn || !grouped) &&
         "per-column B scales are implemented for the 2-D kernel only");
  const int64_t S = cfg.stages, C = cfg.consumers, KBlocks = cfg.kBlocks();
  const int64_t nTiles = cfg.nTiles();
  // M and the tile count: compile-time constants, or computed from the
  // run-time M (the last parameter) by a dynamic-M kernel.
  const bool dynamicM = cfg.m == GemmKernelConfig::kDynamicM;
  Value mRows = dynamicM ? entry->getArgument(5) : k.c32(cfg.m);
  Value tiles =
      dynamicM ? k.ceilDivTimes(mRows, cfg.blockM, nTiles) : k.c32(cfg.tiles());
  // Masked: the grid covers the tiles of one group times G (group-major).
  Value groupTiles = tiles;
  if (masked)
    tiles = k.mul(groupTiles, k.c32(spec.groups));
  // Each consumer warpgroup computes 64 rows x consumerN columns of the
  // tile (GemmKernelConfig::rowGroups / colSplits).
  const int64_t consumerN = cfg.consumerN();
  const int64_t accRegs = accumulatorRegisters(consumerN);
  const bool bf16Out = spec.resultType.isBF16();

  Value tid = NVVM::ThreadIdXOp::create(b, k.i32);
  Value ctaId = NVVM::BlockIdXOp::create(b, k.i32);
  Value ctaCount = NVVM::GridDimXOp::create(b, k.i32);
  Value wg = k.divu(tid, k.c32(kWarpgroupThreads));
  Value wgThread = k.remu(tid, k.c32(kWarpgroupThreads));

  Value smem = LLVM::AddressOfOp::create(b, k.ptrShared, smemSymbol);
  // 32-bit shared-window address of the ring, for the wgmma descriptors.
  Value smemAddr = LLVM::PtrToIntOp::create(b, k.i32, smem);
  auto barrier = [&](Value stage, bool full) {
    Value idx = full ? stage : k.add(stage, k.c32(S));
    return k.gep(smem, k.add(k.c32(cfg.barrierOffset()), k.mul(idx, k.c32(8))));
  };

  // --- Barrier initialisation by thread 0 -----------------------------------
  {
    auto ifOp = scf::IfOp::create(b, k.eq(tid, k.c32(0)), false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    for (int64_t s = 0; s < S; ++s) {
      // full[s]: one arrival (the producer's arrive.expect_tx) + TMA bytes.
      NVVM::MBarrierInitOp::create(b, barrier(k.c32(s), true), k.c32(1),
                                   Value());
      // empty[s]: one arrival per consumer warp once the warp is done with
      // stage s (DeepGEMM's count: 4 per warpgroup, not 128 per-thread
      // arrivals on one shared-memory word).
      NVVM::MBarrierInitOp::create(b, barrier(k.c32(s), false),
                                   k.c32(C * kWarpsPerWarpgroup), Value());
    }
    // Make the initialised barriers visible to the async (TMA) proxy.
    NVVM::FenceMbarrierInitOp::create(b);
    // The three tensor maps stay in global memory (the upstream mgpu ABI
    // hands the kernel pointers); prefetch.tensormap brings them into the
    // SM's descriptor cache while the CTA synchronises, so the producer's
    // first TMA does not wait for them (PTX ISA, prefetch.tensormap, sm_90).
    for (Value map : {tmapA, tmapB, tmapSA})
      NVVM::PrefetchOp::create(b, NVVM::PrefetchCacheLevelAttr(),
                               NVVM::CacheEvictionPriorityAttr(), map,
                               /*predicate=*/Value(), b.getUnitAttr());
  }
  NVVM::Barrier0Op::create(b);

  // Tile t covers rows [mt*BM, +BM) and columns [nt*BN, +BN). Row-major
  // (groupM = 1): mt = t / nTiles, nt = t % nTiles. Grouped order
  // (GemmKernelConfig::groupedTileCoords): groups of groupM tile rows, each
  // swept column by column, so a wave of CTAs shares A and B panels in L2
  // (issue 17: row-major re-streams all of B every wave). One op per
  // statement: the IR order is fixed.
  const int64_t G = cfg.groupM;
  Value mTilesV;
  if (G > 1)
    mTilesV =
        dynamicM ? k.ceilDivTimes(mRows, cfg.blockM, 1) : k.c32(cfg.mTiles());
  auto tileCoords = [&](Value tile) -> std::pair<Value, Value> {
    if (G == 1)
      return std::make_pair(k.divu(tile, k.c32(nTiles)),
                            k.remu(tile, k.c32(nTiles)));
    Value perGroup = k.c32(G * nTiles);
    Value group = k.divu(tile, perGroup);
    Value groupRows = k.c32(G);
    Value first = k.mul(group, groupRows);
    Value left = k.sub(mTilesV, first);
    Value height = arith::MinUIOp::create(b, left, groupRows);
    Value groupStart = k.mul(group, perGroup);
    Value r = k.sub(tile, groupStart);
    Value rowInGroup = k.remu(r, height);
    Value mt = k.add(first, rowInGroup);
    Value nt = k.divu(r, height);
    return std::make_pair(mt, nt);
  };
  // A tile of the grid: its group (grouped kernels), its first row in the
  // group's rows (masked) or the operand's (contiguous), its first column,
  // and, for a grouped kernel whose rows can be empty, whether it has rows
  // to compute (else the K loop runs no block and the tile stores +0.0).
  // Producer and consumers derive the same values, so they agree on the
  // ring slots a skipped tile does not use.
  struct Tile {
    Value g, row0, col0, active, rowsValid;
  };
  auto loadI32 = [&](Value index) -> Value {
    return LLVM::LoadOp::create(
        b, k.i32,
        LLVM::GEPOp::create(b, k.ptrGlobal, k.i32, groupPtr,
                            ValueRange{k.zext64(index)}));
  };
  auto tileOf = [&](Value tile) {
    Tile t;
    Value local = tile;
    if (masked) {
      t.g = k.divu(tile, groupTiles);
      local = k.remu(tile, groupTiles);
    }
    auto [mt, nt] = tileCoords(local);
    t.row0 = k.mul(mt, k.c32(cfg.blockM));
    t.col0 = k.mul(nt, k.c32(cfg.blockN));
    if (masked && spec.hasCounts) {
      // counts[g] (signed: a negative count is an empty group; a count
      // above M keeps all M rows, the row bound of the epilogue).
      t.rowsValid = loadI32(t.g);
      t.active = arith::CmpIOp::create(b, arith::CmpIPredicate::slt, t.row0,
                                       t.rowsValid);
    } else if (contiguous) {
      // Groups start at multiples of m_alignment, a multiple of BLOCK_M, so
      // the tile's rows belong to the group of its first row or are padding;
      // an index outside [0, G) (padding, -1) leaves the tile empty.
      t.g = loadI32(t.row0);
      t.active = k.ult(t.g, k.c32(spec.groups));
    }
    return t;
  };
  // The K blocks a tile runs: none for an empty tile of a grouped kernel.
  auto kBlocksOf = [&](const Tile &t) -> Value {
    if (!t.active)
      return k.c32(KBlocks);
    return arith::SelectOp::create(b, t.active, k.c32(KBlocks), k.c32(0));
  };
  auto stagePhase = [&](Value it) {
    return std::make_pair(k.remu(it, k.c32(S)),
                          k.andi(k.divu(it, k.c32(S)), k.c32(1)));
  };
  Value ticks =
      k.c32(0x989680); // try_wait suspend-time hint (10 ms, as CUTLASS)

  auto roleIf = scf::IfOp::create(b, k.eq(wg, k.c32(C)), true);
  // --- Producer warpgroup ----------------------------------------------------
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&roleIf.getThenRegion().front());
    NVVM::SetMaxRegisterOp::create(
        b, b.getI32IntegerAttr(cfg.producerRegs),
        NVVM::SetMaxRegisterActionAttr::get(
            ctx, NVVM::SetMaxRegisterAction::decrease));
    auto electIf = scf::IfOp::create(b, k.eq(wgThread, k.c32(0)), false);
    b.setInsertionPointToStart(&electIf.getThenRegion().front());
    auto tileLoop =
        scf::ForOp::create(b, ctaId, tiles, ctaCount, ValueRange{k.c32(0)});
    b.setInsertionPointToStart(tileLoop.getBody());
    Tile tile = tileOf(tileLoop.getInductionVar());
    Value row0 = tile.row0, col0 = tile.col0;
    auto kLoop = scf::ForOp::create(b, k.c32(0), kBlocksOf(tile), k.c32(1),
                                    ValueRange{tileLoop.getRegionIterArg(0)});
    {
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(kLoop.getBody());
      Value kb = kLoop.getInductionVar(), it = kLoop.getRegionIterArg(0);
      auto [s, ph] = stagePhase(it);
      // Wait until the consumers released this slot (the first pass through
      // the ring waits on the already-complete phase before phase 0).
      NVVM::MBarrierTryWaitParityOp::create(b, barrier(s, false),
                                            k.xori(ph, k.c32(1)), ticks);
      Value full = barrier(s, true);
      NVVM::MBarrierArriveExpectTxOp::create(
          b, Type(), full, k.c32(cfg.stageTxBytes()),
          NVVM::MemScopeKindAttr::get(ctx, NVVM::MemScopeKind::CTA),
          b.getBoolAttr(false), Value());
      Value kCoord = k.mul(kb, k.c32(cfg.blockK));
      auto tma = [&](Value dstOffset, Value map, ValueRange coords) {
        // The classic sm_90 form: a shared::cluster destination (a CTA's own
        // shared::cta address is a valid shared::cluster address).
        Value dst = LLVM::AddrSpaceCastOp::create(
            b, LLVM::LLVMPointerType::get(ctx, 7), k.gep(smem, dstOffset));
        NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
            b, dst, map, coords, full, ValueRange{}, Value(), Value(),
            NVVM::TMALoadModeAttr::get(ctx, NVVM::TMALoadMode::TILE),
            b.getBoolAttr(false), NVVM::CTAGroupKindAttr(), Value());
      };
      // Grouped operands are 3-D maps with the group outermost ([G, N, K]
      // B, masked [G, M, K] A and [G, KB, M] A scales): a box never crosses
      // into another group, and the rows past a group's end are zero fill.
      auto coords = [&](Value inner, Value outer, bool byGroup) {
        SmallVector<Value, 3> c{inner, outer};
        if (byGroup)
          c.push_back(tile.g);
        return c;
      };
      tma(k.mul(s, k.c32(cfg.aStageBytes())), tmapA,
          coords(kCoord, row0, masked));
      tma(k.add(k.c32(cfg.bRingOffset()), k.mul(s, k.c32(cfg.bStageBytes()))),
          tmapB, coords(kCoord, col0, grouped));
      tma(k.add(k.c32(cfg.saRingOffset()), k.mul(s, k.c32(cfg.saStageBytes()))),
          tmapSA, coords(row0, kb, masked));
      scf::YieldOp::create(b, ValueRange{k.add(it, k.c32(1))});
    }
    scf::YieldOp::create(b, kLoop.getResults());
  }

  // --- Consumer warpgroups ---------------------------------------------------
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&roleIf.getElseRegion().front());
    NVVM::SetMaxRegisterOp::create(
        b, b.getI32IntegerAttr(cfg.consumerRegs),
        NVVM::SetMaxRegisterActionAttr::get(
            ctx, NVVM::SetMaxRegisterAction::increase));
    // Fragment map, per-thread part (WgmmaFragment.h): this thread's rows are
    // rowBase and rowBase + 8 of its warpgroup's 64-row slice; its columns
    // colBase + accumulatorColOffset(r).
    Value warp = k.divu(wgThread, k.c32(32)),
          lane = k.remu(wgThread, k.c32(32));
    Value rowBase = k.add(k.mul(warp, k.c32(16)), k.divu(lane, k.c32(4)));
    Value colBase = k.mul(k.remu(lane, k.c32(4)), k.c32(2));
    // This warpgroup's rows and columns in the tile: row group
    // wg % rowGroups, column group wg / rowGroups (without a column split,
    // the row group is wg and the columns start at the tile's).
    const bool colSplit = cfg.colSplits() > 1;
    Value wgRowGroup = colSplit ? k.remu(wg, k.c32(cfg.rowGroups())) : wg;
    Value wgRow = k.mul(wgRowGroup, k.c32(kTileM));
    Value wgCol =
        colSplit ? k.mul(k.divu(wg, k.c32(cfg.rowGroups())), k.c32(consumerN))
                 : Value();

    auto tileLoop =
        scf::ForOp::create(b, ctaId, tiles, ctaCount, ValueRange{k.c32(0)});
    b.setInsertionPointToStart(tileLoop.getBody());
    Tile tile = tileOf(tileLoop.getInductionVar());
    // B scales: one per 128 columns and K block. Columns 8j..8j+7 of the
    // tile (register group j of the fragment map, WgmmaFragment.h) lie in
    // one 128-column block, since tiles start at multiples of 8: block
    // (col0 + 8j) / 128. The tile touches up to `sbCount` blocks from
    // col0 / 128 on; which group falls in which is static when BLOCK_N
    // divides 128 or is a multiple of it, else it depends on col0 % 128.
    // (This warpgroup's columns: consumerN from col0, a multiple of
    // consumerN.)
    const int64_t sbCount = scaleBlocksPerTile(consumerN);
    const bool sbStatic = (cfg.scaleBlocksAligned() && consumerN % 128 == 0) ||
                          128 % cfg.blockN == 0;
    Value col0 = tile.col0;
    if (colSplit)
      col0 = k.add(col0, wgCol);
    Value sbBlock0 = k.divu(col0, k.c32(128));
    // A column group of the last tile may start past N (all its columns
    // masked): its scale loads stay in the B-scale array.
    if (colSplit)
      sbBlock0 =
          arith::MinUIOp::create(b, sbBlock0, k.c32(cfg.nScaleBlocks() - 1));
    Value sbRel = sbStatic ? Value() : k.remu(col0, k.c32(128));
    SmallVector<Value> init{tileLoop.getRegionIterArg(0)};
    // This thread's output positions (fragment map): rows rowTile and
    // rowTile + 8, columns colTile + accumulatorColOffset(r).
    Value rowTile = k.add(tile.row0, k.add(wgRow, rowBase));
    Value colTile = k.add(col0, colBase);
    // C and D of a masked kernel are [G, M, N]: group g's rows start at g*M.
    Value groupRow0 = masked ? k.mul(tile.g, mRows) : Value();
    auto globalRow = [&](Value row) {
      return groupRow0 ? k.add(groupRow0, row) : row;
    };
    // The B scales of a grouped kernel are [G, ceil(N/128), KB].
    Value sbGroup0 =
        grouped ? k.mul(tile.g, k.c32(cfg.nScaleBlocks() * KBlocks)) : Value();
    if (hasAcc) {
      // The accumulator starts at C (converted to f32, exact from bf16), as
      // the reference lowering's promotion starts from C: then
      // acc = fma(partial, sa * sb, acc) per K block, the same sequence.
      // Positions outside [M, N] read a clamped in-range element (no
      // branch); their values are never stored.
      Type cElem = spec.accType.isBF16() ? Type(b.getBF16Type()) : k.f32;
      Value lastRow = k.add(mRows, k.c32(-1));
      Value rowC[2] = {
          arith::MinUIOp::create(b, rowTile, lastRow),
          arith::MinUIOp::create(b, k.add(rowTile, k.c32(8)), lastRow)};
      for (int64_t r = 0; r < accRegs; ++r) {
        Value col = arith::MinUIOp::create(
            b, k.add(colTile, k.c32(accumulatorColOffset(r))),
            k.c32(cfg.n - 1));
        Value idx =
            k.add(k.mul(k.zext64(globalRow(rowC[accumulatorRowSlot(r)])),
                        k.c64(cfg.n)),
                  k.zext64(col));
        Value v = LLVM::LoadOp::create(
            b, cElem,
            LLVM::GEPOp::create(b, k.ptrGlobal, cElem, cPtr, ValueRange{idx}));
        init.push_back(
            cElem == k.f32 ? v : Value(arith::ExtFOp::create(b, k.f32, v)));
      }
    } else {
      init.append(accRegs, k.cf32(0.0f));
    }
    auto kLoop =
        scf::ForOp::create(b, k.c32(0), kBlocksOf(tile), k.c32(1), init);
    {
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(kLoop.getBody());
      Value kb = kLoop.getInductionVar(), it = kLoop.getRegionIterArg(0);
      auto [s, ph] = stagePhase(it);
      // The B scales of the tile's blocks, loaded before the wait so their
      // latency hides behind it; blocks past the last one (a tile at the N
      // edge) are clamped to it and feed only masked columns.
      SmallVector<Value> sbv;
      // Per-column B scales (b blocks [1, 128]): the scales of this
      // thread's columns colTile + 8j and + 1 of register group j are
      // adjacent in the transposed [KB, Np] array: one 8-byte load per
      // group (colTile even, Np a multiple of 8: aligned), consumerN / 8
      // loads per K block at constant offsets 32j bytes from the first,
      // issued before the wait as the block scales are. Np covers every
      // column of every tile (zero-padded by the host), so no load needs a
      // clamp: with a clamp per group ptxas kept the clamped indices live
      // and spilled at BLOCK_N = 160.
      SmallVector<Value> sbPairs;
      if (cfg.bScalesPerColumn) {
        Value sbBase = LLVM::GEPOp::create(
            b, k.ptrGlobal, k.f32, sbPtr,
            ValueRange{k.add(k.mul(kb, k.c32(cfg.bScaleColumns())), colTile)});
        auto pairTy = VectorType::get({2}, k.f32);
        for (int64_t j = 0; j < accRegs / 4; ++j)
          sbPairs.push_back(LLVM::LoadOp::create(
              b, pairTy,
              j ? Value(LLVM::GEPOp::create(
                      b, k.ptrGlobal, k.f32, sbBase,
                      ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(8 * j)}))
                : sbBase,
              /*alignment=*/8));
      } else {
        for (int64_t i = 0; i < sbCount; ++i) {
          Value blk = k.add(sbBlock0, k.c32(i));
          if (i > 0)
            blk = arith::MinUIOp::create(b, blk, k.c32(cfg.nScaleBlocks() - 1));
          Value sbIdx = k.add(k.mul(blk, k.c32(KBlocks)), kb);
          if (sbGroup0)
            sbIdx = k.add(sbGroup0, sbIdx);
          sbv.push_back(LLVM::LoadOp::create(
              b, k.f32,
              LLVM::GEPOp::create(b, k.ptrGlobal, k.f32, sbPtr,
                                  ValueRange{sbIdx})));
        }
      }
      NVVM::MBarrierTryWaitParityOp::create(b, barrier(s, true), ph, ticks);

      // Descriptors: K-major, 128B swizzle, SBO 1024 (WgmmaFragment.h).
      Value aAddr =
          k.add(smemAddr, k.add(k.mul(s, k.c32(cfg.aStageBytes())),
                                k.mul(wgRowGroup, k.c32(kTileM * cfg.blockK))));
      // B rows (N) are 128-byte lines; a column group starts consumerN
      // lines in (a multiple of 8: whole 1024-byte swizzle atoms).
      Value bStage =
          k.add(k.c32(cfg.bRingOffset()), k.mul(s, k.c32(cfg.bStageBytes())));
      if (colSplit)
        bStage = k.add(bStage, k.mul(wgCol, k.c32(cfg.blockK)));
      Value bAddr = k.add(smemAddr, bStage);
      auto desc = [&](Value addr) {
        Value field = k.shru(k.andi(addr, k.c32(0x3FFFF)), k.c32(4));
        return k.ori(k.zext64(field),
                     k.c64(static_cast<int64_t>(kKMajorSw128ConstBits)));
      };
      Value descA = desc(aAddr), descB = desc(bAddr);
      auto scaleIn = NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one);

      Value scale[2][GemmKernelConfig::kMaxScaleBlocksPerTile] = {};
      Value sa[2];
      // The B scale of register group j, as a block index into sbv (static)
      // or a select between the loaded blocks (run time).
      auto sbOfGroup = [&](int64_t j, int64_t &staticIdx) -> Value {
        if (sbStatic) {
          staticIdx = 8 * j / 128;
          return sbv[staticIdx];
        }
        staticIdx = -1;
        Value rel = k.add(sbRel, k.c32(8 * j));
        Value v = sbv[0];
        for (int64_t i = 1; i < sbCount; ++i)
          v = arith::SelectOp::create(
              b,
              arith::CmpIOp::create(b, arith::CmpIPredicate::uge, rel,
                                    k.c32(128 * i)),
              sbv[i], v);
        return v;
      };

      auto structTy = LLVM::LLVMStructType::getLiteral(
          ctx, SmallVector<Type>(accRegs, k.f32));
      Value partial = LLVM::UndefOp::create(b, structTy);
      NVVM::WgmmaFenceAlignedOp::create(b);
      for (int64_t kk = 0; kk < cfg.blockK / kFp8K; ++kk) {
        Value step = k.c64(static_cast<int64_t>(kmajorSw128KStep(kk)));
        partial = NVVM::WgmmaMmaAsyncOp::create(
            b, structTy, partial,
            kk ? k.b.createOrFold<arith::AddIOp>(descA, step) : descA,
            kk ? k.b.createOrFold<arith::AddIOp>(descB, step) : descB,
            NVVM::MMAShapeAttr::get(ctx, kTileM, consumerN, kFp8K),
            NVVM::WGMMATypesAttr::get(ctx, wgmmaType(spec.aType)),
            NVVM::WGMMATypesAttr::get(ctx, wgmmaType(spec.bType)),
            NVVM::WGMMATypesAttr::get(ctx, NVVM::WGMMATypes::f32),
            NVVM::WGMMAScaleOutAttr::get(ctx, kk ? NVVM::WGMMAScaleOut::one
                                                 : NVVM::WGMMAScaleOut::zero),
            scaleIn, scaleIn,
            NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::row),
            NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::col),
            NVVM::MMAIntOverflowAttr());
      }
      NVVM::WgmmaGroupSyncAlignedOp::create(b);
      NVVM::WgmmaWaitGroupSyncOp::create(b, b.getI64IntegerAttr(0));

      // The two A scales of this thread's rows, from the stage's scale slot.
      Value saBase = k.gep(smem, k.add(k.c32(cfg.saRingOffset()),
                                       k.mul(s, k.c32(cfg.saStageBytes()))));
      Value saRow = k.add(wgRow, rowBase);
      sa[0] =
          LLVM::LoadOp::create(b, k.f32,
                               LLVM::GEPOp::create(b, k.ptrShared, k.f32,
                                                   saBase, ValueRange{saRow}));
      sa[1] = LLVM::LoadOp::create(
          b, k.f32,
          LLVM::GEPOp::create(b, k.ptrShared, k.f32, saBase,
                              ValueRange{k.add(saRow, k.c32(8))}));
      // Release the slot, once per warp: wgmma has read A/B (wait_group 0)
      // and every lane has its A scales in registers. bar.warp.sync orders
      // the other lanes' scale loads before lane 0's arrive (its release
      // covers only its own accesses; PTX ISA, bar.warp.sync and the memory
      // consistency model), so the producer cannot refill the slot under a
      // lagging lane.
      NVVM::SyncWarpOp::create(b, k.c32(-1));
      auto laneIf = scf::IfOp::create(b, k.eq(lane, k.c32(0)), false);
      {
        OpBuilder::InsertionGuard g3(b);
        b.setInsertionPointToStart(&laneIf.getThenRegion().front());
        NVVM::MBarrierArriveOp::create(
            b, Type(), barrier(s, false), Value(),
            NVVM::MemScopeKindAttr::get(ctx, NVVM::MemScopeKind::CTA));
      }
      // acc += partial * (sa[row] * sb[block of the column]), the reference
      // lowering's order of operations.
      SmallVector<Value> yields{k.add(it, k.c32(1))};
      if (cfg.bScalesPerColumn) {
        for (int64_t r = 0; r < accRegs; r += 4) {
          // acc = fma(partial, sa[row] * sb[col], acc): one scale product per
          // register (its row slot and column), in the reference's order.
          for (int64_t q = r; q < r + 4 && q < accRegs; ++q) {
            Value sbq =
                LLVM::ExtractElementOp::create(b, sbPairs[r / 4], k.c32(q % 2));
            Value p = LLVM::ExtractValueOp::create(b, partial, q);
            yields.push_back(k.fma(p, k.fmul(sa[accumulatorRowSlot(q)], sbq),
                                   kLoop.getRegionIterArg(1 + q)));
          }
        }
      } else {
        for (int64_t r = 0; r < accRegs; r += 4) {
          int64_t staticIdx;
          Value sbj = sbOfGroup(r / 4, staticIdx);
          Value groupScale[2];
          for (int64_t slot = 0; slot < 2; ++slot) {
            if (staticIdx >= 0) {
              Value &memo = scale[slot][staticIdx];
              if (!memo)
                memo = k.fmul(sa[slot], sbj);
              groupScale[slot] = memo;
            } else {
              groupScale[slot] = k.fmul(sa[slot], sbj);
            }
          }
          for (int64_t q = r; q < r + 4 && q < accRegs; ++q) {
            Value p = LLVM::ExtractValueOp::create(b, partial, q);
            yields.push_back(k.fma(p, groupScale[accumulatorRowSlot(q)],
                                   kLoop.getRegionIterArg(1 + q)));
          }
        }
      }
      scf::YieldOp::create(b, yields);
    }

    // Epilogue: masked stores of register pairs (two adjacent columns).
    Value rows[2] = {rowTile, k.add(rowTile, k.c32(8))};
    Value rowOk[2] = {k.ult(rows[0], mRows), k.ult(rows[1], mRows)};
    Value rowOff[2] = {k.mul(k.zext64(globalRow(rows[0])), k.c64(cfg.n)),
                       k.mul(k.zext64(globalRow(rows[1])), k.c64(cfg.n))};
    // Rows of a grouped kernel that hold no result are stored as +0.0: masked
    // rows at or past counts[g]; contiguous rows whose group index is not
    // the tile's group (padding), or every row of an empty tile.
    Value rowValid[2] = {};
    for (int64_t i = 0; i < 2; ++i) {
      if (masked && spec.hasCounts) {
        rowValid[i] = arith::CmpIOp::create(b, arith::CmpIPredicate::slt,
                                            rows[i], tile.rowsValid);
      } else if (contiguous) {
        Value clamped =
            arith::MinUIOp::create(b, rows[i], k.add(mRows, k.c32(-1)));
        rowValid[i] = arith::AndIOp::create(b, tile.active,
                                            k.eq(loadI32(clamped), tile.g));
      }
    }
    Type outElem = bf16Out ? Type(b.getBF16Type()) : k.f32;
    int64_t outBytes = bf16Out ? 2 : 4;
    auto storeAt = [&](Value value, Value elemIndex, int64_t align) {
      Value p = LLVM::GEPOp::create(b, k.ptrGlobal, outElem, dPtr,
                                    ValueRange{elemIndex});
      LLVM::StoreOp::create(b, value, p, align);
    };
    auto convert = [&](Value v, int64_t slot) -> Value {
      if (rowValid[slot])
        v = arith::SelectOp::create(b, rowValid[slot], v, k.cf32(0.0f));
      return bf16Out ? Value(arith::TruncFOp::create(b, outElem, v)) : v;
    };
    for (int64_t r = 0; r < accRegs; r += 2) {
      int64_t slot = accumulatorRowSlot(r);
      Value col = k.add(colTile, k.c32(accumulatorColOffset(r)));
      Value idx = k.add(rowOff[slot], k.zext64(col));
      Value v0 = kLoop.getResult(1 + r), v1 = kLoop.getResult(2 + r);
      if (cfg.n % 2 == 0) {
        // col is even and N is even: both columns are in range together and
        // the pair is naturally aligned.
        Value ok =
            arith::AndIOp::create(b, rowOk[slot], k.ult(col, k.c32(cfg.n)));
        auto ifOp = scf::IfOp::create(b, ok, false);
        OpBuilder::InsertionGuard g3(b);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
        auto vecTy = VectorType::get({2}, outElem);
        Value vec = LLVM::UndefOp::create(b, vecTy);
        vec =
            LLVM::InsertElementOp::create(b, vec, convert(v0, slot), k.c32(0));
        vec =
            LLVM::InsertElementOp::create(b, vec, convert(v1, slot), k.c32(1));
        storeAt(vec, idx, 2 * outBytes);
      } else {
        for (int64_t e = 0; e < 2; ++e) {
          Value c = k.add(col, k.c32(e));
          Value ok =
              arith::AndIOp::create(b, rowOk[slot], k.ult(c, k.c32(cfg.n)));
          auto ifOp = scf::IfOp::create(b, ok, false);
          OpBuilder::InsertionGuard g3(b);
          b.setInsertionPointToStart(&ifOp.getThenRegion().front());
          storeAt(convert(e ? v1 : v0, slot), k.add(idx, k.c64(e)), outBytes);
        }
      }
    }
    scf::YieldOp::create(b, ValueRange{kLoop.getResult(0)});
  }
  LLVM::ReturnOp::create(b, ValueRange{});
  return fn;
}
