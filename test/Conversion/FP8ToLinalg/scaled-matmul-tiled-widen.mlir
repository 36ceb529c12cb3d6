// RUN: fp8-opt %s -split-input-file -fp8-lower-to-linalg="tiled=true vector-lanes=8" | FileCheck %s
// RUN: fp8-opt %s -split-input-file -fp8-lower-to-linalg="tiled=true vector-lanes=8 accumulator-bits=14" | FileCheck %s --check-prefix=ACC
// RUN: fp8-opt %s -split-input-file -fp8-lower-to-linalg | FileCheck %s --check-prefix=REF
// RUN: fp8-opt %s -split-input-file -convert-elementwise-to-linalg -fp8-lower-to-linalg="tiled=true vector-lanes=8" | FileCheck %s --check-prefix=PIPE

// The fused widening store of the tiled kernel (fp8-lower-to-linalg{tiled}):
// a bf16 scaled_matmul result whose only use widens it to f32 (arith.extf on
// the tensor, or the linalg.generic / linalg.map that is just that extf) is
// computed by one kernel that rounds each output to bf16 (the arith.truncf
// of the unfused kernel) and stores it widened (arith.extf) into an f32
// result; the widening is gone from the caller, and the kernel is another
// private function (its name ends in _store_f32). The reference generics
// (tiled=false) keep the rounded result and the widening as they are.
// Bit-identity of the fused, unfused and reference forms:
// test/Integration/CPU/scaled-matmul-tiled-widen.test.

!a = !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>
!b = !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32>

// CHECK-LABEL: func.func @extf
// CHECK-NEXT: %[[D:.*]] = call @[[W:__scaled_matmul_tiled_tensor_32x256xf8E4M3FN__tensor_32x2xf32__tensor_64x256xf8E4M3FN__tensor_1x2xf32__1_128_128_128_i128_l8_bf16_store_f32]](
// CHECK-SAME: -> tensor<32x64xf32>
// CHECK-NOT: arith.extf
// CHECK: return %[[D]] : tensor<32x64xf32>
// The kernel: the accumulator vector rounded, widened, stored; the column
// tail the same, one output at a time.
// CHECK: func.func private @[[W]](
// CHECK-SAME: -> tensor<32x64xf32>
// CHECK: vector.fma
// CHECK: %[[R0:.*]] = arith.truncf %[[V:.*]] : vector<8xf32> to vector<8xbf16>
// CHECK-NEXT: %[[U:.*]] = arith.cmpf uno, %[[V]], %[[V]] : vector<8xf32>
// CHECK-NEXT: %[[N:.*]] = arith.constant dense<0x7FFF> : vector<8xbf16>
// CHECK-NEXT: %[[R:.*]] = arith.select %[[U]], %[[N]], %[[R0]] : vector<8xi1>, vector<8xbf16>
// CHECK-NEXT: %[[E:.*]] = arith.extf %[[R]] : vector<8xbf16> to vector<8xf32>
// CHECK-NEXT: vector.transfer_write %[[E]], %{{.*}} : vector<8xf32>, tensor<?x?xf32>
// CHECK: %[[RS0:.*]] = arith.truncf %[[VS:.*]] : f32 to bf16
// CHECK-NEXT: %[[US:.*]] = arith.cmpf uno, %[[VS]], %[[VS]] : f32
// CHECK-NEXT: %[[NS:.*]] = arith.constant 0x7FFF : bf16
// CHECK-NEXT: %[[RS:.*]] = arith.select %[[US]], %[[NS]], %[[RS0]] : bf16
// CHECK-NEXT: %[[ES:.*]] = arith.extf %[[RS]] : bf16 to f32
// CHECK-NEXT: tensor.insert %[[ES]]
// CHECK: return
// ACC-LABEL: func.func @extf
// ACC-NEXT: call @[[W:__scaled_matmul_tiled_.*_i128_l8_bf16_store_f32_acc32_13_14_1]](
// ACC: func.func private @[[W]](
// ACC: math.ctlz
// ACC: arith.truncf %{{.*}} : vector<8xf32> to vector<8xbf16>
// ACC: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xbf16>
// ACC-NEXT: arith.extf %{{.*}} : vector<8xbf16> to vector<8xf32>
// REF-LABEL: func.func @extf
// REF: %[[R:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<32x64xbf16>)
// REF-NEXT: ^bb0
// REF-NEXT: arith.truncf %{{.*}} : f32 to bf16
// REF: %[[E:.*]] = arith.extf %[[R]] : tensor<32x64xbf16> to tensor<32x64xf32>
// REF: return %[[E]]
func.func @extf(%x: !a, %w: !b) -> tensor<32x64xf32> {
  %d = fp8.scaled_matmul %x, %w : !a, !b -> tensor<32x64xbf16>
  %e = arith.extf %d : tensor<32x64xbf16> to tensor<32x64xf32>
  return %e : tensor<32x64xf32>
}

// -----

// The form fp8-cpu-pipeline sees (convert-elementwise-to-linalg runs first)
// and linalg.map; with an accumulator C and a dynamic M.

!a = !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>
!b = !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32>

// CHECK-LABEL: func.func @generic_and_map
// CHECK-NEXT: %[[G:.*]] = call @[[W:__scaled_matmul_tiled_tensor__x256xf8E4M3FN__tensor__x2xf32__tensor_64x256xf8E4M3FN__tensor_1x2xf32__1_128_128_128_i128_l8_bf16_store_f32]](
// CHECK-NEXT: %[[M:.*]] = call @[[WC:__scaled_matmul_tiled_tensor__x256xf8E4M3FN__tensor__x2xf32__tensor_64x256xf8E4M3FN__tensor_1x2xf32__tensor__x64xf32__1_128_128_128_i128_l8_bf16_store_f32]](
// CHECK-NOT: linalg.
// CHECK: return %[[G]], %[[M]] : tensor<?x64xf32>, tensor<?x64xf32>
// CHECK: func.func private @[[W]](
// CHECK: func.func private @[[WC]](
func.func @generic_and_map(%x: !a, %w: !b, %c: tensor<?x64xf32>, %e0: tensor<?x64xf32>)
    -> (tensor<?x64xf32>, tensor<?x64xf32>) {
  %d = fp8.scaled_matmul %x, %w : !a, !b -> tensor<?x64xbf16>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<?x64xbf16>) outs(%e0 : tensor<?x64xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %v = arith.extf %in : bf16 to f32
    linalg.yield %v : f32
  } -> tensor<?x64xf32>
  %dc = fp8.scaled_matmul %x, %w acc(%c : tensor<?x64xf32>) : !a, !b -> tensor<?x64xbf16>
  %m = linalg.map { arith.extf } ins(%dc : tensor<?x64xbf16>) outs(%e0 : tensor<?x64xf32>)
  return %g, %m : tensor<?x64xf32>, tensor<?x64xf32>
}

// -----

// Not a widening only: the rounded result is kept (bf16 kernel, the caller's
// widening stays). The fused and unfused kernels of one signature are two
// functions.

!a = !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>
!b = !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32>

// CHECK-LABEL: func.func @not_fused
// CHECK: %[[D:.*]] = call @[[N:__scaled_matmul_tiled_.*_i128_l8_bf16]](
// CHECK: arith.extf %[[D]] : tensor<32x64xbf16> to tensor<32x64xf32>
// CHECK: %[[T:.*]] = call @[[N]](
// CHECK: linalg.generic {{.*}} ins(%[[T]] : tensor<32x64xbf16>)
// CHECK: arith.extf
// CHECK-NEXT: arith.mulf
// CHECK: %[[P:.*]] = call @[[N]](
// CHECK: linalg.generic {{.*}} ins(%[[P]] : tensor<32x64xbf16>)
// CHECK: %[[F:.*]] = call @[[W:__scaled_matmul_tiled_.*_i128_l8_bf16_store_f32]](
// CHECK: return %[[D]], {{.*}}, %[[F]]
// CHECK: func.func private @[[N]](
// CHECK-NOT: arith.extf
// CHECK: return
// CHECK: func.func private @[[W]](
func.func @not_fused(%x: !a, %w: !b, %e0: tensor<32x64xf32>, %e1: tensor<64x32xf32>)
    -> (tensor<32x64xbf16>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32x64xf32>) {
  // A second use.
  %d = fp8.scaled_matmul %x, %w : !a, !b -> tensor<32x64xbf16>
  %e = arith.extf %d : tensor<32x64xbf16> to tensor<32x64xf32>
  // More than the widening in the body.
  %t = fp8.scaled_matmul %x, %w : !a, !b -> tensor<32x64xbf16>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<32x64xbf16>) outs(%e0 : tensor<32x64xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %v = arith.extf %in : bf16 to f32
    %v2 = arith.mulf %v, %v : f32
    linalg.yield %v2 : f32
  } -> tensor<32x64xf32>
  // A transposing widening.
  %p = fp8.scaled_matmul %x, %w : !a, !b -> tensor<32x64xbf16>
  %pt = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<32x64xbf16>) outs(%e1 : tensor<64x32xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %v = arith.extf %in : bf16 to f32
    linalg.yield %v : f32
  } -> tensor<64x32xf32>
  %f = fp8.scaled_matmul %x, %w : !a, !b -> tensor<32x64xbf16>
  %fe = arith.extf %f : tensor<32x64xbf16> to tensor<32x64xf32>
  return %d, %e, %g, %pt, %fe : tensor<32x64xbf16>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32x64xf32>
}

// -----

// Only a widening to f32 is fused (the kernel stores f32): not one to f64.

!a = !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>
!b = !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32>

// CHECK-LABEL: func.func @f64
// CHECK: %[[D:.*]] = call @{{.*}}_i128_l8_bf16(
// CHECK-NEXT: arith.extf %[[D]] : tensor<32x64xbf16> to tensor<32x64xf64>
// CHECK-NOT: _store_
// CHECK: func.func private @{{.*}}_i128_l8_bf16(
func.func @f64(%x: !a, %w: !b) -> tensor<32x64xf64> {
  %d = fp8.scaled_matmul %x, %w : !a, !b -> tensor<32x64xbf16>
  %e = arith.extf %d : tensor<32x64xbf16> to tensor<32x64xf64>
  return %e : tensor<32x64xf64>
}

// -----

// In fp8-cpu-pipeline, convert-elementwise-to-linalg makes the extf of a
// dynamic shape a generic whose init reads the size of the rounded result
// (tensor.dim): the size is then read from the widened result.

!a = !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>
!b = !fp8.scaled<64x256xf8E4M3FN, block = [128, 128], scale = f32>

// PIPE-LABEL: func.func @dynamic
// PIPE-NEXT: %[[D:.*]] = call @{{.*}}_i128_l8_bf16_store_f32(
// PIPE-NOT: linalg.generic
// PIPE: tensor.dim %[[D]], %{{.*}} : tensor<?x64xf32>
// PIPE-NOT: linalg.generic
// PIPE: return %[[D]] : tensor<?x64xf32>
func.func @dynamic(%x: !a, %w: !b) -> tensor<?x64xf32> {
  %d = fp8.scaled_matmul %x, %w : !a, !b -> tensor<?x64xbf16>
  %e = arith.extf %d : tensor<?x64xbf16> to tensor<?x64xf32>
  return %e : tensor<?x64xf32>
}
