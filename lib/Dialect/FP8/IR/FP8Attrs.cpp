//===- FP8Attrs.cpp - #fp8.policy and the enum attributes -----------------===//
#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/IR/ShapeString.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fp8;

#define GET_ATTRDEF_CLASSES
#include "fp8/Dialect/FP8/IR/FP8Attrs.cpp.inc"

namespace mlir::fp8::detail {
ParseResult parseBlockList(AsmParser &parser, SmallVectorImpl<int64_t> &out,
                           bool allowDynamic);
void printBlockList(AsmPrinter &printer, ArrayRef<int64_t> block);
} // namespace mlir::fp8::detail

void FP8Dialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "fp8/Dialect/FP8/IR/FP8Attrs.cpp.inc"
      >();
  registerKernelAttributes();
}

// The attributes of FP8Attrs.td and of FP8KernelAttrs.td have a generated
// parser each, which reads the mnemonic: the one to call is chosen by the
// mnemonic before it is read.
Attribute FP8Dialect::parseAttribute(DialectAsmParser &parser,
                                     Type type) const {
  SMLoc loc = parser.getCurrentLocation();
  StringRef spec = parser.getFullSymbolSpec();
  StringRef mnemonic =
      spec.take_while([](char c) { return llvm::isAlnum(c) || c == '_'; });
  StringRef tag;
  Attribute attr;
  OptionalParseResult result =
      detail::isKernelAttrMnemonic(mnemonic)
          ? detail::parseKernelAttr(parser, &tag, type, attr)
          : generatedAttributeParser(parser, &tag, type, attr);
  if (result.has_value())
    return attr;
  parser.emitError(loc) << "unknown attribute `" << tag << "` in dialect `"
                        << getNamespace() << "`";
  return {};
}

void FP8Dialect::printAttribute(Attribute attr,
                                DialectAsmPrinter &printer) const {
  if (succeeded(generatedAttributePrinter(attr, printer)))
    return;
  (void)detail::printKernelAttr(attr, printer);
}

//===----------------------------------------------------------------------===//
// Presets
//===----------------------------------------------------------------------===//

static constexpr int64_t kWhole = ShapedType::kDynamic;

/// The roles DeepSeek-V3 §3.3.1 keeps in BF16/FP32.
static constexpr Role kSensitiveRoles[] = {Role::embedding, Role::output_head,
                                           Role::gating, Role::normalization,
                                           Role::attention};

/// Every role: the `bf16` baseline keeps all of them high.
static constexpr Role kAllRoles[] = {
    Role::linear,        Role::embedding, Role::output_head, Role::gating,
    Role::normalization, Role::attention, Role::other,       Role::dispatch};

/// The preset of a module without an fp8.policy and the default of every
/// `policy` option: DeepSeek-V3's recipe, the project's subject. One of the
/// names below (PolicyAttrTest checks it).
static constexpr StringLiteral kDefaultPreset = "deepseek-v3";

ArrayRef<StringRef> PolicyAttr::getPresetNames() {
  static const StringRef names[] = {"deepseek-v3", "hybrid", "per-tensor",
                                    "rowwise",     "mxfp8",  "bf16"};
  return names;
}

StringRef PolicyAttr::getPresetNameList() {
  static const std::string list = [] {
    std::string s;
    llvm::raw_string_ostream os(s);
    llvm::interleaveComma(getPresetNames(), os);
    return s;
  }();
  return list;
}

StringRef PolicyAttr::getDefaultPresetName() { return kDefaultPreset; }

PolicyAttr PolicyAttr::getDefaultPreset(MLIRContext *ctx) {
  return getPreset(ctx, kDefaultPreset);
}

PolicyAttr PolicyAttr::getPreset(MLIRContext *ctx, StringRef name) {
  Builder b(ctx);
  Type e4m3 = b.getType<Float8E4M3FNType>();
  Type e5m2 = b.getType<Float8E5M2Type>();
  Type f32 = b.getF32Type();
  APFloat eps(1.0e-4f);
  struct Fields {
    Type format, gradFormat;
    SmallVector<int64_t, 2> act, weight;
    ScaleMode mode;
    Type scaleType;
    int64_t interval;
  };
  std::optional<Fields> f;
  ArrayRef<Role> keepHigh = kSensitiveRoles;
  if (name == "deepseek-v3") // DeepSeek-V3 §3.3.2: E4M3 everywhere.
    f = Fields{e4m3, e4m3, {1, 128}, {128, 128}, ScaleMode::f32, f32, 128};
  else if (name == "hybrid") // deepseek-v3's tiles, E5M2 gradients (the
                             // TransformerEngine HYBRID format).
    f = Fields{e4m3, e5m2, {1, 128}, {128, 128}, ScaleMode::f32, f32, 128};
  else if (name == "per-tensor") // One scale per tensor; E5M2 gradients.
    f = Fields{e4m3, e5m2, {kWhole, kWhole}, {kWhole, kWhole}, ScaleMode::f32,
               f32,  128};
  else if (name == "rowwise") // torchao float8 rowwise: pow2 per-row scales.
    f = Fields{e4m3, e4m3, {1, kWhole}, {1, kWhole}, ScaleMode::pow2, f32, 128};
  else if (name == "mxfp8") // OCP MX v1.0: 32-element blocks, E8M0 scales.
    f = Fields{e4m3,
               e4m3,
               {1, 32},
               {1, 32},
               ScaleMode::pow2,
               b.getType<Float8E8M0FNUType>(),
               32};
  else if (name == "bf16") { // The baseline FP8 is measured against
                             // (DeepSeek-V3 §3.3, Appendix B.1): every role
                             // high, so every contraction has BF16 operands
                             // and FP32 accumulation; the FP8 fields are
                             // deepseek-v3's, unused.
    f = Fields{e4m3, e4m3, {1, 128}, {128, 128}, ScaleMode::f32, f32, 128};
    keepHigh = kAllRoles;
  }
  if (!f)
    return {};
  return PolicyAttr::get(ctx, b.getStringAttr(name), f->format, f->gradFormat,
                         f->act, f->weight, f->mode, f->scaleType, eps,
                         f->interval, b.getBF16Type(), keepHigh,
                         WgradOperands::requantize);
}

bool PolicyAttr::keepsHigh(Role role) const {
  return llvm::is_contained(getKeepHigh(), role);
}

float PolicyAttr::getEpsValue() const { return getEps().convertToFloat(); }

PolicyAttr::Fields PolicyAttr::getFields() const {
  return Fields{getName(),
                getFormat(),
                getGradFormat(),
                SmallVector<int64_t, 2>(getActivationBlock()),
                SmallVector<int64_t, 2>(getWeightBlock()),
                getScaleMode(),
                getScaleType(),
                getEps(),
                getPromoteInterval(),
                getHigh(),
                SmallVector<Role>(getKeepHigh()),
                getWgradOperands()};
}

PolicyAttr PolicyAttr::getChecked(function_ref<InFlightDiagnostic()> emitError,
                                  MLIRContext *ctx, const Fields &f) {
  return getChecked(emitError, ctx, f.name, f.format, f.gradFormat,
                    f.activationBlock, f.weightBlock, f.scaleMode, f.scaleType,
                    f.eps, f.promoteInterval, f.high, f.keepHigh,
                    f.wgradOperands);
}

PolicyAttr PolicyAttr::withPromoteInterval(
    int64_t interval, function_ref<InFlightDiagnostic()> emitError) const {
  Fields fields = getFields();
  fields.promoteInterval = interval;
  return getChecked(emitError, getContext(), fields);
}

//===----------------------------------------------------------------------===//
// Syntax
//===----------------------------------------------------------------------===//
//
//   #fp8.policy<"deepseek-v3">                  a preset
//   #fp8.policy<"deepseek-v3", eps = 1.0e-12>   a preset with overrides
//   #fp8.policy<name = "...", format = ..., ...> the full form (printed)

Attribute PolicyAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess())
    return {};

  // The starting point: a named preset, or the default preset's fields for
  // the full form (whose printer always writes every field).
  std::string presetName;
  bool hasPreset = succeeded(parser.parseOptionalString(&presetName));
  PolicyAttr base = hasPreset ? PolicyAttr::getPreset(ctx, presetName)
                              : PolicyAttr::getDefaultPreset(ctx);
  if (!base) {
    parser.emitError(loc) << "unknown policy preset \"" << presetName
                          << "\" (known: " << getPresetNameList() << ")";
    return {};
  }
  Fields f = base.getFields();

  auto parseField = [&]() -> ParseResult {
    std::string key;
    SMLoc keyLoc = parser.getCurrentLocation();
    if (parser.parseKeywordOrString(&key) || parser.parseEqual())
      return failure();
    if (key == "name") {
      std::string s;
      if (parser.parseString(&s))
        return failure();
      f.name = StringAttr::get(ctx, s);
      return success();
    }
    if (key == "format")
      return parser.parseType(f.format);
    if (key == "grad_format")
      return parser.parseType(f.gradFormat);
    if (key == "activation_block")
      return f.activationBlock.clear(),
             detail::parseBlockList(parser, f.activationBlock, true);
    if (key == "weight_block")
      return f.weightBlock.clear(),
             detail::parseBlockList(parser, f.weightBlock, true);
    if (key == "scale_type")
      return parser.parseType(f.scaleType);
    if (key == "high")
      return parser.parseType(f.high);
    if (key == "promote_interval") {
      // `?`: one promotion at the end of each GEMM's K (no promotion).
      if (succeeded(parser.parseOptionalQuestion()))
        return f.promoteInterval = ShapedType::kDynamic, success();
      return parser.parseInteger(f.promoteInterval);
    }
    if (key == "eps")
      return parser.parseFloat(APFloat::IEEEsingle(), f.eps);
    if (key == "scale_mode") {
      std::string m;
      SMLoc mLoc = parser.getCurrentLocation();
      if (parser.parseKeywordOrString(&m))
        return failure();
      std::optional<ScaleMode> sm = symbolizeScaleMode(m);
      if (!sm)
        return parser.emitError(mLoc)
               << "unknown scale_mode '" << m << "' (known: f32, pow2)";
      f.scaleMode = *sm;
      return success();
    }
    if (key == "wgrad_operands") {
      std::string m;
      SMLoc mLoc = parser.getCurrentLocation();
      if (parser.parseKeywordOrString(&m))
        return failure();
      std::optional<WgradOperands> w = symbolizeWgradOperands(m);
      if (!w)
        return parser.emitError(mLoc) << "unknown wgrad_operands '" << m
                                      << "' (known: requantize, fresh)";
      f.wgradOperands = *w;
      return success();
    }
    if (key == "keep_high") {
      f.keepHigh.clear();
      return parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            std::string r;
            SMLoc rLoc = parser.getCurrentLocation();
            if (parser.parseKeywordOrString(&r))
              return failure();
            std::optional<Role> role = symbolizeRole(r);
            if (!role)
              return parser.emitError(rLoc)
                     << "unknown role '" << r << "' (known: " << getRoleNames()
                     << ")";
            f.keepHigh.push_back(*role);
            return success();
          });
    }
    return parser.emitError(keyLoc)
           << "unknown policy field '" << key
           << "' (known: name, format, grad_format, activation_block, "
              "weight_block, scale_mode, scale_type, eps, promote_interval, "
              "high, keep_high, wgrad_operands)";
  };

  // After a preset the fields are optional and follow a comma.
  if (hasPreset) {
    while (succeeded(parser.parseOptionalComma()))
      if (parseField())
        return {};
  } else {
    f.name = StringAttr::get(ctx, "custom");
    if (parser.parseCommaSeparatedList(parseField))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, ctx, f);
}

void PolicyAttr::print(AsmPrinter &printer) const {
  printer << "<name = \"";
  llvm::printEscapedString(getName().getValue(), printer.getStream());
  printer << "\", format = " << getFormat()
          << ", grad_format = " << getGradFormat() << ", activation_block = ";
  detail::printBlockList(printer, getActivationBlock());
  printer << ", weight_block = ";
  detail::printBlockList(printer, getWeightBlock());
  printer << ", scale_mode = " << stringifyScaleMode(getScaleMode())
          << ", scale_type = " << getScaleType() << ", eps = ";
  printer.printFloat(getEps());
  printer << ", promote_interval = ";
  // `?`: one promotion per GEMM, at the end of its K.
  if (ShapedType::isDynamic(getPromoteInterval()))
    printer << "?";
  else
    printer << getPromoteInterval();
  printer << ", high = " << getHigh() << ", keep_high = [";
  llvm::interleaveComma(getKeepHigh(), printer,
                        [&](Role r) { printer << stringifyRole(r); });
  printer << "]";
  // The default (every preset's) is not printed: policies printed before
  // the field existed read the same.
  if (getWgradOperands() != WgradOperands::requantize)
    printer << ", wgrad_operands = "
            << stringifyWgradOperands(getWgradOperands());
  printer << ">";
}

/// Whether a policy keeping `keepHigh` high has FP8 GEMMs: a contraction
/// of a role it does not keep high is FP8 (fp8-assign-precision), except
/// `other` and `dispatch`, which stay high under every policy.
static bool hasFP8Gemms(ArrayRef<Role> keepHigh) {
  return llvm::any_of(kAllRoles, [&](Role r) {
    return r != Role::other && r != Role::dispatch &&
           !llvm::is_contained(keepHigh, r);
  });
}

LogicalResult PolicyAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringAttr name, Type format, Type gradFormat,
                                 ArrayRef<int64_t> activationBlock,
                                 ArrayRef<int64_t> weightBlock,
                                 ScaleMode scaleMode, Type scaleType,
                                 APFloat eps, int64_t promoteInterval,
                                 Type high, ArrayRef<Role> keepHigh,
                                 WgradOperands wgradOperands) {
  if (!isSupportedFP8Type(format))
    return emitError() << "policy format must be f8E4M3FN or f8E5M2, got "
                       << format;
  if (!isSupportedFP8Type(gradFormat))
    return emitError() << "policy grad_format must be f8E4M3FN or f8E5M2, got "
                       << gradFormat;
  if (!isSupportedScaleType(scaleType))
    return emitError() << "policy scale_type must be f32 or f8E8M0FNU, got "
                       << scaleType;
  if (isa<Float8E8M0FNUType>(scaleType) && scaleMode != ScaleMode::pow2)
    return emitError() << "policy scale_type f8E8M0FNU holds only powers of "
                          "two and needs scale_mode = pow2";
  if (!isa<BFloat16Type, Float16Type, Float32Type>(high))
    return emitError() << "policy high must be bf16, f16 or f32, got " << high;
  if (eps.isNaN() || eps.isInfinity() || eps.isNegative())
    return emitError() << "policy eps must be finite and >= 0";
  bool oncePerK = ShapedType::isDynamic(promoteInterval);
  if (!oncePerK && (promoteInterval <= 0 || promoteInterval % 32 != 0))
    return emitError()
           << "policy promote_interval must be a positive multiple of 32 "
              "(the FP8 wgmma K) or ? (once per GEMM, at the end of K), got "
           << promoteInterval;
  // Without FP8 GEMMs (the bf16 baseline) there is no promotion to turn
  // off: the K-blocks below are fields no GEMM uses.
  if (oncePerK && !hasFP8Gemms(keepHigh))
    return emitError() << "policy promote_interval = ? (one promotion per "
                          "GEMM, at the end of K) is for FP8 GEMMs, but "
                          "keep_high holds every role a GEMM can be FP8 in: "
                          "each GEMM stays in high precision, accumulating "
                          "in FP32 without promotion intervals (the bf16 "
                          "baseline); expected a policy with FP8 GEMMs and "
                          "whole-K blocks (per-tensor, rowwise)";
  for (auto [what, block] : {std::pair{"activation_block", activationBlock},
                             std::pair{"weight_block", weightBlock}}) {
    if (block.size() != 2)
      return emitError() << "policy " << what
                         << " must have 2 sizes ([rows, K]), got "
                         << block.size();
    for (int64_t b : block)
      if (b <= 0 && !ShapedType::isDynamic(b))
        return emitError() << "policy " << what
                           << " sizes must be positive or ? (whole "
                              "dimension), got "
                           << b;
    int64_t kBlock = block[1];
    // Scales are multiplied in at each promotion, so an interval spans one
    // scale per row: promoting once per K needs K-blocks of the whole K.
    if (oncePerK && !ShapedType::isDynamic(kBlock))
      return emitError() << "policy promote_interval = ? (one promotion per "
                            "GEMM, at the end of K) needs K-blocks that span "
                            "the whole K (?), but the "
                         << what << " K-block is " << kBlock
                         << ", each with its own scale (per-tensor and "
                            "rowwise scaling have whole-K blocks)";
    if (!oncePerK && !ShapedType::isDynamic(kBlock) &&
        kBlock % promoteInterval != 0)
      return emitError() << "policy " << what << " K-block " << kBlock
                         << " is not a multiple of promote_interval "
                         << promoteInterval;
  }
  return success();
}
