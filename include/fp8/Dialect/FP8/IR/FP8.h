//===- FP8.h - the fp8 dialect: types, attributes, ops ----------*- C++ -*-===//
//
// Public header of the fp8 dialect. Embedders include this one file and call
// registerFP8Dialect (fp8/InitAll.h) on their DialectRegistry.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_DIALECT_FP8_IR_FP8_H
#define FP8_DIALECT_FP8_IR_FP8_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <string>

#include "fp8/Dialect/FP8/IR/FP8Dialect.h.inc"
#include "fp8/Dialect/FP8/IR/FP8Enums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "fp8/Dialect/FP8/IR/FP8Attrs.h.inc"

#include "fp8/Dialect/FP8/IR/FP8KernelAttrs.h"

#define GET_TYPEDEF_CLASSES
#include "fp8/Dialect/FP8/IR/FP8Types.h.inc"

#define GET_OP_CLASSES
#include "fp8/Dialect/FP8/IR/FP8Ops.h.inc"

namespace mlir::fp8 {

/// True for the FP8 element types the dialect stores: f8E4M3FN and f8E5M2.
bool isSupportedFP8Type(Type type);

/// True for the scale storage types: f32 and f8E8M0FNU.
bool isSupportedScaleType(Type type);

/// Largest finite value of an FP8 format: 448 (E4M3FN) or 57344 (E5M2).
/// Asserts on any other type.
double getFormatMax(Type fp8Type);

/// The high precision that holds a float type: `f32` for f32 and wider,
/// `bf16` for bf16, f16 and narrower.
Precision getHighPrecisionOf(Type floatType);

/// Every role name in enum order, comma-separated: "linear, embedding, ...".
std::string getRoleNames();

/// ceil(dim / block), keeping dynamic dimensions dynamic.
int64_t getNumBlocks(int64_t dim, int64_t block);

/// True when a result of `op` (any op) has a static dimension of size 0: an
/// fp8 op with an empty result computes nothing, and the lowerings build no
/// loop or kernel for it (slices of an empty dimension do not verify).
bool hasEmptyResult(Operation *op);

/// True for an fp8.scaled_matmul or fp8.grouped_scaled_matmul whose static K
/// is 0: an empty sum, so every computed element is its element of C (or
/// +0.0 without C) and no product is formed.
bool hasEmptyContraction(Operation *op);

} // namespace mlir::fp8

#endif // FP8_DIALECT_FP8_IR_FP8_H
