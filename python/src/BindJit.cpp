//===- BindJit.cpp - jit() and JitModule of fp8_mlir._fp8_mlir ------------===//
//
// A JIT-compiled module called with NumPy arrays and Python numbers; every
// argument is checked against the function's recorded signature first, so a
// mismatch is a ValueError and never a wild write.
//
//===----------------------------------------------------------------------===//
#include "Bindings.h"

#include <cmath>
#include <cstring>
#include <limits>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace fp8py;

namespace {

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

/// The bits of Python number `h` passed as scalar parameter `a` (named
/// `where` in errors); ValueError for a value of the wrong kind or one the
/// type does not hold.
int64_t scalarBits(const ArgInfo &a, py::handle h, const std::string &where) {
  // A value of the wrong kind names the argument and the type.
  auto wrongKind = [&] {
    return py::value_error(where + " must be " +
                           (a.elementType.find('f') == std::string::npos
                                ? "an integer"
                                : "a number") +
                           " (scalar " + a.elementType + "), got " +
                           std::string(py::str(h.get_type().attr("__name__"))));
  };
  if (py::isinstance<py::array>(h) || !PyNumber_Check(h.ptr()))
    throw wrongKind();
  try {
    if (a.elementType == "f32") {
      // Rounded to f32 as C++ converts (to nearest even); a finite value
      // that becomes Inf, or a nonzero one that becomes 0, is rejected,
      // never changed silently (numerics.py's rule).
      double d = h.cast<double>();
      float v = static_cast<float>(d);
      if ((std::isfinite(d) && std::isinf(v)) || (d != 0 && v == 0))
        throw py::value_error(where + ": " + std::string(py::repr(h)) +
                              " rounds to " + (v == 0 ? "0" : "infinity") +
                              " in f32 (the parameter's type); expected a "
                              "magnitude that f32 holds");
      uint32_t bits;
      std::memcpy(&bits, &v, 4);
      return bits;
    }
    if (a.elementType == "f64") {
      double v = h.cast<double>();
      int64_t bits;
      std::memcpy(&bits, &v, 8);
      return bits;
    }
    if (a.bitWidth > 0 && a.bitWidth <= 64 &&
        a.elementType.find('f') == std::string::npos) {
      int64_t v = h.cast<int64_t>();
      // Signed or unsigned, it must fit the integer's width: never
      // truncated silently.
      if (a.bitWidth < 64 && (v < -(int64_t(1) << (a.bitWidth - 1)) ||
                              v >= (int64_t(1) << a.bitWidth)))
        throw py::value_error(where + ": " + std::to_string(v) +
                              " does not fit " + a.elementType);
      return v;
    }
  } catch (const py::cast_error &) {
    // A Python int beyond int64 is of the right kind but too large.
    if (PyLong_Check(h.ptr()) && a.elementType.find('f') == std::string::npos)
      throw py::value_error(where + ": " + std::string(py::repr(h)) +
                            " does not fit " + a.elementType +
                            " (64-bit at most)");
    throw wrongKind();
  }
  throw py::value_error(where + ": unsupported scalar type " + a.elementType);
}

/// A strided memref layout against the array passed for it (C-contiguous,
/// offset 0): the compiled code uses a static stride or offset of the type,
/// not the descriptor's, so a mismatch would read and write elsewhere than
/// the array (past it).
void checkLayout(const ArgInfo &a, const JitModule::CallArg &arg,
                 const std::string &where) {
  if (a.layoutStrides.empty())
    return;
  // MLIR's `?` in a layout (ShapedType::kDynamic).
  auto isDynamic = [](int64_t v) {
    return v == std::numeric_limits<int64_t>::min();
  };
  if (!isDynamic(a.layoutOffset) && a.layoutOffset != 0)
    throw py::value_error(
        where + ": its memref layout has offset " +
        std::to_string(a.layoutOffset) +
        ", but an array is passed from its first element (offset 0)");
  for (int64_t d = 0; d < a.rank; ++d) {
    int64_t stride = a.layoutStrides[d];
    // A dimension of one element (or none) never steps by its stride.
    if (isDynamic(stride) || arg.sizes[d] <= 1 || stride == arg.strides[d])
      continue;
    throw py::value_error(where + ": its memref layout has stride " +
                          std::to_string(stride) + " in dimension " +
                          std::to_string(d) +
                          ", but the C-contiguous "
                          "array's is " +
                          std::to_string(arg.strides[d]) +
                          " elements (a static stride is used as it is)");
  }
}

/// `h`, a NumPy array passed as memref parameter `a`, checked (rank,
/// element size, contiguity, writability, static sizes) into `arg`.
py::array memrefArg(const ArgInfo &a, py::handle h, const std::string &where,
                    JitModule::CallArg &arg) {
  if (!py::isinstance<py::array>(h))
    throw py::value_error(where + " must be a NumPy array (memref<" +
                          a.elementType + ">)");
  py::array arr = py::reinterpret_borrow<py::array>(h);
  if (arr.ndim() != a.rank)
    throw py::value_error(where + ": expected rank " + std::to_string(a.rank) +
                          ", got " + std::to_string(arr.ndim()));
  if (!a.unsupported.empty())
    throw py::value_error(where + ": " + a.unsupported);
  if (a.elementBytes == 0)
    throw py::value_error(where + ": element type " + a.elementType +
                          " has no NumPy counterpart the JIT can pass "
                          "(expected integers, index, f16/f32/f64, "
                          "complex<f32/f64>, or bf16/FP8 as integer bit "
                          "patterns)");
  if (arr.itemsize() != a.elementBytes)
    throw py::value_error(where + ": element type " + a.elementType +
                          " needs " + std::to_string(a.elementBytes) +
                          "-byte elements, got " +
                          std::to_string(arr.itemsize()));
  // The compiled code reads the bytes as they are: an array of another kind
  // (int32 for f32) or byte order would be reinterpreted, not converted.
  py::dtype dt = arr.dtype();
  std::string dtName = py::str(dt);
  if (a.numpyKinds.find(dt.kind()) == std::string::npos)
    throw py::value_error(
        where + ": element type " + a.elementType + " takes " +
        (a.numpyKinds == "f"    ? "a NumPy float array"
         : a.numpyKinds == "c"  ? "a NumPy complex array"
         : a.numpyKinds == "iu" ? "integer bit patterns (e.g. uint8/uint16)"
                                : "a NumPy integer or bool array") +
        ", got dtype " + dtName +
        " (its bits would be reinterpreted, not converted; use .astype)");
  char order = dt.byteorder();
  const uint16_t one = 1;
  bool littleHost = *reinterpret_cast<const uint8_t *>(&one) == 1;
  if ((order == '>' && littleHost) || (order == '<' && !littleHost))
    throw py::value_error(where + ": dtype " + dtName +
                          " is not in the machine's byte order (the compiled "
                          "code would read its bytes swapped); use "
                          ".astype(x.dtype.newbyteorder('='))");
  if (!(arr.flags() & py::array::c_style))
    throw py::value_error(where + " must be C-contiguous");
  // A read-only array (np.load(..., mmap_mode='r'), a broadcast view) is
  // fine where the function only reads the memref.
  if (!arr.writeable() && !a.readOnly)
    throw py::value_error(where + " must be writeable (the function "
                                  "may write this memref)");
  // The data pointer is only written through when the array is writeable
  // (checked above).
  arg.data = const_cast<void *>(arr.data());
  arg.sizes.resize(a.rank);
  arg.strides.resize(a.rank);
  for (int64_t d = 0; d < a.rank; ++d) {
    int64_t size = arr.shape(d);
    if (a.shape[d] >= 0 && a.shape[d] != size)
      throw py::value_error(where + ": dimension " + std::to_string(d) +
                            " must be " + std::to_string(a.shape[d]) +
                            ", got " + std::to_string(size));
    arg.sizes[d] = size;
    arg.strides[d] = arr.strides(d) / arr.itemsize();
  }
  checkLayout(a, arg, where);
  return arr;
}

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
      if (a.rank < 0)
        args[i].scalarBits = scalarBits(a, pyArgs[i], where);
      else
        keepAlive.push_back(memrefArg(a, pyArgs[i], where, args[i]));
    }
    std::string sizeError = module->checkSizes(name, args);
    if (!sizeError.empty())
      throw py::value_error(sizeError);
    std::string error;
    bool ok, crashed;
    // Ctrl-C stops the compiled code at its next allocation.
    Interruptible interrupt;
    {
      py::gil_scoped_release release;
      ok = module->invoke(name, args, error, crashed, interrupt.poll());
    }
    interrupt.raiseIfInterrupted();
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

} // namespace

void fp8py::bindJit(py::module_ &m) {
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
