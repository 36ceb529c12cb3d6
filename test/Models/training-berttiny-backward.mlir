// REQUIRES: models
// The backward partition of BERT-tiny masked-LM training as PyTorch
// AOTAutograd exported it (2 layers, hidden 128, FFN 512, 2x128 = 256
// tokens, tied 30522-word decoder): 14 dX = dY * W and 14 dW = dY^T * X
// matmuls and 8 attention-backward batch matmuls. Expected (docs/training.md):
// the 13 dgrads and 13 wgrads of the encoder and head-transform linears in
// FP8, the tied decoder's pair and the attention in high precision, every
// FP8 wgrad's operands in 1x128 tiles along the 256 tokens.
// RUN: fp8-opt %models/berttiny_mlm_backward_linalg.mlir -fp8-assign-precision -o %t.roles
// RUN: grep -c 'linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>, fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: activation gradient dX = dY \* W of a linear (weight: function argument)", fp8.role = #fp8.role<linear>}' %t.roles | FileCheck %s --check-prefix=DGRAD
// RUN: grep -c 'linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>, fp8.precision = #fp8.precision<fp8>, fp8.reason = "heuristic: weight gradient dW = dY^T \* X (contraction over the 256 tokens)", fp8.role = #fp8.role<linear>}' %t.roles | FileCheck %s --check-prefix=WGRAD
// RUN: grep -c 'linalg.matmul {fp8.gemm = #fp8.gemm<dgrad>, fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: activation gradient of a vocabulary-sized linear (contraction over 30522)", fp8.role = #fp8.role<output_head>}' %t.roles | FileCheck %s --check-prefix=ONE
// RUN: grep -c 'linalg.matmul {fp8.gemm = #fp8.gemm<wgrad>, fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: weight gradient of a vocabulary-sized linear (30522x128)", fp8.role = #fp8.role<output_head>}' %t.roles | FileCheck %s --check-prefix=ONE
// RUN: grep -c 'linalg.batch_matmul {fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: contraction of two activations", fp8.role = #fp8.role<attention>}' %t.roles | FileCheck %s --check-prefix=ATTN
// RUN: grep -c 'fp8.precision = #fp8.precision<fp8>' %t.roles | FileCheck %s --check-prefix=ALLFP8
// RUN: grep -c 'fp8.reason = "heuristic: scatter-add into a table at token ids (embedding gradient)", fp8.role = #fp8.role<embedding>' %t.roles | FileCheck %s --check-prefix=EMB

// RUN: fp8-opt %models/berttiny_mlm_backward_linalg.mlir -fp8-pipeline=report=false -o %t.fp8
// RUN: grep -c '= fp8.quantize' %t.fp8 | FileCheck %s --check-prefix=QUANT
// RUN: grep -c '= fp8.requantize' %t.fp8 | FileCheck %s --check-prefix=REQUANT
// RUN: grep -c '= fp8.scaled_matmul' %t.fp8 | FileCheck %s --check-prefix=SMM
// RUN: grep '= fp8.scaled_matmul' %t.fp8 | grep -c 'fp8.gemm = #fp8.gemm<wgrad>.*: !fp8.scaled<[0-9]*x256xf8E4M3FN, block = \[1, 128\], scale = f32>, !fp8.scaled<[0-9]*x256xf8E4M3FN, block = \[1, 128\], scale = f32>' | FileCheck %s --check-prefix=WGRAD
// RUN: fp8-opt %t.fp8 -fp8-report -o /dev/null | FileCheck %s --check-prefix=REPORT

// DGRAD: {{^}}13{{$}}
// WGRAD: {{^}}13{{$}}
// ONE: {{^}}1{{$}}
// ATTN: {{^}}8{{$}}
// ALLFP8: {{^}}26{{$}}
// Word, position and token-type embeddings' gradients.
// EMB: {{^}}3{{$}}
// One quantization of each linear's W (128x128), dY (1x128, shared by its
// dgrad and, requantized, its wgrad) and saved X (128x1, read by the wgrad
// only): 3 x 13.
// QUANT: {{^}}39{{$}}
// REQUANT: {{^}}13{{$}}
// SMM: {{^}}26{{$}}
// 2 * 256 * 128 * 30522 = 2.00 GFLOP per decoder GEMM, kept high; the 13 FP8
// GEMMs of each kind: 9 of 2 * 256 * 128 * 128 + 4 of 2 * 256 * 128 * 512
// = 209.72 MFLOP.
// REPORT: Training (fp8.gemm: the three GEMMs of each linear)
// REPORT-NEXT: gemm count FP8 FLOPs high FLOPs FP8 share
// REPORT-NEXT: fprop 0 0 FLOP 0 FLOP 0.0%
// REPORT-NEXT: dgrad 14 209.72 MFLOP 2.00 GFLOP 9.5%
// REPORT-NEXT: wgrad 14 209.72 MFLOP 2.00 GFLOP 9.5%
