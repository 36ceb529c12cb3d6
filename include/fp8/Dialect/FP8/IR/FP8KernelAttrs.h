//===- FP8KernelAttrs.h - generated kernel attributes -----------*- C++ -*-===//
//
// The attributes of the generated sm_90a kernels (FP8KernelAttrs.td): the
// decision of a kernel (#fp8.gemm_kernel, #fp8.quantize_kernel,
// #fp8.transpose_kernel), the cost model's figures of a GEMM kernel
// (#fp8.kernel_model), and the kernel module's table of kernels by their
// decision (getOrInsertKernel). Included by FP8.h, which embedders include.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_DIALECT_FP8_IR_FP8KERNELATTRS_H
#define FP8_DIALECT_FP8_IR_FP8KERNELATTRS_H

#include "fp8/Dialect/FP8/IR/FP8.h"

#include "fp8/Target/Hopper/GemmKernelConfig.h"
#include "fp8/Target/Hopper/KernelNames.h"
#include "fp8/Target/Hopper/QuantizeKernelConfig.h"

#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>

namespace mlir::fp8 {
/// What a #fp8.gemm_kernel holds beside its GemmKernelConfig (the problem's
/// sizes, the tile, the schedule): the element types, the grouping,
/// swap-AB and the fused quantize's parameters. With the configuration, the
/// attribute's builder (GemmKernelAttr::get) takes it.
struct GemmKernelProblem {
  Type a, b; // f8E4M3FN or f8E5M2
  Type d;    // bf16 or f32
  Type c;    // the accumulator operand's bf16 or f32, null: none
  /// The BF16 variant without C: the f32 constant its accumulators start
  /// at (a zero-filled init folded into the kernel); null: C, or +0.0.
  FloatAttr accInit;
  /// A grouped (MoE) kernel: its layout, the group count, whether a masked
  /// kernel takes the per-group row counts. groups is ShapedType::kDynamic
  /// for the bf16 batch kernel of a run-time batch count.
  std::optional<GroupLayout> layout;
  int64_t groups = 1;
  bool counts = false;
  /// D^T = B A^T (the op's A and B swapped: `a` is B's type).
  bool swapAB = false;
  /// The quantize epilogue (GemmKernelConfig::quantizeEpilogue): the codes'
  /// FP8 type, the amax floor and power-of-two scales.
  Type q;
  double qEps = 1e-4;
  bool qPow2 = false;
};
} // namespace mlir::fp8

#define GET_ATTRDEF_CLASSES
#include "fp8/Dialect/FP8/IR/FP8KernelAttrs.h.inc"

namespace mlir::fp8 {

/// The element type `t` as kernel names and the emulator spell it
/// (KernelNames.h): e4m3, e5m2, bf16, else f32.
KernelElementType getKernelElementType(Type t);

/// The symbol name of a kernel decision (#fp8.gemm_kernel,
/// #fp8.quantize_kernel, #fp8.transpose_kernel: their getSymbolName), for
/// humans; "" for another attribute.
std::string getKernelSymbolName(Attribute decision);

/// The kernel of `kernelModule` (a symbol table: the gpu.module of the
/// generated kernels) whose fp8.kernel is `decision`: the existing one whose
/// fp8.kernel equals `decision` (a kernel is known by its decision, never by
/// its name), else the one `build` creates and inserts into the module's
/// body, given `decision`'s symbol name (getKernelSymbolName) made unique in
/// the module (SymbolTable::insert appends `_<n>` on a collision), with its
/// fp8.kernel set to `decision` and, when not null, its fp8.kernel_model to
/// `model`. Returns the kernel's symbol name.
StringAttr
getOrInsertKernel(Operation *kernelModule, Attribute decision, Attribute model,
                  llvm::function_ref<Operation *(StringRef name)> build);

namespace detail {
/// Whether `mnemonic` is one of FP8KernelAttrs.td's attributes.
bool isKernelAttrMnemonic(StringRef mnemonic);
/// FP8KernelAttrs.td's generated parser and printer (FP8Dialect's
/// parseAttribute and printAttribute dispatch to them).
OptionalParseResult parseKernelAttr(AsmParser &parser, StringRef *mnemonic,
                                    Type type, Attribute &value);
LogicalResult printKernelAttr(Attribute attr, AsmPrinter &printer);
} // namespace detail

} // namespace mlir::fp8

#endif // FP8_DIALECT_FP8_IR_FP8KERNELATTRS_H
