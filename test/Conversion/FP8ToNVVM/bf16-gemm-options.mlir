// The GEMM tile options on the BF16 kernels (docs/gpu-kernel.md, "The BF16
// variant"): block-m, block-n, stages, consumers and group-m configure the
// bf16 kernels where checkGemmKernelConfig takes them for bf16 operands
// (block-n / splits a multiple of 64: whole MN-major B boxes of 64
// columns); the kernel's name and #fp8.gemm_kernel carry the tile. A tile
// the bf16 kernel refuses (block-n=96, which the FP8 kernels take) gives
// the shape's default tile and a remark naming the options and why; the
// options no bf16 kernel takes (cluster, store=tma, an overlapped
// promotion, swap-ab=always) are not applied, each with a remark, since
// the same option set configures the module's FP8 kernels (not an error).
// config=fixed: the shape's default tile, no remark. config=auto (the
// default): the BF16 cost model's tile (GemmCostModel with bf16 terms: two
// bytes per element, no scales or promotion, half the FP8 rate), recorded
// in #fp8.kernel_model: 64x64 with 8 stages for the small shapes (4 x 3 =
// 12 CTAs; 3 x 2 x 2 = 12 for the batch), 128x192 with 5 stages in the
// grouped order of 16 tile rows for 8192x5632x2048 (64 x 30 tiles, every
// SM busy).
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed 2> %t.default | FileCheck %s --check-prefix=DEFAULT
// RUN: FileCheck %s --check-prefix=NO-REMARK --allow-empty < %t.default
// RUN: fp8-opt %s --fp8-lower-to-nvvm 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=64 stages=3" 2>&1 | FileCheck %s --check-prefix=T64
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-n=64 group-m=2" 2>&1 | FileCheck %s --check-prefix=N64
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=64 block-n=256" 2>&1 | FileCheck %s --check-prefix=N256
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-n=96" 2>&1 | FileCheck %s --check-prefix=N96
// RUN: fp8-opt %s --fp8-lower-to-nvvm="config=fixed cluster=2 store=tma promotion-schedule=overlap8" 2>&1 | FileCheck %s --check-prefix=FP8ONLY
// RUN: fp8-opt %s --fp8-lower-to-nvvm="config=fixed swap-ab=always" 2>&1 | FileCheck %s --check-prefix=SWAP

// DEFAULT-LABEL: func.func @mm(
// DEFAULT: linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_200x192x136_bf16_bf16_f32_accf32}
// DEFAULT-LABEL: func.func @bmm(
// DEFAULT: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_3x100x128x64_bf16_bf16_f32_accf32}
// NO-REMARK-NOT: remark

// AUTO-NOT: remark
// AUTO: linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_200x192x136_bf16_bf16_f32_accf32_t64x64s8}
// AUTO: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_3x100x128x64_bf16_bf16_f32_accf32_t64x64s8}
// AUTO: linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_8192x5632x2048_bf16_bf16_f32_accf32_t128x192s5g16}
// AUTO: llvm.func @fp8_matmul_200x192x136_bf16_bf16_f32_accf32_t64x64s8(
// AUTO-SAME: fp8.kernel_model = #fp8.kernel_model<chip = "h200", ctas = 12,
// AUTO: llvm.func @fp8_batch_matmul_3x100x128x64_bf16_bf16_f32_accf32_t64x64s8(
// AUTO-SAME: fp8.kernel_model = #fp8.kernel_model<chip = "h200", ctas = 12,
// AUTO: llvm.func @fp8_matmul_8192x5632x2048_bf16_bf16_f32_accf32_t128x192s5g16(
// AUTO-SAME: block_m = 128, block_n = 192, block_k = 64, stages = 5, consumers = 2, group_m = 16>
// AUTO-SAME: fp8.kernel_model = #fp8.kernel_model<chip = "h200", ctas = 132,

// T64-NOT: remark
// T64: linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_200x192x136_bf16_bf16_f32_accf32_t64x128s3}
// T64: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_3x100x128x64_bf16_bf16_f32_accf32_t64x128s3}
// T64: fp8.kernel = #fp8.gemm_kernel<m = 200, n = 192, k = 136, a = bf16, b = bf16, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 64, block_n = 128, block_k = 64, stages = 3, consumers = 1>

// N64-NOT: remark
// N64: linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_200x192x136_bf16_bf16_f32_accf32_t128x64s{{[0-9]+}}g2}
// N64: fp8.kernel = #fp8.gemm_kernel<m = 200, n = 192, k = 136, a = bf16, b = bf16, d = f32, c = f32, a_scale = f32, b_scale = f32, b_scale_rows = 128, block_m = 128, block_n = 64, block_k = 64, stages = {{[0-9]+}}, consumers = 2, group_m = 2>

// 64 x 256: two consumers splitting the columns, 128 (two B boxes) each.
// N256-NOT: remark
// N256: linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_200x192x136_bf16_bf16_f32_accf32_t64x256s{{[0-9]+}}c2}

// N96: remark: fp8-lower-to-nvvm: the tile options (block-m=128 block-n=96 stages={{[0-9]+}} consumers=2) are not applied to the bf16 kernel of 'linalg.matmul' (bf16 operands need block-n / splits a multiple of 64 (each consumer warpgroup reads whole MN-major B boxes of 64 columns = 128 bytes)); it gets the shape's default tile
// N96: remark: fp8-lower-to-nvvm: the tile options ({{.*}}block-n=96{{.*}}) are not applied to the bf16 kernel of 'linalg.batch_matmul'
// N96: linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_200x192x136_bf16_bf16_f32_accf32}
// N96: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_3x100x128x64_bf16_bf16_f32_accf32}

// FP8ONLY: remark: fp8-lower-to-nvvm: cluster=2 is not applied to the bf16 kernel of 'linalg.matmul' (the bf16 kernels do not multicast B: cluster 1); the option configures the module's FP8 kernels
// FP8ONLY: remark: fp8-lower-to-nvvm: store=tma is not applied to the bf16 kernel of 'linalg.matmul' (the bf16 kernels store D by st.global); the option configures the module's FP8 kernels
// FP8ONLY: remark: fp8-lower-to-nvvm: promotion-schedule=overlap8 is not applied to the bf16 kernel of 'linalg.matmul' (the bf16 kernels have no scales to promote: their wgmma chain waits for each K block in lock-step); the option configures the module's FP8 kernels
// FP8ONLY: remark: fp8-lower-to-nvvm: cluster=2 is not applied to the bf16 kernel of 'linalg.batch_matmul'
// FP8ONLY: remark: fp8-lower-to-nvvm: store=tma is not applied to the bf16 kernel of 'linalg.batch_matmul'
// FP8ONLY: remark: fp8-lower-to-nvvm: promotion-schedule=overlap8 is not applied to the bf16 kernel of 'linalg.batch_matmul'
// FP8ONLY: linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_200x192x136_bf16_bf16_f32_accf32}
// FP8ONLY: linalg.batch_matmul {fp8.kernel_ref = @fp8_kernels::@fp8_batch_matmul_3x100x128x64_bf16_bf16_f32_accf32}

// SWAP: remark: fp8-lower-to-nvvm: swap-ab=always is not applied to the bf16 kernel of 'linalg.matmul' (the bf16 kernels have no swap-AB form); the option configures the module's FP8 kernels
// SWAP: linalg.matmul {fp8.kernel_ref = @fp8_kernels::@fp8_matmul_200x192x136_bf16_bf16_f32_accf32}

func.func @mm(%a: tensor<200x136xbf16>, %b: tensor<136x192xbf16>, %c: tensor<200x192xf32>) -> tensor<200x192xf32> {
  %y = linalg.matmul ins(%a, %b : tensor<200x136xbf16>, tensor<136x192xbf16>) outs(%c : tensor<200x192xf32>) -> tensor<200x192xf32>
  return %y : tensor<200x192xf32>
}

func.func @bmm(%a: tensor<3x100x64xbf16>, %b: tensor<3x64x128xbf16>, %c: tensor<3x100x128xf32>) -> tensor<3x100x128xf32> {
  %y = linalg.batch_matmul ins(%a, %b : tensor<3x100x64xbf16>, tensor<3x64x128xbf16>) outs(%c : tensor<3x100x128xf32>) -> tensor<3x100x128xf32>
  return %y : tensor<3x100x128xf32>
}

func.func @big(%a: tensor<8192x2048xbf16>, %b: tensor<2048x5632xbf16>, %c: tensor<8192x5632xf32>) -> tensor<8192x5632xf32> {
  %y = linalg.matmul ins(%a, %b : tensor<8192x2048xbf16>, tensor<2048x5632xbf16>) outs(%c : tensor<8192x5632xf32>) -> tensor<8192x5632xf32>
  return %y : tensor<8192x5632xf32>
}
