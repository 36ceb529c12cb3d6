//===- Module.cpp - pybind11 module fp8_mlir._fp8_mlir --------------------===//
//
// The native half of the fp8_mlir package. It only converts between Python
// objects and the plain C++ of Core.h; the public API (exceptions, argument
// checking, IR generation) is written in Python on top of it.
//
//===----------------------------------------------------------------------===//
#include "Core.h"
#include "fp8/Target/Hopper/KernelNames.h"
#include "fp8/Tools/CrashReport.h"

#include <cmath>
#include <functional>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
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

py::dict describe(const FunctionInfo &f) {
  py::dict d;
  d["name"] = f.name;
  d["has_results"] = f.hasResults;
  py::list args;
  for (const ArgInfo &a : f.args) {
    py::dict item;
    item["element_type"] = a.elementType;
    item["bit_width"] = a.bitWidth;
    item["rank"] = a.rank;
    item["shape"] = a.shape;
    args.append(item);
  }
  d["args"] = args;
  return d;
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
      py::gil_scoped_acquire gil;
      if (PyErr_CheckSignals() != 0)
        interrupted = true;
      return interrupted;
    };
  }
  void raiseIfInterrupted() const {
    if (interrupted)
      throw py::error_already_set();
  }

private:
  bool interrupted = false;
};

/// Owns a JitModule; created by `_fp8_mlir.jit(...)`.
class PyJit {
public:
  explicit PyJit(std::unique_ptr<JitModule> m) : module(std::move(m)) {}

  py::list functions() const {
    py::list out;
    for (const FunctionInfo &f : module->functions())
      out.append(describe(f));
    return out;
  }

  /// Calls `name` with NumPy arrays for memref parameters and Python numbers
  /// for scalar ones. Shapes, element sizes, contiguity and writability are
  /// checked here, so a mismatch is a ValueError and never a wild write.
  py::object call(const std::string &name, py::args pyArgs) {
    const FunctionInfo *info = module->lookupFunction(name);
    if (!info)
      throw py::value_error("JIT module has no function '" + name + "'");
    if (info->hasResults)
      throw py::value_error("function '" + name +
                            "' returns values; only functions that write "
                            "into their memref arguments can be called");
    if (pyArgs.size() != info->args.size())
      throw py::value_error("function '" + name + "' takes " +
                            std::to_string(info->args.size()) +
                            " arguments, got " + std::to_string(pyArgs.size()));
    std::vector<JitModule::CallArg> args(info->args.size());
    std::vector<py::array> keepAlive;
    for (size_t i = 0; i < info->args.size(); ++i) {
      const ArgInfo &a = info->args[i];
      std::string where =
          "argument " + std::to_string(i) + " of '" + name + "'";
      if (a.rank < 0) {
        py::handle h = pyArgs[i];
        // A value of the wrong kind names the argument and the type.
        auto wrongKind = [&] {
          return py::value_error(
              where + " must be " +
              (a.elementType.find('f') == std::string::npos ? "an integer"
                                                            : "a number") +
              " (scalar " + a.elementType + "), got " +
              std::string(py::str(h.get_type().attr("__name__"))));
        };
        if (py::isinstance<py::array>(h) || !PyNumber_Check(h.ptr()))
          throw wrongKind();
        try {
          if (a.elementType == "f32") {
            // Rounded to f32 as C++ converts (to nearest even); a finite
            // value that becomes Inf, or a nonzero one that becomes 0, is
            // rejected, never changed silently (numerics.py's rule).
            double d = h.cast<double>();
            float v = static_cast<float>(d);
            if ((std::isfinite(d) && std::isinf(v)) || (d != 0 && v == 0))
              throw py::value_error(
                  where + ": " + std::string(py::repr(h)) + " rounds to " +
                  (v == 0 ? "0" : "infinity") +
                  " in f32 (the parameter's type); expected a magnitude "
                  "that f32 holds");
            uint32_t bits;
            std::memcpy(&bits, &v, 4);
            args[i].scalarBits = bits;
          } else if (a.elementType == "f64") {
            double v = h.cast<double>();
            std::memcpy(&args[i].scalarBits, &v, 8);
          } else if (a.bitWidth > 0 && a.bitWidth <= 64 &&
                     a.elementType.find('f') == std::string::npos) {
            int64_t v = h.cast<int64_t>();
            // Signed or unsigned, it must fit the integer's width: never
            // truncated silently.
            if (a.bitWidth < 64 && (v < -(int64_t(1) << (a.bitWidth - 1)) ||
                                    v >= (int64_t(1) << a.bitWidth)))
              throw py::value_error(where + ": " + std::to_string(v) +
                                    " does not fit " + a.elementType);
            args[i].scalarBits = v;
          } else {
            throw py::value_error(where + ": unsupported scalar type " +
                                  a.elementType);
          }
        } catch (const py::cast_error &) {
          throw wrongKind();
        }
        continue;
      }
      if (!py::isinstance<py::array>(pyArgs[i]))
        throw py::value_error(where + " must be a NumPy array (memref<" +
                              a.elementType + ">)");
      py::array arr = py::reinterpret_borrow<py::array>(pyArgs[i]);
      if (arr.ndim() != a.rank)
        throw py::value_error(where + ": expected rank " +
                              std::to_string(a.rank) + ", got " +
                              std::to_string(arr.ndim()));
      if (arr.itemsize() * 8 != a.bitWidth)
        throw py::value_error(where + ": element type " + a.elementType +
                              " needs " + std::to_string(a.bitWidth / 8) +
                              "-byte elements, got " +
                              std::to_string(arr.itemsize()));
      if (!(arr.flags() & py::array::c_style))
        throw py::value_error(where + " must be C-contiguous");
      // A read-only array (np.load(..., mmap_mode='r'), a broadcast view)
      // is fine where the function only reads the memref.
      if (!arr.writeable() && !a.readOnly)
        throw py::value_error(where + " must be writeable (the function "
                                      "may write this memref)");
      // The data pointer is only written through when the array is
      // writeable (checked above).
      args[i].data = const_cast<void *>(arr.data());
      args[i].sizes.resize(a.rank);
      args[i].strides.resize(a.rank);
      for (int64_t d = 0; d < a.rank; ++d) {
        int64_t size = arr.shape(d);
        if (a.shape[d] >= 0 && a.shape[d] != size)
          throw py::value_error(where + ": dimension " + std::to_string(d) +
                                " must be " + std::to_string(a.shape[d]) +
                                ", got " + std::to_string(size));
        args[i].sizes[d] = size;
        args[i].strides[d] = arr.strides(d) / arr.itemsize();
      }
      keepAlive.push_back(arr);
    }
    std::string sizeError = module->checkSizes(name, args);
    if (!sizeError.empty())
      throw py::value_error(sizeError);
    std::string error;
    bool ok, crashed;
    {
      py::gil_scoped_release release;
      ok = module->invoke(name, args, error, crashed);
    }
    // A recovered crash of the compiled code: its message, raised as
    // MLIRError (stage "crash") by fp8_mlir.jit.
    if (crashed)
      return py::str(error);
    if (!ok)
      throw std::runtime_error(error);
    return py::none();
  }

private:
  std::unique_ptr<JitModule> module;
};

/// The compiler's constants as read-only objects (fields as attributes).
void bindPresets(py::module_ &m) {
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
}

} // namespace

/// Runs the emulator on a recovering thread (mlir::fp8::runRecoverable): it
/// parses and interprets the kernel IR it is given, and a crash there must fail
/// the call with a message, not end the interpreter. Called without the GIL.
/// Ctrl-C is polled as in a pipeline run (every 50 ms) and stops the
/// emulated launch within a few thousand instructions (`fn` gets the flag);
/// the KeyboardInterrupt is then raised here, whatever the launch reported.
static std::string
runEmulator(const std::function<std::string(const std::atomic<bool> *)> &fn) {
  std::string report;
  std::atomic<bool> stop{false};
  Interruptible interrupt;
  PollFn pollInterrupt = interrupt.poll();
  mlir::fp8::RecoveredFailure failure = mlir::fp8::runRecoverable(
      [&] {
        mlir::fp8::setCrashStage("the GPU kernel emulator", "");
        report = fn(&stop);
        mlir::fp8::clearCrashStage();
      },
      size_t(256) << 20,
      [&] {
        if (pollInterrupt())
          stop = true;
        return stop.load();
      });
  if (stop) {
    py::gil_scoped_acquire gil;
    interrupt.raiseIfInterrupted();
  }
  if (failure.kind != mlir::fp8::RecoveredFailure::None)
    return "fp8-emu: " + failure.message +
           " (a crash, recovered: the call failed, the process goes on)";
  return report;
}

PYBIND11_MODULE(_fp8_mlir, m) {
  m.doc() = "Native half of fp8_mlir: MLIR parsing, pass pipelines and the "
            "ExecutionEngine over the fp8-mlir dialect and passes.";

  m.def(
      "run_pipeline",
      [](const std::string &text, const std::string &pipeline,
         const std::string &sourceName, bool captureOutput, bool generic,
         bool locations) {
        PipelineResult r;
        Interruptible interrupt;
        {
          py::gil_scoped_release release;
          r = runPipeline(text, pipeline, sourceName, captureOutput, generic,
                          locations, interrupt.poll());
        }
        interrupt.raiseIfInterrupted();
        return r;
      },
      py::arg("text"), py::arg("pipeline"), py::arg("source_name") = "<input>",
      py::arg("capture_output") = false, py::arg("generic") = false,
      py::arg("locations") = false,
      "Parse, verify, run a textual pass pipeline; returns a PipelineResult "
      "(ok, stage: what failed, ir, diagnostics, rendered, stdout, stderr, "
      "gpu_objects). Ctrl-C stops the run at the next pass and raises "
      "KeyboardInterrupt.");

  // Kernel symbols from the generator's own definition
  // (fp8/Target/Hopper/KernelNames.h), so no caller re-derives them.
  auto kernelType = [](const std::string &name) {
    using mlir::fp8::KernelElementType;
    for (KernelElementType t :
         {KernelElementType::e4m3, KernelElementType::e5m2,
          KernelElementType::bf16, KernelElementType::f32})
      if (name == mlir::fp8::getKernelElementTypeName(t))
        return t;
    throw py::value_error("kernel element type '" + name +
                          "' is not one of e4m3, e5m2, bf16, f32");
  };
  m.def(
      "gemm_kernel_name",
      [kernelType](int64_t m, int64_t n, int64_t k, const std::string &a,
                   const std::string &b, const std::string &out) {
        return mlir::fp8::getGemmKernelName(m, n, k, kernelType(a),
                                            kernelType(b), kernelType(out));
      },
      py::arg("m"), py::arg("n"), py::arg("k"), py::arg("a") = "e4m3",
      py::arg("b") = "e4m3", py::arg("out") = "bf16",
      "Symbol of the sm_90a GEMM kernel fp8-lower-to-nvvm generates for an "
      "M x N x K fp8.scaled_matmul (a, b: e4m3/e5m2; out: bf16/f32). "
      "Raises ValueError for another type name.");
  m.def(
      "quantize_kernel_name",
      [kernelType](int64_t rows, int64_t cols, int64_t blockRows,
                   const std::string &input, const std::string &fp8, bool pow2,
                   float eps) {
        return mlir::fp8::getQuantizeKernelName(rows, cols, blockRows,
                                                kernelType(input),
                                                kernelType(fp8), pow2, eps);
      },
      py::arg("rows"), py::arg("cols"), py::arg("block_rows"),
      py::arg("input") = "f32", py::arg("fp8") = "e4m3",
      py::arg("pow2") = false, py::arg("eps") = 1e-4f,
      "Symbol of the sm_90a quantize kernel for a rows x cols input into "
      "block_rows x 128 blocks (input: f32/bf16; fp8: e4m3/e5m2).");

  // The CPU emulator of the sm_90a kernels (fp8/Emulator): the
  // "gpu-emulator" backend of scaled_matmul and quantize.
  m.def(
      "emulate_gemm",
      [](const std::string &ir, const std::string &kernel,
         py::array_t<uint8_t, py::array::c_style> a,
         py::array_t<float, py::array::c_style> sa,
         py::array_t<uint8_t, py::array::c_style> b,
         py::array_t<float, py::array::c_style> sb, uint64_t seed, int smCount,
         const std::string &accumulator) {
        if (a.ndim() != 2 || b.ndim() != 2 || a.shape(1) != b.shape(1))
          throw py::value_error("emulate_gemm: a [M, K] and b [N, K]");
        int64_t m = a.shape(0), n = b.shape(0), k = a.shape(1);
        int64_t kb = (k + 127) / 128, nb = (n + 127) / 128;
        if (sa.size() != m * kb || sb.size() != nb * kb)
          throw py::value_error("emulate_gemm: scales must be [M, ceil(K / "
                                "128)] and [ceil(N / 128), ceil(K / 128)]");
        py::array_t<uint32_t> out({m, n});
        std::string report;
        {
          py::gil_scoped_release release;
          report = runEmulator([&](const std::atomic<bool> *stop) {
            return emulateGemm(ir, kernel, m, n, k, a.data(), sa.data(),
                               b.data(), sb.data(), out.mutable_data(), seed,
                               smCount, accumulator, stop);
          });
        }
        if (!report.empty())
          throw std::runtime_error(report);
        return out;
      },
      py::arg("ir"), py::arg("kernel"), py::arg("a"), py::arg("sa"),
      py::arg("b"), py::arg("sb"), py::arg("seed") = 1,
      py::arg("sm_count") = 132, py::arg("accumulator") = "exact",
      "Run GEMM kernel `kernel` of the lowered module `ir` on the CPU "
      "emulator; returns the [M, N] output bits (bf16 in the low 16 bits, or "
      "f32). Raises RuntimeError with the emulator's report on a fault.");
  m.def(
      "emulate_quantize",
      [](const std::string &ir, const std::string &kernel,
         py::array_t<uint32_t, py::array::c_style> x, int64_t blockRows,
         uint64_t seed) {
        if (x.ndim() != 2)
          throw py::value_error("emulate_quantize: x must be 2-D");
        int64_t rows = x.shape(0), cols = x.shape(1);
        py::array_t<uint8_t> codes({rows, cols});
        py::array_t<uint32_t> scales(
            {(rows + blockRows - 1) / blockRows, (cols + 127) / 128});
        std::string report;
        {
          py::gil_scoped_release release;
          report = runEmulator([&](const std::atomic<bool> *stop) {
            return emulateQuantize(ir, kernel, rows, cols, x.data(),
                                   codes.mutable_data(), scales.mutable_data(),
                                   seed, stop);
          });
        }
        if (!report.empty())
          throw std::runtime_error(report);
        return py::make_tuple(codes, scales);
      },
      py::arg("ir"), py::arg("kernel"), py::arg("x"), py::arg("block_rows"),
      py::arg("seed") = 1,
      "Run quantize kernel `kernel` on x (f32 bits, or bf16 bits for a bf16 "
      "kernel) on the CPU emulator; returns (codes, scale bits).");

  m.def("is_registered_pass", &isRegisteredPass, py::arg("name"),
        "True if a pass or pass pipeline of this name is registered.");
  m.def("policy_presets", &policyPresets,
        "Names of the #fp8.policy presets, in documentation order.");
  m.def("policy_preset_info", &policyPresetInfo,
        "The #fp8.policy presets in documentation order (PolicyPreset).");
  m.def("fp8_formats", &formatLimits,
        "The supported FP8 formats as the compiler defines them "
        "(FormatLimits), E4M3FN first.");

  bindPresets(m);
  bindResults(m);

  py::class_<PyJit>(m, "JitModule")
      .def("functions", &PyJit::functions)
      .def("call", &PyJit::call);

  m.def(
      "jit",
      [](const std::string &text, const std::string &pipeline,
         const std::vector<std::string> &sharedLibs, int optLevel,
         bool captureOutput) {
        PipelineResult r;
        std::unique_ptr<JitModule> module;
        Interruptible interrupt;
        {
          py::gil_scoped_release release;
          module = JitModule::create(text, pipeline, sharedLibs, optLevel,
                                     captureOutput, r, interrupt.poll());
        }
        interrupt.raiseIfInterrupted();
        py::object jit = py::none();
        if (module)
          jit = py::cast(new PyJit(std::move(module)),
                         py::return_value_policy::take_ownership);
        return py::make_tuple(jit, py::cast(std::move(r)));
      },
      py::arg("text"), py::arg("pipeline"), py::arg("shared_libs"),
      py::arg("opt_level") = 2, py::arg("capture_output") = false,
      "JIT-compile a module after lowering it with `pipeline`; returns "
      "(JitModule or None, PipelineResult with the diagnostics).");
}
