//===- fp8-translate.cpp - the fp8-mlir translation driver ----------------===//
//
// mlir-translate plus one translation of our own:
//   --fp8-extract-gpu-object  writes the object payloads of every gpu.binary
//                             (PTX text for format=isa, cubin bytes for bin)
// so lit tests and the device harness get the PTX of `fp8-gpu-pipeline`
// without parsing escaped MLIR string attributes.
//
// The driver is our own rather than mlirTranslateMain: upstream's marks the
// translation list `cl::Required`, and LLVM's command-line parser then prints
// "must be specified at least once!" once per registered translation name
// (nine lines for one mistake). Here a missing or repeated translation is
// one error, and a crash inside MLIR is an internal error with status 1
// (fp8/Tools/CrashReport.h), as in fp8-opt.
//
//===----------------------------------------------------------------------===//
#include "fp8/InitAll.h"
#include "fp8/Tools/CrashReport.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllTranslations.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

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
  // On the location only: Operation::emitError would attach the whole
  // module to the diagnostic ("see current operation"), a dump of the input.
  if (!found)
    return emitError(op->getLoc())
           << "no gpu.binary object to extract (run gpu-module-to-binary / "
              "fp8-gpu-pipeline first)";
  return success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // After InitLLVM's handlers, which it chains to outside an fp8 stage.
  fp8::installCrashReporter("fp8-translate");
  registerAllTranslations();
  TranslateFromMLIRRegistration extract(
      "fp8-extract-gpu-object",
      "write the object payloads (PTX or cubin) of every gpu.binary",
      extractGpuObjects, [](DialectRegistry &registry) {
        registerAllDialects(registry);
        fp8::registerFP8Dialect(registry);
      });

  static llvm::cl::opt<std::string> inputFilename(
      llvm::cl::Positional, llvm::cl::desc("<input file>"),
      llvm::cl::init("-"));
  static llvm::cl::opt<std::string> outputFilename(
      "o", llvm::cl::desc("Output filename"), llvm::cl::value_desc("filename"),
      llvm::cl::init("-"));
  static llvm::cl::opt<bool> splitInputFile(
      "split-input-file",
      llvm::cl::desc("Split the input at '// -----' and translate each chunk "
                     "on its own"),
      llvm::cl::init(false));
  static llvm::cl::opt<bool> verifyDiagnostics(
      "verify-diagnostics",
      llvm::cl::desc("Check the diagnostics against expected-* comments"),
      llvm::cl::init(false));
  // Optional here; a missing translation is reported below, once.
  llvm::cl::list<const Translation *, bool, TranslationParser> translations(
      "", llvm::cl::desc("Translation to perform"));
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerTranslationCLOptions();
  registerDefaultTimingManagerCLOptions();
  llvm::cl::ParseCommandLineOptions(argc, argv, "fp8-mlir translation driver");

  if (translations.size() != 1) {
    llvm::errs() << "fp8-translate: "
                 << (translations.empty() ? "no translation given"
                                          : "more than one translation given")
                 << ": pass exactly one, e.g. --fp8-extract-gpu-object or "
                    "--mlir-to-llvmir (--help lists them)\n";
    return 1;
  }
  const Translation &translation = *translations.front();

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << "fp8-translate: " << errorMessage << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << "fp8-translate: " << errorMessage << "\n";
    return 1;
  }

  auto processChunk = [&](std::unique_ptr<llvm::MemoryBuffer> chunk,
                          raw_ostream &os) -> LogicalResult {
    MLIRContext context;
    context.printOpOnDiagnostic(!verifyDiagnostics);
    auto sourceMgr = std::make_shared<llvm::SourceMgr>();
    sourceMgr->AddNewSourceBuffer(std::move(chunk), llvm::SMLoc());
    fp8::setCrashStage("the translation", inputFilename);
    LogicalResult result = failure();
    if (verifyDiagnostics) {
      SourceMgrDiagnosticVerifierHandler handler(*sourceMgr, &context);
      (void)translation(sourceMgr, os, &context);
      result = handler.verify();
    } else {
      SourceMgrDiagnosticHandler handler(*sourceMgr, &context);
      result = translation(sourceMgr, os, &context);
    }
    fp8::clearCrashStage();
    return result;
  };
  LogicalResult result =
      splitInputFile
          ? splitAndProcessBuffer(std::move(input), processChunk, output->os())
          : processChunk(std::move(input), output->os());
  output->os().flush();
  if (std::error_code ec = output->os().error()) {
    output->os().clear_error();
    llvm::errs() << "fp8-translate: cannot write the output to '"
                 << outputFilename << "': " << ec.message() << "\n";
    return 1;
  }
  if (failed(result))
    return 1;
  output->keep();
  return 0;
}
