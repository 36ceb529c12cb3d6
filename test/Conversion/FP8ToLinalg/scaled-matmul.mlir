// RUN: fp8-opt %s -split-input-file --fp8-lower-to-linalg | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-lower-to-linalg | FileCheck %s --check-prefix=NOFP8
// RUN: fp8-opt %s -split-input-file --fp8-lower-to-linalg='accumulator-bits=14' | FileCheck %s --check-prefix=ACC14
// RUN: fp8-opt %s -split-input-file --fp8-lower-to-linalg='accumulator-bits=24' | FileCheck %s --check-prefix=ACC24
// RUN: fp8-opt %s -split-input-file --fp8-lower-to-linalg='accumulator=sm90' | FileCheck %s --check-prefix=SM90
// RUN: fp8-opt %s -split-input-file --fp8-lower-to-linalg='accumulator=sm89' | FileCheck %s --check-prefix=SM89

// ScaledMatmulLowering (lib/Conversion/FP8ToLinalg/LowerToLinalg.cpp). The contract
// (fp8-lower-to-linalg in include/fp8/Conversion/Passes.td; NT form,
// A: M x K, B: N x K):
//   1. the codes of A and B are decoded to f32 (element-wise generics);
//   2. partial[m, n, kb] = the f32 sum of the products of promotion interval
//      kb (promote_interval K elements, k increasing, the K tail interval
//      shorter): a generic over (m, n, k) whose output map is
//      (d0, d1, d2 floordiv promote_interval), k a reduction, from 0;
//   3. promotion: acc = fma(partial, sa * sb, acc) over kb in increasing
//      order, from C (extended to f32 when bf16) or from 0, the scales read
//      at row block (m floordiv ba_m / n floordiv bb_n) and K block
//      (kb * promote_interval) floordiv ba_k;
//   4. a bf16 result is rounded RNE (arith.truncf) from the f32 accumulator;
//      a NaN is the GPU's canonical NaN: 0x7FFFFFFF after each promotion
//      FMA, 0x7FFF after the rounding (docs/numerics.md, "NaN encodings").
// accumulator-bits = N replaces (2) by the emulated Hopper accumulator: per
// interval [k0, min(k0 + interval, K)), groups of 32 products; per group
// the running partial and the products are put on the grid of the largest
// exponent E (clamped to >= 64) with N significant bits (scale
// 2^(N - 1 - E), field 253 + N - E; unit 2^(E - N + 1), field E - (N - 1)),
// truncated toward zero (fptosi), summed exactly in i32 and the sum
// truncated to N significant bits (ctlz); when the plain f32 sum of the
// group is Inf/NaN that sum is the result.
// accumulator=sm90 (Hopper wgmma) is the same structure with the products
// aligned by ea + eb instead of their own exponent: the f32 exponent fields
// of the decoded inputs, each clamped at the format's minimum normal (field
// 127 - 6 = 121 for E4M3FN, 127 - 14 = 113 for E5M2), summed and rebiased
// (- 127), and 0 (no part in the max) for a zero product; grid 2^(E - 13)
// (field 254 + 13 - E = 267 - E), sum truncated to 14 bits. sm89: the same
// in groups of 16.

// NOFP8-NOT: fp8.

// DeepSeek-V3's layout: A in 1x128 tiles, B in 128x128 blocks, K = 256 (two
// promotion intervals of the default 128), N = 200 (a B row-block tail:
// ceil(200 / 128) = 2 scale rows), bf16 result, no C.
// CHECK-DAG: #[[ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[MK:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[NK:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[PART:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2 floordiv 128)>
// CHECK-DAG: #[[ID3:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[SB:.+]] = affine_map<(d0, d1, d2) -> (d1 floordiv 128, d2)>
// CHECK-DAG: #[[MN:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @deepseek_bf16
// CHECK-SAME:    ([[QA:%.+]]: tensor<4x256xf8E4M3FN>, [[SA:%.+]]: tensor<4x2xf32>, [[QB:%.+]]: tensor<200x256xf8E4M3FN>, [[SB_:%.+]]: tensor<2x2xf32>) -> tensor<4x200xbf16>
// CHECK:         [[FA:%.+]] = linalg.generic {indexing_maps = [#[[ID2]], #[[ID2]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins([[QA]] : tensor<4x256xf8E4M3FN>) outs(%{{.+}} : tensor<4x256xf32>)
// CHECK:         [[FB:%.+]] = linalg.generic {indexing_maps = [#[[ID2]], #[[ID2]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins([[QB]] : tensor<200x256xf8E4M3FN>) outs(%{{.+}} : tensor<200x256xf32>)
// The exact FP32 partials, one per (m, n, interval): 4x200x2.
// CHECK:         [[PE:%.+]] = tensor.empty() : tensor<4x200x2xf32>
// CHECK-NEXT:    [[Z:%.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    [[PI:%.+]] = linalg.fill ins([[Z]] : f32) outs([[PE]] : tensor<4x200x2xf32>)
// CHECK-NEXT:    [[P:%.+]] = linalg.generic {indexing_maps = [#[[MK]], #[[NK]], #[[PART]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME:        ins([[FA]], [[FB]] : tensor<4x256xf32>, tensor<200x256xf32>) outs([[PI]] : tensor<4x200x2xf32>)
// CHECK-NEXT:    ^bb0([[A:%[^:]+]]: f32, [[B:%[^:]+]]: f32, [[O:%[^:]+]]: f32):
// CHECK-NEXT:      [[PR:%.+]] = arith.mulf [[A]], [[B]] : f32
// CHECK-NEXT:      [[SUM:%.+]] = arith.addf [[O]], [[PR]] : f32
// CHECK-NEXT:      linalg.yield [[SUM]] : f32
// CHECK-NEXT:    } -> tensor<4x200x2xf32>
// Promotion from 0: sa[m, kb] (1x128 tiles), sb[n floordiv 128, kb].
// CHECK-NEXT:    [[AE:%.+]] = tensor.empty() : tensor<4x200xf32>
// CHECK-NEXT:    [[Z2:%.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    [[AI:%.+]] = linalg.fill ins([[Z2]] : f32) outs([[AE]] : tensor<4x200xf32>)
// CHECK-NEXT:    [[ACC:%.+]] = linalg.generic {indexing_maps = [#[[ID3]], #[[MK]], #[[SB]], #[[MN]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME:        ins([[P]], [[SA]], [[SB_]] : tensor<4x200x2xf32>, tensor<4x2xf32>, tensor<2x2xf32>) outs([[AI]] : tensor<4x200xf32>)
// CHECK-NEXT:    ^bb0([[PV:%[^:]+]]: f32, [[SAV:%[^:]+]]: f32, [[SBV:%[^:]+]]: f32, [[OUT:%[^:]+]]: f32):
// CHECK-NEXT:      [[S:%.+]] = arith.mulf [[SAV]], [[SBV]] : f32
// CHECK-NEXT:      [[F:%.+]] = math.fma [[PV]], [[S]], [[OUT]] : f32
// CHECK-NEXT:      [[U:%.+]] = arith.cmpf uno, [[F]], [[F]] : f32
// CHECK-NEXT:      [[CN:%.+]] = arith.constant 0x7FFFFFFF : f32
// CHECK-NEXT:      [[G:%.+]] = arith.select [[U]], [[CN]], [[F]] : f32
// CHECK-NEXT:      linalg.yield [[G]] : f32
// CHECK-NEXT:    } -> tensor<4x200xf32>
// bf16: one RNE rounding of the f32 accumulator.
// CHECK-NEXT:    [[RE:%.+]] = tensor.empty() : tensor<4x200xbf16>
// CHECK-NEXT:    [[R:%.+]] = linalg.generic {indexing_maps = [#[[ID2]], #[[ID2]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins([[ACC]] : tensor<4x200xf32>) outs([[RE]] : tensor<4x200xbf16>)
// CHECK-NEXT:    ^bb0([[V:%[^:]+]]: f32, %{{[^:]+}}: bf16):
// CHECK-NEXT:      [[T:%.+]] = arith.truncf [[V]] : f32 to bf16
// CHECK-NEXT:      [[UT:%.+]] = arith.cmpf uno, [[V]], [[V]] : f32
// CHECK-NEXT:      [[CT:%.+]] = arith.constant 0x7FFF : bf16
// CHECK-NEXT:      [[ST:%.+]] = arith.select [[UT]], [[CT]], [[T]] : bf16
// CHECK-NEXT:      linalg.yield [[ST]] : bf16
// CHECK-NEXT:    } -> tensor<4x200xbf16>
// CHECK-NEXT:    return [[R]] : tensor<4x200xbf16>
//
// With accumulator-bits, the exact partial generic is replaced; the
// promotion and the bf16 rounding are unchanged.
// ACC14-LABEL: func.func @deepseek_bf16
// ACC14-NOT:     floordiv 128)>
// ACC14:         tensor.empty() : tensor<4x200x2xf32>
// ACC14-NEXT:    arith.constant 256 : index
// ACC14-NEXT:    linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]} outs(
// ACC14:         math.fma
// ACC14:         arith.truncf %{{.+}} : f32 to bf16
// ACC24-LABEL: func.func @deepseek_bf16
// ACC24:           arith.constant 64 : i32
// ACC24-NEXT:      [[E:%.+]] = arith.maxui %{{.+}}, %{{.+}} : i32
// ACC24-NEXT:      [[C:%.+]] = arith.constant 277 : i32
// ACC24-NEXT:      arith.subi [[C]], [[E]] : i32
// ACC24:           arith.bitcast %{{.+}} : i32 to f32
// ACC24-NEXT:      [[C2:%.+]] = arith.constant 23 : i32
// ACC24-NEXT:      arith.subi [[E]], [[C2]] : i32
// ACC24:           [[N:%.+]] = arith.constant 24 : i32
// ACC24-NEXT:      arith.subi %{{.+}}, [[N]] : i32
func.func @deepseek_bf16(%a: !fp8.scaled<4x256xf8E4M3FN, block = [1, 128], scale = f32>,
                         %b: !fp8.scaled<200x256xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<4x200xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4x256xf8E4M3FN, block = [1, 128], scale = f32>,
      !fp8.scaled<200x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<4x200xbf16>
  return %d : tensor<4x200xbf16>
}

// -----

// A K tail: K = 300 = 2 * 128 + 44 gives 3 promotion intervals (the last
// one of 44 elements), 3 K-scales per row; N = 130 gives 2 B row-blocks. An
// f32 result: no rounding generic after the promotion.
// CHECK-DAG: #[[PART:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2 floordiv 128)>
// CHECK-LABEL: func.func @k_tail_f32
// CHECK-SAME:    ([[QA:%.+]]: tensor<8x300xf8E4M3FN>, [[SA:%.+]]: tensor<8x3xf32>, [[QB:%.+]]: tensor<130x300xf8E4M3FN>, [[SB:%.+]]: tensor<2x3xf32>) -> tensor<8x130xf32>
// CHECK:         tensor.empty() : tensor<8x130x3xf32>
// CHECK:         [[P:%.+]] = linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}, #[[PART]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME:        outs(%{{.+}} : tensor<8x130x3xf32>)
// CHECK:         [[ACC:%.+]] = linalg.generic
// CHECK-SAME:        ins([[P]], [[SA]], [[SB]] : tensor<8x130x3xf32>, tensor<8x3xf32>, tensor<2x3xf32>)
// CHECK:           math.fma
// CHECK:         } -> tensor<8x130xf32>
// CHECK-NEXT:    return [[ACC]] : tensor<8x130xf32>
//
// The emulated accumulator, N = 14: interval kb covers [kb * 128,
// min(kb * 128 + 128, 300)); groups of 32.
// ACC14-DAG: #[[ID3:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// ACC14-LABEL: func.func @k_tail_f32
// ACC14:         [[FA:%.+]] = linalg.generic {{.*}} ins(%{{.+}} : tensor<8x300xf8E4M3FN>)
// ACC14:         [[FB:%.+]] = linalg.generic {{.*}} ins(%{{.+}} : tensor<130x300xf8E4M3FN>)
// ACC14:         [[PE:%.+]] = tensor.empty() : tensor<8x130x3xf32>
// ACC14-NEXT:    [[K:%.+]] = arith.constant 300 : index
// ACC14-NEXT:    [[P:%.+]] = linalg.generic {indexing_maps = [#[[ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} outs([[PE]] : tensor<8x130x3xf32>)
// ACC14-NEXT:    ^bb0(%{{[^:]+}}: f32):
// ACC14-NEXT:      [[M:%.+]] = linalg.index 0 : index
// ACC14-NEXT:      [[N:%.+]] = linalg.index 1 : index
// ACC14-NEXT:      [[KB:%.+]] = linalg.index 2 : index
// ACC14-NEXT:      [[IV:%.+]] = arith.constant 128 : index
// ACC14-NEXT:      [[K0:%.+]] = arith.muli [[KB]], [[IV]] : index
// ACC14-NEXT:      [[K0I:%.+]] = arith.addi [[K0]], [[IV]] : index
// ACC14-NEXT:      [[K1:%.+]] = arith.minsi [[K0I]], [[K]] : index
// ACC14-NEXT:      [[G:%.+]] = arith.constant 32 : index
// ACC14-NEXT:      [[Z:%.+]] = arith.constant 0.000000e+00 : f32
// ACC14-NEXT:      [[PART:%.+]] = scf.for [[G0:%.+]] = [[K0]] to [[K1]] step [[G]] iter_args([[RPART:%.+]] = [[Z]]) -> (f32) {
// ACC14-NEXT:        [[G0I:%.+]] = arith.addi [[G0]], [[G]] : index
// ACC14-NEXT:        [[G1:%.+]] = arith.minsi [[G0I]], [[K1]] : index
// Largest exponent among the running partial and the group's products.
// ACC14:             [[EMAX:%.+]] = scf.for [[K2:%.+]] = [[G0]] to [[G1]] step %{{.+}} iter_args(%{{.+}} = %{{.+}}) -> (i32) {
// ACC14-NEXT:          tensor.extract [[FA]][[[M]], [[K2]]] : tensor<8x300xf32>
// ACC14-NEXT:          tensor.extract [[FB]][[[N]], [[K2]]] : tensor<130x300xf32>
// ACC14:               arith.maxui
// ACC14:             [[C64:%.+]] = arith.constant 64 : i32
// ACC14-NEXT:        [[E:%.+]] = arith.maxui [[EMAX]], [[C64]] : i32
// ACC14-NEXT:        [[C267:%.+]] = arith.constant 267 : i32
// ACC14-NEXT:        [[INVF:%.+]] = arith.subi [[C267]], [[E]] : i32
// ACC14-NEXT:        [[SH1:%.+]] = arith.constant 23 : i32
// ACC14-NEXT:        [[INVB:%.+]] = arith.shli [[INVF]], [[SH1]] : i32
// ACC14-NEXT:        [[INV:%.+]] = arith.bitcast [[INVB]] : i32 to f32
// ACC14-NEXT:        [[C13:%.+]] = arith.constant 13 : i32
// ACC14-NEXT:        [[UNITF:%.+]] = arith.subi [[E]], [[C13]] : i32
// ACC14-NEXT:        [[SH2:%.+]] = arith.constant 23 : i32
// ACC14-NEXT:        [[UNITB:%.+]] = arith.shli [[UNITF]], [[SH2]] : i32
// ACC14-NEXT:        [[UNIT:%.+]] = arith.bitcast [[UNITB]] : i32 to f32
// The running partial goes onto the grid too (truncated toward zero).
// ACC14-NEXT:        [[RS:%.+]] = arith.mulf [[RPART]], [[INV]] : f32
// ACC14-NEXT:        [[RI:%.+]] = arith.fptosi [[RS]] : f32 to i32
// ACC14-NEXT:        [[SUMS:%.+]]:2 = scf.for %{{.+}} = [[G0]] to [[G1]] step %{{.+}} iter_args([[IS:%.+]] = [[RI]], [[FS:%.+]] = [[RPART]]) -> (i32, f32) {
// ACC14:               [[PROD:%.+]] = arith.mulf %{{.+}}, %{{.+}} : f32
// ACC14-NEXT:          [[PS:%.+]] = arith.mulf [[PROD]], [[INV]] : f32
// ACC14-NEXT:          [[PI:%.+]] = arith.fptosi [[PS]] : f32 to i32
// ACC14-NEXT:          [[IS2:%.+]] = arith.addi [[IS]], [[PI]] : i32
// ACC14-NEXT:          [[FS2:%.+]] = arith.addf [[FS]], [[PROD]] : f32
// ACC14-NEXT:          scf.yield [[IS2]], [[FS2]] : i32, f32
// ACC14-NEXT:        }
// The exact integer sum truncated to 14 significant bits.
// ACC14:             [[MAG:%.+]] = math.absi [[SUMS]]#0 : i32
// ACC14:             [[LZ:%.+]] = math.ctlz [[MAG]] : i32
// ACC14:             [[C14:%.+]] = arith.constant 14 : i32
// ACC14-NEXT:        [[DROP0:%.+]] = arith.subi %{{.+}}, [[C14]] : i32
// ACC14:             [[DROP:%.+]] = arith.maxsi [[DROP0]], %{{.+}} : i32
// ACC14-NEXT:        [[SHR:%.+]] = arith.shrui [[MAG]], [[DROP]] : i32
// ACC14-NEXT:        [[KEPT:%.+]] = arith.shli [[SHR]], [[DROP]] : i32
// ACC14:             [[TRUNC:%.+]] = arith.select %{{.+}}, %{{.+}}, [[KEPT]] : i32
// ACC14-NEXT:        [[TF:%.+]] = arith.sitofp [[TRUNC]] : i32 to f32
// ACC14-NEXT:        [[RES:%.+]] = arith.mulf [[TF]], [[UNIT]] : f32
// Inf/NaN in the plain f32 sum wins (NaN propagation as in the exact path).
// ACC14-NEXT:        [[PB:%.+]] = arith.bitcast [[SUMS]]#1 : f32 to i32
// ACC14:             [[SPECIAL:%.+]] = arith.cmpi uge, %{{.+}}, %{{.+}} : i32
// ACC14-NEXT:        [[OUT:%.+]] = arith.select [[SPECIAL]], [[SUMS]]#1, [[RES]] : f32
// ACC14-NEXT:        scf.yield [[OUT]] : f32
// ACC14-NEXT:      }
// ACC14-NEXT:      linalg.yield [[PART]] : f32
// ACC14-NEXT:    } -> tensor<8x130x3xf32>
// ACC14:         linalg.generic
// ACC14-SAME:        ins([[P]], %{{.+}}, %{{.+}} : tensor<8x130x3xf32>, tensor<8x3xf32>, tensor<2x3xf32>)
// ACC14:           math.fma
func.func @k_tail_f32(%a: !fp8.scaled<8x300xf8E4M3FN, block = [1, 128], scale = f32>,
                      %b: !fp8.scaled<130x300xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<8x130xf32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<8x300xf8E4M3FN, block = [1, 128], scale = f32>,
      !fp8.scaled<130x300xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<8x130xf32>
  return %d : tensor<8x130xf32>
}

// -----

// mxfp8: 1x32 blocks with E8M0 scales and promote_interval = 32 (16
// intervals); an f32 `acc` operand is the promotion's initial value (the
// generic's init, no fill); both E8M0 scales are decoded to f32 before
// their product.
// CHECK-DAG: #[[MK:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[NK:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[PART:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2 floordiv 32)>
// CHECK-DAG: #[[ID3:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[MN:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @mx_e8m0_acc_f32
// CHECK-SAME:    ([[QA:%.+]]: tensor<64x512xf8E4M3FN>, [[SA:%.+]]: tensor<64x16xf8E8M0FNU>, [[QB:%.+]]: tensor<96x512xf8E4M3FN>, [[SB:%.+]]: tensor<96x16xf8E8M0FNU>, [[C:%.+]]: tensor<64x96xf32>) -> tensor<64x96xf32>
// CHECK:         tensor.empty() : tensor<64x96x16xf32>
// CHECK:         [[P:%.+]] = linalg.generic {indexing_maps = [#[[MK]], #[[NK]], #[[PART]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-NOT:     linalg.fill
// CHECK:         [[ACC:%.+]] = linalg.generic {indexing_maps = [#[[ID3]], #[[MK]], #[[NK]], #[[MN]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME:        ins([[P]], [[SA]], [[SB]] : tensor<64x96x16xf32>, tensor<64x16xf8E8M0FNU>, tensor<96x16xf8E8M0FNU>) outs([[C]] : tensor<64x96xf32>)
// CHECK-NEXT:    ^bb0([[PV:%[^:]+]]: f32, [[SAV:%[^:]+]]: f8E8M0FNU, [[SBV:%[^:]+]]: f8E8M0FNU, [[OUT:%[^:]+]]: f32):
// (Which scale is decoded first depends on the C++ compiler's evaluation
// order of the builder call's arguments.)
// CHECK-DAG:       arith.bitcast [[SAV]] : f8E8M0FNU to i8
// CHECK-DAG:       arith.bitcast [[SBV]] : f8E8M0FNU to i8
// CHECK:           [[S:%.+]] = arith.mulf [[SAF:%.+]], [[SBF:%.+]] : f32
// CHECK-NEXT:      [[F:%.+]] = math.fma [[PV]], [[S]], [[OUT]] : f32
// CHECK-NEXT:      [[U:%.+]] = arith.cmpf uno, [[F]], [[F]] : f32
// CHECK-NEXT:      [[CN:%.+]] = arith.constant 0x7FFFFFFF : f32
// CHECK-NEXT:      [[G:%.+]] = arith.select [[U]], [[CN]], [[F]] : f32
// CHECK-NEXT:      linalg.yield [[G]] : f32
// CHECK-NEXT:    } -> tensor<64x96xf32>
// CHECK-NEXT:    return [[ACC]] : tensor<64x96xf32>
// ACC14-LABEL: func.func @mx_e8m0_acc_f32
// ACC14:         tensor.empty() : tensor<64x96x16xf32>
// ACC14-NEXT:    arith.constant 512 : index
// ACC14-NEXT:    linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]} outs(
// ACC14:           arith.constant 32 : index
// ACC14-NEXT:      arith.muli
func.func @mx_e8m0_acc_f32(%a: !fp8.scaled<64x512xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>,
                           %b: !fp8.scaled<96x512xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>,
                           %c: tensor<64x96xf32>) -> tensor<64x96xf32> {
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<64x96xf32>) {promote_interval = 32}
      : !fp8.scaled<64x512xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>,
        !fp8.scaled<96x512xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU> -> tensor<64x96xf32>
  return %d : tensor<64x96xf32>
}

// -----

// Dynamic M, a bf16 `acc` (extended exactly to f32 into a dynamic
// tensor.empty), E4M3FN x E5M2 (Dgrad), a 1x256 K-block for A with the
// default interval of 128: interval kb reads A's K-scale (kb * 128)
// floordiv 256, two intervals per scale. f32 result.
// CHECK-DAG: #[[ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[SA256:.+]] = affine_map<(d0, d1, d2) -> (d0, (d2 * 128) floordiv 256)>
// CHECK-DAG: #[[SB:.+]] = affine_map<(d0, d1, d2) -> (d1 floordiv 128, d2)>
// CHECK-LABEL: func.func @dynamic_acc_bf16_mixed
// CHECK-SAME:    ([[QA:%.+]]: tensor<?x512xf8E4M3FN>, [[SA:%.+]]: tensor<?x2xf32>, [[QB:%.+]]: tensor<96x512xf8E5M2>, [[SBT:%.+]]: tensor<1x4xf32>, [[C:%.+]]: tensor<?x96xbf16>) -> tensor<?x96xf32>
// CHECK:         [[FA:%.+]] = linalg.generic
// CHECK-SAME:        ins([[QA]] : tensor<?x512xf8E4M3FN>)
// CHECK:         [[FB:%.+]] = linalg.generic
// CHECK-SAME:        ins([[QB]] : tensor<96x512xf8E5M2>)
// CHECK:         [[M:%.+]] = tensor.dim [[FA]], %{{.+}} : tensor<?x512xf32>
// CHECK-NEXT:    [[PE:%.+]] = tensor.empty([[M]]) : tensor<?x96x4xf32>
// CHECK:         [[P:%.+]] = linalg.generic
// CHECK-SAME:        outs(%{{.+}} : tensor<?x96x4xf32>)
// CHECK:         [[CE:%.+]] = tensor.empty([[M]]) : tensor<?x96xf32>
// CHECK-NEXT:    [[CF:%.+]] = linalg.generic {indexing_maps = [#[[ID2]], #[[ID2]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins([[C]] : tensor<?x96xbf16>) outs([[CE]] : tensor<?x96xf32>)
// CHECK-NEXT:    ^bb0([[CV:%[^:]+]]: bf16, %{{[^:]+}}: f32):
// CHECK-NEXT:      [[CX:%.+]] = arith.extf [[CV]] : bf16 to f32
// CHECK-NEXT:      linalg.yield [[CX]] : f32
// CHECK:         [[ACC:%.+]] = linalg.generic {indexing_maps = [#{{.+}}, #[[SA256]], #[[SB]], #{{.+}}], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME:        ins([[P]], [[SA]], [[SBT]] : tensor<?x96x4xf32>, tensor<?x2xf32>, tensor<1x4xf32>) outs([[CF]] : tensor<?x96xf32>)
// CHECK:           math.fma
// CHECK:         return [[ACC]] : tensor<?x96xf32>
// The sm90 alignment of an E4M3FN x E5M2 product.
// SM90-LABEL: func.func @dynamic_acc_bf16_mixed
// SM90-SAME:    ([[QA:%.+]]: tensor<?x512xf8E4M3FN>, {{.*}}[[QB:%.+]]: tensor<96x512xf8E5M2>
// SM90:         [[FA:%.+]] = linalg.generic
// SM90-SAME:        ins([[QA]] : tensor<?x512xf8E4M3FN>)
// SM90:         [[FB:%.+]] = linalg.generic
// SM90-SAME:        ins([[QB]] : tensor<96x512xf8E5M2>)
// SM90:         linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]} outs(
// SM90:           [[G:%.+]] = arith.constant 32 : index
// SM90:           scf.for [[G0:%.+]] = %{{.+}} to %{{.+}} step [[G]] iter_args([[RPART:%.+]] = %{{.+}}) -> (f32) {
// The running partial's own exponent field starts the max.
// SM90:             [[RB:%.+]] = arith.bitcast [[RPART]] : f32 to i32
// SM90:             [[RF:%.+]] = arith.andi
// SM90-NEXT:        scf.for [[K:%.+]] = [[G0]] to %{{.+}} step %{{.+}} iter_args([[EM:%.+]] = [[RF]]) -> (i32) {
// SM90-NEXT:          [[A:%.+]] = tensor.extract [[FA]][%{{.+}}, [[K]]] : tensor<?x512xf32>
// SM90-NEXT:          [[B:%.+]] = tensor.extract [[FB]][%{{.+}}, [[K]]] : tensor<96x512xf32>
// SM90-NEXT:          [[P:%.+]] = arith.mulf [[A]], [[B]] : f32
// SM90-NEXT:          [[PB:%.+]] = arith.bitcast [[P]] : f32 to i32
// SM90:               [[PF:%.+]] = arith.andi %{{.+}}, %{{.+}} : i32
// SM90-NEXT:          [[AB:%.+]] = arith.bitcast [[A]] : f32 to i32
// SM90:               [[AF:%.+]] = arith.andi %{{.+}}, %{{.+}} : i32
// SM90-NEXT:          [[C121:%.+]] = arith.constant 121 : i32
// SM90-NEXT:          [[EA:%.+]] = arith.maxui [[AF]], [[C121]] : i32
// SM90-NEXT:          [[BB:%.+]] = arith.bitcast [[B]] : f32 to i32
// SM90:               [[BF:%.+]] = arith.andi %{{.+}}, %{{.+}} : i32
// SM90-NEXT:          [[C113:%.+]] = arith.constant 113 : i32
// SM90-NEXT:          [[EB:%.+]] = arith.maxui [[BF]], [[C113]] : i32
// SM90-NEXT:          [[EAB:%.+]] = arith.addi [[EA]], [[EB]] : i32
// SM90-NEXT:          [[C127:%.+]] = arith.constant 127 : i32
// SM90-NEXT:          [[AL:%.+]] = arith.subi [[EAB]], [[C127]] : i32
// SM90-NEXT:          [[Z:%.+]] = arith.constant 0 : i32
// SM90-NEXT:          [[ISZ:%.+]] = arith.cmpi eq, [[PF]], [[Z]] : i32
// SM90-NEXT:          [[Z2:%.+]] = arith.constant 0 : i32
// SM90-NEXT:          [[ALZ:%.+]] = arith.select [[ISZ]], [[Z2]], [[AL]] : i32
// SM90-NEXT:          [[EM2:%.+]] = arith.maxui [[EM]], [[ALZ]] : i32
// SM90-NEXT:          scf.yield [[EM2]] : i32
// SM90-NEXT:        }
// SM90-NEXT:        [[C64:%.+]] = arith.constant 64 : i32
// SM90-NEXT:        [[E:%.+]] = arith.maxui %{{.+}}, [[C64]] : i32
// SM90-NEXT:        [[C267:%.+]] = arith.constant 267 : i32
// SM90-NEXT:        arith.subi [[C267]], [[E]] : i32
// SM90:             [[C13:%.+]] = arith.constant 13 : i32
// SM90-NEXT:        arith.subi [[E]], [[C13]] : i32
// SM90:             math.ctlz
// SM90:             [[C14:%.+]] = arith.constant 14 : i32
// SM90:           math.fma
// SM89-LABEL: func.func @dynamic_acc_bf16_mixed
// SM89:           [[G:%.+]] = arith.constant 16 : index
// SM89:           scf.for %{{.+}} = %{{.+}} to %{{.+}} step [[G]] iter_args(%{{.+}} = %{{.+}}) -> (f32) {
// SM89:               arith.constant 121 : i32
// SM89:               arith.constant 113 : i32
// SM89:             arith.constant 267 : i32
// SM89:             arith.constant 14 : i32
func.func @dynamic_acc_bf16_mixed(%a: !fp8.scaled<?x512xf8E4M3FN, block = [1, 256], scale = f32>,
                                  %b: !fp8.scaled<96x512xf8E5M2, block = [128, 128], scale = f32>,
                                  %c: tensor<?x96xbf16>) -> tensor<?x96xf32> {
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<?x96xbf16>)
      : !fp8.scaled<?x512xf8E4M3FN, block = [1, 256], scale = f32>,
        !fp8.scaled<96x512xf8E5M2, block = [128, 128], scale = f32> -> tensor<?x96xf32>
  return %d : tensor<?x96xf32>
}

// -----

// Per-tensor A (one 64x1000 block) and rowwise B (1x1000), K = 1000,
// promote_interval = 96: ceil(1000 / 96) = 11 intervals, each reading the
// single K-scale ((kb * 96) floordiv 1000 = 0); A's row block is
// m floordiv 64.
// CHECK-DAG: #[[PART:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2 floordiv 96)>
// CHECK-DAG: #[[SAPT:.+]] = affine_map<(d0, d1, d2) -> (d0 floordiv 64, (d2 * 96) floordiv 1000)>
// CHECK-DAG: #[[SBRW:.+]] = affine_map<(d0, d1, d2) -> (d1, (d2 * 96) floordiv 1000)>
// CHECK-LABEL: func.func @per_tensor_rowwise
// CHECK-SAME:    ([[QA:%.+]]: tensor<64x1000xf8E4M3FN>, [[SA:%.+]]: tensor<1x1xf32>, [[QB:%.+]]: tensor<96x1000xf8E4M3FN>, [[SB:%.+]]: tensor<96x1xf32>)
// CHECK:         tensor.empty() : tensor<64x96x11xf32>
// CHECK:         [[P:%.+]] = linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}, #[[PART]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #[[SAPT]], #[[SBRW]], #{{.+}}], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME:        ins([[P]], [[SA]], [[SB]] : tensor<64x96x11xf32>, tensor<1x1xf32>, tensor<96x1xf32>)
// ACC14-LABEL: func.func @per_tensor_rowwise
// ACC14:         tensor.empty() : tensor<64x96x11xf32>
// ACC14-NEXT:    [[K:%.+]] = arith.constant 1000 : index
// ACC14:           [[IV:%.+]] = arith.constant 96 : index
// ACC14-NEXT:      [[K0:%.+]] = arith.muli %{{.+}}, [[IV]] : index
// ACC14-NEXT:      [[K0I:%.+]] = arith.addi [[K0]], [[IV]] : index
// ACC14-NEXT:      arith.minsi [[K0I]], [[K]] : index
func.func @per_tensor_rowwise(%a: !fp8.scaled<64x1000xf8E4M3FN, block = [64, 1000], scale = f32>,
                              %b: !fp8.scaled<96x1000xf8E4M3FN, block = [1, 1000], scale = f32>) -> tensor<64x96xf32> {
  %d = fp8.scaled_matmul %a, %b {promote_interval = 96}
      : !fp8.scaled<64x1000xf8E4M3FN, block = [64, 1000], scale = f32>,
        !fp8.scaled<96x1000xf8E4M3FN, block = [1, 1000], scale = f32> -> tensor<64x96xf32>
  return %d : tensor<64x96xf32>
}
