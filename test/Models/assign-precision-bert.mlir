// REQUIRES: models
// BERT-base from torch-mlir (12 layers; identical splat weights were merged
// by the exporter's CSE, so Q/K/V share one projection per layer: 4
// projection/FFN batch_matmuls per layer + the pooler's matmul).
// RUN: fp8-opt %models/bert_base_linalg.mlir -fp8-assign-precision -o %t
// RUN: fp8-opt %t -o /dev/null
// RUN: grep -c 'linalg.batch_matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (constant)", fp8.role = #fp8.role<linear>}' %t | FileCheck %s --check-prefix=LINEAR
// RUN: grep -c 'linalg.matmul {fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: contraction with a weight (constant)", fp8.role = #fp8.role<linear>}' %t | FileCheck %s --check-prefix=POOLER
// RUN: grep -c 'fp8.precision = #fp8.precision<fp8>' %t | FileCheck %s --check-prefix=ALLFP8
// RUN: grep -c 'linalg.batch_matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: contraction of two activations", fp8.role = #fp8.role<attention>}' %t | FileCheck %s --check-prefix=ATTN
// RUN: grep -c 'fp8.reason = "heuristic: gather from a 30522x768 table", fp8.role = #fp8.role<embedding>' %t | FileCheck %s --check-prefix=EMB1
// RUN: grep -c 'fp8.role = #fp8.role<embedding>' %t | FileCheck %s --check-prefix=EMB
// RUN: grep -c 'fp8.precision = #fp8.precision<f32>, fp8.reason = "heuristic: normalization (reduction + rsqrt: LayerNorm/RMSNorm)", fp8.role = #fp8.role<normalization>' %t | FileCheck %s --check-prefix=NORM
// RUN: grep -c 'fp8.role = #fp8.role<attention>' %t | FileCheck %s --check-prefix=ATTNALL
// RUN: grep -A2 'fp8.role = #fp8.role<attention>' %t | grep -c 'math.exp' | FileCheck %s --check-prefix=SOFTMAX

// LINEAR: {{^}}48{{$}}
// POOLER: {{^}}1{{$}}
// ALLFP8: {{^}}49{{$}}
// QK^T and PV in each of the 12 layers.
// ATTN: {{^}}24{{$}}
// Word, token-type and position embeddings.
// EMB1: {{^}}1{{$}}
// EMB: {{^}}3{{$}}
// 25 LayerNorms (embedding + 2 per layer) of 13 linalg ops each.
// NORM: {{^}}325{{$}}
// Per layer: 24 attention contractions + 12 ops around each QK^T/softmax/PV.
// ATTNALL: {{^}}168{{$}}
// The softmax exp of every layer is attention.
// SOFTMAX: {{^}}12{{$}}
