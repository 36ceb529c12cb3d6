// The DeepSeek-V3 GEMM shape table (issue 17): M = 64, 128, 4096 tokens
// times N x K of its projections (DeepSeek-V3 technical report, the
// shapes DeepGEMM benchmarks). One linear per shape, x[M, K] . W[K, N] with
// W a function argument (a weight), for fp8-assign-precision and
// fp8-report (bench/gpu/config_table.py reads the report's JSON).

func.func @gemm_64x2112x7168(%x: tensor<64x7168xbf16>, %w: tensor<7168x2112xbf16>) -> tensor<64x2112xbf16> {
  %e = tensor.empty() : tensor<64x2112xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<64x7168xbf16>, tensor<7168x2112xbf16>) outs(%e : tensor<64x2112xbf16>) -> tensor<64x2112xbf16>
  return %y : tensor<64x2112xbf16>
}

func.func @gemm_64x24576x1536(%x: tensor<64x1536xbf16>, %w: tensor<1536x24576xbf16>) -> tensor<64x24576xbf16> {
  %e = tensor.empty() : tensor<64x24576xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<64x1536xbf16>, tensor<1536x24576xbf16>) outs(%e : tensor<64x24576xbf16>) -> tensor<64x24576xbf16>
  return %y : tensor<64x24576xbf16>
}

func.func @gemm_64x32768x512(%x: tensor<64x512xbf16>, %w: tensor<512x32768xbf16>) -> tensor<64x32768xbf16> {
  %e = tensor.empty() : tensor<64x32768xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<64x512xbf16>, tensor<512x32768xbf16>) outs(%e : tensor<64x32768xbf16>) {fp8.role = #fp8.role<linear>} -> tensor<64x32768xbf16>
  return %y : tensor<64x32768xbf16>
}

func.func @gemm_64x7168x16384(%x: tensor<64x16384xbf16>, %w: tensor<16384x7168xbf16>) -> tensor<64x7168xbf16> {
  %e = tensor.empty() : tensor<64x7168xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<64x16384xbf16>, tensor<16384x7168xbf16>) outs(%e : tensor<64x7168xbf16>) -> tensor<64x7168xbf16>
  return %y : tensor<64x7168xbf16>
}

func.func @gemm_64x4096x7168(%x: tensor<64x7168xbf16>, %w: tensor<7168x4096xbf16>) -> tensor<64x4096xbf16> {
  %e = tensor.empty() : tensor<64x4096xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<64x7168xbf16>, tensor<7168x4096xbf16>) outs(%e : tensor<64x4096xbf16>) -> tensor<64x4096xbf16>
  return %y : tensor<64x4096xbf16>
}

func.func @gemm_64x7168x2048(%x: tensor<64x2048xbf16>, %w: tensor<2048x7168xbf16>) -> tensor<64x7168xbf16> {
  %e = tensor.empty() : tensor<64x7168xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<64x2048xbf16>, tensor<2048x7168xbf16>) outs(%e : tensor<64x7168xbf16>) -> tensor<64x7168xbf16>
  return %y : tensor<64x7168xbf16>
}

func.func @gemm_128x2112x7168(%x: tensor<128x7168xbf16>, %w: tensor<7168x2112xbf16>) -> tensor<128x2112xbf16> {
  %e = tensor.empty() : tensor<128x2112xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<128x7168xbf16>, tensor<7168x2112xbf16>) outs(%e : tensor<128x2112xbf16>) -> tensor<128x2112xbf16>
  return %y : tensor<128x2112xbf16>
}

func.func @gemm_128x24576x1536(%x: tensor<128x1536xbf16>, %w: tensor<1536x24576xbf16>) -> tensor<128x24576xbf16> {
  %e = tensor.empty() : tensor<128x24576xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<128x1536xbf16>, tensor<1536x24576xbf16>) outs(%e : tensor<128x24576xbf16>) -> tensor<128x24576xbf16>
  return %y : tensor<128x24576xbf16>
}

func.func @gemm_128x32768x512(%x: tensor<128x512xbf16>, %w: tensor<512x32768xbf16>) -> tensor<128x32768xbf16> {
  %e = tensor.empty() : tensor<128x32768xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<128x512xbf16>, tensor<512x32768xbf16>) outs(%e : tensor<128x32768xbf16>) {fp8.role = #fp8.role<linear>} -> tensor<128x32768xbf16>
  return %y : tensor<128x32768xbf16>
}

func.func @gemm_128x7168x16384(%x: tensor<128x16384xbf16>, %w: tensor<16384x7168xbf16>) -> tensor<128x7168xbf16> {
  %e = tensor.empty() : tensor<128x7168xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<128x16384xbf16>, tensor<16384x7168xbf16>) outs(%e : tensor<128x7168xbf16>) -> tensor<128x7168xbf16>
  return %y : tensor<128x7168xbf16>
}

func.func @gemm_128x4096x7168(%x: tensor<128x7168xbf16>, %w: tensor<7168x4096xbf16>) -> tensor<128x4096xbf16> {
  %e = tensor.empty() : tensor<128x4096xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<128x7168xbf16>, tensor<7168x4096xbf16>) outs(%e : tensor<128x4096xbf16>) -> tensor<128x4096xbf16>
  return %y : tensor<128x4096xbf16>
}

func.func @gemm_128x7168x2048(%x: tensor<128x2048xbf16>, %w: tensor<2048x7168xbf16>) -> tensor<128x7168xbf16> {
  %e = tensor.empty() : tensor<128x7168xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<128x2048xbf16>, tensor<2048x7168xbf16>) outs(%e : tensor<128x7168xbf16>) -> tensor<128x7168xbf16>
  return %y : tensor<128x7168xbf16>
}

func.func @gemm_4096x2112x7168(%x: tensor<4096x7168xbf16>, %w: tensor<7168x2112xbf16>) -> tensor<4096x2112xbf16> {
  %e = tensor.empty() : tensor<4096x2112xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<4096x7168xbf16>, tensor<7168x2112xbf16>) outs(%e : tensor<4096x2112xbf16>) -> tensor<4096x2112xbf16>
  return %y : tensor<4096x2112xbf16>
}

func.func @gemm_4096x24576x1536(%x: tensor<4096x1536xbf16>, %w: tensor<1536x24576xbf16>) -> tensor<4096x24576xbf16> {
  %e = tensor.empty() : tensor<4096x24576xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<4096x1536xbf16>, tensor<1536x24576xbf16>) outs(%e : tensor<4096x24576xbf16>) -> tensor<4096x24576xbf16>
  return %y : tensor<4096x24576xbf16>
}

func.func @gemm_4096x32768x512(%x: tensor<4096x512xbf16>, %w: tensor<512x32768xbf16>) -> tensor<4096x32768xbf16> {
  %e = tensor.empty() : tensor<4096x32768xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<4096x512xbf16>, tensor<512x32768xbf16>) outs(%e : tensor<4096x32768xbf16>) {fp8.role = #fp8.role<linear>} -> tensor<4096x32768xbf16>
  return %y : tensor<4096x32768xbf16>
}

func.func @gemm_4096x7168x16384(%x: tensor<4096x16384xbf16>, %w: tensor<16384x7168xbf16>) -> tensor<4096x7168xbf16> {
  %e = tensor.empty() : tensor<4096x7168xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<4096x16384xbf16>, tensor<16384x7168xbf16>) outs(%e : tensor<4096x7168xbf16>) -> tensor<4096x7168xbf16>
  return %y : tensor<4096x7168xbf16>
}

func.func @gemm_4096x4096x7168(%x: tensor<4096x7168xbf16>, %w: tensor<7168x4096xbf16>) -> tensor<4096x4096xbf16> {
  %e = tensor.empty() : tensor<4096x4096xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<4096x7168xbf16>, tensor<7168x4096xbf16>) outs(%e : tensor<4096x4096xbf16>) -> tensor<4096x4096xbf16>
  return %y : tensor<4096x4096xbf16>
}

func.func @gemm_4096x7168x2048(%x: tensor<4096x2048xbf16>, %w: tensor<2048x7168xbf16>) -> tensor<4096x7168xbf16> {
  %e = tensor.empty() : tensor<4096x7168xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<4096x2048xbf16>, tensor<2048x7168xbf16>) outs(%e : tensor<4096x7168xbf16>) -> tensor<4096x7168xbf16>
  return %y : tensor<4096x7168xbf16>
}
