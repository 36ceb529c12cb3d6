// Transposing elementwise host kernels (fp8-outline-host-kernels,
// OutlineTiledTranspose.cpp): an input read along another innermost
// dimension than the output is written is staged through shared memory in
// 32 x 32 tiles (256 threads, 4 elements each, a gpu.barrier between the
// coalesced loads and the compute), bit-exact against fp8-cpu-pipeline on
// the emulated device, whose shared-memory checks (races, uninitialised
// reads, bounds) report nothing (a fault fails the run): tails in both
// tiled dimensions (33 x 65: 2 x 3 tiles; 3 x 40 x 70 with [0, 2, 1]:
// 3 x 2 x 3 tiles), a rank-4 permutation [1, 0, 3, 2] of 2 x 3 x 17 x 40,
// a transpose fused with elementwise ops (two transposed inputs staged, one
// read in the output's order from global memory, a bf16 result) and a bf16
// transpose, under two scheduler seeds and the lockstep schedule. The
// launches' grids are the tiles' count; ptxas takes the kernels.
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator" 2> %t.remarks | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: FileCheck %s --check-prefix=REMARK --allow-empty < %t.remarks
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so tr2d 1 f32:33x65 f32:65x33 2>&1 | FileCheck %s --check-prefix=TR2D
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so tr2d 2 f32:33x65 f32:65x33 | FileCheck %s --check-prefix=TR2D-PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so tr2d 3 f32:33x65 f32:65x33 | FileCheck %s --check-prefix=TR2D-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so tr3d 4 f32:210x40 f32:120x70 2>&1 | FileCheck %s --check-prefix=TR3D
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so tr3d 5 f32:210x40 f32:120x70 | FileCheck %s --check-prefix=TR3D-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so tr4d 6 f32:240x17 f32:102x40 2>&1 | FileCheck %s --check-prefix=TR4D
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so tr4d 7 f32:240x17 f32:102x40 | FileCheck %s --check-prefix=TR4D-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so fused 8 bf16:45x70 f32:70x45 f32:45x70 f32:70x45 2>&1 | FileCheck %s --check-prefix=FUSED
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so fused 9 bf16:45x70 f32:70x45 f32:45x70 f32:70x45 | FileCheck %s --check-prefix=FUSED-PASS
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so fused 10 bf16:45x70 f32:70x45 f32:45x70 f32:70x45 | FileCheck %s --check-prefix=FUSED-PASS
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so trbf16 11 bf16:70x40 bf16:40x70 2>&1 | FileCheck %s --check-prefix=TRBF16
// RUN: env FP8_EMU_SCHEDULE=lockstep %t.check %t.gpu.so %t.cpu.so trbf16 12 bf16:70x40 bf16:40x70 | FileCheck %s --check-prefix=TRBF16-PASS
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-gpu-pipeline="chip=sm_90a host=llvm format=isa" | fp8-translate --fp8-extract-gpu-object > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.ptx -o %t.cubin %}

// REMARK-NOT: runs on the host

// The tile in shared memory: 32 rows of 33 f32 (4224 bytes); a thread's
// four stores 8 padded rows apart (8 x 33 x 4 = 1056 bytes), the barrier,
// its four loads 8 elements apart along a padded row.
// PTX-LABEL: .visible .entry tr2d_transpose(
// PTX: .shared .align 4 .b8 __wg_tr2d_transpose_0[4224];
// PTX: st.shared.b32 [%[[ST:rd[0-9]+]]], %r{{[0-9]+}};
// PTX: st.shared.b32 [%[[ST]]+1056], %r{{[0-9]+}};
// PTX: bar.sync 0;
// PTX: ld.shared.b32 %r{{[0-9]+}}, [%[[LD:rd[0-9]+]]];
// PTX: ld.shared.b32 %r{{[0-9]+}}, [%[[LD]]+32];
// PTX-LABEL: .visible .entry fused_generic(
// PTX-COUNT-2: .shared .align 4 .b8 __wg_fused_generic_{{[01]}}[4224];
// PTX: bar.sync 0;

// 33 x 65 from 65 x 33: ceil(33 / 32) x ceil(65 / 32) = 2 x 3 tiles.
// TR2D: fp8-emu-mgpu: launch tr2d_transpose{{.*}} grid 6 block 256
// TR2D-NOT: race
// TR2D: host-check: PASS tr2d: 33x65, 2145 outputs bit-exact
// TR2D-PASS: host-check: PASS tr2d: 33x65, 2145 outputs bit-exact
// 3 x 70 x 40 from 3 x 40 x 70: 3 x ceil(70 / 32) x ceil(40 / 32) tiles.
// TR3D: fp8-emu-mgpu: launch tr3d_transpose{{.*}} grid 18 block 256
// TR3D-NOT: race
// TR3D: host-check: PASS tr3d: 210x40, 8400 outputs bit-exact
// TR3D-PASS: host-check: PASS tr3d: 210x40, 8400 outputs bit-exact
// 3 x 2 x 40 x 17 from 2 x 3 x 17 x 40: 3 x 2 x ceil(40 / 32) x 1 tiles.
// TR4D: fp8-emu-mgpu: launch tr4d_transpose{{.*}} grid 12 block 256
// TR4D-NOT: race
// TR4D: host-check: PASS tr4d: 240x17, 4080 outputs bit-exact
// TR4D-PASS: host-check: PASS tr4d: 240x17, 4080 outputs bit-exact
// 45 x 70: 2 x 3 tiles, x and z staged, y read from global memory.
// FUSED: fp8-emu-mgpu: launch fused_generic{{.*}} grid 6 block 256
// FUSED-NOT: race
// FUSED: host-check: PASS fused: 45x70, 3150 outputs bit-exact
// FUSED-PASS: host-check: PASS fused: 45x70, 3150 outputs bit-exact
// A bf16 tile (32 x 33 bf16): 70 x 40 from 40 x 70, 3 x 2 tiles.
// TRBF16: fp8-emu-mgpu: launch trbf16_transpose{{.*}} grid 6 block 256
// TRBF16-NOT: race
// TRBF16: host-check: PASS trbf16: 70x40, 2800 outputs bit-exact
// TRBF16-PASS: host-check: PASS trbf16: 70x40, 2800 outputs bit-exact

#t2 = affine_map<(d0, d1) -> (d1, d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @tr2d(%x: tensor<65x33xf32>) -> tensor<33x65xf32> attributes {llvm.emit_c_interface} {
  %e = tensor.empty() : tensor<33x65xf32>
  %t = linalg.transpose ins(%x : tensor<65x33xf32>) outs(%e : tensor<33x65xf32>) permutation = [1, 0]
  return %t : tensor<33x65xf32>
}
func.func @tr3d(%x: tensor<120x70xf32>) -> tensor<210x40xf32> attributes {llvm.emit_c_interface} {
  %x3 = tensor.expand_shape %x [[0, 1], [2]] output_shape [3, 40, 70] : tensor<120x70xf32> into tensor<3x40x70xf32>
  %e = tensor.empty() : tensor<3x70x40xf32>
  %t = linalg.transpose ins(%x3 : tensor<3x40x70xf32>) outs(%e : tensor<3x70x40xf32>) permutation = [0, 2, 1]
  %r = tensor.collapse_shape %t [[0, 1], [2]] : tensor<3x70x40xf32> into tensor<210x40xf32>
  return %r : tensor<210x40xf32>
}
func.func @tr4d(%x: tensor<102x40xf32>) -> tensor<240x17xf32> attributes {llvm.emit_c_interface} {
  %x4 = tensor.expand_shape %x [[0, 1, 2], [3]] output_shape [2, 3, 17, 40] : tensor<102x40xf32> into tensor<2x3x17x40xf32>
  %e = tensor.empty() : tensor<3x2x40x17xf32>
  %t = linalg.transpose ins(%x4 : tensor<2x3x17x40xf32>) outs(%e : tensor<3x2x40x17xf32>) permutation = [1, 0, 3, 2]
  %r = tensor.collapse_shape %t [[0, 1, 2], [3]] : tensor<3x2x40x17xf32> into tensor<240x17xf32>
  return %r : tensor<240x17xf32>
}
// bf16(x^T * y + z^T): x and z transposed (staged), y in the output's order.
func.func @fused(%x: tensor<70x45xf32>, %y: tensor<45x70xf32>, %z: tensor<70x45xf32>) -> tensor<45x70xbf16> attributes {llvm.emit_c_interface} {
  %e = tensor.empty() : tensor<45x70xbf16>
  %r = linalg.generic {indexing_maps = [#t2, #id2, #t2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y, %z : tensor<70x45xf32>, tensor<45x70xf32>, tensor<70x45xf32>) outs(%e : tensor<45x70xbf16>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: bf16):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %m, %c : f32
    %t = arith.truncf %s : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<45x70xbf16>
  return %r : tensor<45x70xbf16>
}
func.func @trbf16(%x: tensor<40x70xbf16>) -> tensor<70x40xbf16> attributes {llvm.emit_c_interface} {
  %e = tensor.empty() : tensor<70x40xbf16>
  %t = linalg.transpose ins(%x : tensor<40x70xbf16>) outs(%e : tensor<70x40xbf16>) permutation = [1, 0]
  return %t : tensor<70x40xbf16>
}
