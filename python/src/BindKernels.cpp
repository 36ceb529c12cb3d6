//===- BindKernels.cpp - the generated kernels in fp8_mlir._fp8_mlir ------===//
//
// The kernels of a lowered module as their typed attributes say
// (gpu_kernels: GemmKernel, QuantizeKernel), and runs of them on the CPU
// emulator (fp8/Emulator): the "gpu-emulator" backend of scaled_matmul and
// quantize. A kernel is picked by its attribute, never by its name.
//
//===----------------------------------------------------------------------===//
#include "Bindings.h"
#include "fp8/Tools/CrashReport.h"

#include <functional>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace fp8py;

namespace {

/// Runs the emulator on a recovering thread (mlir::fp8::runRecoverable): it
/// parses and interprets the kernel IR it is given, and a crash there must
/// fail the call with a message, not end the interpreter. Called without the
/// GIL. Ctrl-C is polled as in a pipeline run (every 50 ms) and stops the
/// emulated launch within a few thousand instructions (`fn` gets the flag);
/// the KeyboardInterrupt is then raised here, whatever the launch reported.
std::string
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

std::vector<KernelInfo> kernelsOf(const std::string &ir) {
  std::vector<KernelInfo> kernels;
  std::string error;
  if (!gpuKernels(ir, kernels, error))
    throw py::value_error("gpu_kernels: " + error);
  return kernels;
}

/// `kernel` (a GemmKernelInfo or QuantizeKernelInfo), or with None the one
/// kernel of that kind in `ir`; ValueError when it has none or several.
template <typename Info>
Info pickKernel(const std::string &ir, const std::optional<Info> &kernel,
                const char *what) {
  if (kernel)
    return *kernel;
  std::vector<Info> found;
  for (KernelInfo &k : kernelsOf(ir))
    if (auto *info = std::get_if<Info>(&k))
      found.push_back(std::move(*info));
  if (found.size() != 1)
    throw py::value_error(std::string("the module has ") +
                          std::to_string(found.size()) + " " + what +
                          " kernels; pass the one to run (gpu_kernels(ir))");
  return found.front();
}

/// GemmKernelConfig as it is (read-only): what the emitter, the launchers
/// and the emulator read of a GEMM kernel.
void bindGemmKernelConfig(py::module_ &m) {
  using C = mlir::fp8::GemmKernelConfig;
  py::class_<C> cls(m, "GemmKernelConfig",
                    "The launch configuration of a GEMM kernel "
                    "(GemmKernelConfig.h; read-only; m, k None for a "
                    "run-time M, K).");
  defGemmConfigFields(cls, [](const C &c) -> const C & { return c; });
  cls.def_readonly("producer_regs", &C::producerRegs)
      .def_readonly("consumer_regs", &C::consumerRegs)
      .def_readonly("b_scales_per_column", &C::bScalesPerColumn)
      .def_readonly("quantize_epilogue", &C::quantizeEpilogue)
      .def_property_readonly("threads", &C::threads)
      .def_property_readonly("tiles", &C::tiles);
}

void bindKernelClasses(py::module_ &m) {
  bindGemmKernelConfig(m);
  using G = GemmKernelInfo;
  py::class_<G> gemm(m, "GemmKernel",
                     "A GEMM kernel of a lowered module as its "
                     "#fp8.gemm_kernel says (read-only; gpu_kernels()); "
                     "config: its GemmKernelConfig, whose fields are also "
                     "attributes here.");
  defGemmConfigFields(gemm,
                      [](const G &g) -> const auto & { return g.config; });
  gemm.def_property_readonly("kind", [](const G &) { return "gemm"; })
      .def_readonly("symbol", &G::symbol)
      .def_readonly("attribute", &G::attribute)
      .def_readonly("config", &G::config)
      .def_readonly("a", &G::a)
      .def_readonly("b", &G::b)
      .def_readonly("d", &G::d)
      .def_property_readonly("c",
                             [](const G &g) -> std::optional<std::string> {
                               if (g.c.empty())
                                 return std::nullopt;
                               return g.c;
                             })
      .def_readonly("a_scale", &G::aScale)
      .def_readonly("b_scale", &G::bScale)
      .def_readonly("b_scale_rows", &G::bScaleRows)
      .def_property_readonly("layout",
                             [](const G &g) -> std::optional<std::string> {
                               if (g.layout.empty())
                                 return std::nullopt;
                               return g.layout;
                             })
      .def_readonly("groups", &G::groups)
      .def_readonly("counts", &G::counts)
      .def_readonly("multicast", &G::multicast)
      .def_readonly("swap_ab", &G::swapAB)
      .def_readonly("epilogue", &G::epilogue)
      .def_property_readonly("q",
                             [](const G &g) -> std::optional<std::string> {
                               if (g.q.empty())
                                 return std::nullopt;
                               return g.q;
                             })
      .def_readonly("q_eps", &G::qEps)
      .def_readonly("q_pow2", &G::qPow2)
      .def_property_readonly("chip",
                             [](const G &g) -> std::optional<std::string> {
                               if (g.chip.empty())
                                 return std::nullopt;
                               return g.chip;
                             })
      .def_readonly("ctas", &G::ctas)
      .def_readonly("modelled_us", &G::modelledUs)
      .def_readonly("modelled_tflops", &G::modelledTflops)
      .def("__repr__",
           [](const G &g) { return "GemmKernel(" + g.attribute + ")"; });

  using QC = mlir::fp8::QuantizeKernelConfig;
  py::class_<QC> quantizeConfig(m, "QuantizeKernelConfig",
                                "The launch configuration of a quantize "
                                "kernel (QuantizeKernelConfig.h; read-only; "
                                "rows None for a run-time row count).");
  defQuantizeConfigFields(quantizeConfig,
                          [](const QC &c) -> const QC & { return c; });
  quantizeConfig.def_property_readonly("grid_size", &QC::gridSize);

  using Q = QuantizeKernelInfo;
  py::class_<Q> quantize(m, "QuantizeKernel",
                         "A quantize kernel of a lowered module as its "
                         "#fp8.quantize_kernel says (read-only; "
                         "gpu_kernels()); config: its QuantizeKernelConfig, "
                         "whose fields are also attributes here.");
  defQuantizeConfigFields(quantize,
                          [](const Q &q) -> const auto & { return q.config; });
  quantize.def_property_readonly("kind", [](const Q &) { return "quantize"; })
      .def_readonly("symbol", &Q::symbol)
      .def_readonly("attribute", &Q::attribute)
      .def_readonly("config", &Q::config)
      .def_readonly("input", &Q::input)
      .def_readonly("fp8", &Q::fp8)
      .def_readonly("scale", &Q::scale)
      .def_readonly("scale_mode", &Q::scaleMode)
      .def_readonly("eps", &Q::eps)
      .def_readonly("transpose", &Q::transpose)
      .def("__repr__",
           [](const Q &q) { return "QuantizeKernel(" + q.attribute + ")"; });

  using T = TransposeKernelInfo;
  py::class_<T>(m, "TransposeKernel",
                "The transpose kernel of a lowered module as its "
                "#fp8.transpose_kernel says (read-only; gpu_kernels()): a "
                "layout change between two kernels, sizes at run time.")
      .def_property_readonly("kind", [](const T &) { return "transpose"; })
      .def_readonly("symbol", &T::symbol)
      .def_readonly("attribute", &T::attribute)
      .def_readonly("bits", &T::bits)
      .def_readonly("repeat_rows", &T::repeatRows)
      .def_readonly("widen_e8m0", &T::widenE8M0)
      .def("__repr__",
           [](const T &t) { return "TransposeKernel(" + t.attribute + ")"; });
}

void bindEmulateGemm(py::module_ &m) {
  m.def(
      "emulate_gemm",
      [](const std::string &ir, std::optional<GemmKernelInfo> kernel,
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
        std::string symbol = pickKernel(ir, kernel, "GEMM").symbol;
        py::array_t<uint32_t> out({m, n});
        std::string report;
        {
          py::gil_scoped_release release;
          report = runEmulator([&](const std::atomic<bool> *stop) {
            return emulateGemm(ir, symbol, m, n, k, a.data(), sa.data(),
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
      "Run GEMM kernel `kernel` (a GemmKernel of gpu_kernels(ir); None: the "
      "module's one GEMM kernel) of the lowered module `ir` on the CPU "
      "emulator: codes a [M, K], b [N, K] (uint8), scales sa [M, "
      "ceil(K / 128)], sb [ceil(N / 128), ceil(K / 128)] (float32); "
      "accumulator: exact, sm90 or sm89. Returns the [M, N] output bits "
      "(uint32: bf16 in the low 16 bits, or f32). Raises ValueError for "
      "operands of the wrong shapes or no single GEMM kernel, TypeError for "
      "a kernel of another kind, RuntimeError with the emulator's report on "
      "a fault or a kernel compiled for another shape.");
}

void bindEmulateQuantize(py::module_ &m) {
  m.def(
      "emulate_quantize",
      [](const std::string &ir, std::optional<QuantizeKernelInfo> kernel,
         py::array_t<uint32_t, py::array::c_style> x, int64_t blockRows,
         uint64_t seed) {
        if (x.ndim() != 2)
          throw py::value_error("emulate_quantize: x must be 2-D");
        int64_t rows = x.shape(0), cols = x.shape(1);
        std::string symbol = pickKernel(ir, kernel, "quantize").symbol;
        py::array_t<uint8_t> codes({rows, cols});
        py::array_t<uint32_t> scales(
            {(rows + blockRows - 1) / blockRows, (cols + 127) / 128});
        std::string report;
        {
          py::gil_scoped_release release;
          report = runEmulator([&](const std::atomic<bool> *stop) {
            return emulateQuantize(ir, symbol, rows, cols, x.data(),
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
      "Run quantize kernel `kernel` (a QuantizeKernel of gpu_kernels(ir); "
      "None: the module's one quantize kernel) on x [rows, cols] (uint32: "
      "f32 bits, or bf16 bits for a bf16 kernel) on the CPU emulator; "
      "returns (codes [rows, cols] uint8, scale bits [ceil(rows / "
      "block_rows), ceil(cols / 128)] uint32). Errors as emulate_gemm's.");
}

} // namespace

void fp8py::bindKernels(py::module_ &m) {
  bindKernelClasses(m);
  m.def("gpu_kernels", &kernelsOf, py::arg("ir"),
        "The generated sm_90a kernels of a lowered module (after "
        "fp8-lower-to-nvvm, or fp8-gpu-pipeline, whose launchers keep each "
        "kernel's attribute), in module order, each once: a GemmKernel per "
        "#fp8.gemm_kernel, a QuantizeKernel per #fp8.quantize_kernel (their "
        "fields the attribute's; element types as MLIR prints them, a "
        "run-time size None). Raises ValueError when `ir` does not parse.");
  bindEmulateGemm(m);
  bindEmulateQuantize(m);
}
