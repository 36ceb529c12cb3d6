// RUN: fp8-opt %s -split-input-file | fp8-opt -split-input-file | FileCheck %s
// RUN: fp8-opt %s -split-input-file --mlir-print-op-generic | fp8-opt -split-input-file | FileCheck %s
// RUN: fp8-opt %s -split-input-file | fp8-opt -split-input-file --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @quantize_defaults
// CHECK: %[[Q:.*]] = fp8.quantize %{{.*}} : tensor<32x4096xbf16> -> !fp8.scaled<32x4096xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK-NOT: eps
// GENERIC-LABEL: sym_name = "quantize_defaults"
// GENERIC: "fp8.quantize"(%{{.*}}) <{eps = 9.99999974E-5 : f32, saturate = true, scale_mode = #fp8.scale_mode<f32>}> : (tensor<32x4096xbf16>) -> !fp8.scaled<32x4096xf8E4M3FN, block = [1, 128], scale = f32>
func.func @quantize_defaults(%x: tensor<32x4096xbf16>) -> !fp8.scaled<32x4096xf8E4M3FN, block = [1, 128], scale = f32> {
  %q = fp8.quantize %x : tensor<32x4096xbf16> -> !fp8.scaled<32x4096xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<32x4096xf8E4M3FN, block = [1, 128], scale = f32>
}

// -----

// CHECK-LABEL: func.func @quantize_options
// CHECK: fp8.quantize %{{.*}} {eps = 9.99999996E-13 : f32, saturate = false, scale_mode = #fp8.scale_mode<pow2>} : tensor<256x512xf32> -> !fp8.scaled<256x512xf8E5M2, block = [128, 128], scale = f8E8M0FNU>
// GENERIC-LABEL: sym_name = "quantize_options"
// GENERIC: saturate = false, scale_mode = #fp8.scale_mode<pow2>
func.func @quantize_options(%x: tensor<256x512xf32>) -> !fp8.scaled<256x512xf8E5M2, block = [128, 128], scale = f8E8M0FNU> {
  %q = fp8.quantize %x {eps = 1.0e-12 : f32, scale_mode = #fp8.scale_mode<pow2>, saturate = false}
       : tensor<256x512xf32> -> !fp8.scaled<256x512xf8E5M2, block = [128, 128], scale = f8E8M0FNU>
  return %q : !fp8.scaled<256x512xf8E5M2, block = [128, 128], scale = f8E8M0FNU>
}

// -----

// CHECK-LABEL: func.func @dequantize
// CHECK: fp8.dequantize %{{.*}} : !fp8.scaled<200x129xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<200x129xf32>
// CHECK: fp8.dequantize %{{.*}} : !fp8.scaled<200x129xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<200x129xbf16>
// GENERIC-LABEL: sym_name = "dequantize"
// GENERIC-COUNT-2: "fp8.dequantize"
func.func @dequantize(%q: !fp8.scaled<200x129xf8E4M3FN, block = [1, 128], scale = f32>) -> (tensor<200x129xf32>, tensor<200x129xbf16>) {
  %a = fp8.dequantize %q : !fp8.scaled<200x129xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<200x129xf32>
  %b = fp8.dequantize %q : !fp8.scaled<200x129xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<200x129xbf16>
  return %a, %b : tensor<200x129xf32>, tensor<200x129xbf16>
}

// -----

// The Wgrad transpose of DeepSeek-V3 §3.5.2: 128x1 tiles become 1x128 tiles of the transpose.
// CHECK-LABEL: func.func @requantize_transpose
// CHECK: fp8.requantize %{{.*}} {permutation = array<i64: 1, 0>} : !fp8.scaled<4096x7168xf8E4M3FN, block = [128, 1], scale = f32> -> !fp8.scaled<7168x4096xf8E4M3FN, block = [1, 128], scale = f32>
// GENERIC-LABEL: sym_name = "requantize_transpose"
// GENERIC: "fp8.requantize"(%{{.*}}) <{{{.*}}permutation = array<i64: 1, 0>{{.*}}}>
func.func @requantize_transpose(%g: !fp8.scaled<4096x7168xf8E4M3FN, block = [128, 1], scale = f32>) -> !fp8.scaled<7168x4096xf8E4M3FN, block = [1, 128], scale = f32> {
  %t = fp8.requantize %g {permutation = array<i64: 1, 0>}
       : !fp8.scaled<4096x7168xf8E4M3FN, block = [128, 1], scale = f32> -> !fp8.scaled<7168x4096xf8E4M3FN, block = [1, 128], scale = f32>
  return %t : !fp8.scaled<7168x4096xf8E4M3FN, block = [1, 128], scale = f32>
}

// -----

// A change of block shape and format without transpose.
// CHECK-LABEL: func.func @requantize_layout
// CHECK: fp8.requantize %{{.*}} : !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<256x256xf8E5M2, block = [128, 128], scale = f32>
func.func @requantize_layout(%g: !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32>) -> !fp8.scaled<256x256xf8E5M2, block = [128, 128], scale = f32> {
  %t = fp8.requantize %g : !fp8.scaled<256x256xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<256x256xf8E5M2, block = [128, 128], scale = f32>
  return %t : !fp8.scaled<256x256xf8E5M2, block = [128, 128], scale = f32>
}

// -----

// CHECK-LABEL: func.func @scaled_matmul
// CHECK: fp8.scaled_matmul %{{.*}}, %{{.*}} : !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x2112xbf16>
// CHECK: fp8.scaled_matmul %{{.*}}, %{{.*}} acc(%{{.*}} : tensor<128x2112xf32>) : {{.*}} -> tensor<128x2112xf32>
// GENERIC-LABEL: sym_name = "scaled_matmul"
// GENERIC: "fp8.scaled_matmul"(%{{.*}}, %{{.*}}) <{k_splits = 1 : i64, promote_interval = 128 : i64}> : ({{.*}}) -> tensor<128x2112xbf16>
// GENERIC: "fp8.scaled_matmul"(%{{.*}}, %{{.*}}, %{{.*}}) <{k_splits = 1 : i64, promote_interval = 128 : i64}> : ({{.*}}, tensor<128x2112xf32>) -> tensor<128x2112xf32>
func.func @scaled_matmul(%a: !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>,
                         %b: !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32>,
                         %c: tensor<128x2112xf32>) -> (tensor<128x2112xbf16>, tensor<128x2112xf32>) {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x2112xbf16>
  %e = fp8.scaled_matmul %a, %b acc(%c : tensor<128x2112xf32>) : !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x2112xf32>
  return %d, %e : tensor<128x2112xbf16>, tensor<128x2112xf32>
}

// -----

// Split-K (k_splits): printed when not 1; S up to the promotion intervals
// (ceil(300 / 128) = 3).
// CHECK-LABEL: func.func @scaled_matmul_k_splits
// CHECK: fp8.scaled_matmul %{{.*}}, %{{.*}} {k_splits = 3 : i64} : !fp8.scaled<16x300xf8E4M3FN
// GENERIC-LABEL: sym_name = "scaled_matmul_k_splits"
// GENERIC: "fp8.scaled_matmul"(%{{.*}}, %{{.*}}) <{k_splits = 3 : i64, promote_interval = 128 : i64}>
func.func @scaled_matmul_k_splits(%a: !fp8.scaled<16x300xf8E4M3FN, block = [1, 128], scale = f32>,
                                  %b: !fp8.scaled<40x300xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<16x40xbf16> {
  %d = fp8.scaled_matmul %a, %b {k_splits = 3 : i64} : !fp8.scaled<16x300xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<40x300xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<16x40xbf16>
  return %d : tensor<16x40xbf16>
}

// -----

// Accepted layouts: per-tensor and rowwise K-blocks span the whole K, so any
// multiple of 32 is a valid interval; mxfp8's 1x32 blocks take interval 32;
// a 256-wide K-block takes 128; mixed E4M3 x E5M2 (as in Dgrad) is legal.
// CHECK-LABEL: func.func @scaled_matmul_layouts
// CHECK-SAME: !fp8.scaled<64x1000xf8E4M3FN, block = [64, 1000], scale = f32>
// CHECK: promote_interval = 96
// CHECK: promote_interval = 32
// CHECK: fp8.scaled_matmul {{.*}} !fp8.scaled<64x512xf8E4M3FN, block = [1, 256], scale = f32>, !fp8.scaled<96x512xf8E5M2, block = [128, 128], scale = f32> -> tensor<64x96xbf16>
func.func @scaled_matmul_layouts(%a: !fp8.scaled<64x1000xf8E4M3FN, block = [64, 1000], scale = f32>,
                                 %b: !fp8.scaled<96x1000xf8E4M3FN, block = [1, 1000], scale = f32>,
                                 %ma: !fp8.scaled<64x512xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>,
                                 %mb: !fp8.scaled<96x512xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>,
                                 %wa: !fp8.scaled<64x512xf8E4M3FN, block = [1, 256], scale = f32>,
                                 %wb: !fp8.scaled<96x512xf8E5M2, block = [128, 128], scale = f32>) {
  %0 = fp8.scaled_matmul %a, %b {promote_interval = 96} : !fp8.scaled<64x1000xf8E4M3FN, block = [64, 1000], scale = f32>, !fp8.scaled<96x1000xf8E4M3FN, block = [1, 1000], scale = f32> -> tensor<64x96xf32>
  %1 = fp8.scaled_matmul %ma, %mb {promote_interval = 32} : !fp8.scaled<64x512xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>, !fp8.scaled<96x512xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU> -> tensor<64x96xf32>
  %2 = fp8.scaled_matmul %wa, %wb : !fp8.scaled<64x512xf8E4M3FN, block = [1, 256], scale = f32>, !fp8.scaled<96x512xf8E5M2, block = [128, 128], scale = f32> -> tensor<64x96xbf16>
  return
}

// -----

// CHECK-LABEL: func.func @assemble_disassemble
// CHECK: %[[Q:.*]] = fp8.assemble %{{.*}}, %{{.*}} : tensor<256x512xf8E4M3FN>, tensor<2x4xf32> -> !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>
// CHECK: %{{.*}}, %{{.*}} = fp8.disassemble %{{.*}} : !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>
// GENERIC-LABEL: sym_name = "assemble_disassemble"
// GENERIC: "fp8.disassemble"(%{{.*}}) : (!fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>) -> (tensor<256x512xf8E4M3FN>, tensor<2x4xf32>)
func.func @assemble_disassemble(%d: tensor<256x512xf8E4M3FN>, %s: tensor<2x4xf32>,
                                %q: !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>)
    -> (!fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>, tensor<256x512xf8E4M3FN>, tensor<2x4xf32>) {
  %a = fp8.assemble %d, %s : tensor<256x512xf8E4M3FN>, tensor<2x4xf32> -> !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>
  %data, %scales = fp8.disassemble %q : !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>
  return %a, %data, %scales : !fp8.scaled<256x512xf8E4M3FN, block = [128, 128], scale = f32>, tensor<256x512xf8E4M3FN>, tensor<2x4xf32>
}

// -----

// Tails and E8M0 scales: 200x129 in 1x32 blocks has 200x5 scales.
// CHECK-LABEL: func.func @assemble_tail_e8m0
// CHECK: fp8.assemble %{{.*}}, %{{.*}} : tensor<200x129xf8E5M2>, tensor<200x5xf8E8M0FNU> -> !fp8.scaled<200x129xf8E5M2, block = [1, 32], scale = f8E8M0FNU>
func.func @assemble_tail_e8m0(%d: tensor<200x129xf8E5M2>, %s: tensor<200x5xf8E8M0FNU>) -> !fp8.scaled<200x129xf8E5M2, block = [1, 32], scale = f8E8M0FNU> {
  %a = fp8.assemble %d, %s : tensor<200x129xf8E5M2>, tensor<200x5xf8E8M0FNU> -> !fp8.scaled<200x129xf8E5M2, block = [1, 32], scale = f8E8M0FNU>
  return %a : !fp8.scaled<200x129xf8E5M2, block = [1, 32], scale = f8E8M0FNU>
}

// -----

// A block of INT64_MAX is one block per row: the derived scale tensor is
// 256x1 (ceil(512 / (2^63 - 1)) = 1, computed without overflow; the Python
// API passes such a block through).
// CHECK-LABEL: func.func @huge_block
// CHECK: fp8.disassemble %{{.*}} : !fp8.scaled<256x512xf8E4M3FN, block = [1, 9223372036854775807], scale = f32>
// CHECK: return %{{.*}} : tensor<256x1xf32>
func.func @huge_block(%q: !fp8.scaled<256x512xf8E4M3FN, block = [1, 9223372036854775807], scale = f32>) -> tensor<256x1xf32> {
  %data, %scales = fp8.disassemble %q : !fp8.scaled<256x512xf8E4M3FN, block = [1, 9223372036854775807], scale = f32>
  return %scales : tensor<256x1xf32>
}
