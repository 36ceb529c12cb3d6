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
gradient dY a tangent argument (no loss in the graph). The split is the
emitter's bookkeeping (`fp8_mlir.graph.Graph.part`, `partition`): the ops
are tagged forward or backward as they are emitted, and the saved values
are the forward's values the backward's ops read.

`dtype="f64"` writes the step in double precision (every tensor and
scalar f64). The layers (`block`, `block_backward`, `rms_norm`,
`rms_norm_backward` on a `Step`) are public for `fp8_mlir.training.lm_graph`.

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

import dataclasses
import math
from typing import List

from . import _args
from .graph import Graph, Op, function

#: Element types of a training step: f32, and f64 (the graph a
#: finite-difference oracle checks in double precision).
ELEMENT_TYPES = ("f32", "f64")

_MAX_SIZE = _args.MAX_SIZE


def _concat_last(g: Graph, parts, shape, loc):
    """torch.cat along the last dimension: `parts` (values with `shape`'s
    leading sizes) inserted side by side into one tensor."""
    full = list(shape[:-1]) + [shape[-1] * len(parts)]
    r = g.zeros(full)
    for i, p in enumerate(parts):
        offsets = [0] * (len(shape) - 1) + [i * shape[-1]]
        r = g.insert_slice(p, r, shape, offsets, full, loc)
    return r


def rms_norm(g: Graph, x, gamma, t, h, eps, name):
    """HF LlamaRMSNorm of x [t, h] with weight gamma [h]: x * rsqrt(mean(x^2)
    + eps) * gamma; returns (n [t, h], rstd [t]) (rstd for `rms_norm_backward`)."""
    et = g.et
    ss = g.reduce_last([x], (t, h), [f"%s = arith.mulf %b0, %b0 : {et}", f"%a = arith.addf %bo, %s : {et}",
                                     f"linalg.yield %a : {et}"], f"{name}.sumsq")
    rstd = g.elementwise([ss], (t,), [f"%n = arith.constant {1.0 / h:.9e} : {et}",
                                      f"%e = arith.constant {eps:.9e} : {et}",
                                      f"%m = arith.mulf %b0, %n : {et}", f"%a = arith.addf %m, %e : {et}",
                                      f"%r = math.rsqrt %a : {et}", f"linalg.yield %r : {et}"], f"{name}.rstd")
    n = g.elementwise([x, (rstd, (t,), ["d0"]), (gamma, (h,), ["d1"])], (t, h),
                      [f"%a = arith.mulf %b0, %b1 : {et}", f"%r = arith.mulf %a, %b2 : {et}",
                       f"linalg.yield %r : {et}"], name)
    return n, rstd


def rms_norm_backward(g: Graph, dn, x, rstd, gamma, t, h, name):
    """The gradients of `rms_norm` given dn [t, h]: (dx [t, h], dgamma [h]),
    dx = rstd * gamma * dn - x * rstd^3 * sum_h(dn * gamma * x) / h;
    dgamma = sum_t dn * x * rstd."""
    et = g.et
    # sum_h dn * gamma * x (gamma broadcast along the tokens).
    acc = g.zeros((t,), "0.0")
    c = g.generic([(dn, (t, h), ["d0", "d1"]), (x, (t, h), ["d0", "d1"]), (gamma, (h,), ["d1"])], (t,), ["d0"],
                  ["parallel", "reduction"],
                  [f"%a = arith.mulf %b0, %b1 : {et}", f"%p = arith.mulf %a, %b2 : {et}",
                   f"%s = arith.addf %bo, %p : {et}", f"linalg.yield %s : {et}"], f"{name}.grad", init=acc)
    dx = g.elementwise([dn, x, (rstd, (t,), ["d0"]), (gamma, (h,), ["d1"]), (c, (t,), ["d0"])], (t, h),
                       [f"%n = arith.constant {1.0 / h:.9e} : {et}",
                        f"%a = arith.mulf %b0, %b3 : {et}", f"%u = arith.mulf %a, %b2 : {et}",
                        f"%r2 = arith.mulf %b2, %b2 : {et}", f"%r3 = arith.mulf %r2, %b2 : {et}",
                        f"%k = arith.mulf %b4, %n : {et}", f"%w = arith.mulf %r3, %k : {et}",
                       f"%v = arith.mulf %b1, %w : {et}",
                        f"%d = arith.subf %u, %v : {et}", f"linalg.yield %d : {et}"], f"{name}.grad")
    # dgamma: a reduction over the tokens.
    acc = g.zeros((h,), "0.0")
    dgamma = g.generic([(dn, (t, h), ["d1", "d0"]), (x, (t, h), ["d1", "d0"]), (rstd, (t,), ["d1"])], (h,), ["d0"],
                       ["parallel", "reduction"],
                       [f"%a = arith.mulf %b0, %b1 : {et}", f"%p = arith.mulf %a, %b2 : {et}",
                        f"%s = arith.addf %bo, %p : {et}", f"linalg.yield %s : {et}"], f"{name}.weight.grad", init=acc)
    return dx, dgamma


def _add(g, a, b, shape, loc):
    et = g.et
    return g.elementwise([a, b], shape, [f"%r = arith.addf %b0, %b1 : {et}", f"linalg.yield %r : {et}"], loc)


class Step:
    """One training step being emitted: its `Graph` (`g`, element type
    `et`), whose `params` are the trained parameters (function arguments
    `%w{i}`), and the gradient of each parameter (`grads`: parameter ->
    value) as the backward computes them."""

    def __init__(self, et: str = "f32"):
        self.g = Graph(et)
        self.grads = {}

    @property
    def params(self):
        """(ssa, shape, location name) of every parameter, in argument order."""
        return self.g.params

    def param(self, shape, name):
        """A new parameter of `shape` located at `name`."""
        return self.g.parameter(shape, name)

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
    et = g.et
    return g.elementwise([a, b], shape, [f"%one = arith.constant 1.0 : {et}", f"%n = arith.negf %b0 : {et}",
                                         f"%e = math.exp %n : {et}", f"%d = arith.addf %one, %e : {et}",
                                         f"%s = arith.divf %b0, %d : {et}", f"%r = arith.mulf %s, %b1 : {et}",
                                         f"linalg.yield %r : {et}"], loc)


def _swiglu(s: Step, x, t, h, inter, name):
    gt, cg = s.linear(x, t, h, inter, f"{name}.gate_proj")
    up, cu = s.linear(x, t, h, inter, f"{name}.up_proj")
    hm = _silu_mul(s.g, gt, up, (t, inter), f"{name}.act_fn")
    out, cd = s.linear(hm, t, inter, h, f"{name}.down_proj")
    return out, (gt, up, cg, cu, cd, t, inter, name)


def _swiglu_backward(s: Step, ctx, dout):
    """Returns the gradient of the MLP's input (the sum of the two dgrads)."""
    gt, up, cg, cu, cd, t, inter, name = ctx
    g, et = s.g, s.g.et
    dhm = s.linear_backward(cd, dout)
    sig = [f"%one = arith.constant 1.0 : {et}", f"%n = arith.negf %b1 : {et}", f"%e = math.exp %n : {et}",
           f"%d = arith.addf %one, %e : {et}", f"%sg = arith.divf %one, %d : {et}"]
    # d gate = dh * up * silu'(gate), silu'(g) = sig(g) * (1 + g * (1 - sig(g))).
    dgt = g.elementwise([dhm, gt, up], (t, inter),
                        sig + [f"%q = arith.subf %one, %sg : {et}", f"%gq = arith.mulf %b1, %q : {et}",
                               f"%p = arith.addf %one, %gq : {et}", f"%ds = arith.mulf %sg, %p : {et}",
                               f"%a = arith.mulf %b0, %b2 : {et}", f"%r = arith.mulf %a, %ds : {et}",
                               f"linalg.yield %r : {et}"],
                        f"{name}.act_fn.grad")
    dup = g.elementwise([dhm, gt], (t, inter),
                        sig + [f"%si = arith.mulf %b1, %sg : {et}", f"%r = arith.mulf %b0, %si : {et}",
                               f"linalg.yield %r : {et}"],
                        f"{name}.act_fn.grad")
    dx1 = s.linear_backward(cg, dgt)
    dx2 = s.linear_backward(cu, dup)
    return _add(g, dx1, dx2, (ctx[5], cg[3]), f"{name}.grad")


class _Heads:
    """The head layout of attention: [t, nh * hd] activations viewed as
    [batch * nh, seq, hd] (t = batch * seq tokens, HF's view + transpose(1,
    2)); with one sequence, [t, nh, hd] transposed to [nh, t, hd]."""

    def __init__(self, g: Graph, t, nh, hd, batch, name):
        self.g, self.t, self.nh, self.hd, self.b, self.name = g, t, nh, hd, batch, name
        self.s = t // batch
        self.shape = (batch * nh, self.s, hd)

    def split(self, v, loc):
        g, t, nh, hd, b, s = self.g, self.t, self.nh, self.hd, self.b, self.s
        if b == 1:
            ex = g.expand_shape(v, (t, nh * hd), [[0], [1, 2]], (t, nh, hd), loc)
            return g.transpose(ex, (t, nh, hd), (1, 0, 2), loc)
        r = g.expand_shape(v, (t, nh * hd), [[0, 1], [2, 3]], (b, s, nh, hd), loc)
        tr = g.transpose(r, (b, s, nh, hd), (0, 2, 1, 3), loc)
        return g.collapse_shape(tr, (b, nh, s, hd), [[0, 1], [2], [3]], self.shape, loc)

    def merge(self, v, loc):
        g, t, nh, hd, b, s = self.g, self.t, self.nh, self.hd, self.b, self.s
        if b == 1:
            tr = g.transpose(v, (nh, t, hd), (1, 0, 2), loc)
            return g.collapse_shape(tr, (t, nh, hd), [[0], [1, 2]], (t, nh * hd), loc)
        r = g.expand_shape(v, self.shape, [[0, 1], [2], [3]], (b, nh, s, hd), loc)
        tr = g.transpose(r, (b, nh, s, hd), (0, 2, 1, 3), loc)
        return g.collapse_shape(tr, (b, s, nh, hd), [[0, 1], [2, 3]], (t, nh * hd), loc)


def _rope(g: Graph, x, shape, cos, sin, loc, backward=False):
    """HF apply_rotary_pos_emb on [heads, seq, hd]: x * cos +
    rotate_half(x) * sin, rotate_half(x) = cat(-x2, x1) (the halves of the
    head dimension), cos/sin [seq, hd]. The backward maps dy to dy * cos +
    rotate_half^T(dy * sin), rotate_half^T(u) = cat(u2, -u1)."""
    bh, sq, hd = shape
    et = g.et
    half = (bh, sq, hd // 2)
    neg = [f"%r = arith.negf %b0 : {et}", f"linalg.yield %r : {et}"]
    mul = [f"%r = arith.mulf %b0, %b1 : {et}", f"linalg.yield %r : {et}"]
    table = ["d1", "d2"]
    u = g.elementwise([x, (sin, (sq, hd), table)], shape, mul, loc) if backward else x
    u1 = g.extract_slice(u, shape, (0, 0, 0), half, loc)
    u2 = g.extract_slice(u, shape, (0, 0, hd // 2), half, loc)
    if backward:
        rot = _concat_last(g, [u2, g.elementwise([u1], half, neg, loc)], half, loc)
        return g.elementwise([x, (cos, (sq, hd), table), rot], shape,
                             [f"%m = arith.mulf %b0, %b1 : {et}", f"%r = arith.addf %m, %b2 : {et}",
                              f"linalg.yield %r : {et}"], loc)
    rot = _concat_last(g, [g.elementwise([u2], half, neg, loc), u1], half, loc)
    return g.elementwise([x, (cos, (sq, hd), table), rot, (sin, (sq, hd), table)], shape,
                         [f"%m = arith.mulf %b0, %b1 : {et}", f"%n = arith.mulf %b2, %b3 : {et}",
                          f"%r = arith.addf %m, %n : {et}",
                          f"linalg.yield %r : {et}"], loc)


def _attention(s: Step, x, t, h, nh, name, batch=1, rope=None):
    """Causal multi-head attention of `batch` sequences of t / batch tokens;
    `rope`: (cos, sin) tables [seq, hd] applied to q and k, or None."""
    g, et = s.g, s.g.et
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
    sc = g.batch_matmul(qh, kt, bh, sq, hd, sq, f"{name}.scores")
    scale = 1.0 / math.sqrt(hd)
    # Scaled, causal mask (key j > query i gets -inf before the softmax).
    z = g.elementwise([sc], (bh, sq, sq), [f"%c = arith.constant {scale:.9e} : {et}",
                                           f"%ninf = arith.constant {g.neg_inf} : {et}",
                                           "%i = linalg.index 1 : index", "%j = linalg.index 2 : index",
                                           "%m = arith.cmpi ugt, %j, %i : index", f"%s = arith.mulf %b0, %c : {et}",
                                           f"%r = arith.select %m, %ninf, %s : {et}", f"linalg.yield %r : {et}"],
                      f"{name}.mask")
    p = _softmax(g, z, (bh, sq, sq), f"{name}.softmax")
    ah = g.batch_matmul(p, vh, bh, sq, sq, hd, f"{name}.context")
    a = heads.merge(ah, name)
    o, co = s.linear(a, t, h, h, f"{name}.o_proj")
    return o, (cq, ck, cv, co, qh, kh, vh, p, heads, scale, rope, name)


def _softmax(g: Graph, z, shape, loc):
    """Softmax over the last dimension as torch decomposes it: max, exp of
    the difference, sum, divide."""
    et = g.et
    outer = ["d0", "d1", "d2"][:len(shape) - 1]
    mx = g.reduce_last([z], shape, [f"%r = arith.maximumf %bo, %b0 : {et}", f"linalg.yield %r : {et}"], loc,
                       init=g.neg_inf)
    ex = g.elementwise([z, (mx, shape[:-1], outer)], shape,
                       [f"%d = arith.subf %b0, %b1 : {et}", f"%r = math.exp %d : {et}", f"linalg.yield %r : {et}"], loc)
    sm = g.reduce_last([ex], shape, [f"%r = arith.addf %bo, %b0 : {et}", f"linalg.yield %r : {et}"], loc)
    return g.elementwise([ex, (sm, shape[:-1], outer)], shape,
                         [f"%r = arith.divf %b0, %b1 : {et}", f"linalg.yield %r : {et}"], loc)


def _attention_backward(s: Step, ctx, do):
    cq, ck, cv, co, qh, kh, vh, p, heads, scale, rope, name = ctx
    g, et = s.g, s.g.et
    bh, sq, hd = heads.shape
    da = s.linear_backward(co, do)
    dah = heads.split(da, f"{name}.grad")
    vt = g.transpose(vh, heads.shape, (0, 2, 1), f"{name}.grad")
    dp = g.batch_matmul(dah, vt, bh, sq, hd, sq, f"{name}.context.grad")
    pt = g.transpose(p, (bh, sq, sq), (0, 2, 1), f"{name}.grad")
    dvh = g.batch_matmul(pt, dah, bh, sq, sq, hd, f"{name}.context.grad")
    # Softmax backward: dz = p * (dp - sum_j dp * p), times the scale.
    rd = g.reduce_last([dp, p], (bh, sq, sq), [f"%m = arith.mulf %b0, %b1 : {et}", f"%r = arith.addf %bo, %m : {et}",
                                               f"linalg.yield %r : {et}"], f"{name}.softmax.grad")
    ds = g.elementwise([dp, p, (rd, (bh, sq), ["d0", "d1"])], (bh, sq, sq),
                       [f"%c = arith.constant {scale:.9e} : {et}", f"%d = arith.subf %b0, %b2 : {et}",
                        f"%m = arith.mulf %b1, %d : {et}", f"%r = arith.mulf %m, %c : {et}", f"linalg.yield %r : {et}"],
                       f"{name}.softmax.grad")
    dqh = g.batch_matmul(ds, kh, bh, sq, sq, hd, f"{name}.scores.grad")
    dst = g.transpose(ds, (bh, sq, sq), (0, 2, 1), f"{name}.grad")
    dkh = g.batch_matmul(dst, qh, bh, sq, sq, hd, f"{name}.scores.grad")
    if rope is not None:
        dqh = _rope(g, dqh, heads.shape, *rope, f"{name}.rotary_emb.grad", backward=True)
        dkh = _rope(g, dkh, heads.shape, *rope, f"{name}.rotary_emb.grad", backward=True)
    dxq = s.linear_backward(cq, heads.merge(dqh, f"{name}.grad"))
    dxk = s.linear_backward(ck, heads.merge(dkh, f"{name}.grad"))
    dxv = s.linear_backward(cv, heads.merge(dvh, f"{name}.grad"))
    t, h = heads.t, heads.nh * hd
    return _add(g, _add(g, dxq, dxk, (t, h), f"{name}.grad"), dxv, (t, h), f"{name}.grad")


def _moe(s: Step, x, t, h, experts, top_k, inter, shared, name):
    g, et = s.g, s.g.et
    logits, cr = s.linear(x, t, h, experts, f"{name}.gate")
    p = _softmax(g, logits, (t, experts), f"{name}.gate.softmax")
    # Top-k: how many experts score higher; selected when fewer than k.
    acc = g.zeros((t, experts), "0.0")
    higher = g.generic([(p, (t, experts), ["d0", "d2"]), (p, (t, experts), ["d0", "d1"])], (t, experts),
                       ["d0", "d1"], ["parallel", "parallel", "reduction"],
                       [f"%one = arith.constant 1.0 : {et}", f"%zero = arith.constant 0.0 : {et}",
                        f"%gt = arith.cmpf ogt, %b0, %b1 : {et}", f"%c = arith.select %gt, %one, %zero : {et}",
                        f"%r = arith.addf %bo, %c : {et}", f"linalg.yield %r : {et}"], f"{name}.gate.topk", init=acc)
    mask = g.elementwise([higher], (t, experts), [f"%k = arith.constant {float(top_k):.9e} : {et}",
                                                  f"%one = arith.constant 1.0 : {et}",
                                                  f"%zero = arith.constant 0.0 : {et}",
                                                  f"%lt = arith.cmpf olt, %b0, %k : {et}",
                                                  f"%r = arith.select %lt, %one, %zero : {et}",
                                                  f"linalg.yield %r : {et}"],
                         f"{name}.gate.topk")
    wts = g.elementwise([p, mask], (t, experts), [f"%r = arith.mulf %b0, %b1 : {et}", f"linalg.yield %r : {et}"],
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
        body = [f"%m = arith.mulf %b0, %b1 : {et}"]
        if total is not None:
            ins.append(total)
            body.append(f"%r = arith.addf %m, %b2 : {et}")
        else:
            body.append(f"%r = arith.mulf %b0, %b1 : {et}")
        total = g.elementwise(ins, (t, h), body + [f"linalg.yield %r : {et}"], f"{name}.combine")
    return total, (cr, p, mask, wts, outs, ctxs, sctx if shared else None, t, h, experts, name)


def _moe_backward(s: Step, ctx, dm):
    cr, p, mask, wts, outs, ctxs, sctx, t, h, experts, name = ctx
    g, et = s.g, s.g.et
    dx = _swiglu_backward(s, sctx, dm) if sctx is not None else None
    dws = []
    for e in reversed(range(experts)):
        doe = g.elementwise([dm, (wts, (t, experts), ["d0", str(e)])], (t, h),
                            [f"%r = arith.mulf %b0, %b1 : {et}", f"linalg.yield %r : {et}"], f"{name}.combine.grad")
        dxe = _swiglu_backward(s, ctxs[e], doe)
        dx = dxe if dx is None else _add(g, dx, dxe, (t, h), f"{name}.grad")
        # d weight_e = sum_h dm * out_e.
        dws.append(g.reduce_last([dm, outs[e]], (t, h), [f"%m = arith.mulf %b0, %b1 : {et}",
                                                         f"%r = arith.addf %bo, %m : {et}", f"linalg.yield %r : {et}"],
                                 f"{name}.combine.grad"))
    dws.reverse()
    # Gather the per-expert columns into [t, experts], times the top-k mask.
    body = ["%e = linalg.index 1 : index", f"%acc0 = arith.constant 0.0 : {et}"]
    for e in range(experts):
        body += [f"%i{e} = arith.constant {e} : index", f"%q{e} = arith.cmpi eq, %e, %i{e} : index",
                 f"%acc{e + 1} = arith.select %q{e}, %b{e}, %acc{e} : {et}"]
    body += [f"%r = arith.mulf %acc{experts}, %b{experts} : {et}", f"linalg.yield %r : {et}"]
    dwt = g.elementwise([(d, (t,), ["d0"]) for d in dws] + [mask], (t, experts), body, f"{name}.gate.topk.grad")
    # Softmax backward.
    rd = g.reduce_last([dwt, p], (t, experts), [f"%m = arith.mulf %b0, %b1 : {et}", f"%r = arith.addf %bo, %m : {et}",
                                                f"linalg.yield %r : {et}"], f"{name}.gate.softmax.grad")
    dl = g.elementwise([dwt, p, (rd, (t,), ["d0"])], (t, experts),
                       [f"%d = arith.subf %b0, %b2 : {et}", f"%r = arith.mulf %b1, %d : {et}",
                        f"linalg.yield %r : {et}"],
                       f"{name}.gate.softmax.grad")
    dxr = s.linear_backward(cr, dl)
    return _add(g, dx, dxr, (t, h), f"{name}.grad")


def block(s: Step, x, t, h, nh, rms_eps, mlp, mlp_args, pre, batch=1, rope=None):
    """One pre-norm decoder block `x -> RMSNorm -> attention -> + x ->
    RMSNorm -> MLP -> + residual` on x [t, h] (`nh` heads; `batch`
    sequences of t / batch tokens; `rope` the (cos, sin) [seq, hd] tables
    or None), its parameters named under `pre`; `mlp` "dense" (mlp_args:
    intermediate) or "moe" (experts, top_k, intermediate, shared). Returns
    (y [t, h], the context `block_backward` reads)."""
    g = s.g
    g1 = s.param((h,), f"{pre}.input_layernorm.weight")
    n1, r1s = rms_norm(g, x, g1, t, h, rms_eps, f"{pre}.input_layernorm")
    att, actx = _attention(s, n1, t, h, nh, f"{pre}.self_attn", batch, rope)
    r1 = _add(g, x, att, (t, h), pre)
    g2 = s.param((h,), f"{pre}.post_attention_layernorm.weight")
    n2, r2s = rms_norm(g, r1, g2, t, h, rms_eps, f"{pre}.post_attention_layernorm")
    if mlp == "dense":
        m, mctx = _swiglu(s, n2, t, h, mlp_args["intermediate"], f"{pre}.mlp")
    else:
        m, mctx = _moe(s, n2, t, h, mlp_args["experts"], mlp_args["top_k"], mlp_args["intermediate"],
                       mlp_args["shared"], f"{pre}.mlp")
    y = _add(g, r1, m, (t, h), pre)
    return y, (x, g1, r1s, actx, r1, g2, r2s, mlp, mctx, t, h, pre)


def block_backward(s: Step, ctx, dy):
    """The gradient [t, h] of the block's input given dy [t, h]; the norm weights' gradients go to
    `s.grads` (the linears' already do)."""
    x, g1, r1s, actx, r1, g2, r2s, mlp, mctx, t, h, pre = ctx
    g = s.g
    dn2 = _swiglu_backward(s, mctx, dy) if mlp == "dense" else _moe_backward(s, mctx, dy)
    dr1n, dg2 = rms_norm_backward(g, dn2, r1, r2s, g2, t, h, f"{pre}.post_attention_layernorm")
    dr1 = _add(g, dy, dr1n, (t, h), f"{pre}.grad")
    dn1 = _attention_backward(s, actx, dr1)
    dxn, dg1 = rms_norm_backward(g, dn1, x, r1s, g1, t, h, f"{pre}.input_layernorm")
    dx = _add(g, dr1, dxn, (t, h), f"{pre}.grad")
    s.grads[g1], s.grads[g2] = dg1, dg2
    return dx


@dataclasses.dataclass
class Partition:
    """What a training step's backward reads of its forward (`partition`):
    `arguments`, the step's arguments other than parameters (in declaration
    order); `saved`, the forward's values (in the order the forward defines
    them); `constants`, the forward's constant ops (emitted again in the
    backward rather than passed); `params`, the parameters ((ssa, shape,
    name), in argument order)."""

    arguments: List[str]
    saved: List[str]
    constants: List[Op]
    params: List[tuple]


def partition(s: Step, forward: str = "forward", backward: str = "backward") -> Partition:
    """Splits `s` between its ops of part `forward` and part `backward` by
    what the backward's ops read (the graph's bookkeeping, not its text)."""
    g = s.g
    params = {p for p, _, _ in s.params}
    part = Partition([], [], [], [])
    read = g.reads_across(forward, backward)
    for v in read:
        op = g.defining_op(v)
        if op is None:
            if v not in params:
                part.arguments.append(v)
        elif op.constant:
            part.constants.append(op)
        elif v in g.shapes:
            part.saved.append(v)
        else:
            raise AssertionError(f"the backward reads {v} of the forward, which is not a tensor")
    part.params = [p for p in s.params if p[0] in read]
    return part


def _block_step(tokens, hidden, num_heads, mlp, rms_eps, mlp_args, split, dtype) -> str:
    tokens = _args.size("tokens", tokens)
    hidden = _args.size("hidden", hidden)
    num_heads = _args.size("num_heads", num_heads)
    if hidden % num_heads:
        raise ValueError(f"hidden ({hidden}) must be a multiple of num_heads ({num_heads})")
    if tokens * tokens * num_heads > 1 << 40:
        raise ValueError(f"tokens^2 x num_heads ({tokens}^2 x {num_heads}) exceeds 2^40 elements")
    rms_eps = _args.real("rms_eps", rms_eps, "a finite number > 0")
    split = _args.flag("split", split)
    _args.choice("dtype", dtype, ELEMENT_TYPES)
    s = Step(dtype)
    g, et = s.g, s.g.et
    t, h = tokens, hidden
    x = g.argument("%x", (t, h))
    g.part = "forward"
    y, bctx = block(s, x, t, h, num_heads, rms_eps, mlp, mlp_args, "model.layers.0")
    g.part = "backward"
    if split:
        # The backward's inputs are what its ops read of the forward: the
        # saved tensors, then the weights, then the tangent dY, as
        # aot_autograd orders @backward's arguments.
        dy = "%dy"
    else:
        scale = 2.0 / (t * h)
        dy = g.elementwise([y, "%target"], (t, h), [f"%c = arith.constant {scale:.9e} : {et}",
                                                    f"%d = arith.subf %b0, %b1 : {et}",
                                                    f"%r = arith.mulf %d, %c : {et}", f"linalg.yield %r : {et}"],
                           "loss.grad")
    dx = block_backward(s, bctx, dy)
    grads = [(dx, g.ty(t, h))] + [(s.grads[p], g.ty(*shape)) for (p, shape, _) in s.params]
    params = g.parameter_declarations()
    out = ["module {"]
    if not split:
        out += function("train_step", [f"%x: {g.ty(t, h)}", f"%target: {g.ty(t, h)}"] + params,
                        [(y, g.ty(t, h))] + grads, g.lines)
    else:
        part = partition(s)
        saved = part.arguments + part.saved
        out += function("forward", [f"%x: {g.ty(t, h)}"] + params,
                        [(y, g.ty(t, h))] + [(v, g.type_of(v)) for v in saved], g.part_lines("forward"))
        bargs = [f"{v}: {g.type_of(v)}" for v in saved] + g.parameter_declarations(part.params) + \
            [f"%dy: {g.ty(t, h)}"]
        out += function("backward", bargs, grads, [c for op in part.constants for c in op.lines] +
                        g.part_lines("backward"))
    out += ["}", ""]
    return "\n".join(out)


def llama_training_step(tokens: int = 256, hidden: int = 256, num_heads: int = 2, intermediate: int = 512,
                        rms_eps: float = 1e-6, split: bool = False, dtype: str = "f32") -> str:
    """One Llama-style decoder block's joint training step: RMSNorm, causal
    multi-head attention (q/k/v/o projections, `hidden / num_heads` per
    head; no RoPE), RMSNorm, SwiGLU MLP of `intermediate`, residuals, MSE
    loss. `@train_step(%x, %target, <7 linear weights and 2 norm weights>)
    -> (y, dx, one gradient per parameter, in argument order)`. 7 linears:
    7 fprop, 7 dgrad, 7 wgrad `linalg.matmul`s; 6 `linalg.batch_matmul`s
    (scores and context, forward and backward). `split` and `dtype` ("f32"
    or "f64") as in the module docstring. Raises ValueError for sizes
    that are not positive integers <= 2^20 or `hidden % num_heads != 0`."""
    intermediate = _args.size("intermediate", intermediate)
    return _block_step(tokens, hidden, num_heads, "dense", rms_eps, {"intermediate": intermediate},
                       split, dtype)


def moe_training_step(tokens: int = 256, hidden: int = 256, num_heads: int = 2, num_experts: int = 4,
                      top_k: int = 2, moe_intermediate: int = 128, num_shared_experts: int = 1,
                      rms_eps: float = 1e-6, split: bool = False, dtype: str = "f32") -> str:
    """One DeepSeek-style MoE decoder block's joint training step: the
    attention of `llama_training_step`, then a router linear
    (`mlp.gate`, `[num_experts, hidden]`) with softmax and top-k, a shared
    SwiGLU expert of `num_shared_experts x moe_intermediate` (none when 0)
    and `num_experts` routed SwiGLU experts of `moe_intermediate`
    (`mlp.experts.<e>`), densely dispatched (see the module docstring).
    Linears: 4 attention + 3 per expert (routed and shared) + the router,
    each with its fprop, dgrad and wgrad `linalg.matmul`. `split`, `dtype`:
    see `llama_training_step`. Raises ValueError for out-of-range sizes or
    `top_k > num_experts`."""
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
                        "shared": num_shared_experts}, split, dtype)
