//===- Core.cpp - the compiler entry points behind the Python module ------===//
//
// Parse, run a pass pipeline, JIT-compile: the same registrations as fp8-opt
// (all upstream dialects, extensions, passes and LLVM IR translations plus the
// fp8 dialect and passes), with diagnostics captured instead of printed.
//
//===----------------------------------------------------------------------===//
#include "Core.h"
#include "CoreInternal.h"
#include "JitSizes.h"

#include "fp8/Dialect/FP8/Analysis/RoleAnalysis.h"
#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Dialect/FP8/Transforms/Report.h"
#include "fp8/InitAll.h"
#include "fp8/Tools/CrashReport.h"
#include "fp8/Tools/JitEngine.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

using namespace mlir;

namespace fp8py {

/// Registers passes once per process (the pass registry is global, as in
/// fp8-opt's main) and builds the dialect registry shared by every context.
const DialectRegistry &getRegistry() {
  static DialectRegistry *registry = [] {
    // Crashes inside libMLIR (its parsers crash on some malformed inputs)
    // are recovered on the threads of runGuarded; a crash on another thread
    // during fp8 work ends the interpreter with a message and status 1.
    fp8::installCrashReporter("fp8_mlir");
    registerAllPasses();
    fp8::registerFP8Passes();
    auto *r = new DialectRegistry();
    fp8::registerFP8RequiredDialects(*r);
    fp8::registerFP8Dialect(*r);
    // Each write reaches the descriptor of the thread that makes it (the
    // calls' own captures, ThreadOutputCapture): nothing of one call waits
    // in the shared buffer for another call, or Python, to flush it.
    llvm::outs().SetUnbuffered();
    return r;
  }();
  return *registry;
}

namespace {

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

/// Captures what one call writes to file descriptors 1 and 2 (report passes
/// print on stdout, llvm::cl's option errors and upstream passes such as
/// print-op-stats on stderr, a tool the pipeline starts inherits both) and
/// nothing else. The call's work thread takes a private copy of the
/// process's descriptor table (unshare(CLONE_FILES), Linux) and points its
/// own 1 and 2 at two memory files: Python's output and other threads'
/// (other calls running at the same time) keep using the process's
/// descriptors, so they are never captured, lost or duplicated. Where the
/// system refuses a private table (a seccomp filter), nothing is
/// redirected: the call's output reaches the process's stdout and stderr
/// as it is written. So the work must not open a descriptor that outlives
/// the call (it would exist in the private table only).
class ThreadOutputCapture {
public:
  /// Creates the memory files here, on the calling thread: they stay
  /// readable after the work thread, and its private table, are gone.
  explicit ThreadOutputCapture(bool enabled) {
    if (!enabled)
      return;
    for (int &file : files)
      file = memfd_create("fp8_mlir-output", MFD_CLOEXEC);
    if (files[0] < 0 || files[1] < 0)
      closeFiles();
  }
  ThreadOutputCapture(const ThreadOutputCapture &) = delete;
  ThreadOutputCapture &operator=(const ThreadOutputCapture &) = delete;
  ~ThreadOutputCapture() { closeFiles(); }

  /// Called first on the work thread: its descriptors 1 and 2 become the
  /// memory files, in its own table only; its fatal crash reports go to
  /// the real stderr.
  void redirectThisThread() {
    if (files[0] < 0 || unshare(CLONE_FILES) != 0)
      return;
    // A duplicate in the private table (closed with it when the thread
    // ends) for the crash reporter.
    int realErr = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
    if (dup2(files[0], STDOUT_FILENO) < 0 || dup2(files[1], STDERR_FILENO) < 0)
      return;
    fp8::redirectCrashReports(realErr < 0 ? STDERR_FILENO : realErr, files[1]);
  }

  /// What the work thread wrote; called after it ended.
  void read(std::string &out, std::string &err) const {
    std::string *targets[2] = {&out, &err};
    for (int i = 0; i < 2; ++i) {
      if (files[i] < 0)
        continue;
      char buf[4096];
      off_t at = 0;
      for (ssize_t n; (n = pread(files[i], buf, sizeof(buf), at)) > 0; at += n)
        targets[i]->append(buf, n);
    }
  }

private:
  void closeFiles() {
    for (int &file : files) {
      if (file >= 0)
        close(file);
      file = -1;
    }
  }
  int files[2] = {-1, -1};
};

/// The stack of the thread that parses and runs passes: deeply nested input
/// recurses in MLIR's parser, verifier and printer, about 1 KiB per level
/// (8 MiB, a main thread's usual stack, overflows between 5,000 and 10,000
/// nested arrays; this one holds about 250,000); an overflow of this one is
/// recovered like a crash.
constexpr size_t kStackBytes = size_t(256) << 20;

void addError(PipelineResult &result, const std::string &location,
              const std::string &message) {
  fp8py::DiagnosticInfo d;
  d.severity = "error";
  d.location = location;
  d.message = message;
  result.rendered += d.location + ": error: " + d.message + "\n";
  result.diagnostics.push_back(std::move(d));
}

/// Runs `work` on a recoverable thread (fp8::runRecoverable) and fills
/// `result`; `work` fills its own PipelineResult, which is leaked with
/// everything else the thread allocated when it does not finish (a crash
/// may have left any of it inconsistent).
void runGuarded(PipelineResult &result, const std::string &sourceName,
                bool captureOutput, const PollFn &poll,
                llvm::function_ref<void(PipelineResult &)> work) {
  auto *scratch = new PipelineResult();
  std::string out, err;
  ThreadOutputCapture output(captureOutput);
  std::function<bool()> pollFn = poll;
  fp8::RecoveredFailure failure = fp8::runRecoverable(
      [&] {
        output.redirectThisThread();
        work(*scratch);
      },
      kStackBytes,
      pollFn ? llvm::function_ref<bool()>(pollFn)
             : llvm::function_ref<bool()>());
  output.read(out, err);
  if (failure.kind == fp8::RecoveredFailure::None) {
    result = std::move(*scratch);
    delete scratch;
  } else {
    // The diagnostics emitted before the crash explain it best (e.g. the
    // parse error the crashing parser had just reported).
    result = PipelineResult();
    result.diagnostics = scratch->diagnostics;
    result.rendered = scratch->rendered;
    result.ok = false;
    llvm::StringRef message = failure.message;
    size_t fatal = message.find("LLVM ERROR: ");
    if (failure.kind == fp8::RecoveredFailure::Cancelled) {
      result.stage = "interrupted";
      addError(result, sourceName, failure.message);
    } else if (failure.kind == fp8::RecoveredFailure::FatalError &&
               scratch->stage == "pipeline" && fatal != llvm::StringRef::npos) {
      // A fatal error of the pass manager while the pipeline is built is a
      // user error in the pipeline, not a crash.
      result.stage = "pipeline";
      addError(result, "<pipeline>",
               "invalid pass pipeline: " +
                   message.substr(fatal + strlen("LLVM ERROR: ")).str());
    } else {
      result.stage = "crash";
      addError(result, sourceName,
               failure.message +
                   " (a crash inside MLIR, recovered: the call failed, the "
                   "process goes on; please report it with the input)");
    }
  }
  // The pass option parser prints why an option value is invalid on stderr
  // (llvm::cl); that reason belongs to the pipeline error.
  if (result.stage == "pipeline" && !result.diagnostics.empty() &&
      !llvm::StringRef(err).trim().empty()) {
    std::string reason;
    for (llvm::StringRef line : llvm::split(llvm::StringRef(err).trim(), '\n'))
      // llvm::cl prefixes its errors with the (here empty) program name.
      if (llvm::StringRef l = line.trim().ltrim(": ").trim(); !l.empty())
        reason += (reason.empty() ? "" : "; ") + l.str();
    result.diagnostics.back().message += " (" + reason + ")";
    result.rendered = result.diagnostics.back().location +
                      ": error: " + result.diagnostics.back().message + "\n";
    err.clear();
  }
  result.capturedStdout = std::move(out);
  result.capturedStderr = std::move(err);
}

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

/// Records the generated kernels (readKernels) after each pass on the top
/// module, while they are still in a gpu.module: serialization
/// (gpu-module-to-binary) drops them with their attributes.
class KernelRecorder : public PassInstrumentation {
public:
  explicit KernelRecorder(std::vector<KernelInfo> &kernels)
      : kernels(kernels) {}
  void record(ModuleOp module) {
    std::vector<KernelInfo> found = readKernels(module, /*launchers=*/false);
    if (!found.empty())
      kernels = std::move(found);
  }
  void runAfterPass(Pass *, Operation *op) override {
    auto module = dyn_cast<ModuleOp>(op);
    if (module && !module->getParentOp())
      record(module);
  }

private:
  std::vector<KernelInfo> &kernels;
};

/// Parses and runs the pipeline on a fresh context. On success `module` holds
/// the transformed module (owned by `ctx`); on failure `result.stage` says
/// what failed.
OwningOpRef<ModuleOp>
parseAndRun(MLIRContext &ctx, llvm::SourceMgr &sourceMgr,
            const std::string &text, const std::string &pipeline,
            const std::string &sourceName, PipelineResult &result,
            llvm::function_ref<void(ModuleOp)> beforePasses = nullptr) {
  // A crash inside libMLIR during the parse or a pass is reported as an
  // internal error in that stage (fp8/Tools/CrashReport.h).
  llvm::scope_exit leaveStage([] { fp8::clearCrashStage(); });
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, sourceName), llvm::SMLoc());
  DiagnosticCapture capture(sourceMgr, &ctx, result);

  // The pass pipeline is parsed before the input so that a typo in a pass
  // name is reported even for an input that does not parse.
  PassManager pm(&ctx);
  std::string pipelineError;
  fp8::setCrashStage("the pass pipeline parser", "'" + pipeline + "'");
  // Marks the pipeline parse: the pass manager reports some invalid
  // pipelines as LLVM fatal errors (a module pass nested under func.func).
  result.stage = "pipeline";
  if (failed(addPipeline(pm, pipeline, pipelineError))) {
    addError(result, "<pipeline>",
             "invalid pass pipeline '" + pipeline +
                 "': " + llvm::StringRef(pipelineError).trim().str());
    return nullptr;
  }

  result.stage.clear();
  pm.addInstrumentation(std::make_unique<fp8::CrashStageInstrumentation>());
  auto recorder = std::make_unique<KernelRecorder>(result.kernels);
  KernelRecorder &kernels = *recorder;
  pm.addInstrumentation(std::move(recorder));
  fp8::setCrashStage("the MLIR parser", sourceName);
  // Verified separately, so that "does not parse" and "does not verify"
  // are told apart.
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(
      sourceMgr, ParserConfig(&ctx, /*verifyAfterParse=*/false));
  if (!module) {
    result.stage = "parse";
    return nullptr;
  }
  fp8::setCrashStage("the MLIR verifier", sourceName);
  if (failed(verify(*module))) {
    result.stage = "verify";
    return nullptr;
  }
  if (beforePasses)
    beforePasses(*module);
  kernels.record(*module);

  if (failed(pm.run(*module))) {
    result.stage = "pass";
    // A pass that fails without a diagnostic still deserves a message.
    if (result.diagnostics.empty())
      addError(result, sourceName, "pass pipeline '" + pipeline + "' failed");
    return nullptr;
  }
  return module;
}

/// The chip of `options`, or null with the error in `result` (stage
/// "report"): an unknown chip or a negative token count.
const fp8::ChipSpec *reportChip(const ReportOptions &options,
                                PipelineResult &result) {
  const fp8::ChipSpec *chip = fp8::lookupChip(options.chip);
  std::string error;
  if (!chip)
    error = "unknown chip '" + options.chip + "' (expected one of " +
            fp8::knownChipNames() + ")";
  else if (options.tokens < 0)
    error = "tokens=" + std::to_string(options.tokens) +
            " is negative (expected a token count, or 0 for per-token FLOPs)";
  if (error.empty())
    return chip;
  result.stage = "report";
  addError(result, "<report>", "fp8-report: " + error);
  return nullptr;
}

} // namespace

PipelineResult runPipeline(const std::string &text, const std::string &pipeline,
                           const std::string &sourceName, bool captureOutput,
                           bool genericForm, bool locations, const PollFn &poll,
                           const std::optional<ReportOptions> &report) {
  const DialectRegistry &registry = getRegistry();
  PipelineResult result;
  runGuarded(result, sourceName, captureOutput, poll, [&](PipelineResult &r) {
    // Passes run on this thread only: a crash in a pass is then recovered
    // too (a worker thread of the context's pool has no recovery point).
    MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
    llvm::SourceMgr sourceMgr;
    const fp8::ChipSpec *chip = report ? reportChip(*report, r) : nullptr;
    if (report && !chip)
      return;
    OwningOpRef<ModuleOp> module =
        parseAndRun(ctx, sourceMgr, text, pipeline, sourceName, r);
    if (!module)
      return;
    if (chip) {
      fp8::setCrashStage("fp8-report", sourceName);
      r.report = fp8::collectReport(*module, fp8::RoleAnalysis(*module), *chip,
                                    report->tokens);
    }
    fp8::setCrashStage("the IR printer", sourceName);
    collectGpuObjects(*module, r);
    llvm::raw_string_ostream os(r.ir);
    OpPrintingFlags flags;
    if (genericForm)
      flags.printGenericOpForm();
    if (locations)
      flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false)
          .useLocalScope();
    module->print(os, flags);
    fp8::clearCrashStage();
    r.ok = true;
  });
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
  std::unique_ptr<fp8::JitEngine> engine;
  std::vector<FunctionInfo> functions;
  /// What the dynamic sizes of each function's arguments must satisfy.
  std::map<std::string, std::vector<SizeEquation>> sizes;
  /// fp8_mgpu_request_stop of a loaded emulated GPU runtime
  /// (libfp8_emu_mgpu, fp8/Emulator/MgpuRuntime.h), or null: Ctrl-C stops
  /// its running launch too, not only the host code between launches.
  void (*requestStop)(int32_t) = nullptr;
};

JitModule::JitModule() : impl(std::make_unique<Impl>()) {}
JitModule::~JitModule() = default;

const std::vector<FunctionInfo> &JitModule::functions() const {
  return impl->functions;
}

std::string JitModule::checkSizes(const std::string &name,
                                  const std::vector<CallArg> &args) const {
  const FunctionInfo *info = lookupFunction(name);
  auto it = impl->sizes.find(name);
  if (!info || it == impl->sizes.end())
    return "";
  return checkSizeEquations(it->second, *info, args);
}

const FunctionInfo *JitModule::lookupFunction(const std::string &name) const {
  for (const FunctionInfo &f : impl->functions)
    if (f.name == name)
      return &f;
  return nullptr;
}

/// True inside an OpenMP parallel region (code lowered with
/// fp8-cpu-pipeline{threads != 1}; the runtime is loaded with the module,
/// found by name: no OpenMP runtime loaded, no region).
static bool inOpenMPParallelRegion() {
  using InParallel = int (*)();
  auto inParallel =
      reinterpret_cast<InParallel>(dlsym(RTLD_DEFAULT, "omp_in_parallel"));
  return inParallel && inParallel() != 0;
}

/// What JIT-compiled code calls as malloc (memref.alloc): std::malloc, and
/// the point where a call asked to stop (Ctrl-C) ends, between two of its
/// operations. Outside a parallel region only: the other threads of the
/// OpenMP team would wait for this one for ever.
static void *jitMalloc(size_t size) {
  if (fp8::isCancellationRequested() && !inOpenMPParallelRegion())
    fp8::stopCancelledRun("interrupted (Ctrl-C) in the JIT-compiled code");
  return std::malloc(size);
}

/// The element size and NumPy kinds of a memref argument's element type
/// (ArgInfo::elementBytes, numpyKinds).
static void describeElement(Type element, ArgInfo &arg) {
  auto bytesOf = [](unsigned bits) -> int64_t {
    // LLVM stores i1..i8 (and f4/f6 as i4/i6) in one byte; wider types whose
    // width is a power of two in their bytes; others have no NumPy type.
    if (bits <= 8)
      return 1;
    return llvm::isPowerOf2_32(bits) ? bits / 8 : 0;
  };
  if (element.isIndex()) {
    arg.elementBytes = 8;
    arg.numpyKinds = "iub";
  } else if (element.isInteger()) {
    arg.elementBytes = bytesOf(element.getIntOrFloatBitWidth());
    arg.numpyKinds = "iub";
  } else if (element.isF16() || element.isF32() || element.isF64()) {
    arg.elementBytes = element.getIntOrFloatBitWidth() / 8;
    arg.numpyKinds = "f";
  } else if (auto f = dyn_cast<FloatType>(element)) {
    arg.elementBytes = bytesOf(f.getWidth());
    arg.numpyKinds = "iu";
  } else if (auto c = dyn_cast<ComplexType>(element);
             c && (c.getElementType().isF32() || c.getElementType().isF64())) {
    arg.elementBytes = 2 * c.getElementType().getIntOrFloatBitWidth() / 8;
    arg.numpyKinds = "c";
  }
}

/// The static strides and offset of a memref's strided layout, or why no
/// array can be passed for it.
static void describeLayout(MemRefType memref, ArgInfo &arg) {
  if (memref.getLayout().isIdentity())
    return;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(memref.getStridesAndOffset(strides, offset))) {
    std::string layout;
    llvm::raw_string_ostream os(layout);
    memref.getLayout().print(os);
    arg.unsupported = "the layout " + layout +
                      " is not strided; a NumPy array is passed as a "
                      "strided memref (identity or strided<...> layouts)";
    return;
  }
  arg.layoutStrides.assign(strides.begin(), strides.end());
  arg.layoutOffset = offset;
}

static FunctionInfo describeFunction(func::FuncOp func) {
  FunctionInfo info;
  info.name = func.getSymName().str();
  info.hasResults = func.getNumResults() != 0;
  for (BlockArgument blockArg : func.getArguments()) {
    Type type = blockArg.getType();
    ArgInfo arg;
    Type element = type;
    if (auto memref = dyn_cast<MemRefType>(type)) {
      element = memref.getElementType();
      arg.rank = memref.getRank();
      arg.shape.assign(memref.getShape().begin(), memref.getShape().end());
      describeElement(element, arg);
      describeLayout(memref, arg);
      arg.readOnly = !blockArg.use_empty() &&
                     llvm::all_of(blockArg.getUsers(), [](Operation *user) {
                       auto toTensor =
                           dyn_cast<bufferization::ToTensorOp>(user);
                       return toTensor && !toTensor.getWritable();
                     });
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
                  bool captureOutput, PipelineResult &result,
                  const PollFn &poll) {
  // Here, on the caller's thread: the perf listener's dump file goes in the
  // process's descriptor table, not in the private one of a call's thread
  // (ThreadOutputCapture).
  fp8::initializeJitTarget();
  const DialectRegistry &registry = getRegistry();

  std::unique_ptr<JitModule> done;
  runGuarded(result, "<jit>", captureOutput, poll, [&](PipelineResult &r) {
    // Declared first, destroyed last (after the module and the diagnostic
    // handlers on its context); leaked, not destroyed, after a crash.
    std::unique_ptr<JitModule> jit(new JitModule());
    jit->impl->ctx = std::make_unique<MLIRContext>(
        registry, MLIRContext::Threading::DISABLED);
    llvm::SourceMgr sourceMgr;
    std::vector<FunctionInfo> &functions = jit->impl->functions;
    auto &sizes = jit->impl->sizes;
    OwningOpRef<ModuleOp> module = parseAndRun(
        *jit->impl->ctx, sourceMgr, text, pipeline, "<jit>", r,
        [&](ModuleOp m) {
          m.walk([&](func::FuncOp f) {
            if (!f.isExternal())
              functions.push_back(describeFunction(f));
          });
          // Solving the sizes inlines a copy of the module:
          // what the inliner reports is not the user's error.
          ScopedDiagnosticHandler quiet(m.getContext(),
                                        [](Diagnostic &) { return success(); });
          sizes = collectSizeEquations(m);
        });
    if (!module)
      return;

    // Diagnostics from the translation to LLVM IR land in `r` too.
    DiagnosticCapture capture(sourceMgr, jit->impl->ctx.get(), r);
    fp8::setCrashStage("the JIT compiler", "<jit>");
    fp8::JitEngineOptions options;
    options.sharedLibs = sharedLibs;
    options.codeGenOptLevel =
        static_cast<llvm::CodeGenOptLevel>(std::min(std::max(optLevel, 0), 3));
    auto engine = fp8::createJitEngine(*module, options);
    if (!engine) {
      fp8::clearCrashStage();
      r.stage = "jit";
      addError(r, "<jit>", llvm::toString(engine.takeError()));
      return;
    }
    jit->impl->engine = std::move(*engine);
    // abort() of the compiled code (a failed cf.assert lowers to a call of
    // it) fails the call instead of ending the interpreter; registered
    // before initialize() resolves the module's symbols.
    // Its allocations are where Ctrl-C stops it (jitMalloc).
    jit->impl->engine->registerSymbols([](llvm::orc::MangleAndInterner mangle) {
      llvm::orc::SymbolMap symbols;
      symbols[mangle("abort")] = {
          llvm::orc::ExecutorAddr::fromPtr(&fp8::recoverableAbort),
          llvm::JITSymbolFlags::Exported};
      symbols[mangle("malloc")] = {llvm::orc::ExecutorAddr::fromPtr(&jitMalloc),
                                   llvm::JITSymbolFlags::Exported};
      return symbols;
    });
    jit->impl->engine->initialize();
    jit->impl->requestStop = reinterpret_cast<void (*)(int32_t)>(
        llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(
            "fp8_mgpu_request_stop"));
    fp8::clearCrashStage();
    r.ok = true;
    done = std::move(jit);
  });
  if (!result.ok)
    done.reset();
  return done;
}

bool JitModule::invoke(const std::string &name, std::vector<CallArg> &args,
                       std::string &error, bool &crashed, const PollFn &poll) {
  crashed = false;
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
  // The compiled code is the user's: a division by zero (SIGFPE), an
  // out-of-bounds access, runaway recursion or a failed cf.assert must fail
  // this call, not end the interpreter. It runs on a recovering thread
  // (its stack as large as the compiler's).
  std::string lookupError;
  std::function<bool()> pollFn = poll;
  // An emulated GPU runtime's launches poll their own stop request: cleared
  // for this call, set with the cancellation on Ctrl-C.
  if (void (*requestStop)(int32_t) = impl->requestStop) {
    requestStop(0);
    if (poll)
      pollFn = [poll, requestStop] {
        bool stop = poll();
        if (stop)
          requestStop(1);
        return stop;
      };
  }
  fp8::RecoveredFailure failure = fp8::runRecoverable(
      [&] {
        fp8::setCrashStage("the JIT-compiled function '" + name + "'", "");
        if (llvm::Error err = impl->engine->invokePacked(name, pointers))
          lookupError = llvm::toString(std::move(err));
        fp8::clearCrashStage();
      },
      kStackBytes,
      pollFn ? llvm::function_ref<bool()>(pollFn)
             : llvm::function_ref<bool()>());
  if (failure.kind == fp8::RecoveredFailure::Cancelled) {
    error = "the JIT-compiled function '" + name + "' was " + failure.message;
    return false;
  }
  if (failure.kind != fp8::RecoveredFailure::None) {
    crashed = true;
    error = "the JIT-compiled function '" + name +
            "' crashed: " + failure.cause +
            "; the call failed and its outputs are undefined (what the code "
            "allocated is leaked; a wild write may have damaged other memory "
            "of the process before the crash)";
    return false;
  }
  if (!lookupError.empty()) {
    error = lookupError;
    return false;
  }
  return true;
}

} // namespace fp8py
