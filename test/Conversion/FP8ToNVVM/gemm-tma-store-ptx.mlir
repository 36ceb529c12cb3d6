// The TMA-store epilogue (`store=tma`, docs/gpu-kernel.md "The TMA-store
// epilogue") at the NVVM level, in its launcher and through to ptxas.
// Per tile, each consumer warpgroup: thread 0 waits for its previous
// store to have read the staging buffer (cp.async.bulk.wait_group.read 0)
// before the warpgroup's named barrier that precedes the writes; the
// writes (bf16: one stmatrix.x4 per 16 columns, 8 for 128; f32: one
// st.shared.v2 per register pair, 32 for 128); fence.proxy.async.shared::cta;
// the barrier again; thread 0's TMA stores (one per 64-row x 128-byte box:
// 2 bf16 or 4 f32 boxes for 128 columns) and one commit_group; after the
// tile loop's last tile (the next tile index past the tile count) the wait
// again, before the CTA exits. The launcher passes D as a tensor map of
// 64-row x 128-byte boxes with the 128B swizzle. ptxas (behind
// scripts/ptxas_guard.py: no warning, no spill, no Cnnnn info) assembles
// 128x128 and 64x128 with bf16 and f32 D with 0 spills.
// REQUIRES: ptxas
// RUN: fp8-opt %s --fp8-lower-to-nvvm="block-m=128 block-n=128 store=tma" -fp8-launch-kernels=sm-count=8 -canonicalize -cse | FileCheck %s --check-prefix=NVVM
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=128 block-n=128 store=tma" | fp8-translate --fp8-extract-gpu-object > %t.t128.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.t128.ptx
// RUN: %ptxas -arch=sm_90a -v %t.t128.ptx -o %t.t128.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: fp8-opt %s --fp8-gpu-pipeline="chip=sm_90a host=none block-m=64 block-n=128 store=tma" | fp8-translate --fp8-extract-gpu-object > %t.m64.ptx
// RUN: %ptxas -arch=sm_90a -v %t.m64.ptx -o %t.m64.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// NVVM-LABEL: llvm.func @fp8_scaled_matmul_4096x7168x7168_e4m3_e4m3_bf16_t128x128s4tma(
// NVVM-SAME: stages = 4, consumers = 2, tma_store = true>
// NVVM: nvvm.cp.async.bulk.wait_group 0 {read}
// NVVM-NEXT: }
// NVVM-NEXT: nvvm.barrier id
// NVVM-COUNT-8: nvvm.stmatrix {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// NVVM-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// NVVM-NEXT: nvvm.barrier id
// NVVM-COUNT-2: nvvm.cp.async.bulk.tensor.global.shared.cta %arg4,
// NVVM-NEXT: nvvm.cp.async.bulk.commit.group
// NVVM: arith.cmpi uge
// NVVM: nvvm.cp.async.bulk.wait_group 0 {read}
// NVVM-LABEL: llvm.func @fp8_scaled_matmul_dynx7168x2112_e4m3_e4m3_f32_t128x128s4tma(
// NVVM: nvvm.cp.async.bulk.wait_group 0 {read}
// NVVM-COUNT-32: llvm.store {{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// NVVM: nvvm.fence.proxy
// NVVM-COUNT-4: nvvm.cp.async.bulk.tensor.global.shared.cta %arg4,
// NVVM-NEXT: nvvm.cp.async.bulk.commit.group
// NVVM: nvvm.cp.async.bulk.wait_group 0 {read}
// The launchers: D's map (bf16: 64 x 64 elements; f32: 64 x 32) in D's place.
// NVVM: nvgpu.tma.create.descriptor %{{.*}} box[%c64, %c64] : memref<*xbf16> -> <tensor = memref<64x64xbf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
// NVVM: nvgpu.tma.create.descriptor %{{.*}} box[%c64, %c32] : memref<*xf32> -> <tensor = memref<64x32xf32, 3>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>

// PTX-LABEL: .entry fp8_scaled_matmul_4096x7168x7168_e4m3_e4m3_bf16_t128x128s4tma(
// PTX: cp.async.bulk.wait_group.read 0;
// PTX-NOT: stmatrix
// PTX: bar.sync
// PTX-COUNT-8: stmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-NEXT: fence.proxy.async.shared::cta;
// PTX-NEXT: bar.sync
// PTX-COUNT-2: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// PTX-NEXT: cp.async.bulk.commit_group;
// PTX: cp.async.bulk.wait_group.read 0;
// PTX-LABEL: .entry fp8_scaled_matmul_dynx7168x2112_e4m3_e4m3_f32_t128x128s4tma(
// PTX: cp.async.bulk.wait_group.read 0;
// PTX-COUNT-32: st.shared.v2.b32
// PTX-NEXT: fence.proxy.async.shared::cta;
// PTX-COUNT-4: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// PTX-NEXT: cp.async.bulk.commit_group;
// PTX: cp.async.bulk.wait_group.read 0;

// Two kernels per PTX (bf16 with a static M, f32 with a run-time M), each
// without stack, spills or warnings.
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}
// PTXAS-COUNT-2: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|[1-9][0-9]* bytes spill}}

func.func @gemms(%a: !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>,
                 %b: !fp8.scaled<7168x7168xf8E4M3FN, block = [128, 128], scale = f32>,
                 %x: !fp8.scaled<?x2112xf8E4M3FN, block = [1, 128], scale = f32>,
                 %w: !fp8.scaled<7168x2112xf8E4M3FN, block = [128, 128], scale = f32>)
    -> (tensor<4096x7168xbf16>, tensor<?x7168xf32>) {
  %d = fp8.scaled_matmul %a, %b : !fp8.scaled<4096x7168xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x7168xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<4096x7168xbf16>
  %e = fp8.scaled_matmul %x, %w : !fp8.scaled<?x2112xf8E4M3FN, block = [1, 128], scale = f32>,
    !fp8.scaled<7168x2112xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<?x7168xf32>
  return %d, %e : tensor<4096x7168xbf16>, tensor<?x7168xf32>
}
