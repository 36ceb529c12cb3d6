"""The layers every graph generator of the package emits (`fp8_mlir.models`,
`fp8_mlir.training_graphs`, `fp8_mlir.training.lm_graph`), written once with
the emitter of `fp8_mlir.graph`: RMSNorm, softmax, SiLU and SwiGLU, residual
adds, RoPE and causal (grouped-query) attention, and the backward of those a
training step differentiates.

One text style for all of them: scalar constants inline in the bodies of
the `linalg.generic`s that use them, accumulators as `tensor.empty` +
`linalg.fill` of an inline constant (`Graph.zeros`), transposes as
`linalg.transpose`, every `nn.Linear` as `linalg.transpose` of its `[out,
in]` weight + `linalg.matmul` (`Builder.linear`).

A layer is given a `Builder`: the graph (`g`), where the trained parameters
come from (`param`: function arguments, or a model generator's splat
constants and flat-buffer views) and how a sub-step of a layer is located
(`loc`): a training step names it (`...self_attn.scores`), a model graph
locates every op of a module at the module's path as torch-mlir does
(`...self_attn`), which is the location precision overrides and the
report's rows name.
"""

from __future__ import annotations

import math
from typing import Optional, Sequence

from .graph import Graph

__all__ = ["Builder", "Heads", "add", "attention", "attention_backward", "concat_last", "embedding", "rms_norm",
           "rms_norm_backward", "rope", "silu_mul", "softmax", "swiglu", "swiglu_backward"]


class Builder:
    """A graph being emitted (`g`) and how its layers get their parameters
    and locations. `sublocations`: a layer's sub-steps are located at
    `name.step` (True) or at the layer's `name` (False)."""

    sublocations = True

    def __init__(self, g: Graph):
        self.g = g

    def loc(self, name: str, step: str) -> str:
        """The location of sub-step `step` of the layer located at `name`."""
        return f"{name}.{step}" if self.sublocations else name

    def param(self, shape: Sequence[int], name: str) -> str:
        """A new parameter of `shape` located at `name` (a function argument)."""
        return self.g.parameter(shape, name)

    def linear(self, x, t, k, n, name, weight: Optional[str] = None):
        """Forward of nn.Linear without bias on x [t, k]: the weight [n, k]
        (`weight`, e.g. a tied table, or a new parameter `name.weight`),
        transposed, then `linalg.matmul`. Returns (y [t, n], the context
        a training step's `linear_backward` reads)."""
        w = weight or self.param((n, k), f"{name}.weight")
        wt = self.g.transpose(w, (n, k), (1, 0), name)
        return self.g.matmul(x, wt, t, k, n, name), (w, x, t, k, n, name)


def concat_last(g: Graph, parts, shape, loc):
    """torch.cat along the last dimension: `parts` (values with `shape`'s
    leading sizes) inserted side by side into one tensor."""
    full = list(shape[:-1]) + [shape[-1] * len(parts)]
    r = g.zeros(full)
    for i, p in enumerate(parts):
        offsets = [0] * (len(shape) - 1) + [i * shape[-1]]
        r = g.insert_slice(p, r, shape, offsets, full, loc)
    return r


def add(g: Graph, a, b, shape, loc):
    """a + b elementwise (a residual)."""
    et = g.et
    return g.elementwise([a, b], shape, [f"%r = arith.addf %b0, %b1 : {et}", f"linalg.yield %r : {et}"], loc)


def embedding(s: Builder, ids, t, vocab, h, name):
    """HF embed_tokens on ids [t] (i64): a gather from a new [vocab, h]
    table `name.weight`, a generic with `tensor.extract` as torch-mlir
    lowers aten.embedding. Returns (x [t, h], the table)."""
    g = s.g
    table = s.param((vocab, h), f"{name}.weight")
    body = ["%i = arith.index_cast %b0 : i64 to index", "%j = linalg.index 1 : index",
            f"%r = tensor.extract {table}[%i, %j] : {g.ty(vocab, h)}", f"linalg.yield %r : {g.et}"]
    x = g.generic([(ids, (t,), ["d0"], "i64")], (t, h), ["d0", "d1"], ["parallel", "parallel"], body, name,
                  captures=[table])
    return x, table


# -- RMSNorm -------------------------------------------------------------------


def rms_norm(s: Builder, x, gamma, t, h, eps, name):
    """HF LlamaRMSNorm of x [t, h] with weight gamma [h]: x * rsqrt(mean(x^2)
    + eps) * gamma; returns (n [t, h], rstd [t]) (rstd for `rms_norm_backward`)."""
    g, et = s.g, s.g.et
    ss = g.reduce_last([x], (t, h), [f"%s = arith.mulf %b0, %b0 : {et}", f"%a = arith.addf %bo, %s : {et}",
                                     f"linalg.yield %a : {et}"], s.loc(name, "sumsq"))
    rstd = g.elementwise([ss], (t,), [f"%n = arith.constant {1.0 / h:.9e} : {et}",
                                      f"%e = arith.constant {eps:.9e} : {et}",
                                      f"%m = arith.mulf %b0, %n : {et}", f"%a = arith.addf %m, %e : {et}",
                                      f"%r = math.rsqrt %a : {et}", f"linalg.yield %r : {et}"], s.loc(name, "rstd"))
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


# -- softmax, SiLU, SwiGLU -----------------------------------------------------------


def softmax(g: Graph, z, shape, loc):
    """Softmax over the last dimension as torch decomposes it: max (from
    -inf), exp of the difference, sum, divide."""
    et = g.et
    outer = ["d0", "d1", "d2"][:len(shape) - 1]
    mx = g.reduce_last([z], shape, [f"%r = arith.maximumf %bo, %b0 : {et}", f"linalg.yield %r : {et}"], loc,
                       init=g.neg_inf)
    ex = g.elementwise([z, (mx, shape[:-1], outer)], shape,
                       [f"%d = arith.subf %b0, %b1 : {et}", f"%r = math.exp %d : {et}", f"linalg.yield %r : {et}"], loc)
    sm = g.reduce_last([ex], shape, [f"%r = arith.addf %bo, %b0 : {et}", f"linalg.yield %r : {et}"], loc)
    return g.elementwise([ex, (sm, shape[:-1], outer)], shape,
                         [f"%r = arith.divf %b0, %b1 : {et}", f"linalg.yield %r : {et}"], loc)


def silu_mul(g: Graph, a, b, shape, loc):
    """silu(a) * b = a / (1 + exp(-a)) * b (torch's decomposition), any rank."""
    et = g.et
    return g.elementwise([a, b], shape, [f"%one = arith.constant 1.0 : {et}", f"%n = arith.negf %b0 : {et}",
                                         f"%e = math.exp %n : {et}", f"%d = arith.addf %one, %e : {et}",
                                         f"%s = arith.divf %b0, %d : {et}", f"%r = arith.mulf %s, %b1 : {et}",
                                         f"linalg.yield %r : {et}"], loc)


def swiglu(s: Builder, x, t, h, inter, name):
    """HF LlamaMLP on x [t, h]: down(silu(gate(x)) * up(x)); returns (out
    [t, h], the context `swiglu_backward` reads)."""
    gt, cg = s.linear(x, t, h, inter, f"{name}.gate_proj")
    up, cu = s.linear(x, t, h, inter, f"{name}.up_proj")
    hm = silu_mul(s.g, gt, up, (t, inter), f"{name}.act_fn")
    out, cd = s.linear(hm, t, inter, h, f"{name}.down_proj")
    return out, (gt, up, cg, cu, cd, t, inter, name)


def swiglu_backward(s, ctx, dout):
    """The gradient of the MLP's input (the sum of the two dgrads); `s` a
    training step (its `linear_backward` records the weights' gradients)."""
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
    return add(g, dx1, dx2, (ctx[5], cg[3]), f"{name}.grad")


# -- attention -----------------------------------------------------------------


class Heads:
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


def rope(g: Graph, x, shape, cos, sin, loc, backward=False):
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
        rot = concat_last(g, [u2, g.elementwise([u1], half, neg, loc)], half, loc)
        return g.elementwise([x, (cos, (sq, hd), table), rot], shape,
                             [f"%m = arith.mulf %b0, %b1 : {et}", f"%r = arith.addf %m, %b2 : {et}",
                              f"linalg.yield %r : {et}"], loc)
    rot = concat_last(g, [g.elementwise([u2], half, neg, loc), u1], half, loc)
    return g.elementwise([x, (cos, (sq, hd), table), rot, (sin, (sq, hd), table)], shape,
                         [f"%m = arith.mulf %b0, %b1 : {et}", f"%n = arith.mulf %b2, %b3 : {et}",
                          f"%r = arith.addf %m, %n : {et}",
                          f"linalg.yield %r : {et}"], loc)


def _repeat_kv(g: Graph, v, nkv, rep, s, hd, loc):
    """HF repeat_kv: each of the nkv key/value heads [nkv, s, hd] repeated
    for its `rep` query heads, [nkv * rep, s, hd]."""
    et = g.et
    b = g.generic([(v, (nkv, s, hd), ["d0", "d2", "d3"])], (nkv, rep, s, hd), ["d0", "d1", "d2", "d3"],
                  ["parallel"] * 4, [f"linalg.yield %b0 : {et}"], loc)
    return g.collapse_shape(b, (nkv, rep, s, hd), [[0, 1], [2], [3]], (nkv * rep, s, hd), loc)


def attention(s: Builder, x, t, h, nh, name, batch=1, rope_tables=None, num_kv_heads=None, head_dim=None):
    """Causal multi-head attention (HF LlamaAttention) on x [t, h] of
    `batch` sequences of t / batch tokens: `nh` query heads of `head_dim`
    (default h / nh), `num_kv_heads` key/value heads (default nh; fewer:
    grouped-query attention, each repeated for its query heads);
    `rope_tables`: (cos, sin) [seq, hd] applied to q and k, or None.
    Returns (out [t, h], the context `attention_backward` reads)."""
    g, et = s.g, s.g.et
    hd = head_dim or h // nh
    nkv = num_kv_heads or nh
    heads = Heads(g, t, nh, hd, batch, name)
    kv_heads = heads if nkv == nh else Heads(g, t, nkv, hd, batch, name)
    bh, sq = heads.shape[0], heads.s
    q, cq = s.linear(x, t, h, nh * hd, f"{name}.q_proj")
    k, ck = s.linear(x, t, h, nkv * hd, f"{name}.k_proj")
    v, cv = s.linear(x, t, h, nkv * hd, f"{name}.v_proj")
    qh = heads.split(q, name)
    kh = kv_heads.split(k, name)
    vh = kv_heads.split(v, name)
    if rope_tables is not None:
        qh = rope(g, qh, heads.shape, *rope_tables, f"{name}.rotary_emb")
        kh = rope(g, kh, kv_heads.shape, *rope_tables, f"{name}.rotary_emb")
    if nkv != nh:
        if batch != 1:
            raise ValueError("grouped-query attention is emitted for one sequence (batch 1)")
        kh = _repeat_kv(g, kh, nkv, nh // nkv, sq, hd, name)
        vh = _repeat_kv(g, vh, nkv, nh // nkv, sq, hd, name)
    kt = g.transpose(kh, heads.shape, (0, 2, 1), name)
    sc = g.batch_matmul(qh, kt, bh, sq, hd, sq, s.loc(name, "scores"))
    scale = 1.0 / math.sqrt(hd)
    # Scaled, causal mask (key j > query i gets -inf before the softmax).
    z = g.elementwise([sc], (bh, sq, sq), [f"%c = arith.constant {scale:.9e} : {et}",
                                           f"%ninf = arith.constant {g.neg_inf} : {et}",
                                           "%i = linalg.index 1 : index", "%j = linalg.index 2 : index",
                                           "%m = arith.cmpi ugt, %j, %i : index", f"%s = arith.mulf %b0, %c : {et}",
                                           f"%r = arith.select %m, %ninf, %s : {et}", f"linalg.yield %r : {et}"],
                      s.loc(name, "mask"))
    p = softmax(g, z, (bh, sq, sq), s.loc(name, "softmax"))
    ah = g.batch_matmul(p, vh, bh, sq, sq, hd, s.loc(name, "context"))
    a = heads.merge(ah, name)
    o, co = s.linear(a, t, nh * hd, h, f"{name}.o_proj")
    return o, (cq, ck, cv, co, qh, kh, vh, p, heads, scale, rope_tables, name, nkv)


def attention_backward(s, ctx, do):
    """The gradient of the attention's input given do [t, h] (multi-head
    attention only); `s` a training step."""
    cq, ck, cv, co, qh, kh, vh, p, heads, scale, rope_tables, name, nkv = ctx
    if nkv != heads.nh:
        raise ValueError("the backward of grouped-query attention is not emitted")
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
    if rope_tables is not None:
        dqh = rope(g, dqh, heads.shape, *rope_tables, f"{name}.rotary_emb.grad", backward=True)
        dkh = rope(g, dkh, heads.shape, *rope_tables, f"{name}.rotary_emb.grad", backward=True)
    dxq = s.linear_backward(cq, heads.merge(dqh, f"{name}.grad"))
    dxk = s.linear_backward(ck, heads.merge(dkh, f"{name}.grad"))
    dxv = s.linear_backward(cv, heads.merge(dvh, f"{name}.grad"))
    t, h = heads.t, heads.nh * hd
    return add(g, add(g, dxq, dxk, (t, h), f"{name}.grad"), dxv, (t, h), f"{name}.grad")
