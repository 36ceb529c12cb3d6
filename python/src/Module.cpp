//===- Module.cpp - pybind11 module fp8_mlir._fp8_mlir --------------------===//
//
// The native half of the fp8_mlir package. It only converts between Python
// objects and the plain C++ of Core.h; the public API (exceptions, argument
// checking, IR generation) is written in Python on top of it. Bound by
// concern (Bindings.h): this file the pipeline runs and the compiler's
// constants, BindJit.cpp the JIT, BindKernels.cpp the generated kernels,
// BindReport.cpp the report.
//
//===----------------------------------------------------------------------===//
#include "Bindings.h"

#include <pybind11/stl.h>

namespace py = pybind11;
using namespace fp8py;

namespace {

/// A pipeline run's result as Python sees it: the C++ structs themselves,
/// their fields read-only attributes (bytes for the captured output and the
/// GPU objects' data, which need not be text).
void bindResults(py::module_ &m) {
  py::class_<DiagnosticInfo>(m, "DiagnosticInfo")
      .def_readonly("severity", &DiagnosticInfo::severity)
      .def_readonly("location", &DiagnosticInfo::location)
      .def_readonly("message", &DiagnosticInfo::message)
      .def_readonly("notes", &DiagnosticInfo::notes);
  py::class_<GpuObject>(m, "GpuObject")
      .def_readonly("binary", &GpuObject::binary)
      .def_readonly("target", &GpuObject::target)
      .def_readonly("format", &GpuObject::format)
      .def_property_readonly(
          "data", [](const GpuObject &o) { return py::bytes(o.data); });
  py::class_<PipelineResult>(m, "PipelineResult")
      .def_readonly("ok", &PipelineResult::ok)
      .def_readonly("stage", &PipelineResult::stage)
      .def_readonly("ir", &PipelineResult::ir)
      .def_readonly("rendered", &PipelineResult::rendered)
      .def_readonly("diagnostics", &PipelineResult::diagnostics)
      .def_property_readonly(
          "stdout",
          [](const PipelineResult &r) { return py::bytes(r.capturedStdout); })
      .def_property_readonly(
          "stderr",
          [](const PipelineResult &r) { return py::bytes(r.capturedStderr); })
      .def_readonly("gpu_objects", &PipelineResult::gpuObjects)
      // GemmKernel / QuantizeKernel (BindKernels.cpp).
      .def_readonly("kernels", &PipelineResult::kernels)
      // fp8_mlir.Report, or None (BindReport.cpp).
      .def_readonly("report", &PipelineResult::report)
      // Read by name too (result["ir"]), as the dict it replaces was.
      .def("__getitem__", [](py::object self, const std::string &key) {
        static const char *const fields[] = {
            "ok",          "stage",  "ir",     "rendered",
            "diagnostics", "stdout", "stderr", "gpu_objects"};
        for (const char *field : fields)
          if (key == field)
            return py::object(self.attr(field));
        throw py::key_error(key);
      });
}

} // namespace

void fp8py::bindPipeline(py::module_ &m) {
  bindResults(m);
  m.def(
      "run_pipeline",
      [](const std::string &text, const std::string &pipeline,
         const std::string &sourceName, bool captureOutput, bool generic,
         bool locations, bool report, const std::string &reportChip,
         int64_t reportTokens) {
        PipelineResult r;
        Interruptible interrupt;
        std::optional<ReportOptions> options;
        if (report)
          options = ReportOptions{reportChip, reportTokens};
        {
          py::gil_scoped_release release;
          r = runPipeline(text, pipeline, sourceName, captureOutput, generic,
                          locations, interrupt.poll(), options);
        }
        interrupt.raiseIfInterrupted();
        return r;
      },
      py::arg("text"), py::arg("pipeline"), py::arg("source_name") = "<input>",
      py::arg("capture_output") = false, py::arg("generic") = false,
      py::arg("locations") = false, py::arg("report") = false,
      py::arg("report_chip") = "h200", py::arg("report_tokens") = 0,
      "Parse, verify, run a textual pass pipeline; returns a PipelineResult "
      "(ok, stage: what failed, ir, diagnostics, rendered, stdout, stderr, "
      "gpu_objects, kernels: the generated kernels as gpu_kernels() lists "
      "them, as the pipeline last had them before serialization; with "
      "report=True, report: fp8-report's Report of the resulting module with "
      "the options chip and tokens, else None). Ctrl-C stops the run at the "
      "next pass and raises KeyboardInterrupt.");

  m.def("is_registered_pass", &isRegisteredPass, py::arg("name"),
        "True if a pass or pass pipeline of this name is registered.");
}

/// The compiler's constants as read-only objects (fields as attributes).
void fp8py::bindPresets(py::module_ &m) {
  py::class_<FormatLimits>(m, "FormatLimits")
      .def_readonly("name", &FormatLimits::name)
      .def_readonly("mlir_type", &FormatLimits::mlirType)
      .def_readonly("max", &FormatLimits::max)
      .def_readonly("min_normal", &FormatLimits::minNormal)
      .def_readonly("min_subnormal", &FormatLimits::minSubnormal)
      .def_readonly("exponent_bits", &FormatLimits::exponentBits)
      .def_readonly("mantissa_bits", &FormatLimits::mantissaBits)
      .def_readonly("bias", &FormatLimits::bias)
      .def_readonly("has_inf", &FormatLimits::hasInf)
      .def_readonly("has_nan", &FormatLimits::hasNaN)
      .def("__repr__", [](const FormatLimits &f) {
        return "FormatLimits(" + f.name + ", " + f.mlirType +
               ", max=" + py::repr(py::float_(f.max)).cast<std::string>() + ")";
      });
  py::class_<PolicyPreset>(m, "PolicyPreset")
      .def_readonly("name", &PolicyPreset::name)
      .def_readonly("fp8", &PolicyPreset::fp8)
      .def_readonly("format", &PolicyPreset::format)
      .def_readonly("grad_format", &PolicyPreset::gradFormat)
      .def("__repr__", [](const PolicyPreset &p) {
        return "PolicyPreset(" + p.name + ")";
      });
  m.def("policy_presets", &policyPresets,
        "Names of the #fp8.policy presets, in documentation order.");
  m.def("default_policy", &defaultPolicy,
        "The preset fp8-pipeline uses when given no policy option.");
  m.def("policy_preset_info", &policyPresetInfo,
        "The #fp8.policy presets in documentation order (PolicyPreset).");
  m.def("fp8_formats", &formatLimits,
        "The supported FP8 formats as the compiler defines them "
        "(FormatLimits), E4M3FN first.");
}

PYBIND11_MODULE(_fp8_mlir, m) {
  m.doc() = "Native half of fp8_mlir: MLIR parsing, pass pipelines and the "
            "ExecutionEngine over the fp8-mlir dialect and passes.";
  bindPipeline(m);
  bindPresets(m);
  bindJit(m);
  bindKernels(m);
  bindReport(m);
}
