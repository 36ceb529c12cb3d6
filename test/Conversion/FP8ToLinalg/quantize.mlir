// RUN: fp8-opt %s -split-input-file --fp8-lower-to-linalg | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-lower-to-linalg | FileCheck %s --check-prefix=NOFP8

// QuantizeLowering (lib/Conversion/FP8ToLinalg/LowerToLinalg.cpp, lowerQuantize): the
// contract of fp8-lower-to-linalg (include/fp8/Conversion/Passes.td) is
//   1. amax per block over the block's valid elements: a linalg.generic whose
//      output map is `d floordiv block` (reduction iterators along blocked
//      dimensions, parallel where the block is 1), combining with
//      arith.maximumf (NaN-propagating; maxnumf would drop a NaN) from 0;
//   2. s = max(amax, eps) / fmax in f32 (fmax = 448 for E4M3FN, 57344 for
//      E5M2); s = 1 unless s is a normal f32 (biased exponent neither 0 nor
//      255); pow2 mode rounds s up to a power of two from its bits; an
//      f8E8M0FNU scale stores the biased exponent;
//   3. codes = cvt_rne(x / s) per element, reading the scale of the
//      element's block through the same floordiv map; satfinite clamps an
//      overflow to the largest code (0x7E = 448 / 0x7B = 57344), otherwise
//      it becomes NaN (0x7F, E4M3FN) or Inf (0x7C, E5M2); NaN -> 0x7F.
// Scale tensors have shape ceil(shape / block).

// NOFP8-NOT: fp8.

// 1x128 tiles (activations), f32 input, a K tail: 300 = 2 * 128 + 44, so the
// scale tensor is 3x3 and the last block of each row covers 44 elements.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[BLK:.+]] = affine_map<(d0, d1) -> (d0, d1 floordiv 128)>
// CHECK-LABEL: func.func @tile_1x128
// CHECK-SAME:    ([[X:%.+]]: tensor<3x300xf32>) -> (tensor<3x300xf8E4M3FN>, tensor<3x3xf32>)
//
// amax: fill with 0, reduce |x| with maximumf along the row, one output
// element per 1x128 tile.
// CHECK:         [[AE:%.+]] = tensor.empty() : tensor<3x3xf32>
// CHECK-NEXT:    [[ZERO:%.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    [[AI:%.+]] = linalg.fill ins([[ZERO]] : f32) outs([[AE]] : tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT:    [[AMAX:%.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[BLK]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME:        ins([[X]] : tensor<3x300xf32>) outs([[AI]] : tensor<3x3xf32>)
// CHECK-NEXT:    ^bb0([[IN:%[^:]+]]: f32, [[ACC:%[^:]+]]: f32):
// CHECK-NEXT:      [[ABS:%.+]] = math.absf [[IN]] : f32
// CHECK-NEXT:      [[MAX:%.+]] = arith.maximumf [[ACC]], [[ABS]] : f32
// CHECK-NEXT:      linalg.yield [[MAX]] : f32
// CHECK-NEXT:    } -> tensor<3x3xf32>
//
// The scale: max(amax, eps = 1e-4 (the default)), / 448, normal-or-1.
// CHECK-NEXT:    [[SE:%.+]] = tensor.empty() : tensor<3x3xf32>
// CHECK-NEXT:    [[S:%.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins([[AMAX]] : tensor<3x3xf32>) outs([[SE]] : tensor<3x3xf32>)
// CHECK-NEXT:    ^bb0([[A:%[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:      [[EPS:%.+]] = arith.constant 9.99999974E-5 : f32
// CHECK-NEXT:      [[CLAMP:%.+]] = arith.maximumf [[A]], [[EPS]] : f32
// CHECK-NEXT:      [[FMAX:%.+]] = arith.constant 4.480000e+02 : f32
// CHECK-NEXT:      [[Q:%.+]] = arith.divf [[CLAMP]], [[FMAX]] : f32
// (CHECK-DAG where the textual order of sibling operands depends on the C++
// compiler's evaluation order of nested builder calls.)
// CHECK-DAG:       [[C255:%.+]] = arith.constant 255 : i32
// CHECK-DAG:       [[C23:%.+]] = arith.constant 23 : i32
// CHECK-DAG:       [[QB:%.+]] = arith.bitcast [[Q]] : f32 to i32
// CHECK-DAG:       [[SH:%.+]] = arith.shrui [[QB]], [[C23]] : i32
// CHECK-DAG:       [[E:%.+]] = arith.andi [[SH]], [[C255]] : i32
// CHECK-DAG:       [[C255B:%.+]] = arith.constant 255 : i32
// CHECK-DAG:       [[NOTINF:%.+]] = arith.cmpi ne, [[E]], [[C255B]] : i32
// CHECK-DAG:       [[C0:%.+]] = arith.constant 0 : i32
// CHECK-DAG:       [[NOTSUB:%.+]] = arith.cmpi ne, [[E]], [[C0]] : i32
// CHECK:           [[NORMAL:%.+]] = arith.andi [[NOTSUB]], [[NOTINF]] : i1
// CHECK-NEXT:      [[ONE:%.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      [[SV:%.+]] = arith.select [[NORMAL]], [[Q]], [[ONE]] : f32
// CHECK-NEXT:      linalg.yield [[SV]] : f32
// CHECK-NEXT:    } -> tensor<3x3xf32>
//
// The codes: x / s[i, j floordiv 128], RNE to E4M3FN with satfinite.
// CHECK-NEXT:    [[CE:%.+]] = tensor.empty() : tensor<3x300xf8E4M3FN>
// CHECK-NEXT:    [[CODES:%.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[BLK]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins([[X]], [[S]] : tensor<3x300xf32>, tensor<3x3xf32>) outs([[CE]] : tensor<3x300xf8E4M3FN>)
// CHECK-NEXT:    ^bb0([[XV:%[^:]+]]: f32, [[SC:%[^:]+]]: f32, %{{[^:]+}}: f8E4M3FN):
// CHECK-NEXT:      [[DIV:%.+]] = arith.divf [[XV]], [[SC]] : f32
// CHECK-NEXT:      [[BITS:%.+]] = arith.bitcast [[DIV]] : f32 to i32
// CHECK-NEXT:      [[ABSMASK:%.+]] = arith.constant 2147483647 : i32
// CHECK-NEXT:      [[ABSB:%.+]] = arith.andi [[BITS]], [[ABSMASK]] : i32
// Sign: (bits >> 24) & 0x80.
// CHECK-DAG:       [[C24:%.+]] = arith.constant 24 : i32
// CHECK-DAG:       [[C80:%.+]] = arith.constant 128 : i32
// CHECK-DAG:       [[SGN0:%.+]] = arith.shrui [[BITS]], [[C24]] : i32
// CHECK-DAG:       [[SIGN:%.+]] = arith.andi [[SGN0]], [[C80]] : i32
// Rebias by (127 - 7) << 23 and drop 23 - 3 = 20 mantissa bits (normal
// range); the subnormal grid shift is 141 - exponent; min normal 2^-6.
// CHECK:           arith.constant 1006632960 : i32
// CHECK:           arith.constant 20 : i32
// CHECK:           arith.constant 141 : i32
// CHECK:           [[MINNORM:%.+]] = arith.constant 1015021568 : i32
// CHECK-NEXT:      [[ISSUB:%.+]] = arith.cmpi ult, [[ABSB]], [[MINNORM]] : i32
// CHECK-NEXT:      [[RND:%.+]] = arith.select [[ISSUB]], %{{.+}}, %{{.+}} : i32
// Overflow: |x/s| > 464 (= 0x43E80000; 464 itself ties to the even 448).
// CHECK-NEXT:      [[OVF:%.+]] = arith.constant 1139277824 : i32
// CHECK-NEXT:      [[ISOVF:%.+]] = arith.cmpi ugt, [[ABSB]], [[OVF]] : i32
// CHECK-NEXT:      [[MAXCODE:%.+]] = arith.constant 126 : i32
// CHECK-NEXT:      [[SAT:%.+]] = arith.select [[ISOVF]], [[MAXCODE]], [[RND]] : i32
// CHECK-NEXT:      [[SIGNED:%.+]] = arith.ori [[SAT]], [[SIGN]] : i32
// CHECK-NEXT:      [[INFB:%.+]] = arith.constant 2139095040 : i32
// CHECK-NEXT:      [[ISNAN:%.+]] = arith.cmpi ugt, [[ABSB]], [[INFB]] : i32
// CHECK-NEXT:      [[NANCODE:%.+]] = arith.constant 127 : i32
// CHECK-NEXT:      [[CODE:%.+]] = arith.select [[ISNAN]], [[NANCODE]], [[SIGNED]] : i32
// CHECK-NEXT:      [[I8:%.+]] = arith.trunci [[CODE]] : i32 to i8
// CHECK-NEXT:      [[F8:%.+]] = arith.bitcast [[I8]] : i8 to f8E4M3FN
// CHECK-NEXT:      linalg.yield [[F8]] : f8E4M3FN
// CHECK-NEXT:    } -> tensor<3x300xf8E4M3FN>
// CHECK-NEXT:    return [[CODES]], [[S]] : tensor<3x300xf8E4M3FN>, tensor<3x3xf32>
func.func @tile_1x128(%x: tensor<3x300xf32>) -> !fp8.scaled<3x300xf8E4M3FN, block = [1, 128], scale = f32> {
  %q = fp8.quantize %x : tensor<3x300xf32> -> !fp8.scaled<3x300xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<3x300xf8E4M3FN, block = [1, 128], scale = f32>
}

// -----

// 128x128 blocks (weights), bf16 input, tails in both dimensions: 200x300
// has ceil(200/128) x ceil(300/128) = 2x3 blocks. Both dimensions are
// reduced into the block; the input is extended exactly to f32 first.
// eps = 0 and saturate = false: an overflow becomes the NaN code 0x7F.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[BLK:.+]] = affine_map<(d0, d1) -> (d0 floordiv 128, d1 floordiv 128)>
// CHECK-LABEL: func.func @block_128x128
// CHECK-SAME:    ([[X:%.+]]: tensor<200x300xbf16>) -> (tensor<200x300xf8E4M3FN>, tensor<2x3xf32>)
// CHECK:         [[AE:%.+]] = tensor.empty() : tensor<2x3xf32>
// CHECK:         [[AI:%.+]] = linalg.fill ins(%{{.+}} : f32) outs([[AE]] : tensor<2x3xf32>)
// CHECK-NEXT:    [[AMAX:%.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[BLK]]], iterator_types = ["reduction", "reduction"]}
// CHECK-SAME:        ins([[X]] : tensor<200x300xbf16>) outs([[AI]] : tensor<2x3xf32>)
// CHECK-NEXT:    ^bb0([[IN:%[^:]+]]: bf16, [[ACC:%[^:]+]]: f32):
// CHECK-NEXT:      [[W:%.+]] = arith.extf [[IN]] : bf16 to f32
// CHECK-NEXT:      [[ABS:%.+]] = math.absf [[W]] : f32
// CHECK-NEXT:      [[MAX:%.+]] = arith.maximumf [[ACC]], [[ABS]] : f32
// CHECK-NEXT:      linalg.yield [[MAX]] : f32
// CHECK:         [[S:%.+]] = linalg.generic
// CHECK-SAME:        ins([[AMAX]] : tensor<2x3xf32>)
// CHECK:           [[EPS:%.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      arith.maximumf %{{.+}}, [[EPS]] : f32
// CHECK-NEXT:      arith.constant 4.480000e+02 : f32
// CHECK:         tensor.empty() : tensor<200x300xf8E4M3FN>
// CHECK-NEXT:    [[CODES:%.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[BLK]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins([[X]], [[S]] : tensor<200x300xbf16>, tensor<2x3xf32>)
// CHECK-NEXT:    ^bb0([[XV:%[^:]+]]: bf16, [[SC:%[^:]+]]: f32, %{{[^:]+}}: f8E4M3FN):
// CHECK-NEXT:      [[XW:%.+]] = arith.extf [[XV]] : bf16 to f32
// CHECK-NEXT:      arith.divf [[XW]], [[SC]] : f32
// CHECK:           [[OVF:%.+]] = arith.constant 1139277824 : i32
// CHECK-NEXT:      [[ISOVF:%.+]] = arith.cmpi ugt, %{{.+}}, [[OVF]] : i32
// CHECK-NEXT:      [[NAN:%.+]] = arith.constant 127 : i32
// CHECK-NEXT:      arith.select [[ISOVF]], [[NAN]], %{{.+}} : i32
// CHECK:           arith.bitcast %{{.+}} : i8 to f8E4M3FN
// CHECK:         return [[CODES]], [[S]] : tensor<200x300xf8E4M3FN>, tensor<2x3xf32>
func.func @block_128x128(%x: tensor<200x300xbf16>) -> !fp8.scaled<200x300xf8E4M3FN, block = [128, 128], scale = f32> {
  %q = fp8.quantize %x {eps = 0.0 : f32, saturate = false} : tensor<200x300xbf16> -> !fp8.scaled<200x300xf8E4M3FN, block = [128, 128], scale = f32>
  return %q : !fp8.scaled<200x300xf8E4M3FN, block = [128, 128], scale = f32>
}

// -----

// mxfp8-style: dynamic shape, f16 input, E5M2 codes, 1x32 blocks, E8M0
// scales (pow2 mode), non-saturating. The block counts are
// ceil(dim / block): the row count is the dim itself (block 1), the column
// count an affine ceildiv 32. The scale is rounded up to a power of two
// (mantissa 0: kept; else exponent + 1) before the normal-or-1 select, then
// stored as its biased exponent (bits >> 23 as i8 -> f8E8M0FNU). The codes
// decode the E8M0 scale (0 -> 2^-127 = 0x00400000, 0xFF -> NaN).
// CHECK-DAG: #[[CEIL:.+]] = affine_map<()[s0] -> (s0 ceildiv 32)>
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[BLK:.+]] = affine_map<(d0, d1) -> (d0, d1 floordiv 32)>
// CHECK-LABEL: func.func @mx_dynamic_e5m2_e8m0
// CHECK-SAME:    ([[X:%.+]]: tensor<?x?xf16>) -> (tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU>)
// CHECK:         [[D0:%.+]] = tensor.dim [[X]], %{{.+}} : tensor<?x?xf16>
// CHECK:         [[D1:%.+]] = tensor.dim [[X]], %{{.+}} : tensor<?x?xf16>
// CHECK-NEXT:    [[NB:%.+]] = affine.apply #[[CEIL]]()[[[D1]]]
// CHECK-NEXT:    [[AE:%.+]] = tensor.empty([[D0]], [[NB]]) : tensor<?x?xf32>
// CHECK:         [[AI:%.+]] = linalg.fill ins(%{{.+}} : f32) outs([[AE]] : tensor<?x?xf32>)
// CHECK-NEXT:    [[AMAX:%.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[BLK]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME:        ins([[X]] : tensor<?x?xf16>) outs([[AI]] : tensor<?x?xf32>)
// CHECK:           arith.extf %{{.+}} : f16 to f32
// CHECK-NEXT:      math.absf
// CHECK-NEXT:      arith.maximumf
// CHECK:         [[SE:%.+]] = tensor.empty([[D0]], [[NB]]) : tensor<?x?xf8E8M0FNU>
// CHECK-NEXT:    [[S:%.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins([[AMAX]] : tensor<?x?xf32>) outs([[SE]] : tensor<?x?xf8E8M0FNU>)
// CHECK:           [[FMAX:%.+]] = arith.constant 5.734400e+04 : f32
// CHECK-NEXT:      [[Q:%.+]] = arith.divf %{{.+}}, [[FMAX]] : f32
// CHECK:           [[NORMAL:%.+]] = arith.andi %{{.+}}, %{{.+}} : i1
// CHECK-NEXT:      [[QB:%.+]] = arith.bitcast [[Q]] : f32 to i32
// CHECK-NEXT:      [[MMASK:%.+]] = arith.constant 8388607 : i32
// CHECK-NEXT:      [[MANT:%.+]] = arith.andi [[QB]], [[MMASK]] : i32
// CHECK-NEXT:      [[Z:%.+]] = arith.constant 0 : i32
// CHECK-NEXT:      [[EXACT:%.+]] = arith.cmpi eq, [[MANT]], [[Z]] : i32
// CHECK-DAG:       [[ULP:%.+]] = arith.constant 8388608 : i32
// CHECK-DAG:       [[EMASK:%.+]] = arith.constant 2139095040 : i32
// CHECK-DAG:       [[EXPB:%.+]] = arith.andi [[QB]], [[EMASK]] : i32
// CHECK-DAG:       [[UP:%.+]] = arith.addi [[EXPB]], [[ULP]] : i32
// CHECK:           [[P2B:%.+]] = arith.select [[EXACT]], [[QB]], [[UP]] : i32
// CHECK-NEXT:      [[P2:%.+]] = arith.bitcast [[P2B]] : i32 to f32
// CHECK-NEXT:      [[ONE:%.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      [[SV:%.+]] = arith.select [[NORMAL]], [[P2]], [[ONE]] : f32
// CHECK-NEXT:      [[SB:%.+]] = arith.bitcast [[SV]] : f32 to i32
// CHECK-NEXT:      [[C23:%.+]] = arith.constant 23 : i32
// CHECK-NEXT:      [[BE:%.+]] = arith.shrui [[SB]], [[C23]] : i32
// CHECK-NEXT:      [[BE8:%.+]] = arith.trunci [[BE]] : i32 to i8
// CHECK-NEXT:      [[E8M0:%.+]] = arith.bitcast [[BE8]] : i8 to f8E8M0FNU
// CHECK-NEXT:      linalg.yield [[E8M0]] : f8E8M0FNU
// CHECK:         [[CE:%.+]] = tensor.empty([[D0]], [[D1]]) : tensor<?x?xf8E5M2>
// CHECK-NEXT:    [[CODES:%.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[BLK]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins([[X]], [[S]] : tensor<?x?xf16>, tensor<?x?xf8E8M0FNU>) outs([[CE]] : tensor<?x?xf8E5M2>)
// CHECK-NEXT:    ^bb0([[XV:%[^:]+]]: f16, [[SC:%[^:]+]]: f8E8M0FNU, %{{[^:]+}}: f8E5M2):
// CHECK-NEXT:      [[SI8:%.+]] = arith.bitcast [[SC]] : f8E8M0FNU to i8
// CHECK-NEXT:      [[SI32:%.+]] = arith.extui [[SI8]] : i8 to i32
// CHECK:           [[TINY:%.+]] = arith.constant 4194304 : i32
// CHECK:           arith.select %{{.+}}, [[TINY]], %{{.+}} : i32
// CHECK:           [[QNAN:%.+]] = arith.constant 2143289344 : i32
// CHECK:           [[SBITS:%.+]] = arith.select %{{.+}}, [[QNAN]], %{{.+}} : i32
// CHECK-NEXT:      [[SF:%.+]] = arith.bitcast [[SBITS]] : i32 to f32
// CHECK-NEXT:      [[XW:%.+]] = arith.extf [[XV]] : f16 to f32
// CHECK-NEXT:      arith.divf [[XW]], [[SF]] : f32
// E5M2: rebias (127 - 15) << 23, 21 dropped mantissa bits, min normal 2^-14.
// CHECK:           arith.constant 939524096 : i32
// CHECK:           arith.constant 21 : i32
// CHECK:           arith.constant 134 : i32
// CHECK:           arith.constant 947912704 : i32
// Overflow: |x/s| >= 61440 (57344 + half an ulp ties to the even Inf code);
// non-saturating: Inf (0x7C) rather than the largest finite code 0x7B.
// CHECK:           [[OVF:%.+]] = arith.constant 1198522367 : i32
// CHECK-NEXT:      [[ISOVF:%.+]] = arith.cmpi ugt, %{{.+}}, [[OVF]] : i32
// CHECK-NEXT:      [[INF:%.+]] = arith.constant 124 : i32
// CHECK-NEXT:      arith.select [[ISOVF]], [[INF]], %{{.+}} : i32
// CHECK:           [[NANCODE:%.+]] = arith.constant 127 : i32
// CHECK:           arith.bitcast %{{.+}} : i8 to f8E5M2
// CHECK:         return [[CODES]], [[S]] : tensor<?x?xf8E5M2>, tensor<?x?xf8E8M0FNU>
func.func @mx_dynamic_e5m2_e8m0(%x: tensor<?x?xf16>) -> !fp8.scaled<?x?xf8E5M2, block = [1, 32], scale = f8E8M0FNU> {
  %q = fp8.quantize %x {scale_mode = #fp8.scale_mode<pow2>, saturate = false} : tensor<?x?xf16> -> !fp8.scaled<?x?xf8E5M2, block = [1, 32], scale = f8E8M0FNU>
  return %q : !fp8.scaled<?x?xf8E5M2, block = [1, 32], scale = f8E8M0FNU>
}

// -----

// E5M2 with satfinite (the default): overflow clamps to 0x7B (57344). pow2
// scales stored as f32 (no E8M0 encoding). A custom eps.
// CHECK-LABEL: func.func @e5m2_satfinite_pow2_f32
// CHECK-SAME:    -> (tensor<4x256xf8E5M2>, tensor<4x2xf32>)
// CHECK:           [[EPS:%.+]] = arith.constant 9.99999996E-13 : f32
// CHECK-NEXT:      arith.maximumf %{{.+}}, [[EPS]] : f32
// CHECK-NEXT:      arith.constant 5.734400e+04 : f32
// CHECK:           arith.constant 8388607 : i32
// CHECK:           [[ONE:%.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      [[SV:%.+]] = arith.select %{{.+}}, %{{.+}}, [[ONE]] : f32
// CHECK-NEXT:      linalg.yield [[SV]] : f32
// CHECK:           [[OVF:%.+]] = arith.constant 1198522367 : i32
// CHECK-NEXT:      [[ISOVF:%.+]] = arith.cmpi ugt, %{{.+}}, [[OVF]] : i32
// CHECK-NEXT:      [[MAXCODE:%.+]] = arith.constant 123 : i32
// CHECK-NEXT:      arith.select [[ISOVF]], [[MAXCODE]], %{{.+}} : i32
func.func @e5m2_satfinite_pow2_f32(%x: tensor<4x256xf32>) -> !fp8.scaled<4x256xf8E5M2, block = [1, 128], scale = f32> {
  %q = fp8.quantize %x {eps = 1.0e-12 : f32, scale_mode = #fp8.scale_mode<pow2>} : tensor<4x256xf32> -> !fp8.scaled<4x256xf8E5M2, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<4x256xf8E5M2, block = [1, 128], scale = f32>
}

// -----

// Rank 3 with a block in the middle dimension: [1, 16, 1] over 2x40x8 gives
// 2x3x8 scales; only the blocked dimension is a reduction.
// CHECK-DAG: #[[ID3:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[BLK3:.+]] = affine_map<(d0, d1, d2) -> (d0, d1 floordiv 16, d2)>
// CHECK-LABEL: func.func @rank3_middle_block
// CHECK-SAME:    -> (tensor<2x40x8xf8E4M3FN>, tensor<2x3x8xf32>)
// CHECK:         tensor.empty() : tensor<2x3x8xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[ID3]], #[[BLK3]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK:           arith.maximumf
// CHECK:         linalg.generic {indexing_maps = [#[[ID3]], #[[ID3]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK:         linalg.generic {indexing_maps = [#[[ID3]], #[[BLK3]], #[[ID3]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME:        outs(%{{.+}} : tensor<2x40x8xf8E4M3FN>)
func.func @rank3_middle_block(%x: tensor<2x40x8xf32>) -> !fp8.scaled<2x40x8xf8E4M3FN, block = [1, 16, 1], scale = f32> {
  %q = fp8.quantize %x : tensor<2x40x8xf32> -> !fp8.scaled<2x40x8xf8E4M3FN, block = [1, 16, 1], scale = f32>
  return %q : !fp8.scaled<2x40x8xf8E4M3FN, block = [1, 16, 1], scale = f32>
}
