// Non-default kernel configurations through to ptxas: BLOCK_N 16, 64, 96,
// 112, 160, 216 (tiles that straddle B-scale blocks; 216 is the widest one
// consumer per 64 rows holds), 256 with BLOCK_M 64 (two consumers split the
// columns, 128 each; with BLOCK_M 128 it is rejected, kernel-config.mlir) and BLOCK_M 64 and
// 256 (one and four consumer warpgroups), each assembling for sm_90a with 0
// spills (the register budget of GemmKernelConfig.h holds at its limits).
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a host=none block-n=16" | fp8-translate --fp8-extract-gpu-object > %t.n16.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.n16.ptx
// RUN: %ptxas -arch=sm_90a -v %t.n16.ptx -o %t.n16.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a host=none block-n=64" | fp8-translate --fp8-extract-gpu-object > %t.n64.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.n64.ptx
// RUN: %ptxas -arch=sm_90a -v %t.n64.ptx -o %t.n64.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a host=none block-n=96" | fp8-translate --fp8-extract-gpu-object > %t.n96.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.n96.ptx
// RUN: %ptxas -arch=sm_90a -v %t.n96.ptx -o %t.n96.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a host=none block-n=112" | fp8-translate --fp8-extract-gpu-object > %t.n112.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.n112.ptx
// RUN: %ptxas -arch=sm_90a -v %t.n112.ptx -o %t.n112.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a host=none block-n=160" | fp8-translate --fp8-extract-gpu-object > %t.n160.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.n160.ptx
// RUN: %ptxas -arch=sm_90a -v %t.n160.ptx -o %t.n160.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a host=none block-n=216" | fp8-translate --fp8-extract-gpu-object > %t.n216.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.n216.ptx
// RUN: %ptxas -arch=sm_90a -v %t.n216.ptx -o %t.n216.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a host=none block-m=64 block-n=216" | fp8-translate --fp8-extract-gpu-object > %t.m64.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.m64.ptx
// RUN: %ptxas -arch=sm_90a -v %t.m64.ptx -o %t.m64.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a host=none block-m=64 block-n=256" | fp8-translate --fp8-extract-gpu-object > %t.n256.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.n256.ptx
// RUN: %ptxas -arch=sm_90a -v %t.n256.ptx -o %t.n256.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a host=none block-m=256 block-n=64" | fp8-translate --fp8-extract-gpu-object > %t.m256.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.m256.ptx
// RUN: %ptxas -arch=sm_90a -v %t.m256.ptx -o %t.m256.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="config=fixed chip=sm_90a host=none block-m=256 block-n=88" | fp8-translate --fp8-extract-gpu-object > %t.m256n88.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.m256n88.ptx
// RUN: %ptxas -arch=sm_90a -v %t.m256n88.ptx -o %t.m256n88.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}

// Each configuration is its own kernel, named after it.
// PTX: .entry fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_t{{[0-9]+}}x{{[0-9]+}}s{{[0-9]+(c[0-9]+)?}}(
// PTX: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k32.f32.e4m3.e4m3

func.func @gemm(%a: !fp8.scaled<200x400xf8E4M3FN, block = [1, 128], scale = f32>,
    %b: !fp8.scaled<300x400xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<200x300xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<200x400xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<300x400xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<200x300xbf16>
  return %d : tensor<200x300xbf16>
}
