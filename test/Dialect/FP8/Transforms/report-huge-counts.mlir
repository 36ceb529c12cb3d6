// RUN: fp8-opt %s -fp8-assign-precision -fp8-report -o /dev/null | FileCheck %s --check-prefix=TABLE
// RUN: fp8-opt %s -fp8-assign-precision -fp8-report=format=json -o /dev/null | FileCheck %s --check-prefix=JSON
// RUN: fp8-opt %s -fp8-assign-precision -fp8-insert-quant -fp8-report=format=json -o /dev/null | FileCheck %s --check-prefix=JSON
// RUN: fp8-opt %s -fp8-assign-precision -fp8-report="format=json tokens=4611686018427387904" -o /dev/null | FileCheck %s --check-prefix=TOKENS
// RUN: fp8-opt %s -fp8-assign-precision -fp8-report="tokens=4611686018427387904" -o /dev/null | FileCheck %s --check-prefix=TOKTABLE
// RUN: fp8-opt %s -fp8-assign-precision -fp8-report="format=json tokens=300000000000" -o /dev/null | FileCheck %s --check-prefix=EXACT

// FLOP and byte counts past int64 (they wrapped: sizes of 2^62 reported
// 0 FLOP). A count is an exact integer while it fits in int64, else a
// number with an exponent; hand-derived values:
//  - @huge, M = K = 2^62, N = 4096: 2 * 2^62 * 2^12 * 2^62 = 2^137 =
//    1.74225e41 FLOP; its f32 weight 2^74 elements, 2^76 = 7.55579e22 B;
//    in FP8 2^74 codes + 2^55 x 32 f32 128x128-block scales: 2^74 + 2^62
//    = 1.88941e22 B.
//  - @in_loop, 1024^3 run 2^62 times (scf.for): 2^31 * 2^62 = 2^93 =
//    9.90352e27 FLOP, count 4611686018427387904; its weight 2^62 times
//    4 MiB, 2^84 B (FP8: 2^62 x (2^20 + 64 x 4) B); the weights' totals
//    1.94184e25 B and 4.85578e24 B; all FLOPs 2^137 + 2^93 =
//    1.7422457186353e41.
//  - @tokens, ?x2112x7168: 2 * 2112 * 7168 = 30277632 FLOP per token; at
//    tokens = 2^62, 1.39631e26 FLOP; at tokens = 3e11, 9083289600000000000
//    (exact, just below 2^63).

// TABLE: linalg.matmul {{.*}} linear {{ *}}fp8 {{ *}}4611686018427387904x4096x4611686018427387904 {{ *}}1.742e+41 FLOP
// TABLE: linalg.matmul {{.*}} linear {{ *}}fp8 {{ *}}4611686018427387904 x 1024x1024x1024 {{ *}}9.904e+27 FLOP
// TABLE: linalg.matmul {{.*}} linear {{ *}}fp8 {{ *}}?x2112x7168 {{ *}}30.28 MFLOP/tok
// TABLE: matmul FLOPs:        1.742e+41 FLOP + 30.28 MFLOP per token
// TABLE: in high precision:   0 FLOP + 0 FLOP per token
// TABLE: linear weights:      1.942e+25 B before, 4.856e+24 B after

// JSON: "count": 1,
// JSON: "flops": 1.74224571863520{{[0-9]*}}e+41,
// JSON: "weight_bytes_after": 1.88940776174970{{[0-9]*}}e+22,
// JSON-NEXT: "weight_bytes_before": 7.55578637259143{{[0-9]*}}e+22
// JSON: "count": 4611686018427387904,
// JSON: "flops": 9.9035203142830{{[0-9]*}}e+27,
// JSON: "flops_per_token": 30277632,
// JSON: "totals": {
// JSON-NEXT: "fp8_matmul_flop_share": 1,
// JSON-NEXT: "fp8_matmul_flops": 1.7422457186353{{[0-9]*}}e+41,
// JSON-NEXT: "fp8_matmul_flops_per_token": 30277632,

// TOKENS: "flops": 1.39630932165489{{[0-9]*}}e+26,
// TOKENS: "kernel_config": null,
// TOKENS: "shape": "?x2112x7168"
// TOKENS: "matmul_flops_per_token": 0,

// TOKTABLE: ?x2112x7168 {{ *}}1.396e+26 FLOP

// EXACT: "flops": 9083289600000000000,

func.func @huge(%x: tensor<4611686018427387904x4611686018427387904xf32>, %w: tensor<4611686018427387904x4096xf32>) -> tensor<4611686018427387904x4096xf32> {
  %e = tensor.empty() : tensor<4611686018427387904x4096xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4611686018427387904x4611686018427387904xf32>, tensor<4611686018427387904x4096xf32>) outs(%e : tensor<4611686018427387904x4096xf32>) -> tensor<4611686018427387904x4096xf32>
  return %y : tensor<4611686018427387904x4096xf32>
}

func.func @in_loop(%x: tensor<1024x1024xf32>, %w: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 4611686018427387904 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> tensor<1024x1024xf32> {
    %e = tensor.empty() : tensor<1024x1024xf32>
    %y = linalg.matmul ins(%acc, %w : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    scf.yield %y : tensor<1024x1024xf32>
  }
  return %r : tensor<1024x1024xf32>
}

func.func @tokens(%x: tensor<?x7168xf32>, %w: tensor<7168x2112xf32>) -> tensor<?x2112xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x7168xf32>
  %e = tensor.empty(%m) : tensor<?x2112xf32>
  %y = linalg.matmul ins(%x, %w : tensor<?x7168xf32>, tensor<7168x2112xf32>) outs(%e : tensor<?x2112xf32>) -> tensor<?x2112xf32>
  return %y : tensor<?x2112xf32>
}
