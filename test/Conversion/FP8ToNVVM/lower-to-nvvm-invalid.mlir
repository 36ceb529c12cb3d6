// fp8-lower-to-nvvm rejects the forms the sm_90a kernel does not implement,
// naming what is wrong.
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed -split-input-file -verify-diagnostics

// A dynamic K (or N): only M may be dynamic.
func.func @dynamic_k(%a: !fp8.scaled<128x?xf8E4M3FN, block = [1, 128], scale = f32>,
                     %b: !fp8.scaled<128x?xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<128x128xbf16> {
  // expected-error @+1 {{GPU lowering needs static N and K (only M may be dynamic)}}
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<128x?xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<128x?xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x128xbf16>
  return %d : tensor<128x128xbf16>
}

// -----

// b blocks other than [128, 128] (weights) and [1, 128] (Wgrad activations).
func.func @tall_b(%a: !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>,
                  %b: !fp8.scaled<128x256xf8E4M3FN, block = [32, 128], scale = f32>) -> tensor<128x128xbf16> {
  // expected-error @+1 {{GPU lowering implements the DeepSeek-V3 blocks (a: [1, 128], b: [128, 128] or, for the Wgrad GEMM, [1, 128])}}
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<128x256xf8E4M3FN, block = [32, 128], scale = f32> -> tensor<128x128xbf16>
  return %d : tensor<128x128xbf16>
}

// -----

func.func @e8m0(%a: !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU>,
                %b: !fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<128x128xbf16> {
  // expected-error @+1 {{GPU lowering needs f32 scales}}
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU>, !fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x128xbf16>
  return %d : tensor<128x128xbf16>
}
