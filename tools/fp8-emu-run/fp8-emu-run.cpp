//===- fp8-emu-run.cpp - run an MLIR GPU program on the CPU emulator ------===//
//
// fp8-emu-run FILE.mlir [--pre=PASSES] [--entry=main]: lowers a host + device
// program as upstream's gpu-lower-to-nvvm-pipeline does, except that the
// gpu.module stays at the NVVM level (fp8-gpu-module-to-text in place of
// gpu-module-to-binary and no convert-nvvm-to-llvm, whose inline PTX the
// emulator does not read), JIT-compiles the host code in this process and
// runs its entry point against libfp8_emu_mgpu (the mgpu* runtime on the
// emulated device). What the program prints (host printf, vector.print,
// printMemref*, device printf) goes to stdout; a fault the emulator
// detects goes to stderr with exit status 1 (FP8_EMU_CONTINUE_ON_FAULT=1:
// the run goes on past it, and the exit status is still 1). Bad input (an
// entry that is no function `() -> ()`, a library that does not load) is an
// error with status 2 before anything runs.
// docs/gpu-kernel.md, "Running MLIR GPU programs: fp8-emu-run".
//
//===----------------------------------------------------------------------===//
#include "fp8/Emulator/MgpuRuntime.h"
#include "fp8/InitAll.h"
#include "fp8/Tools/JitEngine.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>

using namespace mlir;
namespace cl = llvm::cl;

/// The tool's own options: --help lists these (and LLVM's generic
/// ones such as --version), not the hundreds every linked library
/// registers.
static cl::OptionCategory toolOptions("fp8-emu-run options");

static cl::opt<std::string> inputFile(cl::Positional, cl::cat(toolOptions),
                                      cl::desc("<input .mlir, - for stdin>"),
                                      cl::init("-"));
static cl::opt<std::string>
    prePasses("pre", cl::cat(toolOptions),
              cl::desc("Passes to run before the GPU lowering, as in a RUN "
                       "line (a textual pipeline on the module, e.g. "
                       "convert-linalg-to-loops)"),
              cl::init(""));
static cl::opt<std::string> entry("entry", cl::cat(toolOptions),
                                  cl::desc("The function to run (no "
                                           "arguments, no results)"),
                                  cl::init("main"));
static cl::opt<std::string>
    chip("chip", cl::cat(toolOptions),
         cl::desc("The nvvm.target chip of the kernels"), cl::init("sm_90a"));
static cl::list<std::string>
    sharedLibs("shared-libs", cl::cat(toolOptions),
               cl::desc("More libraries for the host code (the runner "
                        "utils are loaded already)"),
               cl::CommaSeparated);
static cl::opt<bool>
    printLowered("print-lowered", cl::cat(toolOptions),
                 cl::desc("Print the lowered module instead of running it"),
                 cl::init(false));

/// The lowering: upstream's gpu-lower-to-nvvm-pipeline
/// (GPUToNVVMPipeline.cpp), the gpu.module kept at the NVVM level.
static std::string pipeline() {
  return // The common part.
      "convert-nvgpu-to-nvvm,gpu-kernel-outlining,"
      // The host's shared-memory globals, copied into the kernels by the
      // outlining, are dead on the host (a memref.global in address
      // space 3 has no host lowering).
      "symbol-dce,convert-vector-to-scf,"
      "convert-scf-to-cf,convert-func-to-llvm,expand-strided-metadata,"
      "nvvm-attach-target{chip=" +
      chip +
      " features=+ptx80 O=3},lower-affine,convert-arith-to-llvm,"
      "convert-index-to-llvm,canonicalize,cse,"
      // The gpu.module (upstream strips its debug info first;
      // fp8-gpu-module-to-text prints it without locations anyway).
      "gpu.module(convert-gpu-to-nvvm,llvm-optimize-for-nvvm-target,"
      "canonicalize,cse,reconcile-unrealized-casts),"
      // The kernels embedded as MLIR text, before gpu-to-llvm (which
      // would turn NVVM ops into inline PTX in a gpu.module), then the
      // host.
      "fp8-gpu-module-to-text,gpu-to-llvm,convert-math-to-llvm,"
      "canonicalize,cse,reconcile-unrealized-casts";
}

/// The entry point is called through ExecutionEngine::invokePacked with no
/// arguments and no result slot: a function that takes or returns anything
/// would read or write through pointers that are not there (a crash). So
/// `--entry` must name a defined function `() -> ()` of the module.
static LogicalResult checkEntry(ModuleOp module) {
  Operation *op = SymbolTable::lookupSymbolIn(module, entry);
  if (!op) {
    llvm::errs() << "fp8-emu-run: --entry='" << entry
                 << "': the module has no function of that name\n";
    return failure();
  }
  auto fn = dyn_cast<FunctionOpInterface>(op);
  if (!fn)
    return op->emitError() << "fp8-emu-run: --entry='" << entry << "' names a '"
                           << op->getName() << "', not a function";
  if (fn.isExternal())
    return op->emitError() << "fp8-emu-run: the entry function '" << entry
                           << "' is a declaration: it needs a body to run";
  auto llvmFn = dyn_cast<LLVM::LLVMFuncOp>(op);
  bool variadic = llvmFn && llvmFn.isVarArg();
  if (fn.getNumArguments() != 0 || !fn.getResultTypes().empty() || variadic)
    return op->emitError() << "fp8-emu-run: the entry function '" << entry
                           << "' has type " << fn.getFunctionType()
                           << ": fp8-emu-run calls it with no arguments and "
                              "takes no results (expected () -> ())";
  return success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  registerAllPasses();
  fp8::registerFP8Passes();
  DialectRegistry registry;
  fp8::registerFP8RequiredDialects(registry);
  fp8::registerFP8Dialect(registry);
  cl::HideUnrelatedOptions(toolOptions);
  cl::ParseCommandLineOptions(
      argc, argv,
      "fp8-emu-run: an MLIR GPU program (host + gpu.launch) run on the "
      "fp8-mlir CPU emulator of sm_90a\n");

  MLIRContext ctx(registry);
  // An error about the entry names it with its location; the whole
  // function printed after it would bury the message.
  ctx.printOpOnDiagnostic(false);
  std::string err;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(inputFile, &err);
  if (!file) {
    llvm::errs() << "fp8-emu-run: " << err << "\n";
    return 2;
  }
  llvm::SourceMgr sm;
  sm.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diag(sm, &ctx);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sm, &ctx);
  if (!module)
    return 2;

  // The entry is checked after --pre (which may produce it) and before the
  // lowering (which changes a memref argument into its descriptor's fields).
  PassManager pre(&ctx);
  if (!prePasses.empty() &&
      failed(parsePassPipeline(prePasses, pre, llvm::errs()))) {
    llvm::errs() << "fp8-emu-run: cannot parse --pre='" << prePasses << "'\n";
    return 2;
  }
  if (failed(pre.run(*module))) {
    llvm::errs() << "fp8-emu-run: the --pre passes failed\n";
    return 2;
  }
  if (!printLowered && failed(checkEntry(*module)))
    return 2;
  PassManager pm(&ctx);
  if (failed(parsePassPipeline(pipeline(), pm, llvm::errs())))
    return 2;
  if (failed(pm.run(*module))) {
    llvm::errs() << "fp8-emu-run: the lowering failed\n";
    return 2;
  }
  if (printLowered) {
    module->print(llvm::outs());
    return 0;
  }

  // Each library must load (a misspelt --shared-libs path is an error
  // before anything runs, not a warning).
  fp8::JitEngineOptions options;
  options.sharedLibs = fp8::getRunnerUtilsLibraryPaths();
  llvm::append_range(options.sharedLibs, sharedLibs);
  options.irOptLevel = 0;
  auto engine = fp8::createJitEngine(*module, options);
  if (!engine) {
    llvm::errs() << "fp8-emu-run: " << llvm::toString(engine.takeError())
                 << "\n";
    return 2;
  }
  if (llvm::Error e = (*engine)->invokePacked(entry)) {
    llvm::errs() << "fp8-emu-run: cannot run '" << entry
                 << "': " << llvm::toString(std::move(e)) << "\n";
    return 2;
  }
  std::fflush(stdout);
  // With FP8_EMU_CONTINUE_ON_FAULT the run went on past a fault (reported
  // on stderr when it happened): the status still says so.
  if (fp8emuGetLastError())
    return 1;
  return 0;
}
