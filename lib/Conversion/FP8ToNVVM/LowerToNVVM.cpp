//===- LowerToNVVM.cpp - fp8-lower-to-nvvm --------------------------------===//
#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"

#include "GemmKernel.h"
#include "QuantizeKernel.h"
#include "fp8/Dialect/FP8/IR/FP8.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace fp8 {
#define GEN_PASS_DEF_FP8LOWERTONVVMPASS
#include "fp8/Conversion/Passes.h.inc"
} // namespace fp8
} // namespace mlir

using namespace mlir;
using namespace mlir::fp8;

namespace {

constexpr StringLiteral kKernelModuleName = "fp8_kernels";
constexpr StringLiteral kSmemSymbol = "fp8_dynamic_smem";
constexpr StringLiteral kAmaxSymbol = "fp8_quantize_amax";

/// Checks that `op` is in the form the sm_90a kernel implements and returns
/// its spec; emits a diagnostic naming what is wrong otherwise.
FailureOr<GemmKernelSpec> getSpec(ScaledMatmulOp op) {
  auto aTy = cast<ScaledTensorType>(op.getA().getType());
  auto bTy = cast<ScaledTensorType>(op.getB().getType());
  auto resTy = cast<RankedTensorType>(op.getResult().getType());
  auto isStatic = [](ArrayRef<int64_t> shape) {
    return llvm::none_of(shape, ShapedType::isDynamic);
  };
  // M (the token dimension) may be dynamic: one kernel for every M, which
  // takes M at run time. N and K are compiled in.
  if (!isStatic(aTy.getShape().drop_front()) || !isStatic(bTy.getShape()) ||
      !isStatic(resTy.getShape().drop_front()))
    return op.emitOpError("GPU lowering needs static N and K (only M may be "
                          "dynamic), got ")
           << aTy << ", " << bTy << " -> " << resTy;
  if (op.getC())
    return op.emitOpError(
        "GPU lowering does not support the 'acc' operand yet");
  auto isBlock = [](ScaledTensorType t, int64_t b0, int64_t b1) {
    ArrayRef<int64_t> blk = t.getBlockShape();
    return blk.size() == 2 && blk[0] == b0 && blk[1] == b1;
  };
  if (!isBlock(aTy, 1, 128) || !isBlock(bTy, 128, 128))
    return op.emitOpError("GPU lowering implements the DeepSeek-V3 blocks "
                          "(a: [1, 128], b: [128, 128]), got a: ")
           << aTy << ", b: " << bTy;
  if (!aTy.getScaleType().isF32() || !bTy.getScaleType().isF32())
    return op.emitOpError("GPU lowering needs f32 scales");
  if (op.getPromoteInterval() != 128)
    return op.emitOpError("GPU lowering needs promote_interval = 128 (one "
                          "promotion per 4 wgmma k32), got ")
           << op.getPromoteInterval();
  int64_t m = aTy.getShape()[0], k = aTy.getShape()[1], n = bTy.getShape()[0];
  if (ShapedType::isDynamic(m))
    m = GemmKernelConfig::kDynamicM;
  if (k % 16 != 0)
    return op.emitOpError("GPU lowering needs K to be a multiple of 16 (TMA "
                          "global strides are multiples of 16 bytes), got K = ")
           << k;
  GemmKernelSpec spec;
  spec.config = chooseGemmKernelConfig(m, n, k);
  spec.aType = aTy.getElementType();
  spec.bType = bTy.getElementType();
  spec.resultType = resTy.getElementType();
  return spec;
}

/// The quantize kernel's spec for `op`, or a remark saying why the op stays
/// a host (CPU) op: quantizing is cheap next to the GEMM, so an unsupported
/// form is not an error (issue: passes leave what they cannot handle).
std::optional<QuantizeKernelSpec> getQuantizeSpec(QuantizeOp op) {
  auto inTy = cast<RankedTensorType>(op.getInput().getType());
  auto resTy = cast<ScaledTensorType>(op.getResult().getType());
  ArrayRef<int64_t> blk = resTy.getBlockShape();
  Type in = inTy.getElementType();
  std::string why;
  llvm::raw_string_ostream os(why);
  if (inTy.getRank() != 2 || inTy.isDynamicDim(1))
    os << "needs a rank-2 input with static columns (rows may be dynamic), "
          "got '"
       << inTy << "'";
  else if (blk.size() != 2 || blk[1] != 128 || (blk[0] != 1 && blk[0] != 128)) {
    os << "implements blocks [1, 128] and [128, 128], got [";
    llvm::interleaveComma(blk, os);
    os << "]";
  } else if (!resTy.getScaleType().isF32())
    os << "needs f32 scales, got '" << resTy.getScaleType() << "'";
  else if (!op.getSaturate())
    os << "the hardware conversion cvt.rn.satfinite needs saturate = true";
  else if (!in.isF32() && !in.isBF16())
    os << "needs an f32 or bf16 input, got '" << in << "'";
  if (!why.empty()) {
    ::mlir::emitRemark(op.getLoc())
        << "fp8-lower-to-nvvm: no GPU quantize kernel (" << why
        << "); the op stays on the host";
    return std::nullopt;
  }
  QuantizeKernelSpec spec;
  spec.config = makeQuantizeKernelConfig(
      inTy.isDynamicDim(0) ? QuantizeKernelConfig::kDynamicRows
                           : inTy.getDimSize(0),
      inTy.getDimSize(1), blk[0]);
  spec.inputType = in;
  spec.fp8Type = resTy.getElementType();
  spec.eps = op.getEps().convertToDouble();
  spec.pow2 = op.getScaleMode() == ScaleMode::pow2;
  return spec;
}

/// The kernel uses wgmma and setmaxnreg, which exist only on the
/// architecture-specific sm_90a target, and needs PTX ISA >= 8.0 for them
/// (PTX ISA "Target ISA notes" of wgmma.mma_async).
LogicalResult checkTargetOptions(Location loc, StringRef pass, StringRef chip,
                                 StringRef features) {
  if (chip != "sm_90a")
    return emitError(loc) << pass << ": option chip='" << chip
                          << "' is not supported: expected sm_90a (the kernel "
                             "uses wgmma and setmaxnreg, which need the "
                             "architecture-specific 'a' target of Hopper)";
  SmallVector<StringRef> parts;
  features.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  bool havePtx = false;
  for (StringRef f : parts) {
    StringRef t = f.trim();
    unsigned version = 0;
    if (!t.consume_front("+ptx") || t.getAsInteger(10, version))
      return emitError(loc)
             << pass << ": option features='" << features << "': cannot parse '"
             << f.trim()
             << "' (expected a comma-separated list of +ptxNN, e.g. +ptx80)";
    if (version < 80)
      return emitError(loc)
             << pass << ": option features='" << features << "': PTX ISA "
             << version / 10 << "." << version % 10
             << " is too old (expected +ptx80 or newer: wgmma needs PTX 8.0)";
    havePtx = true;
  }
  if (!havePtx)
    return emitError(loc) << pass
                          << ": option features is empty (expected "
                             "+ptxNN with NN >= 80, e.g. +ptx80)";
  return success();
}

struct FP8LowerToNVVMPass
    : public fp8::impl::FP8LowerToNVVMPassBase<FP8LowerToNVVMPass> {
  using Base::Base;

  // Options are checked up front, also for modules without a scaled_matmul,
  // so a typo in chip/features never goes unnoticed.
  LogicalResult initialize(MLIRContext *ctx) override {
    return checkTargetOptions(UnknownLoc::get(ctx), "fp8-lower-to-nvvm", chip,
                              features);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<ScaledMatmulOp> ops;
    SmallVector<QuantizeKernelSpec> quantizeSpecs;
    module.walk([&](Operation *op) {
      if (auto mm = dyn_cast<ScaledMatmulOp>(op))
        ops.push_back(mm);
      else if (auto q = dyn_cast<QuantizeOp>(op))
        if (std::optional<QuantizeKernelSpec> spec = getQuantizeSpec(q))
          quantizeSpecs.push_back(*spec);
    });
    if (ops.empty() && quantizeSpecs.empty())
      return;

    SmallVector<GemmKernelSpec> specs;
    for (ScaledMatmulOp op : ops) {
      FailureOr<GemmKernelSpec> spec = getSpec(op);
      if (failed(spec))
        return signalPassFailure();
      specs.push_back(*spec);
    }

    OpBuilder b(module.getBodyRegion());
    b.setInsertionPointToEnd(module.getBody());
    Location loc = module.getLoc();
    auto gpuModule = module.lookupSymbol<gpu::GPUModuleOp>(kKernelModuleName);
    if (!gpuModule) {
      auto target = NVVM::NVVMTargetAttr::get(
          &getContext(), /*optLevel=*/3, "nvptx64-nvidia-cuda", chip, features);
      gpuModule = gpu::GPUModuleOp::create(b, loc, kKernelModuleName,
                                           b.getArrayAttr({target}));
      module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                      b.getUnitAttr());
    }
    b.setInsertionPointToStart(gpuModule.getBody());
    if (!gpuModule.lookupSymbol(kSmemSymbol)) {
      // Dynamic shared memory: an external zero-sized array in addrspace 3,
      // 1024-byte aligned for the 128B-swizzle atoms of TMA and wgmma.
      auto arrTy = LLVM::LLVMArrayType::get(b.getI8Type(), 0);
      LLVM::GlobalOp::create(b, loc, arrTy, /*isConstant=*/false,
                             LLVM::Linkage::External, kSmemSymbol, Attribute(),
                             /*alignment=*/1024, /*addrSpace=*/3);
    }
    for (const GemmKernelSpec &spec : specs) {
      std::string name = gemmKernelName(spec);
      if (gpuModule.lookupSymbol(name))
        continue; // one kernel per distinct shape and types
      b.setInsertionPoint(gpuModule.getBody()->getTerminator());
      buildGemmKernel(b, loc, spec, kSmemSymbol);
    }
    if (!quantizeSpecs.empty() && !gpuModule.lookupSymbol(kAmaxSymbol)) {
      b.setInsertionPointToStart(gpuModule.getBody());
      // The per-warp amax of a 128x128 block (8 warps), reduced by all.
      LLVM::GlobalOp::create(b, loc,
                             LLVM::LLVMArrayType::get(b.getF32Type(), 8),
                             /*isConstant=*/false, LLVM::Linkage::Internal,
                             kAmaxSymbol, Attribute(), /*alignment=*/16,
                             /*addrSpace=*/3);
    }
    for (const QuantizeKernelSpec &spec : quantizeSpecs) {
      if (gpuModule.lookupSymbol(quantizeKernelName(spec)))
        continue;
      b.setInsertionPoint(gpuModule.getBody()->getTerminator());
      buildQuantizeKernel(b, loc, spec, kAmaxSymbol);
    }
  }
};

} // namespace
