// fp8-outline-host-kernels{require-kernels}: an op that would stay a host
// loop nest (an f64 body, a dynamic shape) is an error naming the op and
// why, every such op of the module is reported and the pass fails; the ops
// it can outline are no error. Without the option the same ops are remarks
// and the pass succeeds (REMARK). fp8-gpu-pipeline{require-kernels} forwards
// the option (PIPE). FP8 codes (only moved: fills, copies) are kernels.
// RUN: fp8-opt %s -split-input-file -verify-diagnostics --fp8-outline-host-kernels="require-kernels=true" | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-outline-host-kernels 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: fp8-opt %s -split-input-file --fp8-outline-host-kernels 2>&1 >/dev/null | FileCheck %s --check-prefix=NO-ERROR
// RUN: not fp8-opt %s -split-input-file --fp8-gpu-pipeline="host=llvm target=emulator require-kernels=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPE

// NO-ERROR-NOT: error: '{{.*}}' op cannot run on the host

// An f64 body: f64 arithmetic has no kernel lowering with the host's bits.
// The f32 fill next to it becomes a kernel: no error.
// REMARK: remark: runs on the host (fp8-outline-host-kernels): its body's arith.extf is not f32 arithmetic (only f32, with bf16/f16 as casts, is lowered alike)
// PIPE: error: 'linalg.generic' op cannot run on the host (fp8-outline-host-kernels, require-kernels: the caller runs nothing but kernels): its body's arith.extf is not f32 arithmetic
func.func @f64_body(%a: memref<8xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  linalg.fill ins(%c0 : f32) outs(%out : memref<8xf32>)
  // expected-error @+1 {{'linalg.generic' op cannot run on the host (fp8-outline-host-kernels, require-kernels: the caller runs nothing but kernels): its body's arith.extf is not f32 arithmetic (only f32, with bf16/f16 as casts, is lowered alike)}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : memref<8xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %d = arith.extf %x : f32 to f64
    %m = arith.mulf %d, %d : f64
    %r = arith.truncf %m : f64 to f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A dynamic shape (kernels take bare pointers), as a linalg op and as a
// memref.copy: both reported.
// REMARK: remark: runs on the host (fp8-outline-host-kernels): an operand has a dynamic shape or layout (kernels take bare pointers: static shapes only)
// REMARK: remark: runs on the host (fp8-outline-host-kernels): an operand has a dynamic shape (kernels take bare pointers: static shapes only)
func.func @dynamic(%a: memref<?xf32>, %out: memref<?xf32>) {
  // expected-error @+1 {{'linalg.generic' op cannot run on the host (fp8-outline-host-kernels, require-kernels: the caller runs nothing but kernels): an operand has a dynamic shape or layout (kernels take bare pointers: static shapes only)}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : memref<?xf32>) outs(%out : memref<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %x : f32
    linalg.yield %r : f32
  }
  // expected-error @+1 {{'memref.copy' op cannot run on the host (fp8-outline-host-kernels, require-kernels: the caller runs nothing but kernels): an operand has a dynamic shape (kernels take bare pointers: static shapes only)}}
  memref.copy %out, %a : memref<?xf32> to memref<?xf32>
  return
}

// -----

// FP8 codes are moved by kernels (the FP8 GEMM's zero-padded operand: a
// fill of an f8E5M2 buffer and a copy into a view of it): no error.
// CHECK-LABEL: func.func @fp8_codes
// CHECK: gpu.launch_func @fp8_host_kernels::@fp8_codes_map
// CHECK: gpu.launch_func @fp8_host_kernels::@fp8_codes_copy
// CHECK-NOT: linalg.
// CHECK: return
func.func @fp8_codes(%a: memref<4x40xf8E5M2>, %pad: memref<4x48xf8E5M2>) {
  %z = arith.constant 0.0 : f8E5M2
  linalg.map outs(%pad : memref<4x48xf8E5M2>)
    (%init: f8E5M2) {
      linalg.yield %z : f8E5M2
    }
  %v = memref.subview %pad[0, 0] [4, 40] [1, 1] : memref<4x48xf8E5M2> to memref<4x40xf8E5M2, strided<[48, 1]>>
  memref.copy %a, %v : memref<4x40xf8E5M2> to memref<4x40xf8E5M2, strided<[48, 1]>>
  return
}

// -----

// Only ops it outlines: no error, no remark.
func.func @all_kernels(%a: memref<8xf32>, %out: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : memref<8xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %x : f32
    linalg.yield %r : f32
  }
  return
}
