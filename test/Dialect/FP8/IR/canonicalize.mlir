// RUN: fp8-opt %s -split-input-file -canonicalize | FileCheck %s

// disassemble(assemble(d, s)) -> d, s
// CHECK-LABEL: func.func @disassemble_of_assemble
// CHECK-SAME: (%[[D:.*]]: tensor<256x512xf8E4M3FN>, %[[S:.*]]: tensor<2x4xf32>)
// CHECK-NOT: fp8.{{(assemble|disassemble)}}
// CHECK: return %[[D]], %[[S]]
func.func @disassemble_of_assemble(%d: tensor<256x512xf8E4M3FN>, %s: tensor<2x4xf32>) -> (tensor<256x512xf8E4M3FN>, tensor<2x4xf32>) {
  %q = fp8.assemble %d, %s : tensor<256x512xf8E4M3FN>, tensor<2x4xf32> -> !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>
  %d2, %s2 = fp8.disassemble %q : !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>
  return %d2, %s2 : tensor<256x512xf8E4M3FN>, tensor<2x4xf32>
}

// -----

// assemble(disassemble(q)) -> q
// CHECK-LABEL: func.func @assemble_of_disassemble
// CHECK-SAME: (%[[Q:.*]]: !fp8.scaled
// CHECK-NOT: fp8.{{(assemble|disassemble)}}
// CHECK: return %[[Q]]
func.func @assemble_of_disassemble(%q: !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32> {
  %d, %s = fp8.disassemble %q : !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>
  %r = fp8.assemble %d, %s : tensor<256x512xf8E4M3FN>, tensor<2x4xf32> -> !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>
  return %r : !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>
}

// -----

// Data and scales from different scaled values do not fold.
// CHECK-LABEL: func.func @assemble_mixed_sources
// CHECK: fp8.assemble
func.func @assemble_mixed_sources(%q: !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>,
                                  %p: !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32> {
  %d, %s = fp8.disassemble %q : !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>
  %e, %t = fp8.disassemble %p : !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>
  %r = fp8.assemble %d, %t : tensor<256x512xf8E4M3FN>, tensor<2x4xf32> -> !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>
  return %r : !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>
}

// -----

// A requantize to the same layout is the identity; a transpose or a new layout is not.
// CHECK-LABEL: func.func @requantize_identity
// CHECK-SAME: (%[[Q:.*]]: !fp8.scaled
// CHECK-NEXT: %[[T:.*]] = fp8.requantize %[[Q]] {permutation = array<i64: 1, 0>}
// CHECK-NEXT: %[[L:.*]] = fp8.requantize %[[Q]] : {{.*}} -> !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32>
// CHECK-NEXT: return %[[Q]], %[[T]], %[[L]]
func.func @requantize_identity(%q: !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>)
    -> (!fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>,
        !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32>) {
  %same = fp8.requantize %q {permutation = array<i64: 0, 1>} : !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>
  %t = fp8.requantize %q {permutation = array<i64: 1, 0>} : !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>
  %l = fp8.requantize %q : !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32>
  return %same, %t, %l : !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32>
}

// -----

// quantize(dequantize(q)) with the same layout is q; with another layout
// it stays.
// CHECK-LABEL: func.func @quantize_dequantize
// CHECK-SAME: (%[[Q:.*]]: !fp8.scaled
// CHECK: %[[D:.*]] = fp8.dequantize %[[Q]]
// CHECK: %[[R:.*]] = fp8.quantize %[[D]] : tensor<128x256xf32> -> !fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32>
// CHECK: return %[[Q]], %[[R]]
func.func @quantize_dequantize(%q: !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>) -> (!fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32>) {
  %d = fp8.dequantize %q : !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<128x256xf32>
  %same = fp8.quantize %d : tensor<128x256xf32> -> !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>
  %other = fp8.quantize %d : tensor<128x256xf32> -> !fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32>
  return %same, %other : !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32>
}

// -----

// A requantize that asks for power-of-two scales stored as f32 is not the
// identity: the input's f32 scales need not be powers of two.
// CHECK-LABEL: func.func @requantize_pow2_not_folded
// CHECK: %[[R:.*]] = fp8.requantize %{{.*}} {scale_mode = #fp8.scale_mode<pow2>}
// CHECK: return %[[R]]
func.func @requantize_pow2_not_folded(%q: !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>) -> !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32> {
  %r = fp8.requantize %q {scale_mode = #fp8.scale_mode<pow2>} : !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>
  return %r : !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>
}
