//===- LowerToNVVM.cpp - fp8-lower-to-nvvm --------------------------------===//
#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"
#include "fp8/Conversion/FP8ToNVVM/GemmKernelOptions.h"

#include "GemmKernel.h"
#include "KernelSpecs.h"
#include "QuantizeKernel.h"
#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/Utils/TensorCoreMatmul.h"

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

constexpr StringLiteral kSmemSymbol = "fp8_dynamic_smem";
constexpr StringLiteral kAmaxSymbol = "fp8_quantize_amax";
constexpr StringLiteral kColAmaxSymbol = "fp8_quantize_col_amax";

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

  /// The GEMM kernel options (GemmKernelOptions.h: fp8-gpu-pipeline
  /// declares the same).
  GemmKernelOptions<Pass> gemmOptions{*this};
  /// What they select, set by initialize.
  GemmKernelSelection selection;

  FP8LowerToNVVMPass() = default;
  FP8LowerToNVVMPass(const FP8LowerToNVVMPass &other)
      : Base(other), selection(other.selection) {}
  FP8LowerToNVVMPass(const FP8LowerToNVVMPassOptions &options,
                     const GemmKernelOptions<mlir::detail::PassOptions> &gemm)
      : Base(options) {
    gemmOptions.copyFrom(gemm);
  }

  /// The kernels' #fp8.gemm_kernel: also for a module without fp8 ops (only
  /// bf16 linalg.matmul, the BF16 variant), whose parsing did not load it.
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registry.insert<FP8Dialect>();
  }

  // Options are checked up front, also for modules without a scaled_matmul,
  // so a typo in chip/features never goes unnoticed.
  LogicalResult initialize(MLIRContext *ctx) override {
    Location loc = UnknownLoc::get(ctx);
    if (failed(checkTargetOptions(loc, "fp8-lower-to-nvvm", chip, features)))
      return failure();
    FailureOr<GemmKernelSelection> selected =
        gemmOptions.select(loc, "fp8-lower-to-nvvm");
    if (failed(selected))
      return failure();
    selection = *selected;
    return success();
  }

  /// `op` names its kernel `name` in the kernel module: fp8-launch-kernels
  /// follows the reference (it never searches by name).
  static void setKernelRef(Operation *op, StringRef name) {
    MLIRContext *ctx = op->getContext();
    op->setAttr(FP8Dialect::kKernelRefAttrName,
                SymbolRefAttr::get(StringAttr::get(ctx, kKernelModuleName),
                                   {FlatSymbolRefAttr::get(ctx, name)}));
  }

  /// The quantize ops a GEMM kernel's quantize epilogue computes get no
  /// kernel of their own; a remark names the fusion.
  static void dropEpilogueQuantizes(ArrayRef<Operation *> gemms,
                                    ArrayRef<GemmKernelSpec> specs,
                                    SmallVectorImpl<Operation *> &quantizeOps,
                                    SmallVectorImpl<QuantizeKernelSpec> &qs) {
    llvm::SmallPtrSet<Operation *, 8> fused;
    for (auto [op, spec] : llvm::zip_equal(gemms, specs)) {
      if (!spec.config.quantizeEpilogue)
        continue;
      QuantizeOp q = getEpilogueQuantize(cast<ScaledMatmulOp>(op));
      fused.insert(q);
      emitRemark(op->getLoc(), "fp8-lower-to-nvvm: the GEMM kernel's "
                               "epilogue computes the fp8.quantize of its "
                               "result (1x128 tiles): one launch, no result "
                               "in global memory");
    }
    for (size_t i = quantizeOps.size(); i-- > 0;)
      if (fused.contains(quantizeOps[i])) {
        quantizeOps.erase(quantizeOps.begin() + i);
        qs.erase(qs.begin() + i);
      }
  }

  /// Whether no kernel computes the GEMM `op` (an empty problem, or a form
  /// no kernel implements); if so, reports why as `report` says.
  static bool reportNoGemmKernel(Operation *op, NoKernelReport report) {
    const bool error = report == NoKernelReport::error;
    std::string empty = getEmptyProblemReason(op);
    if (!empty.empty()) {
      emitNoKernel(op->getLoc(), report)
          << "fp8-lower-to-nvvm: no kernel (" << empty << "); "
          << (error ? "the op would stay on the host, which require-kernels "
                      "forbids"
                    : "the op stays on the host, which launches nothing for "
                      "it");
      return true;
    }
    // A form no kernel implements (another preset's blocks or scale type, a
    // promotion interval other than 128, a dynamic N or K): the host
    // lowering, the CPU reference, computes it. Decided for every op before
    // anything is lowered, so the rest of the graph still gets its kernels.
    std::string noKernel = explainNoGemmKernel(op);
    if (noKernel.empty())
      return false;
    emitNoKernel(op->getLoc(), report)
        << "fp8-lower-to-nvvm: no GPU GEMM kernel for '" << op->getName()
        << "' (" << noKernel << "); "
        << (error ? "the op would stay on the host, which require-kernels "
                    "forbids"
                  : "the op stays on the host, whose lowering computes it");
    return true;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> ops;
    SmallVector<QuantizeKernelSpec> quantizeSpecs;
    SmallVector<Operation *> quantizeOps;
    // An op no kernel implements stays on the host with a remark, or is an
    // error under require-kernels (a caller that runs only kernels, e.g.
    // the Python gpu-emulator backend); every such op is reported.
    const bool requireKernels = selection.requireKernels;
    const NoKernelReport report =
        requireKernels ? NoKernelReport::error : NoKernelReport::remark;
    bool keptOnHost = false;
    SmallVector<Operation *> matmuls;
    module.walk([&](Operation *op) {
      if (isBF16MatmulCandidate(op)) {
        // The high-precision contractions (bf16 x bf16 -> f32): the BF16
        // variant of the GEMM kernel where it applies; else the op stays a
        // host kernel (which runs on the GPU too: a remark, never an error).
        std::string noKernel = explainNoBF16MatmulKernel(op);
        if (noKernel.empty())
          matmuls.push_back(op);
        else
          emitRemark(op->getLoc())
              << "fp8-lower-to-nvvm: no GPU GEMM kernel for '" << op->getName()
              << "' (" << noKernel << "); it stays a host kernel";
      } else if (isa<ScaledMatmulOp, GroupedScaledMatmulOp>(op)) {
        if (reportNoGemmKernel(op, report))
          keptOnHost = true;
        else
          ops.push_back(op);
      } else if (auto q = dyn_cast<QuantizeOp>(op)) {
        if (std::optional<QuantizeKernelSpec> spec =
                getQuantizeSpec(q, report)) {
          quantizeSpecs.push_back(*spec);
          quantizeOps.push_back(op);
        } else {
          keptOnHost = true;
        }
      } else if (auto rq = dyn_cast<RequantizeOp>(op)) {
        // The Wgrad operands of a training graph (docs/training.md): the
        // transpose-requantize kernel, a variant of the quantize kernel.
        if (std::optional<QuantizeKernelSpec> spec =
                getRequantizeSpec(rq, report)) {
          quantizeSpecs.push_back(*spec);
          quantizeOps.push_back(op);
        } else {
          keptOnHost = true;
        }
      }
    });
    if (keptOnHost && requireKernels)
      return signalPassFailure();
    if (ops.empty() && quantizeSpecs.empty() && matmuls.empty())
      return;

    SmallVector<GemmKernelSpec, 4> specs;
    for (Operation *op : ops) {
      const GemmKernelOverrides &overrides = selection.overrides;
      const ChipSpec *model =
          selection.autoConfig ? selection.modelChip : nullptr;
      FailureOr<GemmKernelSpec> spec =
          isa<ScaledMatmulOp>(op)
              ? getGemmKernelSpec(cast<ScaledMatmulOp>(op), overrides, model)
              : getGroupedGemmKernelSpec(cast<GroupedScaledMatmulOp>(op),
                                         overrides, model);
      if (failed(spec))
        return signalPassFailure();
      specs.push_back(*spec);
    }
    dropEpilogueQuantizes(ops, specs, quantizeOps, quantizeSpecs);
    SmallVector<GemmKernelSpec, 4> matmulSpecs;
    for (Operation *op : matmuls) {
      FailureOr<GemmKernelSpec> spec = getMatmulKernelSpec(
          op, selection.overrides,
          selection.autoConfig ? selection.modelChip : nullptr);
      if (failed(spec))
        return signalPassFailure();
      matmulSpecs.push_back(*spec);
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
    // Each kernel carries its decision (fp8.kernel), by which it is known:
    // ops with equal decisions share one kernel. Its symbol, derived from
    // the decision for humans, is what the op names it by (fp8.kernel_ref).
    for (auto [op, spec] : llvm::zip_equal(ops, specs)) {
      b.setInsertionPoint(gpuModule.getBody()->getTerminator());
      StringAttr name = getOrInsertKernel(
          gpuModule, getGemmKernelAttr(&getContext(), spec),
          getKernelModelAttr(&getContext(), spec, *selection.modelChip),
          [&](StringRef symbol) -> Operation * {
            return buildGemmKernel(b, loc, spec, symbol, kSmemSymbol);
          });
      setKernelRef(op, name);
    }
    // The bf16 kernels, priced by the model's bf16 terms.
    for (auto [op, spec] : llvm::zip_equal(matmuls, matmulSpecs)) {
      b.setInsertionPoint(gpuModule.getBody()->getTerminator());
      StringAttr name = getOrInsertKernel(
          gpuModule, getGemmKernelAttr(&getContext(), spec),
          getKernelModelAttr(&getContext(), spec, *selection.modelChip),
          [&](StringRef symbol) -> Operation * {
            return buildGemmKernel(b, loc, spec, symbol, kSmemSymbol);
          });
      setKernelRef(op, name);
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
    if (llvm::any_of(
            quantizeSpecs,
            [](const QuantizeKernelSpec &s) { return s.config.perColumn(); }) &&
        !gpuModule.lookupSymbol(kColAmaxSymbol)) {
      b.setInsertionPointToStart(gpuModule.getBody());
      // Column blocks [128, 1]: each warp's amax of the region's 128
      // columns (8 x 128), reduced by all.
      LLVM::GlobalOp::create(
          b, loc,
          LLVM::LLVMArrayType::get(b.getF32Type(),
                                   QuantizeKernelConfig::kWarps *
                                       QuantizeKernelConfig::kBlockCols),
          /*isConstant=*/false, LLVM::Linkage::Internal, kColAmaxSymbol,
          Attribute(), /*alignment=*/16, /*addrSpace=*/3);
    }
    for (auto [op, spec] : llvm::zip_equal(quantizeOps, quantizeSpecs)) {
      b.setInsertionPoint(gpuModule.getBody()->getTerminator());
      StringAttr name = getOrInsertKernel(
          gpuModule, getQuantizeKernelAttr(&getContext(), spec),
          /*model=*/Attribute(), [&](StringRef symbol) -> Operation * {
            return buildQuantizeKernel(b, loc, spec, symbol, kAmaxSymbol,
                                       kColAmaxSymbol);
          });
      setKernelRef(op, name);
    }
  }
};

} // namespace

std::unique_ptr<Pass> mlir::fp8::createFP8LowerToNVVMPass(
    const FP8LowerToNVVMPassOptions &options,
    const GemmKernelOptions<mlir::detail::PassOptions> &gemm) {
  return std::make_unique<FP8LowerToNVVMPass>(options, gemm);
}
