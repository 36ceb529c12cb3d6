// RUN: fp8-opt %s -split-input-file --fp8-expand-arith | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-expand-arith='saturate=true' | FileCheck %s --check-prefix=SAT

// ExpandTruncF / ExpandExtF (lib/Dialect/FP8/Transforms/ExpandArith.cpp, builders in
// lib/Dialect/FP8/Utils/FP8Arith.cpp). The contract (fp8-expand-arith in
// include/fp8/Conversion/Passes.td): arith.truncf to f8E4M3FN/f8E5M2 (no
// rounding mode, or to_nearest_even) from f32 (f16/bf16 extended exactly to
// f32 first: one rounding in total) and arith.extf from them (exact) become
// integer ops on the bit patterns. truncf: RNE with subnormals, NaN -> 0x7F;
// overflow follows the op's IEEE semantics (NaN 0x7F for E4M3FN, Inf 0x7C
// for E5M2) unless saturate=true (satfinite: 0x7E = 448, 0x7B = 57344).
// extf: exact decode to f32 (then exact truncf to f16/bf16 or extf to f64).
// The greedy driver hoists (and CSEs) the constants to the top of the
// function, so they are matched with CHECK-DAG.

// E4M3FN from f32, scalar.
// CHECK-LABEL: func.func @trunc_f32_e4m3
// CHECK-SAME:    ([[X:%.+]]: f32) -> f8E4M3FN
// CHECK-DAG:     [[ABSMASK:%.+]] = arith.constant 2147483647 : i32
// CHECK-DAG:     [[REBIAS:%.+]] = arith.constant 1006632960 : i32
// CHECK-DAG:     [[SH20:%.+]] = arith.constant 20 : i32
// CHECK-DAG:     [[HALFM1:%.+]] = arith.constant 524287 : i32
// CHECK-DAG:     [[SUBBASE:%.+]] = arith.constant 141 : i32
// CHECK-DAG:     [[MINNORM:%.+]] = arith.constant 1015021568 : i32
// CHECK-DAG:     [[OVF:%.+]] = arith.constant 1139277824 : i32
// CHECK-DAG:     [[INF:%.+]] = arith.constant 2139095040 : i32
// CHECK-DAG:     [[C127:%.+]] = arith.constant 127 : i32
// CHECK-DAG:     [[C24:%.+]] = arith.constant 24 : i32
// CHECK-DAG:     [[C80:%.+]] = arith.constant 128 : i32
// CHECK-NOT:     arith.truncf
// CHECK:         [[BITS:%.+]] = arith.bitcast [[X]] : f32 to i32
// CHECK-NEXT:    [[ABS:%.+]] = arith.andi [[BITS]], [[ABSMASK]] : i32
// Sign: (bits >> 24) & 0x80.
// CHECK-NEXT:    [[SGN0:%.+]] = arith.shrui [[BITS]], [[C24]] : i32
// CHECK-NEXT:    [[SIGN:%.+]] = arith.andi [[SGN0]], [[C80]] : i32
// Normal range: rebias, then RNE of the 20 dropped bits: add
// 2^19 - 1 + lsb, shift.
// CHECK:         [[REB:%.+]] = arith.subi [[ABS]], [[REBIAS]] : i32
// CHECK-NEXT:    [[LSB0:%.+]] = arith.shrui [[REB]], [[SH20]] : i32
// CHECK-NEXT:    [[LSB:%.+]] = arith.andi [[LSB0]], %{{.+}} : i32
// CHECK-NEXT:    [[BIAS:%.+]] = arith.addi [[LSB]], [[HALFM1]] : i32
// CHECK-NEXT:    [[SUM:%.+]] = arith.addi [[REB]], [[BIAS]] : i32
// CHECK-NEXT:    [[NORMAL:%.+]] = arith.shrui [[SUM]], [[SH20]] : i32
// Subnormal range: shift onto the 2^-9 grid, 141 - exponent.
// CHECK-NEXT:    [[EXP:%.+]] = arith.shrui [[ABS]], %{{.+}} : i32
// CHECK-NEXT:    arith.subi [[SUBBASE]], [[EXP]] : i32
// CHECK:         [[ISSUB:%.+]] = arith.cmpi ult, [[ABS]], [[MINNORM]] : i32
// CHECK-NEXT:    [[RND:%.+]] = arith.select [[ISSUB]], %{{.+}}, [[NORMAL]] : i32
// Overflow above 464: NaN (0x7F) without saturate.
// CHECK-NEXT:    [[ISOVF:%.+]] = arith.cmpi ugt, [[ABS]], [[OVF]] : i32
// CHECK-NEXT:    [[O:%.+]] = arith.select [[ISOVF]], [[C127]], [[RND]] : i32
// CHECK-NEXT:    [[SIGNED:%.+]] = arith.ori [[O]], [[SIGN]] : i32
// CHECK-NEXT:    [[ISNAN:%.+]] = arith.cmpi ugt, [[ABS]], [[INF]] : i32
// CHECK-NEXT:    [[CODE:%.+]] = arith.select [[ISNAN]], [[C127]], [[SIGNED]] : i32
// CHECK-NEXT:    [[I8:%.+]] = arith.trunci [[CODE]] : i32 to i8
// CHECK-NEXT:    [[R:%.+]] = arith.bitcast [[I8]] : i8 to f8E4M3FN
// CHECK-NEXT:    return [[R]] : f8E4M3FN
// With saturate=true the overflow code is 0x7E (448); NaN stays 0x7F.
// SAT-LABEL: func.func @trunc_f32_e4m3
// SAT-DAG:       [[OVF:%.+]] = arith.constant 1139277824 : i32
// SAT-DAG:       [[C126:%.+]] = arith.constant 126 : i32
// SAT-DAG:       [[C127:%.+]] = arith.constant 127 : i32
// SAT:           [[ISOVF:%.+]] = arith.cmpi ugt, [[ABS:%.+]], [[OVF]] : i32
// SAT-NEXT:      [[O:%.+]] = arith.select [[ISOVF]], [[C126]], %{{.+}} : i32
// SAT-NEXT:      [[SIGNED:%.+]] = arith.ori [[O]], %{{.+}} : i32
// SAT-NEXT:      [[ISNAN:%.+]] = arith.cmpi ugt, [[ABS]], %{{.+}} : i32
// SAT-NEXT:      arith.select [[ISNAN]], [[C127]], [[SIGNED]] : i32
func.func @trunc_f32_e4m3(%x: f32) -> f8E4M3FN {
  %t = arith.truncf %x : f32 to f8E4M3FN
  return %t : f8E4M3FN
}

// -----

// E5M2 from a bf16 vector: extended exactly to f32 first, vector constants.
// Overflow threshold 0x476FFFFF (below 61440 = 57344 + half an ulp, which
// ties to the even Inf code): Inf 0x7C without saturate, 0x7B with it.
// CHECK-LABEL: func.func @trunc_bf16_vector_e5m2
// CHECK-SAME:    ([[X:%.+]]: vector<4xbf16>) -> vector<4xf8E5M2>
// CHECK-DAG:     arith.constant dense<939524096> : vector<4xi32>
// CHECK-DAG:     arith.constant dense<21> : vector<4xi32>
// CHECK-DAG:     arith.constant dense<1048575> : vector<4xi32>
// CHECK-DAG:     arith.constant dense<134> : vector<4xi32>
// CHECK-DAG:     [[MINNORM:%.+]] = arith.constant dense<947912704> : vector<4xi32>
// CHECK-DAG:     [[OVF:%.+]] = arith.constant dense<1198522367> : vector<4xi32>
// CHECK-DAG:     [[C7C:%.+]] = arith.constant dense<124> : vector<4xi32>
// CHECK-DAG:     [[C7F:%.+]] = arith.constant dense<127> : vector<4xi32>
// CHECK:         [[W:%.+]] = arith.extf [[X]] : vector<4xbf16> to vector<4xf32>
// CHECK-NEXT:    [[BITS:%.+]] = arith.bitcast [[W]] : vector<4xf32> to vector<4xi32>
// CHECK:         arith.cmpi ult, %{{.+}}, [[MINNORM]] : vector<4xi32>
// CHECK:         [[ISOVF:%.+]] = arith.cmpi ugt, %{{.+}}, [[OVF]] : vector<4xi32>
// CHECK-NEXT:    arith.select [[ISOVF]], [[C7C]], %{{.+}} : vector<4xi1>, vector<4xi32>
// CHECK:         arith.select %{{.+}}, [[C7F]], %{{.+}} : vector<4xi1>, vector<4xi32>
// CHECK-NEXT:    [[I8:%.+]] = arith.trunci %{{.+}} : vector<4xi32> to vector<4xi8>
// CHECK-NEXT:    [[R:%.+]] = arith.bitcast [[I8]] : vector<4xi8> to vector<4xf8E5M2>
// CHECK-NEXT:    return [[R]]
// SAT-LABEL: func.func @trunc_bf16_vector_e5m2
// SAT-DAG:       [[OVF:%.+]] = arith.constant dense<1198522367> : vector<4xi32>
// SAT-DAG:       [[C7B:%.+]] = arith.constant dense<123> : vector<4xi32>
// SAT:           [[ISOVF:%.+]] = arith.cmpi ugt, %{{.+}}, [[OVF]] : vector<4xi32>
// SAT-NEXT:      arith.select [[ISOVF]], [[C7B]], %{{.+}} : vector<4xi1>, vector<4xi32>
func.func @trunc_bf16_vector_e5m2(%x: vector<4xbf16>) -> vector<4xf8E5M2> {
  %t = arith.truncf %x : vector<4xbf16> to vector<4xf8E5M2>
  return %t : vector<4xf8E5M2>
}

// -----

// An explicit to_nearest_even rounding mode is expanded too (from f16).
// CHECK-LABEL: func.func @trunc_f16_rne
// CHECK-SAME:    ([[X:%.+]]: f16) -> f8E4M3FN
// CHECK-NOT:     arith.truncf
// CHECK:         [[W:%.+]] = arith.extf [[X]] : f16 to f32
// CHECK-NEXT:    arith.bitcast [[W]] : f32 to i32
// CHECK-NOT:     arith.truncf
// CHECK:         arith.bitcast %{{.+}} : i8 to f8E4M3FN
func.func @trunc_f16_rne(%x: f16) -> f8E4M3FN {
  %t = arith.truncf %x to_nearest_even : f16 to f8E4M3FN
  return %t : f8E4M3FN
}

// -----

// extf from E4M3FN to f32: sign << 24, normal = (|code| << 20) + (120 << 23),
// subnormal = mantissa * 2^-9, NaN only for |code| = 0x7F; no further
// conversion. Unaffected by saturate.
// CHECK-LABEL: func.func @ext_e4m3_f32
// CHECK-SAME:    ([[X:%.+]]: f8E4M3FN) -> f32
// CHECK-DAG:     [[C80:%.+]] = arith.constant 128 : i32
// CHECK-DAG:     [[C24:%.+]] = arith.constant 24 : i32
// CHECK-DAG:     [[C7F:%.+]] = arith.constant 127 : i32
// CHECK-DAG:     [[C20:%.+]] = arith.constant 20 : i32
// CHECK-DAG:     [[REBIAS:%.+]] = arith.constant 1006632960 : i32
// CHECK-DAG:     [[C7:%.+]] = arith.constant 7 : i32
// CHECK-DAG:     [[GRID:%.+]] = arith.constant 0.001953125 : f32
// CHECK-DAG:     [[C8:%.+]] = arith.constant 8 : i32
// CHECK-DAG:     [[QNAN:%.+]] = arith.constant 2143289344 : i32
// CHECK:         [[I8:%.+]] = arith.bitcast [[X]] : f8E4M3FN to i8
// CHECK-NEXT:    [[V:%.+]] = arith.extui [[I8]] : i8 to i32
// CHECK-NEXT:    [[S0:%.+]] = arith.andi [[V]], [[C80]] : i32
// CHECK-NEXT:    [[SIGN:%.+]] = arith.shli [[S0]], [[C24]] : i32
// CHECK-NEXT:    [[MAG:%.+]] = arith.andi [[V]], [[C7F]] : i32
// CHECK-NEXT:    [[M20:%.+]] = arith.shli [[MAG]], [[C20]] : i32
// CHECK-NEXT:    [[NORM:%.+]] = arith.addi [[M20]], [[REBIAS]] : i32
// CHECK-NEXT:    [[MANT:%.+]] = arith.andi [[V]], [[C7]] : i32
// CHECK-NEXT:    [[MF:%.+]] = arith.uitofp [[MANT]] : i32 to f32
// CHECK-NEXT:    [[SUBF:%.+]] = arith.mulf [[MF]], [[GRID]] : f32
// CHECK-NEXT:    [[SUB:%.+]] = arith.bitcast [[SUBF]] : f32 to i32
// CHECK-NEXT:    [[ISSUB:%.+]] = arith.cmpi ult, [[MAG]], [[C8]] : i32
// CHECK-NEXT:    [[SEL:%.+]] = arith.select [[ISSUB]], [[SUB]], [[NORM]] : i32
// CHECK-NEXT:    [[SIGNED:%.+]] = arith.ori [[SEL]], [[SIGN]] : i32
// CHECK-NEXT:    [[ISNAN:%.+]] = arith.cmpi eq, [[MAG]], [[C7F]] : i32
// CHECK-NEXT:    [[B:%.+]] = arith.select [[ISNAN]], [[QNAN]], [[SIGNED]] : i32
// CHECK-NEXT:    [[F:%.+]] = arith.bitcast [[B]] : i32 to f32
// CHECK-NEXT:    return [[F]] : f32
// SAT-LABEL: func.func @ext_e4m3_f32
// SAT-NOT:       arith.extf
// SAT:           arith.cmpi eq, %{{.+}}, %{{.+}} : i32
// SAT:           return
func.func @ext_e4m3_f32(%x: f8E4M3FN) -> f32 {
  %e = arith.extf %x : f8E4M3FN to f32
  return %e : f32
}

// -----

// extf from E5M2 to f16: decode (subnormal grid 2^-16; |code| = 0x7C is
// ±Inf, above is NaN), then an exact arith.truncf f32 -> f16 (every E5M2
// value is an f16).
// CHECK-LABEL: func.func @ext_e5m2_f16
// CHECK-SAME:    ([[X:%.+]]: f8E5M2) -> f16
// CHECK-DAG:     [[C7C:%.+]] = arith.constant 124 : i32
// CHECK-DAG:     [[INF:%.+]] = arith.constant 2139095040 : i32
// CHECK-DAG:     [[QNAN:%.+]] = arith.constant 2143289344 : i32
// CHECK-DAG:     arith.constant 1.52587891E-5 : f32
// CHECK-DAG:     arith.constant 939524096 : i32
// CHECK:         arith.bitcast [[X]] : f8E5M2 to i8
// CHECK:         [[SIGN:%.+]] = arith.shli %{{.+}}, %{{.+}} : i32
// CHECK-NEXT:    [[MAG:%.+]] = arith.andi %{{.+}}, %{{.+}} : i32
// CHECK:         [[SIGNED:%.+]] = arith.ori %{{.+}}, [[SIGN]] : i32
// CHECK-NEXT:    [[ISINF:%.+]] = arith.cmpi eq, [[MAG]], [[C7C]] : i32
// CHECK-NEXT:    [[SINF:%.+]] = arith.ori [[SIGN]], [[INF]] : i32
// CHECK-NEXT:    [[B1:%.+]] = arith.select [[ISINF]], [[SINF]], [[SIGNED]] : i32
// CHECK-NEXT:    [[ISNAN:%.+]] = arith.cmpi ugt, [[MAG]], [[C7C]] : i32
// CHECK-NEXT:    [[B2:%.+]] = arith.select [[ISNAN]], [[QNAN]], [[B1]] : i32
// CHECK-NEXT:    [[F:%.+]] = arith.bitcast [[B2]] : i32 to f32
// CHECK-NEXT:    [[H:%.+]] = arith.truncf [[F]] : f32 to f16
// CHECK-NEXT:    return [[H]] : f16
func.func @ext_e5m2_f16(%x: f8E5M2) -> f16 {
  %e = arith.extf %x : f8E5M2 to f16
  return %e : f16
}

// -----

// extf from an E4M3FN vector to f64: decode on vectors, then an exact
// arith.extf f32 -> f64.
// CHECK-LABEL: func.func @ext_vector_e4m3_f64
// CHECK-SAME:    ([[X:%.+]]: vector<2xf8E4M3FN>) -> vector<2xf64>
// CHECK:         arith.bitcast [[X]] : vector<2xf8E4M3FN> to vector<2xi8>
// CHECK:         [[F:%.+]] = arith.bitcast %{{.+}} : vector<2xi32> to vector<2xf32>
// CHECK-NEXT:    [[D:%.+]] = arith.extf [[F]] : vector<2xf32> to vector<2xf64>
// CHECK-NEXT:    return [[D]] : vector<2xf64>
func.func @ext_vector_e4m3_f64(%x: vector<2xf8E4M3FN>) -> vector<2xf64> {
  %e = arith.extf %x : vector<2xf8E4M3FN> to vector<2xf64>
  return %e : vector<2xf64>
}

// -----

// Conversions that do not involve FP8 are left alone, without a remark.
// CHECK-LABEL: func.func @not_fp8
// CHECK-SAME:    ([[X:%.+]]: f32, [[H:%.+]]: f16) -> (bf16, f32)
// CHECK-NEXT:    [[T:%.+]] = arith.truncf [[X]] : f32 to bf16
// CHECK-NEXT:    [[E:%.+]] = arith.extf [[H]] : f16 to f32
// CHECK-NEXT:    return [[T]], [[E]] : bf16, f32
// SAT-LABEL: func.func @not_fp8
// SAT-NEXT:      arith.truncf %{{.+}} : f32 to bf16
// SAT-NEXT:      arith.extf %{{.+}} : f16 to f32
func.func @not_fp8(%x: f32, %h: f16) -> (bf16, f32) {
  %t = arith.truncf %x : f32 to bf16
  %e = arith.extf %h : f16 to f32
  return %t, %e : bf16, f32
}
