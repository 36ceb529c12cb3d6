"""Training-step generators for a Llama-style block and a DeepSeek-style MoE
block, in the joint form aot_autograd exports (re-exported by
`fp8_mlir.models`).

One function `@train_step(%x, %target, <parameters>) -> (y, dx, grads...)`
holds the forward pass, the loss gradient `dY = 2 (Y - target) / numel` (MSE
on the block's output) and the backward pass written out as aot_autograd
decomposes it: every `nn.Linear` (no bias, weight `[out, in]` passed as an
argument located at its parameter name) is `linalg.transpose` +
`linalg.matmul` forward, `dX = dY * W` and `dW = dY^T * X` backward;
attention's products are `linalg.batch_matmul` over the heads; RMSNorm,
softmax, SiLU and their gradients are `linalg.generic`s.

With `split=True` the step is two functions, as aot_autograd partitions
it: `@forward(%x, <parameters>) -> (y, saved...)` and `@backward(saved...,
<parameters the backward reads>, %dy) -> (dx, grads...)`, the incoming
gradient dY a tangent argument (no loss in the graph).

The block: `x -> RMSNorm -> attention (q, k, v, o projections; causal
softmax) -> + x -> RMSNorm -> MLP -> + residual`. The Llama MLP is SwiGLU
(`gate_proj`, `up_proj`, `down_proj`). The MoE MLP is DeepSeek-style: a
router linear (`mlp.gate`, no bias) with a softmax over the experts and
top-k selection (an expert is selected when fewer than k experts score
higher; ties select all tied experts), routed SwiGLU experts weighted by
their softmax score (not renormalized, DeepSeek-V2's `norm_topk_prob =
False`), plus a shared SwiGLU expert. What is simplified: each routed expert
runs on all tokens, with weight 0 for the tokens not routed to it (a dense
dispatch: the same values and the same GEMMs per expert as a gather
dispatch with unbounded capacity, on T tokens instead of the routed ones);
the top-k mask carries no gradient, as in torch.
"""

from __future__ import annotations

import math
import re
from typing import List, Sequence

from . import _args

_MAX_SIZE = _args.MAX_SIZE


def _ty(*shape: int, et: str = "f32") -> str:
    return "tensor<" + "x".join(str(d) for d in shape) + f"x{et}>"


#: -inf of each float type as MLIR's hexadecimal literal.
_NEG_INF = {"f32": "0xFF800000", "f64": "0xFFF0000000000000"}
#: Element types a generated training step can be retyped to.
ELEMENT_TYPES = tuple(_NEG_INF)


def retype(text: str, et: str) -> str:
    """A step written in f32 (the emitters below) with every f32 value
    retyped to `et` (f64: the graph a finite-difference oracle checks in
    double precision). Integer tensors (token ids) are left alone."""
    if et not in _NEG_INF:
        raise ValueError(f"element type must be one of {', '.join(_NEG_INF)}, got {et!r}")
    if et == "f32":
        return text
    text = text.replace(f"{_NEG_INF['f32']} : f32", f"{_NEG_INF[et]} : {et}")
    # The two places f32 is spelled: tensor types and `: f32` (block
    # arguments, scalar ops); SSA names such as %f32 stay.
    return text.replace("xf32>", f"x{et}>").replace(": f32", f": {et}")


def _map(nd: int, res: Sequence) -> str:
    dims = ", ".join(f"d{i}" for i in range(nd))
    return f"affine_map<({dims}) -> ({', '.join(res)})>"


def _dims(nd: int, idx: Sequence[int]) -> List[str]:
    return [f"d{i}" for i in idx]


class _Graph:
    """Text of one function body with unique SSA names."""

    def __init__(self):
        self.lines: List[str] = []
        self.n = 0
        self.types = {}  # SSA value -> type, for a split step's saved values

    def fresh(self, p="v"):
        self.n += 1
        return f"%{p}{self.n}"

    def out(self, shape, fill=None):
        e = self.fresh("e")
        self.lines.append(f"    {e} = tensor.empty() : {_ty(*shape)}")
        if fill is None:
            return e
        f, c = self.fresh("f"), self.fresh("c")
        self.lines.append(f"    {c} = arith.constant {fill} : f32")
        self.lines.append(f"    {f} = linalg.fill ins({c} : f32) outs({e} : {_ty(*shape)}) -> {_ty(*shape)}")
        return f

    def matmul(self, a, b, m, k, n, loc):
        acc, r = self.out((m, n), "0.0"), self.fresh()
        self.types[r] = _ty(m, n)
        self.lines.append(f"    {r} = linalg.matmul ins({a}, {b} : {_ty(m, k)}, {_ty(k, n)}) "
                          f'outs({acc} : {_ty(m, n)}) -> {_ty(m, n)} loc("{loc}")')
        return r

    def bmm(self, a, b, bs, m, k, n, loc):
        acc, r = self.out((bs, m, n), "0.0"), self.fresh()
        self.types[r] = _ty(bs, m, n)
        self.lines.append(f"    {r} = linalg.batch_matmul ins({a}, {b} : {_ty(bs, m, k)}, {_ty(bs, k, n)}) "
                          f'outs({acc} : {_ty(bs, m, n)}) -> {_ty(bs, m, n)} loc("{loc}")')
        return r

    def transpose(self, a, shape, perm, loc):
        oshape = [shape[p] for p in perm]
        e, r = self.out(oshape), self.fresh()
        self.types[r] = _ty(*oshape)
        self.lines.append(f"    {r} = linalg.transpose ins({a} : {_ty(*shape)}) outs({e} : {_ty(*oshape)}) "
                          f'permutation = [{", ".join(str(p) for p in perm)}] loc("{loc}")')
        return r

    def expand(self, a, t, nh, hd, loc):
        r = self.fresh()
        self.types[r] = _ty(t, nh, hd)
        self.lines.append(f"    {r} = tensor.expand_shape {a} [[0], [1, 2]] output_shape [{t}, {nh}, {hd}] : "
                          f'{_ty(t, nh * hd)} into {_ty(t, nh, hd)} loc("{loc}")')
        return r

    def collapse(self, a, t, nh, hd, loc):
        r = self.fresh()
        self.types[r] = _ty(t, nh * hd)
        self.lines.append(f"    {r} = tensor.collapse_shape {a} [[0], [1, 2]] : {_ty(t, nh, hd)} into "
                          f'{_ty(t, nh * hd)} loc("{loc}")')
        return r

    def generic(self, ins, out_shape, out_idx, iters, body, loc, init=None):
        """`ins`: (value, shape, map results as strings[, element type,
        default f32]); `body`: lines using %b0.. (inputs), %bo (output),
        ending in linalg.yield."""
        nd = len(iters)
        if init is None:
            init = self.out(out_shape)
        ins = [i if len(i) == 4 else (*i, "f32") for i in ins]
        maps = [_map(nd, res) for (_, _, res, _) in ins] + [_map(nd, out_idx)]
        r = self.fresh()
        self.types[r] = _ty(*out_shape)
        ins_clause = ""
        if ins:
            ins_clause = (f"ins({', '.join(i[0] for i in ins)} : "
                          f"{', '.join(_ty(*s, et=et) for _, s, _, et in ins)}) ")
        its = ", ".join(f'"{i}"' for i in iters)
        self.lines.append(f"    {r} = linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = [{its}]}} "
                          f"{ins_clause}outs({init} : {_ty(*out_shape)}) {{")
        args = ", ".join([f"%b{i}: {i_[3]}" for i, i_ in enumerate(ins)] + ["%bo: f32"])
        self.lines.append(f"    ^bb0({args}):")
        self.lines += ["      " + b for b in body]
        self.lines.append(f'    }} -> {_ty(*out_shape)} loc("{loc}")')
        return r

    def extract_slice(self, a, shape, offsets, sizes, loc):
        r = self.fresh()
        self.types[r] = _ty(*sizes)
        self.lines.append(f"    {r} = tensor.extract_slice {a}[{', '.join(str(o) for o in offsets)}] "
                          f"[{', '.join(str(d) for d in sizes)}] [{', '.join('1' for _ in sizes)}] : "
                          f'{_ty(*shape)} to {_ty(*sizes)} loc("{loc}")')
        return r

    def concat_last(self, parts, shape, loc):
        """torch.cat along the last dimension: `parts` (values with
        `shape`'s leading sizes) inserted side by side into one tensor."""
        full = list(shape[:-1]) + [shape[-1] * len(parts)]
        r = self.out(full)
        for i, p in enumerate(parts):
            nxt = self.fresh()
            offsets = [0] * (len(shape) - 1) + [i * shape[-1]]
            self.lines.append(f"    {nxt} = tensor.insert_slice {p} into {r}[{', '.join(str(o) for o in offsets)}] "
                              f"[{', '.join(str(d) for d in shape)}] [{', '.join('1' for _ in shape)}] : "
                              f'{_ty(*shape)} into {_ty(*full)} loc("{loc}")')
            r = nxt
        self.types[r] = _ty(*full)
        return r

    def ew(self, ins, shape, body, loc):
        """Elementwise over `shape`; ins: (value, map results) or plain values
        of `shape`."""
        nd = len(shape)
        full = _dims(nd, range(nd))
        spec = []
        for i in ins:
            if isinstance(i, tuple):
                spec.append(i)
            else:
                spec.append((i, shape, full))
        return self.generic(spec, shape, full, ["parallel"] * nd, body, loc)

    def reduce_last(self, ins, shape, body, loc, init="0.0"):
        """Reduction over the last dimension of `shape` (ins of `shape`);
        body combines into %bo."""
        nd = len(shape)
        acc = self.out(shape[:-1], init)
        full = _dims(nd, range(nd))
        return self.generic([(v, shape, full) for v in ins], shape[:-1], full[:-1],
                            ["parallel"] * (nd - 1) + ["reduction"], body, loc, init=acc)


def _rms_norm(g: _Graph, x, gamma, t, h, eps, name):
    """HF LlamaRMSNorm: x * rsqrt(mean(x^2) + eps) * gamma; returns (n, rstd)."""
    ss = g.reduce_last([x], (t, h), ["%s = arith.mulf %b0, %b0 : f32", "%a = arith.addf %bo, %s : f32",
                                     "linalg.yield %a : f32"], f"{name}.sumsq")
    rstd = g.ew([ss], (t,), [f"%n = arith.constant {1.0 / h:.9e} : f32", f"%e = arith.constant {eps:.9e} : f32",
                             "%m = arith.mulf %b0, %n : f32", "%a = arith.addf %m, %e : f32",
                             "%r = math.rsqrt %a : f32", "linalg.yield %r : f32"], f"{name}.rstd")
    n = g.ew([x, (rstd, (t,), ["d0"]), (gamma, (h,), ["d1"])], (t, h),
             ["%a = arith.mulf %b0, %b1 : f32", "%r = arith.mulf %a, %b2 : f32", "linalg.yield %r : f32"], name)
    return n, rstd


def _rms_norm_backward(g: _Graph, dn, x, rstd, gamma, t, h, name):
    """dx = rstd * gamma * dn - x * rstd^3 * sum_h(dn * gamma * x) / h;
    dgamma = sum_t dn * x * rstd."""
    # sum_h dn * gamma * x (gamma broadcast along the tokens).
    acc = g.out((t,), "0.0")
    c = g.generic([(dn, (t, h), ["d0", "d1"]), (x, (t, h), ["d0", "d1"]), (gamma, (h,), ["d1"])], (t,), ["d0"],
                  ["parallel", "reduction"],
                  ["%a = arith.mulf %b0, %b1 : f32", "%p = arith.mulf %a, %b2 : f32",
                   "%s = arith.addf %bo, %p : f32", "linalg.yield %s : f32"], f"{name}.grad", init=acc)
    dx = g.ew([dn, x, (rstd, (t,), ["d0"]), (gamma, (h,), ["d1"]), (c, (t,), ["d0"])], (t, h),
              [f"%n = arith.constant {1.0 / h:.9e} : f32",
               "%a = arith.mulf %b0, %b3 : f32", "%u = arith.mulf %a, %b2 : f32",
               "%r2 = arith.mulf %b2, %b2 : f32", "%r3 = arith.mulf %r2, %b2 : f32",
               "%k = arith.mulf %b4, %n : f32", "%w = arith.mulf %r3, %k : f32", "%v = arith.mulf %b1, %w : f32",
               "%d = arith.subf %u, %v : f32", "linalg.yield %d : f32"], f"{name}.grad")
    # dgamma: a reduction over the tokens.
    acc = g.out((h,), "0.0")
    dgamma = g.generic([(dn, (t, h), ["d1", "d0"]), (x, (t, h), ["d1", "d0"]), (rstd, (t,), ["d1"])], (h,), ["d0"],
                       ["parallel", "reduction"],
                       ["%a = arith.mulf %b0, %b1 : f32", "%p = arith.mulf %a, %b2 : f32",
                        "%s = arith.addf %bo, %p : f32", "linalg.yield %s : f32"], f"{name}.weight.grad", init=acc)
    return dx, dgamma


def _add(g, a, b, shape, loc):
    return g.ew([a, b], shape, ["%r = arith.addf %b0, %b1 : f32", "linalg.yield %r : f32"], loc)


class _Step:
    """Parameters (function arguments) and gradients of one step."""

    def __init__(self):
        self.g = _Graph()
        self.params: List[tuple] = []  # (ssa, shape, name)
        self.grads = {}

    def param(self, shape, name):
        ssa = f"%w{len(self.params)}"
        self.params.append((ssa, tuple(shape), name))
        return ssa

    def linear(self, x, t, k, n, name):
        """Forward of nn.Linear: returns (y, ctx) for `linear_backward`."""
        w = self.param((n, k), f"{name}.weight")
        wt = self.g.transpose(w, (n, k), (1, 0), name)
        return self.g.matmul(x, wt, t, k, n, name), (w, x, t, k, n, name)

    def linear_backward(self, ctx, dy, need_dx=True):
        w, x, t, k, n, name = ctx
        dx = self.g.matmul(dy, w, t, n, k, f"{name}.dgrad") if need_dx else None
        dyt = self.g.transpose(dy, (t, n), (1, 0), f"{name}.wgrad")
        self.grads[w] = self.g.matmul(dyt, x, n, t, k, f"{name}.wgrad")
        return dx


def _silu_mul(g, a, b, shape, loc):
    return g.ew([a, b], shape, ["%one = arith.constant 1.0 : f32", "%n = arith.negf %b0 : f32",
                                "%e = math.exp %n : f32", "%d = arith.addf %one, %e : f32",
                                "%s = arith.divf %b0, %d : f32", "%r = arith.mulf %s, %b1 : f32",
                                "linalg.yield %r : f32"], loc)


def _swiglu(s: _Step, x, t, h, inter, name):
    gt, cg = s.linear(x, t, h, inter, f"{name}.gate_proj")
    up, cu = s.linear(x, t, h, inter, f"{name}.up_proj")
    hm = _silu_mul(s.g, gt, up, (t, inter), f"{name}.act_fn")
    out, cd = s.linear(hm, t, inter, h, f"{name}.down_proj")
    return out, (gt, up, cg, cu, cd, t, inter, name)


def _swiglu_backward(s: _Step, ctx, dout):
    """Returns the gradient of the MLP's input (the sum of the two dgrads)."""
    gt, up, cg, cu, cd, t, inter, name = ctx
    g = s.g
    dhm = s.linear_backward(cd, dout)
    sig = ["%one = arith.constant 1.0 : f32", "%n = arith.negf %b1 : f32", "%e = math.exp %n : f32",
           "%d = arith.addf %one, %e : f32", "%sg = arith.divf %one, %d : f32"]
    # d gate = dh * up * silu'(gate), silu'(g) = sig(g) * (1 + g * (1 - sig(g))).
    dgt = g.ew([dhm, gt, up], (t, inter),
               sig + ["%q = arith.subf %one, %sg : f32", "%gq = arith.mulf %b1, %q : f32",
                      "%p = arith.addf %one, %gq : f32", "%ds = arith.mulf %sg, %p : f32",
                      "%a = arith.mulf %b0, %b2 : f32", "%r = arith.mulf %a, %ds : f32", "linalg.yield %r : f32"],
               f"{name}.act_fn.grad")
    dup = g.ew([dhm, gt], (t, inter),
               sig + ["%si = arith.mulf %b1, %sg : f32", "%r = arith.mulf %b0, %si : f32", "linalg.yield %r : f32"],
               f"{name}.act_fn.grad")
    dx1 = s.linear_backward(cg, dgt)
    dx2 = s.linear_backward(cu, dup)
    return _add(g, dx1, dx2, (ctx[5], cg[3]), f"{name}.grad")


class _Heads:
    """The head layout of attention: [t, nh * hd] activations viewed as
    [batch * nh, seq, hd] (t = batch * seq tokens, HF's view + transpose(1,
    2)); with one sequence, [t, nh, hd] transposed to [nh, t, hd]."""

    def __init__(self, g: _Graph, t, nh, hd, batch, name):
        self.g, self.t, self.nh, self.hd, self.b, self.name = g, t, nh, hd, batch, name
        self.s = t // batch
        self.shape = (batch * nh, self.s, hd)

    def split(self, v, loc):
        g, t, nh, hd, b, s = self.g, self.t, self.nh, self.hd, self.b, self.s
        if b == 1:
            return g.transpose(g.expand(v, t, nh, hd, loc), (t, nh, hd), (1, 0, 2), loc)
        r = self.g.fresh()
        g.lines.append(f"    {r} = tensor.expand_shape {v} [[0, 1], [2, 3]] output_shape [{b}, {s}, {nh}, {hd}] : "
                       f'{_ty(t, nh * hd)} into {_ty(b, s, nh, hd)} loc("{loc}")')
        tr = g.transpose(r, (b, s, nh, hd), (0, 2, 1, 3), loc)
        c = g.fresh()
        g.types[c] = _ty(*self.shape)
        g.lines.append(f"    {c} = tensor.collapse_shape {tr} [[0, 1], [2], [3]] : {_ty(b, nh, s, hd)} into "
                       f'{_ty(*self.shape)} loc("{loc}")')
        return c

    def merge(self, v, loc):
        g, t, nh, hd, b, s = self.g, self.t, self.nh, self.hd, self.b, self.s
        if b == 1:
            return g.collapse(g.transpose(v, (nh, t, hd), (1, 0, 2), loc), t, nh, hd, loc)
        r = g.fresh()
        g.lines.append(f"    {r} = tensor.expand_shape {v} [[0, 1], [2], [3]] output_shape [{b}, {nh}, {s}, {hd}] : "
                       f'{_ty(*self.shape)} into {_ty(b, nh, s, hd)} loc("{loc}")')
        tr = g.transpose(r, (b, nh, s, hd), (0, 2, 1, 3), loc)
        c = g.fresh()
        g.types[c] = _ty(t, nh * hd)
        g.lines.append(f"    {c} = tensor.collapse_shape {tr} [[0, 1], [2, 3]] : {_ty(b, s, nh, hd)} into "
                       f'{_ty(t, nh * hd)} loc("{loc}")')
        return c


def _rope(g: _Graph, x, shape, cos, sin, loc, backward=False):
    """HF apply_rotary_pos_emb on [heads, seq, hd]: x * cos +
    rotate_half(x) * sin, rotate_half(x) = cat(-x2, x1) (the halves of the
    head dimension), cos/sin [seq, hd]. The backward maps dy to dy * cos +
    rotate_half^T(dy * sin), rotate_half^T(u) = cat(u2, -u1)."""
    bh, sq, hd = shape
    half = (bh, sq, hd // 2)
    neg = ["%r = arith.negf %b0 : f32", "linalg.yield %r : f32"]
    mul = ["%r = arith.mulf %b0, %b1 : f32", "linalg.yield %r : f32"]
    table = ["d1", "d2"]
    u = g.ew([x, (sin, (sq, hd), table)], shape, mul, loc) if backward else x
    u1 = g.extract_slice(u, shape, (0, 0, 0), half, loc)
    u2 = g.extract_slice(u, shape, (0, 0, hd // 2), half, loc)
    if backward:
        rot = g.concat_last([u2, g.ew([u1], half, neg, loc)], half, loc)
        return g.ew([x, (cos, (sq, hd), table), rot], shape,
                    ["%m = arith.mulf %b0, %b1 : f32", "%r = arith.addf %m, %b2 : f32", "linalg.yield %r : f32"], loc)
    rot = g.concat_last([g.ew([u2], half, neg, loc), u1], half, loc)
    return g.ew([x, (cos, (sq, hd), table), rot, (sin, (sq, hd), table)], shape,
                ["%m = arith.mulf %b0, %b1 : f32", "%n = arith.mulf %b2, %b3 : f32", "%r = arith.addf %m, %n : f32",
                 "linalg.yield %r : f32"], loc)


def _attention(s: _Step, x, t, h, nh, name, batch=1, rope=None):
    """Causal multi-head attention of `batch` sequences of t / batch tokens;
    `rope`: (cos, sin) tables [seq, hd] applied to q and k, or None."""
    g = s.g
    hd = h // nh
    heads = _Heads(g, t, nh, hd, batch, name)
    bh, sq = heads.shape[0], heads.s
    q, cq = s.linear(x, t, h, h, f"{name}.q_proj")
    k, ck = s.linear(x, t, h, h, f"{name}.k_proj")
    v, cv = s.linear(x, t, h, h, f"{name}.v_proj")
    qh = heads.split(q, name)
    kh = heads.split(k, name)
    vh = heads.split(v, name)
    if rope is not None:
        qh = _rope(g, qh, heads.shape, *rope, f"{name}.rotary_emb")
        kh = _rope(g, kh, heads.shape, *rope, f"{name}.rotary_emb")
    kt = g.transpose(kh, heads.shape, (0, 2, 1), name)
    sc = g.bmm(qh, kt, bh, sq, hd, sq, f"{name}.scores")
    scale = 1.0 / math.sqrt(hd)
    # Scaled, causal mask (key j > query i gets -inf before the softmax).
    z = g.ew([sc], (bh, sq, sq), [f"%c = arith.constant {scale:.9e} : f32", "%ninf = arith.constant 0xFF800000 : f32",
                                  "%i = linalg.index 1 : index", "%j = linalg.index 2 : index",
                                  "%m = arith.cmpi ugt, %j, %i : index", "%s = arith.mulf %b0, %c : f32",
                                  "%r = arith.select %m, %ninf, %s : f32", "linalg.yield %r : f32"], f"{name}.mask")
    p = _softmax(g, z, (bh, sq, sq), f"{name}.softmax")
    ah = g.bmm(p, vh, bh, sq, sq, hd, f"{name}.context")
    a = heads.merge(ah, name)
    o, co = s.linear(a, t, h, h, f"{name}.o_proj")
    return o, (cq, ck, cv, co, qh, kh, vh, p, heads, scale, rope, name)


def _softmax(g: _Graph, z, shape, loc):
    """Softmax over the last dimension as torch decomposes it: max, exp of
    the difference, sum, divide."""
    outer = ["d0", "d1", "d2"][:len(shape) - 1]
    mx = g.reduce_last([z], shape, ["%r = arith.maximumf %bo, %b0 : f32", "linalg.yield %r : f32"], loc,
                       init="0xFF800000")
    ex = g.ew([z, (mx, shape[:-1], outer)], shape,
              ["%d = arith.subf %b0, %b1 : f32", "%r = math.exp %d : f32", "linalg.yield %r : f32"], loc)
    sm = g.reduce_last([ex], shape, ["%r = arith.addf %bo, %b0 : f32", "linalg.yield %r : f32"], loc)
    return g.ew([ex, (sm, shape[:-1], outer)], shape, ["%r = arith.divf %b0, %b1 : f32", "linalg.yield %r : f32"],
                loc)


def _attention_backward(s: _Step, ctx, do):
    cq, ck, cv, co, qh, kh, vh, p, heads, scale, rope, name = ctx
    g = s.g
    bh, sq, hd = heads.shape
    da = s.linear_backward(co, do)
    dah = heads.split(da, f"{name}.grad")
    vt = g.transpose(vh, heads.shape, (0, 2, 1), f"{name}.grad")
    dp = g.bmm(dah, vt, bh, sq, hd, sq, f"{name}.context.grad")
    pt = g.transpose(p, (bh, sq, sq), (0, 2, 1), f"{name}.grad")
    dvh = g.bmm(pt, dah, bh, sq, sq, hd, f"{name}.context.grad")
    # Softmax backward: dz = p * (dp - sum_j dp * p), times the scale.
    rd = g.reduce_last([dp, p], (bh, sq, sq), ["%m = arith.mulf %b0, %b1 : f32", "%r = arith.addf %bo, %m : f32",
                                               "linalg.yield %r : f32"], f"{name}.softmax.grad")
    ds = g.ew([dp, p, (rd, (bh, sq), ["d0", "d1"])], (bh, sq, sq),
              [f"%c = arith.constant {scale:.9e} : f32", "%d = arith.subf %b0, %b2 : f32",
               "%m = arith.mulf %b1, %d : f32", "%r = arith.mulf %m, %c : f32", "linalg.yield %r : f32"],
              f"{name}.softmax.grad")
    dqh = g.bmm(ds, kh, bh, sq, sq, hd, f"{name}.scores.grad")
    dst = g.transpose(ds, (bh, sq, sq), (0, 2, 1), f"{name}.grad")
    dkh = g.bmm(dst, qh, bh, sq, sq, hd, f"{name}.scores.grad")
    if rope is not None:
        dqh = _rope(g, dqh, heads.shape, *rope, f"{name}.rotary_emb.grad", backward=True)
        dkh = _rope(g, dkh, heads.shape, *rope, f"{name}.rotary_emb.grad", backward=True)
    dxq = s.linear_backward(cq, heads.merge(dqh, f"{name}.grad"))
    dxk = s.linear_backward(ck, heads.merge(dkh, f"{name}.grad"))
    dxv = s.linear_backward(cv, heads.merge(dvh, f"{name}.grad"))
    t, h = heads.t, heads.nh * hd
    return _add(g, _add(g, dxq, dxk, (t, h), f"{name}.grad"), dxv, (t, h), f"{name}.grad")


def _moe(s: _Step, x, t, h, experts, top_k, inter, shared, name):
    g = s.g
    logits, cr = s.linear(x, t, h, experts, f"{name}.gate")
    p = _softmax(g, logits, (t, experts), f"{name}.gate.softmax")
    # Top-k: how many experts score higher; selected when fewer than k.
    acc = g.out((t, experts), "0.0")
    higher = g.generic([(p, (t, experts), ["d0", "d2"]), (p, (t, experts), ["d0", "d1"])], (t, experts),
                       ["d0", "d1"], ["parallel", "parallel", "reduction"],
                       ["%one = arith.constant 1.0 : f32", "%zero = arith.constant 0.0 : f32",
                        "%gt = arith.cmpf ogt, %b0, %b1 : f32", "%c = arith.select %gt, %one, %zero : f32",
                        "%r = arith.addf %bo, %c : f32", "linalg.yield %r : f32"], f"{name}.gate.topk", init=acc)
    mask = g.ew([higher], (t, experts), [f"%k = arith.constant {float(top_k):.9e} : f32",
                                         "%one = arith.constant 1.0 : f32", "%zero = arith.constant 0.0 : f32",
                                         "%lt = arith.cmpf olt, %b0, %k : f32",
                                         "%r = arith.select %lt, %one, %zero : f32", "linalg.yield %r : f32"],
                f"{name}.gate.topk")
    wts = g.ew([p, mask], (t, experts), ["%r = arith.mulf %b0, %b1 : f32", "linalg.yield %r : f32"],
               f"{name}.gate.topk")
    outs, ctxs = [], []
    total = None
    if shared:
        total, sctx = _swiglu(s, x, t, h, inter * shared, f"{name}.shared_experts")
    for e in range(experts):
        oe, ce = _swiglu(s, x, t, h, inter, f"{name}.experts.{e}")
        outs.append(oe)
        ctxs.append(ce)
        ins = [oe, (wts, (t, experts), ["d0", str(e)])]
        body = ["%m = arith.mulf %b0, %b1 : f32"]
        if total is not None:
            ins.append(total)
            body.append("%r = arith.addf %m, %b2 : f32")
        else:
            body.append("%r = arith.mulf %b0, %b1 : f32")
        total = g.ew(ins, (t, h), body + ["linalg.yield %r : f32"], f"{name}.combine")
    return total, (cr, p, mask, wts, outs, ctxs, sctx if shared else None, t, h, experts, name)


def _moe_backward(s: _Step, ctx, dm):
    cr, p, mask, wts, outs, ctxs, sctx, t, h, experts, name = ctx
    g = s.g
    dx = _swiglu_backward(s, sctx, dm) if sctx is not None else None
    dws = []
    for e in reversed(range(experts)):
        doe = g.ew([dm, (wts, (t, experts), ["d0", str(e)])], (t, h),
                   ["%r = arith.mulf %b0, %b1 : f32", "linalg.yield %r : f32"], f"{name}.combine.grad")
        dxe = _swiglu_backward(s, ctxs[e], doe)
        dx = dxe if dx is None else _add(g, dx, dxe, (t, h), f"{name}.grad")
        # d weight_e = sum_h dm * out_e.
        dws.append(g.reduce_last([dm, outs[e]], (t, h), ["%m = arith.mulf %b0, %b1 : f32",
                                                         "%r = arith.addf %bo, %m : f32", "linalg.yield %r : f32"],
                                 f"{name}.combine.grad"))
    dws.reverse()
    # Gather the per-expert columns into [t, experts], times the top-k mask.
    body = ["%e = linalg.index 1 : index", "%acc0 = arith.constant 0.0 : f32"]
    for e in range(experts):
        body += [f"%i{e} = arith.constant {e} : index", f"%q{e} = arith.cmpi eq, %e, %i{e} : index",
                 f"%acc{e + 1} = arith.select %q{e}, %b{e}, %acc{e} : f32"]
    body += [f"%r = arith.mulf %acc{experts}, %b{experts} : f32", "linalg.yield %r : f32"]
    dwt = g.ew([(d, (t,), ["d0"]) for d in dws] + [mask], (t, experts), body, f"{name}.gate.topk.grad")
    # Softmax backward.
    rd = g.reduce_last([dwt, p], (t, experts), ["%m = arith.mulf %b0, %b1 : f32", "%r = arith.addf %bo, %m : f32",
                                                "linalg.yield %r : f32"], f"{name}.gate.softmax.grad")
    dl = g.ew([dwt, p, (rd, (t,), ["d0"])], (t, experts),
              ["%d = arith.subf %b0, %b2 : f32", "%r = arith.mulf %b1, %d : f32", "linalg.yield %r : f32"],
              f"{name}.gate.softmax.grad")
    dxr = s.linear_backward(cr, dl)
    return _add(g, dx, dxr, (t, h), f"{name}.grad")


def _block(s: _Step, x, t, h, nh, rms_eps, mlp, mlp_args, pre, batch=1, rope=None):
    """One pre-norm decoder block `x -> RMSNorm -> attention -> + x ->
    RMSNorm -> MLP -> + residual` (parameters under `pre`); returns (y,
    the context `_block_backward` reads)."""
    g = s.g
    g1 = s.param((h,), f"{pre}.input_layernorm.weight")
    n1, r1s = _rms_norm(g, x, g1, t, h, rms_eps, f"{pre}.input_layernorm")
    att, actx = _attention(s, n1, t, h, nh, f"{pre}.self_attn", batch, rope)
    r1 = _add(g, x, att, (t, h), pre)
    g2 = s.param((h,), f"{pre}.post_attention_layernorm.weight")
    n2, r2s = _rms_norm(g, r1, g2, t, h, rms_eps, f"{pre}.post_attention_layernorm")
    if mlp == "dense":
        m, mctx = _swiglu(s, n2, t, h, mlp_args["intermediate"], f"{pre}.mlp")
    else:
        m, mctx = _moe(s, n2, t, h, mlp_args["experts"], mlp_args["top_k"], mlp_args["intermediate"],
                       mlp_args["shared"], f"{pre}.mlp")
    y = _add(g, r1, m, (t, h), pre)
    return y, (x, g1, r1s, actx, r1, g2, r2s, mlp, mctx, t, h, pre)


def _block_backward(s: _Step, ctx, dy):
    """The gradient of the block's input; the norm weights' gradients go to
    `s.grads` (the linears' already do)."""
    x, g1, r1s, actx, r1, g2, r2s, mlp, mctx, t, h, pre = ctx
    g = s.g
    dn2 = _swiglu_backward(s, mctx, dy) if mlp == "dense" else _moe_backward(s, mctx, dy)
    dr1n, dg2 = _rms_norm_backward(g, dn2, r1, r2s, g2, t, h, f"{pre}.post_attention_layernorm")
    dr1 = _add(g, dy, dr1n, (t, h), f"{pre}.grad")
    dn1 = _attention_backward(s, actx, dr1)
    dxn, dg1 = _rms_norm_backward(g, dn1, x, r1s, g1, t, h, f"{pre}.input_layernorm")
    dx = _add(g, dr1, dxn, (t, h), f"{pre}.grad")
    s.grads[g1], s.grads[g2] = dg1, dg2
    return dx


def _block_step(tokens, hidden, num_heads, mlp, rms_eps, mlp_args, split) -> str:
    tokens = _args.size("tokens", tokens)
    hidden = _args.size("hidden", hidden)
    num_heads = _args.size("num_heads", num_heads)
    if hidden % num_heads:
        raise ValueError(f"hidden ({hidden}) must be a multiple of num_heads ({num_heads})")
    if tokens * tokens * num_heads > 1 << 40:
        raise ValueError(f"tokens^2 x num_heads ({tokens}^2 x {num_heads}) exceeds 2^40 elements")
    rms_eps = _args.real("rms_eps", rms_eps, "a finite number > 0")
    split = _args.flag("split", split)
    s = _Step()
    g = s.g
    t, h = tokens, hidden
    y, bctx = _block(s, "%x", t, h, num_heads, rms_eps, mlp, mlp_args, "model.layers.0")
    params = [f'{p}: {_ty(*shape)} loc("{name}")' for (p, shape, name) in s.params]
    if split:
        # The backward reads forward values by name: they become @backward's
        # arguments (the saved tensors, then the weights, then the tangent
        # dY, as aot_autograd orders them) and @forward's extra results.
        fwd_lines, g.lines = g.lines, []
        dy = "%dy"
    else:
        scale = 2.0 / (t * h)
        dy = g.ew([y, "%target"], (t, h), [f"%c = arith.constant {scale:.9e} : f32",
                                           "%d = arith.subf %b0, %b1 : f32",
                                           "%r = arith.mulf %d, %c : f32", "linalg.yield %r : f32"], "loss.grad")
    dx = _block_backward(s, bctx, dy)
    grads = [(dx, (t, h))] + [(s.grads[p], shape) for (p, shape, _) in s.params]
    g.types["%x"] = _ty(t, h)
    out = ["module {"]

    def func(name, args, results, lines):
        rtys = ", ".join(_ty(*shape) for _, shape in results)
        out.append(f"  func.func @{name}({', '.join(args)}) -> ({rtys}) {{")
        out.extend(lines)
        out.append(f"    return {', '.join(v for v, _ in results)} : {rtys}")
        out.append("  }")

    if not split:
        func("train_step", [f"%x: {_ty(t, h)}", f"%target: {_ty(t, h)}"] + params, [((y), (t, h))] + grads,
             g.lines)
    else:
        used = set(re.findall(r"%[a-z]+[0-9]*\b", "\n".join(g.lines)))
        defined = ["%x"] + [m.group(1) for m in (re.match(r"\s*(%[a-z]+[0-9]+) =", ln) for ln in fwd_lines) if m]
        saved = [v for v in defined if v in used and v in g.types]
        weights = [(p, shape, name) for (p, shape, name) in s.params if p in used]
        shape_of = {v: tuple(int(d) for d in g.types[v][7:-5].split("x")) for v in saved}
        func("forward", [f"%x: {_ty(t, h)}"] + params, [(y, (t, h))] + [(v, shape_of[v]) for v in saved], fwd_lines)
        bargs = [f"{v}: {g.types[v]}" for v in saved] + \
            [f'{p}: {_ty(*shape)} loc("{name}")' for (p, shape, name) in weights] + [f"%dy: {_ty(t, h)}"]
        func("backward", bargs, grads, g.lines)
    out += ["}", ""]
    return "\n".join(out)


def llama_training_step(tokens: int = 256, hidden: int = 256, num_heads: int = 2, intermediate: int = 512,
                        rms_eps: float = 1e-6, split: bool = False) -> str:
    """One Llama-style decoder block's joint training step: RMSNorm, causal
    multi-head attention (q/k/v/o projections, `hidden / num_heads` per
    head; no RoPE), RMSNorm, SwiGLU MLP of `intermediate`, residuals, MSE
    loss. `@train_step(%x, %target, <7 linear weights and 2 norm weights>)
    -> (y, dx, one gradient per parameter, in argument order)`. 7 linears:
    7 fprop, 7 dgrad, 7 wgrad `linalg.matmul`s; 6 `linalg.batch_matmul`s
    (scores and context, forward and backward). Raises ValueError for sizes
    that are not positive integers <= 2^20 or `hidden % num_heads != 0`."""
    intermediate = _args.size("intermediate", intermediate)
    return _block_step(tokens, hidden, num_heads, "dense", rms_eps, {"intermediate": intermediate},
                       split)


def moe_training_step(tokens: int = 256, hidden: int = 256, num_heads: int = 2, num_experts: int = 4,
                      top_k: int = 2, moe_intermediate: int = 128, num_shared_experts: int = 1,
                      rms_eps: float = 1e-6, split: bool = False) -> str:
    """One DeepSeek-style MoE decoder block's joint training step: the
    attention of `llama_training_step`, then a router linear
    (`mlp.gate`, `[num_experts, hidden]`) with softmax and top-k, a shared
    SwiGLU expert of `num_shared_experts x moe_intermediate` (none when 0)
    and `num_experts` routed SwiGLU experts of `moe_intermediate`
    (`mlp.experts.<e>`), densely dispatched (see the module docstring).
    Linears: 4 attention + 3 per expert (routed and shared) + the router,
    each with its fprop, dgrad and wgrad `linalg.matmul`. Raises ValueError
    for out-of-range sizes or `top_k > num_experts`."""
    num_experts = _args.size("num_experts", num_experts)
    top_k = _args.size("top_k", top_k)
    moe_intermediate = _args.size("moe_intermediate", moe_intermediate)
    num_shared_experts = _args.size("num_shared_experts", num_shared_experts, low=0)
    if num_experts > 512:
        raise ValueError(f"num_experts must be at most 512 (one generic per expert), got {num_experts}")
    if top_k > num_experts:
        raise ValueError(f"top_k ({top_k}) exceeds num_experts ({num_experts})")
    if num_shared_experts * moe_intermediate > _MAX_SIZE:
        raise ValueError(f"num_shared_experts x moe_intermediate must be at most {_MAX_SIZE}")
    return _block_step(tokens, hidden, num_heads, "moe", rms_eps,
                       {"experts": num_experts, "top_k": top_k, "intermediate": moe_intermediate,
                        "shared": num_shared_experts}, split)
