//===- fp8-opt.cpp - the fp8-mlir optimizer driver ------------------------===//
//
// An mlir-opt-style driver: the fp8 dialect and passes, plus the upstream
// dialects, passes and LLVM IR translations that exported model graphs
// (torch-mlir linalg-on-tensors, TOSA) and the CPU/GPU lowerings need.
//
//===----------------------------------------------------------------------===//
#include "fp8/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::fp8::registerFP8Passes();

  mlir::DialectRegistry registry;
  // All upstream dialects and their extensions (interfaces for
  // bufferization, inlining, ...): real graphs carry func, linalg, tensor,
  // arith, math, cf, ml_program, tosa and llvm ops; the lowerings add scf,
  // memref, vector, gpu, nvgpu and nvvm.
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary needs the LLVM IR translation interfaces (builtin,
  // LLVM, NVVM, GPU): docs/build-notes.md.
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::fp8::registerFP8Dialect(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "fp8-mlir optimizer driver\n", registry));
}
