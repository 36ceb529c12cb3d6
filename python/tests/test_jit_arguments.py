"""JitModule.call passes a NumPy array only where the compiled code reads
the array's own elements.

The call builds a memref descriptor from the array (its data pointer,
offset 0, its sizes and C-contiguous strides) after checking the rank,
sizes and element size. The element size alone let through arrays whose
bytes mean something else: an int32 array for an f32 memref, a big-endian
float32 array (the code reads the bytes swapped), a float64 array for a
complex<f32> memref. A memref with a static strided layout was worse: the
compiled code uses the type's static stride or offset, not the
descriptor's, so a C-contiguous [2, 4] array passed for
`strided<[8, 1]>` had its second row read from elements 8..11, past the
array. Each is now a ValueError naming the argument and what to pass; the
expected values are written by hand."""

import numpy as np
import pytest

import fp8_mlir

SRC = """
func.func @strided(%a: memref<2x4xf32, strided<[8, 1]>>, %o: memref<2x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %v = memref.load %a[%i, %j] : memref<2x4xf32, strided<[8, 1]>>
      memref.store %v, %o[%i, %j] : memref<2x4xf32>
    }
  }
  return
}
func.func @offset(%a: memref<4xf32, strided<[1], offset: 2>>, %o: memref<4xf32>) {
  memref.copy %a, %o : memref<4xf32, strided<[1], offset: 2>> to memref<4xf32>
  return
}
func.func @contiguous(%a: memref<2x4xf32, strided<[4, 1]>>, %o: memref<2x4xf32>) {
  memref.copy %a, %o : memref<2x4xf32, strided<[4, 1]>> to memref<2x4xf32>
  return
}
func.func @any_layout(%a: memref<2x4xf32, strided<[?, ?], offset: ?>>, %o: memref<2x4xf32>) {
  memref.copy %a, %o : memref<2x4xf32, strided<[?, ?], offset: ?>> to memref<2x4xf32>
  return
}
func.func @copy_f32(%a: memref<4xf32>, %o: memref<4xf32>) {
  memref.copy %a, %o : memref<4xf32> to memref<4xf32>
  return
}
func.func @copy_i32(%a: memref<4xi32>, %o: memref<4xi32>) {
  memref.copy %a, %o : memref<4xi32> to memref<4xi32>
  return
}
func.func @copy_bf16(%a: memref<3xbf16>, %o: memref<3xbf16>) {
  memref.copy %a, %o : memref<3xbf16> to memref<3xbf16>
  return
}
func.func @copy_complex(%a: memref<2xcomplex<f32>>, %o: memref<2xcomplex<f32>>) {
  memref.copy %a, %o : memref<2xcomplex<f32>> to memref<2xcomplex<f32>>
  return
}
func.func @odd_width(%a: memref<4xi24>) {
  return
}
func.func @store_at(%i: index, %o: memref<f32>) {
  %v = arith.index_cast %i : index to i64
  %f = arith.sitofp %v : i64 to f32
  memref.store %f, %o[] : memref<f32>
  return
}
"""


@pytest.fixture(scope="module")
def m():
    return fp8_mlir.jit(SRC)


def test_static_stride_not_the_arrays_is_refused(m):
    # The parent buffer holds 0..15: a read past the [2, 4] view would
    # return 8..11 as the second row (what the call did).
    parent = np.arange(16, dtype=np.float32)
    out = np.zeros((2, 4), np.float32)
    with pytest.raises(ValueError, match=r"argument 0 of 'strided': its memref layout has stride 8 in dimension 0, "
                                         r"but the C-contiguous array's is 4 elements"):
        m.strided(parent[:8].reshape(2, 4), out)
    assert not out.any()


def test_static_offset_is_refused(m):
    out = np.zeros(4, np.float32)
    with pytest.raises(ValueError, match=r"argument 0 of 'offset': its memref layout has offset 2, but an array "
                                         r"is passed from its first element"):
        m.offset(np.arange(4, dtype=np.float32), out)


def test_layouts_the_array_has_are_accepted(m):
    a = np.arange(8, dtype=np.float32).reshape(2, 4)
    for fn in (m.contiguous, m.any_layout):
        out = np.zeros((2, 4), np.float32)
        fn(a, out)
        np.testing.assert_array_equal(out, a)


@pytest.mark.parametrize("fn,array,want", [
    ("copy_f32", np.arange(4, dtype=np.int32), r"element type f32 takes a NumPy float array, got dtype int32"),
    ("copy_f32", np.arange(4, dtype=np.uint32), r"element type f32 takes a NumPy float array, got dtype uint32"),
    ("copy_i32", np.arange(4, dtype=np.float32), r"element type i32 takes a NumPy integer or bool array, "
                                                 r"got dtype float32"),
    ("copy_bf16", np.ones(3, np.float16), r"element type bf16 takes integer bit patterns \(e.g. uint8/uint16\), "
                                          r"got dtype float16"),
    ("copy_complex", np.ones(2, np.float64), r"element type complex<f32> takes a NumPy complex array, "
                                             r"got dtype float64"),
])
def test_arrays_of_another_kind_are_refused(m, fn, array, want):
    out = np.zeros(array.shape, {"copy_f32": np.float32, "copy_i32": np.int32, "copy_bf16": np.uint16,
                                 "copy_complex": np.complex64}[fn])
    with pytest.raises(ValueError, match=r"argument 0 of '" + fn + "': " + want):
        getattr(m, fn)(array, out)
    assert not out.any()


def test_foreign_byte_order_is_refused(m):
    out = np.zeros(4, np.float32)
    with pytest.raises(ValueError, match=r"argument 0 of 'copy_f32': dtype >f4 is not in the machine's byte order"):
        m.copy_f32(np.arange(4, dtype=">f4"), out)
    with pytest.raises(ValueError, match=r"argument 1 of 'copy_f32': dtype >f4 is not in the machine's byte order"):
        m.copy_f32(np.arange(4, dtype=np.float32), np.zeros(4, ">f4"))
    assert not out.any()


def test_bit_patterns_and_complex_values_pass_through(m):
    bits = np.array([0x3F80, 0xC000, 0x7FC0], np.uint16)  # bf16 1, -2, NaN
    out = np.zeros(3, np.uint16)
    m.copy_bf16(bits, out)
    np.testing.assert_array_equal(out, bits)
    z = np.array([1 + 2j, -3.5 - 0.25j], np.complex64)
    zo = np.zeros(2, np.complex64)
    m.copy_complex(z, zo)
    np.testing.assert_array_equal(zo, z)


def test_element_without_numpy_counterpart_is_refused(m):
    with pytest.raises(ValueError, match=r"argument 0 of 'odd_width': element type i24 has no NumPy counterpart"):
        m.odd_width(np.zeros(4, np.int32))


def test_scalar_beyond_int64_names_the_range(m):
    out = np.zeros((), np.float32)
    with pytest.raises(ValueError, match=r"argument 0 of 'store_at': 1180591620717411303424 does not fit index "
                                         r"\(64-bit at most\)"):
        m.store_at(2**70, out)
    m.store_at(-3, out)
    assert out == -3.0
