//===- JitEngine.h - MLIR's ExecutionEngine for the tools -------*- C++ -*-===//
//
// fp8-emu, fp8-emu-run and the Python module JIT-compile LLVM-dialect host
// code with MLIR's ExecutionEngine (ORC) and call it in their own process.
// What they share is here, written once: the native target initialised once
// per process, where MLIR's runner libraries are, a check that each library
// the code links loads (ExecutionEngine only warns about one that does not
// and compiles on, so a misspelt path ends in an unresolved symbol or a run
// without the library) and the engine's creation.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_TOOLS_JITENGINE_H
#define FP8_TOOLS_JITENGINE_H

#include "mlir/ExecutionEngine/ExecutionEngine.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace mlir {
class Operation;
namespace fp8 {

/// Initialises LLVM's native target and its asm printer (what the engine
/// compiles for) and the engine's perf listener, once per process;
/// thread-safe. createJitEngine calls it; a caller that creates engines on
/// threads with their own descriptor table (the Python module's output
/// capture) calls it first on its main thread, where the listener then
/// opens its dump file.
void initializeJitTarget();

/// The path of MLIR's runtime library `lib<name>` (e.g.
/// "mlir_c_runner_utils") in the LLVM library directory of the MLIR this
/// project was built against.
std::string getMLIRRuntimeLibraryPath(llvm::StringRef name);

/// libmlir_runner_utils and libmlir_c_runner_utils: what lowered host code
/// calls for printing (printMemref*, vector.print) and memref copies.
std::vector<std::string> getRunnerUtilsLibraryPaths();

/// Fails with "cannot load the library '<path>': <why>" for the first of
/// `libs` that is not a file or does not load.
llvm::Error loadSharedLibraries(llvm::ArrayRef<std::string> libs);

/// Splits each block of the `optnone` functions of `module` before every run
/// of consecutive instructions on aggregates (insertvalue, a load or store of
/// a struct, the return of one; not calls or extractvalue). LLVM selects an
/// optnone function's instructions with FastISel, bottom-up, and at the first
/// instruction it cannot select hands it and everything above it in its
/// block to SelectionDAG as one DAG: on the one-block step of a model (its
/// memref descriptors are structs, it returns one struct of every gradient)
/// that was the whole function, selected in time superlinear in its size.
/// After the split such a run is the top of its block, and SelectionDAG
/// selects only the run. A run stays whole: an aggregate crossing blocks
/// costs a register per member. createJitEngine runs it on every module.
void splitBlocksForFastISel(llvm::Module &module);

/// How createJitEngine compiles.
struct JitEngineOptions {
  /// The shared libraries the code's external symbols resolve against.
  std::vector<std::string> sharedLibs;
  /// The LLVM IR optimisation level before code generation
  /// (makeOptimizingTransformer); none: the IR is compiled as translated.
  std::optional<unsigned> irOptLevel;
  /// The code generator's optimisation level; none: the JIT's default.
  std::optional<llvm::CodeGenOptLevel> codeGenOptLevel;
};

/// JIT-compiles `module` (in the LLVM dialect, with its LLVM IR translations
/// registered): initializeJitTarget, loadSharedLibraries(sharedLibs), then
/// ExecutionEngine::create. Fails with the library's error or with "JIT
/// compilation failed: <LLVM's error>".
llvm::Expected<std::unique_ptr<ExecutionEngine>>
createJitEngine(Operation *module, const JitEngineOptions &options);

} // namespace fp8
} // namespace mlir

#endif // FP8_TOOLS_JITENGINE_H
