// bf16 arithmetic in a host program (a bf16 graph's bias add and ReLU, as
// torch-mlir exports an MLP in bf16): fp8-cpu-pipeline computes each op in
// f32 and rounds back to bf16 with integer RNE code, so the object links
// without compiler-rt's __truncsfbf2 (libgcc before GCC 13 has none; the
// host program of such a graph did not link). The program runs from its
// shared object (host_check, the same library as its own oracle) with an
// expectation derived by hand: (x + x) * 0.5 is x, bit for bit (`=in1`:
// both steps are exact in bf16 for host_check's inputs, -0 included). The rounding's ties: Integration/CPU/bf16-arithmetic.mlir.
//
// REQUIRES: clang
// RUN: fp8-opt %s --fp8-cpu-pipeline | FileCheck %s --check-prefix=IR
// RUN: fp8-opt %s --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: %t.check %t.cpu.so %t.cpu.so keep 1 bf16:4x16=in1 bf16:4x16 | FileCheck %s --check-prefix=KEEP

// No bf16 arithmetic reaches LLVM (its x86 lowering calls __truncsfbf2).
// IR-LABEL: llvm.func @keep
// IR-NOT: llvm.{{(fadd|fmul|fptrunc|fpext)}}{{.*}}bf16
// IR-LABEL: llvm.func @_mlir_ciface_keep

// KEEP: host-check: PASS keep: 4x16, 64 outputs bit-exact

#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @keep(%x: tensor<4x16xbf16>) -> tensor<4x16xbf16> attributes {llvm.emit_c_interface} {
  %half = arith.constant 0.5 : bf16
  %e = tensor.empty() : tensor<4x16xbf16>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x16xbf16>) outs(%e : tensor<4x16xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %d = arith.addf %a, %a : bf16
    %s = arith.mulf %d, %half : bf16
    linalg.yield %s : bf16
  } -> tensor<4x16xbf16>
  return %y : tensor<4x16xbf16>
}
