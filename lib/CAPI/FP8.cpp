//===- FP8.cpp - C API of the fp8 dialect, passes and pipelines -----------===//
#include "fp8-c/FP8.h"

#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/InitAll.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassRegistry.h"

#include <mutex>

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(FP8, fp8, fp8::FP8Dialect)

void fp8RegisterDialect(MlirDialectRegistry registry) {
  fp8::registerFP8Dialect(*unwrap(registry));
}

void fp8RegisterRequiredDialects(MlirDialectRegistry registry) {
  fp8::registerFP8RequiredDialects(*unwrap(registry));
}

void fp8RegisterPasses(void) {
  static std::once_flag once;
  std::call_once(once, [] {
    registerAllPasses();
    fp8::registerFP8Passes();
  });
}

/// Appends the registered pipeline `name` with textual `options`; the
/// registry's parser validates them (the GPU pipeline also checks its
/// format), so the C API and the command line accept the same text.
static MlirLogicalResult buildPipeline(StringRef name, MlirOpPassManager pm,
                                       MlirStringRef options,
                                       MlirStringCallback errorCallback,
                                       void *userData) {
  fp8RegisterPasses();
  auto report = [&](const Twine &msg) {
    if (errorCallback) {
      std::string text = msg.str();
      errorCallback(mlirStringRefCreate(text.data(), text.size()), userData);
    }
    return failure();
  };
  const PassPipelineInfo *info = PassPipelineInfo::lookup(name);
  if (!info)
    return wrap(report("fp8 C API: pipeline '" + name + "' is not registered"));
  std::string errors;
  llvm::raw_string_ostream os(errors);
  LogicalResult result =
      info->addToPipeline(*unwrap(pm), unwrap(options), [&](const Twine &msg) {
        os << msg;
        return failure();
      });
  if (failed(result))
    return wrap(report(name + ": invalid options '" + unwrap(options) + "'" +
                       (errors.empty() ? "" : ": " + errors)));
  return wrap(success());
}

MlirLogicalResult fp8BuildPipeline(MlirOpPassManager pm, MlirStringRef options,
                                   MlirStringCallback errorCallback,
                                   void *userData) {
  return buildPipeline("fp8-pipeline", pm, options, errorCallback, userData);
}

MlirLogicalResult fp8BuildCPUPipeline(MlirOpPassManager pm,
                                      MlirStringRef options,
                                      MlirStringCallback errorCallback,
                                      void *userData) {
  return buildPipeline("fp8-cpu-pipeline", pm, options, errorCallback,
                       userData);
}

MlirLogicalResult fp8BuildGPUPipeline(MlirOpPassManager pm,
                                      MlirStringRef options,
                                      MlirStringCallback errorCallback,
                                      void *userData) {
  return buildPipeline("fp8-gpu-pipeline", pm, options, errorCallback,
                       userData);
}
