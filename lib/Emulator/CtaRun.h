//===- CtaRun.h - one CTA of a launch on the interpreter --------*- C++ -*-===//
//
// Runs a Program (Program.h) on one CTA. Every thread is a suspendable
// state (pc + register file); a seeded random scheduler runs one runnable
// thread for a random number of instructions or until it blocks, and lands
// pending TMA copies at random or adversarially late moments
// (CopyLanding.h), so that an ordering the kernel does not enforce can show
// up. Internal to lib/Emulator.
//
// The hardware semantics are split by concern, one file each:
//   Scheduler.cpp    the CTA's threads, the scheduler loop, deadlock and
//                    fault reports, thread exit; KernelModule::launch
//   Execute.cpp      the interpreter loop (step) and the instructions on
//                    registers: integer, f32, aggregates, branches, special
//                    registers, cvt to FP8
//   SharedMemory.cpp bounds, initialisation and wgmma-race checks of shared
//                    memory; loads and stores (global and shared)
//   Mbarrier.cpp     mbarrier init/arrive/expect_tx/try_wait.parity, phases
//                    and transaction counts
//   Tma.cpp          cp.async.bulk.tensor issue and completion (zero fill,
//                    swizzle, complete_tx), prefetch.tensormap
//   TmaStore.cpp     cp.async.bulk.tensor stores (shared::cta -> global,
//                    clipped at the tensor's edges), their bulk async-groups
//                    (commit_group, wait_group{.read}), fence.proxy.async
//   Wgmma.cpp        wgmma fence/commit/wait/mma_async and setmaxnreg (the
//                    warpgroup collectives), operand decoding, fragments
//   Collectives.cpp  arrival/release of .sync.aligned collectives, barrier0,
//                    shfl.sync, bar.warp.sync, elect.sync, stmatrix
//   Printf.cpp       device printf (vprintf)
//   Cluster.cpp      barrier.cluster, mapa and shared::cluster addresses
//                    (the CTAs of a cluster share one scheduler: runCluster)
//
// Semantics (PTX ISA 8.x):
// - mbarrier: pending arrival count, transaction count and phase. A phase
//   completes when both counts reach zero; try_wait.parity P succeeds once
//   the phase with parity P has completed (the current phase's parity
//   differs from P).
// - cp.async.bulk.tensor (tile): reads the box at completion time, zero
//   fills out-of-bounds elements, writes shared memory through the tensor
//   map's swizzle (a function of the shared address bits, as the hardware's)
//   and performs complete_tx of the box bytes on the mbarrier.
// - cp.async.bulk.tensor (tile, shared::cta -> global): reads the box from
//   shared memory (through the swizzle) at a random or adversarially late
//   moment after its issue, and writes only the elements inside the tensor.
//   Until a cp.async.bulk.wait_group{.read} of its issuing thread covers
//   its bulk async-group, a write to its source is a fault, and so is the
//   thread's exit; the bytes it reads must have been stored by threads that
//   executed fence.proxy.async since (or by the async proxy).
// - wgmma.*.sync.aligned and setmaxnreg are warpgroup collectives: they
//   execute when the 128 threads of the warpgroup arrive at the same
//   instruction. mma_async reads its operands from shared memory through
//   the matrix descriptors at that moment; its results become readable only
//   after a wgmma.wait_group that covers their commit group.
// - shfl.sync is a warp collective, barrier0 a CTA collective,
//   barrier.cluster a split arrive/wait barrier of the cluster's threads.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_LIB_EMULATOR_CTARUN_H
#define FP8_LIB_EMULATOR_CTARUN_H

#include "CopyLanding.h"
#include "Program.h"
#include "fp8/Emulator/Emulator.h"

#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace mlir::fp8::emu {

/// One row (dimension 0) of a TMA box, clipped to the tensor: its first
/// in-bounds element's global address, its offset in the box (row-major,
/// `elementBytes` each) and the bytes inside the tensor.
struct BoxSpan {
  uint64_t global, boxOffset, bytes;
};

/// The in-bounds spans of the box of `m` at `coords` (`boxBytes` bytes),
/// in the box's row-major order (dimension 1 fastest): TMA clips whole rows
/// outside the tensor and the elements of a row outside it (a load reads
/// them as 0, a store leaves them unwritten). Tma.cpp.
std::vector<BoxSpan> getBoxSpans(const TensorMap &m, const int64_t *coords,
                                 uint64_t boxBytes);

//===----------------------------------------------------------------------===//
// CTA state
//===----------------------------------------------------------------------===//

enum class State : uint8_t { Runnable, Blocked, Done };

struct Thread {
  int32_t pc = 0;
  uint32_t tid = 0;
  uint32_t cta = 0; // the CTA's linear index in the grid (fault reports)
  State state = State::Runnable;
  // barrier.cluster: arrived and not yet waited, and the cluster barrier's
  // phase at that arrival.
  bool clusterArrived = false;
  uint64_t clusterPhase = 0;
  uint64_t *regs = nullptr;
  int64_t *wgTag = nullptr; // per wgmma value: commit group at issue, or -1
};

struct MBarrier {
  uint32_t expected = 0, pending = 0, phase = 0;
  int64_t tx = 0, inflight = 0;
  int32_t initInst = -1;
  std::vector<uint32_t> waiters; // (thread << 1) | parity
};

class CtaRun;

/// Bytes of one box of `m` (Tma.cpp).
uint64_t boxBytes(const TensorMap &m);

struct PendingTma {
  uint32_t dst, mbar, thread; // dst, mbar: CTA-relative shared offsets
  // The CTAs written (and whose mbarrier at `mbar` completes the bytes):
  // the multicast's ctaMask, else the one CTA dst names.
  std::vector<CtaRun *> dests;
  int32_t inst;
  TensorMap map;
  int64_t coords[TensorMap::kMaxRank];
  bool late; // lands only when no thread can run (CopyLanding.h)
};

/// A TMA store (cp.async.bulk.tensor shared::cta -> global) in flight: it
/// has not yet read its source.
struct PendingTmaStore {
  uint32_t src, thread; // CTA shared address of the box, issuing thread
  int64_t group;        // the thread's bulk async-group (-1: uncommitted)
  int32_t inst;
  TensorMap map;
  int64_t coords[TensorMap::kMaxRank];
  bool late; // lands only when no thread can run (CopyLanding.h)
};

/// The shared memory [lo, hi) a TMA store reads, until a wait_group of its
/// thread covers its group (only then may the range be written again).
struct BulkRead {
  uint32_t lo, hi, thread;
  int64_t group;
  int32_t inst;
};

struct Collective {
  int32_t inst = -1;
  std::vector<uint32_t> threads;
};

/// One of a CTA's 16 named barriers (bar.sync / bar.arrive with an id and
/// a thread count; PTX ISA, bar{.cta}): the threads that arrived in the
/// current phase and those of them that wait.
struct NamedBarrier {
  uint32_t expected = 0, arrived = 0;
  bool wholeCta = false; // no thread count: every live thread
  std::vector<uint32_t> waiting;
};

struct OutstandingRead {
  uint32_t lo, hi;
  int64_t group;
  int32_t inst;
};

struct Warpgroup {
  int64_t commits = 0, completed = 0;
  Collective coll;
  std::vector<OutstandingRead> reads;
  uint32_t live = 0;
};

/// The CTAs of one cluster (launches with clusters of more than one CTA):
/// their threads are scheduled together (CtaRun::runCluster), and they share
/// the cluster barrier (barrier.cluster.arrive / wait).
struct Cluster {
  std::vector<CtaRun *> ctas; // by %cluster_ctarank
  uint64_t phase = 0;         // completed barrier.cluster phases
  uint32_t arrived = 0;       // arrivals of live threads in this phase
  uint32_t live = 0;          // live threads of the cluster
  std::vector<std::pair<CtaRun *, uint32_t>> waiters; // (CTA, thread)
};

/// Thrown by CtaRun::fault, caught by CtaRun::run: a detected fault ends the
/// CTA's run from anywhere inside an instruction.
struct FaultStop {};

/// What the interpreter loop does after an instruction.
enum class Flow : uint8_t {
  Next,  // go on with the next instruction (pc + 1)
  Jump,  // the pc is already set (a branch, a released collective)
  Yield, // the thread blocked or exited: its step ends
};

class CtaRun {
public:
  CtaRun(const Program &p, Device &dev, const LaunchDims &dims,
         const std::vector<KernelArg> &args, const Options &opt, uint32_t cta,
         std::mt19937_64 &rng, uint64_t &instCount, std::string &output);

  /// Runs the CTA to completion; false with `report` set on a fault.
  bool run(std::string &report);
  /// Runs the CTAs of `cluster` (each constructed with it) to completion
  /// under one scheduler: each step picks a random CTA that can make
  /// progress, then lands one of its copies or runs one of its threads
  /// (as run() does for one CTA); under lockstep the CTAs that can make
  /// progress run a round each (lockstepRound) in rank order. False with
  /// `report` set on a fault.
  static bool runCluster(Cluster &cluster, std::mt19937_64 &rng,
                         std::string &report);
  /// Joins `cluster` as rank `rank` (before running; every CTA joins one,
  /// of one CTA when the launch has no clusters).
  void join(Cluster &c, uint32_t r) {
    cluster = &c;
    rank = r;
  }
  /// The faults reported and continued past (Options::continueOnFault).
  const std::string &continuedFaults() const { return continued; }
  uint64_t continuedFaultCount() const { return continuedCount; }

private:
  const Program &p;
  Device &dev;
  const LaunchDims &dims;
  const Options &opt;
  uint32_t cta;
  std::mt19937_64 &rng;
  size_t lockstepNext = 0; // Options::lockstep: the next runnable slot
  uint64_t &instCount;
  std::string &output; // device printf
  uint32_t ctaXYZ[3], nthreads;
  CopyLandingPolicy landing;
  WgmmaAccumulation accumulate;

  uint32_t smemEnd;
  std::vector<uint8_t> smem, initialised, lineTag; // tag: 1 + swizzle code
  std::vector<uint64_t> regArena;
  std::vector<uint8_t> localArena, localInit; // threads' local frames
  // Shared-memory races between threads: per byte, the last thread (+1; 0:
  // none, or a TMA copy) that stored / loaded it and the synchronisation
  // epoch it did so in, and another thread that loaded it in that epoch
  // (otherLoader, 0: none). The epoch advances at every barrier0, named
  // barrier, bar.warp.sync and mbarrier phase completion (conservative: any of
  // them may order the accesses), so an access racing one of another thread in
  // the same epoch is reported (SharedMemory.cpp): a load after another
  // thread's store, a store after another thread's store or load, whatever
  // the order of the accesses inside the epoch.
  std::vector<uint16_t> storer, loader, otherLoader;
  std::vector<uint32_t> storeEpoch, loadEpoch;
  uint32_t syncEpoch = 1;
  std::vector<int64_t> tagArena;
  std::vector<Thread> threads;
  std::vector<uint32_t> runnable;
  std::unordered_map<uint32_t, MBarrier> mbars;
  // Threads whose try_wait found no mbarrier yet (continueOnFault only).
  std::unordered_map<uint32_t, std::vector<uint32_t>> initWaiters;
  std::vector<PendingTma> tmas;
  std::vector<PendingTmaStore> tmaStores;
  std::vector<BulkRead> bulkReads;
  // Per thread: bulk async-groups committed, fence.proxy.async executed; per
  // shared byte: its storer's fence count at the store (a TMA store may read
  // it once the storer has fenced since).
  std::vector<int64_t> bulkCommits;
  std::vector<uint32_t> proxyFences, storeFence;
  std::vector<Warpgroup> wgs;
  std::vector<Collective> warps;
  Collective ctaBarrier;
  static constexpr uint32_t kNamedBarriers = 16;
  NamedBarrier named[kNamedBarriers];
  uint32_t live;
  std::string report, continued;
  // The cluster (of one CTA when the launch has no clusters) and this CTA's
  // %cluster_ctarank; clusterStarted: a thread of this CTA completed a
  // barrier.cluster.wait, so every CTA of the cluster has started (their
  // shared memory may be accessed).
  Cluster *cluster = nullptr;
  uint32_t rank = 0;
  bool clusterStarted = false;
  uint64_t continuedCount = 0;
  std::vector<bool> continuedAt; // per instruction: reported once

  // --- scheduler (Scheduler.cpp) ---------------------------------------------
  /// Ends the run with a report naming `what`, the instruction and thread.
  [[noreturn]] void fault(const Thread *t, int32_t inst,
                          const std::string &what);
  /// A fault after which the run can go on with a defined result (the
  /// caller says which): with Options::continueOnFault it is reported (once
  /// per instruction) and returns, else it is fault().
  void softFault(const Thread *t, int32_t inst, const std::string &what);
  std::string faultReport(const Thread *t, int32_t inst,
                          const std::string &what);
  [[noreturn]] void deadlock();
  /// The blocked threads of this CTA, grouped by instruction.
  std::string blockedThreads();
  /// One scheduler step (a copy lands or a thread runs); false when the CTA
  /// has nothing to do (no runnable thread, no copy in flight).
  bool schedule();
  /// Options::lockstep in a cluster: this CTA's turn, one round (each
  /// runnable thread one instruction, the woken ones included, copies that
  /// land in between).
  void lockstepRound();
  void wake(uint32_t t);
  /// llvm.return: the thread exits.
  Flow exit(Thread &t);

  // --- the interpreter loop (Execute.cpp) ------------------------------------
  void step(Thread &t, uint32_t budget);
  /// A read of wgmma results (`in.check`) before their wgmma.wait_group.
  void checkWgmmaReads(Thread &t, const Inst &in);
  Flow execute(Thread &t, const Inst &in);
  bool executeInteger(Thread &t, const Inst &in);
  bool executeFloat(Thread &t, const Inst &in);
  bool executeAggregate(Thread &t, const Inst &in);
  void branch(Thread &t, const Inst &in);
  /// The cluster special register `which` (Opcode::ClusterReg) of this CTA.
  uint32_t clusterRegister(uint8_t which) const;

  // --- clusters (Cluster.cpp) ------------------------------------------------
  /// The CTA whose shared memory the shared::cluster address `addr` names
  /// (its offset written back to `addr`): a shared::cta address (below
  /// kClusterWindow) names this CTA, one returned by mapa names the CTA of
  /// its rank. Faults: a rank outside the cluster, a peer before any
  /// barrier.cluster.wait of this CTA (it may not have started), an exited
  /// peer.
  CtaRun &sharedOwner(const Thread *t, int32_t inst, uint64_t &addr,
                      const char *what);
  Flow clusterArrive(Thread &t);
  Flow clusterWait(Thread &t);
  void mapa(Thread &t, const Inst &in);
  /// barrier.cluster completes when every live thread has arrived.
  void maybeCompleteClusterBarrier();

  // --- shared and global memory (SharedMemory.cpp) ---------------------------
  void checkShared(const Thread *t, int32_t inst, uint64_t addr, uint64_t bytes,
                   const char *what);
  void checkInitialised(const Thread *t, int32_t inst, uint32_t addr,
                        uint32_t bytes);
  /// A thread's load or store of [addr, addr + bytes) against the other
  /// threads' accesses since the last synchronisation (a race is a fault).
  void checkSharedRace(const Thread &t, uint32_t addr, uint32_t bytes,
                       bool isLoad);
  /// The thread (+1) whose access of byte `b` in this epoch a load or store
  /// (`isLoad`) of thread `me` (+1) races with, 0 if none; `loaded`: that
  /// access was a load.
  uint16_t racingThread(uint32_t b, uint16_t me, bool isLoad,
                        bool &loaded) const;
  /// A write to [lo, hi) must not hit shared memory that a wgmma of this
  /// CTA still reads (issued, not yet covered by a wgmma.wait_group) nor the
  /// source of a TMA store not yet covered by a cp.async.bulk.wait_group.
  void checkNoPendingReads(const Thread *t, int32_t inst, uint32_t lo,
                           uint32_t hi, const char *writer);
  enum class Access : uint8_t { Load, Store, Atomic };
  /// Host pointer to the `bytes` of a `kind` access of `m` at `addr`:
  /// shared memory (this CTA's or a peer's) after its checks (bounds,
  /// alignment, initialisation, races, pending wgmma reads), or generic
  /// memory (genericMemory).
  uint8_t *dataMemory(Thread &t, const MemAccess &m, uint64_t addr,
                      uint32_t bytes, Access kind);
  void loadStore(Thread &t, const Inst &in);
  /// llvm.atomicrmw and llvm.cmpxchg (Atomics.cpp).
  void atomicRMW(Thread &t, const Inst &in);
  void cmpXchg(Thread &t, const Inst &in);
  /// Host pointer to `bytes` at the generic address `addr` of local memory
  /// (of `t`), the module's constants (reads only) or the device's global
  /// memory; a fault if it is none of them.
  uint8_t *genericMemory(Thread &t, uint64_t addr, uint64_t bytes, bool isLoad);
  /// vprintf(format, arguments): CUDA's device printf (Printf.cpp).
  void printf(Thread &t, const Inst &in);
  /// Reports (softFault) a printf argument of `size` bytes at `offset` of
  /// the local argument buffer `args` that was only partly stored: an
  /// argument narrower than its conversion (number `number`, text
  /// `conversion`), which the GPU prints with whatever the stack held.
  void reportNarrowArgument(Thread &t, uint64_t args, uint64_t offset,
                            uint64_t size, int number,
                            const std::string &conversion);

  // --- mbarrier (Mbarrier.cpp) -----------------------------------------------
  MBarrier &mbarrier(const Thread *t, int32_t inst, uint64_t addr);
  std::string describe(uint32_t addr, const MBarrier &mb);
  void maybeCompletePhase(const Thread *t, int32_t inst, uint32_t addr,
                          MBarrier &mb);
  void wakeAfterWait(uint32_t t);
  void addTx(const Thread *t, int32_t inst, uint32_t addr, MBarrier &mb,
             int64_t delta);
  void mbarrierInit(Thread &t, const Inst &in);
  void mbarrierArrive(Thread &t, const Inst &in);
  Flow mbarrierTryWait(Thread &t, const Inst &in);

  // --- TMA (Tma.cpp) ---------------------------------------------------------
  /// The tensor map at `mapAddr` (checked: aligned, inside an allocation,
  /// encoded) and the coordinates of side entry `coordsX` (as many as its
  /// rank; the others 0) of the TMA instruction `t` executes.
  void readTensorMap(const Thread &t, uint64_t mapAddr, int32_t coordsX,
                     TensorMap &m, int64_t *coordsOut);
  void issueTma(Thread &t, const Inst &inst);
  void completeTma(size_t index);
  /// The box of `tma` read from global memory (out-of-bounds elements 0).
  std::vector<uint8_t> readBox(const PendingTma &tma, const Thread *t,
                               uint64_t bytes);
  void prefetchTensorMap(Thread &t, const Inst &in);

  // --- TMA stores, bulk async-groups (TmaStore.cpp) --------------------------
  void issueTmaStore(Thread &t, const Inst &in);
  /// Reads the source of in-flight store `index` and writes its box.
  void completeTmaStore(size_t index);
  /// Writes `buf` (the box, row-major) to the elements of the box of `st`
  /// inside the tensor.
  void writeBox(const PendingTmaStore &st, const Thread *t,
                const std::vector<uint8_t> &buf);
  void bulkCommit(Thread &t);
  /// wait_group N{.read}: lands the thread's stores of every group but the
  /// N most recent and releases their source ranges.
  void bulkWait(Thread &t, const Inst &in);
  void fenceProxyAsync(Thread &t) { ++proxyFences[t.tid]; }
  /// A thread may not exit while a TMA store of its may read shared memory.
  void checkBulkReadsWaited(const Thread &t);

  // --- wgmma (Wgmma.cpp) -----------------------------------------------------
  Flow warpgroupCollective(Thread &t, const Inst &in);
  void executeWgmma(Warpgroup &wg, const std::vector<uint32_t> &members,
                    const Inst &inst, int32_t instIdx);
  /// Reads `rows` x `k` elements of type `type` of a wgmma operand (K- or
  /// MN-major) through its matrix descriptor into `out` (values, row-major)
  /// and, for FP8, `codes` (rows x 32); records the read.
  void readWgmmaOperand(Warpgroup &wg, const Thread &t0, int32_t instIdx,
                        uint64_t desc, int rows, int k, WgmmaInput type,
                        bool mnMajor, float *out, uint8_t *codes,
                        const char *which);

  // --- collectives (Collectives.cpp) -----------------------------------------
  /// Registers the arrival of `t` at collective `c` (of `expected` threads).
  /// Returns true when it is the last arrival (the caller executes the
  /// collective and releases everybody with release()).
  bool arrive(Collective &c, Thread &t, uint32_t expected, const char *what);
  void release(Collective &c, uint32_t self);
  /// The arrival of `t` at the warp collective `what` (full member mask
  /// `in.a` only): its warp's collective when `t` is the last lane to
  /// arrive, else null (`t` blocks).
  Collective *arriveWarp(Thread &t, const Inst &in, const char *what);
  Flow barrier0(Thread &t);
  /// bar.sync (in.sub 0) or bar.arrive (1) on the named barrier `in.a`
  /// (-1: 0) of `in.b` threads (-1: every live thread of the CTA).
  Flow namedBarrier(Thread &t, const Inst &in);
  /// Completes named barrier `b` when its arrivals reach its count,
  /// releasing its waiters (`self`, the running thread, is not woken: it
  /// is runnable); true if it completed.
  bool maybeCompleteNamed(NamedBarrier &b, uint32_t self);
  Flow shuffle(Thread &t, const Inst &in);
  Flow warpSync(Thread &t, const Inst &in);
  Flow electSync(Thread &t, const Inst &in);
  /// stmatrix.m8n8.x1/x2/x4{.trans}.b16: the warp's fragments to 8x8 b16
  /// matrices, one 16-byte row per address lane.
  Flow stMatrix(Thread &t, const Inst &in);
};

} // namespace mlir::fp8::emu

#endif // FP8_LIB_EMULATOR_CTARUN_H
