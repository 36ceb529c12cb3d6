// Input of host-census-script.test: the IR host_census.py reads, as
// fp8-outline-host-kernels prints it (the census reads text; nothing here
// runs). Four host kernels, five launches, one launcher call. The gather
// kernel reads its tables at an index computed from a loaded id (through a
// cast and the clamp fp8-guard-gathers writes), in a loop of 2 trips. The
// column-sum kernel (a workgroup buffer, loads before its barriers, like a
// tiled transpose's staging) has a loop of 2 trips.
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
    gpu.func @step_gather(%arg0: memref<4xi64>, %arg1: memref<4x2xf32>, %arg2: memref<100x2xf32>, %arg3: memref<3x2xbf16>, %arg4: memref<8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c100 = arith.constant 100 : index
      %tid = gpu.thread_id  x
      %id = memref.load %arg0[%tid] : memref<4xi64>
      %i = arith.index_cast %id : i64 to index
      %ok = arith.cmpi ult, %i, %c100 : index
      %row = arith.select %ok, %i, %c0 : index
      %small = arith.remui %i, %c3 : index
      %slot = arith.remui %i, %c8 : index
      scf.for %j = %c0 to %c2 step %c1 {
        %x = memref.load %arg2[%row, %j] : memref<100x2xf32>
        %y = memref.load %arg3[%small, %j] : memref<3x2xbf16>
        %a = memref.load %arg4[%slot] : memref<8xf32>
        %s = arith.addf %a, %x : f32
        memref.store %s, %arg4[%slot] : memref<8xf32>
        memref.store %x, %arg1[%tid, %j] : memref<4x2xf32>
      }
      gpu.return
    }
    gpu.func @step_generic_column_sum(%arg0: memref<70x13xf32>, %arg1: memref<13xf32>) workgroup(%arg2 : memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %tid = gpu.thread_id  x
      %z = arith.constant -0.0 : f32
      %p = scf.for %j = %c0 to %c2 step %c1 iter_args(%acc = %z) -> (f32) {
        %x = memref.load %arg0[%j, %c0] : memref<70x13xf32>
        %s = arith.addf %acc, %x : f32
        scf.yield %s : f32
      }
      memref.store %p, %arg2[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %h = memref.load %arg2[%c1] : memref<256xf32, #gpu.address_space<workgroup>>
      %r = arith.addf %p, %h : f32
      memref.store %r, %arg1[%c0] : memref<13xf32>
      gpu.return
    }
  }
  func.func @step(%a: memref<3x5xf32>, %b: memref<4x8xbf16>, %c: memref<4xf32>, %q: memref<2x3xf8E4M3FN>, %s: memref<2xf32>, %ids: memref<4xi64>, %out: memref<4x2xf32>, %table: memref<100x2xf32>, %small: memref<3x2xbf16>, %acc: memref<8xf32>, %x: memref<70x13xf32>, %w: memref<13xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func  @fp8_host_kernels::@step_fill blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)  args(%a : memref<3x5xf32>)
    gpu.launch_func  @fp8_host_kernels::@step_fill blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)  args(%a : memref<3x5xf32>)
    gpu.launch_func  @fp8_host_kernels::@step_row_sum blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1)  args(%b : memref<4x8xbf16>, %c : memref<4xf32>)
    gpu.launch_func  @fp8_host_kernels::@step_gather blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)  args(%ids : memref<4xi64>, %out : memref<4x2xf32>, %table : memref<100x2xf32>, %small : memref<3x2xbf16>, %acc : memref<8xf32>)
    %c256 = arith.constant 256 : index
    gpu.launch_func  @fp8_host_kernels::@step_generic_column_sum blocks in (%c2, %c1, %c1) threads in (%c256, %c1, %c1)  args(%x : memref<70x13xf32>, %w : memref<13xf32>)
    call @fp8_launch_fp8_quantize_2x3(%s, %q, %s) : (memref<2xf32>, memref<2x3xf8E4M3FN>, memref<2xf32>) -> ()
    return
  }
}
