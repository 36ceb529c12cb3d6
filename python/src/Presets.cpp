//===- Presets.cpp - the compiler's constants for the Python package ------===//
//
// The FP8 formats' limits and the policy presets, read from the compiler
// (the element types' APFloat semantics, fp8::getFormatMax, the
// #fp8.policy presets) so that the Python package keeps no copy of them.
//
//===----------------------------------------------------------------------===//
#include "Core.h"

#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/Pipelines/Passes.h"
#include "fp8/Target/Hopper/KernelNames.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace fp8py {

namespace {

/// "e4m3" / "e5m2": the spelling of the package's `fmt` arguments and of
/// the kernel names.
std::string shortName(Type t) {
  return fp8::getKernelElementTypeName(fp8::getKernelElementType(t));
}

std::string typeName(Type t) {
  std::string s;
  llvm::raw_string_ostream(s) << t;
  return s;
}

FormatLimits limitsOf(FloatType t) {
  const llvm::fltSemantics &sem = t.getFloatSemantics();
  FormatLimits f;
  f.name = shortName(t);
  f.mlirType = typeName(t);
  f.max = fp8::getFormatMax(t);
  f.minNormal = llvm::APFloat::getSmallestNormalized(sem).convertToDouble();
  f.minSubnormal = llvm::APFloat::getSmallest(sem).convertToDouble();
  int precision = static_cast<int>(llvm::APFloat::semanticsPrecision(sem));
  f.mantissaBits = precision - 1;
  f.exponentBits =
      static_cast<int>(llvm::APFloat::semanticsSizeInBits(sem)) - precision;
  f.bias = 1 - llvm::APFloat::semanticsMinExponent(sem);
  f.hasInf = llvm::APFloat::semanticsHasInf(sem);
  f.hasNaN = llvm::APFloat::semanticsHasNaN(sem);
  return f;
}

} // namespace

std::vector<FormatLimits> formatLimits() {
  MLIRContext ctx;
  std::vector<FormatLimits> formats;
  // The element types fp8::isSupportedFP8Type accepts.
  for (FloatType t : {FloatType(Float8E4M3FNType::get(&ctx)),
                      FloatType(Float8E5M2Type::get(&ctx))}) {
    if (fp8::isSupportedFP8Type(t))
      formats.push_back(limitsOf(t));
  }
  return formats;
}

std::vector<std::string> policyPresets() {
  std::vector<std::string> names;
  for (StringRef name : fp8::PolicyAttr::getPresetNames())
    names.push_back(name.str());
  return names;
}

std::string defaultPolicy() {
  fp8::FP8PipelineOptions options;
  return options.policy.getValue();
}

std::vector<PolicyPreset> policyPresetInfo() {
  MLIRContext ctx;
  ctx.getOrLoadDialect<fp8::FP8Dialect>();
  std::vector<PolicyPreset> presets;
  for (StringRef name : fp8::PolicyAttr::getPresetNames()) {
    fp8::PolicyAttr p = fp8::PolicyAttr::getPreset(&ctx, name);
    PolicyPreset preset;
    preset.name = name.str();
    preset.fp8 = !llvm::is_contained(p.getKeepHigh(), fp8::Role::linear);
    preset.format = shortName(p.getFormat());
    preset.gradFormat = shortName(p.getGradFormat());
    presets.push_back(preset);
  }
  return presets;
}

} // namespace fp8py
