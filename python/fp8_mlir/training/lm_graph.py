"""The whole training step of a decoder-only Llama-style language model as
one MLIR function, in the joint form aot_autograd exports (forward, the
loss gradient and the backward in one graph), written with the emitters of
`fp8_mlir.training_graphs`.

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
- `layers` pre-norm blocks (`training_graphs._block`): RMSNorm with weight,
  causal multi-head attention (scale 1/sqrt(head_dim), RoPE base 10000 in
  rotate-half form on q and k, per sequence), RMSNorm, SwiGLU MLP;
- the final RMSNorm (`model.norm`) and the untied `lm_head` linear;
- softmax cross-entropy, the mean over the T tokens: `loss = mean(logsumexp
  (logits) - logits[target])`, `dlogits = (softmax(logits) - onehot) / T`.

No biases; RMSNorm eps 1e-5. The RoPE tables are constants (HF's
rotary_emb buffers: inv_freq_i = 10000^(-2i/hd), positions 0..seq-1).
"""

from __future__ import annotations

import re

import numpy as np

from ..training_graphs import _block, _block_backward, _rms_norm, _rms_norm_backward, _Step, _ty, retype

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


def _constant(g, values, name):
    """A dense f32 constant (retyped with the graph); repr keeps every
    digit of the float64 value."""
    r = g.fresh("k")
    rows = ", ".join("[" + ", ".join(repr(float(v)) for v in row) + "]" for row in values)
    g.lines.append(f'    {r} = arith.constant dense<[{rows}]> : {_ty(*values.shape)} loc("{name}")')
    return r


def _embedding(s: _Step, vocab, t, h):
    g = s.g
    table = s.param((vocab, h), "model.embed_tokens.weight")
    body = ["%i = arith.index_cast %b0 : i64 to index", "%j = linalg.index 1 : index",
            f"%r = tensor.extract {table}[%i, %j] : {_ty(vocab, h)}", "linalg.yield %r : f32"]
    x = g.generic([("%tokens", (t,), ["d0"], "i64")], (t, h), ["d0", "d1"], ["parallel", "parallel"], body,
                  "model.embed_tokens")
    return x, table


def _embedding_backward(s: _Step, table, dx, vocab, t, h):
    """dE[tokens[i], :] += dx[i, :] for every token, in token order."""
    g = s.g
    name = "model.embed_tokens.grad"
    zero = g.out((vocab, h), "0.0")
    c0, c1, ct, r = g.fresh("c"), g.fresh("c"), g.fresh("c"), g.fresh()
    acc, i, tok, row = g.fresh("a"), g.fresh("i"), g.fresh("i"), g.fresh("i")
    g.lines += [f"    {c0} = arith.constant 0 : index", f"    {c1} = arith.constant 1 : index",
                f"    {ct} = arith.constant {t} : index",
                f"    {r} = scf.for {i} = {c0} to {ct} step {c1} iter_args({acc} = {zero}) -> ({_ty(vocab, h)}) {{",
                f"    {tok} = tensor.extract %tokens[{i}] : tensor<{t}xi64>",
                f"    {row} = arith.index_cast {tok} : i64 to index"]
    cur, drow, new = g.fresh(), g.fresh(), g.fresh()
    g.lines += [f"    {cur} = tensor.extract_slice {acc}[{row}, 0] [1, {h}] [1, 1] : {_ty(vocab, h)} to {_ty(h)}",
                f"    {drow} = tensor.extract_slice {dx}[{i}, 0] [1, {h}] [1, 1] : {_ty(t, h)} to {_ty(h)}"]
    summed = g.generic([(drow, (h,), ["d0"])], (h,), ["d0"], ["parallel"],
                       ["%r = arith.addf %bo, %b0 : f32", "linalg.yield %r : f32"], name, init=cur)
    g.lines += [f"    {new} = tensor.insert_slice {summed} into {acc}[{row}, 0] [1, {h}] [1, 1] : "
                f"{_ty(h)} into {_ty(vocab, h)}",
                f"    scf.yield {new} : {_ty(vocab, h)}",
                f'    }} loc("{name}")']
    s.grads[table] = r


def _onehot(arg):
    """Body lines setting %hit: the column is the target token (block
    argument `arg`)."""
    return ["%v = linalg.index 1 : index", f"%ti = arith.index_cast {arg} : i64 to index",
            "%hit = arith.cmpi eq, %v, %ti : index"]


def _cross_entropy(s: _Step, logits, t, vocab):
    """Returns (loss [1], what `_cross_entropy_backward` reads) of the mean
    cross-entropy."""
    g = s.g
    name = "loss"
    shape = (t, vocab)
    mx = g.reduce_last([logits], shape, ["%r = arith.maximumf %bo, %b0 : f32", "linalg.yield %r : f32"], name,
                       init="0xFF800000")
    ex = g.ew([logits, (mx, (t,), ["d0"])], shape,
              ["%d = arith.subf %b0, %b1 : f32", "%r = math.exp %d : f32", "linalg.yield %r : f32"], name)
    se = g.reduce_last([ex], shape, ["%r = arith.addf %bo, %b0 : f32", "linalg.yield %r : f32"], name)
    tgt = ("%targets", (t,), ["d0"], "i64")
    acc = g.out((t,), "0.0")
    picked = g.generic([(logits, shape, ["d0", "d1"]), tgt], (t,), ["d0"], ["parallel", "reduction"],
                       _onehot("%b1") + ["%zero = arith.constant 0.0 : f32", "%p = arith.select %hit, %b0, %zero : f32",
                                 "%r = arith.addf %bo, %p : f32", "linalg.yield %r : f32"], name, init=acc)
    inv_t = repr(1.0 / t)
    total = g.out((1,), "0.0")
    loss = g.generic([(mx, (t,), ["d0"]), (se, (t,), ["d0"]), (picked, (t,), ["d0"])], (1,), ["0"], ["reduction"],
                     ["%l = math.log %b1 : f32", "%lse = arith.addf %b0, %l : f32", "%d = arith.subf %lse, %b2 : f32",
                      f"%c = arith.constant {inv_t} : f32", "%m = arith.mulf %d, %c : f32",
                      "%r = arith.addf %bo, %m : f32", "linalg.yield %r : f32"], name, init=total)
    return loss, (ex, se, t, vocab)


def _cross_entropy_backward(s: _Step, ctx):
    """dlogits [t, vocab] = (softmax(logits) - onehot(targets)) / t."""
    ex, se, t, vocab = ctx
    g, name, shape = s.g, "loss", (t, vocab)
    tgt = ("%targets", (t,), ["d0"], "i64")
    inv_t = repr(1.0 / t)
    dlogits = g.ew([ex, (se, (t,), ["d0"]), tgt], shape,
                   _onehot("%b2") + ["%p = arith.divf %b0, %b1 : f32", "%one = arith.constant 1.0 : f32",
                             "%q = arith.subf %p, %one : f32", "%d = arith.select %hit, %q, %p : f32",
                             f"%c = arith.constant {inv_t} : f32", "%r = arith.mulf %d, %c : f32",
                             "linalg.yield %r : f32"], f"{name}.grad")
    return dlogits


def lm_training_step(config, batch: int, dtype: str = "f32", split: bool = False) -> str:
    """The training step of `config` (a LanguageModelConfig) on `batch`
    sequences, element type `dtype` ("f32" or "f64"): joint (one
    @train_step), or with `split=True` @forward, @backward and the caller
    @train_step of the same signature (`_split_step`)."""
    vocab, h, nh, seq = config.vocab, config.hidden, config.heads, config.seq
    t = batch * seq
    s = _Step()
    g = s.g
    cos, sin = rope_tables(seq, h // nh)
    rope = (_constant(g, cos, "model.rotary_emb"), _constant(g, sin, "model.rotary_emb"))
    x, table = _embedding(s, vocab, t, h)
    ctxs = []
    for layer in range(config.layers):
        x, ctx = _block(s, x, t, h, nh, RMS_EPS, "dense", {"intermediate": config.intermediate},
                        f"model.layers.{layer}", batch=batch, rope=rope)
        ctxs.append(ctx)
    gn = s.param((h,), "model.norm.weight")
    nf, rstd = _rms_norm(g, x, gn, t, h, RMS_EPS, "model.norm")
    logits, head = s.linear(nf, t, h, vocab, "lm_head")
    loss, ce = _cross_entropy(s, logits, t, vocab)
    forward_lines = len(g.lines)
    dlogits = _cross_entropy_backward(s, ce)
    dnf = s.linear_backward(head, dlogits)
    dx, s.grads[gn] = _rms_norm_backward(g, dnf, x, rstd, gn, t, h, "model.norm")
    for ctx in reversed(ctxs):
        dx = _block_backward(s, ctx, dx)
    _embedding_backward(s, table, dx, vocab, t, h)
    args = [f"%tokens: tensor<{t}xi64>", f"%targets: tensor<{t}xi64>"] + \
        [f'{p}: {_ty(*shape)} loc("{name}")' for (p, shape, name) in s.params]
    results = [(loss, _ty(1))] + [(s.grads[p], _ty(*shape)) for (p, shape, _) in s.params]
    if split:
        body = _split_step(s, forward_lines, args, results)
    else:
        body = _func("train_step", args, results, g.lines)
    return retype("\n".join(["module {"] + body + ["}", ""]), dtype)


def _func(name, args, results, lines):
    """A func.func of `args` (declarations) returning `results` (value,
    type)."""
    rtys = ", ".join(ty for _, ty in results)
    return [f"  func.func @{name}({', '.join(args)}) -> ({rtys}) {{"] + lines + \
        [f"    return {', '.join(v for v, _ in results)} : {rtys}", "  }"]


def _split_step(s: _Step, forward_lines: int, args, results):
    """The step as aot_autograd partitions it: @forward(tokens, targets,
    params) -> (loss, saved...), where `saved` are the forward's values the
    backward reads (the RoPE tables are constants, repeated in the
    backward); @backward(saved..., tokens, targets, the parameters it
    reads) -> (one gradient per parameter); and @train_step, the joint
    step's signature, calling one after the other (the linkage
    fp8-cache-activations follows)."""
    g = s.g
    fwd, bwd = g.lines[:forward_lines], g.lines[forward_lines:]
    used = set(re.findall(r"%[a-z]+[0-9]+\b", "\n".join(bwd)))
    consts, saved = [], []
    for line in fwd:
        m = re.match(r"\s*(%[a-z]+[0-9]+) = ", line)
        if not m or m.group(1) not in used:
            continue
        if m.group(1) in g.types:
            saved.append(m.group(1))
        elif "arith.constant" in line:
            consts.append(line)
        else:
            raise AssertionError(f"the backward reads {m.group(1)} of the forward, of unknown type")
    params = [(p, shape, name) for (p, shape, name) in s.params if p in used]
    inputs = ["%tokens", "%targets"]
    itys = [a.split(": ")[1] for a in args[:2]]
    out = _func("forward", args, [results[0]] + [(v, g.types[v]) for v in saved], fwd)
    bargs = [f"{v}: {g.types[v]}" for v in saved] + args[:2] + \
        [f'{p}: {_ty(*shape)} loc("{name}")' for (p, shape, name) in params]
    out += _func("backward", bargs, results[1:], consts + bwd)
    # The caller: @train_step(tokens, targets, params...) -> (loss, grads...).
    ptys = [_ty(*shape) for (_, shape, _) in s.params]
    ftys = [results[0][1]] + [g.types[v] for v in saved]
    btys = [g.types[v] for v in saved] + itys + [_ty(*shape) for (_, shape, _) in params]
    gtys = [ty for _, ty in results[1:]]
    n = len(saved)
    call = [f"    %fw:{1 + n} = func.call @forward({', '.join(inputs + [p for p, _, _ in s.params])}) : "
            f"({', '.join(itys + ptys)}) -> ({', '.join(ftys)})",
            f"    %bw:{len(gtys)} = func.call @backward("
            f"{', '.join([f'%fw#{i + 1}' for i in range(n)] + inputs + [p for p, _, _ in params])}) : "
            f"({', '.join(btys)}) -> ({', '.join(gtys)})"]
    return out + _func("train_step", args, [("%fw#0", ftys[0])] + [(f"%bw#{i}", ty) for i, ty in enumerate(gtys)],
                       call)


__all__ = ["lm_training_step", "rope_tables", "RMS_EPS", "ROPE_BASE"]
