//===- FP8Types.td - fp8 types ------------------------------*- tablegen -*-===//
#ifndef FP8_DIALECT_FP8TYPES_TD
#define FP8_DIALECT_FP8TYPES_TD

include "fp8/Dialect/FP8/IR/FP8Base.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def FP8_ScaledTensorType : TypeDef<FP8_Dialect, "ScaledTensor"> {
  let mnemonic = "scaled";
  let summary = "An FP8 tensor with its block scales attached";
  let description = [{
    A ranked tensor of FP8 codes together with one dequantization scale per
    block. Parameters:

    - `shape`: the data shape (`?` for a dynamic dimension);
    - `elementType`: `f8E4M3FN` (max 448) or `f8E5M2` (max 57344);
    - `blockShape`: one positive size per dimension; `1` means one scale per
      element along that dimension. A block cut by the tensor edge covers
      only its valid elements;
    - `scaleType`: `f32`, or `f8E8M0FNU` (a power-of-two exponent, as in
      OCP MX).

    The scale tensor has shape `ceil(shape[i] / blockShape[i])` (see
    `getScaleTensorType()`). Element `i` of the data dequantizes to
    `f32(q[i]) * scale[i / block]` (numerics contract §1.5).

    Example, a 32x4096 activation in DeepSeek-V3's 1x128 tiles with f32
    scales of shape 32x32:

    ```mlir
    !fp8.scaled<32x4096xf8E4M3FN, block = [1, 128], scale = f32>
    ```

    Errors: a non-FP8 element type, a block rank that differs from the
    tensor rank, a block size <= 0, or a scale type other than
    `f32`/`f8E8M0FNU` is rejected by the verifier.
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$shape,
    "::mlir::Type":$elementType,
    ArrayRefParameter<"int64_t">:$blockShape,
    "::mlir::Type":$scaleType
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Shape of the scale tensor: ceil(shape[i] / blockShape[i]); dynamic
    /// where the data dimension is dynamic.
    ::llvm::SmallVector<int64_t> getScaleShape() const;
    /// `tensor<scaleShape x scaleType>`.
    ::mlir::RankedTensorType getScaleTensorType() const;
    /// `tensor<shape x elementType>`: the FP8 codes.
    ::mlir::RankedTensorType getDataTensorType() const;
    /// Largest finite value of the element type (448 or 57344).
    double getFormatMax() const;
    /// Number of dimensions.
    int64_t getRank() const { return getShape().size(); }
    /// Same type with another shape (block and scale type kept).
    ScaledTensorType clone(::llvm::ArrayRef<int64_t> shape) const;
  }];
}

#endif // FP8_DIALECT_FP8TYPES_TD
