"""`LanguageModel(device=...)`: the language model's training step as the
host program of fp8-gpu-pipeline{host=llvm}, on the emulated CUDA runtime
("gpu-emulator") or a GPU ("cuda"), trained with the CPU's AdamW.

The oracle is the CPU step (`device="cpu"`, fp8-cpu-pipeline), whose
numerics the rest of the suite checks against NumPy: two AdamW steps
from the same weights on the same batches give the same losses, gradients
and weights bit for bit. The host<->device bytes of one step, counted by
the emulated runtime, are derived by hand from the model's sizes: the step
really ran on the device, and what crosses is what the design says (every
parameter in, every gradient out: nothing is resident between calls).

`LanguageModel.trainer` (the weights, gradients and BF16 moments resident
on the device, the clipping's global norm and AdamW's update as kernels)
trains as the CPU loop too, its losses, norms, weights and moments equal
bit for bit over three steps with the clipping active and inactive, with
only the tokens in and the loss and the norm out per step.

Markers: `cuda_driver` (a machine without a GPU: device="cuda" is the
backend's RuntimeError), `cuda_device` (an sm_90a GPU: the same parity
against the CPU with Hopper's accumulation model); test/Python runs each
group in a lit test that REQUIRES what it needs."""

import ctypes

import numpy as np
import pytest

from fp8_mlir import jit
from fp8_mlir._numerics import emulator
from fp8_mlir.compiler import MLIRError
from fp8_mlir.jit import gpu_pipeline
from fp8_mlir.training import LanguageModel, LanguageModelConfig, device, optim, optim_graph
from fp8_mlir.training.lm import GPU_PIPELINES

from conftest import load_example, require_passes

pytestmark = require_passes("fp8-pipeline", "fp8-cpu-pipeline", "fp8-gpu-pipeline")

# The smallest model the kernels take (hidden and intermediate multiples of
# the 128-wide FP8 blocks; one head of 128) and one sequence of 128 tokens:
# the emulator interprets every thread.
CFG = LanguageModelConfig(vocab=256, layers=1, hidden=128, heads=1, intermediate=256, seq=128)
BATCH = 1
STEPS = 2


def _batches():
    rng = np.random.default_rng(7)
    return [rng.integers(0, CFG.vocab, size=(BATCH, CFG.seq + 1)) for _ in range(STEPS)]


def _schedule():
    return optim.Schedule(peak_lr=3e-3, warmup_steps=2, total_steps=STEPS)


# Clipping at 0.5: the test model's gradient norms are about 1.7 and 1.6
# (the clipping factor applies at both steps), weight decay on all but the
# norms.
ADAMW = dict(weight_decay=0.1, clip_norm=0.5, moment_dtype="bf16")


def _train(model, init, batches, opt=None):
    """STEPS AdamW steps (BF16 moments, clipping, warmup); the losses, the
    first step's gradients and the final weights (and the optimizer)."""
    opt = opt or optim.AdamW(init, _schedule(), **ADAMW)
    losses, first = [], None
    for tokens in batches:
        loss, grads = model.loss_and_grads(opt.params, tokens)
        losses.append(loss)
        first = first or grads
        opt.step(grads)
    return losses, first, opt.params


def _same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a.view(np.uint32), b.view(np.uint32))


def _parity(device, **options):
    cpu = LanguageModel(CFG, "deepseek-v3", **options)
    dev = LanguageModel(CFG, "deepseek-v3", device=device, **options)
    init = cpu.init(0)
    batches = _batches()
    cpu_losses, cpu_grads, cpu_params = _train(cpu, init, batches)
    dev_losses, dev_grads, dev_params = _train(dev, init, batches)
    assert dev_losses == cpu_losses
    # The step moved the weights (a step that changed nothing would agree
    # trivially), and the loss is about ln(vocab) at initialisation.
    assert abs(cpu_losses[0] - np.log(CFG.vocab)) < 0.1
    assert not np.array_equal(cpu_params["lm_head.weight"], init["lm_head.weight"])
    for name in init:
        assert _same_bits(dev_grads[name], cpu_grads[name]), name
        assert _same_bits(dev_params[name], cpu_params[name]), name


def test_emulator_trains_as_the_cpu():
    _parity("gpu-emulator")


# Three steps: the moments and the bias corrections past their first step.
RESIDENT_STEPS = 3


@pytest.mark.parametrize("clip_norm", [0.5, None], ids=["clipped", "unclipped"])
def test_emulator_resident_state_trains_as_the_cpu(clip_norm):
    """LanguageModel.trainer: weights, gradients and BF16 moments resident
    on the device, the norm and the update as kernels; per step only the
    tokens go in, the loss and the norm come out (nothing else: the
    gradients stay); the losses, the norms and after the steps the weights
    and the moments equal the CPU loop's bit for bit. The clipping factor
    applies at every step with clip_norm 0.5 (norms about 1.7); None: no
    clipping (the factor 1 of a limit of +inf)."""
    cpu = LanguageModel(CFG, "deepseek-v3")
    dev = LanguageModel(CFG, "deepseek-v3", device="gpu-emulator")
    init = cpu.init(0)
    rng = np.random.default_rng(7)
    batches = [rng.integers(0, CFG.vocab, size=(BATCH, CFG.seq + 1)) for _ in range(RESIDENT_STEPS)]
    adamw = dict(ADAMW, clip_norm=clip_norm)
    sched = optim.Schedule(peak_lr=3e-3, warmup_steps=2, total_steps=RESIDENT_STEPS)
    opt = optim.AdamW(init, sched, **adamw)
    cpu_losses, cpu_norms = [], []
    for tokens in batches:
        loss, grads = cpu.loss_and_grads(opt.params, tokens)
        opt.step(grads)
        cpu_losses.append(loss)
        cpu_norms.append(opt.last_grad_norm)
    if clip_norm is not None:
        assert min(cpu_norms) > clip_norm, cpu_norms  # the factor applied at every step
    trainer = dev.trainer(init, sched, **adamw)
    dev.compiled(BATCH)
    losses, norms = [], []
    for tokens in batches:
        _transfer_bytes(0), _transfer_bytes(1)
        losses.append(trainer.step(tokens))
        norms.append(trainer.last_grad_norm)
        assert _transfer_bytes(0) == 2 * 8 * BATCH * CFG.seq  # the tokens: inputs and targets, i64
        assert _transfer_bytes(1) == 4 + 4  # the loss and the norm, f32
    assert losses == cpu_losses and norms == cpu_norms
    assert trainer.t == opt.t and trainer.last_lr == opt.last_lr
    params = trainer.params()
    m, v = trainer.moments()
    for name in init:
        assert _same_bits(params[name], opt.params[name]), name
        assert _same_bits(m[name], opt.m[name]), name
        assert _same_bits(v[name], opt.v[name]), name
    trainer.close()
    with pytest.raises(ValueError, match="closed"):
        trainer.params()


def _grad_norm(module, grads, max_norm):
    rows = [optim_graph.norm_rows(g.shape) for g in grads]
    norm, coef = np.zeros(1, np.float32), np.zeros(1, np.float32)
    module.grad_norm(*(g.reshape(r) for g, r in zip(grads, rows)), max_norm, norm, coef)
    return norm[0], coef[0]


def test_emulator_norm_is_the_cpus():
    """@grad_norm on the emulator and on the CPU (optim.norm_and_factor):
    the same bits, on rows of lengths that are and are not multiples of
    the 32 lanes (tails: rows of 100, and (40, 96)'s 40 row sums added as
    one row), and shorter than them (rows of 7: sequential sums), clipping
    and not."""
    rng = np.random.default_rng(11)
    shapes = [(256, 128), (128,), (3, 5, 7), (40, 96), (6, 100)]
    grads = [(0.05 * rng.standard_normal(s)).astype(np.float32) for s in shapes]
    rows = [optim_graph.norm_rows(s) for s in shapes]
    module = jit(optim_graph.update_module(rows, [], "bf16"), GPU_PIPELINES["gpu-emulator"], target="gpu-emulator")
    for max_norm in (0.5, 100.0, None):
        limit = np.inf if max_norm is None else max_norm
        dev_norm, dev_coef = _grad_norm(module, grads, limit)
        cpu_norm, cpu_coef = optim.norm_and_factor(dict(enumerate(grads)), max_norm)
        assert dev_norm.view(np.uint32) == np.float32(cpu_norm).view(np.uint32)
        assert dev_coef.view(np.uint32) == cpu_coef.view(np.uint32)
        assert (dev_coef < 1) == (max_norm == 0.5)


def test_trainer_refuses_non_finite_gradients():
    """An inf in a resident gradient: DeviceTrainer.step's norm is inf, the
    error names the gradient (read back only then), and nothing is updated."""
    model = LanguageModel(CFG, "deepseek-v3", device="gpu-emulator")
    init = model.init(0)
    trainer = model.trainer(init, _schedule(), **ADAMW)
    bad = np.zeros(CFG.hidden, np.float32)
    bad[3] = np.inf
    name = "model.norm.weight"
    with trainer._rt.session():
        trainer._rt.lib.mgpuMemcpy(trainer._g[name].ctypes.data, bad.ctypes.data, bad.nbytes, None)
    with pytest.raises(FloatingPointError, match=f"DeviceTrainer.step: non-finite gradients in {name}$"):
        trainer._update_state()
    assert trainer.t == 0 and trainer.last_grad_norm is None
    params = trainer.params()
    trainer.close()
    for k in init:
        assert _same_bits(params[k], init[k]), k


@pytest.mark.parametrize("clip_norm", [0, -1.0, float("nan"), float("inf")])
def test_trainer_refuses_a_bad_clip_norm(clip_norm):
    model = LanguageModel(CFG, "deepseek-v3", device="gpu-emulator")
    with pytest.raises(ValueError, match="clip_norm must be a finite number > 0, or None"):
        model.trainer(model.init(0), _schedule(), clip_norm=clip_norm)


@pytest.mark.parametrize("moment_dtype", ["bf16", "f32"])
def test_update_kernels_are_adamw(moment_dtype):
    """The update kernels alone (optim_graph's @adamw_0 on the emulator,
    host arrays) against optim.AdamW over three steps of one weight: no
    clipping (a factor of 1), weight decay, both moment types."""
    shape = (128, 256)
    rng = np.random.default_rng(3)
    w = (0.02 * rng.standard_normal(shape)).astype(np.float32)
    grads = [(0.01 * rng.standard_normal(shape)).astype(np.float32) for _ in range(3)]
    opt = optim.AdamW({"w": w}, 1e-3, clip_norm=None, weight_decay=0.1, moment_dtype=moment_dtype)
    moment, mdt = device._MOMENT_TYPES[moment_dtype]
    module = jit(optim_graph.update_module([], [shape], moment), GPU_PIPELINES["gpu-emulator"], target="gpu-emulator")
    p, m, v = w.copy(), np.zeros(shape, mdt), np.zeros(shape, mdt)
    one = np.float32(1)
    for t, g in enumerate(grads, 1):
        opt.step({"w": g})
        b1, b2 = opt.beta1, opt.beta2
        module.adamw_0(p, g, m, v, np.ones(1, np.float32), float(np.float32(1.0 - 1e-3 * 0.1)), float(b1),
                       float(one - b1), float(b2), float(one - b2), float(np.float32(1.0 - float(b1) ** t)),
                       float(np.float32(1.0 - float(b2) ** t)), float(opt.eps), float(np.float32(1e-3)))
    as_f32 = (lambda a: (a.astype(np.uint32) << np.uint32(16)).view(np.float32)) if moment_dtype == "bf16" else \
        (lambda a: a)
    assert _same_bits(p, opt.params["w"])
    assert _same_bits(as_f32(m), opt.m["w"]) and _same_bits(as_f32(v), opt.v["w"])


def test_trainer_needs_a_gpu_device():
    with pytest.raises(ValueError, match="on the CPU use"):
        LanguageModel(CFG, "deepseek-v3").trainer({}, 1e-3)


# A function whose one op has no kernel with the host's bits (an f64 body):
# destination-passing like optim_graph's, so a caller passes device buffers.
_F64_SQUARE = """
#id = affine_map<(d0) -> (d0)>
func.func @square(%x: memref<8xf32>, %y: memref<8xf32>) {
  %t = bufferization.to_tensor %x restrict : memref<8xf32> to tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%t : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %d = arith.extf %a : f32 to f64
    %m = arith.mulf %d, %d : f64
    %s = arith.truncf %m : f64 to f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  bufferization.materialize_in_destination %r in restrict writable %y : (tensor<8xf32>, memref<8xf32>) -> ()
  return
}
"""


def test_require_kernels_refuses_a_host_op():
    """The devices' pipeline (require-kernels) refuses an op that would run
    on the host: the compile fails naming the op and why. Without the error
    (before fp8-outline-host-kernels took the option) it compiled, and the
    call on device buffers (DeviceTrainer's) ran a host loop over device
    memory: a segmentation fault of the JIT-compiled call."""
    with pytest.raises(MLIRError) as err:
        jit(_F64_SQUARE, GPU_PIPELINES["gpu-emulator"], target="gpu-emulator")
    message = str(err.value) + err.value.rendered
    assert "'linalg.generic' op cannot run on the host (fp8-outline-host-kernels, require-kernels" in message
    assert "arith.extf is not f32 arithmetic" in message
    # Without require-kernels the op stays on the host and a call with host
    # arrays still computes it there.
    module = jit(_F64_SQUARE, gpu_pipeline("gpu-emulator"), target="gpu-emulator")
    x = np.arange(8, dtype=np.float32)
    y = np.zeros(8, np.float32)
    module.call("square", x, y)
    assert np.array_equal(y, x * x)


def _transfer_bytes(direction):
    lib = emulator.GPU_BACKENDS["gpu-emulator"].runtime()
    lib.fp8_mgpu_transfer_bytes.argtypes = [ctypes.c_int32]
    lib.fp8_mgpu_transfer_bytes.restype = ctypes.c_uint64
    return lib.fp8_mgpu_transfer_bytes(direction)


def test_emulator_step_transfers():
    model = LanguageModel(CFG, "deepseek-v3", device="gpu-emulator")
    params = model.init(1)
    tokens = _batches()[0]
    # Compiled (and its kernels loaded) before counting. The module is @run
    # alone: the upstream inliner put the private @train_step into it and
    # symbol-dce dropped it (a public one would be compiled too, unused).
    assert set(model.compiled(BATCH).functions) == {"run"}
    _transfer_bytes(0), _transfer_bytes(1)
    model.loss_and_grads(params, tokens)
    to_device, to_host = _transfer_bytes(0), _transfer_bytes(1)
    # By hand: vocab x hidden for the embedding and the head, four
    # hidden x hidden projections, three hidden x intermediate MLP weights,
    # three norm weights of hidden; f32.
    h, i, v = CFG.hidden, CFG.intermediate, CFG.vocab
    param_bytes = 4 * (2 * v * h + 4 * h * h + 3 * h * i + 3 * h)
    assert param_bytes == 4 * sum(a.size for a in params.values())
    tokens_bytes = 2 * 8 * BATCH * CFG.seq  # inputs and targets, i64
    # No activation crosses, and each result once: the step is the
    # destination-passing @run itself, @train_step inlined into it (a @run
    # calling @train_step would get the results on the host and copy them
    # to the device and back again).
    assert to_device == tokens_bytes + param_bytes
    assert to_host == 4 + param_bytes  # the loss and every gradient


@pytest.mark.parametrize("kwargs, message", [
    (dict(device="tpu"), "device must be one of cpu, gpu-emulator, cuda"),
    (dict(device="gpu-emulator", threads=2), "option 'threads' shapes the CPU lowering"),
    (dict(device="gpu-emulator", accumulator_bits=14), "option 'accumulator_bits' shapes the CPU lowering"),
    (dict(device="gpu-emulator", accumulator="sm89"), "accumulator must be 'exact' or 'sm90'"),
])
def test_device_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        LanguageModel(CFG, "deepseek-v3", **kwargs)


def test_device_f64_is_refused():
    with pytest.raises(ValueError, match="dtype='f64' is the CPU's oracle"):
        LanguageModel(CFG, "f32", dtype="f64", device="gpu-emulator")


def test_device_split_form_is_refused():
    with pytest.raises(ValueError, match="form='split' runs on the CPU only"):
        LanguageModel(CFG, "deepseek-v3", form="split", device="gpu-emulator")


@pytest.mark.cuda_driver
def test_cuda_without_a_gpu_says_so():
    # Raised when the model is made, before anything is compiled.
    with pytest.raises(RuntimeError, match="^backend 'cuda': "):
        LanguageModel(CFG, "deepseek-v3", device="cuda")


@pytest.mark.cuda_driver
def test_train_lm_cuda_without_a_gpu_says_so(capsys):
    """train_lm.py --device cuda: an argparse error with the backend's
    reason, before the corpus is read (no traceback)."""
    ex = load_example("train_lm")
    with pytest.raises(SystemExit) as exit_:
        ex.parse_args(["--corpus", __file__, "--device", "cuda", "--runs", "deepseek-v3"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "--device cuda: backend 'cuda': " in err, err


@pytest.mark.cuda_device
def test_cuda_trains_as_the_cpu():
    _parity("cuda", accumulator="sm90")


@pytest.mark.cuda_device
def test_cuda_resident_state_trains_as_the_cpu():
    cpu = LanguageModel(CFG, "deepseek-v3", accumulator="sm90")
    dev = LanguageModel(CFG, "deepseek-v3", device="cuda", accumulator="sm90")
    init = cpu.init(0)
    opt = optim.AdamW(init, _schedule(), **ADAMW)
    cpu_losses, _, cpu_params = _train(cpu, init, _batches(), opt)
    trainer = dev.trainer(init, _schedule(), **ADAMW)
    assert [trainer.step(tokens) for tokens in _batches()] == cpu_losses
    params = trainer.params()
    trainer.close()
    for name in init:
        assert _same_bits(params[name], cpu_params[name]), name
