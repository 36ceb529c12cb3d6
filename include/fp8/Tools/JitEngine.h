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
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <mutex>
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

/// The symbols of `module` (in the LLVM dialect) that createJitEngine
/// compiles apart, with the code generator at CodeGenOptLevel::None: its
/// `optnone` functions (the straight-line step fp8-outline-loops leaves) and
/// every function or global that refers to one of them, transitively (the
/// step's `@run` wrapper), so that the rest never refers to them. Empty when
/// the module has no `optnone` function, or when the split would need more
/// than functions and globals moved and declared (the part refers to another
/// kind of symbol, or an op other than a function or global refers to a
/// symbol: global constructors, aliases, comdats).
///
/// Why: LLVM picks the register allocator per code generator, not per
/// function, so an `optnone` function compiled with the rest gets the greedy
/// allocator, whose time on the step grows as layers x layers (every buffer
/// kept for the backward pass is live across the calls of every later
/// layer). At CodeGenOptLevel::None it gets the fast allocator, linear.
llvm::StringSet<> selectUnoptimizedSymbols(Operation *module);

/// A module JIT-compiled by MLIR's ExecutionEngine, in up to two parts: the
/// symbols selectUnoptimizedSymbols names, compiled by an engine of their
/// own at CodeGenOptLevel::None, and the rest (the loop nests and kernels),
/// compiled as asked. The rest defines every function and global the
/// unoptimised part refers to (they become external symbols of the rest, and
/// declarations in the unoptimised part), so the rest never refers to the
/// unoptimised part and is linked and compiled first: the unoptimised part is
/// linked on its first use, each of its external symbols resolved by a lookup
/// in the rest (its own functions and globals, the libraries, the symbols
/// registered with registerSymbols).
class JitEngine {
public:
  JitEngine() = default;
  JitEngine(const JitEngine &) = delete;
  JitEngine &operator=(const JitEngine &) = delete;
  ~JitEngine();

  /// ExecutionEngine::invokePacked on the part that defines `name`.
  llvm::Error invokePacked(llvm::StringRef name,
                           llvm::MutableArrayRef<void *> args = {});
  /// The address of the symbol `name`, from the part that defines it.
  llvm::Expected<void *> lookup(llvm::StringRef name);
  /// Defines `symbolMap`'s symbols for the module's external references:
  /// call it before the first invokePacked or lookup (the unoptimised part
  /// resolves its references when it is linked, on its first use).
  void registerSymbols(
      llvm::function_ref<llvm::orc::SymbolMap(llvm::orc::MangleAndInterner)>
          symbolMap);
  /// Runs the global constructors of the rest (the unoptimised part's, which
  /// selectUnoptimizedSymbols leaves none, when it is linked).
  void initialize();

  /// The symbols compiled apart (selectUnoptimizedSymbols; empty: the module
  /// is compiled as one).
  const llvm::StringSet<> &getUnoptimizedSymbols() const {
    return unoptimizedSymbols;
  }
  /// The code generator's level of the part compiled apart, as its target
  /// machine was set up.
  llvm::CodeGenOptLevel getUnoptimizedCodeGenOptLevel() const {
    return unoptimizedLevel;
  }

private:
  friend llvm::Expected<std::unique_ptr<JitEngine>>
  createJitEngine(Operation *module, const JitEngineOptions &options);

  /// Resolves the unoptimised part's external symbols in the rest, once.
  llvm::Error linkUnoptimized();

  /// Destroyed last: the unoptimised part calls into it.
  std::unique_ptr<ExecutionEngine> optimized;
  std::unique_ptr<ExecutionEngine> unoptimized;
  llvm::StringSet<> unoptimizedSymbols;
  /// The unoptimised part's declarations, resolved in the rest when linked.
  std::vector<std::string> imports;
  /// Which of `imports` the rest defines (its lookup must succeed).
  llvm::StringSet<> definedImports;
  llvm::CodeGenOptLevel unoptimizedLevel = llvm::CodeGenOptLevel::None;
  std::once_flag linked;
  std::string linkError;
};

/// JIT-compiles `module` (in the LLVM dialect, with its LLVM IR translations
/// registered): initializeJitTarget, loadSharedLibraries(sharedLibs), then
/// ExecutionEngine::create for each part (JitEngine). Fails with the
/// library's error or with "JIT compilation failed: <LLVM's error>".
llvm::Expected<std::unique_ptr<JitEngine>>
createJitEngine(Operation *module, const JitEngineOptions &options);

} // namespace fp8
} // namespace mlir

#endif // FP8_TOOLS_JITENGINE_H
