// TMA stores (cp.async.bulk.tensor shared::cta -> global, what nvgpu's
// tma.async.store lowers to), their bulk async-groups and stmatrix, against
// layouts derived by hand from the PTX ISA.
//
// @store: 32 threads write an 8x8 f32 box (element (r, c) = 100 r + c),
// fence.proxy.async, and thread 0 stores it at TMA coordinates (innermost
// first) [8, 0] into a 5x12 f32 tensor (a view of rows 0..4 of an 8x12
// buffer of -1), then commit_group and wait_group.read 0. The box covers
// rows 0..7, columns 8..15: only rows 0..4, columns 8..11 are inside the
// tensor, so (by hand) global[0][8] = 0, global[3][10] = 302,
// global[4][11] = 403; global[4][7] (left of the box), global[1][0] (where
// row 0's columns 12.. would land: clipped) and buffer row 5 column 9 (below
// the tensor: clipped) stay -1.
// RUN: fp8-emu-run %s --entry=store | FileCheck %s --check-prefix=STORE
// RUN: env FP8_EMU_SEED=3 FP8_EMU_SCHEDULE=lockstep fp8-emu-run %s --entry=store | FileCheck %s --check-prefix=STORE
// STORE: 0
// STORE-NEXT: 302
// STORE-NEXT: 403
// STORE-NEXT: -1
// STORE-NEXT: -1
// STORE-NEXT: -1
//
// @swizzled: an 8x32 f32 box with the 128-byte swizzle: element (r, c) at
// byte r * 128 + ((c / 4) xor r) * 16 + (c % 4) * 4 of the 1024-byte
// aligned staging buffer (the 16-byte chunk c / 4 of row r at chunk
// (c / 4) xor (r % 8)), stored at [0, 0] of an 8x32 tensor; read through
// the swizzle, global[r][c] = 100 r + c: global[5][9] = 509 (without the
// swizzle 5 * 128 + 36 holds chunk 9/4 xor 5 = 7's element: 529),
// global[7][30] = 730, global[2][4] = 204.
// RUN: fp8-emu-run %s --entry=swizzled | FileCheck %s --check-prefix=SWIZZLED
// SWIZZLED: 509
// SWIZZLED-NEXT: 730
// SWIZZLED-NEXT: 204
//
// The staging buffer written again after the store with no wait_group.read
// (a barrier between is not enough: the store may read later), the kernel
// ending with the store not waited for, and no fence.proxy.async between
// the threads' stores and the TMA store: each a fault, whatever the
// schedule.
// RUN: not fp8-emu-run %s --entry=reuse_without_wait 2>&1 | FileCheck %s --check-prefix=REUSE
// RUN: env FP8_EMU_SEED=5 FP8_EMU_SCHEDULE=lockstep not fp8-emu-run %s --entry=reuse_without_wait 2>&1 | FileCheck %s --check-prefix=REUSE
// REUSE: fp8-emu: error: a store writes shared memory [0x{{[0-9a-f]+}}, 0x{{[0-9a-f]+}}) that a TMA store (cp.async.bulk.tensor) of thread 0 may still read ([0x{{[0-9a-f]+}}, 0x{{[0-9a-f]+}}), its bulk async-group not yet covered by a cp.async.bulk.wait_group.read)
// REUSE-NEXT: the store: loc({{.*}}): 'nvvm.cp.async.bulk.tensor.global.shared.cta'
// RUN: not fp8-emu-run %s --entry=exit_without_wait 2>&1 | FileCheck %s --check-prefix=EXIT
// EXIT: fp8-emu: error: thread exits while its TMA store (cp.async.bulk.tensor) may still read shared memory [0x{{[0-9a-f]+}}, 0x{{[0-9a-f]+}}): no cp.async.bulk.wait_group.read covered its bulk async-group
// RUN: not fp8-emu-run %s --entry=no_fence 2>&1 | FileCheck %s --check-prefix=FENCE
// FENCE: fp8-emu: error: TMA store reads shared memory at 0x{{[0-9a-f]+}} that thread {{[0-9]+}} stored with no fence.proxy.async since (the async proxy may not see the store)
//
// wait_group.read 1 with two committed groups: the older store's source may
// be written again, the newer's may not.
// RUN: not fp8-emu-run %s --entry=wait_older 2>&1 | FileCheck %s --check-prefix=OLDER
// OLDER: older reused
// OLDER-NEXT: fp8-emu: error: a store writes shared memory {{.*}} that a TMA store (cp.async.bulk.tensor) of thread 0 may still read
//
// @stmatrix: lane L's source register i holds matrix i's fragment
// (rows L / 4, columns 2 (L % 4) and + 1, the low half first) with element
// (r, c) = 64 i + 8 r + c. x4 with lane L's address at row slot 31 - L
// (16 bytes each): slot s holds matrix (31 - s) / 8's row (31 - s) % 8, so
// element 0 (slot 0: matrix 3, row 7) = 248, element 13 (slot 1: matrix 3,
// row 6, column 5) = 245, element 200 (slot 25: matrix 0, row 6) = 48.
// x2.trans with lane L's address at slot L (L < 16): slot L holds column
// L % 8 of matrix L / 8, so element 8 L + k = 64 (L / 8) + 8 k + L % 8:
// element 29 (L = 3, k = 5) = 43, element 97 (L = 12, k = 1) = 76.
// RUN: fp8-emu-run %s --entry=stmatrix | FileCheck %s --check-prefix=STMATRIX
// RUN: env FP8_EMU_SEED=9 FP8_EMU_SCHEDULE=lockstep fp8-emu-run %s --entry=stmatrix | FileCheck %s --check-prefix=STMATRIX
// STMATRIX: x4 248 245 48
// STMATRIX-NEXT: trans 43 76

!map = !nvgpu.tensormap.descriptor<tensor = memref<8x8xf32, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!map128 = !nvgpu.tensormap.descriptor<tensor = memref<8x32xf32, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>

module {
  memref.global "private" @box : memref<8x8xf32, 3> {alignment = 128 : i64}
  memref.global "private" @box2 : memref<8x8xf32, 3> {alignment = 128 : i64}
  memref.global "private" @sbox : memref<8x32xf32, 3> {alignment = 1024 : i64}
  memref.global "private" @mats : memref<256xi16, 3> {alignment = 128 : i64}
  memref.global "private" @tmats : memref<128xi16, 3> {alignment = 128 : i64}

  // Modes: 0 store and wait; 1 write the staging buffer again after a
  // barrier, no wait; 2 no fence.proxy.async; 3 no wait before the exit;
  // 4 two stores (two groups), wait_group.read 1, write the older buffer,
  // then the newer one.
  func.func @run(%mode: i32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c96 = arith.constant 96 : index
    %m1 = arith.constant -1.0 : f32
    %h = memref.alloc() : memref<96xf32>
    scf.for %i = %c0 to %c96 step %c1 {
      memref.store %m1, %h[%i] : memref<96xf32>
    }
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<96xf32>
    %t2 = gpu.memcpy async [%t1] %d, %h : memref<96xf32>, memref<96xf32>
    gpu.wait [%t2]
    %d2 = memref.reinterpret_cast %d to offset: [0], sizes: [5, 12], strides: [12, 1] : memref<96xf32> to memref<5x12xf32>
    %u = memref.cast %d2 : memref<5x12xf32> to memref<*xf32>
    %map = nvgpu.tma.create.descriptor %u box[%c8, %c8] : memref<*xf32> -> !map
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %k0 = arith.constant 0 : index
      %k8 = arith.constant 8 : index
      %k32 = arith.constant 32 : index
      %k100 = arith.constant 100 : index
      %i1 = arith.constant 1 : i32
      %i2 = arith.constant 2 : i32
      %i3 = arith.constant 3 : i32
      %i4 = arith.constant 4 : i32
      %true = arith.constant true
      %buf = memref.get_global @box : memref<8x8xf32, 3>
      %buf2 = memref.get_global @box2 : memref<8x8xf32, 3>
      // Elements tx and tx + 32 of the 64: (r, c) = (e / 8, e % 8), value
      // 100 r + c.
      %eb = arith.addi %tx, %k32 : index
      %ra = arith.divui %tx, %k8 : index
      %ca = arith.remui %tx, %k8 : index
      %rb = arith.divui %eb, %k8 : index
      %cb = arith.remui %eb, %k8 : index
      %ra100 = arith.muli %ra, %k100 : index
      %na = arith.addi %ra100, %ca : index
      %nai = arith.index_cast %na : index to i32
      %va = arith.sitofp %nai : i32 to f32
      %rb100 = arith.muli %rb, %k100 : index
      %nb = arith.addi %rb100, %cb : index
      %nbi = arith.index_cast %nb : index to i32
      %vb = arith.sitofp %nbi : i32 to f32
      memref.store %va, %buf[%ra, %ca] : memref<8x8xf32, 3>
      memref.store %vb, %buf[%rb, %cb] : memref<8x8xf32, 3>
      memref.store %va, %buf2[%ra, %ca] : memref<8x8xf32, 3>
      memref.store %vb, %buf2[%rb, %cb] : memref<8x8xf32, 3>
      %fence = arith.cmpi ne, %mode, %i2 : i32
      scf.if %fence {
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      }
      gpu.barrier
      %t0i = arith.cmpi eq, %tx, %k0 : index
      %two = arith.cmpi eq, %mode, %i4 : i32
      scf.if %t0i {
        nvgpu.tma.async.store %buf to %map[%k8, %k0] : memref<8x8xf32, 3> -> !map
        nvvm.cp.async.bulk.commit.group
        scf.if %two {
          nvgpu.tma.async.store %buf2 to %map[%k8, %k0] : memref<8x8xf32, 3> -> !map
          nvvm.cp.async.bulk.commit.group
          nvvm.cp.async.bulk.wait_group 1 {read}
        }
        %w1 = arith.cmpi ne, %mode, %i1 : i32
        %w3 = arith.cmpi ne, %mode, %i3 : i32
        %w13 = arith.andi %w1, %w3 : i1
        %nt = arith.xori %two, %true : i1
        %wait = arith.andi %w13, %nt : i1
        scf.if %wait {
          nvvm.cp.async.bulk.wait_group 0 {read}
        }
      }
      gpu.barrier
      %reuse = arith.cmpi eq, %mode, %i1 : i32
      %t8i = arith.cmpi eq, %tx, %k8 : index
      %reuse8 = arith.andi %reuse, %t8i : i1
      scf.if %reuse8 {
        memref.store %va, %buf[%k0, %k0] : memref<8x8xf32, 3>
      }
      // Thread 0 (the store's) does not exit before thread 8's write.
      gpu.barrier
      %two0 = arith.andi %two, %t0i : i1
      scf.if %two0 {
        memref.store %va, %buf[%k0, %k0] : memref<8x8xf32, 3>
        gpu.printf "older reused\n"
        memref.store %va, %buf2[%k0, %k0] : memref<8x8xf32, 3>
        nvvm.cp.async.bulk.wait_group 0 {read}
      }
      gpu.terminator
    }
    %t4 = gpu.wait async
    %t3 = gpu.memcpy async [%t4] %h, %d : memref<96xf32>, memref<96xf32>
    gpu.wait [%t3]
    // Buffer indices 12 r + c: [0][8], [3][10], [4][11], [4][7], [1][0],
    // [5][9].
    %i08 = arith.constant 8 : index
    %i310 = arith.constant 46 : index
    %i411 = arith.constant 59 : index
    %i47 = arith.constant 55 : index
    %i10 = arith.constant 12 : index
    %i59 = arith.constant 69 : index
    %g08 = memref.load %h[%i08] : memref<96xf32>
    %g310 = memref.load %h[%i310] : memref<96xf32>
    %g411 = memref.load %h[%i411] : memref<96xf32>
    %g47 = memref.load %h[%i47] : memref<96xf32>
    %g10 = memref.load %h[%i10] : memref<96xf32>
    %g59 = memref.load %h[%i59] : memref<96xf32>
    vector.print %g08 : f32
    vector.print %g310 : f32
    vector.print %g411 : f32
    vector.print %g47 : f32
    vector.print %g10 : f32
    vector.print %g59 : f32
    return
  }

  func.func @store() {
    %m = arith.constant 0 : i32
    call @run(%m) : (i32) -> ()
    return
  }
  func.func @reuse_without_wait() {
    %m = arith.constant 1 : i32
    call @run(%m) : (i32) -> ()
    return
  }
  func.func @no_fence() {
    %m = arith.constant 2 : i32
    call @run(%m) : (i32) -> ()
    return
  }
  func.func @exit_without_wait() {
    %m = arith.constant 3 : i32
    call @run(%m) : (i32) -> ()
    return
  }
  func.func @wait_older() {
    %m = arith.constant 4 : i32
    call @run(%m) : (i32) -> ()
    return
  }

  func.func @swizzled() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c256 = arith.constant 256 : index
    %m1 = arith.constant -1.0 : f32
    %h = memref.alloc() : memref<256xf32>
    scf.for %i = %c0 to %c256 step %c1 {
      memref.store %m1, %h[%i] : memref<256xf32>
    }
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<256xf32>
    %t2 = gpu.memcpy async [%t1] %d, %h : memref<256xf32>, memref<256xf32>
    gpu.wait [%t2]
    %d2 = memref.reinterpret_cast %d to offset: [0], sizes: [8, 32], strides: [32, 1] : memref<256xf32> to memref<8x32xf32>
    %u = memref.cast %d2 : memref<8x32xf32> to memref<*xf32>
    %map = nvgpu.tma.create.descriptor %u box[%c8, %c32] : memref<*xf32> -> !map128
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %k4 = arith.constant 4 : index
      %k8 = arith.constant 8 : index
      %k32 = arith.constant 32 : index
      %k100 = arith.constant 100 : index
      %buf = memref.get_global @sbox : memref<8x32xf32, 3>
      // Thread tx writes row tx / 4, columns 8 (tx % 4) .. + 7 at their
      // swizzled places: column c at (c / 4 xor r) * 4 + c % 4.
      %r = arith.divui %tx, %k4 : index
      %q = arith.remui %tx, %k4 : index
      %c0q = arith.muli %q, %k8 : index
      %c1q = arith.addi %c0q, %k8 : index
      scf.for %c = %c0q to %c1q step %k1 {
        %chunk = arith.divui %c, %k4 : index
        %within = arith.remui %c, %k4 : index
        %sw = arith.xori %chunk, %r : index
        %sw4 = arith.muli %sw, %k4 : index
        %pc = arith.addi %sw4, %within : index
        %r100 = arith.muli %r, %k100 : index
        %n = arith.addi %r100, %c : index
        %ni = arith.index_cast %n : index to i32
        %v = arith.sitofp %ni : i32 to f32
        memref.store %v, %buf[%r, %pc] : memref<8x32xf32, 3>
      }
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %t0i = arith.cmpi eq, %tx, %k0 : index
      scf.if %t0i {
        nvgpu.tma.async.store %buf to %map[%k0, %k0] : memref<8x32xf32, 3> -> !map128
        nvvm.cp.async.bulk.commit.group
        nvvm.cp.async.bulk.wait_group 0 {read}
      }
      gpu.terminator
    }
    %t4 = gpu.wait async
    %t3 = gpu.memcpy async [%t4] %h, %d : memref<256xf32>, memref<256xf32>
    gpu.wait [%t3]
    // Indices 32 r + c: [5][9], [7][30], [2][4].
    %i59 = arith.constant 169 : index
    %i730 = arith.constant 254 : index
    %i24 = arith.constant 68 : index
    %g59 = memref.load %h[%i59] : memref<256xf32>
    %g730 = memref.load %h[%i730] : memref<256xf32>
    %g24 = memref.load %h[%i24] : memref<256xf32>
    vector.print %g59 : f32
    vector.print %g730 : f32
    vector.print %g24 : f32
    return
  }

  func.func @stmatrix() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %k0 = arith.constant 0 : index
      %i1 = arith.constant 1 : i32
      %i2 = arith.constant 2 : i32
      %i4 = arith.constant 4 : i32
      %i8 = arith.constant 8 : i32
      %i16 = arith.constant 16 : i32
      %i31 = arith.constant 31 : i32
      %i64 = arith.constant 64 : i32
      %lane = arith.index_cast %tx : index to i32
      // Matrix i's word of lane L: lo = 64 i + 8 (L / 4) + 2 (L % 4),
      // hi = lo + 1.
      %row = arith.divui %lane, %i4 : i32
      %pair = arith.remui %lane, %i4 : i32
      %row8 = arith.muli %row, %i8 : i32
      %pair2 = arith.muli %pair, %i2 : i32
      %lo0 = arith.addi %row8, %pair2 : i32
      %hi0 = arith.addi %lo0, %i1 : i32
      %hs0 = arith.shli %hi0, %i16 : i32
      %w0 = arith.ori %hs0, %lo0 : i32
      // + 64 i to both halves: + (64 i) * 0x10001.
      %step = arith.constant 4194368 : i32
      %w1 = arith.addi %w0, %step : i32
      %w2 = arith.addi %w1, %step : i32
      %w3 = arith.addi %w2, %step : i32
      %mats = memref.get_global @mats : memref<256xi16, 3>
      %tmats = memref.get_global @tmats : memref<128xi16, 3>
      %mi = memref.extract_aligned_pointer_as_index %mats : memref<256xi16, 3> -> index
      %ml = arith.index_cast %mi : index to i32
      %slot = arith.subi %i31, %lane : i32
      %slot16 = arith.muli %slot, %i16 : i32
      %ma = arith.addi %ml, %slot16 : i32
      %ma64 = arith.extui %ma : i32 to i64
      %mp = llvm.inttoptr %ma64 : i64 to !llvm.ptr<3>
      nvvm.stmatrix %mp, %w0, %w1, %w2, %w3 {layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>} : !llvm.ptr<3>, i32, i32, i32, i32
      %ti = memref.extract_aligned_pointer_as_index %tmats : memref<128xi16, 3> -> index
      %tl = arith.index_cast %ti : index to i32
      %l16 = arith.remui %lane, %i16 : i32
      %tslot16 = arith.muli %l16, %i16 : i32
      %ta = arith.addi %tl, %tslot16 : i32
      %ta64 = arith.extui %ta : i32 to i64
      %tp = llvm.inttoptr %ta64 : i64 to !llvm.ptr<3>
      nvvm.stmatrix %tp, %w0, %w1 {layout = #nvvm.mma_layout<col>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>} : !llvm.ptr<3>, i32, i32
      gpu.barrier
      %t0i = arith.cmpi eq, %tx, %k0 : index
      scf.if %t0i {
        %e0 = arith.constant 0 : index
        %e13 = arith.constant 13 : index
        %e200 = arith.constant 200 : index
        %e29 = arith.constant 29 : index
        %e97 = arith.constant 97 : index
        %a = memref.load %mats[%e0] : memref<256xi16, 3>
        %b = memref.load %mats[%e13] : memref<256xi16, 3>
        %c = memref.load %mats[%e200] : memref<256xi16, 3>
        %x = memref.load %tmats[%e29] : memref<128xi16, 3>
        %y = memref.load %tmats[%e97] : memref<128xi16, 3>
        %a32 = arith.extui %a : i16 to i32
        %b32 = arith.extui %b : i16 to i32
        %cc32 = arith.extui %c : i16 to i32
        %x32 = arith.extui %x : i16 to i32
        %y32 = arith.extui %y : i16 to i32
        gpu.printf "x4 %d %d %d\n", %a32, %b32, %cc32 : i32, i32, i32
        gpu.printf "trans %d %d\n", %x32, %y32 : i32, i32
      }
      gpu.terminator
    }
    return
  }
}
