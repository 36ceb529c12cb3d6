//===- FP8Base.td - fp8 dialect definition ------------------*- tablegen -*-===//
#ifndef FP8_DIALECT_FP8BASE_TD
#define FP8_DIALECT_FP8BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def FP8_Dialect : Dialect {
  let name = "fp8";
  let cppNamespace = "::mlir::fp8";
  let summary = "Block-scaled FP8 tensors, precision policies and FP8 matmuls";
  let description = [{
    The `fp8` dialect models FP8 training and inference in the style of the
    DeepSeek-V3 recipe (DeepSeek-V3 technical report, §3.3): tensors are
    stored as FP8 codes (`f8E4M3FN`, `f8E5M2`) with one dequantization scale
    per block (1x128 tiles for activations, 128x128 blocks for weights),
    scales are computed online from the block amax, and matmuls accumulate
    FP32 partial sums that are promoted with the scales multiplied in every
    promotion interval (128 K elements by default).

    A value of type `!fp8.scaled<...>` carries the FP8 data and its scales as
    one SSA value. Scales are SSA data, not type parameters, so dynamic
    (per-step) activation scaling is native. The numerics of every op follow
    the project's numerics contract (docs/numerics.md).

    Sensitive ops of a model graph stay in high precision; the analysis
    records its decisions with the `fp8.role` and `fp8.precision` discardable
    attributes and the policy in `#fp8.policy<...>`.
  }];
  let useDefaultTypePrinterParser = 1;
  // The attributes come from two files (FP8Attrs.td, FP8KernelAttrs.td),
  // each with its generated parser: FP8Dialect::parseAttribute picks one by
  // the mnemonic.
  let useDefaultAttributePrinterParser = 0;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
    /// FP8KernelAttrs.td's attributes (called by registerAttributes).
    void registerKernelAttributes();
    ::mlir::Attribute parseAttribute(::mlir::DialectAsmParser &parser,
                                     ::mlir::Type type) const override;
    void printAttribute(::mlir::Attribute attr,
                        ::mlir::DialectAsmPrinter &printer) const override;

    /// Name of the discardable attribute holding an op's role.
    static constexpr ::llvm::StringLiteral kRoleAttrName = "fp8.role";
    /// Name of the discardable attribute holding an op's precision.
    static constexpr ::llvm::StringLiteral kPrecisionAttrName = "fp8.precision";
    /// Name of the discardable attribute saying why a role/precision was chosen.
    static constexpr ::llvm::StringLiteral kReasonAttrName = "fp8.reason";
    /// Name of the discardable attribute saying which GEMM of a linear's
    /// training step (fprop, dgrad, wgrad) a contraction is.
    static constexpr ::llvm::StringLiteral kGemmAttrName = "fp8.gemm";
    /// Name of the discardable attribute of a generated kernel (llvm.func
    /// in the gpu.module) and of its launcher: its decision,
    /// #fp8.gemm_kernel, #fp8.quantize_kernel or #fp8.transpose_kernel
    /// (fp8-lower-to-nvvm, docs/gpu-kernel.md), by which it is reused.
    static constexpr ::llvm::StringLiteral kKernelAttrName = "fp8.kernel";
    /// Name of the discardable attribute of a generated GEMM kernel holding
    /// the cost model's figures for it (#fp8.kernel_model).
    static constexpr ::llvm::StringLiteral kKernelModelAttrName =
        "fp8.kernel_model";
    /// Name of the discardable attribute of a host op and of a launcher
    /// naming the kernel that computes it (a symbol reference
    /// @fp8_kernels::@name).
    static constexpr ::llvm::StringLiteral kKernelRefAttrName =
        "fp8.kernel_ref";
    /// Name of the module attribute holding the precision policy.
    static constexpr ::llvm::StringLiteral kPolicyAttrName = "fp8.policy";
  }];
  let hasConstantMaterializer = 0;
  let hasOperationAttrVerify = 1;
}

class FP8_Op<string mnemonic, list<Trait> traits = []>
    : Op<FP8_Dialect, mnemonic, traits>;

#endif // FP8_DIALECT_FP8BASE_TD
