// fp8-tile-scaled-matmul rejects the forms the GPU kernel's schedule does
// not implement with an error naming the types (never a crash).
// RUN: fp8-opt %s -split-input-file -fp8-tile-scaled-matmul -verify-diagnostics

func.func @dynamic(%a: !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>,
                   %b: !fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<?x128xbf16> {
  // expected-error @+1 {{fp8-tile-scaled-matmul needs static shapes, got '!fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>', '!fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32>'}}
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<?x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x128xbf16>
  return %d : tensor<?x128xbf16>
}

// -----

func.func @e8m0(%a: !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU>,
                %b: !fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<128x128xbf16> {
  // expected-error @+1 {{fp8-tile-scaled-matmul needs f32 scales, got 'f8E8M0FNU' (a), 'f32' (b)}}
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f8E8M0FNU>, !fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x128xbf16>
  return %d : tensor<128x128xbf16>
}
