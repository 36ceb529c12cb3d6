// RUN: fp8-opt %s -split-input-file --fp8-lower-to-linalg | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-lower-to-linalg | FileCheck %s --check-prefix=NOFP8

// RequantizeLowering (lib/Conversion/FP8ToLinalg/LowerToLinalg.cpp): dequantize to f32
// in the input's block layout (never to bf16: one rounding, into the new
// codes), linalg.transpose by `permutation` when present (into a
// tensor.empty of the permuted sizes), then a full quantize in the result's
// block layout: amax over the result's blocks of the (transposed) values,
// the scale rule of the result's format, the codes.

// NOFP8-NOT: fp8.

// DeepSeek-V3 §3.5.2's Wgrad transpose: 128x1 tiles of a 256x384 gradient
// become 1x128 tiles of its 384x256 transpose. Input scales 2x384 are read
// through (d0 floordiv 128, d1); the amax runs over the transpose with
// (d0, d1 floordiv 128) into 384x2 scales.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[COL:.+]] = affine_map<(d0, d1) -> (d0 floordiv 128, d1)>
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (d0, d1 floordiv 128)>
// CHECK-LABEL: func.func @wgrad_transpose
// CHECK-SAME:    ([[D:%.+]]: tensor<256x384xf8E4M3FN>, [[S:%.+]]: tensor<2x384xf32>) -> (tensor<384x256xf8E4M3FN>, tensor<384x2xf32>)
// CHECK-NEXT:    [[DE:%.+]] = tensor.empty() : tensor<256x384xf32>
// CHECK-NEXT:    [[X:%.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[COL]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins([[D]], [[S]] : tensor<256x384xf8E4M3FN>, tensor<2x384xf32>) outs([[DE]] : tensor<256x384xf32>)
// CHECK-NEXT:    ^bb0(%{{[^:]+}}: f8E4M3FN, [[SC:%[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NOT:       arith.truncf
// CHECK:           [[P:%.+]] = arith.mulf %{{.+}}, [[SC]] : f32
// CHECK-NEXT:      linalg.yield [[P]] : f32
// CHECK-NEXT:    } -> tensor<256x384xf32>
// CHECK-NEXT:    [[TE:%.+]] = tensor.empty() : tensor<384x256xf32>
// CHECK-NEXT:    [[T:%.+]] = linalg.transpose ins([[X]] : tensor<256x384xf32>) outs([[TE]] : tensor<384x256xf32>) permutation = [1, 0]
// CHECK-NEXT:    [[AE:%.+]] = tensor.empty() : tensor<384x2xf32>
// CHECK:         [[AI:%.+]] = linalg.fill ins(%{{.+}} : f32) outs([[AE]] : tensor<384x2xf32>)
// CHECK-NEXT:    [[AMAX:%.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME:        ins([[T]] : tensor<384x256xf32>) outs([[AI]] : tensor<384x2xf32>)
// CHECK-NEXT:    ^bb0([[IN:%[^:]+]]: f32, [[ACC:%[^:]+]]: f32):
// CHECK-NEXT:      [[ABS:%.+]] = math.absf [[IN]] : f32
// CHECK-NEXT:      [[MAX:%.+]] = arith.maximumf [[ACC]], [[ABS]] : f32
// CHECK-NEXT:      linalg.yield [[MAX]] : f32
// CHECK:         [[NS:%.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins([[AMAX]] : tensor<384x2xf32>) outs(%{{.+}} : tensor<384x2xf32>)
// CHECK:           arith.constant 9.99999974E-5 : f32
// CHECK:           arith.constant 4.480000e+02 : f32
// CHECK:         [[CE:%.+]] = tensor.empty() : tensor<384x256xf8E4M3FN>
// CHECK-NEXT:    [[CODES:%.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins([[T]], [[NS]] : tensor<384x256xf32>, tensor<384x2xf32>) outs([[CE]] : tensor<384x256xf8E4M3FN>)
// CHECK:           arith.constant 1139277824 : i32
// CHECK:           arith.constant 126 : i32
// CHECK:         return [[CODES]], [[NS]] : tensor<384x256xf8E4M3FN>, tensor<384x2xf32>
func.func @wgrad_transpose(%g: !fp8.scaled<256x384xf8E4M3FN, block = [128, 1], scale = f32>) -> !fp8.scaled<384x256xf8E4M3FN, block = [1, 128], scale = f32> {
  %t = fp8.requantize %g {permutation = array<i64: 1, 0>}
       : !fp8.scaled<256x384xf8E4M3FN, block = [128, 1], scale = f32> -> !fp8.scaled<384x256xf8E4M3FN, block = [1, 128], scale = f32>
  return %t : !fp8.scaled<384x256xf8E4M3FN, block = [1, 128], scale = f32>
}

// -----

// No permutation: a change of block shape (1x128 -> 128x128) and format
// (E4M3FN -> E5M2, fmax 57344). No transpose; the quantize reads the
// dequantized tensor directly.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (d0, d1 floordiv 128)>
// CHECK-DAG: #[[BLK:.+]] = affine_map<(d0, d1) -> (d0 floordiv 128, d1 floordiv 128)>
// CHECK-LABEL: func.func @relayout
// CHECK-SAME:    ([[D:%.+]]: tensor<256x256xf8E4M3FN>, [[S:%.+]]: tensor<256x2xf32>) -> (tensor<256x256xf8E5M2>, tensor<2x2xf32>)
// CHECK:         [[X:%.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins([[D]], [[S]] : tensor<256x256xf8E4M3FN>, tensor<256x2xf32>) outs(%{{.+}} : tensor<256x256xf32>)
// CHECK-NOT:     linalg.transpose
// CHECK:         [[AMAX:%.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[BLK]]], iterator_types = ["reduction", "reduction"]}
// CHECK-SAME:        ins([[X]] : tensor<256x256xf32>) outs(%{{.+}} : tensor<2x2xf32>)
// CHECK:           arith.maximumf
// CHECK:           arith.constant 5.734400e+04 : f32
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[BLK]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins([[X]], %{{.+}} : tensor<256x256xf32>, tensor<2x2xf32>) outs(%{{.+}} : tensor<256x256xf8E5M2>)
// CHECK:           arith.constant 1198522367 : i32
// CHECK:           arith.constant 123 : i32
// CHECK:           arith.bitcast %{{.+}} : i8 to f8E5M2
func.func @relayout(%g: !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>) -> !fp8.scaled<256x256xf8E5M2, block = [128, 128], scale = f32> {
  %t = fp8.requantize %g : !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<256x256xf8E5M2, block = [128, 128], scale = f32>
  return %t : !fp8.scaled<256x256xf8E5M2, block = [128, 128], scale = f32>
}

// -----

// Rank 3, a dynamic leading dimension, permutation [0, 2, 1], E8M0 result
// scales in pow2 mode, eps = 0, saturate = false. The transposed init and
// every later tensor.empty take the dynamic size; the result scales are
// ceil([?, 256, 64] / [1, 128, 64]) = ?x2x1.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[IN:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2 floordiv 128)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2) -> (d0, d1 floordiv 128, d2 floordiv 64)>
// CHECK-LABEL: func.func @rank3_dynamic
// CHECK-SAME:    ([[D:%.+]]: tensor<?x64x256xf8E4M3FN>, [[S:%.+]]: tensor<?x64x2xf32>) -> (tensor<?x256x64xf8E5M2>, tensor<?x2x1xf8E8M0FNU>)
// CHECK:         [[X:%.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[IN]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME:        outs(%{{.+}} : tensor<?x64x256xf32>)
// CHECK:         [[DIM:%.+]] = tensor.dim [[X]], %{{.+}} : tensor<?x64x256xf32>
// CHECK-NEXT:    [[TE:%.+]] = tensor.empty([[DIM]]) : tensor<?x256x64xf32>
// CHECK-NEXT:    [[T:%.+]] = linalg.transpose ins([[X]] : tensor<?x64x256xf32>) outs([[TE]] : tensor<?x256x64xf32>) permutation = [0, 2, 1]
// CHECK:         [[TDIM:%.+]] = tensor.dim [[T]], %{{.+}} : tensor<?x256x64xf32>
// CHECK-NEXT:    tensor.empty([[TDIM]]) : tensor<?x2x1xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[OUT]]], iterator_types = ["parallel", "reduction", "reduction"]}
// CHECK-SAME:        ins([[T]] : tensor<?x256x64xf32>)
// CHECK:         tensor.empty([[TDIM]]) : tensor<?x2x1xf8E8M0FNU>
// CHECK:           [[EPS:%.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      arith.maximumf %{{.+}}, [[EPS]] : f32
// CHECK:           arith.constant 5.734400e+04 : f32
// CHECK:           arith.bitcast %{{.+}} : i8 to f8E8M0FNU
// CHECK:         tensor.empty([[TDIM]]) : tensor<?x256x64xf8E5M2>
// CHECK-NEXT:    linalg.generic {indexing_maps = [#[[ID]], #[[OUT]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME:        ins([[T]], %{{.+}} : tensor<?x256x64xf32>, tensor<?x2x1xf8E8M0FNU>)
// CHECK:           [[OVF:%.+]] = arith.constant 1198522367 : i32
// CHECK-NEXT:      [[ISOVF:%.+]] = arith.cmpi ugt, %{{.+}}, [[OVF]] : i32
// CHECK-NEXT:      [[INF:%.+]] = arith.constant 124 : i32
// CHECK-NEXT:      arith.select [[ISOVF]], [[INF]], %{{.+}} : i32
func.func @rank3_dynamic(%g: !fp8.scaled<?x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32>) -> !fp8.scaled<?x256x64xf8E5M2, block = [1, 128, 64], scale = f8E8M0FNU> {
  %t = fp8.requantize %g {permutation = array<i64: 0, 2, 1>, scale_mode = #fp8.scale_mode<pow2>, saturate = false, eps = 0.0 : f32}
       : !fp8.scaled<?x64x256xf8E4M3FN, block = [1, 1, 128], scale = f32> -> !fp8.scaled<?x256x64xf8E5M2, block = [1, 128, 64], scale = f8E8M0FNU>
  return %t : !fp8.scaled<?x256x64xf8E5M2, block = [1, 128, 64], scale = f8E8M0FNU>
}

// -----

// Same type and no permutation: RequantizeOp's folder (lib/Dialect/FP8/IR/FP8Ops.cpp)
// returns the input, and the conversion driver folds it, so nothing is
// computed: the function returns its arguments.
// CHECK-LABEL: func.func @identity_folds
// CHECK-SAME:    ([[D:%.+]]: tensor<256x256xf8E4M3FN>, [[S:%.+]]: tensor<256x2xf32>) -> (tensor<256x256xf8E4M3FN>, tensor<256x2xf32>)
// CHECK-NEXT:    return [[D]], [[S]] : tensor<256x256xf8E4M3FN>, tensor<256x2xf32>
func.func @identity_folds(%g: !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>) -> !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32> {
  %t = fp8.requantize %g {permutation = array<i64: 0, 1>} : !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>
  return %t : !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>
}
