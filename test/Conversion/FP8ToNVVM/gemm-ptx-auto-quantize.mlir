// The quantize epilogue on every configuration the GEMM cost model chooses
// (config=auto, device h200 and h100-sxm) for the DeepSeek-V3 shape table
// (M = 64, 128, 4096 x its N x K), each GEMM's result quantized into 1x128
// tiles (the next linear's input): the model's tile made fit for the
// epilogue (BLOCK_N / splits a multiple of 128) assembles with ptxas for
// sm_90a with no spills (18 fused kernels each, no quantize kernel).
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none" 2>/dev/null | fp8-translate --fp8-extract-gpu-object > %t.ptx
// RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none device=h100-sxm" 2>/dev/null | fp8-translate --fp8-extract-gpu-object > %t.h100.ptx
// RUN: %ptxas -arch=sm_90a -v %t.h100.ptx -o %t.h100.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill|fp8_quantize}}
// PTXAS-COUNT-18: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill|fp8_quantize}}

func.func @gemm_64x2112x7168(%a: !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<64x2112xf8E4M3FN, block = [1, 128], scale = f32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x2112xbf16>
  %q = fp8.quantize %d : tensor<64x2112xbf16> -> !fp8.scaled<64x2112xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<64x2112xf8E4M3FN, block = [1, 128], scale = f32>
}

func.func @gemm_64x24576x1536(%a: !fp8.scaled<64x1536xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<24576x1536xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<64x24576xf8E4M3FN, block = [1, 128], scale = f32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<64x1536xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<24576x1536xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x24576xbf16>
  %q = fp8.quantize %d : tensor<64x24576xbf16> -> !fp8.scaled<64x24576xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<64x24576xf8E4M3FN, block = [1, 128], scale = f32>
}

func.func @gemm_64x32768x512(%a: !fp8.scaled<64x512xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<32768x512xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<64x32768xf8E4M3FN, block = [1, 128], scale = f32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<64x512xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<32768x512xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x32768xbf16>
  %q = fp8.quantize %d : tensor<64x32768xbf16> -> !fp8.scaled<64x32768xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<64x32768xf8E4M3FN, block = [1, 128], scale = f32>
}

func.func @gemm_64x7168x16384(%a: !fp8.scaled<64x16384xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<64x16384xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x7168xbf16>
  %q = fp8.quantize %d : tensor<64x7168xbf16> -> !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32>
}

func.func @gemm_64x4096x7168(%a: !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<4096x7168xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<64x4096xf8E4M3FN, block = [1, 128], scale = f32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<4096x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x4096xbf16>
  %q = fp8.quantize %d : tensor<64x4096xbf16> -> !fp8.scaled<64x4096xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<64x4096xf8E4M3FN, block = [1, 128], scale = f32>
}

func.func @gemm_64x7168x2048(%a: !fp8.scaled<64x2048xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<7168x2048xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<64x2048xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x2048xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x7168xbf16>
  %q = fp8.quantize %d : tensor<64x7168xbf16> -> !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<64x7168xf8E4M3FN, block = [1, 128], scale = f32>
}

func.func @gemm_128x2112x7168(%a: !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<128x2112xf8E4M3FN, block = [1, 128], scale = f32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x2112xbf16>
  %q = fp8.quantize %d : tensor<128x2112xbf16> -> !fp8.scaled<128x2112xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<128x2112xf8E4M3FN, block = [1, 128], scale = f32>
}

func.func @gemm_128x24576x1536(%a: !fp8.scaled<128x1536xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<24576x1536xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<128x24576xf8E4M3FN, block = [1, 128], scale = f32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<128x1536xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<24576x1536xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x24576xbf16>
  %q = fp8.quantize %d : tensor<128x24576xbf16> -> !fp8.scaled<128x24576xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<128x24576xf8E4M3FN, block = [1, 128], scale = f32>
}

func.func @gemm_128x32768x512(%a: !fp8.scaled<128x512xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<32768x512xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<128x32768xf8E4M3FN, block = [1, 128], scale = f32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<128x512xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<32768x512xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x32768xbf16>
  %q = fp8.quantize %d : tensor<128x32768xbf16> -> !fp8.scaled<128x32768xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<128x32768xf8E4M3FN, block = [1, 128], scale = f32>
}

func.func @gemm_128x7168x16384(%a: !fp8.scaled<128x16384xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<128x16384xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x7168xbf16>
  %q = fp8.quantize %d : tensor<128x7168xbf16> -> !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>
}

func.func @gemm_128x4096x7168(%a: !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<4096x7168xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<128x4096xf8E4M3FN, block = [1, 128], scale = f32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<4096x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x4096xbf16>
  %q = fp8.quantize %d : tensor<128x4096xbf16> -> !fp8.scaled<128x4096xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<128x4096xf8E4M3FN, block = [1, 128], scale = f32>
}

func.func @gemm_128x7168x2048(%a: !fp8.scaled<128x2048xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<7168x2048xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<128x2048xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x2048xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x7168xbf16>
  %q = fp8.quantize %d : tensor<128x7168xbf16> -> !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>
}

func.func @gemm_4096x2112x7168(%a: !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<4096x2112xf8E4M3FN, block = [1, 128], scale = f32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<4096x2112xbf16>
  %q = fp8.quantize %d : tensor<4096x2112xbf16> -> !fp8.scaled<4096x2112xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<4096x2112xf8E4M3FN, block = [1, 128], scale = f32>
}

func.func @gemm_4096x24576x1536(%a: !fp8.scaled<4096x1536xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<24576x1536xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<4096x24576xf8E4M3FN, block = [1, 128], scale = f32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4096x1536xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<24576x1536xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<4096x24576xbf16>
  %q = fp8.quantize %d : tensor<4096x24576xbf16> -> !fp8.scaled<4096x24576xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<4096x24576xf8E4M3FN, block = [1, 128], scale = f32>
}

func.func @gemm_4096x32768x512(%a: !fp8.scaled<4096x512xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<32768x512xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<4096x32768xf8E4M3FN, block = [1, 128], scale = f32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4096x512xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<32768x512xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<4096x32768xbf16>
  %q = fp8.quantize %d : tensor<4096x32768xbf16> -> !fp8.scaled<4096x32768xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<4096x32768xf8E4M3FN, block = [1, 128], scale = f32>
}

func.func @gemm_4096x7168x16384(%a: !fp8.scaled<4096x16384xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4096x16384xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x16384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<4096x7168xbf16>
  %q = fp8.quantize %d : tensor<4096x7168xbf16> -> !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>
}

func.func @gemm_4096x4096x7168(%a: !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<4096x7168xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<4096x4096xf8E4M3FN, block = [1, 128], scale = f32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<4096x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<4096x4096xbf16>
  %q = fp8.quantize %d : tensor<4096x4096xbf16> -> !fp8.scaled<4096x4096xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<4096x4096xf8E4M3FN, block = [1, 128], scale = f32>
}

func.func @gemm_4096x7168x2048(%a: !fp8.scaled<4096x2048xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<7168x2048xf8E4M3FN, block = [128, 128], scale = f32>) -> !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4096x2048xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x2048xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<4096x7168xbf16>
  %q = fp8.quantize %d : tensor<4096x7168xbf16> -> !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>
}
