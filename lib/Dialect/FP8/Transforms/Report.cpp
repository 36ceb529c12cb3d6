//===- Report.cpp - fp8-report --------------------------------------------===//
//
// The pass: checks its options, collects the Report (ReportCollect.cpp),
// renders it as a table (ReportTable.cpp) or JSON (ReportJson.cpp), and
// writes it.
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/Report.h"
#include "fp8/Dialect/FP8/Analysis/RoleAnalysis.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"
#include <unistd.h>

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8REPORTPASS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

namespace {

class ReportPass : public fp8::impl::FP8ReportPassBase<ReportPass> {
public:
  using FP8ReportPassBase::FP8ReportPassBase;
  LogicalResult initialize(MLIRContext *ctx) override;
  void runOnOperation() override;

private:
  std::string fmt;                    // resolved in initialize()
  const ChipSpec *chipSpec = nullptr; // resolved in initialize()
  /// Writes the rendered report to `output` ("-": stdout); an open or write
  /// error fails the pass with a diagnostic.
  void write(StringRef text, ModuleOp module);
};

/// Options are checked before any IR is seen (no module dump with the error).
LogicalResult ReportPass::initialize(MLIRContext *ctx) {
  if (tokens < 0)
    return emitError(UnknownLoc::get(ctx))
           << "fp8-report: option tokens=" << static_cast<int64_t>(tokens)
           << " is negative (expected a token count, or 0 for per-token "
              "FLOPs)";
  fmt = format;
  if (fmt != "table" && fmt != "json")
    return emitError(UnknownLoc::get(ctx))
           << "fp8-report: unknown format '" << fmt
           << "' in option format (expected table or json)";
  chipSpec = lookupChip(chip);
  if (!chipSpec)
    return emitError(UnknownLoc::get(ctx))
           << "fp8-report: unknown chip '" << chip
           << "' in option chip (expected one of " << knownChipNames() << ")";
  if (StringRef(output).empty())
    return emitError(UnknownLoc::get(ctx))
           << "fp8-report: option output is empty (expected a file name, or "
              "'-' for stdout)";
  return success();
}

void ReportPass::runOnOperation() {
  markAllAnalysesPreserved();
  ModuleOp module = getOperation();
  Report report =
      collectReport(module, getAnalysis<RoleAnalysis>(), *chipSpec, tokens);
  // The report is rendered into a string and written at the end, so that a
  // write error (a full disk, a closed stdout) becomes a diagnostic here
  // instead of LLVM's "IO failure on output stream" abort when the stream
  // is destroyed.
  write(fmt == "json" ? reportJson(report) : reportTable(report), module);
}

void ReportPass::write(StringRef text, ModuleOp module) {
  // Errors on the module's location, not an op: no dump of the whole module.
  auto fail = [&](StringRef what, StringRef why) {
    emitError(module.getLoc())
        << "fp8-report: option output: cannot " << what << " the report "
        << (output == "-" ? std::string("on standard output")
                          : "to '" + output + "'")
        << ": " << why;
    signalPassFailure();
  };
  if (output == "-") {
    // An unbuffered stream of this call's own on file descriptor 1, not
    // llvm::outs(): pipelines running at the same time (threads of one
    // process, as the Python package's) would otherwise write into one shared
    // buffer, a data race that corrupts the text. Each report is one write(2)
    // per chunk, and what the tool printed before it is flushed first.
    llvm::outs().flush();
    llvm::raw_fd_ostream out(STDOUT_FILENO, /*shouldClose=*/false,
                             /*unbuffered=*/true);
    out << text;
    if (std::error_code ec = out.error()) {
      // Cleared so that the stream's destructor does not abort.
      out.clear_error();
      return fail("write", ec.message());
    }
    return;
  }
  std::string errorMessage;
  std::unique_ptr<llvm::ToolOutputFile> file =
      openOutputFile(output, &errorMessage);
  if (!file)
    return fail("write", errorMessage);
  file->os() << text;
  file->os().close();
  if (std::error_code ec = file->os().error()) {
    file->os().clear_error();
    // Not kept: ToolOutputFile removes the partial file.
    return fail("write", ec.message());
  }
  file->keep();
}

} // namespace
