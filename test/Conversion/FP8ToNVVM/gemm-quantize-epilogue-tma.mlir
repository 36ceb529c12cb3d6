// The quantize epilogue with the TMA store (`store=tma`, docs/gpu-kernel.md
// "The quantize epilogue", "With the TMA store") at the NVVM level, in its
// launcher and through to ptxas. Per tile, each consumer warpgroup: thread
// 0 waits for its previous store to have read the staging buffer
// (cp.async.bulk.wait_group.read 0), the warpgroup's named barrier; per
// row slot and 1x128 tile the amax over the quad, the scale stored by
// st.global from the quad's first lane, and the codes: one st.shared.b16
// per code pair (16 per row and tile: 64 for 128 columns); then
// fence.proxy.async.shared::cta, the barrier again, thread 0's TMA store
// of one 64-row x 128-code box per 1x128 tile and one commit_group, and
// after the tile loop's last tile the wait again. No byte or 2-byte
// st.global of codes is left. The launcher passes the codes as a u8 tensor
// map of 64 x 128 boxes with the 128B swizzle. ptxas (behind
// scripts/ptxas_guard.py: no warning, no spill, no Cnnnn info) assembles
// the 128x128 tile, the 64x256 column split and the 64x128 tile of a
// DeepSeek-V3 shape with 0 spills.
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=128 block-n=128 store=tma" -fp8-launch-kernels=sm-count=8 -canonicalize -cse 2>/dev/null | FileCheck %s --check-prefix=NVVM
// RUN: %if ptxas %{ fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=128 block-n=128 store=tma" | fp8-translate --fp8-extract-gpu-object > %t.t128.ptx %}
// RUN: %if ptxas %{ FileCheck %s --check-prefix=PTX < %t.t128.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.t128.ptx -o %t.t128.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=64 block-n=256 store=tma" | fp8-translate --fp8-extract-gpu-object > %t.split.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.split.ptx -o %t.split.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=64 block-n=128 store=tma" | fp8-translate --fp8-extract-gpu-object > %t.m64.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.m64.ptx -o %t.m64.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// Two kernels per PTX (bf16 D with a static M into E4M3FN, f32 D with C and
// a run-time M into E5M2), each without stack, spills or warnings.
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS-COUNT-2: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}

func.func @chains(%a: !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>,
                  %b: !fp8.scaled<7168x7168xf8E4M3FN, block = [128, 128], scale = f32>,
                  %x: !fp8.scaled<?x2112xf8E4M3FN, block = [1, 128], scale = f32>,
                  %w: !fp8.scaled<7168x2112xf8E4M3FN, block = [128, 128], scale = f32>,
                  %c: tensor<?x7168xf32>)
    -> (!fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>,
        !fp8.scaled<?x7168xf8E5M2, block = [1, 128], scale = f32>) {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<4096x7168xbf16>
  %qd = fp8.quantize %d : tensor<4096x7168xbf16> -> !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>
  %e = fp8.scaled_matmul %x, %w acc(%c : tensor<?x7168xf32>) : !fp8.scaled<?x2112xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x2112xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x7168xf32>
  %qe = fp8.quantize %e {eps = 1.0e-3 : f32} : tensor<?x7168xf32> -> !fp8.scaled<?x7168xf8E5M2, block = [1, 128], scale = f32>
  return %qd, %qe : !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<?x7168xf8E5M2, block = [1, 128], scale = f32>
}
