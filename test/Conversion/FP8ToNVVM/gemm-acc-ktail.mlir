// The accumulator operand C and K not a multiple of 16 on the GPU path.
// C: the kernel takes C [M, N] (bf16 or f32) as its last parameter and
// starts each output's accumulator at C (bf16 widened exactly) before the
// per-K-block promotion FMAs, as the reference lowering starts its
// promotion from C; its name carries `_acc<c>`. K = 136: the host pads the
// rows of the FP8 codes with zero codes to 144 (TMA global strides are
// multiples of 16 bytes); the kernel keeps K = 136 (two K blocks).
// Both assemble for sm_90a with 0 spills.
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed | FileCheck %s
// RUN: fp8-opt %s --fp8-lower-to-nvvm=config=fixed --fp8-launch-kernels | FileCheck %s --check-prefix=HOST
// RUN: %if ptxas %{ fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a host=none" | fp8-translate --fp8-extract-gpu-object > %t.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// CHECK-LABEL: llvm.func @fp8_scaled_matmul_128x256x256_e4m3_e4m3_f32_accbf16(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i32, %[[C:.*]]: !llvm.ptr)
// CHECK: llvm.addrspacecast %[[C]] : !llvm.ptr to !llvm.ptr<1>
// CHECK-COUNT-64: llvm.load %{{.*}} : !llvm.ptr<1> -> bf16
// CHECK: scf.for
// CHECK-LABEL: llvm.func @fp8_scaled_matmul_dynx200x136_e5m2_e4m3_bf16_accf32(
// CHECK-COUNT-64: llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK-LABEL: llvm.func @fp8_scaled_matmul_64x128x136_e4m3_e4m3_bf16(
// CHECK-SAME: %{{.*}}: i32)

// The launcher of a K = 136 GEMM gets the codes padded to 144 and the C buffer.
// HOST-LABEL: func.func @acc_bf16(
// HOST: call @fp8_launch_fp8_scaled_matmul_128x256x256_e4m3_e4m3_f32_accbf16(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<128x256xf8E4M3FN>, memref<256x256xf8E4M3FN>, memref<2x128xf32>, memref<2x2xf32>, memref<128x256xf32>, memref<128x256xbf16>) -> ()
// HOST-LABEL: func.func @k136(
// HOST: tensor.pad %{{.*}} low[0, 0] high[0, 8]
// HOST: tensor<64x136xf8E4M3FN> to tensor<64x144xf8E4M3FN>
// HOST: tensor.pad %{{.*}} low[0, 0] high[0, 8]
// HOST: tensor<128x136xf8E4M3FN> to tensor<128x144xf8E4M3FN>
// HOST: call @fp8_launch_fp8_scaled_matmul_64x128x136_e4m3_e4m3_bf16(%{{.*}}) : (memref<64x144xf8E4M3FN>, memref<128x144xf8E4M3FN>,
// HOST-LABEL: func.func private @fp8_launch_fp8_scaled_matmul_128x256x256_e4m3_e4m3_f32_accbf16(
// HOST: gpu.launch_func async [%{{.*}}] @fp8_kernels::@fp8_scaled_matmul_128x256x256_e4m3_e4m3_f32_accbf16 {{.*}} args(%{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : memref<2x2xf32>, %{{.*}} : memref<128x256xf32>, %{{.*}} : i32, %{{.*}} : memref<128x256xbf16>)

// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS: Compiling entry function 'fp8_scaled_matmul_64x128x136_e4m3_e4m3_bf16'
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS: Compiling entry function 'fp8_scaled_matmul_dynx200x136_e5m2_e4m3_bf16_accf32'
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS: Compiling entry function 'fp8_scaled_matmul_128x256x256_e4m3_e4m3_f32_accbf16'
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}

func.func @acc_bf16(%a: !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>,
                    %b: !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32>,
                    %c: tensor<128x256xbf16>) -> tensor<128x256xf32> {
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<128x256xbf16>) : !fp8.scaled<128x256xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<128x256xf32>
  return %d : tensor<128x256xf32>
}

func.func @acc_f32_dyn(%a: !fp8.scaled<?x136xf8E5M2, block = [1, 128], scale = f32>,
                       %b: !fp8.scaled<200x136xf8E4M3FN, block = [128, 128], scale = f32>,
                       %c: tensor<?x200xf32>) -> tensor<?x200xbf16> {
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<?x200xf32>) : !fp8.scaled<?x136xf8E5M2, block = [1, 128], scale = f32>, !fp8.scaled<200x136xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x200xbf16>
  return %d : tensor<?x200xbf16>
}

func.func @k136(%a: !fp8.scaled<64x136xf8E4M3FN, block = [1, 128], scale = f32>,
                %b: !fp8.scaled<128x136xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<64x128xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<64x136xf8E4M3FN, block = [1, 128], scale = f32>, !fp8.scaled<128x136xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<64x128xbf16>
  return %d : tensor<64x128xbf16>
}
