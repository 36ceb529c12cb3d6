"""One linear layer's training step (Y = X * W^T, dX = dY * W, dW = dY^T * X,
in the joint form aot_autograd exports) compiled through the FP8 graph
passes and the CPU lowering, against FP64 references written here from the
numerics contract (docs/design.md §1) and DeepSeek-V3 §3.3: the fprop and
the dgrad share one quantization of W (the dgrad reads it transposed), the
wgrad reads X and dY requantized to 1x128 tiles along the tokens."""

import numpy as np
import pytest

import fp8_mlir

import fp8ref
from conftest import require_passes

pytestmark = require_passes("fp8-pipeline", "fp8-cpu-pipeline")

T, IN, OUT = 256, 384, 256


def step_ir(t, i, o):
    """The joint graph, and a destination-passing @run wrapper for the JIT."""
    return f"""
func.func @train_step(%x: tensor<{t}x{i}xf32>, %w: tensor<{o}x{i}xf32>, %dy: tensor<{t}x{o}xf32>)
    -> (tensor<{t}x{o}xf32>, tensor<{t}x{i}xf32>, tensor<{o}x{i}xf32>) {{
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<{i}x{o}xf32>
  %wt = linalg.transpose ins(%w : tensor<{o}x{i}xf32>) outs(%e0 : tensor<{i}x{o}xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<{t}x{o}xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<{t}x{o}xf32>) -> tensor<{t}x{o}xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<{t}x{i}xf32>, tensor<{i}x{o}xf32>) outs(%f1 : tensor<{t}x{o}xf32>) -> tensor<{t}x{o}xf32>
  %e2 = tensor.empty() : tensor<{t}x{i}xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<{t}x{i}xf32>) -> tensor<{t}x{i}xf32>
  %dx = linalg.matmul ins(%dy, %w : tensor<{t}x{o}xf32>, tensor<{o}x{i}xf32>) outs(%f2 : tensor<{t}x{i}xf32>) -> tensor<{t}x{i}xf32>
  %e3 = tensor.empty() : tensor<{o}x{t}xf32>
  %dyt = linalg.transpose ins(%dy : tensor<{t}x{o}xf32>) outs(%e3 : tensor<{o}x{t}xf32>) permutation = [1, 0]
  %e4 = tensor.empty() : tensor<{o}x{i}xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<{o}x{i}xf32>) -> tensor<{o}x{i}xf32>
  %dw = linalg.matmul ins(%dyt, %x : tensor<{o}x{t}xf32>, tensor<{t}x{i}xf32>) outs(%f4 : tensor<{o}x{i}xf32>) -> tensor<{o}x{i}xf32>
  return %y, %dx, %dw : tensor<{t}x{o}xf32>, tensor<{t}x{i}xf32>, tensor<{o}x{i}xf32>
}}
func.func @run(%x: memref<{t}x{i}xf32>, %w: memref<{o}x{i}xf32>, %dy: memref<{t}x{o}xf32>,
               %y: memref<{t}x{o}xf32>, %dx: memref<{t}x{i}xf32>, %dw: memref<{o}x{i}xf32>) {{
  %tx = bufferization.to_tensor %x restrict : memref<{t}x{i}xf32> to tensor<{t}x{i}xf32>
  %tw = bufferization.to_tensor %w restrict : memref<{o}x{i}xf32> to tensor<{o}x{i}xf32>
  %tdy = bufferization.to_tensor %dy restrict : memref<{t}x{o}xf32> to tensor<{t}x{o}xf32>
  %r:3 = func.call @train_step(%tx, %tw, %tdy)
      : (tensor<{t}x{i}xf32>, tensor<{o}x{i}xf32>, tensor<{t}x{o}xf32>) -> (tensor<{t}x{o}xf32>, tensor<{t}x{i}xf32>, tensor<{o}x{i}xf32>)
  bufferization.materialize_in_destination %r#0 in restrict writable %y : (tensor<{t}x{o}xf32>, memref<{t}x{o}xf32>) -> ()
  bufferization.materialize_in_destination %r#1 in restrict writable %dx : (tensor<{t}x{i}xf32>, memref<{t}x{i}xf32>) -> ()
  bufferization.materialize_in_destination %r#2 in restrict writable %dw : (tensor<{o}x{i}xf32>, memref<{o}x{i}xf32>) -> ()
  return
}}
"""


def _grid(fmt):
    """The non-negative finite values of an FP8 format, by code."""
    top = 0x7B if fmt == "e5m2" else 0x7E
    return fp8ref.decode(np.arange(top + 1), fmt)


def ref_quantize(x, block, fmt):
    """FP64 model of fp8.quantize (f32 scales, saturating): returns the
    dequantized values x_q = code * s, exactly, in float64."""
    x = np.asarray(x, np.float32)
    s = fp8ref.expected_scales(x, block, fmt=fmt)  # f32 amax / fmax
    s_full = fp8ref.expand(s, x.shape, block).astype(np.float32)
    v = (x / s_full).astype(np.float64)  # the f32 quotient
    grid = _grid(fmt)
    mag = np.minimum(np.abs(v), grid[-1])  # saturate
    hi = np.clip(np.searchsorted(grid, mag), 1, len(grid) - 1)
    lo = hi - 1
    d_lo, d_hi = mag - grid[lo], grid[hi] - mag
    # Nearest, ties to the even code (its mantissa's last bit is 0).
    pick = np.where((d_hi < d_lo) | ((d_hi == d_lo) & (hi % 2 == 0)), hi, lo)
    return np.sign(v) * grid[pick] * s_full.astype(np.float64)


def ref_requantize_t(xq, fmt):
    """fp8.requantize [T, F] 1x128 -> [F, T] 1x128: dequantize to f32,
    transpose, quantize."""
    return ref_quantize(xq.astype(np.float32).T, (1, 128), fmt)


def run_step(policy, x, w, dy):
    text = step_ir(T, IN, OUT)
    module = fp8_mlir.jit(text, f"fp8-pipeline{{policy={policy} report=false}},fp8-cpu-pipeline")
    y, dx, dw = np.zeros((T, OUT), np.float32), np.zeros((T, IN), np.float32), np.zeros((OUT, IN), np.float32)
    module.run(x, w, dy, y, dx, dw)
    return y, dx, dw


def inputs(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((T, IN)).astype(np.float32)
    x[:, 7] *= 60.0  # an outlier channel: per-token tiles keep the others
    w = (rng.standard_normal((OUT, IN)) / np.sqrt(IN)).astype(np.float32)
    dy = (rng.standard_normal((T, OUT)) * 1e-3).astype(np.float32)
    return x, w, dy


def test_one_linear_step_compiles_to_three_fp8_gemms():
    res = fp8_mlir.compile(step_ir(T, IN, OUT))
    ir = res.fp8_ir
    assert ir.count("= fp8.scaled_matmul") == 3
    for kind in ("fprop", "dgrad", "wgrad"):
        assert ir.count(f"fp8.gemm = #fp8.gemm<{kind}>") == 1
    # One quantization each of W, X and dY; X and dY requantized once each.
    assert ir.count("= fp8.quantize") == 3
    assert ir.count("= fp8.requantize") == 2
    training = res.report["training"]
    flop = 2 * T * IN * OUT
    for kind in ("fprop", "dgrad", "wgrad"):
        assert training["gemms"][kind] == {"count": 1, "fp8_flops": flop, "high_flops": 0}
    assert training["saved_activation_bytes_before"] == T * IN * 4
    assert training["saved_activation_bytes_after"] == T * IN + T * (IN // 128) * 4
    assert (training["master_weights"], training["weight_gradients"], training["optimizer_moments"]) == (
        "f32", "f32", "bf16")


@pytest.mark.parametrize("policy, grad_fmt", [("deepseek-v3", "e4m3"), ("hybrid", "e5m2")])
def test_one_linear_step_matches_fp64_reference(policy, grad_fmt):
    x, w, dy = inputs()
    y, dx, dw = run_step(policy, x, w, dy)
    xq = ref_quantize(x, (1, 128), "e4m3")
    wq = ref_quantize(w, (128, 128), "e4m3")
    dyq = ref_quantize(dy, (1, 128), grad_fmt)
    expect = {
        "y": xq @ wq.T,
        "dx": dyq @ wq,  # the fprop's W codes and scales, transposed
        "dw": ref_requantize_t(dyq, grad_fmt) @ ref_requantize_t(xq, "e4m3").T,
    }
    got = {"y": y, "dx": dx, "dw": dw}
    exact = {"y": x.astype(np.float64) @ w.T.astype(np.float64), "dx": dy.astype(np.float64) @ w,
             "dw": dy.T.astype(np.float64) @ x}
    for name in expect:
        ref = expect[name]
        # FP32 accumulation (promoted every 128 products) of the exact
        # FP64 sum of the same FP8 products.
        np.testing.assert_allclose(got[name], ref, rtol=1e-4, atol=1e-5 * np.abs(ref).max(), err_msg=name)
        # And close to the unquantized FP64 product.
        rel = np.linalg.norm(got[name] - exact[name]) / np.linalg.norm(exact[name])
        assert rel < (0.12 if grad_fmt == "e5m2" and name != "y" else 0.07), (name, rel)
