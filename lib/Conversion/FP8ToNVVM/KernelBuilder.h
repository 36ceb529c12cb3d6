//===- KernelBuilder.h - helpers for kernel generators ----------*- C++ -*-===//
//
// Shared by the kernel generators of fp8-lower-to-nvvm (GemmKernel.cpp,
// QuantizeKernel.cpp), which build NVVM + LLVM dialect functions with
// arith/scf for the arithmetic and control flow.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_LIB_CONVERSION_FP8TONVVM_KERNELBUILDER_H
#define FP8_LIB_CONVERSION_FP8TONVVM_KERNELBUILDER_H

#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Target/Hopper/KernelNames.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <string>

namespace mlir {
namespace fp8 {

/// Small helpers over an ImplicitLocOpBuilder for i32/i64/f32 arithmetic.
struct KernelBuilder {
  ImplicitLocOpBuilder &b;
  Type i1, i32, i64, f32;
  LLVM::LLVMPointerType ptr, ptrShared, ptrGlobal;

  explicit KernelBuilder(ImplicitLocOpBuilder &b)
      : b(b), i1(b.getI1Type()), i32(b.getI32Type()), i64(b.getI64Type()),
        f32(b.getF32Type()), ptr(LLVM::LLVMPointerType::get(b.getContext())),
        ptrShared(LLVM::LLVMPointerType::get(b.getContext(), 3)),
        ptrGlobal(LLVM::LLVMPointerType::get(b.getContext(), 1)) {}

  /// A kernel entry point `name` with `argTypes`, at the insertion point:
  /// nvvm.kernel, gpu.kernel (the entry point of gpu.launch_func,
  /// fp8-launch-kernels) and .maxntid `threads`.
  LLVM::LLVMFuncOp createKernelFunction(StringRef name, ArrayRef<Type> argTypes,
                                        int64_t threads) {
    auto fnType = LLVM::LLVMFunctionType::get(
        LLVM::LLVMVoidType::get(b.getContext()), argTypes);
    auto fn = LLVM::LLVMFuncOp::create(b, name, fnType);
    fn->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), b.getUnitAttr());
    fn->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
    fn->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
                b.getDenseI32ArrayAttr({static_cast<int32_t>(threads), 1, 1}));
    return fn;
  }
  /// A kernel's pointer parameter as a global-memory pointer.
  Value toGlobal(Value pointer) {
    return LLVM::AddrSpaceCastOp::create(b, ptrGlobal, pointer);
  }

  Value c32(int64_t v) { return arith::ConstantIntOp::create(b, i32, v); }
  Value c64(int64_t v) { return arith::ConstantIntOp::create(b, i64, v); }
  Value cf32(float v) {
    return arith::ConstantFloatOp::create(b, cast<FloatType>(f32), APFloat(v));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, x, y); }
  Value divu(Value x, Value y) { return arith::DivUIOp::create(b, x, y); }
  /// ceil(x / d) * times for a run-time `x` (a tile or block count from a
  /// run-time row count), one op per statement so the IR order is fixed.
  Value ceilDivTimes(Value x, int64_t d, int64_t times) {
    Value roundUp = c32(d - 1);
    Value plus = add(x, roundUp);
    Value divisor = c32(d);
    Value count = divu(plus, divisor);
    Value factor = c32(times);
    return mul(count, factor);
  }
  Value remu(Value x, Value y) { return arith::RemUIOp::create(b, x, y); }
  Value andi(Value x, Value y) { return arith::AndIOp::create(b, x, y); }
  Value ori(Value x, Value y) { return arith::OrIOp::create(b, x, y); }
  Value xori(Value x, Value y) { return arith::XOrIOp::create(b, x, y); }
  Value shru(Value x, Value y) { return arith::ShRUIOp::create(b, x, y); }
  Value ult(Value x, Value y) {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::ult, x, y);
  }
  Value eq(Value x, Value y) {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::eq, x, y);
  }
  Value zext64(Value x) { return arith::ExtUIOp::create(b, i64, x); }
  Value fmul(Value x, Value y) { return arith::MulFOp::create(b, x, y); }
  Value fma(Value x, Value y, Value z) {
    return LLVM::FMAOp::create(b, x, y, z);
  }
  /// |x| of an f32 by clearing the sign bit (exact, NaN stays NaN;
  /// llvm.fabs would become a libdevice call in convert-gpu-to-nvvm).
  Value absf(Value x) {
    Value bits = arith::BitcastOp::create(b, i32, x);
    return arith::BitcastOp::create(b, f32, andi(bits, c32(0x7FFFFFFF)));
  }
  /// max.NaN.f32 of `v` and the `v` of lane (lane ^ offset) of the warp
  /// (shfl.sync.bfly; every lane of the warp takes part).
  Value maxNaNBfly(Value v, int64_t offset) {
    Value fullMask = c32(-1);
    Value clamp = c32(0x1f);
    Value other = NVVM::ShflOp::create(
        b, f32, fullMask, v, c32(offset), clamp,
        NVVM::ShflKindAttr::get(b.getContext(), NVVM::ShflKind::bfly),
        UnitAttr());
    return arith::MaximumFOp::create(b, v, other); // max.NaN.f32
  }
  /// Byte-offset GEP on an i8 base pointer.
  Value gep(Value base, Value byteOffset) {
    return LLVM::GEPOp::create(b, base.getType(), b.getI8Type(), base,
                               ValueRange{byteOffset});
  }
};

/// What the pieces of every kernel generator share (GemmEmitter.h,
/// QuantizeEmitter.h): the kernel's spec and configuration, the builder at
/// the kernel's location and its arithmetic helpers. A generator's emitter
/// derives from it and adds the values its pieces pass to each other.
template <typename Spec> struct KernelEmitter {
  using Config = decltype(Spec::config);

  KernelEmitter(OpBuilder &builder, Location loc, const Spec &spec)
      : spec(spec), cfg(spec.config), ctx(builder.getContext()),
        b(loc, builder), ir(b) {}
  // `ir` refers to `b`: a copy would build through the original's builder.
  KernelEmitter(const KernelEmitter &) = delete;
  KernelEmitter &operator=(const KernelEmitter &) = delete;

  const Spec &spec;
  const Config &cfg;
  MLIRContext *ctx;
  ImplicitLocOpBuilder b;
  KernelBuilder ir;
};

} // namespace fp8
} // namespace mlir

#endif // FP8_LIB_CONVERSION_FP8TONVVM_KERNELBUILDER_H
