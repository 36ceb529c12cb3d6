// A graph of two FP8 linears with a ReLU between them (bf16 activations and
// weights, f32 result), compiled once into a host program that launches
// four quantize kernels and two GEMMs (the ReLU runs on the CPU between
// them): fp8-pipeline, fp8-gpu-pipeline{host=llvm target=emulator}, LLVM IR,
// a shared library against the emulated mgpu* runtime, one call of
// _mlir_ciface_mlp (Inputs/host_check.c). The result must equal the same
// graph through fp8-cpu-pipeline (the reference lowering) bit for bit, under
// two scheduler seeds of the emulator. Tails: M = 130 (a 2-row second M
// tile), K = 272 (a 16-column last K block), N = 136 (an 8-column last N
// tile of the second GEMM).
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-gpu-pipeline="config=fixed chip=sm_90a host=llvm target=emulator" -o %t.gpu.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.gpu.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.gpu.mlir -o %t.gpu.ll
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 %t.check %t.gpu.so %t.cpu.so mlp 11 f32:130x136 bf16:130x272 bf16:256x272 bf16:136x256 2>&1 | FileCheck %s
// RUN: env FP8_EMU_SEED=7 %t.check %t.gpu.so %t.cpu.so mlp 12 f32:130x136 bf16:130x272 bf16:256x272 bf16:136x256 | FileCheck %s --check-prefix=SEED7
// The GEMM grid is min(tiles, SMs of the device the program runs on), read
// at run time (fp8_mgpu_sm_count): an emulated device of 3 SMs (an H20 or a
// MIG slice in small) gets 3 CTAs for the 4 tiles, the result still exact;
// an invalid count is an error.
// RUN: env FP8_EMU_SM_COUNT=3 FP8_EMU_TRACE=1 %t.check %t.gpu.so %t.cpu.so mlp 11 f32:130x136 bf16:130x272 bf16:256x272 bf16:136x256 2>&1 | FileCheck %s --check-prefix=SM3
// RUN: env FP8_EMU_SM_COUNT=0 not %t.check %t.gpu.so %t.cpu.so mlp 11 f32:130x136 bf16:130x272 bf16:256x272 bf16:136x256 2>&1 | FileCheck %s --check-prefix=SM0

// IR-LABEL: llvm.func @mlp(
// IR-NOT: llvm.func
// IR-COUNT-6: llvm.call @fp8_launch_
// IR: llvm.func @_mlir_ciface_mlp(

// Grids by hand: 130 rows x ceil(272/128) = 3 tiles, 8 per CTA -> 49;
// 2 x 3 weight blocks; GEMM ceil(130/128) x ceil(256/128) = 4 tiles; then
// 130 x 2 tiles -> 33; 2 x 2 weight blocks; 2 x ceil(136/128) = 4 tiles.
// CHECK: launch fp8_quantize_130x272_1x128_bf16_e4m3 grid 49 block 256 smem 0
// CHECK: launch fp8_quantize_256x272_128x128_bf16_e4m3 grid 6 block 256 smem 0
// CHECK: launch fp8_scaled_matmul_130x256x272_e4m3_e4m3_bf16 grid 4 block 384
// CHECK: launch fp8_quantize_130x256_1x128_bf16_e4m3 grid 33 block 256 smem 0
// CHECK: launch fp8_quantize_136x256_128x128_bf16_e4m3 grid 4 block 256 smem 0
// CHECK: launch fp8_scaled_matmul_130x136x256_e4m3_e4m3_f32 grid 4 block 384
// CHECK: host-check: PASS mlp: 130x136, 17680 outputs bit-exact
// SEED7: host-check: PASS mlp: 130x136, 17680 outputs bit-exact
// SM3: launch fp8_scaled_matmul_130x256x272_e4m3_e4m3_bf16 grid 3 block 384
// SM3: launch fp8_scaled_matmul_130x136x256_e4m3_e4m3_f32 grid 3 block 384
// SM3: host-check: PASS mlp: 130x136, 17680 outputs bit-exact
// SM0: fp8_mgpu_sm_count (fp8 emulator): FP8_EMU_SM_COUNT='0' is not a count of SMs (1..1024)

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @mlp(%x: tensor<130x272xbf16>, %w1: tensor<256x272xbf16>, %w2: tensor<136x256xbf16>) -> tensor<130x136xf32> attributes {llvm.emit_c_interface} {
  %zb = arith.constant 0.0 : bf16
  %zf = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<130x256xbf16>
  %f1 = linalg.fill ins(%zb : bf16) outs(%e1 : tensor<130x256xbf16>) -> tensor<130x256xbf16>
  %h = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                      affine_map<(d0, d1, d2) -> (d1, d2)>,
                                      affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%x, %w1 : tensor<130x272xbf16>, tensor<256x272xbf16>) outs(%f1 : tensor<130x256xbf16>) -> tensor<130x256xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<130x256xbf16>) outs(%e1 : tensor<130x256xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %m = arith.maximumf %in, %zb : bf16
    linalg.yield %m : bf16
  } -> tensor<130x256xbf16>
  %e2 = tensor.empty() : tensor<130x136xf32>
  %f2 = linalg.fill ins(%zf : f32) outs(%e2 : tensor<130x136xf32>) -> tensor<130x136xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                      affine_map<(d0, d1, d2) -> (d1, d2)>,
                                      affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%r, %w2 : tensor<130x256xbf16>, tensor<136x256xbf16>) outs(%f2 : tensor<130x136xf32>) -> tensor<130x136xf32>
  return %y : tensor<130x136xf32>
}
