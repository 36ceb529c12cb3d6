//===- LaunchKernels.cpp - fp8-launch-kernels -----------------------------===//
//
// The host half of the GPU lowering: every fp8.scaled_matmul / fp8.quantize
// that fp8-lower-to-nvvm gave a kernel becomes a call of a launcher function
// that moves the operands to the device, builds the TMA descriptors on the
// host, launches the kernel with the grid of its configuration and copies
// the result back. Launchers use upstream ops only (gpu.alloc/memcpy/
// launch_func, nvgpu.tma.create.descriptor), so gpu-to-llvm and
// convert-nvgpu-to-nvvm lower them to the upstream `mgpu*` runtime ABI.
//
// The launcher functions are in Launchers.cpp, the operands' preparation
// and the run-time input checks at the call site in LaunchOperands.cpp.
//
//===----------------------------------------------------------------------===//
#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"

#include "KernelSpecs.h"
#include "LaunchOperands.h"
#include "Launchers.h"
#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/Utils/TensorCoreMatmul.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir {
namespace fp8 {
#define GEN_PASS_DEF_FP8LAUNCHKERNELSPASS
#include "fp8/Conversion/Passes.h.inc"
} // namespace fp8
} // namespace mlir

using namespace mlir;
using namespace mlir::fp8;

namespace {

/// A 2-D transpose of the codes or f32 scales of an fp8.disassemble, on
/// tensors, in a function.
bool isScaledTensorTranspose(linalg::TransposeOp t) {
  Value in = t.getInput();
  auto ty = dyn_cast<RankedTensorType>(in.getType());
  if (!ty || t->getNumResults() != 1 || ty.getRank() != 2 ||
      !llvm::equal(t.getPermutation(), ArrayRef<int64_t>{1, 0}) ||
      !in.getDefiningOp<DisassembleOp>() || !t->getParentOfType<func::FuncOp>())
    return false;
  Type elem = ty.getElementType();
  return elem.isF32() ||
         isa<Float8E4M3FNType, Float8E5M2Type, Float8E8M0FNUType>(elem);
}

struct FP8LaunchKernelsPass
    : public fp8::impl::FP8LaunchKernelsPassBase<FP8LaunchKernelsPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    if (smCount < 0)
      return emitError(UnknownLoc::get(ctx))
             << "fp8-launch-kernels: option sm-count="
             << static_cast<int64_t>(smCount)
             << " is invalid: expected 0 (the device's SM count, read at "
                "run time) or the number of SMs of the device (132 on an "
                "H100 SXM / H200)";
    if (StringRef(launchers) != "all" && StringRef(launchers) != "declare" &&
        StringRef(launchers) != "define-only")
      return emitError(UnknownLoc::get(ctx))
             << "fp8-launch-kernels: option launchers='"
             << static_cast<std::string>(launchers)
             << "' is invalid (expected all, declare or define-only)";
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    StringRef mode = launchers;
    if (mode != "define-only") {
      if (failed(rewriteOps(module)))
        return signalPassFailure();
      // Also without FP8 kernels: the host kernels of
      // fp8-outline-host-kernels may run the program on the device.
      if (emitCInterface)
        for (auto fn : module.getOps<func::FuncOp>())
          if (fn.isPublic() && !fn.isExternal())
            fn->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                        UnitAttr::get(&getContext()));
    }
    if (mode == "declare")
      return;
    // Device-resident tensors: the call sites move the operands (bufferized
    // host functions only: launchers=define-only).
    if (mode == "define-only" && resident)
      for (auto fn : module.getOps<func::FuncOp>())
        if (!fn.isExternal())
          makeLaunchesResident(fn);
    for (auto fn : llvm::to_vector(module.getOps<func::FuncOp>()))
      if (fn.isExternal() && fn->hasAttr(FP8Dialect::kKernelRefAttrName))
        if (failed(defineLauncher(fn, smCount)))
          return signalPassFailure();
  }

  LogicalResult rewriteOps(ModuleOp module) {
    auto kernels = module.lookupSymbol<gpu::GPUModuleOp>(kKernelModuleName);
    if (!kernels)
      return success(); // no kernels: nothing launches
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      // An empty problem has no kernel (fp8-lower-to-nvvm remarked it); a
      // quantize the GEMM kernel's epilogue computes goes with the GEMM.
      if (isa<ScaledMatmulOp, GroupedScaledMatmulOp, QuantizeOp, RequantizeOp>(
              op) &&
          op->getParentOfType<func::FuncOp>() &&
          getEmptyProblemReason(op).empty() && !isEpilogueQuantize(module, op))
        ops.push_back(op);
      // A bf16 linalg.matmul or batch_matmul fp8-lower-to-nvvm gave a
      // kernel (the others stay host kernels).
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) &&
          op->hasAttr(FP8Dialect::kKernelRefAttrName))
        ops.push_back(op);
    });
    // Transposes of a scaled tensor's codes or scales (the Dgrad's W^T,
    // InsertQuant.cpp): on the device, where the codes were quantized and
    // where the GEMM reads them.
    SmallVector<linalg::TransposeOp> transposes;
    module.walk([&](linalg::TransposeOp t) {
      if (isScaledTensorTranspose(t))
        transposes.push_back(t);
    });
    for (linalg::TransposeOp t : transposes) {
      ImplicitLocOpBuilder b(t.getLoc(), t);
      // The result keeps the transpose's type: E8M0 scales stay E8M0 (the
      // GEMM that reads them widens them itself).
      FailureOr<Value> moved = transposeOnDevice(
          b, module, t, t.getInput(), /*rowMultiple=*/1, /*staticRows=*/0,
          /*repeatRows=*/1, /*widenE8M0=*/false);
      if (failed(moved))
        return failure();
      t->getResult(0).replaceAllUsesWith(*moved);
      t->erase();
    }
    for (Operation *op : ops) {
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op)) {
        if (failed(rewriteMatmul(module, op)))
          return failure();
      } else if (isa<ScaledMatmulOp, GroupedScaledMatmulOp>(op)) {
        // A host op (fp8-lower-to-nvvm remarked why): no kernel implements
        // its form.
        if (!explainNoGemmKernel(op).empty())
          continue;
        if (failed(rewriteGemm(module, op)))
          return failure();
      } else if (auto q = dyn_cast<QuantizeOp>(op)) {
        if (failed(rewriteQuantize(module, q)))
          return failure();
      } else if (auto rq = dyn_cast<RequantizeOp>(op)) {
        if (failed(rewriteRequantize(module, rq)))
          return failure();
      }
    }
    return success();
  }

  /// The kernel `op` names (its fp8.kernel_ref, set by fp8-lower-to-nvvm)
  /// and the kernel's typed configuration (its fp8.kernel).
  template <typename KernelAttrT>
  FailureOr<std::pair<SymbolRefAttr, KernelAttrT>>
  getKernel(ModuleOp module, Operation *op, StringRef what) {
    auto ref = op->getAttrOfType<SymbolRefAttr>(FP8Dialect::kKernelRefAttrName);
    if (!ref)
      return op->emitOpError("fp8-launch-kernels: no ")
             << FP8Dialect::kKernelRefAttrName
             << " naming the op's kernel (run fp8-lower-to-nvvm first)";
    Operation *kernel = SymbolTable::lookupSymbolIn(module, ref);
    if (!kernel)
      return op->emitOpError("fp8-launch-kernels: no kernel ")
             << ref << " (run fp8-lower-to-nvvm first)";
    auto attr = kernel->getAttrOfType<KernelAttrT>(FP8Dialect::kKernelAttrName);
    if (!attr)
      return op->emitOpError("fp8-launch-kernels: kernel ")
             << ref << " has no " << FP8Dialect::kKernelAttrName << " = #fp8."
             << what
             << "<...> (the configuration fp8-lower-to-nvvm records on it, "
                "which the launcher follows)";
    return std::make_pair(ref, attr);
  }

  /// Whether `op` is an fp8.quantize whose GEMM's kernel (the one its
  /// input's fp8.scaled_matmul names) has the quantize epilogue.
  static bool isEpilogueQuantize(ModuleOp module, Operation *op) {
    auto q = dyn_cast<QuantizeOp>(op);
    auto gemm = q ? q.getInput().getDefiningOp<ScaledMatmulOp>() : nullptr;
    auto ref =
        gemm
            ? gemm->getAttrOfType<SymbolRefAttr>(FP8Dialect::kKernelRefAttrName)
            : nullptr;
    Operation *kernel =
        ref ? SymbolTable::lookupSymbolIn(module, ref) : nullptr;
    auto attr =
        kernel
            ? kernel->getAttrOfType<GemmKernelAttr>(FP8Dialect::kKernelAttrName)
            : nullptr;
    return attr && attr.hasQuantizeEpilogue();
  }

  /// The fp8.quantize of `gemm`'s result that its kernel (`attr`, with the
  /// quantize epilogue) computes; an error when the IR no longer matches.
  static FailureOr<QuantizeOp> getFusedQuantize(Operation *gemm,
                                                GemmKernelAttr attr) {
    auto mm = dyn_cast<ScaledMatmulOp>(gemm);
    QuantizeOp q = mm ? getEpilogueQuantize(mm) : nullptr;
    if (!q)
      return gemm->emitOpError("fp8-launch-kernels: kernel (")
             << attr
             << ") has the quantize epilogue, but the op's result is not "
                "the input of one fp8.quantize into 1x128 tiles";
    auto qTy = cast<ScaledTensorType>(q.getResult().getType());
    bool pow2 = q.getScaleMode() == ScaleMode::pow2;
    if (qTy.getElementType() != attr.getQ() ||
        !q.getEps().bitwiseIsEqual(attr.getQEps().getValue()) ||
        pow2 != (attr.getQPow2() && attr.getQPow2().getValue()))
      return q.emitOpError("fp8-launch-kernels: the quantize epilogue of "
                           "kernel (")
             << attr << ") does not compute this op";
    return q;
  }

  /// fp8.scaled_matmul or fp8.grouped_scaled_matmul: one launcher call
  /// (one kernel launch, also for all the groups of a grouped op).
  LogicalResult rewriteGemm(ModuleOp module, Operation *gemm) {
    auto kernel = getKernel<GemmKernelAttr>(module, gemm, "gemm_kernel");
    if (failed(kernel))
      return failure();
    auto [ref, attr] = *kernel;
    // The op's form (diagnosed as fp8-lower-to-nvvm does), swapped as the
    // kernel says (D^T = B A^T).
    const bool swapAB = attr.getSwapAb() && attr.getSwapAb().getValue();
    GemmKernelOverrides o;
    o.swapAB = swapAB ? GemmKernelOverrides::SwapAB::always
                      : GemmKernelOverrides::SwapAB::never;
    auto grouped = dyn_cast<GroupedScaledMatmulOp>(gemm);
    FailureOr<GemmKernelSpec> spec =
        grouped ? getGroupedGemmKernelSpec(grouped, o, /*model=*/nullptr)
                : getGemmKernelSpec(cast<ScaledMatmulOp>(gemm), o,
                                    /*model=*/nullptr);
    if (failed(spec))
      return failure();
    const GemmKernelConfig &shape = spec->config;
    // The kernel must compute this op: its problem, B-scale layout (a
    // kernel of the other layout would index the B scales wrongly) and
    // grouping.
    GemmKernelConfig c = attr.getConfig();
    std::optional<GroupLayout> layout;
    if (grouped)
      layout = grouped.getLayout();
    if (c.m != shape.m || c.n != shape.n || c.k != shape.k ||
        c.bScalesPerColumn != shape.bScalesPerColumn ||
        c.scaleK != shape.scaleK || attr.getLayout() != layout ||
        attr.getGroups() != spec->numGroups ||
        attr.hasCounts() != spec->hasCounts || attr.getA() != spec->aType ||
        attr.getB() != spec->bType || attr.getD() != spec->resultType ||
        attr.getC() != spec->accType || spec->swapAB != swapAB)
      return gemm->emitOpError("fp8-launch-kernels: kernel ")
             << ref << " (" << attr << ") does not compute this op";
    ImplicitLocOpBuilder b(gemm->getLoc(), gemm);
    if (swapAB)
      return launchSwappedGemm(module, b, cast<ScaledMatmulOp>(gemm), ref,
                               attr);
    if (grouped && grouped.getLayout() == GroupLayout::contiguous)
      assertContiguousGroups(b, grouped);
    Value opA = grouped ? grouped.getA() : cast<ScaledMatmulOp>(gemm).getA();
    Value opB = grouped ? grouped.getB() : cast<ScaledMatmulOp>(gemm).getB();
    Value opC = grouped ? grouped.getC() : cast<ScaledMatmulOp>(gemm).getC();
    Value result = gemm->getResult(0);
    Value group = grouped ? (grouped.getCounts() ? grouped.getCounts()
                                                 : grouped.getGroupIds())
                          : Value();
    auto aDis = DisassembleOp::create(b, opA);
    auto bDis = DisassembleOp::create(b, opB);
    Value aCodes = aDis.getData(), aScales = aDis.getScales();
    Value bCodes = bDis.getData(), bScales = bDis.getScales();
    auto aCodesTy = cast<RankedTensorType>(aCodes.getType());
    int64_t mDim = aCodesTy.getRank() - 2;
    if (aCodesTy.isDynamicDim(mDim))
      assertRowsFitKernel(b, tensor::DimOp::create(b, aCodes, mDim), gemm);
    // A run-time K (the Wgrad over a run-time token count).
    if (aCodesTy.isDynamicDim(mDim + 1))
      assertDepthFitsKernel(b, tensor::DimOp::create(b, aCodes, mDim + 1),
                            gemm);
    // TMA global strides must be multiples of 16 bytes: rows of K codes
    // with K % 16 != 0 are padded with zero codes to a multiple of 16. The
    // kernel reads the padding as (exact) zero products, like the
    // out-of-bounds zero fill past it, and adds nothing to the sums.
    Value aData = padCodes(b, aCodes), bData = padCodes(b, bCodes);
    // E8M0 scales (UE8M0, DeepSeek-V3.1's checkpoints): the kernels read
    // f32, the exact widening of the contract, done on the device by the
    // transpose kernel that changes the scales' layout (A's, per-column
    // B's), else in place (LaunchOperands.h).
    const bool bTransposed = shape.bScalesPerColumn && !spec->bScaleWhole;
    FailureOr<Value> aWide = spec->aScaleWhole
                                 ? widenE8M0OnDevice(b, module, gemm, aScales)
                                 : FailureOr<Value>(aScales);
    FailureOr<Value> bWide = bTransposed
                                 ? FailureOr<Value>(bScales)
                                 : widenE8M0OnDevice(b, module, gemm, bScales);
    if (failed(aWide) || failed(bWide))
      return failure();
    aScales = *aWide;
    bScales = *bWide;
    // A per-tensor scale reaches the whole-K kernel as one per row of A
    // and column of the output.
    if (spec->aScaleWhole)
      aScales = broadcastTensorScale(b, aScales, aCodes);
    if (spec->bScaleWhole)
      bScales = broadcastTensorScale(b, bScales, bCodes);
    SmallVector<Value> mSizes; // a run-time M: D's rows
    if (aCodesTy.isDynamicDim(mDim))
      mSizes.push_back(tensor::DimOp::create(b, aCodes, mDim));
    // The A scales [..., M, KB] as the kernel's TMA reads them: [..., KB,
    // roundUp(M, 4)], transposed on the device.
    FailureOr<Value> saT =
        transposeOnDevice(b, module, gemm, aScales, /*rowMultiple=*/4);
    if (failed(saT))
      return failure();
    // Per-column B scales [N, KB] go to the kernel as [KB, Np], Np the
    // columns of all tiles of the kernel's configuration (GemmKernelConfig.h:
    // a thread's two adjacent columns are one aligned 8-byte load, never
    // out of bounds), transposed and zero-padded as the A scales are.
    if (shape.bScalesPerColumn) {
      FailureOr<Value> sbT = transposeOnDevice(
          b, module, gemm, bScales, /*rowMultiple=*/1, c.bScaleColumns());
      if (failed(sbT))
        return failure();
      bScales = *sbT;
    }

    auto resTy = cast<RankedTensorType>(result.getType());
    // The quantize epilogue writes the quantized result's codes and 1x128
    // scales in place of D (GemmKernelConfig.h).
    QuantizeOp fused;
    if (c.quantizeEpilogue) {
      FailureOr<QuantizeOp> q = getFusedQuantize(gemm, attr);
      if (failed(q))
        return failure();
      fused = *q;
    }
    auto qTy = fused ? cast<ScaledTensorType>(fused.getResult().getType())
                     : ScaledTensorType();
    Value d = fused ? allocLike(b, qTy.getDataTensorType(), mSizes)
                    : allocLike(b, resTy, mSizes);
    // Its scales [M, ceil(N / 128)] have D's rows.
    Value s = fused ? allocLike(b, qTy.getScaleTensorType(), mSizes) : Value();
    SmallVector<Value> args{toBuffer(b, aData), toBuffer(b, bData),
                            toBuffer(b, *saT), toBuffer(b, bScales), d};
    if (s)
      args.push_back(s);
    if (opC)
      args.push_back(toBuffer(b, opC));
    // Grouped: the counts (masked) or per-row group index (contiguous) last.
    if (group)
      args.push_back(toBuffer(b, group));
    func::FuncOp fn =
        getOrDeclareLauncher(module, ref, attr, ValueRange(args).getTypes());
    func::CallOp::create(b, fn, args);
    if (fused) {
      fused.getResult().replaceAllUsesWith(
          AssembleOp::create(b, qTy, toTensor(b, d, qTy.getDataTensorType()),
                             toTensor(b, s, qTy.getScaleTensorType())));
      fused->erase();
    } else {
      result.replaceAllUsesWith(toTensor(b, d, resTy));
    }
    gemm->erase();
    return success();
  }

  /// A bf16 linalg.matmul (A [M, K], B [K, N], init C [M, N] f32) or
  /// batch_matmul (A [G, M, K], B [G, K, N], C [G, M, N]): one launcher call
  /// (a, b, d, c) of its BF16 kernel, whose accumulator starts from C; or,
  /// for a kernel with acc_init (C a constant fill, getMatmulAccInit),
  /// (a, b, d), the fill erased once no other op reads it. A kernel with an
  /// MN-major A or a K-major B (a_major, b_major) takes the operand's
  /// untransposed source (getTransposedMatmulOperand), the transpose erased
  /// once no other op reads it. A kernel writing D through a head view
  /// (d_heads) takes D [B, M, H, N] in place of the result's permutation
  /// back (getHeadViewResult), which goes with the op.
  LogicalResult rewriteMatmul(ModuleOp module, Operation *op) {
    auto kernel = getKernel<GemmKernelAttr>(module, op, "gemm_kernel");
    if (failed(kernel))
      return failure();
    auto [ref, attr] = *kernel;
    auto mm = cast<linalg::LinalgOp>(op);
    Value a = mm.getDpsInputs()[0], bOp = mm.getDpsInputs()[1];
    Value c = mm.getDpsInits()[0];
    auto aTy = cast<RankedTensorType>(a.getType());
    auto bTy = cast<RankedTensorType>(bOp.getType());
    // The kernel must compute this op: its problem, batch and types (D and
    // C the op's f32; a record of bf16 ones was launched as if it computed
    // it).
    GemmKernelConfig cfg = attr.getConfig();
    Type dType = cast<ShapedType>(op->getResult(0).getType()).getElementType();
    const bool batched = isa<linalg::BatchMatmulOp>(op);
    const int64_t r = batched ? 1 : 0;
    int64_t m =
        aTy.isDynamicDim(r) ? GemmKernelConfig::kDynamicM : aTy.getDimSize(r);
    // A kernel with acc_init computes the op only when the op's init is a
    // fill of that very constant (bit for bit: -0.0 is not +0.0).
    FloatAttr accInit = getMatmulAccInit(op);
    const bool startsAtInit = static_cast<bool>(attr.getAccInit());
    if (!isBF16MatmulCandidate(op) || !cfg.hasBF16Operands() || cfg.m != m ||
        cfg.n != bTy.getDimSize(r + 1) || cfg.k != aTy.getDimSize(r + 1) ||
        attr.getD() != dType ||
        attr.getC() != (startsAtInit ? Type() : dType) ||
        (startsAtInit && attr.getAccInit() != accInit) ||
        attr.isGrouped() != batched ||
        (batched && attr.getGroups() != aTy.getDimSize(0)) ||
        (cfg.aMNMajor() && !getTransposedMatmulOperand(a)) ||
        (!cfg.bMNMajor() && !getTransposedMatmulOperand(bOp)) ||
        !readsHeadView(a, cfg.aMNMajor(), cfg.aHeads) ||
        !readsHeadView(bOp, !cfg.bMNMajor(), cfg.bHeads) ||
        !writesHeadView(op->getResult(0), cfg.dHeads))
      return op->emitOpError("fp8-launch-kernels: kernel ")
             << ref << " (" << attr << ") does not compute this op";
    ImplicitLocOpBuilder b(op->getLoc(), op);
    // C's extents: the fill's destination when the kernel starts at the
    // fill's constant, so the checks do not keep the fill alive.
    Value cExtents =
        startsAtInit ? c.getDefiningOp<linalg::FillOp>().getOutputs()[0] : c;
    assertBF16MatmulSizes(b, op, cExtents, cfg, batched ? attr.getGroups() : 1);
    Value result = op->getResult(0);
    auto resTy = cast<RankedTensorType>(result.getType());
    // C and D as the kernel's one launcher takes them, [G, M, N] with A's
    // G and M (dynamic or static) and the kernel's N, whatever C's type
    // says (its extents were checked equal to those above): every op of
    // the kernel calls the same declaration.
    SmallVector<int64_t> cdShape(aTy.getShape().drop_back());
    cdShape.push_back(cfg.n);
    auto cdTy = RankedTensorType::get(cdShape, dType);
    SmallVector<Value> mSizes;
    if (batched && aTy.isDynamicDim(0))
      mSizes.push_back(tensor::DimOp::create(b, a, 0));
    if (aTy.isDynamicDim(r))
      mSizes.push_back(tensor::DimOp::create(b, a, r));
    Value cCast = c;
    if (!startsAtInit && c.getType() != cdTy)
      cCast = tensor::CastOp::create(b, cdTy, c);
    // D through a head view: [B, M, H, N], the permutation's result
    // (static: getHeadViewResult).
    std::optional<HeadViewResult> dView;
    if (cfg.dHeads != 1)
      dView = getHeadViewResult(op->getResult(0));
    auto dTy =
        dView ? cast<RankedTensorType>(dView->transpose->getResult(0).getType())
              : cdTy;
    Value d = allocLike(b, dTy, dView ? SmallVector<Value>{} : mSizes);
    // The kernel's majors and head views: a transposed or permuted
    // operand's source in its place.
    KernelOperand aK = getKernelOperand(b, a, cfg.aMNMajor(), cfg.aHeads != 1);
    KernelOperand bK =
        getKernelOperand(b, bOp, !cfg.bMNMajor(), cfg.bHeads != 1);
    SmallVector<Value> args{toBuffer(b, aK.arg), toBuffer(b, bK.arg), d};
    if (!startsAtInit)
      args.push_back(toBuffer(b, cCast));
    func::FuncOp fn =
        getOrDeclareLauncher(module, ref, attr, ValueRange(args).getTypes());
    func::CallOp::create(b, fn, args);
    Value dTensor = toTensor(b, d, dTy);
    if (dView) {
      // The permutation back is D itself: it and the expand go with the op.
      dView->transpose->getResult(0).replaceAllUsesWith(dTensor);
      dView->transpose->erase();
      if (dView->expand)
        dView->expand->erase();
      op->erase();
    } else {
      if (cdTy != resTy)
        dTensor = tensor::CastOp::create(b, resTy, dTensor);
      result.replaceAllUsesWith(dTensor);
      op->erase();
    }
    if (startsAtInit)
      eraseUnreadFill(c);
    for (const KernelOperand &k : {aK, bK})
      eraseUnreadViews(k.views);
    return success();
  }

  /// Whether operand `v` (read with the other major when `swapped`) is the
  /// head view of `heads` heads the kernel reads it through (1: packed,
  /// whatever `v` is).
  static bool readsHeadView(Value v, bool swapped, int64_t heads) {
    if (heads == 1)
      return true;
    std::optional<HeadViewOperand> h =
        getHeadViewOperand(getPackedMatmulOperand(v, swapped));
    return h && h->heads() == heads;
  }

  /// Whether the op's `result` is the head view of `heads` heads the
  /// kernel writes D through (1: packed, whatever reads `result`).
  static bool writesHeadView(Value result, int64_t heads) {
    if (heads == 1)
      return true;
    std::optional<HeadViewResult> h = getHeadViewResult(result);
    return h && h->heads() == heads;
  }

  /// What a bf16 kernel reads for an operand: `arg`, the source of its
  /// views (a matrix swap read with the other major, a head permutation
  /// read through a head view) converted to bf16 as the operand was, and
  /// the views from the operand up (its conversion, the swap, the head
  /// view's collapse and permutation), erased once no other op reads them;
  /// a batch of one's [rows, H, cols] source expanded (at `b`) to the
  /// launcher's [1, rows, H, cols].
  struct KernelOperand {
    Value arg;
    SmallVector<Operation *, 4> views;
  };
  static KernelOperand getKernelOperand(ImplicitLocOpBuilder &b, Value v,
                                        bool swapped, bool headed) {
    KernelOperand k{v, {}};
    if (!swapped && !headed)
      return k;
    auto truncf = v.getDefiningOp<arith::TruncFOp>();
    Value source = getPackedMatmulOperand(v, swapped);
    if (truncf)
      k.views.push_back(truncf);
    if (swapped)
      k.views.push_back(getTransposedMatmulOperand(v)->transpose);
    std::optional<HeadViewOperand> h;
    if (headed) {
      h = getHeadViewOperand(source);
      if (h->collapse)
        k.views.push_back(h->collapse);
      k.views.push_back(h->transpose);
      source = h->transpose.getInput();
    }
    k.arg = truncf ? getConvertedSource(source, truncf) : source;
    // The batch of one's [rows, H, cols] as the launcher's [B, rows, H,
    // cols] source (B = 1): a view, one launcher type for every B.
    if (h && !h->collapse) {
      auto type = cast<RankedTensorType>(k.arg.getType());
      SmallVector<int64_t> shape{1};
      llvm::append_range(shape, type.getShape());
      k.arg = tensor::ExpandShapeOp::create(
          b, type.clone(shape), k.arg,
          SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}});
    }
    return k;
  }

  /// The bf16 conversion of `source` that `truncf` applied to a view of
  /// it, on `source` itself (the same bits: a conversion per element). One
  /// conversion per source: an arith.truncf of it the function has already
  /// (moved right after the source's definition, so that it dominates
  /// every op of the source), else a new one there.
  static Value getConvertedSource(Value source, arith::TruncFOp like) {
    auto type = RankedTensorType::get(
        cast<RankedTensorType>(source.getType()).getShape(),
        cast<ShapedType>(like.getType()).getElementType());
    OpBuilder b(like);
    if (Operation *def = source.getDefiningOp())
      b.setInsertionPointAfter(def);
    else
      b.setInsertionPointToStart(cast<BlockArgument>(source).getOwner());
    for (Operation *user : source.getUsers()) {
      auto truncf = dyn_cast<arith::TruncFOp>(user);
      if (truncf && truncf.getType() == type &&
          truncf->getAttrs() == like->getAttrs()) {
        truncf->moveBefore(b.getInsertionBlock(), b.getInsertionPoint());
        return truncf;
      }
    }
    auto truncf = cast<arith::TruncFOp>(b.clone(*like));
    truncf.getInMutable().assign(source);
    truncf.getResult().setType(type);
    return truncf;
  }

  /// The views of a source the kernel read in their place (from the
  /// operand up), erased while no other op reads them.
  static void eraseUnreadViews(ArrayRef<Operation *> views) {
    for (Operation *view : views) {
      if (!view->use_empty())
        return;
      view->erase();
    }
  }

  /// The fill that wrote `init` (a folded acc_init), erased when no op
  /// reads it any more, and its destination with it when that was its
  /// only use: a fill another op reads stays (the kernels that started at
  /// its constant share it with that op in the IR only, not in memory).
  static void eraseUnreadFill(Value init) {
    auto fill = init.getDefiningOp<linalg::FillOp>();
    if (!fill || !fill->use_empty())
      return;
    Operation *dest = fill.getOutputs()[0].getDefiningOp();
    fill->erase();
    if (dest && isa<tensor::EmptyOp>(dest) && dest->use_empty())
      dest->erase();
  }

  /// A swap-AB kernel (D^T = B A^T, `c` its N x M x K configuration): B's
  /// codes as A, its 128x128 block scales one per row ([KB, roundUp(N,
  /// 4)]); A's codes as B, its per-row scales per column ([KB, Np]); C^T;
  /// D^T back to D. Every layout change is a transpose-kernel launch.
  LogicalResult launchSwappedGemm(ModuleOp module, ImplicitLocOpBuilder &b,
                                  ScaledMatmulOp op, SymbolRefAttr ref,
                                  GemmKernelAttr attr) {
    GemmKernelConfig c = attr.getConfig();
    auto aDis = DisassembleOp::create(b, op.getA());
    auto bDis = DisassembleOp::create(b, op.getB());
    FailureOr<Value> saT = transposeOnDevice(
        b, module, op, bDis.getScales(), /*rowMultiple=*/1,
        GemmKernelConfig::roundUp(c.m, 4), /*repeatRows=*/128);
    FailureOr<Value> sbT = transposeOnDevice(
        b, module, op, aDis.getScales(), /*rowMultiple=*/1, c.bScaleColumns());
    if (failed(saT) || failed(sbT))
      return failure();
    auto resTy = cast<RankedTensorType>(op.getResult().getType());
    auto dTTy = RankedTensorType::get({c.m, c.n}, resTy.getElementType());
    Value dT = allocLike(b, dTTy, {});
    SmallVector<Value> args{toBuffer(b, padCodes(b, bDis.getData())),
                            toBuffer(b, padCodes(b, aDis.getData())),
                            toBuffer(b, *saT), toBuffer(b, *sbT), dT};
    if (Value acc = op.getC()) {
      FailureOr<Value> accT =
          transposeOnDevice(b, module, op, acc, /*rowMultiple=*/1);
      if (failed(accT))
        return failure();
      args.push_back(toBuffer(b, *accT));
    }
    func::FuncOp fn =
        getOrDeclareLauncher(module, ref, attr, ValueRange(args).getTypes());
    func::CallOp::create(b, fn, args);
    FailureOr<Value> d = transposeOnDevice(b, module, op, toTensor(b, dT, dTTy),
                                           /*rowMultiple=*/1);
    if (failed(d))
      return failure();
    op.getResult().replaceAllUsesWith(*d);
    op->erase();
    return success();
  }

  LogicalResult rewriteQuantize(ModuleOp module, QuantizeOp op) {
    std::optional<QuantizeKernelSpec> spec =
        getQuantizeSpec(op, NoKernelReport::silent);
    if (!spec)
      return success(); // a host op (fp8-lower-to-nvvm remarked why)
    auto kernel = getKernel<QuantizeKernelAttr>(module, op, "quantize_kernel");
    if (failed(kernel))
      return failure();
    if (kernel->second.isTranspose())
      return op.emitOpError("fp8-launch-kernels: kernel ")
             << kernel->first << " (" << kernel->second
             << ") is a requantize kernel, not this op's";
    ImplicitLocOpBuilder b(op.getLoc(), op);
    auto resTy = cast<ScaledTensorType>(op.getResult().getType());
    auto qTy = resTy.getDataTensorType();
    SmallVector<Value> rowSizes, blockSizes;
    if (qTy.isDynamicDim(0)) {
      Value rows = tensor::DimOp::create(b, op.getInput(), 0);
      assertRowsFitKernel(b, rows, op);
      rowSizes.push_back(rows);
      blockSizes.push_back(arith::CeilDivUIOp::create(
          b, rows, arith::ConstantIndexOp::create(b, spec->config.blockRows)));
      assertQuantizeBlocksFitKernel(b, blockSizes.back(),
                                    spec->config.colTiles(), op);
    }
    replaceByLaunch(module, b, op, *kernel, {op.getInput()}, rowSizes,
                    blockSizes);
    return success();
  }

  /// The launcher call of a quantize or requantize kernel: (the first of
  /// `inputs`, q, s, the other inputs) as buffers -> fp8.assemble of the new
  /// codes and scales, which replaces `op`.
  void replaceByLaunch(ModuleOp module, ImplicitLocOpBuilder &b, Operation *op,
                       std::pair<SymbolRefAttr, QuantizeKernelAttr> kernel,
                       ArrayRef<Value> inputs, ValueRange rowSizes,
                       ValueRange blockSizes) {
    auto resTy = cast<ScaledTensorType>(op->getResult(0).getType());
    auto qTy = resTy.getDataTensorType();
    auto sTy = resTy.getScaleTensorType();
    Value q = allocLike(b, qTy, rowSizes);
    Value s = allocLike(b, sTy, blockSizes);
    SmallVector<Value> args{toBuffer(b, inputs.front()), q, s};
    for (Value in : inputs.drop_front())
      args.push_back(toBuffer(b, in));
    func::FuncOp fn = getOrDeclareLauncher(module, kernel.first, kernel.second,
                                           ValueRange(args).getTypes());
    func::CallOp::create(b, fn, args);
    Value result =
        AssembleOp::create(b, resTy, toTensor(b, q, qTy), toTensor(b, s, sTy));
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
  }

  /// fp8.requantize [T, F] -> [F, T]: the launcher takes the input's codes
  /// and, last, its scales (QuantizeKernelConfig.h).
  LogicalResult rewriteRequantize(ModuleOp module, RequantizeOp op) {
    std::optional<QuantizeKernelSpec> spec =
        getRequantizeSpec(op, NoKernelReport::silent);
    if (!spec)
      return success(); // a host op (fp8-lower-to-nvvm remarked why)
    auto kernel = getKernel<QuantizeKernelAttr>(module, op, "quantize_kernel");
    if (failed(kernel))
      return failure();
    QuantizeKernelConfig c = kernel->second.getConfig();
    if (!kernel->second.isTranspose() || c.rows != spec->config.rows ||
        c.cols != spec->config.cols ||
        kernel->second.getInput() != spec->inputType ||
        kernel->second.getFp8() != spec->fp8Type ||
        isa<Float8E8M0FNUType>(kernel->second.getScale()) != spec->e8m0Scale)
      return op.emitOpError("fp8-launch-kernels: kernel ")
             << kernel->first << " (" << kernel->second
             << ") does not compute this op";
    ImplicitLocOpBuilder b(op.getLoc(), op);
    auto in = DisassembleOp::create(b, op.getInput());
    // The kernel reads f32 input scales: E8M0 ones are widened (exact), on
    // the device.
    FailureOr<Value> scales = widenE8M0OnDevice(b, module, op, in.getScales());
    if (failed(scales))
      return failure();
    replaceByLaunch(module, b, op, *kernel, {in.getData(), *scales}, {}, {});
    return success();
  }
};

} // namespace
