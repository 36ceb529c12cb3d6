// The oracle of grouped-masked.mlir: the same functions with one
// fp8.scaled_matmul per group on the 2-D slices of the inputs (quantizing a
// slice with [1, 128] / [128, 128] blocks gives the codes and scales of the
// [1, 1, 128] / [1, 128, 128] blocks of that group), rows at or past
// counts[g] (clamped to [0, M]) left +0.0, C sliced per group.

func.func @masked_acc(%x: tensor<400x136xf32>, %w: tensor<800x136xbf16>, %c: tensor<400x200xf32>) -> tensor<400x200xbf16> attributes {llvm.emit_c_interface} {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<400x200xbf16>
  %r0 = linalg.fill ins(%z : bf16) outs(%e : tensor<400x200xbf16>) -> tensor<400x200xbf16>
  %x1 = tensor.extract_slice %x[100, 0] [100, 136] [1, 1] : tensor<400x136xf32> to tensor<100x136xf32>
  %w1 = tensor.extract_slice %w[200, 0] [200, 136] [1, 1] : tensor<800x136xbf16> to tensor<200x136xbf16>
  %a1 = fp8.quantize %x1 : tensor<100x136xf32> -> !fp8.scaled<100x136xf8E4M3FN, block = [1, 128], scale = f32>
  %b1 = fp8.quantize %w1 : tensor<200x136xbf16> -> !fp8.scaled<200x136xf8E4M3FN, block = [128, 128], scale = f32>
  %c1 = tensor.extract_slice %c[100, 0] [100, 200] [1, 1] : tensor<400x200xf32> to tensor<100x200xf32>
  %d1 = fp8.scaled_matmul %a1, %b1 acc(%c1 : tensor<100x200xf32>) : !fp8.scaled<100x136xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<200x136xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<100x200xbf16>
  %v1 = tensor.extract_slice %d1[0, 0] [1, 200] [1, 1] : tensor<100x200xbf16> to tensor<1x200xbf16>
  %r2 = tensor.insert_slice %v1 into %r0[100, 0] [1, 200] [1, 1] : tensor<1x200xbf16> into tensor<400x200xbf16>
  %x2 = tensor.extract_slice %x[200, 0] [100, 136] [1, 1] : tensor<400x136xf32> to tensor<100x136xf32>
  %w2 = tensor.extract_slice %w[400, 0] [200, 136] [1, 1] : tensor<800x136xbf16> to tensor<200x136xbf16>
  %a2 = fp8.quantize %x2 : tensor<100x136xf32> -> !fp8.scaled<100x136xf8E4M3FN, block = [1, 128], scale = f32>
  %b2 = fp8.quantize %w2 : tensor<200x136xbf16> -> !fp8.scaled<200x136xf8E4M3FN, block = [128, 128], scale = f32>
  %c2 = tensor.extract_slice %c[200, 0] [100, 200] [1, 1] : tensor<400x200xf32> to tensor<100x200xf32>
  %d2 = fp8.scaled_matmul %a2, %b2 acc(%c2 : tensor<100x200xf32>) : !fp8.scaled<100x136xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<200x136xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<100x200xbf16>
  %v2 = tensor.extract_slice %d2[0, 0] [100, 200] [1, 1] : tensor<100x200xbf16> to tensor<100x200xbf16>
  %r3 = tensor.insert_slice %v2 into %r2[200, 0] [100, 200] [1, 1] : tensor<100x200xbf16> into tensor<400x200xbf16>
  %x3 = tensor.extract_slice %x[300, 0] [100, 136] [1, 1] : tensor<400x136xf32> to tensor<100x136xf32>
  %w3 = tensor.extract_slice %w[600, 0] [200, 136] [1, 1] : tensor<800x136xbf16> to tensor<200x136xbf16>
  %a3 = fp8.quantize %x3 : tensor<100x136xf32> -> !fp8.scaled<100x136xf8E4M3FN, block = [1, 128], scale = f32>
  %b3 = fp8.quantize %w3 : tensor<200x136xbf16> -> !fp8.scaled<200x136xf8E4M3FN, block = [128, 128], scale = f32>
  %c3 = tensor.extract_slice %c[300, 0] [100, 200] [1, 1] : tensor<400x200xf32> to tensor<100x200xf32>
  %d3 = fp8.scaled_matmul %a3, %b3 acc(%c3 : tensor<100x200xf32>) : !fp8.scaled<100x136xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<200x136xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<100x200xbf16>
  %v3 = tensor.extract_slice %d3[0, 0] [37, 200] [1, 1] : tensor<100x200xbf16> to tensor<37x200xbf16>
  %r4 = tensor.insert_slice %v3 into %r3[300, 0] [37, 200] [1, 1] : tensor<37x200xbf16> into tensor<400x200xbf16>
  return %r4 : tensor<400x200xbf16>
}

func.func @masked_g8(%x: tensor<512x256xf32>, %w: tensor<2048x256xbf16>) -> tensor<512x256xf32> attributes {llvm.emit_c_interface} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x256xf32>
  %r0 = linalg.fill ins(%z : f32) outs(%e : tensor<512x256xf32>) -> tensor<512x256xf32>
  %x0 = tensor.extract_slice %x[0, 0] [64, 256] [1, 1] : tensor<512x256xf32> to tensor<64x256xf32>
  %w0 = tensor.extract_slice %w[0, 0] [256, 256] [1, 1] : tensor<2048x256xbf16> to tensor<256x256xbf16>
  %a0 = fp8.quantize %x0 : tensor<64x256xf32> -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>
  %b0 = fp8.quantize %w0 : tensor<256x256xbf16> -> !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32>
  %d0 = fp8.scaled_matmul %a0, %b0 : !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x256xf32>
  %v0 = tensor.extract_slice %d0[0, 0] [64, 256] [1, 1] : tensor<64x256xf32> to tensor<64x256xf32>
  %r1 = tensor.insert_slice %v0 into %r0[0, 0] [64, 256] [1, 1] : tensor<64x256xf32> into tensor<512x256xf32>
  %x2 = tensor.extract_slice %x[128, 0] [64, 256] [1, 1] : tensor<512x256xf32> to tensor<64x256xf32>
  %w2 = tensor.extract_slice %w[512, 0] [256, 256] [1, 1] : tensor<2048x256xbf16> to tensor<256x256xbf16>
  %a2 = fp8.quantize %x2 : tensor<64x256xf32> -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>
  %b2 = fp8.quantize %w2 : tensor<256x256xbf16> -> !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32>
  %d2 = fp8.scaled_matmul %a2, %b2 : !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x256xf32>
  %v2 = tensor.extract_slice %d2[0, 0] [1, 256] [1, 1] : tensor<64x256xf32> to tensor<1x256xf32>
  %r3 = tensor.insert_slice %v2 into %r1[128, 0] [1, 256] [1, 1] : tensor<1x256xf32> into tensor<512x256xf32>
  %x3 = tensor.extract_slice %x[192, 0] [64, 256] [1, 1] : tensor<512x256xf32> to tensor<64x256xf32>
  %w3 = tensor.extract_slice %w[768, 0] [256, 256] [1, 1] : tensor<2048x256xbf16> to tensor<256x256xbf16>
  %a3 = fp8.quantize %x3 : tensor<64x256xf32> -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>
  %b3 = fp8.quantize %w3 : tensor<256x256xbf16> -> !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32>
  %d3 = fp8.scaled_matmul %a3, %b3 : !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x256xf32>
  %v3 = tensor.extract_slice %d3[0, 0] [17, 256] [1, 1] : tensor<64x256xf32> to tensor<17x256xf32>
  %r4 = tensor.insert_slice %v3 into %r3[192, 0] [17, 256] [1, 1] : tensor<17x256xf32> into tensor<512x256xf32>
  %x4 = tensor.extract_slice %x[256, 0] [64, 256] [1, 1] : tensor<512x256xf32> to tensor<64x256xf32>
  %w4 = tensor.extract_slice %w[1024, 0] [256, 256] [1, 1] : tensor<2048x256xbf16> to tensor<256x256xbf16>
  %a4 = fp8.quantize %x4 : tensor<64x256xf32> -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>
  %b4 = fp8.quantize %w4 : tensor<256x256xbf16> -> !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32>
  %d4 = fp8.scaled_matmul %a4, %b4 : !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x256xf32>
  %v4 = tensor.extract_slice %d4[0, 0] [64, 256] [1, 1] : tensor<64x256xf32> to tensor<64x256xf32>
  %r5 = tensor.insert_slice %v4 into %r4[256, 0] [64, 256] [1, 1] : tensor<64x256xf32> into tensor<512x256xf32>
  %x5 = tensor.extract_slice %x[320, 0] [64, 256] [1, 1] : tensor<512x256xf32> to tensor<64x256xf32>
  %w5 = tensor.extract_slice %w[1280, 0] [256, 256] [1, 1] : tensor<2048x256xbf16> to tensor<256x256xbf16>
  %a5 = fp8.quantize %x5 : tensor<64x256xf32> -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>
  %b5 = fp8.quantize %w5 : tensor<256x256xbf16> -> !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32>
  %d5 = fp8.scaled_matmul %a5, %b5 : !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x256xf32>
  %v5 = tensor.extract_slice %d5[0, 0] [3, 256] [1, 1] : tensor<64x256xf32> to tensor<3x256xf32>
  %r6 = tensor.insert_slice %v5 into %r5[320, 0] [3, 256] [1, 1] : tensor<3x256xf32> into tensor<512x256xf32>
  %x7 = tensor.extract_slice %x[448, 0] [64, 256] [1, 1] : tensor<512x256xf32> to tensor<64x256xf32>
  %w7 = tensor.extract_slice %w[1792, 0] [256, 256] [1, 1] : tensor<2048x256xbf16> to tensor<256x256xbf16>
  %a7 = fp8.quantize %x7 : tensor<64x256xf32> -> !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>
  %b7 = fp8.quantize %w7 : tensor<256x256xbf16> -> !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32>
  %d7 = fp8.scaled_matmul %a7, %b7 : !fp8.scaled<64x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x256xf32>
  %v7 = tensor.extract_slice %d7[0, 0] [64, 256] [1, 1] : tensor<64x256xf32> to tensor<64x256xf32>
  %r8 = tensor.insert_slice %v7 into %r6[448, 0] [64, 256] [1, 1] : tensor<64x256xf32> into tensor<512x256xf32>
  return %r8 : tensor<512x256xf32>
}

func.func @masked_g1(%x: tensor<130x384xf32>, %w: tensor<96x384xbf16>, %c: tensor<130x96xbf16>) -> tensor<130x96xbf16> attributes {llvm.emit_c_interface} {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<130x96xbf16>
  %r0 = linalg.fill ins(%z : bf16) outs(%e : tensor<130x96xbf16>) -> tensor<130x96xbf16>
  %x0 = tensor.extract_slice %x[0, 0] [130, 384] [1, 1] : tensor<130x384xf32> to tensor<130x384xf32>
  %w0 = tensor.extract_slice %w[0, 0] [96, 384] [1, 1] : tensor<96x384xbf16> to tensor<96x384xbf16>
  %a0 = fp8.quantize %x0 : tensor<130x384xf32> -> !fp8.scaled<130x384xf8E4M3FN, block = [1, 128], scale = f32>
  %b0 = fp8.quantize %w0 : tensor<96x384xbf16> -> !fp8.scaled<96x384xf8E4M3FN, block = [128, 128], scale = f32>
  %c0 = tensor.extract_slice %c[0, 0] [130, 96] [1, 1] : tensor<130x96xbf16> to tensor<130x96xbf16>
  %d0 = fp8.scaled_matmul %a0, %b0 acc(%c0 : tensor<130x96xbf16>) : !fp8.scaled<130x384xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<96x384xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<130x96xbf16>
  %v0 = tensor.extract_slice %d0[0, 0] [130, 96] [1, 1] : tensor<130x96xbf16> to tensor<130x96xbf16>
  %r1 = tensor.insert_slice %v0 into %r0[0, 0] [130, 96] [1, 1] : tensor<130x96xbf16> into tensor<130x96xbf16>
  return %r1 : tensor<130x96xbf16>
}
