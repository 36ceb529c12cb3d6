//===- JitEngine.cpp - MLIR's ExecutionEngine for the tools ---------------===//
#include "fp8/Tools/JitEngine.h"

#include "mlir/ExecutionEngine/OptUtils.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ExecutionEngine/JITEventListener.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"

#include <functional>
#include <mutex>

using namespace mlir;

void fp8::initializeJitTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // The engine's perf listener (one per process) opens its dump file on
    // first use and keeps it: in the descriptor table of the thread that
    // calls this, not in that of a later engine's thread.
    (void)llvm::JITEventListener::createPerfJITEventListener();
  });
}

std::string fp8::getMLIRRuntimeLibraryPath(StringRef name) {
  llvm::SmallString<256> path(FP8_MLIR_RUNNER_LIB_DIR);
  llvm::sys::path::append(path, "lib" + name + FP8_SHLIB_EXT);
  return std::string(path);
}

std::vector<std::string> fp8::getRunnerUtilsLibraryPaths() {
  return {getMLIRRuntimeLibraryPath("mlir_runner_utils"),
          getMLIRRuntimeLibraryPath("mlir_c_runner_utils")};
}

llvm::Error fp8::loadSharedLibraries(ArrayRef<std::string> libs) {
  for (const std::string &lib : libs) {
    if (!llvm::sys::fs::is_regular_file(lib))
      return llvm::createStringError(
          "cannot load the library '" + lib +
          "': no such file (expected the path of a shared library)");
    std::string err;
    if (!llvm::sys::DynamicLibrary::getPermanentLibrary(lib.c_str(), &err)
             .isValid())
      return llvm::createStringError("cannot load the library '" + lib +
                                     "': " + err);
  }
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<ExecutionEngine>>
fp8::createJitEngine(Operation *module, const JitEngineOptions &options) {
  initializeJitTarget();
  if (llvm::Error err = loadSharedLibraries(options.sharedLibs))
    return std::move(err);
  std::vector<StringRef> libs(options.sharedLibs.begin(),
                              options.sharedLibs.end());
  // ExecutionEngineOptions::transformer is a function_ref: the transformer
  // must outlive the engine's creation.
  std::function<llvm::Error(llvm::Module *)> transformer;
  ExecutionEngineOptions engineOptions;
  engineOptions.sharedLibPaths = libs;
  engineOptions.jitCodeGenOptLevel = options.codeGenOptLevel;
  if (options.irOptLevel) {
    transformer = makeOptimizingTransformer(*options.irOptLevel,
                                            /*sizeLevel=*/0,
                                            /*targetMachine=*/nullptr);
    engineOptions.transformer = transformer;
  }
  auto engine = ExecutionEngine::create(module, engineOptions);
  if (!engine)
    return llvm::createStringError("JIT compilation failed: " +
                                   llvm::toString(engine.takeError()));
  return std::move(*engine);
}
