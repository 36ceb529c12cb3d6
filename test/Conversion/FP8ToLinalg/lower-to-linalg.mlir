// RUN: fp8-opt %s --fp8-lower-to-linalg --split-input-file | FileCheck %s

// Quantize: amax per block through a floordiv output map (tails covered by
// construction), NaN-propagating maximumf, the scale rule, then the codes.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[BLK:.*]] = affine_map<(d0, d1) -> (d0, d1 floordiv 128)>
// CHECK-LABEL: func.func @quantize
// CHECK-SAME:    -> (tensor<3x300xf8E4M3FN>, tensor<3x3xf32>)
// CHECK:         %[[AMAX:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[BLK]]], iterator_types = ["parallel", "reduction"]}
// CHECK:           math.absf
// CHECK:           arith.maximumf
// CHECK:         %[[S:.*]] = linalg.generic {{.*}} ins(%[[AMAX]]
// CHECK:           arith.divf
// CHECK:           arith.select
// CHECK:         %[[Q:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[BLK]], #[[ID]]]
// CHECK-SAME:      ins(%{{.*}}, %[[S]] : tensor<3x300xf32>, tensor<3x3xf32>)
// CHECK:           arith.divf
// CHECK:           arith.bitcast {{.*}} : i8 to f8E4M3FN
// CHECK:         return %[[Q]], %[[S]]
func.func @quantize(%x: tensor<3x300xf32>) -> !fp8.scaled<3x300xf8E4M3FN, block = [1, 128], scale = f32> {
  %q = fp8.quantize %x : tensor<3x300xf32> -> !fp8.scaled<3x300xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<3x300xf8E4M3FN, block = [1, 128], scale = f32>
}

// -----

// Scaled matmul: exact FP32 partials per promotion interval (output map
// k floordiv 128), then the promotion with sa[m, kb*128/128] and
// sb[n/128, kb*128/128] and one fma per interval.
// CHECK-DAG: #[[PART:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2 floordiv 128)>
// CHECK-DAG: #[[SA:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[SB:.*]] = affine_map<(d0, d1, d2) -> (d1 floordiv 128, d2)>
// CHECK-LABEL: func.func @matmul
// CHECK:         linalg.generic {{.*}}#[[PART]]]{{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         linalg.generic {{.*}}#[[SA]], #[[SB]]
// CHECK:           math.fma
// CHECK:         arith.truncf {{.*}} : f32 to bf16
func.func @matmul(%a: !fp8.scaled<4x256xf8E4M3FN, block = [1, 128], scale = f32>,
                  %b: !fp8.scaled<200x256xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<4x200xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4x256xf8E4M3FN, block = [1, 128], scale = f32>,
      !fp8.scaled<200x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<4x200xbf16>
  return %d : tensor<4x200xbf16>
}
