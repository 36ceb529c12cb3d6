//===- TransposeKernel.cpp - the transpose kernel generator ---------------===//
//
// out[b, c, r] = r / repeat < rows ? in[b, r / repeat, c] : 0 for
// `bits`-bit elements, one thread per output element
// (TransposeKernelConfig.h). The elements are moved as integers of their
// width: FP8 codes, bf16 and f32 values are copied bit for bit, and the
// padding is zero bits (+0.0, the zero code). The widening variant reads
// E8M0 codes and writes their f32 values with the CPU reference's own
// builder (createF32FromE8M0).
//
//===----------------------------------------------------------------------===//
#include "TransposeKernel.h"

#include "KernelBuilder.h"
#include "KernelSpecs.h"
#include "fp8/Target/Hopper/TransposeKernelConfig.h"

#include "fp8/Dialect/FP8/Utils/FP8Arith.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::fp8;

namespace {

/// in, out, batch, rows, cols, outRows: the kernel ABI.
void buildTransposeBody(ImplicitLocOpBuilder &b, KernelBuilder &ir,
                        Block *entry, int64_t bits, int64_t repeatRows,
                        bool widenE8M0) {
  Type elem = b.getIntegerType(bits);
  int64_t bytes = bits / 8;
  // What is stored: the element, or an E8M0 code's f32 value.
  Type outElem = widenE8M0 ? ir.f32 : elem;
  int64_t outBytes = widenE8M0 ? 4 : bytes;
  Value in = ir.toGlobal(entry->getArgument(0));
  Value out = ir.toGlobal(entry->getArgument(1));
  Value batch = entry->getArgument(2), rows = entry->getArgument(3);
  Value cols = entry->getArgument(4), outRows = entry->getArgument(5);
  // One op per statement: the IR order does not depend on the compiler's
  // order of evaluating arguments.
  Value cta = NVVM::BlockIdXOp::create(b, ir.i32);
  Value ctaBase = ir.mul(cta, ir.c32(TransposeKernelConfig::kThreads));
  Value t = ir.add(ctaBase, NVVM::ThreadIdXOp::create(b, ir.i32));
  Value total = ir.mul(ir.mul(batch, cols), outRows);
  auto inRange = scf::IfOp::create(b, ir.ult(t, total), false);
  b.setInsertionPointToStart(&inRange.getThenRegion().front());
  // t = (bi * cols + c) * outRows + r.
  Value r = ir.remu(t, outRows);
  Value bc = ir.divu(t, outRows);
  Value c = ir.remu(bc, cols);
  Value bi = ir.divu(bc, cols);
  // The input row this output row repeats.
  if (repeatRows != 1)
    r = ir.divu(r, ir.c32(repeatRows));
  auto valid = scf::IfOp::create(b, TypeRange{outElem}, ir.ult(r, rows), true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&valid.getThenRegion().front());
    // in[(bi * rows + r) * cols + c]: below batch * rows * cols <= total
    // (rows <= outRows), so 32 bits hold it as they hold t.
    Value src = ir.add(ir.mul(ir.add(ir.mul(bi, rows), r), cols), c);
    Value p = LLVM::GEPOp::create(b, ir.ptrGlobal, elem, in,
                                  ValueRange{ir.zext64(src)});
    Value v = LLVM::LoadOp::create(b, elem, p, bytes);
    if (widenE8M0)
      v = createF32FromE8M0(b, b.getLoc(), v);
    scf::YieldOp::create(b, v);
    b.setInsertionPointToStart(&valid.getElseRegion().front());
    scf::YieldOp::create(
        b, widenE8M0 ? ir.cf32(0.0f)
                     : arith::ConstantIntOp::create(b, elem, 0).getResult());
  }
  Value p = LLVM::GEPOp::create(b, ir.ptrGlobal, outElem, out,
                                ValueRange{ir.zext64(t)});
  LLVM::StoreOp::create(b, valid.getResult(0), p, outBytes);
  b.setInsertionPointAfter(inRange);
  LLVM::ReturnOp::create(b, ValueRange{});
}

} // namespace

FailureOr<std::pair<SymbolRefAttr, TransposeKernelAttr>>
mlir::fp8::getOrBuildTransposeKernel(ModuleOp module, int64_t bits,
                                     int64_t repeatRows, Operation *user,
                                     bool widenE8M0) {
  auto kernels = module.lookupSymbol<gpu::GPUModuleOp>(kKernelModuleName);
  if (!kernels)
    return user->emitOpError("fp8-launch-kernels: no kernel module @")
           << kKernelModuleName
           << " to hold the transpose kernel (run fp8-lower-to-nvvm first)";
  MLIRContext *ctx = module.getContext();
  auto attr = TransposeKernelAttr::get(ctx, bits, repeatRows, widenE8M0);
  OpBuilder builder(ctx);
  builder.setInsertionPointToEnd(kernels.getBody());
  ImplicitLocOpBuilder b(module.getLoc(), builder);
  StringAttr name = getOrInsertKernel(
      kernels, attr, /*model=*/Attribute(),
      [&](StringRef symbol) -> Operation * {
        KernelBuilder ir(b);
        LLVM::LLVMFuncOp fn = ir.createKernelFunction(
            symbol, {ir.ptr, ir.ptr, ir.i32, ir.i32, ir.i32, ir.i32},
            TransposeKernelConfig::kThreads);
        Block *entry = fn.addEntryBlock(b);
        b.setInsertionPointToStart(entry);
        buildTransposeBody(b, ir, entry, bits, repeatRows, widenE8M0);
        return fn;
      });
  auto ref = SymbolRefAttr::get(StringAttr::get(ctx, kKernelModuleName),
                                {FlatSymbolRefAttr::get(name)});
  return std::make_pair(ref, attr);
}
