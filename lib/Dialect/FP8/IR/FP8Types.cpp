//===- FP8Types.cpp - !fp8.scaled -----------------------------------------===//
#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/IR/ShapeString.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::fp8;

#define GET_TYPEDEF_CLASSES
#include "fp8/Dialect/FP8/IR/FP8Types.cpp.inc"

void FP8Dialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "fp8/Dialect/FP8/IR/FP8Types.cpp.inc"
      >();
}

/// Parses `[1, 128]`; `?` is accepted where `allowDynamic` (policy blocks:
/// "the whole dimension"). Shared by the type and the policy attribute.
namespace mlir::fp8::detail {
ParseResult parseBlockList(AsmParser &parser, SmallVectorImpl<int64_t> &out,
                           bool allowDynamic) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        if (allowDynamic && succeeded(parser.parseOptionalQuestion())) {
          out.push_back(ShapedType::kDynamic);
          return success();
        }
        int64_t v;
        if (parser.parseInteger(v))
          return failure();
        out.push_back(v);
        return success();
      });
}

void printBlockList(AsmPrinter &printer, ArrayRef<int64_t> block) {
  printer << '[' << shapeString(block, ", ") << ']';
}
} // namespace mlir::fp8::detail

// Syntax: `!fp8.scaled<32x4096xf8E4M3FN, block = [1, 128], scale = f32>`.
Type ScaledTensorType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape, block;
  Type elementType, scaleType;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parser.parseKeyword("block") || parser.parseEqual() ||
      detail::parseBlockList(parser, block, /*allowDynamic=*/false) ||
      parser.parseComma() || parser.parseKeyword("scale") ||
      parser.parseEqual() || parser.parseType(scaleType) ||
      parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    shape, elementType, block, scaleType);
}

void ScaledTensorType::print(AsmPrinter &printer) const {
  printer << '<';
  printer.printDimensionList(getShape());
  if (!getShape().empty())
    printer << 'x';
  printer << getElementType() << ", block = ";
  detail::printBlockList(printer, getBlockShape());
  printer << ", scale = " << getScaleType() << '>';
}

LogicalResult
ScaledTensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                         ArrayRef<int64_t> shape, Type elementType,
                         ArrayRef<int64_t> blockShape, Type scaleType) {
  if (!isSupportedFP8Type(elementType))
    return emitError() << "element type must be f8E4M3FN or f8E5M2, got "
                       << elementType;
  if (!isSupportedScaleType(scaleType))
    return emitError() << "scale type must be f32 or f8E8M0FNU, got "
                       << scaleType;
  if (blockShape.size() != shape.size())
    return emitError() << "block rank " << blockShape.size()
                       << " differs from tensor rank " << shape.size();
  for (auto [i, d] : llvm::enumerate(shape))
    if (d < 0 && !ShapedType::isDynamic(d))
      return emitError() << "dimension " << i
                         << " must be non-negative or dynamic, got " << d;
  for (auto [i, b] : llvm::enumerate(blockShape))
    if (b <= 0)
      return emitError() << "block size at dimension " << i
                         << " must be positive, got " << b;
  return success();
}

SmallVector<int64_t> ScaledTensorType::getScaleShape() const {
  return llvm::map_to_vector(llvm::zip_equal(getShape(), getBlockShape()),
                             [](auto p) {
                               auto [d, b] = p;
                               return getNumBlocks(d, b);
                             });
}

RankedTensorType ScaledTensorType::getScaleTensorType() const {
  return RankedTensorType::get(getScaleShape(), getScaleType());
}

RankedTensorType ScaledTensorType::getDataTensorType() const {
  return RankedTensorType::get(getShape(), getElementType());
}

double ScaledTensorType::getFormatMax() const {
  return fp8::getFormatMax(getElementType());
}

ScaledTensorType ScaledTensorType::clone(ArrayRef<int64_t> shape) const {
  return ScaledTensorType::get(getContext(), shape, getElementType(),
                               getBlockShape(), getScaleType());
}
