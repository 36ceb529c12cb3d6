//===- Interpreter.cpp - threads, scheduler and hardware semantics --------===//
//
// Runs a Program (Program.h) on one CTA after another. Inside a CTA every
// thread is a suspendable state (pc + register file); a seeded random
// scheduler runs one runnable thread for a random number of instructions or
// until it blocks, and lands pending TMA copies at random or adversarially
// late moments (CopyLanding.h), so that an ordering the kernel does not
// enforce can show up.
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
// - wgmma.*.sync.aligned and setmaxnreg are warpgroup collectives: they
//   execute when the 128 threads of the warpgroup arrive at the same
//   instruction. mma_async reads its operands from shared memory through
//   the matrix descriptors at that moment; its results become readable only
//   after a wgmma.wait_group that covers their commit group.
// - shfl.sync is a warp collective, barrier0 a CTA collective.
//
//===----------------------------------------------------------------------===//
#include "CopyLanding.h"
#include "Numerics.h"
#include "Program.h"
#include "fp8/Emulator/Emulator.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <sstream>
#include <unordered_map>

using namespace mlir::fp8::emu;

namespace {

//===----------------------------------------------------------------------===//
// CTA state
//===----------------------------------------------------------------------===//

enum class State : uint8_t { Runnable, Blocked, Done };

struct Thread {
  int32_t pc = 0;
  uint32_t tid = 0;
  State state = State::Runnable;
  uint64_t *regs = nullptr;
  int64_t *wgTag = nullptr; // per wgmma value: commit group at issue, or -1
};

struct MBarrier {
  uint32_t expected = 0, pending = 0, phase = 0;
  int64_t tx = 0, inflight = 0;
  int32_t initInst = -1;
  std::vector<uint32_t> waiters; // (thread << 1) | parity
};

struct PendingTma {
  uint32_t dst, mbar, thread;
  int32_t inst;
  TensorMap map;
  int64_t coords[3];
  bool late; // lands only when no thread can run (CopyLanding.h)
};

struct Collective {
  int32_t inst = -1;
  std::vector<uint32_t> threads;
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

struct FaultStop {};

class CtaRun {
public:
  CtaRun(const Program &p, Device &dev, const LaunchDims &dims,
         const std::vector<KernelArg> &args, const Options &opt, uint32_t cta,
         std::mt19937_64 &rng, uint64_t &instCount)
      : p(p), dev(dev), dims(dims), opt(opt), cta(cta), rng(rng),
        instCount(instCount), landing(opt.copies, rng) {
    accumulate = opt.accumulate;
    smemEnd = p.dynamicSharedBase + dims.dynamicSharedBytes;
    smem.assign(smemEnd, 0);
    initialised.assign(smemEnd, 0);
    lineTag.assign((smemEnd + 127) / 128, 0);
    uint32_t n = dims.block;
    size_t nregs = p.initialRegisters.size();
    regArena.resize(nregs * n);
    tagArena.assign(size_t(p.numWgmmaValues) * n, -1);
    threads.resize(n);
    for (uint32_t t = 0; t < n; ++t) {
      Thread &th = threads[t];
      th.tid = t;
      th.regs = regArena.data() + nregs * t;
      std::memcpy(th.regs, p.initialRegisters.data(), nregs * 8);
      for (int i = 0; i < p.numParams; ++i)
        th.regs[p.paramSlots[i]] = args[i];
      th.wgTag = tagArena.data() + size_t(p.numWgmmaValues) * t;
      runnable.push_back(t);
    }
    wgs.resize((n + 127) / 128);
    for (uint32_t w = 0; w < wgs.size(); ++w)
      wgs[w].live = std::min<uint32_t>(128, n - 128 * w);
    warps.resize((n + 31) / 32);
    live = n;
  }

  /// Runs the CTA to completion; false with `report` set on a fault.
  bool run(std::string &report);

private:
  const Program &p;
  Device &dev;
  const LaunchDims &dims;
  const Options &opt;
  uint32_t cta;
  std::mt19937_64 &rng;
  uint64_t &instCount;
  CopyLandingPolicy landing;
  WgmmaAccumulateFn accumulate;

  uint32_t smemEnd;
  std::vector<uint8_t> smem, initialised, lineTag; // tag: 1 + swizzle code
  std::vector<uint64_t> regArena;
  std::vector<int64_t> tagArena;
  std::vector<Thread> threads;
  std::vector<uint32_t> runnable;
  std::unordered_map<uint32_t, MBarrier> mbars;
  std::vector<PendingTma> tmas;
  std::vector<Warpgroup> wgs;
  std::vector<Collective> warps;
  Collective ctaBarrier;
  uint32_t live;
  std::string report;

  [[noreturn]] void fault(const Thread *t, int32_t inst,
                          const std::string &what) {
    std::ostringstream os;
    os << "fp8-emu: error: " << what << "\n";
    if (inst >= 0)
      os << "  at " << p.locs[inst] << "\n";
    os << "  in kernel '" << p.name << "', CTA " << cta;
    if (t)
      os << ", thread " << t->tid << " (warpgroup " << t->tid / 128 << ", warp "
         << t->tid / 32 << ", lane " << t->tid % 32 << ")";
    os << "\n";
    report = os.str();
    throw FaultStop();
  }

  void wake(uint32_t t) {
    threads[t].state = State::Runnable;
    runnable.push_back(t);
  }

  // --- shared memory ---------------------------------------------------------
  void checkShared(const Thread *t, int32_t inst, uint64_t addr, uint64_t bytes,
                   const char *what) {
    if (addr < kSharedBase || addr + bytes > smemEnd || addr + bytes < addr) {
      std::ostringstream os;
      os << "out-of-bounds shared-memory " << what << " of " << bytes
         << " bytes at 0x" << std::hex << addr << std::dec
         << " (shared memory of this launch: [0x" << std::hex << kSharedBase
         << ", 0x" << smemEnd << std::dec << "))";
      fault(t, inst, os.str());
    }
  }
  void checkInitialised(const Thread *t, int32_t inst, uint32_t addr,
                        uint32_t bytes) {
    if (!opt.checkUninitialisedShared)
      return;
    for (uint32_t i = 0; i < bytes; ++i)
      if (!initialised[addr + i]) {
        std::ostringstream os;
        os << "read of uninitialised shared memory at 0x" << std::hex
           << addr + i << std::dec << " (nothing stored or copied there "
           << "before this read)";
        fault(t, inst, os.str());
      }
  }
  /// A write to [lo, hi) must not hit shared memory that a wgmma of this
  /// CTA still reads (issued, not yet covered by a wgmma.wait_group).
  void checkNoPendingWgmma(const Thread *t, int32_t inst, uint32_t lo,
                           uint32_t hi, const char *writer) {
    for (uint32_t w = 0; w < wgs.size(); ++w)
      for (const OutstandingRead &r : wgs[w].reads)
        if (lo < r.hi && r.lo < hi) {
          std::ostringstream os;
          os << writer << " writes shared memory [0x" << std::hex << lo
             << ", 0x" << hi << ") that a wgmma.mma_async of warpgroup "
             << std::dec << w << " still reads ([0x" << std::hex << r.lo
             << ", 0x" << r.hi << std::dec
             << "), not yet covered by a wgmma.wait_group)\n  the wgmma: "
             << p.locs[r.inst];
          fault(t, inst, os.str());
        }
  }

  MBarrier &mbarrier(const Thread *t, int32_t inst, uint64_t addr) {
    if (addr % 8)
      fault(t, inst, "mbarrier address is not 8-byte aligned");
    checkShared(t, inst, addr, 8, "mbarrier access");
    auto it = mbars.find(static_cast<uint32_t>(addr));
    if (it == mbars.end()) {
      std::ostringstream os;
      os << "mbarrier at 0x" << std::hex << addr << std::dec
         << " used before mbarrier.init";
      fault(t, inst, os.str());
    }
    return it->second;
  }
  std::string describe(uint32_t addr, const MBarrier &mb) {
    std::ostringstream os;
    os << "mbarrier 0x" << std::hex << addr << std::dec << ": phase "
       << mb.phase << " (parity " << (mb.phase & 1) << "), " << mb.pending
       << " of " << mb.expected << " arrivals pending, tx-count " << mb.tx
       << ", " << mb.inflight << " TMA bytes in flight";
    return os.str();
  }
  void maybeCompletePhase(const Thread *t, int32_t inst, uint32_t addr,
                          MBarrier &mb) {
    if (mb.pending != 0 || mb.tx != 0)
      return;
    if (mb.inflight > 0)
      fault(t, inst,
            "mbarrier phase completed while " + std::to_string(mb.inflight) +
                " bytes of TMA copies signalling it are still in flight: "
                "expect_tx announced fewer bytes than the copies deliver (" +
                describe(addr, mb) + ")");
    ++mb.phase;
    mb.pending = mb.expected;
    std::vector<uint32_t> still;
    for (uint32_t w : mb.waiters) {
      if ((mb.phase & 1) != (w & 1))
        wakeAfterWait(w >> 1);
      else
        still.push_back(w);
    }
    mb.waiters.swap(still);
  }
  void wakeAfterWait(uint32_t t) {
    threads[t].pc++;
    wake(t);
  }
  void addTx(const Thread *t, int32_t inst, uint32_t addr, MBarrier &mb,
             int64_t delta) {
    mb.tx += delta;
    if (mb.tx > (1 << 20) - 1 || mb.tx < -((1 << 20) - 1))
      fault(t, inst,
            "mbarrier transaction count out of range (+-(2^20-1)): " +
                describe(addr, mb));
    if (mb.tx < 0 && mb.pending == 0)
      fault(t, inst,
            "TMA copies delivered " + std::to_string(-mb.tx) +
                " bytes more than expect_tx announced for the current phase "
                "(transaction count overflow): " +
                describe(addr, mb));
  }

  // --- collectives
  // ------------------------------------------------------------
  /// Registers the arrival of `t` at collective `c` (of `expected` threads).
  /// Returns true when it is the last arrival (the caller executes the
  /// collective and releases everybody with release()).
  bool arrive(Collective &c, Thread &t, uint32_t expected, const char *what) {
    if (c.inst == -1)
      c.inst = t.pc;
    else if (c.inst != t.pc) {
      std::ostringstream os;
      os << what << ": threads arrive at different instructions (divergent "
         << ".sync.aligned collective); thread " << c.threads.front()
         << " waits at " << p.locs[c.inst];
      fault(&t, t.pc, os.str());
    }
    c.threads.push_back(t.tid);
    return c.threads.size() == expected;
  }
  void release(Collective &c, uint32_t self) {
    for (uint32_t u : c.threads) {
      threads[u].pc++;
      if (u != self)
        wake(u);
    }
    c.inst = -1;
    c.threads.clear();
  }

  void executeWgmma(Warpgroup &wg, const std::vector<uint32_t> &members,
                    const Inst &inst, int32_t instIdx);
  void completeTma(size_t index);
  void issueTma(Thread &t, const Inst &inst);
  void step(Thread &t, uint32_t budget);
  void deadlock();
};

//===----------------------------------------------------------------------===//
// wgmma
//===----------------------------------------------------------------------===//

void CtaRun::executeWgmma(Warpgroup &wg, const std::vector<uint32_t> &members,
                          const Inst &inst, int32_t instIdx) {
  const WgmmaInfo &info = p.wgmmas[inst.x];
  const Thread &t0 = threads[members.front()];
  uint64_t descA = t0.regs[inst.a], descB = t0.regs[inst.b];
  for (uint32_t u : members)
    if (threads[u].regs[inst.a] != descA || threads[u].regs[inst.b] != descB)
      fault(&threads[u], instIdx,
            "wgmma.mma_async: the matrix descriptors differ between the "
            "threads of the warpgroup (they must be uniform)");
  const int N = info.n;
  // Operands, decoded through the descriptors (PTX ISA "Matrix Descriptor
  // Format": start address bits 0-13, LBO 16-29, SBO 32-45 (all >> 4), base
  // offset 49-51, swizzle 62-63: 0 none, 1 128B, 2 64B, 3 32B).
  std::vector<float> A(64 * 32), B(size_t(N) * 32);
  std::vector<uint8_t> Ac(64 * 32), Bc(size_t(N) * 32);
  auto decode = [&](uint64_t desc, int rows, bool e5m2, float *out,
                    uint8_t *codes, const char *which) {
    uint32_t start = (desc & 0x3FFF) << 4;
    uint32_t lbo = ((desc >> 16) & 0x3FFF) << 4;
    uint32_t sbo = ((desc >> 32) & 0x3FFF) << 4;
    uint32_t base = (desc >> 49) & 7;
    uint32_t mode = desc >> 62;
    static const uint32_t spanCode[] = {0, 3, 2, 1}; // desc mode -> TMA code
    static const uint32_t rowBytes[] = {16, 128, 64, 32};
    uint32_t sc = spanCode[mode];
    if (base != 0)
      fault(&t0, instIdx,
            std::string("wgmma.mma_async: descriptor ") + which +
                " has a non-zero base offset (" + std::to_string(base) +
                " in bits 49-51), which the emulator does not model");
    const float *lut = e5m2 ? fp8Tables().e5m2 : fp8Tables().e4m3;
    uint32_t lo = ~0u, hi = 0;
    for (int r = 0; r < rows; ++r) {
      for (int kc = 0; kc < 2; ++kc) { // two 16-byte chunks of k
        uint32_t logical;
        if (mode == 0)
          logical = start + (r / 8) * sbo + kc * lbo + (r % 8) * 16;
        else
          logical = start + (r / 8) * sbo + (r % 8) * rowBytes[mode] + kc * 16;
        uint32_t addr = swizzleAddr(logical, sc);
        if (addr < kSharedBase || addr + 16 > smemEnd) {
          std::ostringstream os;
          os << "wgmma.mma_async: operand " << which << " (descriptor 0x"
             << std::hex << desc << ") reads outside shared memory at 0x"
             << addr << std::dec;
          fault(&t0, instIdx, os.str());
        }
        uint8_t tag = lineTag[addr / 128];
        if (tag && uint32_t(tag - 1) != sc) {
          std::ostringstream os;
          os << "wgmma.mma_async: descriptor " << which << " (0x" << std::hex
             << desc << std::dec << ") reads with swizzle " << swizzleName(sc)
             << " shared memory at 0x" << std::hex << addr << std::dec
             << " that TMA wrote with swizzle " << swizzleName(tag - 1);
          fault(&t0, instIdx, os.str());
        }
        checkInitialised(&t0, instIdx, addr, 16);
        for (int i = 0; i < 16; ++i)
          out[r * 32 + kc * 16 + i] = lut[smem[addr + i]];
        std::memcpy(&codes[r * 32 + kc * 16], &smem[addr], 16);
        lo = std::min(lo, addr);
        hi = std::max(hi, addr + 16);
      }
    }
    wg.reads.push_back({lo, hi, wg.commits, instIdx});
  };
  decode(descA, 64, info.e5m2A, A.data(), Ac.data(), "A");
  decode(descB, N, info.e5m2B, B.data(), Bc.data(), "B");

  // Fragment map of the f32 accumulator (PTX ISA, "Matrix Fragments for
  // wgmma .m64nNk32", accumulator D): thread t, register r hold row
  // 16 (t / 32) + (t % 32) / 4 + 8 ((r / 2) % 2), column
  // 8 (r / 4) + 2 (t % 4) + r % 2.
  std::vector<float> D(size_t(64) * N, 0.0f);
  auto row = [](uint32_t t, int r) {
    return 16 * (t / 32) + (t % 32) / 4 + 8 * ((r / 2) % 2);
  };
  auto col = [](uint32_t t, int r) {
    return 8 * (r / 4) + 2 * (t % 4) + r % 2;
  };
  if (info.scaleD)
    for (uint32_t u : members) {
      uint32_t lt = u % 128;
      for (int r = 0; r < N / 2; ++r)
        D[row(lt, r) * N + col(lt, r)] = asF32(threads[u].regs[info.inout + r]);
    }
  for (int m = 0; m < 64; ++m)
    for (int n = 0; n < N; ++n)
      D[m * N + n] =
          accumulate
              ? accumulate(D[m * N + n], &Ac[m * 32], info.e5m2A, &Bc[n * 32],
                           info.e5m2B, 32)
              : defaultAccumulate(D[m * N + n], &A[m * 32], &B[n * 32], 32);
  for (uint32_t u : members) {
    uint32_t lt = u % 128;
    for (int r = 0; r < N / 2; ++r)
      threads[u].regs[info.result + r] =
          fromF32(D[row(lt, r) * N + col(lt, r)]);
    threads[u].wgTag[info.wgmmaIndex] = wg.commits;
  }
}

//===----------------------------------------------------------------------===//
// TMA
//===----------------------------------------------------------------------===//

void CtaRun::issueTma(Thread &t, const Inst &inst) {
  int32_t idx = t.pc;
  uint64_t mapAddr = t.regs[inst.b];
  PendingTma tma;
  if (mapAddr % 64)
    fault(&t, idx, "TMA: the tensor map address is not 64-byte aligned");
  if (!dev.read(mapAddr, &tma.map, sizeof(TensorMap)))
    fault(&t, idx,
          "TMA: the tensor map pointer " + dev.describe(mapAddr) +
              " is not inside a device allocation");
  const TensorMap &m = tma.map;
  if (m.magic != TensorMap::kMagic)
    fault(&t, idx,
          "TMA: the tensor map pointer " + dev.describe(mapAddr) +
              " does not point to an encoded tensor map");
  const std::vector<GepTerm> &coords = p.geps[inst.x];
  if (coords.size() != m.rank)
    fault(&t, idx,
          "TMA: " + std::to_string(coords.size()) +
              " coordinates for a tensor map of rank " +
              std::to_string(m.rank));
  for (size_t i = 0; i < 3; ++i)
    tma.coords[i] = i < coords.size() ? sext(t.regs[coords[i].slot], 32) : 0;
  tma.dst = static_cast<uint32_t>(t.regs[inst.a]);
  uint64_t bytes = uint64_t(m.elementBytes) * m.boxDim[0] *
                   (m.rank > 1 ? m.boxDim[1] : 1) *
                   (m.rank > 2 ? m.boxDim[2] : 1);
  uint32_t align = m.swizzle ? 1024 : 128;
  if (tma.dst % align) {
    std::ostringstream os;
    os << "TMA: shared-memory destination 0x" << std::hex << tma.dst << std::dec
       << " is not " << align << "-byte aligned"
       << (m.swizzle ? " (swizzled boxes start on a swizzle-pattern "
                       "boundary)"
                     : "");
    fault(&t, idx, os.str());
  }
  checkShared(&t, idx, tma.dst, bytes, "TMA destination");
  tma.mbar = static_cast<uint32_t>(t.regs[inst.c]);
  MBarrier &mb = mbarrier(&t, idx, tma.mbar);
  mb.inflight += bytes;
  tma.thread = t.tid;
  tma.inst = idx;
  tma.late = landing.drawLate();
  tmas.push_back(tma);
}

void CtaRun::completeTma(size_t index) {
  PendingTma tma = tmas[index];
  tmas[index] = tmas.back();
  tmas.pop_back();
  const TensorMap &m = tma.map;
  const Thread *t = &threads[tma.thread];
  uint32_t eb = m.elementBytes;
  uint32_t box[3] = {m.boxDim[0], m.rank > 1 ? m.boxDim[1] : 1,
                     m.rank > 2 ? m.boxDim[2] : 1};
  uint64_t rowBytes = uint64_t(box[0]) * eb;
  uint64_t bytes = rowBytes * box[1] * box[2];
  checkNoPendingWgmma(t, tma.inst, tma.dst, tma.dst + bytes,
                      "a TMA copy (cp.async.bulk.tensor) completing now");
  std::vector<uint8_t> buf(bytes, 0); // out-of-bounds elements: zero
  for (uint32_t i2 = 0; i2 < box[2]; ++i2)
    for (uint32_t i1 = 0; i1 < box[1]; ++i1) {
      int64_t g2 = tma.coords[2] + i2, g1 = tma.coords[1] + i1;
      if (m.rank > 2 && (g2 < 0 || g2 >= int64_t(m.globalDim[2])))
        continue;
      if (m.rank > 1 && (g1 < 0 || g1 >= int64_t(m.globalDim[1])))
        continue;
      int64_t c0 = tma.coords[0];
      int64_t first = std::max<int64_t>(0, -c0);
      int64_t last =
          std::min<int64_t>(box[0], int64_t(m.globalDim[0]) - c0); // excl.
      if (first >= last)
        continue;
      uint64_t src = m.globalAddress + uint64_t(c0 + first) * eb +
                     (m.rank > 1 ? uint64_t(g1) * m.globalStride[1] : 0) +
                     (m.rank > 2 ? uint64_t(g2) * m.globalStride[2] : 0);
      uint64_t n = uint64_t(last - first) * eb;
      uint8_t *from = dev.resolve(src, n);
      if (!from)
        fault(t, tma.inst,
              "TMA: the tensor map's global memory " + dev.describe(src) +
                  " (" + std::to_string(n) +
                  " bytes) is not inside a device allocation");
      std::memcpy(&buf[(uint64_t(i2) * box[1] + i1) * rowBytes + first * eb],
                  from, n);
    }
  // Write through the swizzle in 16-byte chunks (the swizzle permutes
  // 16-byte chunks inside each 128-byte line).
  for (uint64_t off = 0; off < bytes; off += 16) {
    uint32_t logical = tma.dst + static_cast<uint32_t>(off);
    uint32_t addr = swizzleAddr(logical, m.swizzle);
    uint64_t n = std::min<uint64_t>(16, bytes - off);
    std::memcpy(&smem[addr], &buf[off], n);
    std::memset(&initialised[addr], 1, n);
    lineTag[addr / 128] = static_cast<uint8_t>(1 + m.swizzle);
  }
  auto it = mbars.find(tma.mbar);
  if (it == mbars.end())
    fault(t, tma.inst, "TMA completes on an mbarrier that no longer exists");
  MBarrier &mb = it->second;
  mb.inflight -= bytes;
  addTx(t, tma.inst, tma.mbar, mb, -static_cast<int64_t>(bytes));
  maybeCompletePhase(t, tma.inst, tma.mbar, mb);
}

//===----------------------------------------------------------------------===//
// The interpreter loop
//===----------------------------------------------------------------------===//

void CtaRun::step(Thread &t, uint32_t budget) {
  uint64_t *R = t.regs;
  const Inst *insts = p.insts.data();
  for (; budget; --budget) {
    const Inst &in = insts[t.pc];
    ++instCount;
    if (in.check >= 0) {
      Warpgroup &wg = wgs[t.tid / 128];
      for (auto [wi, slot] : p.wgmmaChecks[in.check].operands) {
        int64_t tag = t.wgTag[wi];
        if (tag >= 0 && tag >= wg.completed)
          fault(&t, t.pc,
                "reads the result of a wgmma.mma_async before a "
                "wgmma.wait_group covering it (commit group " +
                    std::to_string(tag) + " of the warpgroup; groups below " +
                    std::to_string(wg.completed) + " are complete)");
      }
    }
    const unsigned bits = in.bits;
    switch (in.op) {
    case Opcode::AddI:
      R[in.d] = maskBits(R[in.a] + R[in.b], bits);
      break;
    case Opcode::SubI:
      R[in.d] = maskBits(R[in.a] - R[in.b], bits);
      break;
    case Opcode::MulI:
      R[in.d] = maskBits(R[in.a] * R[in.b], bits);
      break;
    case Opcode::DivUI:
    case Opcode::RemUI: {
      uint64_t a = maskBits(R[in.a], bits), b = maskBits(R[in.b], bits);
      if (b == 0)
        fault(&t, t.pc, "integer division by zero");
      R[in.d] = in.op == Opcode::DivUI ? a / b : a % b;
      break;
    }
    case Opcode::DivSI:
    case Opcode::RemSI: {
      int64_t a = sext(R[in.a], bits), b = sext(R[in.b], bits);
      if (b == 0)
        fault(&t, t.pc, "integer division by zero");
      R[in.d] = maskBits(in.op == Opcode::DivSI ? a / b : a % b, bits);
      break;
    }
    case Opcode::AndI:
      R[in.d] = R[in.a] & R[in.b];
      break;
    case Opcode::OrI:
      R[in.d] = R[in.a] | R[in.b];
      break;
    case Opcode::XOrI:
      R[in.d] = R[in.a] ^ R[in.b];
      break;
    case Opcode::ShLI: {
      uint64_t s = R[in.b];
      R[in.d] = s >= bits ? 0 : maskBits(R[in.a] << s, bits);
      break;
    }
    case Opcode::ShRUI: {
      uint64_t s = R[in.b];
      R[in.d] = s >= bits ? 0 : maskBits(R[in.a], bits) >> s;
      break;
    }
    case Opcode::ShRSI: {
      uint64_t s = std::min<uint64_t>(R[in.b], bits - 1);
      R[in.d] = maskBits(sext(R[in.a], bits) >> s, bits);
      break;
    }
    case Opcode::MinSI:
      R[in.d] = sext(R[in.a], bits) < sext(R[in.b], bits) ? R[in.a] : R[in.b];
      break;
    case Opcode::MaxSI:
      R[in.d] = sext(R[in.a], bits) > sext(R[in.b], bits) ? R[in.a] : R[in.b];
      break;
    case Opcode::MinUI:
      R[in.d] = std::min(R[in.a], R[in.b]);
      break;
    case Opcode::MaxUI:
      R[in.d] = std::max(R[in.a], R[in.b]);
      break;
    case Opcode::CmpI:
      R[in.d] = cmpI(in.sub, R[in.a], R[in.b], bits);
      break;
    case Opcode::Select:
      R[in.d] = (R[in.a] & 1) ? R[in.b] : R[in.c];
      break;
    case Opcode::ExtUI:
      R[in.d] = maskBits(R[in.a], bits);
      break;
    case Opcode::ExtSI:
      R[in.d] = maskBits(sext(R[in.a], bits), static_cast<unsigned>(in.imm));
      break;
    case Opcode::TruncI:
      R[in.d] = maskBits(R[in.a], in.imm ? static_cast<unsigned>(in.imm) : 64);
      break;
    case Opcode::Copy:
      R[in.d] = R[in.a];
      break;
    case Opcode::AddF:
      R[in.d] = fromF32(asF32(R[in.a]) + asF32(R[in.b]));
      break;
    case Opcode::SubF:
      R[in.d] = fromF32(asF32(R[in.a]) - asF32(R[in.b]));
      break;
    case Opcode::MulF:
      R[in.d] = fromF32(asF32(R[in.a]) * asF32(R[in.b]));
      break;
    case Opcode::DivF:
      R[in.d] = fromF32(asF32(R[in.a]) / asF32(R[in.b]));
      break;
    case Opcode::MaximumF:
      R[in.d] = fromF32(maximumF(asF32(R[in.a]), asF32(R[in.b])));
      break;
    case Opcode::MinimumF:
      R[in.d] = fromF32(minimumF(asF32(R[in.a]), asF32(R[in.b])));
      break;
    case Opcode::MaxNumF:
      R[in.d] = fromF32(std::fmax(asF32(R[in.a]), asF32(R[in.b])));
      break;
    case Opcode::MinNumF:
      R[in.d] = fromF32(std::fmin(asF32(R[in.a]), asF32(R[in.b])));
      break;
    case Opcode::NegF:
      R[in.d] = R[in.a] ^ 0x80000000u;
      break;
    case Opcode::AbsF:
      R[in.d] = R[in.a] & 0x7FFFFFFFu;
      break;
    case Opcode::CmpF:
      R[in.d] = cmpF(in.sub, asF32(R[in.a]), asF32(R[in.b]));
      break;
    case Opcode::Fma:
      R[in.d] =
          fromF32(std::fmaf(asF32(R[in.a]), asF32(R[in.b]), asF32(R[in.c])));
      break;
    case Opcode::ExtBF16:
      R[in.d] = (R[in.a] & 0xFFFF) << 16;
      break;
    case Opcode::TruncBF16:
      R[in.d] = truncToBF16(static_cast<uint32_t>(R[in.a]));
      break;
    case Opcode::SIToFP:
      R[in.d] = fromF32(static_cast<float>(sext(R[in.a], bits)));
      break;
    case Opcode::UIToFP:
      R[in.d] = fromF32(static_cast<float>(maskBits(R[in.a], bits)));
      break;
    case Opcode::FPToSI:
    case Opcode::FPToUI: {
      float f = asF32(R[in.a]);
      double lim = std::ldexp(1.0, static_cast<int>(in.imm) -
                                       (in.op == Opcode::FPToSI ? 1 : 0));
      double lo = in.op == Opcode::FPToSI ? -lim : 0;
      if (!(f >= lo && f < lim)) // poison in MLIR: flag it
        fault(&t, t.pc, "float-to-integer conversion out of range");
      R[in.d] = maskBits(static_cast<uint64_t>(static_cast<int64_t>(f)),
                         static_cast<unsigned>(in.imm));
      break;
    }
    case Opcode::Gep: {
      uint64_t addr = R[in.a] + in.imm;
      for (const GepTerm &g : p.geps[in.x])
        addr += sext(R[g.slot], g.bits) * g.scale;
      R[in.d] = addr;
      break;
    }
    case Opcode::Load:
    case Opcode::Store: {
      const MemAccess &m = p.mems[in.x];
      uint64_t addr = R[in.a];
      uint32_t bytes = uint32_t(m.elementBytes) * m.count;
      bool isLoad = in.op == Opcode::Load;
      if (addr % std::min<uint32_t>(bytes, 16)) {
        std::ostringstream os;
        os << "misaligned " << (isLoad ? "load" : "store") << " of " << bytes
           << " bytes at 0x" << std::hex << addr;
        fault(&t, t.pc, os.str());
      }
      uint8_t *mem;
      if (m.addressSpace == 3 || m.addressSpace == 7) {
        checkShared(&t, t.pc, addr, bytes, isLoad ? "load" : "store");
        mem = &smem[addr];
        if (isLoad) {
          checkInitialised(&t, t.pc, addr, bytes);
        } else {
          checkNoPendingWgmma(&t, t.pc, addr, addr + bytes, "a store");
          std::memset(&initialised[addr], 1, bytes);
          lineTag[addr / 128] = 0;
        }
      } else {
        mem = dev.resolve(addr, bytes);
        if (!mem)
          fault(&t, t.pc,
                std::string("out-of-bounds global-memory ") +
                    (isLoad ? "load" : "store") + " of " +
                    std::to_string(bytes) + " bytes at " + dev.describe(addr));
      }
      for (uint32_t e = 0; e < m.count; ++e) {
        uint8_t *q = mem + e * m.elementBytes;
        if (isLoad) {
          uint64_t v = 0;
          std::memcpy(&v, q, m.elementBytes);
          R[in.d + e] = v;
        } else {
          std::memcpy(q, &R[in.b + e], m.elementBytes);
        }
      }
      break;
    }
    case Opcode::InsertElement: {
      uint64_t pos = R[in.c];
      if (pos >= uint64_t(in.imm))
        fault(&t, t.pc, "insertelement position out of range");
      std::memmove(&R[in.d], &R[in.a], in.imm * 8);
      R[in.d + pos] = R[in.b];
      break;
    }
    case Opcode::ExtractElement: {
      uint64_t pos = R[in.c];
      if (pos >= uint64_t(in.imm))
        fault(&t, t.pc, "extractelement position out of range");
      R[in.d] = R[in.a + pos];
      break;
    }
    case Opcode::CopyN:
      std::memmove(&R[in.d], &R[in.a], in.imm * 8);
      break;
    case Opcode::Br:
    case Opcode::CondBr: {
      int32_t set = in.op == Opcode::Br || (R[in.a] & 1)
                        ? in.x
                        : static_cast<int32_t>(in.imm);
      const CopySet &cs = p.copySets[set];
      if (cs.copies.size() == 1) {
        const Copy &c = cs.copies[0];
        std::memmove(&R[c.dst], &R[c.src], c.count * 8);
      } else if (!cs.copies.empty()) {
        uint64_t tmp[512];
        std::vector<uint64_t> big;
        uint64_t *buf = tmp;
        if (cs.total > 512) {
          big.resize(cs.total);
          buf = big.data();
        }
        uint32_t o = 0;
        for (const Copy &c : cs.copies) {
          std::memcpy(buf + o, &R[c.src], c.count * 8);
          o += c.count;
        }
        o = 0;
        for (const Copy &c : cs.copies) {
          std::memcpy(&R[c.dst], buf + o, c.count * 8);
          o += c.count;
        }
      }
      t.pc = cs.target;
      continue;
    }
    case Opcode::Return: {
      t.state = State::Done;
      --live;
      --wgs[t.tid / 128].live;
      // A CTA barrier waiting only for exited threads completes now.
      if (!ctaBarrier.threads.empty() && ctaBarrier.threads.size() == live)
        release(ctaBarrier, ~0u);
      return;
    }
    case Opcode::Tid:
      R[in.d] = t.tid;
      break;
    case Opcode::CtaId:
      R[in.d] = cta;
      break;
    case Opcode::NCtaId:
      R[in.d] = dims.grid;
      break;
    case Opcode::NTid:
      R[in.d] = dims.block;
      break;
    case Opcode::Nop:
      break;
    case Opcode::Barrier0:
      if (arrive(ctaBarrier, t, live, "barrier0")) {
        release(ctaBarrier, t.tid);
        continue;
      }
      t.state = State::Blocked;
      return;
    case Opcode::MbarInit: {
      uint64_t addr = R[in.a];
      if (addr % 8)
        fault(&t, t.pc, "mbarrier address is not 8-byte aligned");
      checkShared(&t, t.pc, addr, 8, "mbarrier.init");
      uint32_t count = static_cast<uint32_t>(R[in.b]);
      if (count == 0 || count > (1u << 20) - 1)
        fault(&t, t.pc, "mbarrier.init count must be in 1..2^20-1");
      MBarrier &mb = mbars[static_cast<uint32_t>(addr)];
      if (!mb.waiters.empty() || mb.inflight)
        fault(&t, t.pc, "mbarrier.init of an mbarrier in use");
      mb = MBarrier();
      mb.expected = mb.pending = count;
      mb.initInst = t.pc;
      std::memset(&initialised[addr], 1, 8);
      break;
    }
    case Opcode::MbarArrive:
    case Opcode::MbarArriveTx: {
      uint32_t addr = static_cast<uint32_t>(R[in.a]);
      MBarrier &mb = mbarrier(&t, t.pc, addr);
      if (mb.pending == 0)
        fault(&t, t.pc,
              "arrival on an mbarrier whose current phase has no pending "
              "arrivals left (more arrivals than its init count): " +
                  describe(addr, mb));
      if (in.op == Opcode::MbarArriveTx)
        addTx(&t, t.pc, addr, mb, static_cast<int64_t>(R[in.b] & 0xFFFFFFFF));
      --mb.pending;
      if (mb.tx < 0 && mb.pending == 0)
        addTx(&t, t.pc, addr, mb, 0); // reports the overflow
      maybeCompletePhase(&t, t.pc, addr, mb);
      break;
    }
    case Opcode::MbarTryWait: {
      uint32_t addr = static_cast<uint32_t>(R[in.a]);
      MBarrier &mb = mbarrier(&t, t.pc, addr);
      uint32_t parity = R[in.b] & 1;
      if ((mb.phase & 1) != parity)
        break; // the phase with this parity has completed
      mb.waiters.push_back((t.tid << 1) | parity);
      t.state = State::Blocked;
      return;
    }
    case Opcode::Tma:
      issueTma(t, in);
      break;
    case Opcode::PrefetchTensorMap: {
      // A cache hint without effect on the results, but its operand must be
      // what TMA will read: an encoded, 64-byte aligned tensor map.
      uint64_t mapAddr = R[in.a];
      TensorMap m;
      if (mapAddr % 64)
        fault(&t, t.pc,
              "prefetch.tensormap: the address is not 64-byte aligned");
      if (!dev.read(mapAddr, &m, sizeof(TensorMap)) ||
          m.magic != TensorMap::kMagic)
        fault(&t, t.pc,
              "prefetch.tensormap: " + dev.describe(mapAddr) +
                  " does not point to an encoded tensor map");
      break;
    }
    case Opcode::WgFence:
    case Opcode::WgMma:
    case Opcode::WgCommit:
    case Opcode::WgWait:
    case Opcode::SetMaxReg: {
      Warpgroup &wg = wgs[t.tid / 128];
      if (wg.live != std::min<uint32_t>(128, dims.block - 128 * (t.tid / 128)))
        fault(&t, t.pc,
              "warpgroup collective (.sync.aligned) reached after threads of "
              "the warpgroup exited");
      if (!arrive(wg.coll, t, wg.live, "warpgroup collective")) {
        t.state = State::Blocked;
        return;
      }
      if (in.op == Opcode::WgMma)
        executeWgmma(wg, wg.coll.threads, in, t.pc);
      else if (in.op == Opcode::WgCommit)
        ++wg.commits;
      else if (in.op == Opcode::WgWait) {
        wg.completed = std::max<int64_t>(wg.completed, wg.commits - in.imm);
        std::vector<OutstandingRead> keep;
        for (const OutstandingRead &r : wg.reads)
          if (r.group >= wg.completed)
            keep.push_back(r);
        wg.reads.swap(keep);
      }
      release(wg.coll, t.tid);
      continue;
    }
    case Opcode::Shfl: {
      Collective &w = warps[t.tid / 32];
      if (static_cast<uint32_t>(R[in.a]) != 0xFFFFFFFFu)
        fault(&t, t.pc,
              "shfl.sync with a partial member mask is not "
              "modelled");
      if (!arrive(w, t, 32, "shfl.sync")) {
        t.state = State::Blocked;
        return;
      }
      uint64_t in32[32], out[32];
      for (uint32_t u : w.threads)
        in32[u % 32] = threads[u].regs[in.b];
      for (uint32_t u : w.threads) {
        uint64_t *r = threads[u].regs;
        uint32_t lane = u % 32, b = r[in.c] & 0x1F, c = r[in.imm] & 0x1F,
                 seg = (r[in.imm] >> 8) & 0x1F;
        uint32_t maxLane = (lane & seg) | (c & ~seg), minLane = lane & seg;
        int64_t j;
        bool ok;
        switch (in.sub) {
        case 0:
          j = lane ^ b;
          ok = j <= maxLane;
          break; // bfly
        case 1:
          j = int64_t(lane) - b;
          ok = j >= maxLane;
          break; // up
        case 2:
          j = lane + b;
          ok = j <= maxLane;
          break; // down
        default:
          j = minLane | (b & ~seg);
          ok = j <= maxLane;
          break; // idx
        }
        out[lane] = in32[ok ? j : lane];
      }
      for (uint32_t u : w.threads)
        threads[u].regs[in.d] = out[u % 32];
      release(w, t.tid);
      continue;
    }
    case Opcode::WarpSync: {
      // bar.warp.sync: the warp's 32 lanes meet at the same instruction
      // (a warp collective like shfl.sync; partial masks not modelled).
      Collective &w = warps[t.tid / 32];
      if (static_cast<uint32_t>(R[in.a]) != 0xFFFFFFFFu)
        fault(&t, t.pc,
              "bar.warp.sync with a partial member mask is not modelled");
      if (!arrive(w, t, 32, "bar.warp.sync")) {
        t.state = State::Blocked;
        return;
      }
      release(w, t.tid);
      continue;
    }
    case Opcode::CvtF8x2: {
      bool e5m2 = in.sub & 1, sat = in.sub & 2;
      uint8_t hi = cvtToFp8(asF32(R[in.a]), e5m2, sat);
      uint8_t lo = cvtToFp8(asF32(R[in.b]), e5m2, sat);
      R[in.d] = (uint64_t(hi) << 8) | lo;
      break;
    }
    }
    ++t.pc;
    if (opt.maxInstructions && instCount > opt.maxInstructions)
      fault(&t, t.pc, "instruction limit reached");
    if (opt.stop && (instCount & 4095) == 0 &&
        opt.stop->load(std::memory_order_relaxed))
      fault(&t, t.pc, "interrupted (the caller asked the launch to stop)");
  }
}

void CtaRun::deadlock() {
  std::ostringstream os;
  os << "fp8-emu: error: deadlock: every live thread of the CTA is blocked "
        "and no TMA copy is in flight\n";
  // Group the blocked threads by instruction.
  std::map<int32_t, std::vector<uint32_t>> byInst;
  for (const Thread &t : threads)
    if (t.state == State::Blocked)
      byInst[t.pc].push_back(t.tid);
  for (auto &[inst, tids] : byInst) {
    os << "  " << tids.size() << " thread(s) (first: thread " << tids.front()
       << ") blocked at " << p.locs[inst] << "\n";
    const Inst &in = p.insts[inst];
    if (in.op == Opcode::MbarTryWait) {
      const Thread &t = threads[tids.front()];
      uint32_t addr = static_cast<uint32_t>(t.regs[in.a]);
      const MBarrier &mb = mbars[addr];
      os << "    waiting for parity " << (t.regs[in.b] & 1) << " of "
         << describe(addr, mb) << "\n";
      if (mb.pending == 0 && mb.tx > 0)
        os << "    expect_tx: " << mb.tx
           << " announced bytes never arrived (no TMA copy in flight)\n";
    }
  }
  os << "  in kernel '" << p.name << "', CTA " << cta << "\n";
  report = os.str();
  throw FaultStop();
}

bool CtaRun::run(std::string &out) {
  try {
    while (true) {
      if (runnable.empty() && tmas.empty()) {
        if (live == 0)
          break;
        deadlock();
      }
      if (int c = landing.pick(tmas, !runnable.empty()); c >= 0) {
        completeTma(c);
        continue;
      }
      size_t i = rng() % runnable.size();
      uint32_t tid = runnable[i];
      Thread &t = threads[tid];
      step(t, 1 + rng() % opt.maxQuantum);
      if (t.state != State::Runnable) {
        // It may have been moved by wake() during its own step: find it.
        if (runnable[i] != tid)
          i = std::find(runnable.begin(), runnable.end(), tid) -
              runnable.begin();
        runnable[i] = runnable.back();
        runnable.pop_back();
      }
    }
  } catch (FaultStop &) {
    out = report;
    return false;
  }
  return true;
}

} // namespace

bool mlir::fp8::emu::getAccumulator(const std::string &name,
                                    WgmmaAccumulateFn &out) {
  if (name == "exact")
    out = nullptr;
  else if (name == "sm90")
    out = sm90Accumulate;
  else if (name == "sm89")
    out = sm89Accumulate;
  else
    return false;
  return true;
}

LaunchResult KernelModule::launch(const std::string &kernel, Device &device,
                                  const LaunchDims &dims,
                                  const std::vector<KernelArg> &args,
                                  const Options &options) const {
  LaunchResult result;
  auto fail = [&](const std::string &what) {
    result.ok = false;
    result.report =
        "fp8-emu: error: launch of '" + kernel + "': " + what + "\n";
    return result;
  };
  auto it = programs.find(kernel);
  if (it == programs.end())
    return fail("no such kernel in the module");
  const Program &p = *it->second;
  if (static_cast<int>(args.size()) != p.numParams)
    return fail("expected " + std::to_string(p.numParams) + " arguments, got " +
                std::to_string(args.size()));
  if (dims.block == 0 || dims.block > 1024 || dims.grid == 0)
    return fail("grid and block must be positive, block at most 1024");
  if (p.maxThreads && dims.block > p.maxThreads)
    return fail("block of " + std::to_string(dims.block) +
                " threads exceeds the kernel's maxntid " +
                std::to_string(p.maxThreads));
  uint64_t shared =
      uint64_t(p.dynamicSharedBase - kSharedBase) + dims.dynamicSharedBytes;
  if (shared > kSharedLimit)
    return fail("shared memory of " + std::to_string(shared) +
                " bytes exceeds the sm_90 limit of " +
                std::to_string(kSharedLimit));
  Options opt = options;
  if (opt.maxQuantum == 0)
    opt.maxQuantum = 1;
  std::mt19937_64 rng(opt.seed);
  for (uint32_t cta = 0; cta < dims.grid; ++cta) {
    CtaRun run(p, device, dims, args, opt, cta, rng, result.instructions);
    if (!run.run(result.report)) {
      result.ok = false;
      return result;
    }
  }
  return result;
}
