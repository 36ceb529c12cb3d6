#!/usr/bin/env python3
"""Emits the program of dynamic-token-dimension.test: one linear layer
(x [M, 256] f32 times an nn.Linear weight [512, 256], bf16 result) written
once with a dynamic M and once per M with a static one. Both go through
fp8-pipeline (fp8.quantize + fp8.scaled_matmul) and fp8-cpu-pipeline; main()
runs the dynamic function and the static one of each M on the same hashed
inputs and prints the digests of both results (tiled_scaled_matmul_case.py's
@fill and @digest), which the test requires to be identical.

Usage: dynamic_m_case.py M [M ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tiled_scaled_matmul_case import PRELUDE  # noqa: E402

LINEAR = """func.func @linear_{name}(%x: tensor<{m}x256xf32>, %w: tensor<512x256xf32>) -> tensor<{m}x512xbf16> {{
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : bf16
  %rows = tensor.dim %x, %c0 : tensor<{m}x256xf32>
  %e = tensor.empty({dyn}) : tensor<{m}x512xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%e : tensor<{m}x512xbf16>) -> tensor<{m}x512xbf16>
  %y = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                      affine_map<(d0, d1, d2) -> (d1, d2)>,
                                      affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%x, %w : tensor<{m}x256xf32>, tensor<512x256xf32>) outs(%z : tensor<{m}x512xbf16>) -> tensor<{m}x512xbf16>
  return %y : tensor<{m}x512xbf16>
}}
"""


def main():
    ms = [int(v) for v in sys.argv[1:]]
    print(PRELUDE)
    print(LINEAR.format(name="dyn", m="?", dyn="%rows"))
    for m in ms:
        print(LINEAR.format(name=m, m=m, dyn=""))
    print("func.func @main() {")
    print("  %sx = arith.constant 1017 : i32")
    print("  %sw = arith.constant 2031 : i32")
    print("  %ew = tensor.empty() : tensor<512x256xf32>")
    print("  %dw = tensor.cast %ew : tensor<512x256xf32> to tensor<?x?xf32>")
    print("  %w0 = call @fill(%dw, %sw) : (tensor<?x?xf32>, i32) -> tensor<?x?xf32>")
    print("  %w = tensor.cast %w0 : tensor<?x?xf32> to tensor<512x256xf32>")
    for m in ms:
        print(f"  vector.print str \"M {m}\\n\"")
        print(f"  %ex{m} = tensor.empty() : tensor<{m}x256xf32>")
        print(f"  %dx{m} = tensor.cast %ex{m} : tensor<{m}x256xf32> to tensor<?x?xf32>")
        print(f"  %x{m}0 = call @fill(%dx{m}, %sx) : (tensor<?x?xf32>, i32) -> tensor<?x?xf32>")
        print(f"  %x{m} = tensor.cast %x{m}0 : tensor<?x?xf32> to tensor<{m}x256xf32>")
        print(f"  %xd{m} = tensor.cast %x{m}0 : tensor<?x?xf32> to tensor<?x256xf32>")
        print(f"  %yd{m} = call @linear_dyn(%xd{m}, %w) : (tensor<?x256xf32>, tensor<512x256xf32>) -> tensor<?x512xbf16>")
        print(f"  %ydd{m} = tensor.cast %yd{m} : tensor<?x512xbf16> to tensor<?x?xbf16>")
        print(f"  call @digest(%ydd{m}) : (tensor<?x?xbf16>) -> ()")
        print(f"  %ys{m} = call @linear_{m}(%x{m}, %w) : (tensor<{m}x256xf32>, tensor<512x256xf32>) -> tensor<{m}x512xbf16>")
        print(f"  %ysd{m} = tensor.cast %ys{m} : tensor<{m}x512xbf16> to tensor<?x?xbf16>")
        print(f"  call @digest(%ysd{m}) : (tensor<?x?xbf16>) -> ()")
    print("  return")
    print("}")


if __name__ == "__main__":
    main()
