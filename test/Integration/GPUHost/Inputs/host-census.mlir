// Input of host-census-script.test: the IR host_census.py reads, as
// fp8-outline-host-kernels prints it (the census reads text; nothing here
// runs). Two host kernels, three launches, one launcher call.
module {
  gpu.module @fp8_host_kernels {
    gpu.func @step_fill(%arg0: memref<3x5xf32>) kernel {
      gpu.return
    }
    gpu.func @step_row_sum(%arg0: memref<4x8xbf16>, %arg1: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c3 = arith.constant 3 : index
      scf.for %i = %c0 to %c8 step %c3 {
        scf.yield
      }
      gpu.return
    }
  }
  func.func @step(%a: memref<3x5xf32>, %b: memref<4x8xbf16>, %c: memref<4xf32>, %q: memref<2x3xf8E4M3FN>, %s: memref<2xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func  @fp8_host_kernels::@step_fill blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)  args(%a : memref<3x5xf32>)
    gpu.launch_func  @fp8_host_kernels::@step_fill blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)  args(%a : memref<3x5xf32>)
    gpu.launch_func  @fp8_host_kernels::@step_row_sum blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1)  args(%b : memref<4x8xbf16>, %c : memref<4xf32>)
    call @fp8_launch_fp8_quantize_2x3(%s, %q, %s) : (memref<2xf32>, memref<2x3xf8E4M3FN>, memref<2xf32>) -> ()
    return
  }
}
