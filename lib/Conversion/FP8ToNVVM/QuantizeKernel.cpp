//===- QuantizeKernel.cpp - sm_90a FP8 block quantize kernel generator ----===//
//
// The GPU form of `fp8.quantize` for the DeepSeek-V3 blocks (1x128 tiles of
// activations, 128x128 blocks of weights), built like the GEMM kernel in the
// NVVM + LLVM dialects with arith/scf. Per block (numerics contract §1):
//   amax = max |x| over the valid elements  (max.NaN: NaN propagates; the
//          lanes combine through shfl.sync.bfly, the warps of a 128x128
//          block through shared memory)
//   s    = createDequantScale(amax)         (the CPU reference's own builder:
//          eps, pow2, the "not a normal f32 -> 1" rule, IEEE division)
//   q    = cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32(x / s)  (div.rn.f32)
// so codes and scales are meant to equal the CPU reference lowering's bit
// for bit (NVIDIA's hardware conversion is the one cuda_fp8.h's host
// functions model). Launch: QuantizeKernelConfig.h.
//
//===----------------------------------------------------------------------===//
#include "QuantizeKernel.h"
#include "KernelBuilder.h"

#include "fp8/Dialect/FP8/Utils/FP8Arith.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::fp8;

LLVM::LLVMFuncOp mlir::fp8::buildQuantizeKernel(OpBuilder &builder,
                                                Location loc,
                                                const QuantizeKernelSpec &spec,
                                                StringRef name,
                                                StringRef amaxSymbol) {
  using Cfg = QuantizeKernelConfig;
  const Cfg &cfg = spec.config;
  MLIRContext *ctx = builder.getContext();
  ImplicitLocOpBuilder b(loc, builder);
  KernelBuilder k(b);
  const bool bf16In = spec.inputType.isBF16();
  const int64_t inBytes = bf16In ? 2 : 4;
  const int64_t W = cfg.warpsPerBlock(), R = cfg.rowsPerWarp();
  const int64_t V = Cfg::kColsPerLane; // 4 consecutive columns per lane
  // Whole 4-column groups are in or out of range together when cols % 4 == 0,
  // and then 16/8-byte vector loads and 4-byte code stores are aligned.
  const bool vectorized = cfg.cols % V == 0;

  // x, q, scales (pointers), rows (i32, used by a dynamic-rows kernel).
  auto fnType = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                            {k.ptr, k.ptr, k.ptr, k.i32});
  auto fn = LLVM::LLVMFuncOp::create(b, name, fnType);
  fn->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), b.getUnitAttr());
  // gpu.kernel: the entry point of gpu.launch_func (fp8-launch-kernels).
  fn->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  fn->setAttr(
      NVVM::NVVMDialect::getMaxntidAttrName(),
      b.getDenseI32ArrayAttr({static_cast<int32_t>(Cfg::kThreads), 1, 1}));
  Block *entry = fn.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  Value xPtr =
      LLVM::AddrSpaceCastOp::create(b, k.ptrGlobal, entry->getArgument(0));
  Value qPtr =
      LLVM::AddrSpaceCastOp::create(b, k.ptrGlobal, entry->getArgument(1));
  Value sPtr =
      LLVM::AddrSpaceCastOp::create(b, k.ptrGlobal, entry->getArgument(2));
  // The row count and the number of blocks: compile-time constants, or
  // computed from the run-time rows by a dynamic-rows kernel.
  const bool dynamicRows = cfg.rows == Cfg::kDynamicRows;
  Value rows = dynamicRows ? entry->getArgument(3) : k.c32(cfg.rows);
  Value blocks = dynamicRows
                     ? k.ceilDivTimes(rows, cfg.blockRows, cfg.colBlocks())
                     : k.c32(cfg.blocks());

  Value tid = NVVM::ThreadIdXOp::create(b, k.i32);
  Value warp = k.divu(tid, k.c32(32)), lane = k.remu(tid, k.c32(32));
  Value blk = k.add(
      k.mul(NVVM::BlockIdXOp::create(b, k.i32), k.c32(cfg.blocksPerCta())),
      k.divu(warp, k.c32(W)));
  Value warpInBlock = k.remu(warp, k.c32(W));
  // For 128x128 blocks the CTA is one block (blocksPerCta = 1) and the grid
  // has exactly blocks() CTAs, so this guard is uniform across the CTA and
  // the barrier inside it is reached by all threads or none.
  auto inRange = scf::IfOp::create(b, k.ult(blk, blocks), false);
  b.setInsertionPointToStart(&inRange.getThenRegion().front());
  Value rowBlock = k.divu(blk, k.c32(cfg.colBlocks()));
  Value colBlock = k.remu(blk, k.c32(cfg.colBlocks()));
  Value col0 =
      k.add(k.mul(colBlock, k.c32(Cfg::kBlockCols)), k.mul(lane, k.c32(V)));
  Value zero = k.cf32(0.0f);

  // --- Load this lane's R x 4 values (out-of-range elements read as 0,
  // which leaves amax = max(0, |x|...) as the reference's zero-initialised
  // reduction does, and are never stored). -----------------------------------
  Type inElem = bf16In ? Type(b.getBF16Type()) : k.f32;
  auto toF32 = [&](Value v) -> Value {
    return bf16In ? Value(arith::ExtFOp::create(b, k.f32, v)) : v;
  };
  SmallVector<Value> rowIdx, rowOk, x;
  for (int64_t r = 0; r < R; ++r) {
    Value row = k.add(k.mul(rowBlock, k.c32(cfg.blockRows)),
                      k.add(warpInBlock, k.c32(r * W)));
    rowIdx.push_back(row);
    rowOk.push_back(k.ult(row, rows));
    Value base = k.add(k.mul(k.zext64(row), k.c64(cfg.cols)), k.zext64(col0));
    if (vectorized) {
      auto vecTy = VectorType::get({V}, inElem);
      Value ok =
          arith::AndIOp::create(b, rowOk[r], k.ult(col0, k.c32(cfg.cols)));
      auto ifOp = scf::IfOp::create(b, TypeRange{vecTy}, ok, true);
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
        Value p =
            LLVM::GEPOp::create(b, k.ptrGlobal, inElem, xPtr, ValueRange{base});
        scf::YieldOp::create(
            b, LLVM::LoadOp::create(b, vecTy, p, V * inBytes).getResult());
        b.setInsertionPointToStart(&ifOp.getElseRegion().front());
        scf::YieldOp::create(
            b, arith::ConstantOp::create(b, vecTy, b.getZeroAttr(vecTy))
                   .getResult());
      }
      for (int64_t j = 0; j < V; ++j)
        x.push_back(toF32(
            LLVM::ExtractElementOp::create(b, ifOp.getResult(0), k.c32(j))));
      continue;
    }
    for (int64_t j = 0; j < V; ++j) {
      Value ok = arith::AndIOp::create(
          b, rowOk[r], k.ult(k.add(col0, k.c32(j)), k.c32(cfg.cols)));
      auto ifOp = scf::IfOp::create(b, TypeRange{k.f32}, ok, true);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      Value p = LLVM::GEPOp::create(b, k.ptrGlobal, inElem, xPtr,
                                    ValueRange{k.add(base, k.c64(j))});
      scf::YieldOp::create(b,
                           toF32(LLVM::LoadOp::create(b, inElem, p, inBytes)));
      b.setInsertionPointToStart(&ifOp.getElseRegion().front());
      scf::YieldOp::create(b, zero);
      x.push_back(ifOp.getResult(0));
    }
  }

  // --- amax: per lane, across the warp, across the block's warps. ----------
  auto maxNaN = [&](Value p, Value q) -> Value {
    return arith::MaximumFOp::create(b, p, q); // max.NaN.f32
  };
  // |x| by clearing the sign bit (exact, NaN stays NaN; llvm.fabs would
  // become a libdevice call in convert-gpu-to-nvvm).
  auto abs = [&](Value v) -> Value {
    Value bits = arith::BitcastOp::create(b, k.i32, v);
    return arith::BitcastOp::create(b, k.f32, k.andi(bits, k.c32(0x7FFFFFFF)));
  };
  Value amax = zero;
  for (Value v : x)
    amax = maxNaN(amax, abs(v));
  Value fullMask = k.c32(-1), clamp = k.c32(0x1f);
  for (int64_t off = 16; off >= 1; off /= 2)
    amax = maxNaN(amax, NVVM::ShflOp::create(
                            b, k.f32, fullMask, amax, k.c32(off), clamp,
                            NVVM::ShflKindAttr::get(ctx, NVVM::ShflKind::bfly),
                            UnitAttr()));
  if (W > 1) {
    Value smem = LLVM::AddressOfOp::create(b, k.ptrShared, amaxSymbol);
    auto slot = [&](Value i) {
      return LLVM::GEPOp::create(b, k.ptrShared, k.f32, smem, ValueRange{i});
    };
    auto laneZero = scf::IfOp::create(b, k.eq(lane, k.c32(0)), false);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&laneZero.getThenRegion().front());
      LLVM::StoreOp::create(b, amax, slot(warpInBlock), 4);
    }
    NVVM::Barrier0Op::create(b);
    for (int64_t w = 0; w < W; ++w)
      amax = maxNaN(amax, LLVM::LoadOp::create(b, k.f32, slot(k.c32(w)), 4));
  }

  // --- Scale (the CPU reference's arithmetic), stored once per block. ------
  Value s = createDequantScale(b, loc, amax, spec.eps, spec.fp8Type, spec.pow2);
  {
    Value first = arith::AndIOp::create(b, k.eq(lane, k.c32(0)),
                                        k.eq(warpInBlock, k.c32(0)));
    auto ifOp = scf::IfOp::create(b, first, false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    Value p = LLVM::GEPOp::create(b, k.ptrGlobal, k.f32, sPtr,
                                  ValueRange{k.zext64(blk)});
    LLVM::StoreOp::create(b, s, p, 4);
  }

  // --- Codes: cvt.rn.satfinite of x / s, two at a time. -------------------
  // The op packs its first operand into the high byte: (x1, x0) puts x0 at
  // the lower address once stored little-endian.
  auto cvt2 = [&](Value lo, Value hi) -> Value {
    Value packed = NVVM::ConvertF32x2ToF8x2Op::create(
        b, b.getI16Type(), arith::DivFOp::create(b, hi, s),
        arith::DivFOp::create(b, lo, s), NVVM::FPRoundingMode::RN,
        NVVM::SaturationMode::SATFINITE, /*relu=*/false, spec.fp8Type);
    return arith::ExtUIOp::create(b, k.i32, packed);
  };
  for (int64_t r = 0; r < R; ++r) {
    Value base =
        k.add(k.mul(k.zext64(rowIdx[r]), k.c64(cfg.cols)), k.zext64(col0));
    Value lo = cvt2(x[r * V], x[r * V + 1]),
          hi = cvt2(x[r * V + 2], x[r * V + 3]);
    if (vectorized) {
      Value ok =
          arith::AndIOp::create(b, rowOk[r], k.ult(col0, k.c32(cfg.cols)));
      auto ifOp = scf::IfOp::create(b, ok, false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      Value word = k.ori(lo, arith::ShLIOp::create(b, hi, k.c32(16)));
      Value p = LLVM::GEPOp::create(b, k.ptrGlobal, b.getI8Type(), qPtr,
                                    ValueRange{base});
      LLVM::StoreOp::create(b, word, p, 4);
      continue;
    }
    for (int64_t j = 0; j < V; ++j) {
      Value ok = arith::AndIOp::create(
          b, rowOk[r], k.ult(k.add(col0, k.c32(j)), k.c32(cfg.cols)));
      auto ifOp = scf::IfOp::create(b, ok, false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      Value pair = j < 2 ? lo : hi;
      Value byte = arith::TruncIOp::create(b, b.getI8Type(),
                                           k.shru(pair, k.c32(8 * (j % 2))));
      Value p = LLVM::GEPOp::create(b, k.ptrGlobal, b.getI8Type(), qPtr,
                                    ValueRange{k.add(base, k.c64(j))});
      LLVM::StoreOp::create(b, byte, p, 1);
    }
  }
  b.setInsertionPointAfter(inRange);
  LLVM::ReturnOp::create(b, ValueRange{});
  return fn;
}
