//===- Passes.h - fp8 conversion passes -------------------------*- C++ -*-===//
//
// All conversions out of the fp8 dialect, as upstream mlir/Conversion/
// Passes.h: include this for every conversion pass and its registration.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_CONVERSION_PASSES_H
#define FP8_CONVERSION_PASSES_H

#include "fp8/Conversion/FP8ToLinalg/FP8ToLinalg.h"
#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"

namespace mlir {
namespace fp8 {

/// Generate the code for registering conversion passes.
#define GEN_PASS_REGISTRATION
#include "fp8/Conversion/Passes.h.inc"

} // namespace fp8
} // namespace mlir

#endif // FP8_CONVERSION_PASSES_H
