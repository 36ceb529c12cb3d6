// REQUIRES: models
// Every preset transforms the Qwen block and BERT into verifying FP8 graphs.
// RUN: fp8-opt %models/qwen_block_tosa.mlir --fp8-pipeline="policy=per-tensor report=false" | FileCheck %s --check-prefix=PT
// RUN: fp8-opt %models/qwen_block_tosa.mlir --fp8-pipeline="policy=rowwise report=false" | FileCheck %s --check-prefix=RW
// RUN: fp8-opt %models/qwen_block_tosa.mlir --fp8-pipeline="policy=mxfp8 report=false" | FileCheck %s --check-prefix=MX
// RUN: fp8-opt %models/bert_base_linalg.mlir --fp8-pipeline="policy=mxfp8 report=false" -o %t
// RUN: grep -c 'fp8.scaled_matmul' %t | FileCheck %s --check-prefix=BERT

// Whole-dimension blocks become the sizes: q's activation [40, 1536] is one
// block; its weight [1536, 1536] too.
// PT: fp8.quantize %{{.*}} : tensor<40x1536xf32> -> !fp8.scaled<40x1536xf8E4M3FN, block = [40, 1536], scale = f32>
// PT: fp8.quantize %{{.*}} : tensor<1536x1536xf32> -> !fp8.scaled<1536x1536xf8E4M3FN, block = [1536, 1536], scale = f32>
// PT-COUNT-7: fp8.scaled_matmul
// RW: fp8.quantize %{{.*}} {scale_mode = #fp8.scale_mode<pow2>} : tensor<40x1536xf32> -> !fp8.scaled<40x1536xf8E4M3FN, block = [1, 1536], scale = f32>
// RW-COUNT-7: fp8.scaled_matmul
// MX: fp8.quantize %{{.*}} {scale_mode = #fp8.scale_mode<pow2>} : tensor<40x1536xf32> -> !fp8.scaled<40x1536xf8E4M3FN, block = [1, 32], scale = f8E8M0FNU>
// MX-COUNT-7: fp8.scaled_matmul {{.*}}promote_interval = 32
// BERT: {{^}}49{{$}}
