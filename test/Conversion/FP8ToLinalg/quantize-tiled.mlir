// RUN: fp8-opt %s -split-input-file -fp8-lower-to-linalg="tiled=true vector-lanes=16" | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-cpu-pipeline=vector-lanes=16 | FileCheck %s --check-prefix=LLVM
// RUN: fp8-opt %s -split-input-file -fp8-lower-to-linalg="tiled=true vector-lanes=8" | FileCheck %s --check-prefix=L8

// The vectorised fp8.quantize of fp8-lower-to-linalg{tiled}
// (lib/Conversion/FP8ToLinalg/TiledQuantize.cpp): an scf.forall over chunks
// of whole block rows, writing in place into slices of the codes and
// scales; per block, the amax of whole vectors (maximumf, reduced by
// vector.reduction <maximumf>: NaN-propagating), then the row tails on
// scalars, the scale once, the codes of whole vectors (x / s as one divf of
// vectors, the conversion on vectors), then the tails. bf16 input is
// extended on vectors. Bit-equality with the reference generics:
// test/Integration/CPU/tiled-quantize.test.

// CHECK-LABEL: func.func @quantize_bf16
// CHECK: scf.forall
// CHECK: vector.transfer_read {{.*}} : tensor<?x256xbf16>, vector<16xbf16>
// CHECK: arith.extf {{.*}} : vector<16xbf16> to vector<16xf32>
// CHECK: math.absf {{.*}} : vector<16xf32>
// CHECK: arith.maximumf {{.*}} : vector<16xf32>
// CHECK: vector.reduction <maximumf>, {{.*}} : vector<16xf32> into f32
// CHECK: tensor.extract {{.*}} : tensor<?x256xbf16>
// CHECK: arith.maximumf {{.*}} : f32
// CHECK: tensor.insert {{.*}} : tensor<?x2xf32>
// CHECK: vector.broadcast {{.*}} : f32 to vector<16xf32>
// CHECK: arith.divf {{.*}} : vector<16xf32>
// CHECK: vector.transfer_write {{.*}} : vector<16xf8E4M3FN>, tensor<?x256xf8E4M3FN>
// CHECK: tensor.insert {{.*}} : tensor<?x256xf8E4M3FN>
// CHECK: scf.forall.in_parallel
// CHECK: tensor.parallel_insert_slice
// CHECK: tensor.parallel_insert_slice
// In the LLVM dialect: whole-vector loads, reduction, division and stores.
// LLVM-LABEL: llvm.func @quantize_bf16
// LLVM: llvm.intr.vector.reduce.fmaximum
// LLVM: llvm.fdiv {{.*}} : vector<16xf32>
// LLVM: llvm.store {{.*}} : vector<16xi8>, !llvm.ptr
// L8-LABEL: func.func @quantize_bf16
// L8: vector.reduction <maximumf>, {{.*}} : vector<8xf32> into f32
func.func @quantize_bf16(%x: tensor<?x256xbf16>) -> !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32> {
  %q = fp8.quantize %x : tensor<?x256xbf16> -> !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>
}

// -----

// E8M0 scales: the stored scale is broadcast as f8E8M0FNU and decoded on
// vectors by the reference's builder.
// CHECK-LABEL: func.func @quantize_e8m0
// CHECK: vector.broadcast {{.*}} : f8E8M0FNU to vector<16xf8E8M0FNU>
// CHECK: vector.transfer_write {{.*}} : vector<16xf8E5M2>, tensor<?x200xf8E5M2>
func.func @quantize_e8m0(%x: tensor<300x200xf32>) -> !fp8.scaled<300x200xf8E5M2, block = [128, 128], scale = f8E8M0FNU> {
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>} : tensor<300x200xf32> -> !fp8.scaled<300x200xf8E5M2, block = [128, 128], scale = f8E8M0FNU>
  return %q : !fp8.scaled<300x200xf8E5M2, block = [128, 128], scale = f8E8M0FNU>
}

// -----

// Dequantize: the block's scale decoded once, the codes on vectors.
// CHECK-LABEL: func.func @dequantize
// CHECK: scf.forall
// CHECK: tensor.extract {{.*}} : tensor<?x3xf32>
// CHECK: vector.broadcast {{.*}} : f32 to vector<16xf32>
// CHECK: vector.transfer_read {{.*}} : tensor<?x300xf8E4M3FN>, vector<16xf8E4M3FN>
// CHECK: arith.mulf {{.*}} : vector<16xf32>
// CHECK: arith.truncf {{.*}} : vector<16xf32> to vector<16xbf16>
// CHECK: vector.transfer_write {{.*}} : vector<16xbf16>, tensor<?x300xbf16>
func.func @dequantize(%q: !fp8.scaled<?x300xf8E4M3FN, block = [1, 128], scale = f32>) -> tensor<?x300xbf16> {
  %d = fp8.dequantize %q : !fp8.scaled<?x300xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<?x300xbf16>
  return %d : tensor<?x300xbf16>
}

// -----

// A bf16 result only widened to f32 (here in the form
// convert-elementwise-to-linalg gives an arith.extf of a dynamic shape: a
// generic whose init takes its size from the result): each value rounded to
// bf16 is stored widened, into an f32 result that replaces the widening;
// the size comes from that result. Bit-identity with the unfused form and
// the reference: test/Integration/CPU/tiled-quantize.test. The kernel is a
// shared function (quantize-tiled-outlined.mlir).
// CHECK-LABEL: func.func @dequantize_widened
// CHECK: %[[R:.*]] = call @[[DW:__dequantize_tiled[_A-Za-z0-9]*_bf16_f32_l16]](
// CHECK: %[[M:.*]] = tensor.dim %[[R]], %{{.*}} : tensor<?x300xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]], %[[M]] : tensor<?x300xf32>, index
// CHECK: func.func private @[[DW]](
// CHECK: scf.forall
// CHECK: arith.mulf {{.*}} : vector<16xf32>
// CHECK: %[[T:.*]] = arith.truncf {{.*}} : vector<16xf32> to vector<16xbf16>
// CHECK-NEXT: %[[E:.*]] = arith.extf %[[T]] : vector<16xbf16> to vector<16xf32>
// CHECK-NEXT: vector.transfer_write %[[E]], {{.*}} : vector<16xf32>, tensor<?x300xf32>
// CHECK: arith.truncf {{.*}} : f32 to bf16
// CHECK-NEXT: arith.extf {{.*}} : bf16 to f32
func.func @dequantize_widened(%q: !fp8.scaled<?x300xf8E4M3FN, block = [1, 128], scale = f32>) -> (tensor<?x300xf32>, index) {
  %d = fp8.dequantize %q : !fp8.scaled<?x300xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<?x300xbf16>
  %c0 = arith.constant 0 : index
  %m = tensor.dim %d, %c0 : tensor<?x300xbf16>
  %e = tensor.empty(%m) : tensor<?x300xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<?x300xbf16>) outs(%e : tensor<?x300xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %v = arith.extf %in : bf16 to f32
    linalg.yield %v : f32
  } -> tensor<?x300xf32>
  return %w, %m : tensor<?x300xf32>, index
}

// -----

// Rank 3 with leading blocks of 1: the rank-2 view (leading dimensions
// collapsed, free on contiguous data), the kernel (the shared function of
// the rank-2 view), the results expanded back.
// CHECK-LABEL: func.func @rank3
// CHECK: tensor.collapse_shape {{.*}} : tensor<4x8x256xf32> into tensor<32x256xf32>
// CHECK: call @[[Q3:__quantize_tiled_tensor_32x256xf32[_A-Za-z0-9]*]](
// CHECK: tensor.expand_shape {{.*}} : tensor<32x256xf8E4M3FN> into tensor<4x8x256xf8E4M3FN>
// CHECK: tensor.expand_shape {{.*}} : tensor<32x2xf32> into tensor<4x8x2xf32>
// CHECK: func.func private @[[Q3]](
// CHECK: scf.forall
// CHECK: vector.reduction <maximumf>
func.func @rank3(%x: tensor<4x8x256xf32>) -> !fp8.scaled<4x8x256xf8E4M3FN, block = [1, 1, 128], scale = f32> {
  %q = fp8.quantize %x : tensor<4x8x256xf32> -> !fp8.scaled<4x8x256xf8E4M3FN, block = [1, 1, 128], scale = f32>
  return %q : !fp8.scaled<4x8x256xf8E4M3FN, block = [1, 1, 128], scale = f32>
}

// -----

// Rank 1: one row.
// CHECK-LABEL: func.func @rank1
// CHECK: tensor.expand_shape {{.*}} : tensor<?xbf16> into tensor<1x?xbf16>
// CHECK: call @[[Q1:__quantize_tiled_tensor_1x_xbf16[_A-Za-z0-9]*]](
// CHECK: tensor.collapse_shape {{.*}} : tensor<1x?xf8E4M3FN> into tensor<?xf8E4M3FN>
// CHECK: func.func private @[[Q1]](
// CHECK: vector.reduction <maximumf>
func.func @rank1(%x: tensor<?xbf16>) -> !fp8.scaled<?xf8E4M3FN, block = [128], scale = f32> {
  %q = fp8.quantize %x : tensor<?xbf16> -> !fp8.scaled<?xf8E4M3FN, block = [128], scale = f32>
  return %q : !fp8.scaled<?xf8E4M3FN, block = [128], scale = f32>
}

// -----

// A leading block other than 1 has no rank-2 view: the reference generics,
// by chunks of block rows.
// CHECK-LABEL: func.func @rank3_blocked
// CHECK: scf.forall
// CHECK: linalg.generic
// CHECK-NOT: vector.transfer_read
func.func @rank3_blocked(%x: tensor<4x8x256xf32>) -> !fp8.scaled<4x8x256xf8E4M3FN, block = [1, 2, 128], scale = f32> {
  %q = fp8.quantize %x : tensor<4x8x256xf32> -> !fp8.scaled<4x8x256xf8E4M3FN, block = [1, 2, 128], scale = f32>
  return %q : !fp8.scaled<4x8x256xf8E4M3FN, block = [1, 2, 128], scale = f32>
}
