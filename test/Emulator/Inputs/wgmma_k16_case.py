#!/usr/bin/env python3
"""Emits the program of wgmma-k16-accumulation.mlir: one CTA runs four
chained wgmma m64n64k16 steps (nvgpu.warpgroup.mma, A 64x64 K-major, B
64x64 stored [K][N], 128B swizzle) on bf16 or f16 operands built from 64
measured H100 vectors (test/Integration/CPU/Inputs/hopper-accumulation,
lines `a0 .. a15 | b0 .. b15 | c | d`, see its README.md), so that output
(v, v) is the hardware's d of vector v:
  - step 1 (k 0..15) rebuilds c from a zero accumulator: A[v][0..2] are
    c's 24-bit significand in three 8-bit pieces (each a bf16/f16 value),
    B[0..2][*] = 1; three products on the grid of the first piece, so any
    model of the step gives c exactly;
  - step 2 (k 16..31) is the measured step: A[v][16 + i] = a_i,
    B[16 + i][v] = b_i;
  - steps 3 and 4 (k 32..63) add zero products, which leave c unchanged.
The program prints, for every v whose D[v][v] differs from the measured d,
v, the bits computed and the bits measured, then the number of mismatches.
Vectors whose c does not split into three values of the format are
skipped (the first 64 that do are used). Nothing here computes a dot
product.

Usage: wgmma_k16_case.py bf16|f16 DATA_FILE
"""
import math
import struct
import sys


def f32(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def encode(x, fmt):
    """The 16-bit code of x, which must be exact in `fmt` (else None)."""
    if fmt == "bf16":
        bits = struct.unpack("<I", struct.pack("<f", x))[0]
        return bits >> 16 if bits & 0xFFFF == 0 else None
    try:
        code = struct.unpack("<H", struct.pack("<e", x))[0]
    except OverflowError:
        return None
    return code if struct.unpack("<e", struct.pack("<H", code))[0] == x else None


def decode(code, fmt):
    if fmt == "bf16":
        return f32(code << 16)
    return struct.unpack("<e", struct.pack("<H", code))[0]


def split(c, fmt):
    """c as three values of `fmt` (8-bit pieces of its significand)."""
    if c == 0:
        return [0.0, 0.0, 0.0]
    m, e = math.frexp(abs(c))  # |c| = m 2^e, m in [0.5, 1)
    s = int(m * 2**24)
    assert s * 2.0 ** (e - 24) == abs(c)
    pieces = [(s >> 16) * 2.0 ** (e - 8), ((s >> 8) & 0xFF) * 2.0 ** (e - 16),
              (s & 0xFF) * 2.0 ** (e - 24)]
    return [math.copysign(p, c) for p in pieces]


def read(path, fmt):
    vectors = []
    with open(path, encoding="ascii") as f:
        for line in f:
            fa, fb, fc, fd = line.split("|")
            c = f32(int(fc, 16))
            pieces = split(c, fmt)
            codes = [encode(p, fmt) for p in pieces]
            if None in codes or sum(pieces) != c:
                continue
            vectors.append(([int(x, 16) for x in fa.split()],
                            [int(x, 16) for x in fb.split()], codes,
                            int(fd, 16)))
            if len(vectors) == 64:
                return vectors
    sys.exit(f"{path}: fewer than 64 usable vectors")


def hexdense(values, width):
    return '"0x' + "".join(v.to_bytes(width, "little").hex().upper() for v in values) + '"'


def main():
    fmt, path = sys.argv[1], sys.argv[2]
    vectors = read(path, fmt)
    one = encode(1.0, fmt)
    a = [[0] * 64 for _ in range(64)]
    b = [[0] * 64 for _ in range(64)]  # [k][n]
    for v, (va, vb, cpieces, _) in enumerate(vectors):
        a[v][0:3] = cpieces
        a[v][16:32] = va
        for i in range(16):
            b[16 + i][v] = vb[i]
    for k in range(3):
        b[k] = [one] * 64
    want = [d for (_, _, _, d) in vectors]
    print(TEMPLATE.replace("ELT", fmt)
          .replace("ADATA", hexdense([x for row in a for x in row], 2))
          .replace("BDATA", hexdense([x for row in b for x in row], 2))
          .replace("WANT", hexdense(want, 4)))


TEMPLATE = """
!aMap = !nvgpu.tensormap.descriptor<tensor = memref<64x64xELT, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!bMap = !nvgpu.tensormap.descriptor<tensor = memref<64x64xELT, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!bar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
module {
  memref.global "private" constant @a : memref<64x64xELT> = dense<ADATA>
  memref.global "private" constant @b : memref<64x64xELT> = dense<BDATA>
  memref.global "private" constant @want : memref<64xi32> = dense<WANT>
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %smem = arith.constant 32768 : i32
    %a = memref.get_global @a : memref<64x64xELT>
    %b = memref.get_global @b : memref<64x64xELT>
    %want = memref.get_global @want : memref<64xi32>
    %d = memref.alloc() : memref<64x64xf32>
    %t0 = gpu.wait async
    %da, %t1 = gpu.alloc async [%t0] () : memref<64x64xELT>
    %db, %t2 = gpu.alloc async [%t1] () : memref<64x64xELT>
    %dd, %t3 = gpu.alloc async [%t2] () : memref<64x64xf32>
    %t4 = gpu.memcpy async [%t3] %da, %a : memref<64x64xELT>, memref<64x64xELT>
    %t5 = gpu.memcpy async [%t4] %db, %b : memref<64x64xELT>, memref<64x64xELT>
    gpu.wait [%t5]
    %ua = memref.cast %da : memref<64x64xELT> to memref<*xELT>
    %ub = memref.cast %db : memref<64x64xELT> to memref<*xELT>
    %ma = nvgpu.tma.create.descriptor %ua box[%c64, %c64] : memref<*xELT> -> !aMap
    %mb = nvgpu.tma.create.descriptor %ub box[%c64, %c64] : memref<*xELT> -> !bMap
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem {
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %k8192 = arith.constant 8192 : index
      %bytes = arith.constant 16384 : index
      %ticks = arith.constant 10000000 : index
      %false = arith.constant false
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %sa = memref.view %dyn[%k0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x64xELT, #gpu.address_space<workgroup>>
      %sb = memref.view %dyn[%k8192][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x64xELT, #gpu.address_space<workgroup>>
      %bar = nvgpu.mbarrier.create -> !bar
      %first = arith.cmpi eq, %tx, %k0 : index
      nvgpu.mbarrier.init %bar[%k0], %k1, predicate = %first : !bar
      gpu.barrier
      nvgpu.mbarrier.arrive.expect_tx %bar[%k0], %bytes, predicate = %first : !bar
      nvgpu.tma.async.load %ma[%k0, %k0], %bar[%k0] to %sa, predicate = %first : !aMap, !bar -> memref<64x64xELT, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %mb[%k0, %k0], %bar[%k0] to %sb, predicate = %first : !bMap, !bar -> memref<64x64xELT, #gpu.address_space<workgroup>>
      nvgpu.mbarrier.try_wait.parity %bar[%k0], %false, %ticks : !bar
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !acc
      %dA = nvgpu.warpgroup.generate.descriptor %sa, %ma : memref<64x64xELT, #gpu.address_space<workgroup>>, !aMap -> !nvgpu.warpgroup.descriptor<tensor = memref<64x64xELT, 3>>
      %dB = nvgpu.warpgroup.generate.descriptor %sb, %mb : memref<64x64xELT, #gpu.address_space<workgroup>>, !bMap -> !nvgpu.warpgroup.descriptor<tensor = memref<64x64xELT, 3>>
      %acc1 = nvgpu.warpgroup.mma %dA, %dB, %acc0 {transposeB} : <tensor = memref<64x64xELT, 3>>, <tensor = memref<64x64xELT, 3>>, !acc -> !acc
      nvvm.wgmma.wait.group.sync.aligned 0
      nvgpu.warpgroup.mma.store %acc1, %dd : !acc to memref<64x64xf32>
      gpu.terminator
    }
    %t6 = gpu.memcpy async [%t5] %d, %dd : memref<64x64xf32>, memref<64x64xf32>
    gpu.wait [%t6]
    %bad = scf.for %v = %c0 to %c64 step %c1 iter_args(%count = %c0) -> (index) {
      %x = memref.load %d[%v, %v] : memref<64x64xf32>
      %got = arith.bitcast %x : f32 to i32
      %exp = memref.load %want[%v] : memref<64xi32>
      %ne = arith.cmpi ne, %got, %exp : i32
      %next = scf.if %ne -> (index) {
        vector.print str "mismatch: vector "
        vector.print %v : index
        vector.print %got : i32
        vector.print %exp : i32
        %inc = arith.addi %count, %c1 : index
        scf.yield %inc : index
      } else {
        scf.yield %count : index
      }
      scf.yield %next : index
    }
    vector.print str "mismatches "
    vector.print %bad : index
    return
  }
}
"""

if __name__ == "__main__":
    main()
