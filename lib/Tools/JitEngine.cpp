//===- JitEngine.cpp - MLIR's ExecutionEngine for the tools ---------------===//
#include "fp8/Tools/JitEngine.h"

#include "mlir/ExecutionEngine/OptUtils.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ExecutionEngine/JITEventListener.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
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

/// An instruction X86's FastISel leaves to SelectionDAG for its aggregate
/// type or operand (calls are selected one by one either way, extractvalue
/// by FastISel).
static bool isAggregateInstruction(const llvm::Instruction &inst) {
  if (llvm::isa<llvm::CallBase, llvm::ExtractValueInst>(inst))
    return false;
  if (inst.getType()->isAggregateType())
    return true;
  return llvm::any_of(inst.operands(), [](const llvm::Use &operand) {
    return operand->getType()->isAggregateType();
  });
}

void fp8::splitBlocksForFastISel(llvm::Module &module) {
  for (llvm::Function &func : module) {
    if (func.isDeclaration() || !func.hasOptNone())
      continue;
    std::vector<llvm::Instruction *> cuts;
    for (llvm::BasicBlock &block : func) {
      // Never at the top of a block (after its PHIs and allocas) nor inside
      // a run.
      bool previous = true;
      for (llvm::Instruction &inst : block) {
        bool aggregate = isAggregateInstruction(inst);
        bool top = llvm::isa<llvm::PHINode, llvm::AllocaInst>(inst);
        if (aggregate && !previous && !top)
          cuts.push_back(&inst);
        previous = aggregate || top;
      }
    }
    for (llvm::Instruction *cut : cuts)
      cut->getParent()->splitBasicBlock(cut);
  }
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
  std::function<llvm::Error(llvm::Module *)> optimize;
  if (options.irOptLevel)
    optimize = makeOptimizingTransformer(*options.irOptLevel,
                                         /*sizeLevel=*/0,
                                         /*targetMachine=*/nullptr);
  std::function<llvm::Error(llvm::Module *)> transformer =
      [&optimize](llvm::Module *module) {
        splitBlocksForFastISel(*module);
        return optimize ? optimize(module) : llvm::Error::success();
      };
  ExecutionEngineOptions engineOptions;
  engineOptions.sharedLibPaths = libs;
  engineOptions.jitCodeGenOptLevel = options.codeGenOptLevel;
  engineOptions.transformer = transformer;
  auto engine = ExecutionEngine::create(module, engineOptions);
  if (!engine)
    return llvm::createStringError("JIT compilation failed: " +
                                   llvm::toString(engine.takeError()));
  return std::move(*engine);
}
