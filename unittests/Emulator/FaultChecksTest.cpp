//===- FaultChecksTest.cpp - each fault check of the emulator trips -------===//
//
// The emulator's fault checks are what certifies a kernel: a check that
// never fires on a faulty kernel (weakened alignment, a flipped sign, a
// field read from the wrong bits) leaves every GEMM test green. So each
// check of lib/Emulator (the interpreter, Memory.cpp, the launch) gets a
// small hand-written NVVM/LLVM-dialect kernel that trips it, with the
// report asserted, and, where a boundary decides, a kernel just inside it
// that passes. The list of checks is in docs/gpu-kernel.md ("Fault checks").
//
// Kernel frame: @k(%g: a 4096-byte global buffer, %map: a tensor map of
// u8 [64 rows, 64 columns] over %g with box {64, 1}, no swizzle), 2048
// bytes of dynamic shared memory at %s (0x400), %tid, and i32 constants
// %c0, %c1, %c8, %c64, %c128.
//
//===----------------------------------------------------------------------===//
#include "KernelFrame.h"
#include "fp8/Emulator/Emulator.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace mlir;
using namespace mlir::fp8::emu;

namespace {

constexpr uint32_t kBufferBytes = 4096, kSharedBytes = 2048;

struct Launch {
  uint32_t block = 1;
  uint32_t mapRows = 64; // rows the tensor map describes (64 fit %g)
  int64_t mapOffset = 0; // added to the map pointer argument
  int64_t extraArgs = 0; // arguments beyond the two (launch check)
  uint32_t grid = 1;
  uint32_t sharedBytes = kSharedBytes;
  std::string kernel = "k";
  Options options;
  TensorMapSwizzle swizzle = TensorMapSwizzle::None; // of %map
};

std::string frame(const std::string &body) {
  return emutest::kernelModuleText("faults", "%g: !llvm.ptr, %map: !llvm.ptr",
                                   256,
                                   R"(    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c8 = arith.constant 8 : i32
    %c64 = arith.constant 64 : i32
    %c128 = arith.constant 128 : i32
)" + body + R"(
    llvm.return)");
}

/// Runs @k with `body` under `l`; the fault report, or "" when it passed
/// (or "parse error" / the translation's error).
std::string run(const std::string &body, Launch l = Launch()) {
  emutest::TranslatedKernels t = emutest::translateKernels(frame(body));
  if (!t.kernels)
    return t.error;
  KernelModule *km = t.kernels.get();
  Device dev;
  uint64_t g = dev.alloc(kBufferBytes), map = dev.alloc(256);
  std::vector<uint8_t> pattern(kBufferBytes);
  for (uint32_t i = 0; i < kBufferBytes; ++i)
    pattern[i] = static_cast<uint8_t>(i * 7 + 1);
  dev.write(g, pattern.data(), kBufferBytes);
  TensorMap tm;
  uint64_t mapDims[2] = {64, l.mapRows}, strides[1] = {64};
  uint32_t box[2] = {64, 1};
  EXPECT_EQ(encodeTensorMapTiled(tm, 1, 2, g, mapDims, strides, box, nullptr,
                                 l.swizzle),
            "");
  dev.write(map, &tm, sizeof(tm));
  std::vector<KernelArg> args = {g, map + l.mapOffset};
  args.resize(args.size() + l.extraArgs, 0);
  LaunchDims dims;
  dims.grid = l.grid;
  dims.block = l.block;
  dims.dynamicSharedBytes = l.sharedBytes;
  LaunchResult r = km->launch(l.kernel, dev, dims, args, l.options);
  return r.ok ? "" : r.report;
}

#define EXPECT_REPORT(report, text)                                            \
  do {                                                                         \
    std::string r_ = (report);                                                 \
    EXPECT_NE(r_.find(text), std::string::npos)                                \
        << "expected: " << (text) << "\nreport: " << r_;                       \
  } while (0)

//===----------------------------------------------------------------------===//
// Memory: alignment, bounds, uninitialised shared memory
//===----------------------------------------------------------------------===//

std::string loadAt(int64_t offset, const char *type) {
  return "    %p = llvm.getelementptr %g[" + std::to_string(offset) +
         "] : (!llvm.ptr) -> !llvm.ptr, i8\n    %v = llvm.load %p : "
         "!llvm.ptr -> " +
         type + "\n";
}

TEST(EmulatorFaults, MisalignedAccesses) {
  // An access of n <= 16 bytes must be n-byte aligned (a 16-byte vector
  // needs 16, not 4 or 8).
  EXPECT_EQ(run(loadAt(8, "vector<2xf32>")), "");
  EXPECT_REPORT(run(loadAt(4, "vector<2xf32>")),
                "misaligned load of 8 bytes at 0x");
  EXPECT_EQ(run(loadAt(16, "vector<4xf32>")), "");
  EXPECT_REPORT(run(loadAt(8, "vector<4xf32>")),
                "misaligned load of 16 bytes at 0x");
  EXPECT_REPORT(run(loadAt(2, "i32")), "misaligned load of 4 bytes at 0x");
  EXPECT_REPORT(run(R"(
    %p = llvm.getelementptr %g[12] : (!llvm.ptr) -> !llvm.ptr, i8
    %z = llvm.mlir.zero : vector<2xf32>
    llvm.store %z, %p : vector<2xf32>, !llvm.ptr)"),
                "misaligned store of 8 bytes at 0x");
}

TEST(EmulatorFaults, GlobalBounds) {
  EXPECT_EQ(run(loadAt(kBufferBytes - 4, "i32")), "");
  EXPECT_REPORT(run(loadAt(kBufferBytes, "i32")),
                "out-of-bounds global-memory load of 4 bytes at");
  EXPECT_REPORT(run(loadAt(kBufferBytes, "vector<2xi32>")),
                "out-of-bounds global-memory load of 8 bytes at");
}

std::string sharedStore(int64_t offset) {
  return "    %q = llvm.getelementptr %s[" + std::to_string(offset) +
         "] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8\n    llvm.store %c1, %q : "
         "i32, !llvm.ptr<3>\n";
}

TEST(EmulatorFaults, SharedBounds) {
  EXPECT_EQ(run(sharedStore(kSharedBytes - 4)), "");
  EXPECT_REPORT(run(sharedStore(kSharedBytes)),
                "out-of-bounds shared-memory store of 4 bytes at 0xc00 "
                "(shared memory of this launch: [0x400, 0xc00))");
  EXPECT_REPORT(run(R"(
    %q = llvm.getelementptr %s[-4] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %v = llvm.load %q : !llvm.ptr<3> -> i32)"),
                "out-of-bounds shared-memory load of 4 bytes at 0x3fc");
  // The access's last byte decides, not its first: with 2044 bytes of
  // shared memory ([0x400, 0xbfc)) an aligned 8-byte store at 0xbf8 runs
  // 4 bytes past the end, an i32 there fits.
  Launch short2044;
  short2044.sharedBytes = kSharedBytes - 4;
  EXPECT_EQ(run(sharedStore(kSharedBytes - 8), short2044), "");
  EXPECT_REPORT(run(R"(
    %q = llvm.getelementptr %s[2040] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %z = llvm.mlir.zero : vector<2xi32>
    llvm.store %z, %q : vector<2xi32>, !llvm.ptr<3>)",
                    short2044),
                "out-of-bounds shared-memory store of 8 bytes at 0xbf8 "
                "(shared memory of this launch: [0x400, 0xbfc))");
}

TEST(EmulatorFaults, UninitialisedShared) {
  std::string load = R"(
    %ql = llvm.getelementptr %s[64] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %v = llvm.load %ql : !llvm.ptr<3> -> i32)";
  EXPECT_REPORT(run(load), "read of uninitialised shared memory at 0x440");
  EXPECT_EQ(run(sharedStore(64) + load), "");
  // Three of the four bytes stored: the fourth is reported.
  EXPECT_REPORT(run(R"(
    %q0 = llvm.getelementptr %s[64] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %b = arith.constant 7 : i16
    llvm.store %b, %q0 : i16, !llvm.ptr<3>
    %q2 = llvm.getelementptr %s[66] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %b8 = arith.constant 7 : i8
    llvm.store %b8, %q2 : i8, !llvm.ptr<3>)" +
                    load),
                "read of uninitialised shared memory at 0x443");
  Launch off;
  off.options.checkUninitialisedShared = false;
  EXPECT_EQ(run(load, off), "");
}

//===----------------------------------------------------------------------===//
// mbarrier: init, arrivals, transaction counts, phases, deadlock
//===----------------------------------------------------------------------===//

/// The mbarrier at %s + `offset` (%mb) initialised for `count` arrivals.
std::string initBarrier(int64_t count, int64_t offset = 0) {
  return "    %mb = llvm.getelementptr %s[" + std::to_string(offset) +
         "] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8\n    %count = "
         "arith.constant " +
         std::to_string(count) +
         " : i32\n    nvvm.mbarrier.init %mb, %count : !llvm.ptr<3>, i32\n";
}
std::string expectTx(int64_t bytes) {
  return "    %tx" + std::to_string(bytes) + " = arith.constant " +
         std::to_string(bytes) + " : i32\n    nvvm.mbarrier.arrive.expect_tx " +
         "%mb, %tx" + std::to_string(bytes) + " : !llvm.ptr<3>, i32\n";
}
/// A TMA copy of row `row` of %g (64 bytes) to %s + `dst`, signalling %mb.
std::string copyRow(int64_t dst, int64_t row, const char *map = "%map") {
  std::string d = std::to_string(dst), r = std::to_string(row);
  return "    %d" + d + " = llvm.getelementptr %s[" + d +
         "] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8\n    %d7_" + d +
         " = llvm.addrspacecast %d" + d +
         " : !llvm.ptr<3> to !llvm.ptr<7>\n    %row" + d +
         " = arith.constant " + r +
         " : i32\n    nvvm.cp.async.bulk.tensor.shared.cluster.global %d7_" +
         d + ", " + map + ", %mb, box[%c0, %row" + d +
         "] : !llvm.ptr<7>, !llvm.ptr\n";
}
const char *waitPhase0 =
    "    nvvm.mbarrier.try_wait.parity %mb, %c0, %c64 : !llvm.ptr<3>, i32, "
    "i32\n";

TEST(EmulatorFaults, MBarrierInitAndArrivals) {
  EXPECT_REPORT(run(initBarrier(1, 4)),
                "mbarrier address is not 8-byte aligned");
  EXPECT_REPORT(run(initBarrier(0)),
                "mbarrier.init count must be in 1..2^20-1");
  EXPECT_EQ(run(initBarrier((1 << 20) - 1)), "");
  EXPECT_REPORT(run(initBarrier(1 << 20)),
                "mbarrier.init count must be in 1..2^20-1");
  EXPECT_REPORT(run(R"(
    %mb = llvm.getelementptr %s[8] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    nvvm.mbarrier.arrive %mb : !llvm.ptr<3>)"),
                "mbarrier at 0x408 used before mbarrier.init");
  // One arrival expected; the second comes while the phase still waits
  // for its bytes.
  EXPECT_REPORT(run(initBarrier(1) + expectTx(64) +
                    "    nvvm.mbarrier.arrive %mb : !llvm.ptr<3>\n"),
                "arrival on an mbarrier whose current phase has no pending "
                "arrivals left (more arrivals than its init count): mbarrier "
                "0x400: phase 0 (parity 0), 0 of 1 arrivals pending, tx-count "
                "64, 0 TMA bytes in flight");
  // Re-initialised while a copy signalling it is in flight.
  EXPECT_REPORT(run(initBarrier(1) + copyRow(128, 0) +
                    "    nvvm.mbarrier.init %mb, %c1 : !llvm.ptr<3>, i32\n"),
                "mbarrier.init of an mbarrier in use");
}

TEST(EmulatorFaults, TransactionCounts) {
  EXPECT_EQ(run(initBarrier(1) + expectTx((1 << 20) - 1)), "");
  EXPECT_REPORT(run(initBarrier(1) + expectTx(1 << 20)),
                "mbarrier transaction count out of range (+-(2^20-1)): "
                "mbarrier 0x400: phase 0 (parity 0), 1 of 1 arrivals pending, "
                "tx-count 1048576");
  // expect_tx announces 32 bytes, the copy delivers 64.
  EXPECT_REPORT(
      run(initBarrier(1) + expectTx(32) + copyRow(128, 0) + waitPhase0),
      "TMA copies delivered 32 bytes more than expect_tx announced "
      "for the current phase (transaction count overflow)");
  // expect_tx announces one copy, two are issued: the phase completes when
  // the first lands while the second is in flight (whichever lands first,
  // in every landing mode).
  for (CopyLanding mode :
       {CopyLanding::Seeded, CopyLanding::Late, CopyLanding::Prompt}) {
    Launch l;
    l.options.copies = mode;
    EXPECT_REPORT(run(initBarrier(1) + expectTx(64) + copyRow(128, 0) +
                          copyRow(256, 1) + waitPhase0,
                      l),
                  "mbarrier phase completed while 64 bytes of TMA copies "
                  "signalling it are still in flight: expect_tx announced "
                  "fewer bytes than the copies deliver");
    // Announced right, the same two copies complete the phase.
    EXPECT_EQ(run(initBarrier(1) + expectTx(128) + copyRow(128, 0) +
                      copyRow(256, 1) + waitPhase0,
                  l),
              "");
  }
}

TEST(EmulatorFaults, CopiesLandLate) {
  // A thread reads a copy's destination without waiting on the mbarrier,
  // after a loop long enough for a promptly landing copy to be there
  // (each scheduler step lands one with probability 1/4): only copies that
  // land late, after everything the threads can do, expose the missing
  // wait. Late: always a fault; prompt: the race is certified; seeded:
  // some of the seeds make the copy late.
  std::string body = initBarrier(1) + expectTx(64) + copyRow(128, 0) + R"(
    %n = arith.constant 200 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
    }
    %ql = llvm.getelementptr %s[128] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %v = llvm.load %ql : !llvm.ptr<3> -> i32
)" + waitPhase0;
  Launch l;
  l.options.maxQuantum = 1;
  l.options.copies = CopyLanding::Late;
  EXPECT_REPORT(run(body, l), "read of uninitialised shared memory at 0x480");
  l.options.copies = CopyLanding::Prompt;
  EXPECT_EQ(run(body, l), "");
  l.options.copies = CopyLanding::Seeded;
  int faults = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    l.options.seed = seed;
    faults += !run(body, l).empty();
  }
  EXPECT_GT(faults, 0) << "no seed landed the copy late";
  EXPECT_LT(faults, 8) << "every seed landed the copy late";
}

TEST(EmulatorFaults, Deadlock) {
  EXPECT_REPORT(run(initBarrier(1) + waitPhase0),
                "deadlock: every live thread of the CTA is blocked and no "
                "TMA copy is in flight");
  EXPECT_REPORT(run(initBarrier(1) + waitPhase0),
                "waiting for parity 0 of mbarrier 0x400: phase 0 (parity 0), "
                "1 of 1 arrivals pending");
  EXPECT_REPORT(run(initBarrier(1) + expectTx(64) + waitPhase0),
                "expect_tx: 64 announced bytes never arrived");
  // Waiting for the parity before phase 0 returns at once.
  EXPECT_EQ(run(initBarrier(1) +
                "    nvvm.mbarrier.try_wait.parity %mb, %c1, %c64 : "
                "!llvm.ptr<3>, i32, i32\n"),
            "");
}

//===----------------------------------------------------------------------===//
// TMA and prefetch.tensormap
//===----------------------------------------------------------------------===//

TEST(EmulatorFaults, TmaOperands) {
  std::string copy =
      initBarrier(1) + expectTx(64) + copyRow(128, 0) + waitPhase0;
  EXPECT_EQ(run(copy), "");
  Launch l;
  l.mapOffset = 16;
  EXPECT_REPORT(run(copy, l),
                "TMA: the tensor map address is not 64-byte aligned");
  l.mapOffset = 256;
  EXPECT_REPORT(run(copy, l), "is not inside a device allocation");
  EXPECT_REPORT(run(initBarrier(1) + copyRow(128, 0, "%g") + waitPhase0),
                "does not point to an encoded tensor map");
  EXPECT_REPORT(run(initBarrier(1) + R"(
    %d = llvm.getelementptr %s[128] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %d7 = llvm.addrspacecast %d : !llvm.ptr<3> to !llvm.ptr<7>
    nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %map, %mb, box[%c0] : !llvm.ptr<7>, !llvm.ptr
)"),
                "TMA: 1 coordinates for a tensor map of rank 2");
  EXPECT_REPORT(run(initBarrier(1) + copyRow(64, 0)),
                "TMA: shared-memory destination 0x440 is not 128-byte "
                "aligned");
  // A 128B-swizzled box starts on its pattern's 1024-byte boundary (PTX ISA,
  // tensor copy with swizzle modes): 0x800 is one, 0x480 only 128-aligned.
  Launch swizzled;
  swizzled.swizzle = TensorMapSwizzle::B128;
  EXPECT_EQ(run(initBarrier(1) + expectTx(64) + copyRow(1024, 0) + waitPhase0,
                swizzled),
            "");
  EXPECT_REPORT(run(initBarrier(1) + copyRow(128, 0), swizzled),
                "TMA: shared-memory destination 0x480 is not 1024-byte "
                "aligned");
  EXPECT_REPORT(run(initBarrier(1) + copyRow(kSharedBytes, 0)),
                "out-of-bounds shared-memory TMA destination of 64 bytes at "
                "0xc00");
  // A map describing more rows than its buffer holds: the copy of row 100
  // reads past the allocation.
  l = Launch();
  l.mapRows = 128;
  EXPECT_EQ(
      run(initBarrier(1) + expectTx(64) + copyRow(128, 63) + waitPhase0, l),
      "");
  EXPECT_REPORT(
      run(initBarrier(1) + expectTx(64) + copyRow(128, 100) + waitPhase0, l),
      "TMA: the tensor map's global memory");
}

TEST(EmulatorFaults, TmaDataAndZeroFill) {
  // Row 2 of %g lands at 0x480 (its byte 0 is %g[128] = 128 * 7 + 1 mod
  // 256 = 129); row -1 is outside the map, zero filled (at 0x500). The
  // kernel checks both and divides by zero when one differs.
  std::string body = initBarrier(1) + expectTx(128) + copyRow(128, 2) +
                     copyRow(256, -1) + waitPhase0 + R"(
    %a = llvm.getelementptr %s[128] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %va = llvm.load %a : !llvm.ptr<3> -> i8
    %b = llvm.getelementptr %s[319] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %vb = llvm.load %b : !llvm.ptr<3> -> i8
    %wa = arith.constant -127 : i8
    %z8 = arith.constant 0 : i8
    %oka = arith.cmpi eq, %va, %wa : i8
    %okb = arith.cmpi eq, %vb, %z8 : i8
    %ok = arith.andi %oka, %okb : i1
    %one = arith.extui %ok : i1 to i32
    %q = arith.divui %c1, %one : i32)";
  EXPECT_EQ(run(body), "");
  EXPECT_REPORT(run(body + R"(
    %q2 = arith.divsi %c1, %c0 : i32)"),
                "integer division by zero");
}

TEST(EmulatorFaults, PrefetchTensorMap) {
  std::string prefetch = "    nvvm.prefetch tensormap, %map : !llvm.ptr\n";
  EXPECT_EQ(run(prefetch), "");
  Launch l;
  l.mapOffset = 32;
  EXPECT_REPORT(run(prefetch, l),
                "prefetch.tensormap: the address is not 64-byte aligned");
  EXPECT_REPORT(run("    nvvm.prefetch tensormap, %g : !llvm.ptr\n"),
                "does not point to an encoded tensor map");
}

//===----------------------------------------------------------------------===//
// Collectives: barrier0, warp and warpgroup collectives
//===----------------------------------------------------------------------===//

TEST(EmulatorFaults, Collectives) {
  Launch two;
  two.block = 2;
  EXPECT_REPORT(run(R"(
    %is0 = arith.cmpi eq, %tid, %c0 : i32
    scf.if %is0 {
      nvvm.barrier0
    } else {
      nvvm.barrier0
    })",
                    two),
                "barrier0: threads arrive at different instructions "
                "(divergent .sync.aligned collective)");
  Launch warp;
  warp.block = 32;
  std::string shfl = R"(
    %m = arith.constant MASK : i32
    %c31 = arith.constant 31 : i32
    %v = nvvm.shfl.sync bfly %m, %tid, %c1, %c31 : i32 -> i32)";
  auto withMask = [&](const std::string &text, const char *mask) {
    std::string s = text;
    s.replace(s.find("MASK"), 4, mask);
    return s;
  };
  EXPECT_EQ(run(withMask(shfl, "-1"), warp), "");
  EXPECT_REPORT(run(withMask(shfl, "65535"), warp),
                "shfl.sync with a partial member mask is not modelled");
  std::string sync = "    %m = arith.constant MASK : i32\n    "
                     "nvvm.bar.warp.sync %m : i32\n";
  EXPECT_EQ(run(withMask(sync, "-1"), warp), "");
  EXPECT_REPORT(run(withMask(sync, "65535"), warp),
                "bar.warp.sync with a partial member mask is not modelled");
  // Half of a warpgroup exits, the other half (released by barrier0 once
  // the first half is gone) reaches a warpgroup collective.
  Launch wg;
  wg.block = 128;
  EXPECT_REPORT(run(R"(
    %lo = arith.cmpi ult, %tid, %c64 : i32
    cf.cond_br %lo, ^stay, ^leave
  ^leave:
    llvm.return
  ^stay:
    nvvm.barrier0
    nvvm.wgmma.fence.aligned)",
                    wg),
                "warpgroup collective (.sync.aligned) reached after threads "
                "of the warpgroup exited");
}

//===----------------------------------------------------------------------===//
// wgmma: descriptors, pending reads, result ordering
//===----------------------------------------------------------------------===//

/// A 64 x 8 x 32 wgmma over zero-filled shared memory: descriptor A =
/// B = `desc`; `beforeWait` runs between the commit and the wait.
std::string wgmma(const std::string &desc, const std::string &beforeWait = "",
                  const std::string &afterWait = "") {
  return R"(
    %c16 = arith.constant 16 : i32
    %off = arith.muli %tid, %c16 : i32
    %q = llvm.getelementptr %s[%off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    %z = llvm.mlir.zero : vector<4xi32>
    llvm.store %z, %q : vector<4xi32>, !llvm.ptr<3>
    nvvm.barrier0
    %tid64 = arith.extui %tid : i32 to i64
    %da = arith.constant )" +
         desc + R"( : i64
    %acc = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
    nvvm.wgmma.fence.aligned
    %r = nvvm.wgmma.mma_async %da, %da, %acc, <m = 64, n = 8, k = 32>, D[<f32>, <zero>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
    nvvm.wgmma.commit.group.sync.aligned
)" + beforeWait +
         "\n    nvvm.wgmma.wait.group.sync.aligned 0\n" + afterWait;
}

// Start 0x400, LBO 128, SBO 256 (>> 4 in bits 0-13, 16-29, 32-45), no
// swizzle: the 64 rows of A cover [0x400, 0xc00).
constexpr uint64_t kDesc = 0x40 | (8ull << 16) | (16ull << 32);

TEST(EmulatorFaults, WgmmaDescriptors) {
  Launch wg;
  wg.block = 128;
  EXPECT_EQ(run(wgmma(std::to_string(kDesc)), wg), "");
  // Bits 49-51: the base offset, which the emulator does not model; the
  // report gives the field's value as decoded.
  EXPECT_REPORT(run(wgmma(std::to_string(kDesc | (5ull << 49))), wg),
                "wgmma.mma_async: descriptor A has a non-zero base offset (5 "
                "in bits 49-51), which the emulator does not model");
  EXPECT_REPORT(run(wgmma(std::to_string(kDesc | (1ull << 51))), wg),
                "non-zero base offset (4 in bits 49-51)");
  // Bits 46-48 and 52-61 are not the base offset.
  EXPECT_EQ(run(wgmma(std::to_string(kDesc | (7ull << 46) | (1ull << 52))), wg),
            "");
  // Start 0x1000: past the launch's shared memory.
  EXPECT_REPORT(
      run(wgmma(std::to_string(0x100 | (8ull << 16) | (16ull << 32))), wg),
      "reads outside shared memory at 0x1000");
  // A descriptor that differs per thread.
  std::string perThread = wgmma(std::to_string(kDesc));
  perThread.replace(perThread.find("%r = nvvm.wgmma.mma_async %da, %da"),
                    std::strlen("%r = nvvm.wgmma.mma_async %da, %da"),
                    "%dt = arith.addi %da, %tid64 : i64\n    %r = "
                    "nvvm.wgmma.mma_async %dt, %da");
  EXPECT_REPORT(run(perThread, wg),
                "the matrix descriptors differ between the threads of the "
                "warpgroup");
}

TEST(EmulatorFaults, WgmmaOrdering) {
  Launch wg;
  wg.block = 128;
  std::string d = std::to_string(kDesc);
  const char *read =
      "    %e = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32, f32, f32)>\n"
      "    %f = arith.addf %e, %e : f32\n";
  EXPECT_EQ(run(wgmma(d, "", read), wg), "");
  EXPECT_REPORT(run(wgmma(d, read), wg),
                "reads the result of a wgmma.mma_async before a "
                "wgmma.wait_group covering it (commit group 0 of the "
                "warpgroup; groups below 0 are complete)");
  // A store into shared memory the uncompleted wgmma reads.
  EXPECT_REPORT(run(wgmma(d, "    llvm.store %c1, %q : i32, !llvm.ptr<3>"), wg),
                "a store writes shared memory [0x");
  EXPECT_REPORT(run(wgmma(d, "    llvm.store %c1, %q : i32, !llvm.ptr<3>"), wg),
                "that a wgmma.mma_async of warpgroup 0 still reads ([0x400, "
                "0xc00), not yet covered by a wgmma.wait_group)");
  EXPECT_EQ(run(wgmma(d, "", "    llvm.store %c1, %q : i32, !llvm.ptr<3>"), wg),
            "");
}

// A TMA copy that lands in shared memory an uncompleted wgmma reads is a
// fault wherever the two ranges overlap, also when the copy starts below
// the range the wgmma reads (a producer refilling a whole A slot while a
// second consumer warpgroup's wgmma still reads the slot's upper rows).
// Start 0x490 (0x49 in bits 0-13): A's 64 rows cover [0x490, 0xc90) of a
// 4096-byte launch; thread 0 copies row 0 of %g (64 bytes) to [0x480,
// 0x4c0) and waits for it to land before the wgmma.wait_group.
TEST(EmulatorFaults, WgmmaReadOverlappedByACopyFromBelow) {
  Launch wg;
  wg.block = 128;
  wg.sharedBytes = 4096;
  wg.options.checkUninitialisedShared = false; // [0xc00, 0xc90): not stored
  std::string d = std::to_string(0x49 | (8ull << 16) | (16ull << 32));
  std::string copy = "    %is0 = arith.cmpi eq, %tid, %c0 : i32\n"
                     "    scf.if %is0 {\n" +
                     initBarrier(1, 3072) + expectTx(64) + copyRow(128, 0) +
                     waitPhase0 + "    }\n";
  EXPECT_REPORT(run(wgmma(d, copy), wg),
                "a TMA copy (cp.async.bulk.tensor) completing now writes "
                "shared memory [0x480, 0x4c0) that a wgmma.mma_async of "
                "warpgroup 0 still reads ([0x490, 0x");
  // The same copy after the wgmma.wait_group.
  EXPECT_EQ(run(wgmma(d, "", copy), wg), "");
}

//===----------------------------------------------------------------------===//
// Arithmetic faults and integer semantics
//===----------------------------------------------------------------------===//

TEST(EmulatorFaults, ArithmeticFaults) {
  EXPECT_REPORT(run("    %q = arith.divui %c1, %c0 : i32\n"),
                "integer division by zero");
  EXPECT_REPORT(run("    %q = arith.remsi %c1, %c0 : i32\n"),
                "integer division by zero");
  auto toInt = [](const char *value, const char *op, const char *type) {
    return std::string("    %f = arith.constant ") + value +
           " : f32\n    %i = arith." + op + " %f : f32 to " + type + "\n";
  };
  EXPECT_EQ(run(toInt("2147483520.0", "fptosi", "i32")), "");
  EXPECT_REPORT(run(toInt("2147483648.0", "fptosi", "i32")),
                "float-to-integer conversion out of range");
  EXPECT_EQ(run(toInt("-2147483648.0", "fptosi", "i32")), "");
  EXPECT_REPORT(run(toInt("-1.0", "fptoui", "i32")),
                "float-to-integer conversion out of range");
  EXPECT_REPORT(run(toInt("0x7FC00000", "fptosi", "i32")),
                "float-to-integer conversion out of range");
  std::string vec = R"(
    %v = llvm.mlir.zero : vector<2xf32>
    %pos = arith.constant POS : i32
)";
  auto at = [&](const char *pos, const char *op) {
    std::string s = vec;
    s.replace(s.find("POS"), 3, pos);
    return s + op;
  };
  const char *extract = "    %e = llvm.extractelement %v[%pos : i32] : "
                        "vector<2xf32>\n";
  const char *insert = "    %f1 = arith.constant 1.0 : f32\n    %w = "
                       "llvm.insertelement %f1, %v[%pos : i32] : "
                       "vector<2xf32>\n";
  EXPECT_EQ(run(at("1", extract)), "");
  EXPECT_REPORT(run(at("2", extract)), "extractelement position out of range");
  EXPECT_REPORT(run(at("-1", extract)), "extractelement position out of range");
  EXPECT_EQ(run(at("1", insert)), "");
  EXPECT_REPORT(run(at("2", insert)), "insertelement position out of range");
  // The instruction limit: a loop of 100 iterations under a limit of 50.
  Launch limited;
  limited.options.maxInstructions = 50;
  std::string loop = R"(
    %n = arith.constant 100 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
    })";
  EXPECT_EQ(run(loop), "");
  EXPECT_REPORT(run(loop, limited), "instruction limit reached");
}

/// A kernel that divides by zero unless `a pred b` (of `type`) is
/// `expected`: the comparison's value decides the run.
std::string checkCmp(const std::string &type, int64_t a, int64_t b,
                     const std::string &pred, bool expected, int &n) {
  std::string i = std::to_string(n++);
  return "    %a" + i + " = arith.constant " + std::to_string(a) + " : " +
         type + "\n    %b" + i + " = arith.constant " + std::to_string(b) +
         " : " + type + "\n    %r" + i + " = arith.cmpi " + pred + ", %a" + i +
         ", %b" + i + " : " + type + "\n    %w" + i + " = arith.constant " +
         (expected ? "true" : "false") + "\n    %k" + i +
         " = arith.cmpi eq, %r" + i + ", %w" + i + " : i1\n    %u" + i +
         " = arith.extui %k" + i + " : i1 to i32\n    %q" + i +
         " = arith.divui %c1, %u" + i + " : i32\n";
}

TEST(EmulatorSemantics, IntegerCompares) {
  // Hand-derived: the unsigned predicates see -1 (i32) as 2^32 - 1 and
  // -128 (i8) as 128; the signed ones as negative.
  const char *preds[] = {"eq",  "ne",  "slt", "sle", "sgt",
                         "sge", "ult", "ule", "ugt", "uge"};
  struct Case {
    const char *type;
    int64_t a, b;
    bool want[10];
  } cases[] = {
      {"i32", -1, 1, {0, 1, 1, 1, 0, 0, 0, 0, 1, 1}},
      {"i32", 1, -1, {0, 1, 0, 0, 1, 1, 1, 1, 0, 0}},
      {"i8", -128, 127, {0, 1, 1, 1, 0, 0, 0, 0, 1, 1}},
      {"i64", 5, 5, {1, 0, 0, 1, 0, 1, 0, 1, 0, 1}},
      {"i32", 2, 3, {0, 1, 1, 1, 0, 0, 1, 1, 0, 0}},
  };
  int n = 0;
  std::string body;
  for (const Case &c : cases)
    for (int p = 0; p < 10; ++p)
      body += checkCmp(c.type, c.a, c.b, preds[p], c.want[p], n);
  EXPECT_EQ(run(body), "");
  // The check can fail: one wrong expectation divides by zero.
  EXPECT_REPORT(run(body + checkCmp("i32", -1, 1, "ult", true, n)),
                "integer division by zero");
}

TEST(EmulatorSemantics, IntegerMinMaxShifts) {
  // minui/maxui compare unsigned, minsi/maxsi signed, shrsi fills with
  // the sign, shrui with zeros (values hand-derived at i32).
  int n = 100;
  std::string body;
  auto op = [&](const char *name, int64_t a, int64_t b, int64_t want) {
    std::string i = std::to_string(n++);
    body += "    %x" + i + " = arith.constant " + std::to_string(a) +
            " : i32\n    %y" + i + " = arith.constant " + std::to_string(b) +
            " : i32\n    %v" + i + " = arith." + name + " %x" + i + ", %y" + i +
            " : i32\n    %e" + i + " = arith.constant " + std::to_string(want) +
            " : i32\n    %k" + i + " = arith.cmpi eq, %v" + i + ", %e" + i +
            " : i32\n    %u" + i + " = arith.extui %k" + i +
            " : i1 to i32\n    %q" + i + " = arith.divui %c1, %u" + i +
            " : i32\n";
  };
  op("minui", -1, 1, 1);
  op("maxui", -1, 1, -1);
  op("minsi", -1, 1, -1);
  op("maxsi", -1, 1, 1);
  op("shrsi", -8, 1, -4);
  op("shrui", -8, 1, 0x7FFFFFFC);
  op("divsi", -7, 2, -3);
  op("remsi", -7, 2, -1);
  op("divui", -8, 2, 0x7FFFFFFC);
  EXPECT_EQ(run(body), "");
  op("minui", -1, 1, -1);
  EXPECT_REPORT(run(body), "integer division by zero");
}

TEST(EmulatorSemantics, NaNEncodings) {
  // NVIDIA's canonical NaNs (docs/numerics.md, "NaN encodings"): every f32
  // arithmetic result that is NaN is 0x7FFFFFFF, whatever NaN (payload,
  // sign) went in or none did (Inf - Inf, Inf * 0, 0 / 0); cvt.rn.bf16.f32
  // and cvt.rn.f16.f32 give 0x7FFF and cvt.f32.f16 0x7FFFFFFF for any NaN
  // (cuda_bf16.hpp / cuda_fp16.hpp); moves and selects keep every bit, and
  // bf16 -> f32 is a shift. x86 would give 0x7FC00001 | sign (the first
  // NaN operand, quieted) or 0xFFC00000. Values written as bit patterns.
  int n = 200;
  std::string body;
  // `op` on operands of `type` (bits a, b, c; "" for an absent one), its
  // result of `resType` bitcast to `intType` and compared with `want`.
  auto check = [&](const std::string &op, const std::string &type,
                   const std::string &resType, const std::string &intType,
                   std::vector<std::string> in, const std::string &want) {
    std::string i = std::to_string(n++), args;
    for (size_t j = 0; j < in.size(); ++j) {
      std::string v = "%x" + i + "_" + std::to_string(j);
      body += "    " + v + " = arith.constant " + in[j] + " : " + type + "\n";
      args += (j ? ", " : "") + v;
    }
    std::string sig = op.find("truncf") != std::string::npos ||
                              op.find("extf") != std::string::npos
                          ? " : " + type + " to " + resType
                          : " : " + resType;
    body += "    %v" + i + " = " + op + " " + args + sig + "\n    %b" + i +
            " = arith.bitcast %v" + i + " : " + resType + " to " + intType +
            "\n    %e" + i + " = arith.constant " + want + " : " + intType +
            "\n    %k" + i + " = arith.cmpi eq, %b" + i + ", %e" + i + " : " +
            intType + "\n    %u" + i + " = arith.extui %k" + i +
            " : i1 to i32\n    %q" + i + " = arith.divui %c1, %u" + i +
            " : i32\n";
  };
  auto f32op = [&](const std::string &op, std::vector<std::string> in,
                   const std::string &want) {
    check(op, "f32", "f32", "i32", std::move(in), want);
  };
  const std::string one = "0x3F800000", inf = "0x7F800000", ninf = "0xFF800000",
                    nan1 = "0x7FC00001", nnan = "0xFFC00000",
                    canon = "0x7FFFFFFF";
  f32op("arith.addf", {nan1, one}, canon);
  f32op("arith.addf", {inf, ninf}, canon);
  f32op("arith.addf", {one, one}, "0x40000000"); // 2.0: non-NaN unchanged
  f32op("arith.subf", {nnan, one}, canon);
  f32op("arith.mulf", {inf, "0x00000000"}, canon);
  f32op("arith.mulf", {one, nan1}, canon);
  f32op("arith.divf", {"0x00000000", "0x00000000"}, canon);
  f32op("math.fma", {nan1, one, one}, canon);
  f32op("math.fma", {inf, "0x00000000", one}, canon);
  f32op("math.fma", {one, one, nnan}, canon);
  f32op("arith.maximumf", {one, nnan}, canon);
  f32op("arith.minimumf", {nan1, one}, canon);
  f32op("arith.maxnumf", {nan1, one}, one); // max.f32: the number
  f32op("arith.maxnumf", {nnan, nan1}, canon);
  f32op("arith.minnumf", {nan1, nnan}, canon);
  check("arith.truncf", "f32", "bf16", "i16", {nnan}, "0x7FFF");
  check("arith.truncf", "f32", "bf16", "i16", {nan1}, "0x7FFF");
  check("arith.truncf", "f32", "bf16", "i16", {"0x3F818000"}, "0x3F82");
  check("arith.truncf", "f32", "f16", "i16", {nnan}, "0x7FFF");
  check("arith.truncf", "f32", "f16", "i16", {one}, "0x3C00");
  check("arith.extf", "f16", "f32", "i32", {"0xFE01"}, canon);
  check("arith.extf", "bf16", "f32", "i32", {"0xFFC1"}, "0xFFC10000");
  body += "    %t = arith.constant true\n";
  f32op("arith.select %t,", {nan1, one}, nan1);
  EXPECT_EQ(run(body), "");
  // The check can fail: an x86 result expected.
  f32op("arith.addf", {nnan, one}, nnan);
  EXPECT_REPORT(run(body), "integer division by zero");
}

//===----------------------------------------------------------------------===//
// The launch and the tensor map encoding
//===----------------------------------------------------------------------===//

TEST(EmulatorFaults, LaunchChecks) {
  Launch l;
  l.kernel = "nope";
  EXPECT_REPORT(run("", l), "launch of 'nope': no such kernel in the module");
  l = Launch();
  l.extraArgs = 1;
  EXPECT_REPORT(run("", l), "expected 2 arguments, got 3");
  l = Launch();
  l.grid = 0;
  EXPECT_REPORT(run("", l),
                "grid and block must be positive, block at most 1024");
  l = Launch();
  l.block = 1025;
  EXPECT_REPORT(run("", l),
                "grid and block must be positive, block at most 1024");
  l = Launch();
  l.block = 256;
  EXPECT_EQ(run("", l), "");
  l.block = 257;
  EXPECT_REPORT(run("", l),
                "block of 257 threads exceeds the kernel's maxntid 256");
  l = Launch();
  l.sharedBytes = 227 * 1024;
  EXPECT_EQ(run("", l), "");
  l.sharedBytes = 227 * 1024 + 1;
  EXPECT_REPORT(run("", l), "shared memory of 232449 bytes (0 static, 232449 "
                            "dynamic) exceeds the sm_90 limit of 232448");
}

TEST(EmulatorFaults, TensorMapEncoding) {
  TensorMap m;
  uint64_t dims[3] = {64, 64, 2}, strides[2] = {64, 4096};
  uint32_t box[3] = {64, 1, 1}, estr[3] = {1, 1, 1};
  auto encode = [&](uint32_t eb, uint32_t rank, uint64_t addr,
                    TensorMapSwizzle sw = TensorMapSwizzle::None) {
    return encodeTensorMapTiled(m, eb, rank, addr, dims, strides, box, estr,
                                sw);
  };
  EXPECT_EQ(encode(1, 2, 0x1000), "");
  EXPECT_EQ(encode(3, 2, 0x1000), "element size must be 1, 2, 4 or 8 bytes");
  EXPECT_EQ(encode(1, 6, 0x1000), "rank must be 1..5");
  EXPECT_EQ(encode(1, 0, 0x1000), "rank must be 1..5");
  EXPECT_EQ(encode(1, 2, 0x1008), "globalAddress must be 16-byte aligned");
  dims[1] = 0;
  EXPECT_EQ(encode(1, 2, 0x1000), "globalDim[1] must be in 1..2^32");
  dims[1] = 64;
  box[1] = 257;
  EXPECT_EQ(encode(1, 2, 0x1000), "boxDim[1] must be in 1..256");
  box[1] = 256;
  EXPECT_EQ(encode(1, 2, 0x1000), "");
  box[1] = 1;
  estr[1] = 2;
  EXPECT_EQ(encode(1, 2, 0x1000),
            "elementStrides other than 1 are not modelled");
  estr[1] = 1;
  strides[0] = 72;
  EXPECT_EQ(encode(1, 2, 0x1000),
            "globalStrides[0] must be a multiple of 16 below 2^40");
  strides[0] = 64;
  box[0] = 24;
  EXPECT_EQ(encode(1, 2, 0x1000),
            "boxDim[0] * element size must be a multiple of 16 bytes");
  box[0] = 64;
  EXPECT_EQ(encode(1, 2, 0x1000, TensorMapSwizzle::B32),
            "the inner box dimension (64 bytes) exceeds the swizzle span (32 "
            "bytes)");
  EXPECT_EQ(encode(1, 2, 0x1000, TensorMapSwizzle::B64), "");
  EXPECT_EQ(encode(1, 2, 0x1000, static_cast<TensorMapSwizzle>(4)),
            "unknown swizzle mode");
}

} // namespace
