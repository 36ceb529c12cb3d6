//===- Bindings.h - the parts of the pybind11 module ------------*- C++ -*-===//
//
// The native module fp8_mlir._fp8_mlir is bound by concern, one function
// each, called by PYBIND11_MODULE (Module.cpp): the pipeline runs and their
// results, the compiler's constants, the JIT, the generated kernels, the
// report.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_PYTHON_BINDINGS_H
#define FP8_PYTHON_BINDINGS_H

#include "Core.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace fp8py {

/// run_pipeline, is_registered_pass and their results (PipelineResult,
/// DiagnosticInfo, GpuObject).
void bindPipeline(pybind11::module_ &m);
/// The policy presets and FP8 format limits (PolicyPreset, FormatLimits).
void bindPresets(pybind11::module_ &m);
/// jit() and JitModule.
void bindJit(pybind11::module_ &m);
/// gpu_kernels() (GemmKernel, QuantizeKernel, TransposeKernel).
void bindKernels(pybind11::module_ &m);
/// fp8-report's Report and its parts (BindReport.cpp).
void bindReport(pybind11::module_ &m);

/// The fields of a GEMM kernel's GemmKernelConfig as read-only attributes
/// of `cls` (`m`, `k` None for a run-time M, K; n, block_m, block_n, block_k,
/// stages, consumers, group_m, cluster, scale_k, overlap: K blocks per trip of
/// the overlapped promotion, 0 in lock-step; k_splits: split-K's K ranges, 1
/// unsplit), read through `config` (T ->
/// const GemmKernelConfig &): the bound GemmKernelConfig itself, GemmKernel and
/// ReportKernel.
template <typename T, typename Config>
void defGemmConfigFields(pybind11::class_<T> &cls, Config config) {
  using C = mlir::fp8::GemmKernelConfig;
  // A run-time M or K (kDynamicM, kDynamicK) reads None.
  auto size = [&](const char *name, int64_t C::*member, int64_t dynamic) {
    cls.def_property_readonly(name, [config, member, dynamic](const T &t) {
      int64_t v = config(t).*member;
      return v == dynamic ? std::nullopt : std::optional<int64_t>(v);
    });
  };
  size("m", &C::m, C::kDynamicM);
  size("k", &C::k, C::kDynamicK);
  auto field = [&](const char *name, int64_t C::*member) {
    cls.def_property_readonly(
        name, [config, member](const T &t) { return config(t).*member; });
  };
  field("n", &C::n);
  field("block_m", &C::blockM);
  field("block_n", &C::blockN);
  field("block_k", &C::blockK);
  field("stages", &C::stages);
  field("consumers", &C::consumers);
  field("group_m", &C::groupM);
  field("cluster", &C::cluster);
  field("scale_k", &C::scaleK);
  field("overlap", &C::overlap);
  field("k_splits", &C::kSplits);
  cls.def_property_readonly(
      "tma_store", [config](const T &t) { return config(t).tmaStore; });
}

/// The fields of a quantize kernel's QuantizeKernelConfig as read-only
/// attributes of `cls` (`rows` None for a run-time row count, cols,
/// block_rows, block_cols, per_tensor), read through `config` as in
/// defGemmConfigFields.
template <typename T, typename Config>
void defQuantizeConfigFields(pybind11::class_<T> &cls, Config config) {
  using C = mlir::fp8::QuantizeKernelConfig;
  cls.def_property_readonly("rows",
                            [config](const T &t) {
                              int64_t rows = config(t).rows;
                              return rows == C::kDynamicRows
                                         ? std::nullopt
                                         : std::optional<int64_t>(rows);
                            })
      .def_property_readonly("cols",
                             [config](const T &t) { return config(t).cols; })
      .def_property_readonly(
          "block_rows", [config](const T &t) { return config(t).blockRows; })
      .def_property_readonly(
          "block_cols", [config](const T &t) { return config(t).blockCols; })
      .def_property_readonly(
          "per_tensor", [config](const T &t) { return config(t).perTensor; });
}

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
