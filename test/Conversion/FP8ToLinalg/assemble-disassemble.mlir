// RUN: fp8-opt %s -split-input-file --fp8-lower-to-linalg | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-lower-to-linalg | FileCheck %s --check-prefix=NOFP8

// AssembleLowering / DisassembleLowering (lib/Conversion/FP8ToLinalg/LowerToLinalg.cpp):
// once every !fp8.scaled value is its (data, scales) pair, fp8.assemble
// forwards its two operands and fp8.disassemble forwards the pair, data
// first, scales second. No copy, no op is left.

// NOFP8-NOT: fp8.

// assemble feeding a dequantize: the dequantize reads the two function
// arguments directly, in order (data through the identity map, scales
// through the block map).
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[BLK:.+]] = affine_map<(d0, d1) -> (d0 floordiv 128, d1 floordiv 128)>
// CHECK-LABEL: func.func @assemble_into_dequantize
// CHECK-SAME:    ([[D:%.+]]: tensor<256x512xf8E4M3FN>, [[S:%.+]]: tensor<2x4xf32>) -> tensor<256x512xbf16>
// CHECK-NEXT:    [[E:%.+]] = tensor.empty() : tensor<256x512xbf16>
// CHECK-NEXT:    [[R:%.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[BLK]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins([[D]], [[S]] : tensor<256x512xf8E4M3FN>, tensor<2x4xf32>) outs([[E]] : tensor<256x512xbf16>)
// CHECK:         return [[R]] : tensor<256x512xbf16>
func.func @assemble_into_dequantize(%d: tensor<256x512xf8E4M3FN>, %s: tensor<2x4xf32>) -> tensor<256x512xbf16> {
  %q = fp8.assemble %d, %s : tensor<256x512xf8E4M3FN>, tensor<2x4xf32> -> !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>
  %x = fp8.dequantize %q : !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<256x512xbf16>
  return %x : tensor<256x512xbf16>
}

// -----

// disassemble of a quantize: the results are the codes generic and the
// scale generic of the lowered quantize (results swapped on purpose, so
// that the data/scales order is pinned).
// CHECK-LABEL: func.func @disassemble_quantize
// CHECK-SAME:    ([[X:%.+]]: tensor<4x256xf32>) -> (tensor<4x2xf32>, tensor<4x256xf8E4M3FN>)
// CHECK:         [[AMAX:%.+]] = linalg.generic
// CHECK-SAME:        ins([[X]] : tensor<4x256xf32>)
// CHECK:         [[S:%.+]] = linalg.generic
// CHECK-SAME:        ins([[AMAX]] : tensor<4x2xf32>)
// CHECK:         [[CODES:%.+]] = linalg.generic
// CHECK-SAME:        ins([[X]], [[S]] : tensor<4x256xf32>, tensor<4x2xf32>) outs(%{{.+}} : tensor<4x256xf8E4M3FN>)
// CHECK:         return [[S]], [[CODES]] : tensor<4x2xf32>, tensor<4x256xf8E4M3FN>
func.func @disassemble_quantize(%x: tensor<4x256xf32>) -> (tensor<4x2xf32>, tensor<4x256xf8E4M3FN>) {
  %q = fp8.quantize %x : tensor<4x256xf32> -> !fp8.scaled<4x256xf8E4M3FN, block = [1, 128], scale = f32>
  %d, %s = fp8.disassemble %q : !fp8.scaled<4x256xf8E4M3FN, block = [1, 128], scale = f32>
  return %s, %d : tensor<4x2xf32>, tensor<4x256xf8E4M3FN>
}

// -----

// assemble then disassemble, and the assembled value returned as well: all
// four results are the two arguments (E5M2 data, E8M0 scales, a tail: 129
// columns in 1x32 blocks = 5 scales per row). Nothing else is emitted.
// CHECK-LABEL: func.func @roundtrip_e8m0_tail
// CHECK-SAME:    ([[D:%.+]]: tensor<200x129xf8E5M2>, [[S:%.+]]: tensor<200x5xf8E8M0FNU>)
// CHECK-SAME:    -> (tensor<200x5xf8E8M0FNU>, tensor<200x129xf8E5M2>, tensor<200x129xf8E5M2>, tensor<200x5xf8E8M0FNU>)
// CHECK-NEXT:    return [[S]], [[D]], [[D]], [[S]] : tensor<200x5xf8E8M0FNU>, tensor<200x129xf8E5M2>, tensor<200x129xf8E5M2>, tensor<200x5xf8E8M0FNU>
// CHECK-NEXT:  }
func.func @roundtrip_e8m0_tail(%d: tensor<200x129xf8E5M2>, %s: tensor<200x5xf8E8M0FNU>)
    -> (tensor<200x5xf8E8M0FNU>, tensor<200x129xf8E5M2>, !fp8.scaled<200x129xf8E5M2, block = [1, 32], scale = f8E8M0FNU>) {
  %q = fp8.assemble %d, %s : tensor<200x129xf8E5M2>, tensor<200x5xf8E8M0FNU> -> !fp8.scaled<200x129xf8E5M2, block = [1, 32], scale = f8E8M0FNU>
  %d2, %s2 = fp8.disassemble %q : !fp8.scaled<200x129xf8E5M2, block = [1, 32], scale = f8E8M0FNU>
  return %s2, %d2, %q : tensor<200x5xf8E8M0FNU>, tensor<200x129xf8E5M2>, !fp8.scaled<200x129xf8E5M2, block = [1, 32], scale = f8E8M0FNU>
}

// -----

// disassemble of a scaled function argument (dynamic rows): the argument is
// already the pair.
// CHECK-LABEL: func.func @disassemble_argument
// CHECK-SAME:    ([[D:%.+]]: tensor<?x512xf8E4M3FN>, [[S:%.+]]: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x512xf8E4M3FN>)
// CHECK-NEXT:    return [[S]], [[D]] : tensor<?x4xf32>, tensor<?x512xf8E4M3FN>
func.func @disassemble_argument(%q: !fp8.scaled<?x512xf8E4M3FN, block = [1, 128], scale = f32>) -> (tensor<?x4xf32>, tensor<?x512xf8E4M3FN>) {
  %d, %s = fp8.disassemble %q : !fp8.scaled<?x512xf8E4M3FN, block = [1, 128], scale = f32>
  return %s, %d : tensor<?x4xf32>, tensor<?x512xf8E4M3FN>
}
