//===- SchedulingTest.cpp - the emulator's schedules and race check -------===//
//
// Two properties that no kernel's result shows while it is correct:
// - The lockstep schedule (Options::lockstep) keeps every thread in step:
//   the runnable threads each run one instruction per round, also when
//   another thread blocks or exits in the middle of a round, and the CTAs of
//   a cluster take whole rounds in turn. Observable through a racy read
//   continued past: a load in the instruction after a store sees the stores
//   every other thread issued at that point, and nothing older.
// - The shared-memory race check reports every pair of accesses of two
//   threads to one byte with no barrier between them of which one is a
//   store (a store after another thread's store or load, a load after
//   another thread's store), whichever order the schedule runs them in:
//   each kernel runs under many seeds and the lockstep schedule.
// Expected values are derived by hand from the kernels below.
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

constexpr uint32_t kBufferBytes = 4096, kSharedBytes = 1024;

/// The module of one kernel @k(%g: a 4096-byte zeroed global buffer) with
/// `body`, after %tid (tid.x), %s (its dynamic shared memory, at 0x400) and
/// the i32 constants %c0, %c1, %c3, %c4, %c7, %c32.
std::string kernel(const std::string &body) {
  return emutest::kernelModuleText("sched", "%g: !llvm.ptr", 64,
                                   R"(    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %c7 = arith.constant 7 : i32
    %c32 = arith.constant 32 : i32
)" + body);
}

struct Outcome {
  std::string report;         // "" when the launch passed
  std::vector<int32_t> words; // the global buffer
};

/// Runs @k with `body` once under each of `options` (one translation).
std::vector<Outcome> launchEach(const std::string &body,
                                const std::vector<Options> &options,
                                uint32_t block = 8, uint32_t cluster = 1) {
  emutest::TranslatedKernels t = emutest::translateKernels(kernel(body));
  if (!t.kernels)
    return std::vector<Outcome>(options.size(), {t.error, {}});
  KernelModule *km = t.kernels.get();
  LaunchDims dims;
  dims.grid = cluster;
  dims.clusterX = cluster;
  dims.block = block;
  dims.dynamicSharedBytes = kSharedBytes;
  std::vector<Outcome> all;
  for (const Options &o : options) {
    Device dev;
    uint64_t g = dev.alloc(kBufferBytes);
    LaunchResult r = km->launch("k", dev, dims, {g}, o);
    Outcome out;
    out.report = r.ok ? "" : r.report;
    out.words.resize(kBufferBytes / 4);
    EXPECT_TRUE(dev.read(g, out.words.data(), kBufferBytes));
    all.push_back(out);
  }
  return all;
}

Outcome launch(const std::string &body, const Options &options,
               uint32_t block = 8, uint32_t cluster = 1) {
  return launchEach(body, {options}, block, cluster).front();
}

Options lockstep() {
  Options o;
  o.lockstep = true;
  o.continueOnFault = true; // the racy reads go on
  return o;
}

/// The eight words thread `t` wrote at g + 32 t.
std::vector<int32_t> row(const Outcome &r, uint32_t t) {
  return std::vector<int32_t>(r.words.begin() + 8 * t,
                              r.words.begin() + 8 * t + 8);
}

//===----------------------------------------------------------------------===//
// Lockstep: every thread in step when another blocks or exits
//===----------------------------------------------------------------------===//

/// Eight threads, straight-line code (one instruction each per round):
/// thread t stores 100 + t into shared word t and every thread initialises
/// the mbarrier at %s + 64 for 7 arrivals (no arrival yet: no fault). Then
/// thread 3 runs `third` while the others, in the same round, store t into
/// word t and, in the next round, load words 0..7 (one vector load) into
/// g[8 t .. 8 t + 7], then arrive on the mbarrier.
std::string inStep(const std::string &third) {
  return R"(
    %off = arith.muli %tid, %c4 : i32
    %mine = llvm.getelementptr %s[%off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    %c100 = arith.constant 100 : i32
    %init = arith.addi %tid, %c100 : i32
    llvm.store %init, %mine : i32, !llvm.ptr<3>
    %mb = llvm.getelementptr %s[64] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    nvvm.mbarrier.init %mb, %c7 : !llvm.ptr<3>, i32
    %at = arith.muli %tid, %c32 : i32
    %out = llvm.getelementptr %g[%at] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    %is3 = arith.cmpi eq, %tid, %c3 : i32
    cf.cond_br %is3, ^third, ^rest
  ^third:
)" + third +
         R"(
    llvm.return
  ^rest:
    llvm.store %tid, %mine : i32, !llvm.ptr<3>
    %seen = llvm.load %s : !llvm.ptr<3> -> vector<8xi32>
    llvm.store %seen, %out : vector<8xi32>, !llvm.ptr
    nvvm.mbarrier.arrive %mb : !llvm.ptr<3>
    llvm.return)";
}

void expectInStep(const Outcome &r) {
  // The loads race with the stores of the round before (continued past).
  EXPECT_NE(r.report.find("shared-memory race"), std::string::npos) << r.report;
  // In step, every live thread's store precedes every load; thread 3's
  // word keeps its 103.
  const std::vector<int32_t> all = {0, 1, 2, 103, 4, 5, 6, 7};
  for (uint32_t t = 0; t < 8; ++t)
    EXPECT_EQ(row(r, t), t == 3 ? std::vector<int32_t>(8, 0) : all)
        << "thread " << t;
}

TEST(EmulatorSchedule, LockstepInStepWhenAThreadExits) {
  // Thread 3 exits in the round of the others' stores.
  expectInStep(launch(inStep(""), lockstep()));
}

TEST(EmulatorSchedule, LockstepInStepWhenAThreadBlocks) {
  // Thread 3 blocks on the mbarrier in the round of the others' stores;
  // their seven arrivals release it after their loads.
  expectInStep(
      launch(inStep("    %c64 = arith.constant 64 : i32\n"
                    "    nvvm.mbarrier.try_wait.parity %mb, %c0, %c64 : "
                    "!llvm.ptr<3>, i32, i32"),
             lockstep()));
}

TEST(EmulatorSchedule, LockstepClusterInStepWhenAThreadExits) {
  // A cluster of two CTAs of 8 threads: thread t of rank r stores
  // 1000 r + 100 + t into its word t; barrier.cluster; thread 3 of rank 0
  // exits, the others run 64 iterations of a 3-instruction loop, store
  // 1000 r + t into word t and, in the next round, load the peer's words
  // 0..7 into g[8 (8 r + t) ..]. In step (whole rounds in turn, whatever the
  // number of runnable threads of each CTA), every load sees the peer's
  // stores: rank 0 reads 1000..1007, rank 1 reads 0, 1, 2, 103, 4..7.
  Outcome r = launch(R"(
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %off = arith.muli %tid, %c4 : i32
    %mine = llvm.getelementptr %s[%off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    %c100 = arith.constant 100 : i32
    %c1000 = arith.constant 1000 : i32
    %base = arith.muli %rank, %c1000 : i32
    %v = arith.addi %base, %tid : i32
    %init = arith.addi %v, %c100 : i32
    llvm.store %init, %mine : i32, !llvm.ptr<3>
    nvvm.cluster.arrive {aligned}
    nvvm.cluster.wait {aligned}
    %peer = arith.xori %rank, %c1 : i32
    %theirs = nvvm.mapa %s, %peer : !llvm.ptr<3> -> !llvm.ptr<7>
    %c8 = arith.constant 8 : i32
    %c64 = arith.constant 64 : i32
    %r8 = arith.muli %rank, %c8 : i32
    %lin = arith.addi %r8, %tid : i32
    %at = arith.muli %lin, %c32 : i32
    %out = llvm.getelementptr %g[%at] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    %is3 = arith.cmpi eq, %lin, %c3 : i32
    cf.cond_br %is3, ^quit, ^pad(%c0 : i32)
  ^quit:
    llvm.return
  ^pad(%i: i32):
    %next = arith.addi %i, %c1 : i32
    %more = arith.cmpi ult, %next, %c64 : i32
    cf.cond_br %more, ^pad(%next : i32), ^pair
  ^pair:
    llvm.store %v, %mine : i32, !llvm.ptr<3>
    %seen = llvm.load %theirs : !llvm.ptr<7> -> vector<8xi32>
    llvm.store %seen, %out : vector<8xi32>, !llvm.ptr
    nvvm.cluster.arrive {aligned}
    nvvm.cluster.wait {aligned}
    llvm.return)",
                     lockstep(), 8, 2);
  EXPECT_EQ(r.report, "");
  const std::vector<int32_t> rank0 = {0, 1, 2, 103, 4, 5, 6, 7};
  const std::vector<int32_t> rank1 = {1000, 1001, 1002, 1003,
                                      1004, 1005, 1006, 1007};
  for (uint32_t t = 0; t < 16; ++t)
    EXPECT_EQ(row(r, t), t == 3  ? std::vector<int32_t>(8, 0)
                         : t < 8 ? rank1
                                 : rank0)
        << "rank " << t / 8 << ", thread " << t % 8;
}

//===----------------------------------------------------------------------===//
// Races: reported whatever the schedule
//===----------------------------------------------------------------------===//

/// The schedules each race kernel runs under: 32 seeds of the random
/// schedule and lockstep.
std::vector<Options> schedules() {
  std::vector<Options> all;
  for (uint64_t seed = 1; seed <= 32; ++seed) {
    Options o;
    o.seed = seed;
    all.push_back(o);
  }
  Options o;
  o.lockstep = true;
  all.push_back(o);
  return all;
}

std::string scheduleName(const Options &o) {
  return o.lockstep ? "lockstep" : "seed " + std::to_string(o.seed);
}

/// Thread 0 stores 5 into shared word 0, barrier0, then `after` (each
/// thread; %w: word 0, %five: 5).
std::string afterBarrier(const std::string &after) {
  return R"(
    %w = llvm.getelementptr %s[0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %five = arith.constant 5 : i32
    %is0 = arith.cmpi eq, %tid, %c0 : i32
    %is1 = arith.cmpi eq, %tid, %c1 : i32
    scf.if %is0 {
      llvm.store %five, %w : i32, !llvm.ptr<3>
    }
    nvvm.barrier0
)" + after +
         "\n    llvm.return";
}

/// Each of `options` reports one of `reports` (a race of two threads: the
/// one the schedule runs second is named first).
void expectRace(const std::string &body, uint32_t block,
                const std::vector<std::string> &reports) {
  std::vector<Options> all = schedules();
  std::vector<Outcome> runs = launchEach(body, all, block);
  for (size_t i = 0; i < all.size(); ++i) {
    bool found = false;
    for (const std::string &text : reports)
      found |= runs[i].report.find(text) != std::string::npos;
    EXPECT_TRUE(found) << scheduleName(all[i]) << ": " << runs[i].report;
  }
}

void expectNoRace(const std::string &body, uint32_t block) {
  std::vector<Options> all = schedules();
  std::vector<Outcome> runs = launchEach(body, all, block);
  for (size_t i = 0; i < all.size(); ++i)
    EXPECT_EQ(runs[i].report, "") << scheduleName(all[i]);
}

const char *kRace = "shared-memory race: thread ";
const char *kNoBarrier = " with no barrier or mbarrier phase between the two";

std::string race(int first, const char *access, int second,
                 const char *earlier) {
  return std::string(kRace) + std::to_string(first) + " " + access +
         " 0x400, which thread " + std::to_string(second) + " " + earlier +
         kNoBarrier;
}

TEST(EmulatorRaces, StoreAfterAnotherThreadsLoad) {
  // Both threads load word 0, then thread 1 stores it: thread 1's store
  // races with thread 0's load, whichever of the two loads ran last.
  expectRace(afterBarrier(R"(
    %v = llvm.load %w : !llvm.ptr<3> -> i32
    scf.if %is1 {
      llvm.store %c7, %w : i32, !llvm.ptr<3>
    })"),
             2,
             {race(1, "stores", 0, "loaded"), race(0, "loads", 1, "stored")});
  // Four readers, thread 1 among them, then its store.
  expectRace(afterBarrier(R"(
    %v = llvm.load %w : !llvm.ptr<3> -> i32
    scf.if %is1 {
      llvm.store %c7, %w : i32, !llvm.ptr<3>
    })"),
             4,
             {race(1, "stores", 0, "loaded"), race(1, "stores", 2, "loaded"),
              race(1, "stores", 3, "loaded"), race(0, "loads", 1, "stored"),
              race(2, "loads", 1, "stored"), race(3, "loads", 1, "stored")});
}

TEST(EmulatorRaces, TwoThreadsStoreOneWord) {
  // Threads 0 and 1 store word 0 with no barrier between (after a barrier
  // behind thread 0's first store).
  expectRace(afterBarrier(R"(
    %lo = arith.cmpi ult, %tid, %c3 : i32
    scf.if %lo {
      llvm.store %tid, %w : i32, !llvm.ptr<3>
    })"),
             2,
             {race(1, "stores", 0, "stored"), race(0, "stores", 1, "stored")});
  // One byte of a word: the race is on byte 0x401.
  expectRace(
      R"(
    %w = llvm.getelementptr %s[0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %b = llvm.getelementptr %s[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %is0 = arith.cmpi eq, %tid, %c0 : i32
    scf.if %is0 {
      llvm.store %tid, %w : i32, !llvm.ptr<3>
    } else {
      %c9 = arith.constant 9 : i8
      llvm.store %c9, %b : i8, !llvm.ptr<3>
    }
    llvm.return)",
      2,
      {"shared-memory race: thread 1 stores 0x401, which thread 0 stored",
       "shared-memory race: thread 0 stores 0x401, which thread 1 "
       "stored"});
}

TEST(EmulatorRaces, OrderedAccessesAreNoRace) {
  // Each thread loads word 0, a barrier, thread 1 stores it: the loads of
  // the epoch before do not race with the store.
  expectNoRace(afterBarrier(R"(
    %v = llvm.load %w : !llvm.ptr<3> -> i32
    nvvm.barrier0
    scf.if %is1 {
      llvm.store %c7, %w : i32, !llvm.ptr<3>
    })"),
               4);
  // Both load, a barrier, thread 1 alone loads and stores.
  expectNoRace(afterBarrier(R"(
    %v = llvm.load %w : !llvm.ptr<3> -> i32
    nvvm.barrier0
    scf.if %is1 {
      %u = llvm.load %w : !llvm.ptr<3> -> i32
      llvm.store %c7, %w : i32, !llvm.ptr<3>
    })"),
               2);
  // Loads only; one thread storing twice; each thread its own word.
  expectNoRace(afterBarrier(R"(
    %v = llvm.load %w : !llvm.ptr<3> -> i32
    %u = llvm.load %w : !llvm.ptr<3> -> i32)"),
               4);
  expectNoRace(afterBarrier(R"(
    scf.if %is1 {
      llvm.store %c7, %w : i32, !llvm.ptr<3>
      llvm.store %c1, %w : i32, !llvm.ptr<3>
    })"),
               4);
  expectNoRace(R"(
    %off = arith.muli %tid, %c4 : i32
    %mine = llvm.getelementptr %s[%off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    llvm.store %tid, %mine : i32, !llvm.ptr<3>
    %v = llvm.load %mine : !llvm.ptr<3> -> i32
    llvm.store %c7, %mine : i32, !llvm.ptr<3>
    llvm.return)",
               8);
  // Two stores ordered by a barrier.
  expectNoRace(afterBarrier(R"(
    scf.if %is1 {
      llvm.store %c7, %w : i32, !llvm.ptr<3>
    })"),
               2);
}

} // namespace
