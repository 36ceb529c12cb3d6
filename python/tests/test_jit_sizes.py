"""JitModule.call checks every dynamic size against what the function needs.

A memref argument's dynamic sizes are the caller's choice; the body relates
them (a linalg op's operands share their loop sizes, a destination has the
sizes of what is copied into it, a size computed from another argument).
A call that breaks a relation would read or write past a NumPy array (the
interpreter died with SIGSEGV, in the call or later): it is a ValueError
naming the argument and the dimension. The expected sizes here are written
by hand from each function's body."""

import numpy as np
import pytest

import fp8_mlir

LOWER = (
    "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},"
    "convert-linalg-to-loops,expand-strided-metadata,lower-affine,convert-scf-to-cf,"
    "convert-math-to-llvm,convert-to-llvm,reconcile-unrealized-casts"
)
F32 = np.float32

# A dynamic-M linear as an exporter writes it, called through a
# destination-style wrapper (the sizes flow through the call).
LINEAR = """
func.func @linear(%x: tensor<?x128xf32>, %w: tensor<64x128xf32>) -> tensor<?x64xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x128xf32>
  %e = tensor.empty(%m) : tensor<?x64xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x64xf32>) -> tensor<?x64xf32>
  %wt0 = tensor.empty() : tensor<128x64xf32>
  %wt = linalg.transpose ins(%w : tensor<64x128xf32>) outs(%wt0 : tensor<128x64xf32>) permutation = [1, 0]
  %r = linalg.matmul ins(%x, %wt : tensor<?x128xf32>, tensor<128x64xf32>)
                     outs(%f : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}
func.func @run(%a: memref<?x128xf32>, %b: memref<64x128xf32>, %o: memref<?x64xf32>) {
  %ta = bufferization.to_tensor %a restrict : memref<?x128xf32> to tensor<?x128xf32>
  %tb = bufferization.to_tensor %b restrict : memref<64x128xf32> to tensor<64x128xf32>
  %r = func.call @linear(%ta, %tb) : (tensor<?x128xf32>, tensor<64x128xf32>) -> tensor<?x64xf32>
  bufferization.materialize_in_destination %r in restrict writable %o
      : (tensor<?x64xf32>, memref<?x64xf32>) -> ()
  return
}
"""

SHAPES = """
#id = affine_map<(d0) -> (d0)>
func.func @add(%a: memref<?xf32>, %b: memref<?xf32>, %o: memref<?xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
    ins(%a, %b : memref<?xf32>, memref<?xf32>) outs(%o : memref<?xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}
func.func @fill(%n: index, %o: memref<?xf32>) {
  %e = tensor.empty(%n) : tensor<?xf32>
  %one = arith.constant 1.0 : f32
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  bufferization.materialize_in_destination %f in restrict writable %o : (tensor<?xf32>, memref<?xf32>) -> ()
  return
}
func.func @flat(%a: memref<?x4xf32>, %o: memref<?xf32>) {
  %t = bufferization.to_tensor %a restrict : memref<?x4xf32> to tensor<?x4xf32>
  %c = tensor.collapse_shape %t [[0, 1]] : tensor<?x4xf32> into tensor<?xf32>
  bufferization.materialize_in_destination %c in restrict writable %o : (tensor<?xf32>, memref<?xf32>) -> ()
  return
}
func.func @padded(%a: memref<?xf32>, %o: memref<?xf32>) {
  %t = bufferization.to_tensor %a restrict : memref<?xf32> to tensor<?xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %t, %c0 : tensor<?xf32>
  %c3 = arith.constant 3 : index
  %n3 = arith.addi %n, %c3 : index
  %e = tensor.empty(%n3) : tensor<?xf32>
  %one = arith.constant 1.0 : f32
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %s = tensor.insert_slice %t into %f[0] [%n] [1] : tensor<?xf32> into tensor<?xf32>
  bufferization.materialize_in_destination %s in restrict writable %o : (tensor<?xf32>, memref<?xf32>) -> ()
  return
}
func.func @transpose(%a: memref<?x?xf32>, %o: memref<?x?xf32>) {
  %t = bufferization.to_tensor %a restrict : memref<?x?xf32> to tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %t, %c0 : tensor<?x?xf32>
  %n = tensor.dim %t, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%n, %m) : tensor<?x?xf32>
  %r = linalg.transpose ins(%t : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) permutation = [1, 0]
  bufferization.materialize_in_destination %r in restrict writable %o : (tensor<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
"""


@pytest.fixture(scope="module")
def shapes():
    return fp8_mlir.jit(SHAPES, LOWER)


@pytest.mark.parametrize("pipeline", [LOWER, "fp8-pipeline{report=false},fp8-cpu-pipeline"],
                         ids=["linalg", "fp8"])
def test_dynamic_m_destination_must_have_the_input_rows(pipeline):
    module = fp8_mlir.jit(LINEAR, pipeline)
    x, w = np.ones((256, 128), F32), np.full((64, 128), 0.5, F32)
    out = np.zeros((256, 64), F32)
    module.run(x, w, out)
    np.testing.assert_allclose(out, 64.0, rtol=1e-3)  # 128 products of 1 * 0.5
    for rows in (3, 255, 257):  # fewer rows: a write past the array before
        with pytest.raises(ValueError, match=rf"argument 2 of 'run': dimension 0 is {rows}, but the function "
                                             r"needs 256 \(dimension 0 of argument 0"):
            module.run(x, w, np.zeros((rows, 64), F32))
    module.run(x[:5], w, out[:5])  # any M, as long as they agree
    assert (out[:5] != 0).all()


@pytest.mark.parametrize("sizes, blamed", [((8, 4, 8), "argument 1 of 'add': dimension 0 is 4, but the function "
                                                        "needs 8"),
                                           ((8, 8, 4), "argument 2 of 'add': dimension 0 is 4"),
                                           ((4, 8, 8), "argument 1 of 'add': dimension 0 is 8, but the function "
                                                       "needs 4")])
def test_operands_of_one_loop_agree(shapes, sizes, blamed):
    # A linalg op on memrefs: its operands share the loop's size; the later
    # argument is named (the inputs come first).
    a, b, o = (np.ones(n, F32) for n in sizes)
    with pytest.raises(ValueError, match=blamed):
        shapes.add(a, b, o)
    a, b, o = np.arange(6, dtype=F32), np.full(6, 10, F32), np.zeros(6, F32)
    shapes.add(a, b, o)
    np.testing.assert_array_equal(o, [10, 11, 12, 13, 14, 15])


def test_size_given_by_a_scalar_argument(shapes):
    o = np.zeros(9, F32)
    shapes.fill(9, o)
    np.testing.assert_array_equal(o, 1.0)
    with pytest.raises(ValueError, match=r"argument 1 of 'fill': dimension 0 is 9, but the function needs 10 "
                                         r"\(the value of argument 0"):
        shapes.fill(10, o)


@pytest.mark.parametrize("fn, a_shape, good, bad, want", [
    ("flat", (3, 4), (12,), (11,), 12),  # 4 x rows
    ("padded", (5,), (8,), (7,), 8),  # rows + 3
    ("transpose", (3, 5), (5, 3), (3, 5), 5),  # [N, M] from [M, N]
])
def test_sizes_computed_from_other_arguments(shapes, fn, a_shape, good, bad, want):
    a = np.arange(int(np.prod(a_shape)), dtype=F32).reshape(a_shape)
    o = np.zeros(good, F32)
    getattr(shapes, fn)(a, o)
    if fn == "transpose":
        np.testing.assert_array_equal(o, a.T)
    else:
        np.testing.assert_array_equal(o.ravel()[: a.size], a.ravel())
    with pytest.raises(ValueError, match=rf"argument 1 of '{fn}': dimension 0 is {bad[0]}, but the function "
                                         rf"needs {want} "):
        getattr(shapes, fn)(a, np.zeros(bad, F32))


def test_numerics_calls_pass_the_checks():
    # The package's own functions take dynamic rows: chunked calls on row
    # slices agree with the checks.
    x = np.linspace(-2, 2, 300 * 256, dtype=F32).reshape(300, 256)
    q = fp8_mlir.quantize(x, block=(3, 128))
    assert q.scales.shape == (100, 2)
    np.testing.assert_allclose(fp8_mlir.dequantize(q), x, rtol=0.07, atol=1e-6)


# The fp8 ops carry their sizes through !fp8.scaled values, which upstream's
# ValueBounds does not see: the checks follow them by the ops' shape rules
# (a quantized tensor has its input's shape, a scaled_matmul's result is
# [M of a, N of b], an assembled tensor's scales are ceil(data / block)).
# Unchecked, each call below wrote past `o` or read past the scales
# (SIGSEGV, or "free(): corrupted unsorted chunks").
FP8_OPS = """
!act = !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>
!wt = !fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32>
func.func @qdq(%x: memref<?x256xf32>, %o: memref<?x256xf32>) {
  %tx = bufferization.to_tensor %x restrict : memref<?x256xf32> to tensor<?x256xf32>
  %q = fp8.quantize %tx : tensor<?x256xf32> -> !act
  %r = fp8.dequantize %q : !act -> tensor<?x256xf32>
  bufferization.materialize_in_destination %r in restrict writable %o : (tensor<?x256xf32>, memref<?x256xf32>) -> ()
  return
}
func.func @linear(%x: memref<?x256xf32>, %w: memref<128x256xf32>, %o: memref<?x128xf32>) {
  %tx = bufferization.to_tensor %x restrict : memref<?x256xf32> to tensor<?x256xf32>
  %tw = bufferization.to_tensor %w restrict : memref<128x256xf32> to tensor<128x256xf32>
  %qx = fp8.quantize %tx : tensor<?x256xf32> -> !act
  %qw = fp8.quantize %tw : tensor<128x256xf32> -> !wt
  %y = fp8.scaled_matmul %qx, %qw : !act, !wt -> tensor<?x128xf32>
  bufferization.materialize_in_destination %y in restrict writable %o : (tensor<?x128xf32>, memref<?x128xf32>) -> ()
  return
}
func.func @asm(%d: memref<?x256xf8E4M3FN>, %s: memref<?x2xf32>, %o: memref<?x256xf32>) {
  %td = bufferization.to_tensor %d restrict : memref<?x256xf8E4M3FN> to tensor<?x256xf8E4M3FN>
  %ts = bufferization.to_tensor %s restrict : memref<?x2xf32> to tensor<?x2xf32>
  %q = fp8.assemble %td, %ts : tensor<?x256xf8E4M3FN>, tensor<?x2xf32> -> !act
  %r = fp8.dequantize %q : !act -> tensor<?x256xf32>
  bufferization.materialize_in_destination %r in restrict writable %o : (tensor<?x256xf32>, memref<?x256xf32>) -> ()
  return
}
"""


@pytest.fixture(scope="module")
def fp8_ops():
    return fp8_mlir.jit(FP8_OPS, "fp8-cpu-pipeline")


def test_sizes_through_quantize_and_dequantize(fp8_ops):
    x = np.ones((64, 256), F32)
    o = np.zeros((64, 256), F32)
    fp8_ops.qdq(x, o)
    np.testing.assert_array_equal(o, 1.0)  # 1.0 is exact in E4M3
    with pytest.raises(ValueError, match=r"argument 1 of 'qdq': dimension 0 is 3, but the function needs 64 "
                                         r"\(dimension 0 of argument 0"):
        fp8_ops.qdq(x, np.zeros((3, 256), F32))


def test_sizes_through_scaled_matmul(fp8_ops):
    # 448 = E4M3's largest value: every scale is amax / 448 = 1, exact.
    x, w = np.full((64, 256), 448, F32), np.full((128, 256), 448, F32)
    o = np.zeros((64, 128), F32)
    fp8_ops.linear(x, w, o)
    np.testing.assert_array_equal(o, 256 * 448.0 * 448.0)  # 196 * 2^18: exact in f32
    with pytest.raises(ValueError, match=r"argument 2 of 'linear': dimension 0 is 3, but the function needs 64 "
                                         r"\(dimension 0 of argument 0"):
        fp8_ops.linear(x, w, np.zeros((3, 128), F32))


def test_assembled_scales_cover_the_data(fp8_ops):
    codes = np.full((256, 256), 0x38, np.uint8)  # E4M3 1.0
    o = np.zeros((256, 256), F32)
    fp8_ops.asm(codes, np.full((256, 2), 2.0, F32), o)
    np.testing.assert_array_equal(o, 2.0)
    # ceil(256 rows / 1) = 256 scale rows, not 1.
    with pytest.raises(ValueError, match=r"argument 1 of 'asm': dimension 0 is 1, but the function needs 256 "):
        fp8_ops.asm(codes, np.full((1, 2), 2.0, F32), o)
