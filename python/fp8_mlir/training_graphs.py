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
scalar f64). RMSNorm, attention, SwiGLU and their backward are the layers
of `fp8_mlir.layers` (shared with `fp8_mlir.models`); `block` and
`block_backward` on a `Step` are public for `fp8_mlir.training.lm_graph`.

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
from typing import List

from . import _args
from .graph import Graph, Op, function
from .layers import (Builder, add, attention, attention_backward, rms_norm, rms_norm_backward, softmax, swiglu,
                     swiglu_backward)

#: Element types of a training step: f32, and f64 (the graph a
#: finite-difference oracle checks in double precision).
ELEMENT_TYPES = ("f32", "f64")

_MAX_SIZE = _args.MAX_SIZE


class Step(Builder):
    """One training step being emitted: its `Graph` (`g`, element type
    `et`), whose `params` are the trained parameters (function arguments
    `%w{i}`, `param`), and the gradient of each parameter (`grads`:
    parameter -> value) as the backward computes them. Its layers' sub-steps
    are located `name.step` (`Builder.loc`)."""

    def __init__(self, et: str = "f32"):
        super().__init__(Graph(et))
        self.grads = {}

    @property
    def params(self):
        """(ssa, shape, location name) of every parameter, in argument order."""
        return self.g.params

    def linear_backward(self, ctx, dy, need_dx=True):
        w, x, t, k, n, name = ctx
        dx = self.g.matmul(dy, w, t, n, k, f"{name}.dgrad") if need_dx else None
        dyt = self.g.transpose(dy, (t, n), (1, 0), f"{name}.wgrad")
        self.grads[w] = self.g.matmul(dyt, x, n, t, k, f"{name}.wgrad")
        return dx


def _moe(s: Step, x, t, h, experts, top_k, inter, shared, name):
    g, et = s.g, s.g.et
    logits, cr = s.linear(x, t, h, experts, f"{name}.gate")
    p = softmax(g, logits, (t, experts), f"{name}.gate.softmax")
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
        total, sctx = swiglu(s, x, t, h, inter * shared, f"{name}.shared_experts")
    for e in range(experts):
        oe, ce = swiglu(s, x, t, h, inter, f"{name}.experts.{e}")
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
    dx = swiglu_backward(s, sctx, dm) if sctx is not None else None
    dws = []
    for e in reversed(range(experts)):
        doe = g.elementwise([dm, (wts, (t, experts), ["d0", str(e)])], (t, h),
                            [f"%r = arith.mulf %b0, %b1 : {et}", f"linalg.yield %r : {et}"], f"{name}.combine.grad")
        dxe = swiglu_backward(s, ctxs[e], doe)
        dx = dxe if dx is None else add(g, dx, dxe, (t, h), f"{name}.grad")
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
    return add(g, dx, dxr, (t, h), f"{name}.grad")


def block(s: Step, x, t, h, nh, rms_eps, mlp, mlp_args, pre, batch=1, rope=None):
    """One pre-norm decoder block `x -> RMSNorm -> attention -> + x ->
    RMSNorm -> MLP -> + residual` on x [t, h] (`nh` heads; `batch`
    sequences of t / batch tokens; `rope` the (cos, sin) [seq, hd] tables
    or None), its parameters named under `pre`; `mlp` "dense" (mlp_args:
    intermediate) or "moe" (experts, top_k, intermediate, shared). Returns
    (y [t, h], the context `block_backward` reads)."""
    g = s.g
    g1 = s.param((h,), f"{pre}.input_layernorm.weight")
    n1, r1s = rms_norm(s, x, g1, t, h, rms_eps, f"{pre}.input_layernorm")
    att, actx = attention(s, n1, t, h, nh, f"{pre}.self_attn", batch, rope)
    r1 = add(g, x, att, (t, h), pre)
    g2 = s.param((h,), f"{pre}.post_attention_layernorm.weight")
    n2, r2s = rms_norm(s, r1, g2, t, h, rms_eps, f"{pre}.post_attention_layernorm")
    if mlp == "dense":
        m, mctx = swiglu(s, n2, t, h, mlp_args["intermediate"], f"{pre}.mlp")
    else:
        m, mctx = _moe(s, n2, t, h, mlp_args["experts"], mlp_args["top_k"], mlp_args["intermediate"],
                       mlp_args["shared"], f"{pre}.mlp")
    y = add(g, r1, m, (t, h), pre)
    return y, (x, g1, r1s, actx, r1, g2, r2s, mlp, mctx, t, h, pre)


def block_backward(s: Step, ctx, dy):
    """The gradient [t, h] of the block's input given dy [t, h]; the norm weights' gradients go to
    `s.grads` (the linears' already do)."""
    x, g1, r1s, actx, r1, g2, r2s, mlp, mctx, t, h, pre = ctx
    g = s.g
    dn2 = swiglu_backward(s, mctx, dy) if mlp == "dense" else _moe_backward(s, mctx, dy)
    dr1n, dg2 = rms_norm_backward(g, dn2, r1, r2s, g2, t, h, f"{pre}.post_attention_layernorm")
    dr1 = add(g, dy, dr1n, (t, h), f"{pre}.grad")
    dn1 = attention_backward(s, actx, dr1)
    dxn, dg1 = rms_norm_backward(g, dn1, x, r1s, g1, t, h, f"{pre}.input_layernorm")
    dx = add(g, dr1, dxn, (t, h), f"{pre}.grad")
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
