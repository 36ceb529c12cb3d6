// RUN: fp8-opt %s -fp8-assign-precision -fp8-report -o /dev/null | FileCheck %s --check-prefix=TABLE
// RUN: fp8-opt %s -fp8-assign-precision -fp8-insert-quant -fp8-report=format=json -o /dev/null | FileCheck %s --check-prefix=JSON
// RUN: fp8-opt %s -fp8-assign-precision -fp8-report=format=json -o /dev/null | FileCheck %s --check-prefix=JSON
// RUN: fp8-opt %s -fp8-assign-precision -fp8-report="output=%t.json format=json" -o /dev/null && FileCheck %s --check-prefix=JSON < %t.json
// RUN: fp8-opt %s -fp8-assign-precision -fp8-report | FileCheck %s --check-prefix=IR
// RUN: not fp8-opt %s -fp8-report=format=xml 2>&1 | FileCheck %s --check-prefix=BAD

// One linear (x[16x256] . W[256x512]): 2*16*512*256 = 4194304 FLOPs in FP8;
// attention QK^T [16x16], K = 512, and PV [16x512], K = 16: 262144 FLOPs
// each, in bf16. FP8 share 4194304 / 4718592 = 88.9%. Weight 256x512 f32 = 524288 B
// before; after 131072 B codes + 2x4 128x128-block f32 scales (32 B).

// TABLE: fp8-report: policy deepseek-v3 (f8E4M3FN, activation block 1x128, weight block 128x128, scales f32, high bf16)
// TABLE: Matmuls (M x N x K)
// TABLE: 1 {{ *}}linalg.matmul {{ *}}report.mlir:{{[0-9]+}} {{ *}}linear {{ *}}fp8 {{ *}}16x512x256 {{ *}}4.19 MFLOP  heuristic: contraction with a weight (function argument)
// TABLE: 2 {{ *}}linalg.matmul {{ *}}report.mlir:{{[0-9]+}} {{ *}}attention {{ *}}bf16 {{ *}}16x16x512 {{ *}}262144 FLOP  heuristic: contraction of two activations
// TABLE: 3 {{ *}}linalg.matmul {{ *}}report.mlir:{{[0-9]+}} {{ *}}attention {{ *}}bf16 {{ *}}16x512x16 {{ *}}262144 FLOP  heuristic: contraction of two activations
// TABLE: Sensitive non-matmul ops
// TABLE: attention {{ *}}f32 {{ *}}1 {{ *}}256 FLOP  heuristic: between contractions feeding attention
// TABLE: matmul FLOPs:        4.72 MFLOP
// TABLE: in FP8:              4.19 MFLOP (88.9%)
// TABLE: in high precision:   524288 FLOP (11.1%)
// TABLE: linear weights:      512.00 KiB before, 128.03 KiB after

// JSON: "flops": 4194304
// JSON: "role": "linear"
// JSON: "weight_bytes_after": 131104
// JSON: "weight_bytes_before": 524288
// JSON: "role": "attention"
// JSON: "policy": "deepseek-v3"
// JSON: "totals": {
// JSON-NEXT: "fp8_matmul_flop_share": 0.88888
// JSON-NEXT: "fp8_matmul_flops": 4194304
// JSON-NEXT: "fp8_matmul_flops_per_token": 0
// JSON-NEXT: "matmul_flops": 4718592
// JSON-NEXT: "matmul_flops_per_token": 0
// JSON-NEXT: "tokens": 0

// The pass does not change the IR.
// IR: fp8-report
// IR: func.func @f
// IR: linalg.matmul

// BAD: fp8-report: unknown format 'xml' in option format (expected table or json)

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%x: tensor<16x256xf32>, %w: tensor<256x512xf32>, %init: tensor<16x512xf32>, %init2: tensor<16x16xf32>, %init3: tensor<16x16xf32>) -> tensor<16x512xf32> {
  %y = linalg.matmul ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%init : tensor<16x512xf32>) -> tensor<16x512xf32>
  %e = tensor.empty() : tensor<512x16xf32>
  %yt = linalg.transpose ins(%y : tensor<16x512xf32>) outs(%e : tensor<512x16xf32>) permutation = [1, 0]
  %s = linalg.matmul ins(%y, %yt : tensor<16x512xf32>, tensor<512x16xf32>) outs(%init2 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<16x16xf32>) outs(%init3 : tensor<16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x2 = math.exp %in : f32
    linalg.yield %x2 : f32
  } -> tensor<16x16xf32>
  %o = linalg.matmul ins(%p, %y : tensor<16x16xf32>, tensor<16x512xf32>) outs(%init : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %o : tensor<16x512xf32>
}
