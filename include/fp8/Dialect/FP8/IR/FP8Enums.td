//===- FP8Enums.td - fp8 enums ------------------------------*- tablegen -*-===//
//
// The enums of the fp8 dialect, shared by the graph-level attributes
// (FP8Attrs.td), the kernel attributes (FP8KernelAttrs.td) and the ops.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_DIALECT_FP8ENUMS_TD
#define FP8_DIALECT_FP8ENUMS_TD

include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def FP8_Role : I32EnumAttr<"Role", "role of an op in a model graph", [
    I32EnumAttrCase<"linear", 0>,
    I32EnumAttrCase<"embedding", 1>,
    I32EnumAttrCase<"output_head", 2>,
    I32EnumAttrCase<"gating", 3>,
    I32EnumAttrCase<"normalization", 4>,
    I32EnumAttrCase<"attention", 5>,
    I32EnumAttrCase<"other", 6>,
    I32EnumAttrCase<"dispatch", 7>]> {
  let cppNamespace = "::mlir::fp8";
  let genSpecializedAttr = 0;
}

def FP8_Precision : I32EnumAttr<"Precision", "numeric precision of an op", [
    I32EnumAttrCase<"fp8", 0>,
    I32EnumAttrCase<"bf16", 1>,
    I32EnumAttrCase<"f32", 2>]> {
  let cppNamespace = "::mlir::fp8";
  let genSpecializedAttr = 0;
}

def FP8_GemmKind : I32EnumAttr<"GemmKind", "which GEMM of a linear layer's training step", [
    I32EnumAttrCase<"fprop", 0>,
    I32EnumAttrCase<"dgrad", 1>,
    I32EnumAttrCase<"wgrad", 2>]> {
  let cppNamespace = "::mlir::fp8";
  let genSpecializedAttr = 0;
}

def FP8_ScaleMode : I32EnumAttr<"ScaleMode", "how a block's scale is derived from its amax", [
    // s = amax / fmax, any f32 value.
    I32EnumAttrCase<"f32", 0>,
    // s = smallest power of two >= amax / fmax (rounding up never clips).
    I32EnumAttrCase<"pow2", 1>]> {
  let cppNamespace = "::mlir::fp8";
  let genSpecializedAttr = 0;
}

def FP8_WgradOperands : I32EnumAttr<"WgradOperands", "how a weight gradient's operands are quantized", [
    // From the forward's FP8 codes and scales: dequantized, transposed and
    // quantized again along the tokens (DeepSeek-V3 §3.5.2).
    I32EnumAttrCase<"requantize", 0>,
    // Quantized along the tokens from the high-precision tensor, next to its
    // row quantization (TransformerEngine, torchao).
    I32EnumAttrCase<"fresh", 1>]> {
  let cppNamespace = "::mlir::fp8";
  let genSpecializedAttr = 0;
}

def FP8_GroupLayout : I32EnumAttr<"GroupLayout", "how a grouped GEMM assigns rows to groups", [
    // A is [G, M, K]: one M x K slab per group, optional per-group row counts.
    I32EnumAttrCase<"masked", 0>,
    // A is [M, K]: rows sorted by group, a per-row group index.
    I32EnumAttrCase<"contiguous", 1>,
    // A is [M, T], B is [N, T], D is [G, M, N]: the tokens (K) sorted by
    // group, a per-token group index (the MoE Wgrad).
    I32EnumAttrCase<"k_grouped", 2>]> {
  let cppNamespace = "::mlir::fp8";
  let genSpecializedAttr = 0;
}

def FP8_OperandMajor : I32EnumAttr<"OperandMajor", "how a bf16 GEMM kernel's operand lies in memory", [
    // K contiguous: A [M, K], B [N, K] row-major.
    I32EnumAttrCase<"k", 0>,
    // M or N contiguous: A [K, M], B [K, N] row-major (wgmma's transpose).
    I32EnumAttrCase<"mn", 1>]> {
  let cppNamespace = "::mlir::fp8";
  let genSpecializedAttr = 0;
}

def FP8_KernelEpilogue : I32EnumAttr<"KernelEpilogue", "what a GEMM kernel does with its accumulators", [
    // Scale-promoted FP32 accumulators (plus C) converted and stored to D.
    I32EnumAttrCase<"store", 0>,
    // D rounded to its element type and stored as FP8 codes with a scale
    // per 1x128 tile along N (what fp8.quantize makes of the stored D).
    I32EnumAttrCase<"quantize", 1>]> {
  let cppNamespace = "::mlir::fp8";
  let genSpecializedAttr = 0;
}

#endif // FP8_DIALECT_FP8ENUMS_TD
