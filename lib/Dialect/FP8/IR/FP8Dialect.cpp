//===- FP8Dialect.cpp - fp8 dialect registration and attribute checks -----===//
#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/IR/ReductionLanes.h"
#include "fp8/Dialect/FP8/IR/ShapeString.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fp8;

#include "fp8/Dialect/FP8/IR/FP8Dialect.cpp.inc"
#include "fp8/Dialect/FP8/IR/FP8Enums.cpp.inc"

namespace {
/// Lets the upstream inliner move fp8 ops into a caller: every op of the
/// dialect is a pure value computation without regions, so it means the
/// same in any function. Without it the inliner refuses any callee holding
/// one (e.g. a compiled training step called by its destination-passing
/// wrapper).
struct FP8InlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void FP8Dialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "fp8/Dialect/FP8/IR/FP8Ops.cpp.inc"
      >();
  addInterfaces<FP8InlinerInterface>();
}

/// A lane split's lane count (fp8.reduction_lanes, fp8.column_lanes): an
/// i64 power of two >= 2.
static bool isLanes(Attribute value) {
  auto lanes = dyn_cast<IntegerAttr>(value);
  return lanes && lanes.getType().isInteger(64) && lanes.getInt() >= 2 &&
         llvm::isPowerOf2_64(lanes.getInt());
}

/// Checks the dialect's discardable attributes (`fp8.role`, `fp8.precision`,
/// `fp8.reason`, `fp8.policy`, ...) wherever they appear, so a hand-edited
/// graph with `fp8.role = "linear"` (a string) is rejected with a precise
/// message instead of being silently ignored by the passes.
LogicalResult FP8Dialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  Attribute value = attr.getValue();
  // On the op's location, never with the op printed: these attributes sit
  // on modules and functions, and printing one would dump the whole graph.
  auto expect = [&](bool ok, StringRef what) -> LogicalResult {
    if (ok)
      return success();
    return mlir::emitError(op->getLoc())
           << "attribute '" << name << "' must be " << what << ", got "
           << value;
  };
  if (name == kRoleAttrName)
    return expect(isa<RoleAttr>(value), "an #fp8.role<...> attribute");
  if (name == kPrecisionAttrName)
    return expect(isa<PrecisionAttr>(value),
                  "an #fp8.precision<...> attribute");
  if (name == kReasonAttrName)
    return expect(isa<StringAttr>(value), "a string");
  if (name == kGemmAttrName) {
    if (failed(expect(isa<GemmKindAttr>(value), "an #fp8.gemm<...> attribute")))
      return failure();
    // A GEMM kind names one of a linear's three products: only a
    // contraction can be one (by name: the dialect does not link linalg).
    StringRef opName = op->getName().getStringRef();
    if (isa<ScaledMatmulOp, GroupedScaledMatmulOp>(op) ||
        opName.starts_with("linalg."))
      return success();
    return op->emitError() << "attribute '" << name
                           << "' is only valid on a linalg contraction or "
                              "fp8.scaled_matmul (grouped or not), not on '"
                           << opName << "'";
  }
  if (name == kPolicyAttrName)
    return expect(isa<PolicyAttr>(value), "an #fp8.policy<...> attribute");
  // A generated kernel and its launcher: the typed configuration (whose
  // own verifier checks the fields).
  if (name == kKernelAttrName)
    return expect(
        isa<GemmKernelAttr, QuantizeKernelAttr, TransposeKernelAttr>(value),
        "a #fp8.gemm_kernel<...>, #fp8.quantize_kernel<...> or "
        "#fp8.transpose_kernel<...> attribute");
  // The cost model's figures of a generated GEMM kernel (no generator or
  // launcher reads them).
  if (name == kKernelModelAttrName)
    return expect(isa<KernelModelAttr>(value),
                  "a #fp8.kernel_model<...> attribute");
  if (name == kKernelRefAttrName)
    return expect(isa<SymbolRefAttr>(value),
                  "a symbol reference to a kernel (@fp8_kernels::@name)");
  // A row sum's lane split (fp8-split-reductions{row-kernels}): the row
  // kernel checks the sum itself; here the lanes and the op's kind.
  if (name == kReductionLanesAttrName) {
    if (failed(expect(isLanes(value), "an i64 power of two >= 2 (the lanes)")))
      return failure();
    if (op->getName().getStringRef() == "linalg.generic")
      return success();
    return op->emitError()
           << "attribute '" << name
           << "' is only valid on a linalg.generic row reduction, not "
              "on '"
           << op->getName() << "'";
  }
  // The lane split's elements per lane and step: only beside the lanes.
  if (name == kReductionVectorAttrName) {
    auto vector = dyn_cast<IntegerAttr>(value);
    if (failed(expect(vector && vector.getType().isInteger(64) &&
                          vector.getInt() >= 1 && vector.getInt() <= 16 &&
                          llvm::isPowerOf2_64(vector.getInt()),
                      "an i64 power of two in [1, 16] (the elements per "
                      "lane and step)")))
      return failure();
    if (op->getName().getStringRef() == "linalg.generic" &&
        op->hasAttr(kReductionLanesAttrName))
      return success();
    return op->emitError() << "attribute '" << name
                           << "' is only valid on a linalg.generic marked "
                              "'fp8.reduction_lanes', not on '"
                           << op->getName() << "'";
  }
  // A column sum's lane split (fp8-split-reductions{row-kernels}): the
  // column kernel checks the sum itself; here the lanes and the op's kind.
  if (name == kColumnLanesAttrName) {
    if (failed(expect(isLanes(value), "an i64 power of two >= 2 (the lanes)")))
      return failure();
    if (op->getName().getStringRef() != "linalg.generic")
      return op->emitError()
             << "attribute '" << name
             << "' is only valid on a linalg.generic column sum, not on '"
             << op->getName() << "'";
    if (op->hasAttr(kReductionLanesAttrName))
      return op->emitError()
             << "attribute '" << name << "' cannot stand beside '"
             << kReductionLanesAttrName
             << "' (a sum has one order: a column's or a "
                "row's)";
    return success();
  }
  // A fused row group (fp8-split-reductions{row-kernels}): its id; the
  // row kernel checks the group's ops themselves.
  if (name == kRowGroupAttrName) {
    auto id = dyn_cast<IntegerAttr>(value);
    if (failed(expect(id && id.getType().isInteger(64) && id.getInt() >= 0,
                      "an i64 >= 0 (the group's id)")))
      return failure();
    if (op->getName().getStringRef() == "linalg.generic")
      return success();
    return op->emitError() << "attribute '" << name
                           << "' is only valid on a linalg.generic (a "
                              "row sum or its elementwise consumer), not "
                              "on '"
                           << op->getName() << "'";
  }
  return mlir::emitError(op->getLoc())
         << "unknown fp8 attribute '" << name
         << "' (known: fp8.role, fp8.precision, fp8.reason, fp8.gemm, "
            "fp8.policy, fp8.kernel, fp8.kernel_model, fp8.kernel_ref, "
            "fp8.reduction_lanes, fp8.reduction_vector, fp8.row_group, "
            "fp8.column_lanes)";
}

namespace mlir::fp8 {

bool isSupportedFP8Type(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

bool isSupportedScaleType(Type type) {
  return isa<Float32Type, Float8E8M0FNUType>(type);
}

double getFormatMax(Type fp8Type) {
  if (isa<Float8E4M3FNType>(fp8Type))
    return 448.0;
  assert(isa<Float8E5M2Type>(fp8Type) && "not a supported FP8 type");
  return 57344.0;
}

int64_t getNumBlocks(int64_t dim, int64_t block) {
  if (ShapedType::isDynamic(dim) || block <= 0)
    return ShapedType::kDynamic;
  // Not (dim + block - 1) / block: that overflows int64 for a block near
  // INT64_MAX, which the type accepts (a block larger than the dimension is
  // the whole dimension).
  return dim / block + (dim % block != 0);
}

Precision getHighPrecisionOf(Type floatType) {
  return floatType.isF32() || floatType.isF64() ? Precision::f32
                                                : Precision::bf16;
}

std::string shapeString(ArrayRef<int64_t> shape, StringRef separator) {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleave(
      shape, os,
      [&](int64_t d) {
        if (ShapedType::isDynamic(d))
          os << '?';
        else
          os << d;
      },
      separator);
  return s;
}

std::string getRoleNames() {
  std::string names;
  for (unsigned i = 0; i <= getMaxEnumValForRole(); ++i)
    names += (i ? ", " : "") + stringifyRole(static_cast<Role>(i)).str();
  return names;
}

} // namespace mlir::fp8
