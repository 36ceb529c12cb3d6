// fp8-outline-host-kernels at sizes past 32 bits (docs/robustness.md,
// "Sizes past 32 bits"). The kernels' indices are `index` values, 64-bit
// once lowered (fp8-host-kernels-to-nvvm: the host's data layout, no
// index-bitwidth option): the thread index block_id * block_dim +
// thread_id of a 70000 x 40000 elementwise op (2.8e9 threads, 2.8e9 >
// 2^31 elements and 11.2 GB per f32 buffer), the row offsets of a 16384 x
// 131072 softmax row (a 128k vocabulary's logits, 2^31 elements) and a
// 65536 x 65536 tiled transpose's tiles. A launch whose 1-D grid passes
// CUDA's 2^31 - 1 CTAs (2^41 threads of an elementwise op, a row kernel of
// 2^35 rows) is not built: the op stays on the host with a remark (an
// error for a marked row sum, whose order only the row kernel computes).
// Compiled only.
// RUN: fp8-opt %s --split-input-file --verify-diagnostics --fp8-outline-host-kernels | FileCheck %s
// RUN: fp8-opt %s --split-input-file --verify-diagnostics --fp8-outline-host-kernels | fp8-opt --split-input-file --pass-pipeline='builtin.module(gpu.module(lower-affine,convert-scf-to-cf,fp8-host-kernels-to-nvvm))' | FileCheck %s --check-prefix=NVVM
// RUN: not fp8-opt %s --split-input-file --fp8-outline-host-kernels="require-kernels=true" 2>&1 >/dev/null | FileCheck %s --check-prefix=REQUIRE

// 2.8e9 threads in 10937500 CTAs of 256: the thread index and its compare
// with the element count, the row and column in 64 bits.
// CHECK-LABEL: func.func @ew_2p31
// CHECK: %[[G:.*]] = arith.constant 10937500 : index
// CHECK: gpu.launch_func @fp8_host_kernels::@ew_2p31_generic blocks in (%[[G]], %{{.*}}, %{{.*}}) threads in (%c256,
// CHECK: gpu.func @ew_2p31_generic
// CHECK: %[[T:.*]] = arith.addi %{{.*}}, %thread_id_x : index
// CHECK: arith.cmpi ult, %[[T]], %c2800000000 : index
// NVVM-LABEL: llvm.func @ew_2p31_generic(
// NVVM: %[[BID:.*]] = nvvm.read.ptx.sreg.ctaid.x range <i32, 0, 10937500> : i32
// NVVM: %[[BID64:.*]] = llvm.sext %[[BID]] : i32 to i64
// NVVM: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// NVVM: %[[TID64:.*]] = llvm.sext %[[TID]] : i32 to i64
// NVVM: %[[NT:.*]] = nvvm.read.ptx.sreg.ntid.x
// NVVM: %[[NT64:.*]] = llvm.sext %[[NT]] : i32 to i64
// NVVM: %[[BASE:.*]] = llvm.mul %[[BID64]], %[[NT64]] : i64
// NVVM: %[[I:.*]] = llvm.add %[[BASE]], %[[TID64]] : i64
// NVVM: %[[N:.*]] = llvm.mlir.constant(2800000000 : index) : i64
// NVVM: llvm.icmp "ult" %[[I]], %[[N]] : i64
// NVVM: %[[COL:.*]] = llvm.urem %[[I]], %{{.*}} : i64
// NVVM: %[[ROW:.*]] = llvm.udiv %[[I]], %{{.*}} : i64
// NVVM: llvm.mul %[[ROW]], %{{.*}} : i64
func.func @ew_2p31(%a: memref<70000x40000xf32>, %b: memref<70000x40000xf32>, %out: memref<70000x40000xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<70000x40000xf32>, memref<70000x40000xf32>) outs(%out : memref<70000x40000xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// 2^41 threads: 2^33 CTAs, past the grid's x limit. (Before: a
// gpu.launch_func of 8589934592 CTAs, refused by CUDA at run time, or cut
// to 0 CTAs by a runtime casting the grid to 32 bits.)
// Under require-kernels (a caller running nothing but kernels) an error.
// REQUIRE: error: 'linalg.generic' op cannot run on the host (fp8-outline-host-kernels, require-kernels: the caller runs nothing but kernels): its 2199023255552 threads need 8589934592 CTAs of 256, above the grid's 2^31 - 1 (CUDA's grid x limit)
// CHECK-LABEL: func.func @ew_grid
// CHECK-NOT: gpu.launch_func
// CHECK: linalg.generic
func.func @ew_grid(%a: memref<1048576x2097152xf32>, %out: memref<1048576x2097152xf32>) {
  // expected-remark @+1 {{runs on the host (fp8-outline-host-kernels): its 2199023255552 threads need 8589934592 CTAs of 256, above the grid's 2^31 - 1 (CUDA's grid x limit)}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<1048576x2097152xf32>) outs(%out : memref<1048576x2097152xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %x, %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A softmax row max over a 128k vocabulary for 16384 tokens: 2048 CTAs
// of 8 warps; the row's offset row * 131072 in 64 bits.
// CHECK-LABEL: func.func @vocab_rows
// CHECK: %[[G:.*]] = arith.constant 2048 : index
// CHECK: gpu.launch_func @fp8_host_kernels::@vocab_rows_row_max blocks in (%[[G]],
// NVVM-LABEL: llvm.func @vocab_rows_row_max(
// NVVM: nvvm.read.ptx.sreg.ctaid.x range <i32, 0, 2048> : i32
// NVVM: %[[V:.*]] = llvm.mlir.constant(131072 : index) : i64
// NVVM-NEXT: %[[OFF:.*]] = llvm.mul %{{.*}}, %[[V]] overflow<nsw, nuw> : i64
// NVVM-NEXT: llvm.add %[[OFF]], %{{.*}} overflow<nsw, nuw> : i64
func.func @vocab_rows(%x: memref<16384x131072xf32>, %out: memref<16384xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<16384x131072xf32>) outs(%out : memref<16384xf32>) attrs = {fp8.reduction_lanes = 32 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// 2^35 rows: a warp each, 2^32 CTAs of 8 warps (before: a launch of
// 4294967296 CTAs).
func.func @rows_grid(%x: memref<34359738368x32xf32>, %out: memref<34359738368xf32>) {
  // expected-error @+1 {{fp8-outline-host-kernels: the row sum marked fp8.reduction_lanes cannot run as a row kernel: a warp per row: its 1099511627776 threads need 4294967296 CTAs of 256, above the grid's 2^31 - 1 (CUDA's grid x limit)}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<34359738368x32xf32>) outs(%out : memref<34359738368xf32>) attrs = {fp8.reduction_lanes = 32 : i64} {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A 65536 x 65536 transpose (2^32 elements): 2^22 tiles of 32 x 32, one
// CTA each; the tile's coordinates and the element offsets in 64 bits.
// CHECK-LABEL: func.func @transpose_2p32
// CHECK: %[[G:.*]] = arith.constant 4194304 : index
// CHECK: gpu.launch_func @fp8_host_kernels::@transpose_2p32_transpose blocks in (%[[G]],
// NVVM-LABEL: llvm.func @transpose_2p32_transpose(
// NVVM: %[[CTA:.*]] = nvvm.read.ptx.sreg.ctaid.x range <i32, 0, 4194304> : i32
// NVVM-NEXT: %[[CTA64:.*]] = llvm.sext %[[CTA]] : i32 to i64
// NVVM: llvm.urem %[[CTA64]], %{{.*}} : i64
// NVVM: llvm.and %{{.*}}, %{{.*}} : i1
// NVVM: %[[R:.*]] = llvm.mlir.constant(65536 : index) : i64
// NVVM-NEXT: %[[OFF:.*]] = llvm.mul %{{.*}}, %[[R]] overflow<nsw, nuw> : i64
// NVVM-NEXT: llvm.add %[[OFF]], %{{.*}} overflow<nsw, nuw> : i64
func.func @transpose_2p32(%in: memref<65536x65536xf32>, %out: memref<65536x65536xf32>) {
  linalg.transpose ins(%in : memref<65536x65536xf32>) outs(%out : memref<65536x65536xf32>) permutation = [1, 0]
  return
}
