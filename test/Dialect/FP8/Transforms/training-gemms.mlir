// RUN: fp8-opt %s -split-input-file -fp8-assign-precision | FileCheck %s --check-prefix=ROLES
// RUN: fp8-opt %s -split-input-file -fp8-assign-precision -fp8-insert-quant | FileCheck %s --check-prefix=QUANT
// RUN: fp8-opt %s -split-input-file -fp8-assign-precision=policy=hybrid -fp8-insert-quant | FileCheck %s --check-prefix=HYBRID
// RUN: fp8-opt %s -split-input-file -fp8-assign-precision -fp8-insert-quant -fp8-report -o /dev/null | FileCheck %s --check-prefix=REPORT

// One linear's training step in the form aot_autograd exports (joint graph:
// forward and backward in one function, the tangent dY an argument):
// Y = X * W^T, dX = dY * W, dW = dY^T * X (DeepSeek-V3 §3.3, Figure 6).

// ROLES-LABEL: func.func @joint
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<fprop>, fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (function argument)", fp8.role = #fp8.role<linear>}
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>, fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: activation gradient dX = dY * W of a linear (weight: function argument)", fp8.role = #fp8.role<linear>}
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>, fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: weight gradient dW = dY^T * X (contraction over the 256 tokens)", fp8.role = #fp8.role<linear>}

// One quantization each of dY (1x128), W (128x128) and X (1x128); the
// dgrad reads W's codes and scales transposed; the wgrad requantizes X and
// dY to 1x128 tiles along the 256 tokens.
// QUANT-LABEL: func.func @joint
// QUANT-SAME: (%[[X:.*]]: tensor<256x512xf32>, %[[W:.*]]: tensor<384x512xf32>, %[[DY:.*]]: tensor<256x384xf32>)
// QUANT-DAG: %[[QDY:.*]] = fp8.quantize %[[DY]] : tensor<256x384xf32> -> !fp8.scaled<256x384xf8E4M3FN, block = [1, 128], scale = f32>
// QUANT-DAG: %[[QW:.*]] = fp8.quantize %[[W]] : tensor<384x512xf32> -> !fp8.scaled<384x512xf8E4M3FN, block = [128, 128], scale = f32>
// QUANT-DAG: %[[QX:.*]] = fp8.quantize %[[X]] : tensor<256x512xf32> -> !fp8.scaled<256x512xf8E4M3FN, block = [1, 128], scale = f32>
// QUANT: %[[Y:.*]] = fp8.scaled_matmul %[[QX]], %[[QW]] {fp8.gemm = #fp8.gemm<fprop>
// QUANT-SAME: -> tensor<256x384xf32>
// QUANT: %[[CODES:.*]], %[[SCALES:.*]] = fp8.disassemble %[[QW]]
// QUANT-DAG: %[[ST:.*]] = linalg.transpose ins(%[[SCALES]] : tensor<3x4xf32>)
// QUANT-DAG: %[[CT:.*]] = linalg.transpose ins(%[[CODES]] : tensor<384x512xf8E4M3FN>)
// QUANT: %[[QWT:.*]] = fp8.assemble %[[CT]], %[[ST]] : tensor<512x384xf8E4M3FN>, tensor<4x3xf32> -> !fp8.scaled<512x384xf8E4M3FN, block = [128, 128], scale = f32>
// QUANT: %[[DX:.*]] = fp8.scaled_matmul %[[QDY]], %[[QWT]] {fp8.gemm = #fp8.gemm<dgrad>
// QUANT-SAME: -> tensor<256x512xf32>
// QUANT-DAG: %[[RDY:.*]] = fp8.requantize %[[QDY]] {permutation = array<i64: 1, 0>} : !fp8.scaled<256x384xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<384x256xf8E4M3FN, block = [1, 128], scale = f32>
// QUANT-DAG: %[[RX:.*]] = fp8.requantize %[[QX]] {permutation = array<i64: 1, 0>} : !fp8.scaled<256x512xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>
// QUANT: %[[DW:.*]] = fp8.scaled_matmul %[[RDY]], %[[RX]] {fp8.gemm = #fp8.gemm<wgrad>
// QUANT-SAME: -> tensor<384x512xf32>
// QUANT-NOT: fp8.quantize
// QUANT-NOT: linalg.matmul
// QUANT: return %[[Y]], %[[DX]], %[[DW]]

// hybrid: E5M2 for dY (its dgrad and, requantized, its wgrad), E4M3 for X
// and W.
// HYBRID-LABEL: func.func @joint
// HYBRID-DAG: fp8.quantize %{{.*}} : tensor<256x384xf32> -> !fp8.scaled<256x384xf8E5M2, block = [1, 128], scale = f32>
// HYBRID-DAG: fp8.quantize %{{.*}} : tensor<384x512xf32> -> !fp8.scaled<384x512xf8E4M3FN, block = [128, 128], scale = f32>
// HYBRID-DAG: fp8.quantize %{{.*}} : tensor<256x512xf32> -> !fp8.scaled<256x512xf8E4M3FN, block = [1, 128], scale = f32>
// HYBRID: fp8.scaled_matmul {{.*}} : !fp8.scaled<256x512xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<384x512xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<256x384xf32>
// HYBRID: fp8.scaled_matmul {{.*}} : !fp8.scaled<256x384xf8E5M2, block = [1, 128], scale = f32>, !fp8.scaled<512x384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<256x512xf32>
// HYBRID: fp8.scaled_matmul {{.*}} : !fp8.scaled<384x256xf8E5M2, block = [1, 128], scale = f32>, !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<384x512xf32>
// Hand-derived: each GEMM is 2 * 256 * 384 * 512 = 100663296 FLOP; the saved
// X is 256 * 512 * 4 B = 512 KiB in f32, 256 * 512 B + 256 * 4 scales * 4 B
// = 132 KiB as FP8; W has 384 * 512 = 196608 elements: 768 KiB as f32
// master weights and gradients, 2 bf16 moments = 768 KiB (DeepSeek-V3).
// REPORT: fp8.scaled_matmul {{.*}}linear/fprop fp8 256x384x512 100.66 MFLOP
// REPORT: fp8.scaled_matmul {{.*}}linear/dgrad fp8 256x512x384 100.66 MFLOP
// REPORT: fp8.scaled_matmul {{.*}}linear/wgrad fp8 384x512x256 100.66 MFLOP
// REPORT: Training (fp8.gemm: the three GEMMs of each linear)
// REPORT-NEXT: gemm count FP8 FLOPs high FLOPs FP8 share
// REPORT-NEXT: fprop 1 100.66 MFLOP 0 FLOP 100.0%
// REPORT-NEXT: dgrad 1 100.66 MFLOP 0 FLOP 100.0%
// REPORT-NEXT: wgrad 1 100.66 MFLOP 0 FLOP 100.0%
// REPORT-NEXT: saved activations: 512.00 KiB in high precision, 132.00 KiB cached as FP8
// REPORT-NEXT: master weights f32 (768.00 KiB), weight gradients f32 (768.00 KiB), optimizer moments bf16 (768.00 KiB) for the 196608 linear weight elements
func.func @joint(%x: tensor<256x512xf32>, %w: tensor<384x512xf32>, %dy: tensor<256x384xf32>) -> (tensor<256x384xf32>, tensor<256x512xf32>, tensor<384x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<512x384xf32>
  %wt = linalg.transpose ins(%w : tensor<384x512xf32>) outs(%e0 : tensor<512x384xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<256x384xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<256x384xf32>) -> tensor<256x384xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<256x512xf32>, tensor<512x384xf32>) outs(%f1 : tensor<256x384xf32>) -> tensor<256x384xf32>
  %e2 = tensor.empty() : tensor<256x512xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %dx = linalg.matmul ins(%dy, %w : tensor<256x384xf32>, tensor<384x512xf32>) outs(%f2 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %e3 = tensor.empty() : tensor<384x256xf32>
  %dyt = linalg.transpose ins(%dy : tensor<256x384xf32>) outs(%e3 : tensor<384x256xf32>) permutation = [1, 0]
  %e4 = tensor.empty() : tensor<384x512xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<384x512xf32>) -> tensor<384x512xf32>
  %dw = linalg.matmul ins(%dyt, %x : tensor<384x256xf32>, tensor<256x512xf32>) outs(%f4 : tensor<384x512xf32>) -> tensor<384x512xf32>
  return %y, %dx, %dw : tensor<256x384xf32>, tensor<256x512xf32>, tensor<384x512xf32>
}

// -----

// The same step split into forward and backward functions (the saved X and
// W passed from one to the other); the backward computes dW before dX and
// writes dW = X^T * dY as [in, out] (the other operand order): still one
// quantization of dY, shared by the dgrad and, requantized, the wgrad. X,
// read by the wgrad only, is quantized once with 128x1 tiles (1x128 along
// the tokens) and transposed, not requantized.

// ROLES-LABEL: func.func @forward
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<fprop>
// ROLES-LABEL: func.func @backward
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>, {{.*}}fp8.role = #fp8.role<linear>}
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>, {{.*}}fp8.role = #fp8.role<linear>}

// QUANT-LABEL: func.func @forward
// QUANT-COUNT-2: fp8.quantize
// QUANT-NOT: fp8.quantize
// QUANT-LABEL: func.func @backward
// QUANT-SAME: (%[[X:.*]]: tensor<256x512xf32>, %[[W:.*]]: tensor<384x512xf32>, %[[DY:.*]]: tensor<256x384xf32>)
// QUANT-DAG: %[[QX:.*]] = fp8.quantize %[[X]] : tensor<256x512xf32> -> !fp8.scaled<256x512xf8E4M3FN, block = [128, 1], scale = f32>
// QUANT-DAG: %[[QDY:.*]] = fp8.quantize %[[DY]] : tensor<256x384xf32> -> !fp8.scaled<256x384xf8E4M3FN, block = [1, 128], scale = f32>
// QUANT-DAG: %[[QW:.*]] = fp8.quantize %[[W]] : tensor<384x512xf32> -> !fp8.scaled<384x512xf8E4M3FN, block = [128, 128], scale = f32>
// QUANT-DAG: fp8.requantize %[[QDY]] {permutation = array<i64: 1, 0>} : !fp8.scaled<256x384xf8E4M3FN, block = [1, 128], scale = f32> -> !fp8.scaled<384x256xf8E4M3FN, block = [1, 128], scale = f32>
// QUANT-DAG: fp8.assemble {{.*}} -> !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>
// QUANT: fp8.scaled_matmul {{.*}}fp8.gemm = #fp8.gemm<wgrad>{{.*}} : !fp8.scaled<512x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<384x256xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<512x384xf32>
// QUANT: fp8.scaled_matmul {{.*}}fp8.gemm = #fp8.gemm<dgrad>
// QUANT-NOT: fp8.quantize
// QUANT-NOT: fp8.requantize
// QUANT: return
func.func @forward(%x: tensor<256x512xf32>, %w: tensor<384x512xf32>) -> (tensor<256x384xf32>, tensor<256x512xf32>, tensor<384x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<512x384xf32>
  %wt = linalg.transpose ins(%w : tensor<384x512xf32>) outs(%e0 : tensor<512x384xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<256x384xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<256x384xf32>) -> tensor<256x384xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<256x512xf32>, tensor<512x384xf32>) outs(%f1 : tensor<256x384xf32>) -> tensor<256x384xf32>
  return %y, %x, %w : tensor<256x384xf32>, tensor<256x512xf32>, tensor<384x512xf32>
}
func.func @backward(%x: tensor<256x512xf32>, %w: tensor<384x512xf32>, %dy: tensor<256x384xf32>) -> (tensor<256x512xf32>, tensor<512x384xf32>) {
  %zero = arith.constant 0.0 : f32
  %e3 = tensor.empty() : tensor<512x256xf32>
  %xt = linalg.transpose ins(%x : tensor<256x512xf32>) outs(%e3 : tensor<512x256xf32>) permutation = [1, 0]
  %e4 = tensor.empty() : tensor<512x384xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<512x384xf32>) -> tensor<512x384xf32>
  %dwt = linalg.matmul ins(%xt, %dy : tensor<512x256xf32>, tensor<256x384xf32>) outs(%f4 : tensor<512x384xf32>) -> tensor<512x384xf32>
  %e2 = tensor.empty() : tensor<256x512xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %dx = linalg.matmul ins(%dy, %w : tensor<256x384xf32>, tensor<384x512xf32>) outs(%f2 : tensor<256x512xf32>) -> tensor<256x512xf32>
  return %dx, %dwt : tensor<256x512xf32>, tensor<512x384xf32>
}

// -----

// An inference graph (no gradient anywhere) gets no fp8.gemm.
// ROLES-LABEL: func.func @inference
// ROLES: linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (function argument)", fp8.role = #fp8.role<linear>}
// ROLES-NOT: fp8.gemm
func.func @inference(%x: tensor<256x512xf32>, %w: tensor<384x512xf32>) -> tensor<256x384xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<512x384xf32>
  %wt = linalg.transpose ins(%w : tensor<384x512xf32>) outs(%e0 : tensor<512x384xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<256x384xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<256x384xf32>) -> tensor<256x384xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<256x512xf32>, tensor<512x384xf32>) outs(%f1 : tensor<256x384xf32>) -> tensor<256x384xf32>
  return %y : tensor<256x384xf32>
}

// -----

// A router's training step (joint graph): its fprop feeds a sigmoid, so it
// is gating; its dgrad (same weight) and wgrad (same dY as the dgrad) are
// the gating network's gradients and stay high too (DeepSeek-V3 §3.3.1),
// while the linear beside it trains in FP8.
// ROLES-LABEL: func.func @router_step
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<fprop>, fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: expert-count linear (N = 8) feeding softmax/sigmoid/top-k", fp8.role = #fp8.role<gating>}
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<fprop>, fp8.precision = #fp8.precision<fp8>, {{.*}}fp8.role = #fp8.role<linear>}
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>, fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: activation gradient of the gating linear sharing its weight", fp8.role = #fp8.role<gating>}
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>, fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: weight gradient of the gating linear whose dgrad shares dY", fp8.role = #fp8.role<gating>}
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>, fp8.precision = #fp8.precision<fp8>, {{.*}}fp8.role = #fp8.role<linear>}
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>, fp8.precision = #fp8.precision<fp8>, {{.*}}fp8.role = #fp8.role<linear>}
// QUANT-LABEL: func.func @router_step
// QUANT: linalg.matmul {fp8.gemm = #fp8.gemm<fprop>, {{.*}}fp8.role = #fp8.role<gating>} ins({{.*}} : tensor<256x512xbf16>, tensor<512x8xbf16>)
// QUANT: fp8.scaled_matmul {{.*}}fp8.gemm = #fp8.gemm<fprop>
// QUANT: linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>, {{.*}}fp8.role = #fp8.role<gating>} ins({{.*}} : tensor<256x8xbf16>, tensor<8x512xbf16>)
// QUANT: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>, {{.*}}fp8.role = #fp8.role<gating>} ins({{.*}} : tensor<8x256xbf16>, tensor<256x512xbf16>)
// QUANT: fp8.scaled_matmul {{.*}}fp8.gemm = #fp8.gemm<dgrad>
// QUANT: fp8.scaled_matmul {{.*}}fp8.gemm = #fp8.gemm<wgrad>
// QUANT-NOT: fp8.scaled_matmul
// QUANT: return
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @router_step(%x: tensor<256x512xf32>, %wg: tensor<8x512xf32>, %w: tensor<384x512xf32>,
                       %dlogits: tensor<256x8xf32>, %dy: tensor<256x384xf32>)
    -> (tensor<256x8xf32>, tensor<256x384xf32>, tensor<256x512xf32>, tensor<8x512xf32>, tensor<256x512xf32>, tensor<384x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %eg = tensor.empty() : tensor<512x8xf32>
  %wgt = linalg.transpose ins(%wg : tensor<8x512xf32>) outs(%eg : tensor<512x8xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<256x8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<256x8xf32>) -> tensor<256x8xf32>
  %logits = linalg.matmul ins(%x, %wgt : tensor<256x512xf32>, tensor<512x8xf32>) outs(%f1 : tensor<256x8xf32>) -> tensor<256x8xf32>
  %scores = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%logits : tensor<256x8xf32>) outs(%e1 : tensor<256x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %s = arith.divf %one, %d : f32
    linalg.yield %s : f32
  } -> tensor<256x8xf32>
  %e0 = tensor.empty() : tensor<512x384xf32>
  %wt = linalg.transpose ins(%w : tensor<384x512xf32>) outs(%e0 : tensor<512x384xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<256x384xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<256x384xf32>) -> tensor<256x384xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<256x512xf32>, tensor<512x384xf32>) outs(%f2 : tensor<256x384xf32>) -> tensor<256x384xf32>
  %e3 = tensor.empty() : tensor<256x512xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %dxg = linalg.matmul ins(%dlogits, %wg : tensor<256x8xf32>, tensor<8x512xf32>) outs(%f3 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %e4 = tensor.empty() : tensor<8x256xf32>
  %dlt = linalg.transpose ins(%dlogits : tensor<256x8xf32>) outs(%e4 : tensor<8x256xf32>) permutation = [1, 0]
  %e5 = tensor.empty() : tensor<8x512xf32>
  %f5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<8x512xf32>) -> tensor<8x512xf32>
  %dwg = linalg.matmul ins(%dlt, %x : tensor<8x256xf32>, tensor<256x512xf32>) outs(%f5 : tensor<8x512xf32>) -> tensor<8x512xf32>
  %dx = linalg.matmul ins(%dy, %w : tensor<256x384xf32>, tensor<384x512xf32>) outs(%f3 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %e6 = tensor.empty() : tensor<384x256xf32>
  %dyt = linalg.transpose ins(%dy : tensor<256x384xf32>) outs(%e6 : tensor<384x256xf32>) permutation = [1, 0]
  %e7 = tensor.empty() : tensor<384x512xf32>
  %f7 = linalg.fill ins(%zero : f32) outs(%e7 : tensor<384x512xf32>) -> tensor<384x512xf32>
  %dw = linalg.matmul ins(%dyt, %x : tensor<384x256xf32>, tensor<256x512xf32>) outs(%f7 : tensor<384x512xf32>) -> tensor<384x512xf32>
  return %scores, %y, %dxg, %dwg, %dx, %dw : tensor<256x8xf32>, tensor<256x384xf32>, tensor<256x512xf32>, tensor<8x512xf32>, tensor<256x512xf32>, tensor<384x512xf32>
}

// -----

// The router's step split into forward and backward functions: the
// backward gets the router weight as its own argument, so no fprop with
// the same weight is in its function; the gating fprop of the forward
// names the parameter (loc name and type), and the backward's dgrad and
// wgrad of that parameter stay high.
// ROLES-LABEL: func.func @router_forward
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<fprop>, fp8.precision = #fp8.precision<bf16>, {{.*}}fp8.role = #fp8.role<gating>}
// ROLES-LABEL: func.func @router_backward
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>, fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: activation gradient of the gating linear of the same parameter (mlp.gate.weight) in another function", fp8.role = #fp8.role<gating>}
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>, fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: weight gradient of the gating linear whose dgrad shares dY", fp8.role = #fp8.role<gating>}
// ROLES-LABEL: func.func @other_backward
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>, fp8.precision = #fp8.precision<fp8>, {{.*}}fp8.role = #fp8.role<linear>}
// ROLES: linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>, fp8.precision = #fp8.precision<fp8>, {{.*}}fp8.role = #fp8.role<linear>}
// QUANT-LABEL: func.func @router_backward
// QUANT-NOT: fp8.quantize
// QUANT-LABEL: func.func @other_backward
func.func @router_forward(%x: tensor<256x512xf32>, %w: tensor<8x512xf32> loc("mlp.gate.weight")) -> (tensor<256x8xf32>, tensor<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<512x8xf32>
  %wt = linalg.transpose ins(%w : tensor<8x512xf32>) outs(%e0 : tensor<512x8xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<256x8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<256x8xf32>) -> tensor<256x8xf32>
  %l = linalg.matmul ins(%x, %wt : tensor<256x512xf32>, tensor<512x8xf32>) outs(%f1 : tensor<256x8xf32>) -> tensor<256x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%l : tensor<256x8xf32>) outs(%e1 : tensor<256x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    %ex = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %d = arith.addf %one, %ex : f32
    %r = arith.divf %one, %d : f32
    linalg.yield %r : f32
  } -> tensor<256x8xf32>
  return %s, %x : tensor<256x8xf32>, tensor<256x512xf32>
}
func.func @router_backward(%x: tensor<256x512xf32>, %w: tensor<8x512xf32> loc("mlp.gate.weight"), %dl: tensor<256x8xf32>) -> (tensor<256x512xf32>, tensor<8x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<256x512xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %dx = linalg.matmul ins(%dl, %w : tensor<256x8xf32>, tensor<8x512xf32>) outs(%f2 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %e3 = tensor.empty() : tensor<8x256xf32>
  %dlt = linalg.transpose ins(%dl : tensor<256x8xf32>) outs(%e3 : tensor<8x256xf32>) permutation = [1, 0]
  %e4 = tensor.empty() : tensor<8x512xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<8x512xf32>) -> tensor<8x512xf32>
  %dw = linalg.matmul ins(%dlt, %x : tensor<8x256xf32>, tensor<256x512xf32>) outs(%f4 : tensor<8x512xf32>) -> tensor<8x512xf32>
  return %dx, %dw : tensor<256x512xf32>, tensor<8x512xf32>
}
// A parameter of another name (and shape) is not the router's.
func.func @other_backward(%x: tensor<256x512xf32>, %w: tensor<128x512xf32> loc("mlp.up_proj.weight"), %dy: tensor<256x128xf32>) -> (tensor<256x512xf32>, tensor<128x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<256x512xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %dx = linalg.matmul ins(%dy, %w : tensor<256x128xf32>, tensor<128x512xf32>) outs(%f2 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %e3 = tensor.empty() : tensor<128x256xf32>
  %dyt = linalg.transpose ins(%dy : tensor<256x128xf32>) outs(%e3 : tensor<128x256xf32>) permutation = [1, 0]
  %e4 = tensor.empty() : tensor<128x512xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<128x512xf32>) -> tensor<128x512xf32>
  %dw = linalg.matmul ins(%dyt, %x : tensor<128x256xf32>, tensor<256x512xf32>) outs(%f4 : tensor<128x512xf32>) -> tensor<128x512xf32>
  return %dx, %dw : tensor<256x512xf32>, tensor<128x512xf32>
}

// -----

// A split backward holding only a weight gradient, written as one
// contraction over the tokens (dW = dYᵀ X with both operands indexed by
// the token loop d2, no transposes): no other contraction reads dY or X as
// its left operand, so what makes it a weight gradient is that its result
// is returned (a parameter's gradient), not a product of two activations
// to classify as a linear of a weight argument.
// ROLES-LABEL: func.func @returned_wgrad_over_tokens
// ROLES: linalg.generic {{.*}}fp8.gemm = #fp8.gemm<wgrad>, fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: weight gradient dW = dY^T * X (contraction over the 256 tokens)", fp8.role = #fp8.role<linear>}
#dy = affine_map<(d0, d1, d2) -> (d2, d0)>
#x = affine_map<(d0, d1, d2) -> (d2, d1)>
#dw = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @returned_wgrad_over_tokens(%dy: tensor<256x384xf32>, %x: tensor<256x128xf32>) -> tensor<384x128xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<384x128xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<384x128xf32>) -> tensor<384x128xf32>
  %dw = linalg.generic {indexing_maps = [#dy, #x, #dw], iterator_types = ["parallel", "parallel", "reduction"]} ins(%dy, %x : tensor<256x384xf32>, tensor<256x128xf32>) outs(%z : tensor<384x128xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<384x128xf32>
  return %dw : tensor<384x128xf32>
}
