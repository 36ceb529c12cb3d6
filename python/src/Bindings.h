//===- Bindings.h - the parts of the pybind11 module ------------*- C++ -*-===//
//
// The native module fp8_mlir._fp8_mlir is bound by concern, one function
// each, called by PYBIND11_MODULE (Module.cpp): the pipeline runs and their
// results, the compiler's constants, the JIT, the generated kernels and
// their emulator, the report.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_PYTHON_BINDINGS_H
#define FP8_PYTHON_BINDINGS_H

#include "Core.h"

#include <pybind11/pybind11.h>

namespace fp8py {

/// run_pipeline, is_registered_pass and their results (PipelineResult,
/// DiagnosticInfo, GpuObject).
void bindPipeline(pybind11::module_ &m);
/// The policy presets and FP8 format limits (PolicyPreset, FormatLimits).
void bindPresets(pybind11::module_ &m);
/// jit() and JitModule.
void bindJit(pybind11::module_ &m);
/// gpu_kernels() (GemmKernel, QuantizeKernel), emulate_gemm and
/// emulate_quantize.
void bindKernels(pybind11::module_ &m);
/// fp8-report's Report and its parts (BindReport.cpp).
void bindReport(pybind11::module_ &m);

/// Ctrl-C while a long run waits without the GIL: checks Python's pending
/// signals (the handlers run on the main thread only) and asks the run to
/// stop at the next pass; the exception (KeyboardInterrupt) stays set and
/// is raised by `raiseIfInterrupted` once the run has returned.
class Interruptible {
public:
  PollFn poll() {
    return [this] {
      if (interrupted)
        return true;
      pybind11::gil_scoped_acquire gil;
      if (PyErr_CheckSignals() != 0)
        interrupted = true;
      return interrupted;
    };
  }
  void raiseIfInterrupted() const {
    if (interrupted)
      throw pybind11::error_already_set();
  }

private:
  bool interrupted = false;
};

} // namespace fp8py

#endif // FP8_PYTHON_BINDINGS_H
