// RUN: fp8-opt %s -split-input-file --fp8-lower-to-linalg | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-lower-to-linalg | FileCheck %s --check-prefix=NOFP8

// DequantizeLowering (lib/Conversion/FP8ToLinalg/LowerToLinalg.cpp, lowerDequantize):
// one element-wise linalg.generic over the data shape; the scale operand is
// read through `d floordiv block` (so a tail block needs no padding);
// result = f32(code) * f32(scale), rounded RNE (arith.truncf) only for a
// bf16/f16 result. The code is decoded exactly from its bits
// (createFP8BitsToF32): normal codes rebias the exponent field, subnormal
// codes are mantissa * 2^(1 - bias - mantissa bits), NaN codes give the
// canonical f32 NaN 0x7FC00000 (E4M3FN: |code| = 0x7F; E5M2: |code| > 0x7C,
// with 0x7C = Inf).

// NOFP8-NOT: fp8.

// E4M3FN, 1x128 tiles with a tail (129 = 128 + 1: 2 scales per row), f32
// result: no rounding step after the product.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[BLK:.+]] = affine_map<(d0, d1) -> (d0, d1 floordiv 128)>
// CHECK-LABEL: func.func @e4m3_tile_f32
// CHECK-SAME:    ([[D:%.+]]: tensor<200x129xf8E4M3FN>, [[S:%.+]]: tensor<200x2xf32>) -> tensor<200x129xf32>
// CHECK-NEXT:    [[E:%.+]] = tensor.empty() : tensor<200x129xf32>
// CHECK-NEXT:    [[R:%.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[BLK]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins([[D]], [[S]] : tensor<200x129xf8E4M3FN>, tensor<200x2xf32>) outs([[E]] : tensor<200x129xf32>)
// CHECK-NEXT:    ^bb0([[C:%[^:]+]]: f8E4M3FN, [[SC:%[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:      [[I8:%.+]] = arith.bitcast [[C]] : f8E4M3FN to i8
// CHECK-NEXT:      [[V:%.+]] = arith.extui [[I8]] : i8 to i32
// (CHECK-DAG where the textual order of sibling operands depends on the C++
// compiler's evaluation order of nested builder calls.)
// Sign: (code & 0x80) << 24; magnitude: code & 0x7F.
// CHECK-DAG:       [[C80:%.+]] = arith.constant 128 : i32
// CHECK-DAG:       [[SGN0:%.+]] = arith.andi [[V]], [[C80]] : i32
// CHECK-DAG:       [[C24:%.+]] = arith.constant 24 : i32
// CHECK-DAG:       [[SIGN:%.+]] = arith.shli [[SGN0]], [[C24]] : i32
// CHECK-DAG:       [[C7F:%.+]] = arith.constant 127 : i32
// CHECK-DAG:       [[MAG:%.+]] = arith.andi [[V]], [[C7F]] : i32
// Normal: (|code| << 20) + ((127 - 7) << 23).
// CHECK-DAG:       [[REBIAS:%.+]] = arith.constant 1006632960 : i32
// CHECK-DAG:       [[SH:%.+]] = arith.constant 20 : i32
// CHECK-DAG:       [[MSH:%.+]] = arith.shli [[MAG]], [[SH]] : i32
// CHECK-DAG:       [[NORM:%.+]] = arith.addi [[MSH]], [[REBIAS]] : i32
// Subnormal: mantissa (3 bits) * 2^-9, exact in f32.
// CHECK-DAG:       [[M3:%.+]] = arith.constant 7 : i32
// CHECK-DAG:       [[MANT:%.+]] = arith.andi [[V]], [[M3]] : i32
// CHECK-DAG:       [[GRID:%.+]] = arith.constant 0.001953125 : f32
// CHECK-DAG:       [[MF:%.+]] = arith.uitofp [[MANT]] : i32 to f32
// CHECK-DAG:       [[SUBF:%.+]] = arith.mulf [[MF]], [[GRID]] : f32
// CHECK:           [[SUBB:%.+]] = arith.bitcast [[SUBF]] : f32 to i32
// CHECK-NEXT:      [[EIGHT:%.+]] = arith.constant 8 : i32
// CHECK-NEXT:      [[ISSUB:%.+]] = arith.cmpi ult, [[MAG]], [[EIGHT]] : i32
// CHECK-NEXT:      [[SEL:%.+]] = arith.select [[ISSUB]], [[SUBB]], [[NORM]] : i32
// CHECK-NEXT:      [[SIGNED:%.+]] = arith.ori [[SEL]], [[SIGN]] : i32
// NaN: |code| == 0x7F only (E4M3FN has no Inf).
// CHECK-NEXT:      [[C7F2:%.+]] = arith.constant 127 : i32
// CHECK-NEXT:      [[ISNAN:%.+]] = arith.cmpi eq, [[MAG]], [[C7F2]] : i32
// CHECK-NEXT:      [[QNAN:%.+]] = arith.constant 2143289344 : i32
// CHECK-NEXT:      [[BITS:%.+]] = arith.select [[ISNAN]], [[QNAN]], [[SIGNED]] : i32
// CHECK-NEXT:      [[F:%.+]] = arith.bitcast [[BITS]] : i32 to f32
// CHECK-NEXT:      [[P:%.+]] = arith.mulf [[F]], [[SC]] : f32
// CHECK-NEXT:      linalg.yield [[P]] : f32
// CHECK-NEXT:    } -> tensor<200x129xf32>
// CHECK-NEXT:    return [[R]] : tensor<200x129xf32>
func.func @e4m3_tile_f32(%q: !fp8.scaled<200x129xf8E4M3FN, block = [1, 128], scale = f32>) -> tensor<200x129xf32> {
  %d = fp8.dequantize %q : !fp8.scaled<200x129xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<200x129xf32>
  return %d : tensor<200x129xf32>
}

// -----

// E5M2, 128x128 blocks with tails in both dimensions (2x3 scales), bf16
// result: one RNE rounding of the f32 product.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[BLK:.+]] = affine_map<(d0, d1) -> (d0 floordiv 128, d1 floordiv 128)>
// CHECK-LABEL: func.func @e5m2_block_bf16
// CHECK-SAME:    ([[D:%.+]]: tensor<256x300xf8E5M2>, [[S:%.+]]: tensor<2x3xf32>) -> tensor<256x300xbf16>
// CHECK-NEXT:    [[E:%.+]] = tensor.empty() : tensor<256x300xbf16>
// CHECK-NEXT:    [[R:%.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[BLK]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins([[D]], [[S]] : tensor<256x300xf8E5M2>, tensor<2x3xf32>) outs([[E]] : tensor<256x300xbf16>)
// CHECK-NEXT:    ^bb0([[C:%[^:]+]]: f8E5M2, [[SC:%[^:]+]]: f32, %{{[^:]+}}: bf16):
// CHECK-NEXT:      arith.bitcast [[C]] : f8E5M2 to i8
// Normal: (|code| << 21) + ((127 - 15) << 23); subnormal: mantissa * 2^-16.
// CHECK-DAG:       arith.constant 939524096 : i32
// CHECK-DAG:       arith.constant 21 : i32
// CHECK:           arith.constant 3 : i32
// CHECK:           arith.constant 1.52587891E-5 : f32
// CHECK:           [[FOUR:%.+]] = arith.constant 4 : i32
// CHECK-NEXT:      arith.cmpi ult, %{{.+}}, [[FOUR]] : i32
// Inf: |code| == 0x7C keeps the sign; NaN: |code| > 0x7C.
// CHECK:           [[C7C:%.+]] = arith.constant 124 : i32
// CHECK-NEXT:      [[ISINF:%.+]] = arith.cmpi eq, [[MAG:%.+]], [[C7C]] : i32
// CHECK-NEXT:      [[INFB:%.+]] = arith.constant 2139095040 : i32
// CHECK-NEXT:      [[SINF:%.+]] = arith.ori [[SIGN:%.+]], [[INFB]] : i32
// CHECK-NEXT:      [[B1:%.+]] = arith.select [[ISINF]], [[SINF]], %{{.+}} : i32
// CHECK-NEXT:      [[C7C2:%.+]] = arith.constant 124 : i32
// CHECK-NEXT:      [[ISNAN:%.+]] = arith.cmpi ugt, [[MAG]], [[C7C2]] : i32
// CHECK-NEXT:      [[QNAN:%.+]] = arith.constant 2143289344 : i32
// CHECK-NEXT:      [[B2:%.+]] = arith.select [[ISNAN]], [[QNAN]], [[B1]] : i32
// CHECK-NEXT:      [[F:%.+]] = arith.bitcast [[B2]] : i32 to f32
// CHECK-NEXT:      [[P:%.+]] = arith.mulf [[F]], [[SC]] : f32
// CHECK-NEXT:      [[T:%.+]] = arith.truncf [[P]] : f32 to bf16
// CHECK-NEXT:      linalg.yield [[T]] : bf16
// CHECK-NEXT:    } -> tensor<256x300xbf16>
// CHECK-NEXT:    return [[R]] : tensor<256x300xbf16>
func.func @e5m2_block_bf16(%q: !fp8.scaled<256x300xf8E5M2, block = [128, 128], scale = f32>) -> tensor<256x300xbf16> {
  %d = fp8.dequantize %q : !fp8.scaled<256x300xf8E5M2, block = [128, 128], scale = f32> -> tensor<256x300xbf16>
  return %d : tensor<256x300xbf16>
}

// -----

// Dynamic rows, E8M0 scales on 1x32 blocks (300 = 9 * 32 + 12: 10 scales
// per row), f16 result. The E8M0 scale decodes to 2^(e - 127): e << 23, with
// e = 0 -> 2^-127 (the f32 subnormal 0x00400000) and e = 0xFF -> NaN.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[BLK:.+]] = affine_map<(d0, d1) -> (d0, d1 floordiv 32)>
// CHECK-LABEL: func.func @dynamic_e8m0_f16
// CHECK-SAME:    ([[D:%.+]]: tensor<?x300xf8E4M3FN>, [[S:%.+]]: tensor<?x10xf8E8M0FNU>) -> tensor<?x300xf16>
// CHECK:         [[DIM:%.+]] = tensor.dim [[D]], %{{.+}} : tensor<?x300xf8E4M3FN>
// CHECK-NEXT:    [[E:%.+]] = tensor.empty([[DIM]]) : tensor<?x300xf16>
// CHECK-NEXT:    [[R:%.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[BLK]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins([[D]], [[S]] : tensor<?x300xf8E4M3FN>, tensor<?x10xf8E8M0FNU>) outs([[E]] : tensor<?x300xf16>)
// CHECK-NEXT:    ^bb0([[C:%[^:]+]]: f8E4M3FN, [[SC:%[^:]+]]: f8E8M0FNU, %{{[^:]+}}: f16):
// CHECK:           [[F:%.+]] = arith.bitcast %{{.+}} : i32 to f32
// CHECK-NEXT:      [[SI8:%.+]] = arith.bitcast [[SC]] : f8E8M0FNU to i8
// CHECK-NEXT:      [[SE:%.+]] = arith.extui [[SI8]] : i8 to i32
// CHECK-NEXT:      [[C23:%.+]] = arith.constant 23 : i32
// CHECK-NEXT:      [[SHL:%.+]] = arith.shli [[SE]], [[C23]] : i32
// CHECK-DAG:       [[TINY:%.+]] = arith.constant 4194304 : i32
// CHECK-DAG:       [[Z:%.+]] = arith.constant 0 : i32
// CHECK-DAG:       [[ISZ:%.+]] = arith.cmpi eq, [[SE]], [[Z]] : i32
// CHECK:           [[B1:%.+]] = arith.select [[ISZ]], [[TINY]], [[SHL]] : i32
// CHECK-DAG:       [[QNAN:%.+]] = arith.constant 2143289344 : i32
// CHECK-DAG:       [[FF:%.+]] = arith.constant 255 : i32
// CHECK-DAG:       [[ISFF:%.+]] = arith.cmpi eq, [[SE]], [[FF]] : i32
// CHECK:           [[B2:%.+]] = arith.select [[ISFF]], [[QNAN]], [[B1]] : i32
// CHECK-NEXT:      [[SF:%.+]] = arith.bitcast [[B2]] : i32 to f32
// CHECK-NEXT:      [[P:%.+]] = arith.mulf [[F]], [[SF]] : f32
// CHECK-NEXT:      [[T:%.+]] = arith.truncf [[P]] : f32 to f16
// CHECK-NEXT:      linalg.yield [[T]] : f16
// CHECK:         return [[R]] : tensor<?x300xf16>
func.func @dynamic_e8m0_f16(%q: !fp8.scaled<?x300xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>) -> tensor<?x300xf16> {
  %d = fp8.dequantize %q : !fp8.scaled<?x300xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU> -> tensor<?x300xf16>
  return %d : tensor<?x300xf16>
}

// -----

// Per-tensor scaling (one block spanning the tensor): the scale map sends
// every element to scale (0, 0).
// CHECK-DAG: #[[PT:.+]] = affine_map<(d0, d1) -> (d0 floordiv 64, d1 floordiv 96)>
// CHECK-LABEL: func.func @per_tensor
// CHECK-SAME:    ([[D:%.+]]: tensor<64x96xf8E4M3FN>, [[S:%.+]]: tensor<1x1xf32>)
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #[[PT]], #{{.+}}], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins([[D]], [[S]] : tensor<64x96xf8E4M3FN>, tensor<1x1xf32>)
func.func @per_tensor(%q: !fp8.scaled<64x96xf8E4M3FN, block = [64, 96], scale = f32>) -> tensor<64x96xf32> {
  %d = fp8.dequantize %q : !fp8.scaled<64x96xf8E4M3FN, block = [64, 96], scale = f32> -> tensor<64x96xf32>
  return %d : tensor<64x96xf32>
}
