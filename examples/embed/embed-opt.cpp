//===- embed-opt.cpp - an out-of-tree tool with the fp8 dialect -----------===//
//
// What a downstream MLIR compiler adds to its own -opt tool to get the fp8
// dialect, every fp8 pass and the fp8 pipelines: two calls from
// fp8/InitAll.h.
//
//===----------------------------------------------------------------------===//
#include "fp8/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::fp8::registerFP8Passes();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::fp8::registerFP8Dialect(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "fp8 embedding example\n", registry));
}
