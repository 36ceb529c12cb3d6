//===- BindKernels.cpp - the generated kernels in fp8_mlir._fp8_mlir ------===//
//
// The kernels of a lowered module as their typed attributes say
// (gpu_kernels: GemmKernel, QuantizeKernel, TransposeKernel), read from
// their attributes, never from their names.
//
//===----------------------------------------------------------------------===//
#include "Bindings.h"

#include <pybind11/stl.h>

namespace py = pybind11;
using namespace fp8py;

namespace {

std::vector<KernelInfo> kernelsOf(const std::string &ir) {
  std::vector<KernelInfo> kernels;
  std::string error;
  if (!gpuKernels(ir, kernels, error))
    throw py::value_error("gpu_kernels: " + error);
  return kernels;
}

/// GemmKernelConfig as it is (read-only): what the emitter, the launchers
/// and the emulator read of a GEMM kernel.
void bindGemmKernelConfig(py::module_ &m) {
  using C = mlir::fp8::GemmKernelConfig;
  py::class_<C> cls(m, "GemmKernelConfig",
                    "The launch configuration of a GEMM kernel "
                    "(GemmKernelConfig.h; read-only; m, k None for a "
                    "run-time M, K; waves: m64 waves per consumer "
                    "warpgroup, 1 or 2).");
  defGemmConfigFields(cls, [](const C &c) -> const C & { return c; });
  cls.def_readonly("producer_regs", &C::producerRegs)
      .def_readonly("consumer_regs", &C::consumerRegs)
      .def_readonly("b_scales_per_column", &C::bScalesPerColumn)
      .def_readonly("quantize_epilogue", &C::quantizeEpilogue)
      .def_readonly("waves", &C::waves)
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
                     "attributes here (waves: m64 waves per consumer).");
  defGemmConfigFields(gemm,
                      [](const G &g) -> const auto & { return g.config; });
  gemm.def_property_readonly("kind", [](const G &) { return "gemm"; })
      .def_property_readonly("waves", [](const G &g) { return g.config.waves; })
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
      .def_readonly("acc_init", &G::accInit)
      // The BF16 kernels' operand majors (a_major, b_major; FP8: "k").
      .def_property_readonly(
          "a_major",
          [](const G &g) { return g.config.aMNMajor() ? "mn" : "k"; })
      .def_property_readonly(
          "b_major",
          [](const G &g) { return g.config.bMNMajor() ? "mn" : "k"; })
      // The BF16 batch kernel's head views (a_heads, b_heads; 1: packed).
      .def_property_readonly("a_heads",
                             [](const G &g) { return g.config.aHeads; })
      .def_property_readonly("b_heads",
                             [](const G &g) { return g.config.bHeads; })
      // Its result written through a head view (d_heads; 1: packed).
      .def_property_readonly("d_heads",
                             [](const G &g) { return g.config.dHeads; })
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
}
