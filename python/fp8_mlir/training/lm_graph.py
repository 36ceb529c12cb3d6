"""The whole training step of a decoder-only Llama-style language model as
one MLIR function, in the joint form aot_autograd exports (forward, the
loss gradient and the backward in one graph), written with the emitter of
`fp8_mlir.graph`, the layers of `fp8_mlir.layers` and the decoder block of
`fp8_mlir.training_graphs`. With
`split=True` the step is partitioned by the emitter's bookkeeping
(`training_graphs.partition`).

`@train_step(%tokens: tensor<T x i64>, %targets: tensor<T x i64>,
<parameters>) -> (loss: tensor<1 x E>, <one gradient per parameter>)`,
T = batch x seq tokens (batch sequences one after the other), E the element
type (f32, or f64 for the finite-difference oracle). The parameters are
function arguments located at Hugging Face's Llama names, in the order of
`LanguageModelConfig.parameter_shapes()`:

- `model.embed_tokens`: a gather from the [vocab, hidden] table (a generic
  with `tensor.extract`, as torch-mlir lowers aten.embedding); its gradient
  is a scatter-add of the input gradient rows into a zero table (an
  `scf.for` over the tokens, aten.embedding_dense_backward's index_put with
  accumulate);
- `layers` pre-norm blocks (`training_graphs.block`): RMSNorm with weight,
  causal multi-head attention (scale 1/sqrt(head_dim), RoPE base 10000 in
  rotate-half form on q and k, per sequence), RMSNorm, SwiGLU MLP;
- the final RMSNorm (`model.norm`) and the untied `lm_head` linear;
- softmax cross-entropy, the mean over the T tokens: `loss = mean(logsumexp
  (logits) - logits[target])` (logits[target] a gather of one logit per
  token; a target outside [0, vocab) gives a NaN loss), `dlogits =
  (softmax(logits) - onehot) / T`.

No biases; RMSNorm eps 1e-5. The RoPE tables are constants (HF's
rotary_emb buffers: inv_freq_i = 10000^(-2i/hd), positions 0..seq-1).
"""

from __future__ import annotations

import numpy as np

from ..graph import function
from ..layers import embedding, rms_norm, rms_norm_backward
from ..training_graphs import ELEMENT_TYPES, Step, block, block_backward, partition

#: RMSNorm epsilon and RoPE base of the model.
RMS_EPS = 1e-5
ROPE_BASE = 10000.0


def rope_tables(seq: int, head_dim: int):
    """cos, sin [seq, head_dim] (float64): angle(p, i) = p * base^(-2 (i mod
    hd/2) / hd), the two halves sharing their frequencies."""
    inv = ROPE_BASE ** (-np.arange(0, head_dim, 2, dtype=np.float64) / head_dim)
    ang = np.arange(seq, dtype=np.float64)[:, None] * inv[None, :]
    ang = np.concatenate([ang, ang], axis=1)
    return np.cos(ang), np.sin(ang)


def _embedding_backward(s: Step, table, dx, vocab, t, h):
    """dE[tokens[i], :] += dx[i, :] for every token, in token order."""
    g, et = s.g, s.g.et
    name = "model.embed_tokens.grad"
    zero = g.zeros((vocab, h), "0.0")
    c0, c1, ct, r = g.fresh("c"), g.fresh("c"), g.fresh("c"), g.fresh()
    acc, i, tok, row = g.fresh("a"), g.fresh("i"), g.fresh("i"), g.fresh("i")
    for c, value in ((c0, 0), (c1, 1), (ct, t)):
        g.constant(str(value), "index", name=c)
    # The loop's region is written op by op (its ops' reads recorded), then closed.
    g.emit(f"    {r} = scf.for {i} = {c0} to {ct} step {c1} iter_args({acc} = {zero}) -> ({g.ty(vocab, h)}) {{",
           [r, i, acc], [c0, ct, c1, zero], (vocab, h))
    g.emit(f"    {tok} = tensor.extract %tokens[{i}] : tensor<{t}xi64>", [tok], ["%tokens", i])
    g.emit(f"    {row} = arith.index_cast {tok} : i64 to index", [row], [tok])
    cur, drow, new = g.fresh(), g.fresh(), g.fresh()
    g.emit(f"    {cur} = tensor.extract_slice {acc}[{row}, 0] [1, {h}] [1, 1] : {g.ty(vocab, h)} to {g.ty(h)}",
           [cur], [acc, row], (h,))
    g.emit(f"    {drow} = tensor.extract_slice {dx}[{i}, 0] [1, {h}] [1, 1] : {g.ty(t, h)} to {g.ty(h)}",
           [drow], [dx, i], (h,))
    summed = g.generic([(drow, (h,), ["d0"])], (h,), ["d0"], ["parallel"],
                       [f"%r = arith.addf %bo, %b0 : {et}", f"linalg.yield %r : {et}"], name, init=cur)
    g.emit([f"    {new} = tensor.insert_slice {summed} into {acc}[{row}, 0] [1, {h}] [1, 1] : "
            f"{g.ty(h)} into {g.ty(vocab, h)}",
            f"    scf.yield {new} : {g.ty(vocab, h)}",
            f'    }} loc("{name}")'], [new], [summed, acc, row], (vocab, h))
    s.grads[table] = r


def _onehot(arg):
    """Body lines setting %hit: the column is the target token (block
    argument `arg`)."""
    return ["%v = linalg.index 1 : index", f"%ti = arith.index_cast {arg} : i64 to index",
            "%hit = arith.cmpi eq, %v, %ti : index"]


def _pick_targets(g, logits, t, vocab, name):
    """picked [t] = +0.0 + logits[t, targets[t]]: a gather (an all-parallel
    generic over the tokens whose body extracts one logit per token at the
    token's own row, `linalg.index 0`, and its target's column) reading t
    logits, not the [t, vocab] rows.

    It equals the one-hot reduction `sum_v (v == target ? logits[t, v] :
    +0.0)` from +0.0 bit for bit, in any summation order: every other term
    is +0.0, and x + +0.0 is x except for x = -0.0 (+0.0). Hence the add of
    +0.0, which no fold removes (arith folds x + -0.0 only): a -0.0 logit
    at the target picks +0.0, as the reduction did. (In the step the
    sign of a zero pick does not reach the loss, lse - z, and the head's
    matmul, accumulating from +0.0, gives no -0.0 logit: the add keeps
    the pick itself the reduction's value, which the tests compare.)

    The read is not guarded here: `fp8-guard-gathers`, which both lowering
    pipelines run on every gather, compares the column with vocab
    (unsigned, so negative targets too), reads column 0 instead of out of
    bounds and makes the logit NaN, so an out-of-range target picks NaN
    (NaN + +0.0) and the loss is NaN (the one-hot form gave 0 silently);
    `LanguageModel` checks the token ids, targets included, before a step
    runs. The role analysis takes the pick for an element pick (its row is
    the generic's own index over the targets), not an embedding gather
    from a [t, vocab] table."""
    et = g.et
    tgt = ("%targets", (t,), ["d0"], "i64")
    body = ["%row = linalg.index 0 : index", "%col = arith.index_cast %b0 : i64 to index",
            f"%z = tensor.extract {logits}[%row, %col] : {g.ty(t, vocab)}",
            f"%zero = arith.constant 0.0 : {et}", f"%p = arith.addf %zero, %z : {et}",
            f"linalg.yield %p : {et}"]
    return g.generic([tgt], (t,), ["d0"], ["parallel"], body, name, captures=[logits])


def _cross_entropy(s: Step, logits, t, vocab):
    """Returns (loss [1], what `_cross_entropy_backward` reads) of the mean
    cross-entropy."""
    g, et = s.g, s.g.et
    name = "loss"
    shape = (t, vocab)
    mx = g.reduce_last([logits], shape, [f"%r = arith.maximumf %bo, %b0 : {et}", f"linalg.yield %r : {et}"], name,
                       init=g.neg_inf)
    ex = g.elementwise([logits, (mx, (t,), ["d0"])], shape,
                       [f"%d = arith.subf %b0, %b1 : {et}", f"%r = math.exp %d : {et}", f"linalg.yield %r : {et}"],
                       name)
    se = g.reduce_last([ex], shape, [f"%r = arith.addf %bo, %b0 : {et}", f"linalg.yield %r : {et}"], name)
    picked = _pick_targets(g, logits, t, vocab, name)
    inv_t = repr(1.0 / t)
    total = g.zeros((1,), "0.0")
    loss = g.generic([(mx, (t,), ["d0"]), (se, (t,), ["d0"]), (picked, (t,), ["d0"])], (1,), ["0"], ["reduction"],
                     [f"%l = math.log %b1 : {et}", f"%lse = arith.addf %b0, %l : {et}",
                      f"%d = arith.subf %lse, %b2 : {et}",
                      f"%c = arith.constant {inv_t} : {et}", f"%m = arith.mulf %d, %c : {et}",
                      f"%r = arith.addf %bo, %m : {et}", f"linalg.yield %r : {et}"], name, init=total)
    return loss, (ex, se, t, vocab)


def _cross_entropy_backward(s: Step, ctx):
    """dlogits [t, vocab] = (softmax(logits) - onehot(targets)) / t."""
    ex, se, t, vocab = ctx
    g, et, name, shape = s.g, s.g.et, "loss", (t, vocab)
    tgt = ("%targets", (t,), ["d0"], "i64")
    inv_t = repr(1.0 / t)
    dlogits = g.elementwise([ex, (se, (t,), ["d0"]), tgt], shape,
                            _onehot("%b2") + [f"%p = arith.divf %b0, %b1 : {et}", f"%one = arith.constant 1.0 : {et}",
                                      f"%q = arith.subf %p, %one : {et}", f"%d = arith.select %hit, %q, %p : {et}",
                                      f"%c = arith.constant {inv_t} : {et}", f"%r = arith.mulf %d, %c : {et}",
                                      f"linalg.yield %r : {et}"], f"{name}.grad")
    return dlogits


def lm_training_step(config, batch: int, dtype: str = "f32", split: bool = False, private: bool = False) -> str:
    """The training step of `config` (a LanguageModelConfig) on `batch`
    sequences, element type `dtype` ("f32" or "f64"): joint (one
    @train_step), or with `split=True` @forward, @backward and the caller
    @train_step of the same signature (`_split_step`). `private=True` (the
    joint step only): @train_step private, for a module whose entry calls it
    (`lm._with_run`'s @run, into which the GPU devices inline it)."""
    if private and split:
        raise ValueError("private=True is for the joint step (split=False)")
    if dtype not in ELEMENT_TYPES:
        raise ValueError(f"element type must be one of {', '.join(ELEMENT_TYPES)}, got {dtype!r}")
    vocab, h, nh, seq = config.vocab, config.hidden, config.heads, config.seq
    t = batch * seq
    s = Step(dtype)
    g = s.g
    g.argument("%tokens")
    g.argument("%targets")
    g.part = "forward"
    cos, sin = rope_tables(seq, h // nh)
    rope = (g.dense_constant(cos, "model.rotary_emb"), g.dense_constant(sin, "model.rotary_emb"))
    x, table = embedding(s, "%tokens", t, vocab, h, "model.embed_tokens")
    ctxs = []
    for layer in range(config.layers):
        x, ctx = block(s, x, t, h, nh, RMS_EPS, "dense", {"intermediate": config.intermediate},
                       f"model.layers.{layer}", batch=batch, rope=rope)
        ctxs.append(ctx)
    gn = s.param((h,), "model.norm.weight")
    nf, rstd = rms_norm(s, x, gn, t, h, RMS_EPS, "model.norm")
    logits, head = s.linear(nf, t, h, vocab, "lm_head")
    loss, ce = _cross_entropy(s, logits, t, vocab)
    g.part = "backward"
    dlogits = _cross_entropy_backward(s, ce)
    dnf = s.linear_backward(head, dlogits)
    dx, s.grads[gn] = rms_norm_backward(g, dnf, x, rstd, gn, t, h, "model.norm")
    for ctx in reversed(ctxs):
        dx = block_backward(s, ctx, dx)
    _embedding_backward(s, table, dx, vocab, t, h)
    args = [f"%tokens: tensor<{t}xi64>", f"%targets: tensor<{t}xi64>"] + g.parameter_declarations()
    results = [(loss, g.ty(1))] + [(s.grads[p], g.ty(*shape)) for (p, shape, _) in s.params]
    if split:
        body = _split_step(s, args, results)
    else:
        body = function("train_step", args, results, g.lines, private=private)
    return "\n".join(["module {"] + body + ["}", ""])


def _split_step(s: Step, args, results):
    """The step as aot_autograd partitions it: @forward(tokens, targets,
    params) -> (loss, saved...), where `saved` are the forward's values the
    backward reads (the RoPE tables are constants, repeated in the
    backward); @backward(saved..., tokens, targets, the parameters it
    reads) -> (one gradient per parameter); and @train_step, the joint
    step's signature, calling one after the other (the linkage
    fp8-cache-activations follows)."""
    g = s.g
    part = partition(s)
    saved, params = part.saved, part.params
    consts = [line for op in part.constants for line in op.lines]
    inputs = ["%tokens", "%targets"]
    itys = [a.split(": ")[1] for a in args[:2]]
    out = function("forward", args, [results[0]] + [(v, g.type_of(v)) for v in saved], g.part_lines("forward"))
    bargs = [f"{v}: {g.type_of(v)}" for v in saved] + args[:2] + g.parameter_declarations(params)
    out += function("backward", bargs, results[1:], consts + g.part_lines("backward"))
    # The caller: @train_step(tokens, targets, params...) -> (loss, grads...).
    ptys = [g.ty(*shape) for (_, shape, _) in s.params]
    ftys = [results[0][1]] + [g.type_of(v) for v in saved]
    btys = [g.type_of(v) for v in saved] + itys + [g.ty(*shape) for (_, shape, _) in params]
    gtys = [ty for _, ty in results[1:]]
    n = len(saved)
    call = [f"    %fw:{1 + n} = func.call @forward({', '.join(inputs + [p for p, _, _ in s.params])}) : "
            f"({', '.join(itys + ptys)}) -> ({', '.join(ftys)})",
            f"    %bw:{len(gtys)} = func.call @backward("
            f"{', '.join([f'%fw#{i + 1}' for i in range(n)] + inputs + [p for p, _, _ in params])}) : "
            f"({', '.join(btys)}) -> ({', '.join(gtys)})"]
    return out + function("train_step", args, [("%fw#0", ftys[0])] + [(f"%bw#{i}", ty) for i, ty in enumerate(gtys)],
                          call)


__all__ = ["lm_training_step", "rope_tables", "RMS_EPS", "ROPE_BASE"]
