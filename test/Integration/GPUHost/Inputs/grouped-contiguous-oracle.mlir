// The oracle of grouped-contiguous.mlir: the same functions with one
// fp8.scaled_matmul per run of a group (its rows of x, quantized with
// [1, 128] blocks as the whole x is, and the group's slice of the weight,
// quantized with [128, 128] blocks as its [1, 128, 128] blocks are), C
// sliced per run, padding rows left +0.0.

func.func @contiguous_acc(%x: tensor<640x136xf32>, %w: tensor<1600x136xbf16>, %c: tensor<640x200xf32>) -> tensor<640x200xbf16> attributes {llvm.emit_c_interface} {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<640x200xbf16>
  %r0 = linalg.fill ins(%z : bf16) outs(%e : tensor<640x200xbf16>) -> tensor<640x200xbf16>
  %x0 = tensor.extract_slice %x[0, 0] [100, 136] [1, 1] : tensor<640x136xf32> to tensor<100x136xf32>
  %w0 = tensor.extract_slice %w[400, 0] [200, 136] [1, 1] : tensor<1600x136xbf16> to tensor<200x136xbf16>
  %a0 = fp8.quantize %x0 : tensor<100x136xf32> -> !fp8.scaled<100x136xf8E4M3FN, block = [1, 128], scale = f32>
  %b0 = fp8.quantize %w0 : tensor<200x136xbf16> -> !fp8.scaled<200x136xf8E4M3FN, block = [128, 128], scale = f32>
  %c0 = tensor.extract_slice %c[0, 0] [100, 200] [1, 1] : tensor<640x200xf32> to tensor<100x200xf32>
  %d0 = fp8.scaled_matmul %a0, %b0 acc(%c0 : tensor<100x200xf32>) : !fp8.scaled<100x136xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<200x136xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<100x200xbf16>
  %r1 = tensor.insert_slice %d0 into %r0[0, 0] [100, 200] [1, 1] : tensor<100x200xbf16> into tensor<640x200xbf16>
  %x1 = tensor.extract_slice %x[128, 0] [1, 136] [1, 1] : tensor<640x136xf32> to tensor<1x136xf32>
  %w1 = tensor.extract_slice %w[1000, 0] [200, 136] [1, 1] : tensor<1600x136xbf16> to tensor<200x136xbf16>
  %a1 = fp8.quantize %x1 : tensor<1x136xf32> -> !fp8.scaled<1x136xf8E4M3FN, block = [1, 128], scale = f32>
  %b1 = fp8.quantize %w1 : tensor<200x136xbf16> -> !fp8.scaled<200x136xf8E4M3FN, block = [128, 128], scale = f32>
  %c1 = tensor.extract_slice %c[128, 0] [1, 200] [1, 1] : tensor<640x200xf32> to tensor<1x200xf32>
  %d1 = fp8.scaled_matmul %a1, %b1 acc(%c1 : tensor<1x200xf32>) : !fp8.scaled<1x136xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<200x136xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<1x200xbf16>
  %r2 = tensor.insert_slice %d1 into %r1[128, 0] [1, 200] [1, 1] : tensor<1x200xbf16> into tensor<640x200xbf16>
  %x2 = tensor.extract_slice %x[256, 0] [128, 136] [1, 1] : tensor<640x136xf32> to tensor<128x136xf32>
  %w2 = tensor.extract_slice %w[0, 0] [200, 136] [1, 1] : tensor<1600x136xbf16> to tensor<200x136xbf16>
  %a2 = fp8.quantize %x2 : tensor<128x136xf32> -> !fp8.scaled<128x136xf8E4M3FN, block = [1, 128], scale = f32>
  %b2 = fp8.quantize %w2 : tensor<200x136xbf16> -> !fp8.scaled<200x136xf8E4M3FN, block = [128, 128], scale = f32>
  %c2 = tensor.extract_slice %c[256, 0] [128, 200] [1, 1] : tensor<640x200xf32> to tensor<128x200xf32>
  %d2 = fp8.scaled_matmul %a2, %b2 acc(%c2 : tensor<128x200xf32>) : !fp8.scaled<128x136xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<200x136xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x200xbf16>
  %r3 = tensor.insert_slice %d2 into %r2[256, 0] [128, 200] [1, 1] : tensor<128x200xbf16> into tensor<640x200xbf16>
  %x3 = tensor.extract_slice %x[384, 0] [67, 136] [1, 1] : tensor<640x136xf32> to tensor<67x136xf32>
  %w3 = tensor.extract_slice %w[1400, 0] [200, 136] [1, 1] : tensor<1600x136xbf16> to tensor<200x136xbf16>
  %a3 = fp8.quantize %x3 : tensor<67x136xf32> -> !fp8.scaled<67x136xf8E4M3FN, block = [1, 128], scale = f32>
  %b3 = fp8.quantize %w3 : tensor<200x136xbf16> -> !fp8.scaled<200x136xf8E4M3FN, block = [128, 128], scale = f32>
  %c3 = tensor.extract_slice %c[384, 0] [67, 200] [1, 1] : tensor<640x200xf32> to tensor<67x200xf32>
  %d3 = fp8.scaled_matmul %a3, %b3 acc(%c3 : tensor<67x200xf32>) : !fp8.scaled<67x136xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<200x136xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<67x200xbf16>
  %r4 = tensor.insert_slice %d3 into %r3[384, 0] [67, 200] [1, 1] : tensor<67x200xbf16> into tensor<640x200xbf16>
  return %r4 : tensor<640x200xbf16>
}

func.func @contiguous_g1(%x: tensor<256x256xf32>, %w: tensor<128x256xbf16>) -> tensor<256x128xf32> attributes {llvm.emit_c_interface} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x128xf32>
  %r0 = linalg.fill ins(%z : f32) outs(%e : tensor<256x128xf32>) -> tensor<256x128xf32>
  %x0 = tensor.extract_slice %x[0, 0] [200, 256] [1, 1] : tensor<256x256xf32> to tensor<200x256xf32>
  %w0 = tensor.extract_slice %w[0, 0] [128, 256] [1, 1] : tensor<128x256xbf16> to tensor<128x256xbf16>
  %a0 = fp8.quantize %x0 : tensor<200x256xf32> -> !fp8.scaled<200x256xf8E4M3FN, block = [1, 128], scale = f32>
  %b0 = fp8.quantize %w0 : tensor<128x256xbf16> -> !fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32>
  %d0 = fp8.scaled_matmul %a0, %b0 : !fp8.scaled<200x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<128x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<200x128xf32>
  %r1 = tensor.insert_slice %d0 into %r0[0, 0] [200, 128] [1, 1] : tensor<200x128xf32> into tensor<256x128xf32>
  return %r1 : tensor<256x128xf32>
}
