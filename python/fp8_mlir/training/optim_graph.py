"""The optimizer's graphs, written with the package's emitter
(`fp8_mlir.graph.Graph`): destination-passing functions that the CPU
(`optim.AdamW`, through fp8-cpu-pipeline) and a GPU device
(`device.DeviceTrainer`, through fp8-gpu-pipeline{host=llvm
require-kernels=true}) compile from the same text, so that both compute the
same bits.

- `@grad_norm(g_0, ..., g_{n-1}, max_norm, norm, coef)`: the global norm of
  the gradients and the clipping factor min(1, max_norm / (norm + 1e-6))
  (PyTorch's clip_grad_norm_), in f32 (docs/training.md, "Gradient
  clipping"). Each gradient is passed as rows [R, C] (`norm_rows`: its last
  dimension, the others flattened). Its sum of squares is a row sum per row
  followed by a sum over the rows, accumulated onto the sum of the
  gradients before it (the first onto +0.0): both reductions are sums the
  compiler's fp8-split-reductions puts into the lane-strided order of the
  row kernels (docs/numerics.md, "Reduction order") where their length is at
  least 32, sequential otherwise. `norm` is the square root of the
  total. `max_norm` = +inf gives a factor of exactly 1 (no clipping).
- `@adamw_<k>(p, g, m, v, coef, decay, b1, c1, b2, c2, bc1, bc2, eps, lr)`:
  AdamW's update of one parameter of the k-th shape in place (weights f32, moments
  f32 or bf16), the arithmetic of `optim.AdamW.step` operation by operation
  (no fused multiply-add: each rounding kept), the gradient scaled by
  `coef` ([1], the factor `@grad_norm` wrote, read where it lies).
"""

from __future__ import annotations

import math
from typing import Dict, List, Sequence, Tuple

from ..graph import Graph, float_literal, function, memref_type

__all__ = ["norm_rows", "grad_norm", "adamw_update", "norm_module", "update_module", "NORM_EPS", "UPDATE_SCALARS"]

#: What the clipping factor adds to the norm (PyTorch's clip_grad_norm_: a
#: zero norm stays finite).
NORM_EPS = 1e-6

_NORM_LOC = "optimizer.grad_norm"
_UPDATE_LOC = "optimizer.adamw"


def norm_rows(shape: Sequence[int]) -> Tuple[int, int]:
    """The rows [R, C] `@grad_norm` reads a gradient of `shape` as: C its
    last dimension, R the product of the others (1 for a vector or a
    scalar)."""
    shape = tuple(shape)
    if not shape:
        return (1, 1)
    return (math.prod(shape[:-1]), shape[-1])


def grad_norm(g: Graph, grads: Sequence[Tuple[str, Tuple[int, int]]], max_norm: str) -> Tuple[str, str]:
    """Emits the global norm of `grads` ((value, rows [R, C]) pairs) and the
    clipping factor for the scalar `max_norm`, in the graph's element type
    (f32: the gradients' type; the kernels keep no f64 body on the device);
    returns (norm, coef), each a tensor [1]."""
    et = g.et
    total = g.zeros((1,), "0.0")
    for value, (r, c) in grads:
        rows = g.reduce_last([value], (r, c), [f"%s = arith.mulf %b0, %b0 : {et}", f"%a = arith.addf %bo, %s : {et}",
                                               f"linalg.yield %a : {et}"], _NORM_LOC)
        # The sum over the rows accumulates onto the gradients before it.
        total = g.generic([(rows, (r,), ["d0"])], (1,), ["0"], ["reduction"],
                          [f"%a = arith.addf %bo, %b0 : {et}", f"linalg.yield %a : {et}"], _NORM_LOC, init=total)
    norm = g.elementwise([total], (1,), [f"%r = math.sqrt %b0 : {et}", f"linalg.yield %r : {et}"], _NORM_LOC)

    # Block-local names: none is a prefix Graph.fresh numbers (v, e, f, c,
    # k, t) followed by digits.
    def factor(args):
        n, _ = args
        return [f"%eps = arith.constant {float_literal(NORM_EPS)} : {et}", f"%one = arith.constant 1.0 : {et}",
                f"%d = arith.addf {n}, %eps : {et}", f"%q = arith.divf {max_norm}, %d : {et}",
                f"%c = arith.minimumf %one, %q : {et}"], "%c"
    coef = g.elementwise([norm], (1,), factor, _NORM_LOC, captures=[max_norm])
    return norm, coef


def _grad_norm_function(rows: Sequence[Tuple[int, int]]) -> List[str]:
    g = Graph("f32")
    grads = []
    for k, shape in enumerate(rows):
        arg = g.argument(f"%g{k}")
        grads.append((g.to_tensor(arg, shape), tuple(shape)))
    max_norm, out_norm, out_coef = g.argument("%max_norm"), g.argument("%norm"), g.argument("%coef")
    norm, coef = grad_norm(g, grads, max_norm)
    g.materialize(norm, out_norm, (1,))
    g.materialize(coef, out_coef, (1,))
    args = [f"%g{k}: {memref_type(shape, 'f32')}" for k, shape in enumerate(rows)]
    args += ["%max_norm: f32", f"%norm: {memref_type((1,), 'f32')}", f"%coef: {memref_type((1,), 'f32')}"]
    return function("grad_norm", args, [], g.lines)


#: The update's scalar arguments, in order (f32 each).
UPDATE_SCALARS = ("decay", "b1", "c1", "b2", "c2", "bc1", "bc2", "eps", "lr")


def adamw_update(g: Graph, p: str, grad: str, m: str, v: str, coef: str, shape: Sequence[int], moment: str,
                 scalars: Dict[str, str]) -> List[str]:
    """Emits AdamW's update of one parameter: `p` (f32), `m` and `v`
    (`moment`: "f32" or "bf16") updated from `grad` scaled by `coef` (a
    tensor [1]); `scalars` the SSA names of UPDATE_SCALARS. Returns the new
    (p, m, v). The moments are stored rounded (arith.truncf rounds to
    nearest even, as optim.round_bf16) and the update reads them as stored."""
    n = len(shape)
    full = [f"d{i}" for i in range(n)]
    narrow = moment != "f32"
    s = scalars

    def body(args):
        gi, ci, pi, mi, vi = args
        load = [f"%mf = arith.extf {mi} : {moment} to f32", f"%vf = arith.extf {vi} : {moment} to f32"] \
            if narrow else []
        store = [f"%mn = arith.truncf %m3 : f32 to {moment}", f"%vn = arith.truncf %n3 : f32 to {moment}",
                 f"%mr = arith.extf %mn : {moment} to f32", f"%vr = arith.extf %vn : {moment} to f32"] \
            if narrow else []
        mf, vf, mr, vr, mn, vn = ("%mf", "%vf", "%mr", "%vr", "%mn", "%vn") if narrow else \
            (mi, vi, "%m3", "%n3", "%m3", "%n3")
        # Block-local names: none is a prefix Graph.fresh numbers (v, e, f, c, k, t).
        lines = [f"%gc = arith.mulf {gi}, {ci} : f32", f"%pd = arith.mulf {pi}, {s['decay']} : f32", *load,
                 f"%m1 = arith.mulf {s['b1']}, {mf} : f32", f"%m2 = arith.mulf {s['c1']}, %gc : f32",
                 "%m3 = arith.addf %m1, %m2 : f32", "%gg = arith.mulf %gc, %gc : f32",
                 f"%n1 = arith.mulf {s['b2']}, {vf} : f32", f"%n2 = arith.mulf {s['c2']}, %gg : f32",
                 "%n3 = arith.addf %n1, %n2 : f32", *store,
                 f"%q = arith.divf {vr}, {s['bc2']} : f32", "%s = math.sqrt %q : f32",
                 f"%den = arith.addf %s, {s['eps']} : f32",
                 f"%mh = arith.divf {mr}, {s['bc1']} : f32", f"%u1 = arith.mulf {s['lr']}, %mh : f32",
                 "%u = arith.divf %u1, %den : f32", "%pn = arith.subf %pd, %u : f32"]
        return lines, ["%pn", mn, vn]

    return g.generic_results([(grad, shape, full, "f32"), (coef, (1,), ["0"], "f32")],
                             [(p, shape, full, "f32"), (m, shape, full, moment), (v, shape, full, moment)],
                             ["parallel"] * n, body, _UPDATE_LOC, captures=[s[k] for k in UPDATE_SCALARS])


def _adamw_function(k: int, shape: Sequence[int], moment: str) -> List[str]:
    g = Graph("f32")
    p = g.to_tensor(g.argument("%p"), shape, writable=True)
    grad = g.to_tensor(g.argument("%g"), shape)
    m = g.to_tensor(g.argument("%m"), shape, moment, writable=True)
    v = g.to_tensor(g.argument("%v"), shape, moment, writable=True)
    coef = g.to_tensor(g.argument("%coef"), (1,))
    scalars = {name: g.argument(f"%{name}") for name in UPDATE_SCALARS}
    pn, mn, vn = adamw_update(g, p, grad, m, v, coef, shape, moment, scalars)
    g.materialize(pn, "%p", shape)
    g.materialize(mn, "%m", shape, moment)
    g.materialize(vn, "%v", shape, moment)
    args = [f"%p: {memref_type(shape, 'f32')}", f"%g: {memref_type(shape, 'f32')}",
            f"%m: {memref_type(shape, moment)}", f"%v: {memref_type(shape, moment)}",
            f"%coef: {memref_type((1,), 'f32')}"] + [f"%{name}: f32" for name in UPDATE_SCALARS]
    return function(f"adamw_{k}", args, [], g.lines)


def norm_module(rows: Sequence[Tuple[int, int]]) -> str:
    """A module of `@grad_norm` over gradients read as `rows` (`norm_rows`)."""
    return "module {\n" + "\n".join(_grad_norm_function(rows)) + "\n}\n"


def update_module(rows: Sequence[Tuple[int, int]], shapes: Sequence[Sequence[int]], moment: str) -> str:
    """A module of `@grad_norm` (gradients as `rows`) and `@adamw_<k>` for
    each of `shapes` (k its index), moments of element type `moment`."""
    lines = _grad_norm_function(rows)
    for k, shape in enumerate(shapes):
        lines += _adamw_function(k, shape, moment)
    return "module {\n" + "\n".join(lines) + "\n}\n"
