// REQUIRES: models
// The main job: fp8-pipeline on BERT-base (torch-mlir linalg-on-tensors).
// RUN: fp8-opt %models/bert_base_linalg.mlir --fp8-pipeline="policy=deepseek-v3" -o %t > %t.report
// RUN: fp8-opt %t -o /dev/null
// RUN: FileCheck %s --check-prefix=REPORT < %t.report
// RUN: grep -c 'fp8.scaled_matmul' %t | FileCheck %s --check-prefix=SMM
// RUN: grep -c 'fp8.quantize' %t | FileCheck %s --check-prefix=QUANT
// RUN: grep -c 'fp8.assemble' %t | FileCheck %s --check-prefix=ASM
// RUN: grep -cE 'linalg.batch_matmul \{fp8.precision = #fp8.precision<bf16>, fp8.reason = "heuristic: contraction of two activations", fp8.role = #fp8.role<attention>\} ins\(.* : tensor<12x[0-9]+x[0-9]+xbf16>, tensor<12x[0-9]+x[0-9]+xbf16>\) outs\(.*xf32>\)' %t | FileCheck %s --check-prefix=ATTN
// RUN: not grep -q 'linalg.matmul' %t

// 12 layers x 4 linears (Q/K/V merged by the exporter, O, FFN up, down) +
// the pooler: all FP8. 24 attention batch_matmuls stay, with bf16 operands
// and f32 accumulation. Weights are splat constants: quantized at compile
// time into FP8 constants (3 distinct shapes after CSE); one activation
// quantization per linear.
// SMM: {{^}}49{{$}}
// QUANT: {{^}}49{{$}}
// ASM: {{^}}3{{$}}
// ATTN: {{^}}24{{$}}

// Hand count: per layer 2*128*768*768 (QKV) + same (O) + 2 * 2*128*768*3072
// (FFN) = 1509.95 MFLOP; x12 + pooler 2*768*768 = 18.12 GFLOP in FP8;
// attention 2 * 2*12*128*128*64 per layer = 603.98 MFLOP; share 96.8%.
// REPORT: fp8-report: policy deepseek-v3
// REPORT-COUNT-4: fp8.scaled_matmul {{.*}} linear {{ *}}fp8
// REPORT: linalg.batch_matmul {{.*}} attention {{ *}}bf16 {{ *}}1536x128x64
// REPORT: 73 {{ *}}fp8.scaled_matmul {{.*}} linear {{ *}}fp8 {{ *}}1x768x768
// REPORT: embedding {{ *}}f32 {{ *}}1 {{.*}}gather from a 30522x768 table
// REPORT: embedding {{ *}}f32 {{ *}}1 {{.*}}gather from a 2x768 table
// REPORT: embedding {{ *}}f32 {{ *}}1 {{.*}}gather from a 512x768 table
// REPORT: normalization {{ *}}f32 {{ *}}275
// REPORT: attention {{ *}}f32 {{ *}}84
// REPORT: matmul FLOPs:        18.72 GFLOP
// REPORT: in FP8:              18.12 GFLOP (96.8%)
// REPORT: in high precision:   603.98 MFLOP (3.2%)
