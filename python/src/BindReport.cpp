//===- BindReport.cpp - fp8-report's Report in Python ---------------------===//
//
// The plain structs of fp8/Dialect/FP8/Transforms/ReportData.h bound as
// they are, read-only (fields as attributes; counts as int, or float past
// int64), never printed as JSON and parsed back. Each class is also a
// read-only mapping on the keys of fp8-report's JSON (each key the name of
// one of its attributes): report["ops"][0]["flops"] reads what
// report.ops[0].flops reads, so code written against the JSON document
// runs on the bound report unchanged.
//
//===----------------------------------------------------------------------===//
#include "Bindings.h"

#include <pybind11/stl.h>

#include <string_view>

namespace py = pybind11;
using namespace fp8py;
using namespace mlir::fp8;

namespace pybind11::detail {
/// A Count as a Python int while exact, else the nearest float (as the
/// JSON prints it).
template <> struct type_caster<Count> {
  PYBIND11_TYPE_CASTER(Count, const_name("int | float"));
  bool load(handle, bool) { return false; }
  static handle cast(const Count &c, return_value_policy, handle) {
    if (c.isExact())
      return PyLong_FromLongLong(c.exactValue());
    return PyFloat_FromDouble(c.value());
  }
};
} // namespace pybind11::detail

namespace {

//===----------------------------------------------------------------------===//
// The mapping interface, shared by every class: written on `self.keys()`.
//===----------------------------------------------------------------------===//

std::string className(py::handle self) {
  return "fp8_mlir." + py::type::of(self).attr("__name__").cast<std::string>();
}

py::list keysOf(py::handle self) { return self.attr("keys")(); }

bool hasKey(py::handle self, py::handle key) {
  return py::isinstance<py::str>(key) && keysOf(self).contains(key);
}

/// self[key]: the attribute of that name; KeyError naming the keys there
/// are for any other key.
py::object getItem(py::object self, py::object key) {
  if (hasKey(self, key))
    return self.attr(key);
  std::string keys =
      py::str(", ").attr("join")(keysOf(self)).cast<std::string>();
  throw py::key_error(py::repr(key).cast<std::string>() + " is not a key of " +
                      className(self) + " (its keys: " + keys + ")");
}

py::object get(py::object self, py::object key, py::object fallback) {
  return hasKey(self, key) ? self.attr(key) : fallback;
}

/// A value as plain Python data: nested report objects as dicts, lists
/// element by element.
py::object plain(py::handle value) {
  if (py::hasattr(value, "to_dict"))
    return value.attr("to_dict")();
  if (py::isinstance<py::list>(value)) {
    py::list out;
    for (py::handle v : value)
      out.append(plain(v));
    return out;
  }
  return py::reinterpret_borrow<py::object>(value);
}

py::dict toDict(py::object self) {
  py::dict out;
  for (py::handle key : keysOf(self))
    out[key] = plain(self.attr(key));
  return out;
}

/// Equal to another report object or a dict with the same keys and values.
py::object equals(py::object self, py::object other) {
  if (py::hasattr(other, "to_dict"))
    return py::bool_(toDict(self).equal(other.attr("to_dict")()));
  if (py::isinstance<py::dict>(other))
    return py::bool_(toDict(self).equal(other));
  return py::reinterpret_borrow<py::object>(Py_NotImplemented);
}

/// `cls` as a read-only mapping on `keys` (JSON keys, each an attribute
/// of the class); `present`, when given, says which of them an instance
/// has.
template <typename T>
void defMapping(py::class_<T> &cls, std::vector<const char *> keys,
                bool (*present)(const T &, std::string_view) = nullptr) {
  cls.def(
         "keys",
         [keys, present](const T &self) {
           py::list out;
           for (const char *key : keys)
             if (!present || present(self, key))
               out.append(key);
           return out;
         },
         "The keys of the fp8-report JSON this object prints as.")
      .def("__getitem__", &getItem, py::arg("key"))
      .def("get", &get, py::arg("key"), py::arg("default") = py::none())
      .def("__contains__", &hasKey, py::arg("key"))
      .def("__iter__",
           [](py::object self) { return keysOf(self).attr("__iter__")(); })
      .def("__len__", [](py::object self) { return py::len(keysOf(self)); })
      .def("values",
           [](py::object self) {
             py::list out;
             for (py::handle key : keysOf(self))
               out.append(self.attr(key));
             return out;
           })
      .def("items",
           [](py::object self) {
             py::list out;
             for (py::handle key : keysOf(self))
               out.append(py::make_tuple(key, self.attr(key)));
             return out;
           })
      .def("to_dict", &toDict,
           "The object as the JSON document's dict (nested objects too).")
      .def("__eq__", &equals, py::is_operator())
      .def("__repr__", [](py::object self) {
        return className(self) + "(" +
               py::repr(toDict(self)).cast<std::string>() + ")";
      });
}

/// A size of the IR: None for a dynamic one.
std::optional<int64_t> size(int64_t d) {
  if (d == kReportDynamic)
    return std::nullopt;
  return d;
}

//===----------------------------------------------------------------------===//
// The classes
//===----------------------------------------------------------------------===//

void bindPolicy(py::module_ &m) {
  using P = ReportPolicy;
  py::class_<P>(m, "ReportPolicy",
                "The #fp8.policy a report applied, its fields as printed in "
                "the IR (read-only).")
      .def_readonly("name", &P::name)
      .def_readonly("from_module", &P::fromModule)
      .def_readonly("format", &P::format)
      .def_readonly("activation_block", &P::activationBlock)
      .def_readonly("weight_block", &P::weightBlock)
      .def_readonly("scale_type", &P::scaleType)
      .def_readonly("high", &P::high);
}

/// The kernel_config of a row: the cost model's configuration and cost.
void bindKernel(py::module_ &m) {
  using K = GemmChoice;
  py::class_<K> cls(m, "ReportKernel",
                    "The sm_90a kernel the cost model chooses for an FP8 "
                    "GEMM of a report (read-only; a mapping on the JSON's "
                    "kernel_config keys; waves: the grid's waves of CTAs, "
                    "the cost model's; config: its GemmKernelConfig, whose "
                    "waves are the m64 waves per consumer).");
  defGemmConfigFields(cls, [](const K &k) -> const auto & { return k.config; });
  cls.def_readonly("config", &K::config)
      .def_property_readonly("ctas", [](const K &k) { return k.cost.ctas; })
      .def_property_readonly("waves", [](const K &k) { return k.cost.waves; })
      .def_property_readonly("modelled_us",
                             [](const K &k) { return k.cost.us; })
      .def_property_readonly("modelled_tflops",
                             [](const K &k) { return k.cost.tflops; })
      .def_property_readonly("hbm_bytes",
                             [](const K &k) { return k.cost.hbmBytes; })
      .def_readonly("why_fewer_ctas", &K::fewerCtasReason);
  defMapping(cls,
             {"m", "n", "k", "block_m", "block_n", "block_k", "stages",
              "cluster", "consumers", "group_m", "overlap", "ctas", "waves",
              "modelled_us", "modelled_tflops", "hbm_bytes", "why_fewer_ctas"});
}

void bindRow(py::module_ &m) {
  using R = ReportRow;
  py::class_<R> cls(m, "ReportRow",
                    "A reported op: a contraction or an op of a sensitive "
                    "role (read-only; a mapping on the JSON's op keys). "
                    "m, n, k: None when dynamic.");
  cls.def_readonly("function", &R::function)
      .def_readonly("op", &R::op)
      .def_readonly("location", &R::location)
      .def_readonly("role", &R::role)
      .def_readonly("precision", &R::precision)
      .def_readonly("reason", &R::reason)
      .def_readonly("shape", &R::shape)
      .def_readonly("matmul", &R::matmul)
      .def_readonly("count", &R::count)
      .def_readonly("groups", &R::groups)
      .def_readonly("flops", &R::flops)
      .def_readonly("flops_per_token", &R::flopsPerToken)
      .def_readonly("weight_bytes_before", &R::weightBytesBefore)
      .def_readonly("weight_bytes_after", &R::weightBytesAfter)
      .def_readonly("weight_elements", &R::weightElements)
      .def_readonly("gemm", &R::gemm)
      .def_readonly("kernel_config", &R::kernel)
      .def_property_readonly("m", [](const R &r) { return size(r.m); })
      .def_property_readonly("n", [](const R &r) { return size(r.n); })
      .def_property_readonly("k", [](const R &r) { return size(r.k); });
  defMapping(cls, {"function", "op", "location", "role", "precision", "reason",
                   "shape", "matmul", "count", "groups", "flops",
                   "flops_per_token", "weight_bytes_before",
                   "weight_bytes_after", "gemm", "kernel_config"});
}

void bindTotals(py::module_ &m) {
  using T = ReportTotals;
  py::class_<T> cls(m, "ReportTotals",
                    "A report's totals (read-only; a mapping on the JSON's "
                    "totals keys).");
  cls.def_readonly("matmul_flops", &T::matmulFlops)
      .def_readonly("fp8_matmul_flops", &T::fp8MatmulFlops)
      .def_readonly("matmul_flops_per_token", &T::matmulFlopsPerToken)
      .def_readonly("fp8_matmul_flops_per_token", &T::fp8MatmulFlopsPerToken)
      .def_readonly("tokens", &T::tokens)
      .def_readonly("fp8_matmul_flop_share", &T::fp8MatmulFlopShare)
      .def_readonly("fp8_share_percent", &T::fp8SharePercent)
      .def_readonly("weight_bytes_before", &T::weightBytesBefore)
      .def_readonly("weight_bytes_after", &T::weightBytesAfter);
  defMapping(cls,
             {"matmul_flops", "fp8_matmul_flops", "matmul_flops_per_token",
              "fp8_matmul_flops_per_token", "tokens", "fp8_matmul_flop_share",
              "weight_bytes_before", "weight_bytes_after"});
}

void bindTraining(py::module_ &m) {
  using G = GemmKindTotals;
  py::class_<G> kind(m, "GemmKindTotals",
                     "One GEMM kind of a training step (read-only; a "
                     "mapping).");
  kind.def_readonly("count", &G::count)
      .def_readonly("fp8_flops", &G::fp8Flops)
      .def_readonly("high_flops", &G::highFlops);
  defMapping(kind, {"count", "fp8_flops", "high_flops"});

  py::class_<ReportGemms> gemms(m, "ReportGemms",
                                "A training step's GEMMs by kind (read-only; "
                                "a mapping).");
  gemms.def_readonly("fprop", &ReportGemms::fprop)
      .def_readonly("dgrad", &ReportGemms::dgrad)
      .def_readonly("wgrad", &ReportGemms::wgrad);
  defMapping(gemms, {"fprop", "dgrad", "wgrad"});

  using C = CachedActivations;
  py::class_<C> cached(m, "CachedActivations",
                       "The activations a split step's forward caches "
                       "(read-only; a mapping).");
  cached.def_readonly("tensors", &C::tensors)
      .def_readonly("elements", &C::elements)
      .def_readonly("high_bytes", &C::highBytes)
      .def_readonly("bf16_bytes", &C::bf16Bytes)
      .def_readonly("fp8_bytes", &C::fp8Bytes);
  defMapping(cached,
             {"tensors", "elements", "high_bytes", "bf16_bytes", "fp8_bytes"});

  using T = ReportTraining;
  py::class_<T> cls(m, "ReportTraining",
                    "A training graph's step (read-only; a mapping on the "
                    "JSON's training keys).");
  cls.def_readonly("gemms", &T::gemms)
      .def_readonly("saved_activation_bytes_before",
                    &T::savedActivationBytesBefore)
      .def_readonly("saved_activation_bytes_after",
                    &T::savedActivationBytesAfter)
      .def_readonly("cached_activations", &T::cachedActivations)
      .def_readonly("weight_elements", &T::weightElements)
      .def_readonly("master_weights", &T::masterWeights)
      .def_readonly("weight_gradients", &T::weightGradients)
      .def_readonly("optimizer_moments", &T::optimizerMoments)
      .def_readonly("master_weight_bytes", &T::masterWeightBytes)
      .def_readonly("weight_gradient_bytes", &T::weightGradientBytes)
      .def_readonly("optimizer_moment_bytes", &T::optimizerMomentBytes);
  defMapping(cls, {"gemms", "saved_activation_bytes_before",
                   "saved_activation_bytes_after", "cached_activations",
                   "weight_elements", "master_weights", "weight_gradients",
                   "optimizer_moments", "master_weight_bytes",
                   "weight_gradient_bytes", "optimizer_moment_bytes"});
}

bool typeHasKey(const ReportTensorType &t, std::string_view key) {
  return t.scaled || (key != "block" && key != "scale_type");
}

bool fp8OpHasKey(const ReportFP8Op &op, std::string_view key) {
  if (key == "input" || key == "scale_mode")
    return op.input.has_value();
  if (key == "permutation")
    return op.isRequantize();
  if (key == "a" || key == "b" || key == "promote_interval" ||
      key == "accumulator")
    return op.a.has_value();
  return true;
}

void bindFP8Ops(py::module_ &m) {
  using T = ReportTensorType;
  py::class_<T> type(m, "ReportTensorType",
                     "A tensor type of an FP8 op: sizes with None for `?`; "
                     "block and scale_type of an !fp8.scaled one "
                     "(read-only; a mapping).");
  type.def_readonly("shape", &T::shape)
      .def_readonly("element_type", &T::elementType)
      .def_readonly("scaled", &T::scaled)
      .def_readonly("block", &T::block)
      .def_readonly("scale_type", &T::scaleType);
  defMapping(type, {"shape", "element_type", "block", "scale_type"},
             &typeHasKey);

  using O = ReportFP8Op;
  py::class_<O> op(m, "ReportFP8Op",
                   "An FP8 op of a report's module with its types and "
                   "attributes (read-only; a mapping whose keys depend on "
                   "the op, as in the JSON).");
  op.def_readonly("op", &O::op)
      .def_readonly("function", &O::function)
      .def_readonly("location", &O::location)
      .def_readonly("count", &O::count)
      .def_readonly("result", &O::result)
      .def_readonly("input", &O::input)
      .def_readonly("scale_mode", &O::scaleMode)
      .def_readonly("permutation", &O::permutation)
      .def_readonly("a", &O::a)
      .def_readonly("b", &O::b)
      .def_readonly("promote_interval", &O::promoteInterval)
      .def_readonly("accumulator", &O::accumulator);
  defMapping(op,
             {"op", "function", "location", "count", "result", "input",
              "scale_mode", "permutation", "a", "b", "promote_interval",
              "accumulator"},
             &fp8OpHasKey);
}

} // namespace

void fp8py::bindReport(py::module_ &m) {
  bindPolicy(m);
  bindKernel(m);
  bindRow(m);
  bindTotals(m);
  bindTraining(m);
  bindFP8Ops(m);
  using R = Report;
  py::class_<R> cls(m, "Report",
                    "fp8-report's Report of a module, collected in-process "
                    "(read-only; a mapping on the keys of the JSON document "
                    "fp8-report{format=json} prints).");
  cls.def_property_readonly(
         "policy", [](const R &r) { return r.policy.name; },
         "The policy's name (policy_info: its fields).")
      .def_property_readonly("policy_from_module",
                             [](const R &r) { return r.policy.fromModule; })
      .def_readonly("policy_info", &R::policy)
      .def_readonly("chip", &R::chip)
      .def_readonly("ops", &R::rows)
      .def_readonly("totals", &R::totals)
      .def_readonly("training", &R::training)
      .def_readonly("fp8_ops", &R::fp8Ops)
      .def("table", &reportTable, "The table fp8-report prints (format=table).")
      .def("json", &reportJson,
           "The JSON document fp8-report{format=json} prints.");
  defMapping(cls, {"policy", "policy_from_module", "chip", "ops", "totals",
                   "training", "fp8_ops"});
}
