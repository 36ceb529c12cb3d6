// The kernel with per-column B scales (b blocks [1, 128], the Wgrad GEMM)
// through ptxas: every configuration at the register limit of
// GemmKernelConfig::consumerRegsNeeded (block-n / splits + block-n / 4 /
// splits + 16 within the consumers' setmaxnreg share: 168 columns for two
// consumers, 104 for three, 64 for four; 256 split over two) and the
// narrowest tile, with and without the accumulator operand C and a dynamic
// M, assembles for sm_90a with 0 spills. Per K block the PTX has one 8-byte
// load per fragment column pair (consumerN / 8 = 16 for 128 columns), and
// one scale product and one fma per accumulator register (64 each).
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none config=fixed" | fp8-translate --fp8-extract-gpu-object > %t.1.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.1.ptx
// RUN: %ptxas -arch=sm_90a -v %t.1.ptx -o %t.1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-n=168" | fp8-translate --fp8-extract-gpu-object > %t.2.ptx
// RUN: %ptxas -arch=sm_90a -v %t.2.ptx -o %t.2.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=64 block-n=256" | fp8-translate --fp8-extract-gpu-object > %t.3.ptx
// RUN: %ptxas -arch=sm_90a -v %t.3.ptx -o %t.3.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=192 block-n=104" | fp8-translate --fp8-extract-gpu-object > %t.4.ptx
// RUN: %ptxas -arch=sm_90a -v %t.4.ptx -o %t.4.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=256 block-n=64" | fp8-translate --fp8-extract-gpu-object > %t.5.ptx
// RUN: %ptxas -arch=sm_90a -v %t.5.ptx -o %t.5.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-n=16" | fp8-translate --fp8-extract-gpu-object > %t.6.ptx
// RUN: %ptxas -arch=sm_90a -v %t.6.ptx -o %t.6.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}

// PTX-LABEL: .entry fp8_scaled_matmul_200x300x400_e4m3_e4m3_bf16_b1x128(
// PTX-COUNT-64: {{^[[:space:]]*}}mul.rn.f32
// PTX-NOT: mul.rn.f32
// PTX-COUNT-16: ld.global.v2.b32
// PTX-NOT: ld.global.v2.b32
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// PTX-LABEL: .entry fp8_scaled_matmul_dynx520x272_e5m2_e4m3_f32_accf32_b1x128(
// PTX-COUNT-16: ld.global.v2.b32
// PTX-NOT: ld.global.v2.b32
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k32.f32.e5m2.e4m3

func.func @wgrad(%a: !fp8.scaled<200x400xf8E4M3FN, block = [1, 128], scale = f32>,
                 %b: !fp8.scaled<300x400xf8E4M3FN, block = [1, 128], scale = f32>) -> tensor<200x300xbf16> {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<200x400xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<300x400xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<200x300xbf16>
  return %d : tensor<200x300xbf16>
}

func.func @wgrad_dyn_acc(%a: !fp8.scaled<?x272xf8E5M2, block = [1, 128], scale = f32>,
                         %b: !fp8.scaled<520x272xf8E4M3FN, block = [1, 128], scale = f32>,
                         %c: tensor<?x520xf32>) -> tensor<?x520xf32> {
  %d = fp8.scaled_matmul %a, %b acc(%c : tensor<?x520xf32>) : !fp8.scaled<?x272xf8E5M2, block = [1, 128], scale = f32>, !fp8.scaled<520x272xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<?x520xf32>
  return %d : tensor<?x520xf32>
}
