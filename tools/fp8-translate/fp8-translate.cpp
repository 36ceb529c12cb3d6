//===- fp8-translate.cpp - the fp8-mlir translation driver ----------------===//
//
// mlir-translate plus one translation of our own:
//   --fp8-extract-gpu-object  writes the object payloads of every gpu.binary
//                             (PTX text for format=isa, cubin bytes for bin)
// so lit tests and the device harness get the PTX of `fp8-gpu-pipeline`
// without parsing escaped MLIR string attributes.
//
//===----------------------------------------------------------------------===//
#include "fp8/InitAll.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllTranslations.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"

using namespace mlir;

static LogicalResult extractGpuObjects(Operation *op, raw_ostream &os) {
  bool found = false;
  op->walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjectsAttr()) {
      auto object = dyn_cast<gpu::ObjectAttr>(attr);
      if (!object)
        continue;
      os << object.getObject().getValue();
      found = true;
    }
  });
  if (!found)
    return op->emitError("no gpu.binary object to extract (run "
                         "gpu-module-to-binary / fp8-gpu-pipeline first)");
  return success();
}

int main(int argc, char **argv) {
  registerAllTranslations();
  TranslateFromMLIRRegistration extract(
      "fp8-extract-gpu-object",
      "write the object payloads (PTX or cubin) of every gpu.binary",
      extractGpuObjects, [](DialectRegistry &registry) {
        registerAllDialects(registry);
        fp8::registerFP8Dialect(registry);
      });
  return failed(mlirTranslateMain(argc, argv, "fp8-mlir translation driver"));
}
