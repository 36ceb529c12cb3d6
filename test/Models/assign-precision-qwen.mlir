// REQUIRES: models
// One Qwen (DeepSeek-R1-Distill-Qwen-1.5B) decoder block in TOSA + linalg.
// RUN: fp8-opt %models/qwen_block_tosa.mlir -pass-pipeline='builtin.module(func.func(tosa-optional-decompositions,tosa-infer-shapes,tosa-make-broadcastable,tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor,canonicalize),fp8-assign-precision)' -o %t
// RUN: fp8-opt %t -o /dev/null
// RUN: FileCheck %s < %t
// RUN: grep -c 'linalg.matmul {cast = #linalg.type_fn<cast_signed>, fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (function argument)", fp8.role = #fp8.role<linear>}' %t | FileCheck %s --check-prefix=LINEAR
// RUN: grep -c 'fp8.precision = #fp8.precision<fp8>' %t | FileCheck %s --check-prefix=LINEAR
// RUN: grep -c 'linalg.batch_matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: contraction of two activations", fp8.role = #fp8.role<attention>}' %t | FileCheck %s --check-prefix=ATTN
// RUN: grep -c 'fp8.role = #fp8.role<normalization>' %t | FileCheck %s --check-prefix=NORM
// RUN: grep -A2 'fp8.role = #fp8.role<normalization>' %t | grep -c 'math.rsqrt' | FileCheck %s --check-prefix=RSQRT
// RUN: grep -A2 'fp8.role = #fp8.role<attention>' %t | grep -c 'math.exp' | FileCheck %s --check-prefix=SOFTMAX

// q, k, v, o, gate, up, down.
// LINEAR: {{^}}7{{$}}
// QK^T and PV.
// ATTN: {{^}}2{{$}}
// Two RMSNorms of 7 ops each (x^2, sum, 1/D, +eps, rsqrt, x*rstd, *gamma).
// NORM: {{^}}14{{$}}
// RSQRT: {{^}}2{{$}}
// SOFTMAX: {{^}}1{{$}}

// The timing scaffolding is left alone.
// CHECK: llvm.mlir.global private constant @op_name_q_proj
// CHECK: call @rtclock()
// CHECK: call @record_timing
