//===- Core.cpp - the compiler entry points behind the Python module ------===//
//
// Parse, run a pass pipeline, JIT-compile: the same registrations as fp8-opt
// (all upstream dialects, extensions, passes and LLVM IR translations plus the
// fp8 dialect and passes), with diagnostics captured instead of printed.
//
//===----------------------------------------------------------------------===//
#include "Core.h"

#include "fp8/InitAll.h"
#include "fp8/Tools/CrashReport.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <mutex>
#include <unistd.h>

using namespace mlir;

namespace fp8py {
namespace {

/// Registers passes once per process (the pass registry is global, as in
/// fp8-opt's main) and builds the dialect registry shared by every context.
const DialectRegistry &getRegistry() {
  static DialectRegistry *registry = [] {
    // A crash inside libMLIR (its parsers crash on some malformed inputs)
    // ends the interpreter with a message and status 1, not a signal.
    fp8::installCrashReporter("fp8_mlir");
    registerAllPasses();
    fp8::registerFP8Passes();
    auto *r = new DialectRegistry();
    registerAllDialects(*r);
    registerAllExtensions(*r);
    // gpu-module-to-binary and the ExecutionEngine translate to LLVM IR.
    registerAllToLLVMIRTranslations(*r);
    fp8::registerFP8Dialect(*r);
    return r;
  }();
  return *registry;
}

std::string locationToString(Location loc) {
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    return (fileLoc.getFilename().strref() + ":" +
            llvm::Twine(fileLoc.getLine()) + ":" +
            llvm::Twine(fileLoc.getColumn()))
        .str();
  std::string s;
  llvm::raw_string_ostream os(s);
  loc.print(os);
  return s;
}

const char *severityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Remark:
    return "remark";
  case DiagnosticSeverity::Note:
    return "note";
  }
  return "error";
}

/// Captures every diagnostic twice: structured into `result.diagnostics` and
/// rendered with source lines and carets (as mlir-opt prints them) into
/// `result.rendered`. The structured handler is registered last so it runs
/// first; it returns failure so the SourceMgr handler still sees the
/// diagnostic.
class DiagnosticCapture {
public:
  DiagnosticCapture(llvm::SourceMgr &sourceMgr, MLIRContext *ctx,
                    PipelineResult &result)
      : result(result), renderedStream(result.rendered),
        sourceMgrHandler(sourceMgr, ctx, renderedStream),
        collector(ctx, [this](mlir::Diagnostic &diag) {
          collect(diag);
          return failure();
        }) {}

private:
  void collect(mlir::Diagnostic &diag) {
    fp8py::DiagnosticInfo d;
    d.severity = severityName(diag.getSeverity());
    d.location = locationToString(diag.getLocation());
    d.message = diag.str();
    for (mlir::Diagnostic &note : diag.getNotes())
      d.notes.push_back(locationToString(note.getLocation()) + ": " +
                        note.str());
    result.diagnostics.push_back(std::move(d));
  }

  PipelineResult &result;
  llvm::raw_string_ostream renderedStream;
  SourceMgrDiagnosticHandler sourceMgrHandler;
  ScopedDiagnosticHandler collector;
};

/// Redirects file descriptors 1 and 2 into temporary files for the lifetime
/// of the object (report passes print to stdout through llvm::outs(); the
/// Python caller wants that text, not the terminal to receive it).
class OutputCapture {
public:
  explicit OutputCapture(bool enabled) {
    if (!enabled)
      return;
    flushAll();
    for (int i = 0; i < 2; ++i) {
      files[i] = std::tmpfile();
      if (!files[i])
        continue;
      saved[i] = dup(i + 1);
      if (saved[i] < 0 || dup2(fileno(files[i]), i + 1) < 0) {
        std::fclose(files[i]);
        files[i] = nullptr;
      }
    }
  }
  /// Restores the descriptors and returns what was written to them.
  void finish(std::string &out, std::string &err) {
    flushAll();
    std::string *targets[2] = {&out, &err};
    for (int i = 0; i < 2; ++i) {
      if (!files[i])
        continue;
      dup2(saved[i], i + 1);
      close(saved[i]);
      std::rewind(files[i]);
      char buf[4096];
      size_t n;
      while ((n = std::fread(buf, 1, sizeof(buf), files[i])) > 0)
        targets[i]->append(buf, n);
      std::fclose(files[i]);
      files[i] = nullptr;
    }
  }
  ~OutputCapture() {
    std::string ignoredOut, ignoredErr;
    finish(ignoredOut, ignoredErr);
  }

private:
  static void flushAll() {
    llvm::outs().flush();
    llvm::errs().flush();
    std::fflush(stdout);
    std::fflush(stderr);
  }
  std::FILE *files[2] = {nullptr, nullptr};
  int saved[2] = {-1, -1};
};

/// Adds `pipeline` to `pm`: a full `builtin.module(...)` anchor or a bare
/// comma-separated list of passes nested under the module.
LogicalResult addPipeline(PassManager &pm, llvm::StringRef pipeline,
                          std::string &error) {
  llvm::raw_string_ostream os(error);
  pipeline = pipeline.trim();
  if (pipeline.empty())
    return success();
  if (pipeline.consume_front("builtin.module(")) {
    if (!pipeline.consume_back(")")) {
      os << "unbalanced parentheses in pass pipeline";
      return failure();
    }
  }
  return parsePassPipeline(pipeline, pm, os);
}

void collectGpuObjects(ModuleOp module, PipelineResult &result) {
  module->walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjects()) {
      auto object = dyn_cast<gpu::ObjectAttr>(attr);
      if (!object)
        continue;
      GpuObject o;
      o.binary = binary.getSymName().str();
      llvm::raw_string_ostream ts(o.target);
      object.getTarget().print(ts);
      switch (object.getFormat()) {
      case gpu::CompilationTarget::Offload:
        o.format = "offload";
        break;
      case gpu::CompilationTarget::Assembly:
        o.format = "isa";
        break;
      case gpu::CompilationTarget::Binary:
        o.format = "bin";
        break;
      case gpu::CompilationTarget::Fatbin:
        o.format = "fatbin";
        break;
      }
      o.data = object.getObject().getValue().str();
      result.gpuObjects.push_back(std::move(o));
    }
  });
}

/// Parses and runs the pipeline on a fresh context. On success `module` holds
/// the transformed module (owned by `ctx`).
OwningOpRef<ModuleOp>
parseAndRun(MLIRContext &ctx, llvm::SourceMgr &sourceMgr,
            const std::string &text, const std::string &pipeline,
            const std::string &sourceName, bool captureOutput,
            PipelineResult &result,
            llvm::function_ref<void(ModuleOp)> beforePasses = nullptr) {
  // A crash inside libMLIR during the parse or a pass is reported as an
  // internal error (fp8/Tools/CrashReport.h); outside them it is not ours.
  auto leaveStage = llvm::make_scope_exit([] { fp8::clearCrashStage(); });
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, sourceName), llvm::SMLoc());
  DiagnosticCapture capture(sourceMgr, &ctx, result);

  // The pass pipeline is parsed before the input so that a typo in a pass
  // name is reported even for an input that does not parse.
  PassManager pm(&ctx);
  std::string pipelineError;
  if (failed(addPipeline(pm, pipeline, pipelineError))) {
    fp8py::DiagnosticInfo d;
    d.severity = "error";
    d.location = "<pipeline>";
    d.message = "invalid pass pipeline '" + pipeline +
                "': " + llvm::StringRef(pipelineError).trim().str();
    result.rendered += d.location + ": error: " + d.message + "\n";
    result.diagnostics.push_back(std::move(d));
    return nullptr;
  }

  pm.addInstrumentation(std::make_unique<fp8::CrashStageInstrumentation>());
  fp8::setCrashStage("the MLIR parser", sourceName);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&ctx));
  // The parser verifies the module (ParserConfig's verifyAfterParse).
  if (!module)
    return nullptr;
  if (beforePasses)
    beforePasses(*module);

  OutputCapture output(captureOutput);
  LogicalResult status = pm.run(*module);
  output.finish(result.capturedStdout, result.capturedStderr);
  if (failed(status)) {
    // A pass that fails without a diagnostic still deserves a message.
    if (result.diagnostics.empty()) {
      fp8py::DiagnosticInfo d;
      d.severity = "error";
      d.location = sourceName;
      d.message = "pass pipeline '" + pipeline + "' failed";
      result.rendered += d.location + ": error: " + d.message + "\n";
      result.diagnostics.push_back(std::move(d));
    }
    return nullptr;
  }
  return module;
}

} // namespace

PipelineResult runPipeline(const std::string &text, const std::string &pipeline,
                           const std::string &sourceName, bool captureOutput,
                           bool genericForm, bool locations) {
  PipelineResult result;
  MLIRContext ctx(getRegistry());
  llvm::SourceMgr sourceMgr;
  OwningOpRef<ModuleOp> module = parseAndRun(ctx, sourceMgr, text, pipeline,
                                             sourceName, captureOutput, result);
  if (!module)
    return result;
  collectGpuObjects(*module, result);
  llvm::raw_string_ostream os(result.ir);
  OpPrintingFlags flags;
  if (genericForm)
    flags.printGenericOpForm();
  if (locations)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false)
        .useLocalScope();
  module->print(os, flags);
  result.ok = true;
  return result;
}

bool isRegisteredPass(const std::string &name) {
  (void)getRegistry();
  return PassInfo::lookup(name) || PassPipelineInfo::lookup(name);
}

//===----------------------------------------------------------------------===//
// JitModule
//===----------------------------------------------------------------------===//

struct JitModule::Impl {
  std::unique_ptr<MLIRContext> ctx;
  std::unique_ptr<ExecutionEngine> engine;
  std::vector<FunctionInfo> functions;
};

JitModule::JitModule() : impl(std::make_unique<Impl>()) {}
JitModule::~JitModule() = default;

const std::vector<FunctionInfo> &JitModule::functions() const {
  return impl->functions;
}

const FunctionInfo *JitModule::lookupFunction(const std::string &name) const {
  for (const FunctionInfo &f : impl->functions)
    if (f.name == name)
      return &f;
  return nullptr;
}

static FunctionInfo describeFunction(func::FuncOp func) {
  FunctionInfo info;
  info.name = func.getSymName().str();
  info.hasResults = func.getNumResults() != 0;
  for (Type type : func.getArgumentTypes()) {
    ArgInfo arg;
    Type element = type;
    if (auto memref = dyn_cast<MemRefType>(type)) {
      element = memref.getElementType();
      arg.rank = memref.getRank();
      arg.shape.assign(memref.getShape().begin(), memref.getShape().end());
    }
    llvm::raw_string_ostream os(arg.elementType);
    element.print(os);
    if (element.isIntOrFloat())
      arg.bitWidth = element.getIntOrFloatBitWidth();
    else if (element.isIndex())
      arg.bitWidth = 64;
    info.args.push_back(std::move(arg));
  }
  return info;
}

std::unique_ptr<JitModule>
JitModule::create(const std::string &text, const std::string &pipeline,
                  const std::vector<std::string> &sharedLibs, int optLevel,
                  PipelineResult &result) {
  static std::once_flag nativeTargetOnce;
  std::call_once(nativeTargetOnce, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });

  std::unique_ptr<JitModule> jit(new JitModule());
  jit->impl->ctx = std::make_unique<MLIRContext>(getRegistry());
  llvm::SourceMgr sourceMgr;
  std::vector<FunctionInfo> &functions = jit->impl->functions;
  OwningOpRef<ModuleOp> module =
      parseAndRun(*jit->impl->ctx, sourceMgr, text, pipeline, "<jit>",
                  /*captureOutput=*/false, result, [&](ModuleOp m) {
                    m.walk([&](func::FuncOp f) {
                      if (!f.isExternal())
                        functions.push_back(describeFunction(f));
                    });
                  });
  if (!module)
    return nullptr;

  // Diagnostics from the translation to LLVM IR land in `result` too.
  DiagnosticCapture capture(sourceMgr, jit->impl->ctx.get(), result);
  std::vector<llvm::StringRef> libs(sharedLibs.begin(), sharedLibs.end());
  ExecutionEngineOptions options;
  options.sharedLibPaths = libs;
  options.jitCodeGenOptLevel =
      static_cast<llvm::CodeGenOptLevel>(std::min(std::max(optLevel, 0), 3));
  auto engine = ExecutionEngine::create(*module, options);
  if (!engine) {
    fp8py::DiagnosticInfo d;
    d.severity = "error";
    d.location = "<jit>";
    d.message = "JIT compilation failed: " + llvm::toString(engine.takeError());
    result.rendered += d.location + ": error: " + d.message + "\n";
    result.diagnostics.push_back(std::move(d));
    return nullptr;
  }
  jit->impl->engine = std::move(*engine);
  jit->impl->engine->initialize();
  result.ok = true;
  return jit;
}

bool JitModule::invoke(const std::string &name, std::vector<CallArg> &args,
                       std::string &error) {
  const FunctionInfo *info = lookupFunction(name);
  if (!info || info->args.size() != args.size()) {
    error = "no function '" + name + "' with " + std::to_string(args.size()) +
            " arguments in the JIT module";
    return false;
  }
  // The expanded memref calling convention (MLIR's LLVM lowering): allocated
  // pointer, aligned pointer, offset, sizes[rank], strides[rank]; scalars are
  // passed by value. The packed wrapper takes a pointer to each of them.
  size_t slots = 0;
  for (const ArgInfo &a : info->args)
    slots += a.rank < 0 ? 1 : 3 + 2 * a.rank;
  std::vector<void *> pointers(slots);
  std::vector<int64_t> storage(slots);
  size_t slot = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    const ArgInfo &a = info->args[i];
    CallArg &arg = args[i];
    if (a.rank < 0) {
      storage[slot] = arg.scalarBits;
      pointers[slot] = &storage[slot];
      ++slot;
      continue;
    }
    for (int p = 0; p < 2; ++p) {
      storage[slot] = reinterpret_cast<intptr_t>(arg.data);
      pointers[slot] = &storage[slot];
      ++slot;
    }
    storage[slot] = 0;
    pointers[slot] = &storage[slot];
    ++slot;
    for (int64_t d = 0; d < a.rank; ++d, ++slot) {
      storage[slot] = arg.sizes[d];
      pointers[slot] = &storage[slot];
    }
    for (int64_t d = 0; d < a.rank; ++d, ++slot) {
      storage[slot] = arg.strides[d];
      pointers[slot] = &storage[slot];
    }
  }
  if (llvm::Error err = impl->engine->invokePacked(name, pointers)) {
    error = llvm::toString(std::move(err));
    return false;
  }
  return true;
}

} // namespace fp8py
