//===- fp8-opt.cpp - the fp8-mlir optimizer driver ------------------------===//
//
// An mlir-opt-style driver: the fp8 dialect and passes, plus the upstream
// dialects, passes and LLVM IR translations that exported model graphs
// (torch-mlir linalg-on-tensors, TOSA) and the CPU/GPU lowerings need.
//
// It is MlirOptMain's own command line and processing, with one addition:
// a crash inside libMLIR (the packaged MLIR 22 parsers crash on some
// malformed inputs) or a pass is reported as "fp8-opt: internal error in
// <the MLIR parser | pass 'NAME'> while processing <file>[:<line>]" with
// exit status 1, not a signal death (fp8/Tools/CrashReport.h).
//
//===----------------------------------------------------------------------===//
#include "fp8/InitAll.h"
#include "fp8/Tools/CrashReport.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // After InitLLVM's handlers, which it chains to outside an fp8 stage.
  fp8::installCrashReporter("fp8-opt");
  registerAllPasses();
  fp8::registerFP8Passes();

  DialectRegistry registry;
  fp8::registerFP8RequiredDialects(registry);
  fp8::registerFP8Dialect(registry);

  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "fp8-mlir optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects()) {
    llvm::outs() << "Available Dialects: ";
    llvm::interleave(registry.getDialectNames(), llvm::outs(), ",");
    llvm::outs() << "\n";
    return 0;
  }
  if (config.shouldListPasses()) {
    printRegisteredPasses();
    return 0;
  }

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> file =
      openInputFile(inputFilename, &errorMessage);
  if (!file) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }

  // Every pass records itself as the stage of the thread that runs it.
  MlirOptMainConfig pipelineConfig = config;
  config.setPassPipelineSetupFn([pipelineConfig](PassManager &pm) {
    pm.addInstrumentation(std::make_unique<fp8::CrashStageInstrumentation>());
    return pipelineConfig.setupPassPipeline(pm);
  });
  fp8::setCrashStage("the MLIR parser", inputFilename);
  LogicalResult result =
      MlirOptMain(output->os(), std::move(file), registry, config);
  fp8::clearCrashStage();
  // A write error (a full disk) is an error here, not LLVM's "IO failure on
  // output stream" abort when the stream is destroyed.
  output->os().flush();
  if (std::error_code ec = output->os().error()) {
    output->os().clear_error();
    llvm::errs() << "fp8-opt: cannot write the output to '" << outputFilename
                 << "': " << ec.message() << "\n";
    return 1;
  }
  if (failed(result))
    return 1;
  output->keep();
  return 0;
}
