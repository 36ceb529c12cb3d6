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
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=128 block-n=128 store=tma" 2>/dev/null | FileCheck %s --check-prefix=NOBYTE
// RUN: %if ptxas %{ fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=128 block-n=128 store=tma" | fp8-translate --fp8-extract-gpu-object > %t.t128.ptx %}
// RUN: %if ptxas %{ FileCheck %s --check-prefix=PTX < %t.t128.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.t128.ptx -o %t.t128.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=64 block-n=256 store=tma" | fp8-translate --fp8-extract-gpu-object > %t.split.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.split.ptx -o %t.split.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=64 block-n=128 store=tma" | fp8-translate --fp8-extract-gpu-object > %t.m64.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.m64.ptx -o %t.m64.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// NVVM-LABEL: llvm.func @fp8_scaled_matmul_4096x7168x7168_e4m3_e4m3_bf16_qe4m3_t128x128s6tma(
// NVVM-SAME: stages = 6, consumers = 2, epilogue = quantize, q = f8E4M3FN, q_eps = 9.99999974E-5 : f32, tma_store = true>
// NVVM: nvvm.cp.async.bulk.wait_group 0 {read}
// NVVM-NEXT: }
// NVVM-NEXT: nvvm.barrier id
// NVVM: nvvm.shfl.sync  bfly
// NVVM: llvm.store {{.*}} : f32, !llvm.ptr<1>
// NVVM-COUNT-16: llvm.store {{.*}} {alignment = 2 : i64} : i16, !llvm.ptr<3>
// NVVM: llvm.store {{.*}} : f32, !llvm.ptr<1>
// NVVM-COUNT-16: llvm.store {{.*}} {alignment = 2 : i64} : i16, !llvm.ptr<3>
// NVVM-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// NVVM-NEXT: nvvm.barrier id
// NVVM-NEXT: scf.if
// NVVM-NOT: nvvm.cp.async.bulk.tensor.global.shared.cta
// NVVM: nvvm.cp.async.bulk.tensor.global.shared.cta %arg4,
// NVVM-NEXT: nvvm.cp.async.bulk.commit.group
// NVVM: arith.cmpi uge
// NVVM-NEXT: scf.if
// NVVM-NEXT: nvvm.cp.async.bulk.wait_group 0 {read}
// NVVM-LABEL: llvm.func @fp8_scaled_matmul_dynx7168x2112_e4m3_e4m3_f32_accf32_qe5m2_eps3a83126f_t128x128s6tma(
// NVVM: nvvm.cp.async.bulk.wait_group 0 {read}
// NVVM: nvvm.convert.f32x2.to.f8x2 {{.*}} : i16(f8E5M2)
// NVVM: nvvm.fence.proxy
// NVVM: nvvm.cp.async.bulk.tensor.global.shared.cta %arg4,
// NVVM-NEXT: nvvm.cp.async.bulk.commit.group
// NVVM: nvvm.cp.async.bulk.wait_group 0 {read}
// The launchers: the codes' map (u8, 64 rows x 128 codes) in D's place.
// NVVM: nvgpu.tma.create.descriptor %{{.*}} box[%c64, %c128] : memref<*xui8> -> <tensor = memref<64x128xui8, 3>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
// NVVM: nvgpu.tma.create.descriptor %{{.*}} box[%c64, %c128] : memref<*xui8> -> <tensor = memref<64x128xui8, 3>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>

// No code stored by st.global (bytes or pairs) in either kernel.
// NOBYTE: llvm.func @fp8_scaled_matmul_4096x7168x7168
// NOBYTE-NOT: {{: i8, !llvm.ptr<1>|: i16, !llvm.ptr<1>}}

// PTX-LABEL: .entry fp8_scaled_matmul_4096x7168x7168_e4m3_e4m3_bf16_qe4m3_t128x128s6tma(
// PTX-NOT: st.global.b8
// PTX-NOT: st.global.b16
// PTX: cp.async.bulk.wait_group.read 0;
// PTX: bar.sync
// PTX: cvt.rn.satfinite.e4m3x2.f32
// PTX: st.shared.b16
// PTX: fence.proxy.async.shared::cta;
// PTX-NEXT: bar.sync
// PTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// PTX-NEXT: cp.async.bulk.commit_group;
// PTX: cp.async.bulk.wait_group.read 0;

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
