"""The emitter every graph generator of the package writes with
(`fp8_mlir.models`, `fp8_mlir.training_graphs`,
`fp8_mlir.training.lm_graph`, through the layers of `fp8_mlir.layers`):
one function body of linalg-on-tensors MLIR, as text, with

- unique SSA names (`Graph.fresh`: `%v1`, `%e2`, ... one counter for all
  prefixes) and the shape of every tensor value it defines (`Graph.shapes`);
- the element type as a parameter (`Graph(et="f64")`): every tensor type
  and every block argument of the graph is written with it, so an f64 graph
  holds no f32;
- bookkeeping of which part of the graph (`Graph.part`, e.g. "forward" or
  "backward") emitted each op and which values each op reads, so that a
  training step is split into a forward and a backward function by what the
  ops read (`Graph.reads_across`), not by the text of the graph.

Shapes are sequences of ints; a tensor type is `tensor<d0 x ... x et>`.
Locations are the names precision passes match (`loc("model.layers.0.
mlp.gate_proj")`). Ops are written one per line, indented for a function
body (4 spaces; a region's body 6).
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

__all__ = ["ELEMENT_TYPES", "NEG_INF", "Graph", "Op", "tensor_type", "memref_type", "affine_map",
           "float_literal", "function"]

#: -inf of each float element type as MLIR's hexadecimal literal.
NEG_INF = {"f32": "0xFF800000", "f64": "0xFFF0000000000000", "bf16": "0xFF80"}
#: Element types a Graph is written in.
ELEMENT_TYPES = tuple(NEG_INF)

Shape = Sequence[int]


def tensor_type(shape: Shape, et: str) -> str:
    """`tensor<4x8xf32>` for shape (4, 8) and et "f32"."""
    return "tensor<" + "x".join(str(d) for d in shape) + f"x{et}>"


def memref_type(shape: Shape, et: str) -> str:
    """`memref<4x8xf32>` for shape (4, 8) and et "f32" (a destination-passing
    function's argument)."""
    return "memref<" + "x".join(str(d) for d in shape) + f"x{et}>"


def affine_map(ndims: int, results: Sequence[Union[int, str]]) -> str:
    """`affine_map<(d0, ..., d{ndims-1}) -> (results)>`; an int result i is
    the dimension `d{i}`, a string is written as it is (`"d1"`, `"0"`)."""
    dims = ", ".join(f"d{i}" for i in range(ndims))
    res = ", ".join(f"d{r}" if isinstance(r, int) else r for r in results)
    return f"affine_map<({dims}) -> ({res})>"


def float_literal(value: float) -> str:
    """An MLIR float literal with 10 significant digits (`1.000000000e-06`)."""
    return f"{value:.9e}"


def _loc(loc: Optional[str]) -> str:
    return f' loc("{loc}")' if loc is not None else ""


def _index_list(values: Iterable) -> str:
    return ", ".join(str(v) for v in values)


@dataclasses.dataclass
class Op:
    """One emitted op: its lines, the part of the graph that emitted it,
    the values it defines and the values it reads (operands and values its
    regions capture). `constant`: it reads nothing and can be emitted again
    in another function (an `arith.constant`)."""

    lines: List[str]
    part: Optional[str]
    defs: Tuple[str, ...]
    uses: Tuple[str, ...]
    constant: bool = False


def _ins_clause(ins) -> str:
    """`ins(values : types) ` of a linalg.generic's inputs ((value, shape,
    map results, element type) each), or "" without inputs."""
    if not ins:
        return ""
    return (f"ins({', '.join(i[0] for i in ins)} : "
            f"{', '.join(tensor_type(s, et) for _, s, _, et in ins)}) ")


def _iterator_types(iterators) -> str:
    return ", ".join(f'"{i}"' for i in iterators)


class Graph:
    """One function body being emitted.

    `et`: the float element type ("f32", "f64", "bf16") of the tensors and
    scalars the graph's ops compute in. `part`: the tag given to the ops
    emitted from now on (None, or e.g. "forward" / "backward").
    `arguments` are the function's arguments in declaration order (their
    names; `argument`), `params` the trained parameters among them
    ((SSA name, shape, location name); `parameter`). `prologue`: lines the
    caller puts before the body, a model's weights (a callable entry is
    rendered when the function is written)."""

    def __init__(self, et: str = "f32"):
        if et not in ELEMENT_TYPES:
            raise ValueError(f"element type must be one of {', '.join(ELEMENT_TYPES)}, got {et!r}")
        self.et = et
        self.n = 0
        self.part: Optional[str] = None
        self.ops: List[Op] = []
        self._defining: Dict[str, Op] = {}  # value -> the op defining it (the last one)
        self.shapes: Dict[str, Tuple[int, ...]] = {}
        self.arguments: List[str] = []
        self.params: List[Tuple[str, Tuple[int, ...], str]] = []
        self.prologue: List[Union[str, Callable[[], str]]] = []

    # -- names, types, bookkeeping ---------------------------------------------

    def fresh(self, prefix: str = "v") -> str:
        """A new SSA name `%{prefix}{n}` (one counter for every prefix)."""
        self.n += 1
        return f"%{prefix}{self.n}"

    def ty(self, *shape: int) -> str:
        """The tensor type of `shape` in the graph's element type."""
        return tensor_type(shape, self.et)

    @property
    def neg_inf(self) -> str:
        """-inf of the element type (a hexadecimal float literal)."""
        return NEG_INF[self.et]

    def type_of(self, value: str) -> str:
        """The tensor type of a value the graph defined or declared."""
        return self.ty(*self.shapes[value])

    def emit(self, lines: Union[str, Sequence[str]], defs: Sequence[str] = (), uses: Sequence[str] = (),
             shape: Optional[Shape] = None, constant: bool = False) -> None:
        """Appends one op (its full lines, indentation included) defining
        `defs` and reading `uses`; `shape` is the shape of its (first)
        result."""
        if isinstance(lines, str):
            lines = [lines]
        op = Op(list(lines), self.part, tuple(defs), tuple(u for u in uses if u), constant)
        self.ops.append(op)
        for d in op.defs:
            self._defining[d] = op
        if shape is not None and defs:
            self.shapes[defs[0]] = tuple(shape)

    @property
    def lines(self) -> List[str]:
        """Every op's lines, in emission order (the prologue not included)."""
        return [line for op in self.ops for line in op.lines]

    def part_lines(self, part: Optional[str]) -> List[str]:
        """The lines of the ops emitted under `part`."""
        return [line for op in self.ops if op.part == part for line in op.lines]

    def argument(self, name: str, shape: Optional[Shape] = None) -> str:
        """Declares a function argument `name` (with the shape of a tensor
        argument of the element type); returns the name."""
        self.arguments.append(name)
        if shape is not None:
            self.shapes[name] = tuple(shape)
        return name

    def parameter(self, shape: Shape, name: str) -> str:
        """A trained parameter as the next function argument `%w{i}`,
        located at `name` (its torch parameter path)."""
        ssa = self.argument(f"%w{len(self.params)}", shape)
        self.params.append((ssa, tuple(shape), name))
        return ssa

    def parameter_declarations(self, params: Optional[Sequence] = None) -> List[str]:
        """`%w0: tensor<...> loc("name")` of `params` (default: all)."""
        params = self.params if params is None else params
        return [f'{p}: {self.ty(*shape)} loc("{name}")' for (p, shape, name) in params]

    def reads_across(self, src: Optional[str], dst: str) -> List[str]:
        """The values that ops of part `dst` read and that the function's
        arguments or ops of part `src` define, arguments first (declaration
        order), then in the order the `src` ops define them: what a `dst`
        function must receive from a `src` function (or rebuild, for a
        `constant` op, see `defining_op`)."""
        read = {u for op in self.ops if op.part == dst for u in op.uses}
        order = [a for a in self.arguments if a in read]
        for op in self.ops:
            if op.part == src:
                order += [d for d in op.defs if d in read]
        return order

    def defining_op(self, value: str) -> Optional[Op]:
        """The op that defines `value` (None for an argument; the last one
        for a name each function of a split step defines again, such as
        mlp_training_step's weight views)."""
        return self._defining.get(value)

    # -- constants -------------------------------------------------------------

    def constant(self, literal: str, ty: Optional[str] = None, loc: Optional[str] = None,
                 name: Optional[str] = None, prefix: str = "c") -> str:
        """`%c = arith.constant literal : ty` (ty defaults to the element
        type), emitted in place; `name` a name taken before."""
        name = name or self.fresh(prefix)
        self.emit(f"    {name} = arith.constant {literal} : {ty or self.et}{_loc(loc)}", [name], constant=True)
        return name

    def dense_constant(self, values, loc: str, prefix: str = "k") -> str:
        """A 2-D dense tensor constant of `values` (a NumPy array, written
        with repr so that every digit of a float64 is kept), emitted in place."""
        r = self.fresh(prefix)
        rows = ", ".join("[" + ", ".join(repr(float(v)) for v in row) + "]" for row in values)
        self.emit(f'    {r} = arith.constant dense<[{rows}]> : {self.ty(*values.shape)} loc("{loc}")', [r],
                  shape=values.shape, constant=True)
        return r

    # -- tensor ops ------------------------------------------------------------

    def to_tensor(self, memref: str, shape: Shape, et: Optional[str] = None, writable: bool = False,
                  prefix: str = "t") -> str:
        """`bufferization.to_tensor` of the memref argument `memref` (`shape`,
        element type `et`, default the graph's), `restrict` (no other tensor
        aliases it); `writable`: the function writes its result back into it
        (`materialize`), in place."""
        et = et or self.et
        r = self.fresh(prefix)
        w = " writable" if writable else ""
        self.emit(f"    {r} = bufferization.to_tensor {memref} restrict{w} : {memref_type(shape, et)} to "
                  f"{tensor_type(shape, et)}", [r], [memref], shape)
        return r

    def materialize(self, value: str, memref: str, shape: Shape, et: Optional[str] = None) -> None:
        """`bufferization.materialize_in_destination` of `value` into the
        memref argument `memref`: a destination-passing function's output."""
        et = et or self.et
        self.emit(f"    bufferization.materialize_in_destination {value} in restrict writable {memref} : "
                  f"({tensor_type(shape, et)}, {memref_type(shape, et)}) -> ()", [], [value, memref])

    def empty(self, shape: Shape, loc: Optional[str] = None, prefix: str = "e") -> str:
        """`tensor.empty() : tensor<shape>`."""
        r = self.fresh(prefix)
        self.emit(f"    {r} = tensor.empty() : {self.ty(*shape)}{_loc(loc)}", [r])
        return r

    def fill(self, init: str, value: str, shape: Shape, loc: Optional[str] = None,
             name: Optional[str] = None, prefix: str = "f") -> str:
        """`linalg.fill ins(value) outs(init)`: `init` with every element
        `value` (a scalar SSA value of the element type)."""
        r = name or self.fresh(prefix)
        t = self.ty(*shape)
        self.emit(f"    {r} = linalg.fill ins({value} : {self.et}) outs({init} : {t}) -> {t}{_loc(loc)}", [r],
                  [value, init], shape)
        return r

    def zeros(self, shape: Shape, fill: Optional[str] = None) -> str:
        """An accumulator as aot_autograd writes it: `tensor.empty` and, with
        `fill` (a float literal), `linalg.fill` of an inline constant."""
        e = self.empty(shape)
        if fill is None:
            return e
        f, c = self.fresh("f"), self.fresh("c")
        self.constant(fill, name=c)
        return self.fill(e, c, shape, name=f)

    def matmul(self, a: str, b: str, m: int, k: int, n: int, loc: Optional[str] = None,
               acc: Optional[str] = None) -> str:
        """`linalg.matmul` of `a [m, k] x b [k, n]` accumulated into `acc
        [m, n]` (default `zeros`)."""
        acc = acc or self.zeros((m, n), "0.0")
        r = self.fresh()
        self.emit(f"    {r} = linalg.matmul ins({a}, {b} : {self.ty(m, k)}, {self.ty(k, n)}) "
                  f"outs({acc} : {self.ty(m, n)}) -> {self.ty(m, n)}{_loc(loc)}", [r], [a, b, acc], (m, n))
        return r

    def batch_matmul(self, a: str, b: str, bs: int, m: int, k: int, n: int, loc: Optional[str] = None,
                     acc: Optional[str] = None) -> str:
        """`linalg.batch_matmul` of `a [bs, m, k] x b [bs, k, n]`
        accumulated into `acc [bs, m, n]` (default `zeros`)."""
        acc = acc or self.zeros((bs, m, n), "0.0")
        r = self.fresh()
        self.emit(f"    {r} = linalg.batch_matmul ins({a}, {b} : {self.ty(bs, m, k)}, {self.ty(bs, k, n)}) "
                  f"outs({acc} : {self.ty(bs, m, n)}) -> {self.ty(bs, m, n)}{_loc(loc)}", [r], [a, b, acc],
                  (bs, m, n))
        return r

    def transpose(self, a: str, shape: Shape, perm: Sequence[int], loc: Optional[str] = None) -> str:
        """`linalg.transpose` of `a` (`shape`) by `perm`: out[i] = shape[perm[i]]."""
        oshape = [shape[p] for p in perm]
        e = self.empty(oshape)
        r = self.fresh()
        self.emit(f"    {r} = linalg.transpose ins({a} : {self.ty(*shape)}) outs({e} : {self.ty(*oshape)}) "
                  f"permutation = [{_index_list(perm)}]{_loc(loc)}", [r], [a, e], oshape)
        return r

    def expand_shape(self, a: str, shape: Shape, groups: Sequence[Sequence[int]], out_shape: Shape,
                     loc: Optional[str] = None, name: Optional[str] = None) -> str:
        """`tensor.expand_shape` of `a` (`shape`) into `out_shape`, result
        dimensions grouped by `groups`."""
        r = name or self.fresh()
        g = ", ".join("[" + _index_list(grp) + "]" for grp in groups)
        self.emit(f"    {r} = tensor.expand_shape {a} [{g}] output_shape [{_index_list(out_shape)}] : "
                  f"{self.ty(*shape)} into {self.ty(*out_shape)}{_loc(loc)}", [r], [a], out_shape)
        return r

    def collapse_shape(self, a: str, shape: Shape, groups: Sequence[Sequence[int]], out_shape: Shape,
                       loc: Optional[str] = None) -> str:
        """`tensor.collapse_shape` of `a` (`shape`) into `out_shape`."""
        r = self.fresh()
        g = ", ".join("[" + _index_list(grp) + "]" for grp in groups)
        self.emit(f"    {r} = tensor.collapse_shape {a} [{g}] : {self.ty(*shape)} into "
                  f"{self.ty(*out_shape)}{_loc(loc)}", [r], [a], out_shape)
        return r

    def extract_slice(self, a: str, shape: Shape, offsets: Sequence, sizes: Shape, loc: Optional[str] = None,
                      name: Optional[str] = None, source_type: Optional[str] = None) -> str:
        """`tensor.extract_slice` of `sizes` at `offsets` (unit strides)."""
        r = name or self.fresh()
        src = source_type or self.ty(*shape)
        self.emit(f"    {r} = tensor.extract_slice {a}[{_index_list(offsets)}] [{_index_list(sizes)}] "
                  f"[{_index_list(1 for _ in sizes)}] : {src} to {self.ty(*sizes)}{_loc(loc)}", [r], [a], sizes)
        return r

    def insert_slice(self, part: str, into: str, shape: Shape, offsets: Sequence, full: Shape,
                     loc: Optional[str] = None, name: Optional[str] = None) -> str:
        """`tensor.insert_slice` of `part` (`shape`) into `into` (`full`) at `offsets`."""
        r = name or self.fresh()
        self.emit(f"    {r} = tensor.insert_slice {part} into {into}[{_index_list(offsets)}] "
                  f"[{_index_list(shape)}] [{_index_list(1 for _ in shape)}] : "
                  f"{self.ty(*shape)} into {self.ty(*full)}{_loc(loc)}", [r], [part, into], full)
        return r

    def generic(self, ins: Sequence[tuple], out_shape: Shape, out_map: Sequence, iterators: Sequence[str],
                body: Union[Sequence[str], Callable], loc: str, init: Optional[str] = None,
                captures: Sequence[str] = (), block_args: Tuple[str, str] = ("%b", "%bo")) -> str:
        """A `linalg.generic` writing `out_shape` (element type et).

        `ins`: (value, shape, indexing map results[, element type]) per
        input (map results as in `affine_map`). `init`: the output operand
        (default a new `tensor.empty`). `body` is either
        - a list of lines ending in `linalg.yield`, with the block
          arguments named `{block_args[0]}0, 1, ...` (inputs) and
          `block_args[1]` (output); or
        - a callable taking fresh block-argument names (inputs, then output)
          and returning (lines, yielded value); the yield is appended.
        `captures`: values the body reads from outside (a `tensor.extract`
        of a table), for the bookkeeping."""
        nd = len(iterators)
        if init is None:
            init = self.empty(out_shape)
        ins = [i if len(i) == 4 else (*i, self.et) for i in ins]
        maps = [affine_map(nd, res) for (_, _, res, _) in ins] + [affine_map(nd, out_map)]
        out_ty = self.ty(*out_shape)
        if callable(body):
            bargs = [self.fresh() for _ in range(len(ins) + 1)]
            sig = ", ".join(f"{a}: {et}" for a, et in zip(bargs, [i[3] for i in ins] + [self.et]))
            lines, result = body(bargs)
            lines = list(lines) + [f"linalg.yield {result} : {self.et}"]
            r = self.fresh()
        else:
            r = self.fresh()
            sig = ", ".join([f"{block_args[0]}{k}: {i[3]}" for k, i in enumerate(ins)] +
                            [f"{block_args[1]}: {self.et}"])
            lines = body
        ins_clause, its = _ins_clause(ins), _iterator_types(iterators)
        text = [f"    {r} = linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = [{its}]}} "
                f"{ins_clause}outs({init} : {out_ty}) {{", f"    ^bb0({sig}):"]
        text += ["      " + b for b in lines]
        text.append(f'    }} -> {out_ty} loc("{loc}")')
        self.emit(text, [r], [i[0] for i in ins] + [init] + list(captures), out_shape)
        return r

    def generic_results(self, ins: Sequence[tuple], outs: Sequence[tuple], iterators: Sequence[str],
                        body: Callable, loc: str, captures: Sequence[str] = ()) -> List[str]:
        """A `linalg.generic` with several outputs, each of its own element
        type (an optimizer's update: weights f32, moments bf16).

        `ins`: (value, shape, indexing map results[, element type]) as for
        `generic`; `outs`: (init, shape, map results, element type) per
        output. `body` takes fresh block-argument names (inputs, then
        outputs) and returns (lines, yielded values, one per output); the
        yield is appended. Returns the results (`%r#0`, `%r#1`, ...)."""
        nd = len(iterators)
        ins = [i if len(i) == 4 else (*i, self.et) for i in ins]
        maps = [affine_map(nd, res) for (_, _, res, _) in list(ins) + list(outs)]
        bargs = [self.fresh() for _ in range(len(ins) + len(outs))]
        ets = [i[3] for i in ins] + [o[3] for o in outs]
        lines, yields = body(bargs)
        r = self.fresh()
        results = [f"{r}#{k}" for k in range(len(outs))]
        out_tys = ", ".join(tensor_type(s, et) for _, s, _, et in outs)
        ins_clause, its = _ins_clause(ins), _iterator_types(iterators)
        text = [f"    {r}:{len(outs)} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
                f"iterator_types = [{its}]}} {ins_clause}outs({', '.join(o[0] for o in outs)} : {out_tys}) {{",
                f"    ^bb0({', '.join(f'{a}: {et}' for a, et in zip(bargs, ets))}):"]
        text += ["      " + line for line in lines]
        text.append(f"      linalg.yield {', '.join(yields)} : {', '.join(o[3] for o in outs)}")
        text.append(f'    }} -> ({out_tys}) loc("{loc}")')
        self.emit(text, results, [i[0] for i in ins] + [o[0] for o in outs] + list(captures))
        for res, (_, shape, _, _) in zip(results, outs):
            self.shapes[res] = tuple(shape)
        return results

    def elementwise(self, ins: Sequence, shape: Shape, body, loc: str, **kw) -> str:
        """A parallel `generic` over `shape`; `ins` are values of `shape`
        (identity maps) or (value, shape, map results[, element type])
        tuples (broadcasts)."""
        nd = len(shape)
        full = [f"d{i}" for i in range(nd)]
        spec = [i if isinstance(i, tuple) else (i, shape, full) for i in ins]
        return self.generic(spec, shape, full, ["parallel"] * nd, body, loc, **kw)

    def reduce_last(self, ins: Sequence[str], shape: Shape, body, loc: str, init: str = "0.0") -> str:
        """A reduction over the last dimension of `shape` (`ins` of
        `shape`) into an accumulator filled with `init` (a float literal);
        the body combines into the output block argument."""
        nd = len(shape)
        acc = self.zeros(shape[:-1], init)
        full = [f"d{i}" for i in range(nd)]
        return self.generic([(v, shape, full) for v in ins], shape[:-1], full[:-1],
                            ["parallel"] * (nd - 1) + ["reduction"], body, loc, init=acc)


def function(name: str, args: Sequence[str], results: Sequence[Tuple[str, str]], lines: Sequence[str],
             private: bool = False) -> List[str]:
    """A `func.func @name(args) -> (result types)` (indented 2) with body
    `lines`, returning `results` ((value, type) pairs; none: a function
    returning nothing, its outputs written into memref arguments); `private`: symbol
    visibility private (callable only from its module, so that the upstream
    inliner and symbol-dce may remove it once inlined)."""
    vis = "private " if private else ""
    if not results:  # destination passing: the outputs are memref arguments
        return [f"  func.func {vis}@{name}({', '.join(args)}) {{"] + list(lines) + ["    return", "  }"]
    rtys = ", ".join(ty for _, ty in results)
    return ([f"  func.func {vis}@{name}({', '.join(args)}) -> ({rtys}) {{"] + list(lines) +
            [f"    return {', '.join(v for v, _ in results)} : {rtys}", "  }"])
