// REQUIRES: models
// fp8-pipeline on the Qwen decoder block (TOSA + linalg + timing calls).
// RUN: fp8-opt %models/qwen_block_tosa.mlir --fp8-pipeline -o %t > %t.report
// RUN: fp8-opt %t -o /dev/null
// RUN: FileCheck %s < %t
// RUN: FileCheck %s --check-prefix=REPORT < %t.report
// RUN: grep -c 'fp8.scaled_matmul' %t | FileCheck %s --check-prefix=SMM
// RUN: grep -c 'fp8.quantize' %t | FileCheck %s --check-prefix=QUANT
// RUN: grep -c 'linalg.batch_matmul {fp8.precision = #fp8.precision<bf16>' %t | FileCheck %s --check-prefix=ATTN
// RUN: not grep -q 'tosa\.' %t

// q, k, v, o, gate, up, down in FP8; q/k/v share the normed input's
// quantization, gate/up theirs: 7 weights + 4 activations = 11 quantizes.
// SMM: {{^}}7{{$}}
// QUANT: {{^}}11{{$}}
// ATTN: {{^}}2{{$}}

// The timing scaffolding is still there.
// CHECK: func.func private @rtclock() -> f64
// CHECK: llvm.mlir.global private constant @op_name_q_proj
// CHECK: call @rtclock()
// CHECK: call @record_timing

// q 2*40*1536*1536, k/v 2*40*256*1536, o, gate/up/down 2*40*8960*1536:
// 3.74 GFLOP FP8; QK^T + PV 2 * 2*12*40*40*128 = 9.83 MFLOP high.
// REPORT: fp8.scaled_matmul {{.*}} linear {{ *}}fp8 {{ *}}40x1536x1536
// REPORT: fp8.scaled_matmul {{.*}} linear {{ *}}fp8 {{ *}}40x256x1536
// REPORT: fp8.scaled_matmul {{.*}} linear {{ *}}fp8 {{ *}}40x256x1536
// REPORT: linalg.batch_matmul {{.*}} attention {{ *}}bf16 {{ *}}480x40x128
// REPORT: linalg.batch_matmul {{.*}} attention {{ *}}bf16 {{ *}}480x128x40
// REPORT: fp8.scaled_matmul {{.*}} linear {{ *}}fp8 {{ *}}40x1536x1536
// REPORT: fp8.scaled_matmul {{.*}} linear {{ *}}fp8 {{ *}}40x8960x1536
// REPORT: fp8.scaled_matmul {{.*}} linear {{ *}}fp8 {{ *}}40x8960x1536
// REPORT: fp8.scaled_matmul {{.*}} linear {{ *}}fp8 {{ *}}40x1536x8960
// REPORT: normalization {{ *}}f32 {{ *}}14
// REPORT: attention {{ *}}f32
// REPORT: in FP8:              3.74 GFLOP (99.7%)
