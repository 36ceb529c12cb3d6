//===- Collectives.cpp - warp and CTA collectives -------------------------===//
//
// The .sync.aligned collectives of a CTA (CtaRun.h): every participating
// thread must arrive at the same instruction (a divergent arrival is a
// fault); the last arrival executes the collective and releases the others
// past it. barrier0 waits for the CTA's live threads (a barrier waiting only
// for exited threads completes at their exit, Scheduler.cpp), shfl.sync and
// bar.warp.sync for the warp's 32 lanes (full member masks only). The
// named barriers (bar.sync / bar.arrive with an id and a thread count) are
// not .aligned across the CTA: they count arrivals, from any instruction,
// up to their thread count. The warpgroup collectives are in Wgmma.cpp.
//
//===----------------------------------------------------------------------===//
#include "CtaRun.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <sstream>

using namespace mlir::fp8::emu;

bool CtaRun::arrive(Collective &c, Thread &t, uint32_t expected,
                    const char *what) {
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

void CtaRun::release(Collective &c, uint32_t self) {
  ++syncEpoch; // a barrier orders the shared-memory accesses around it
  for (uint32_t u : c.threads) {
    threads[u].pc++;
    if (u != self)
      wake(u);
  }
  c.inst = -1;
  c.threads.clear();
}

Flow CtaRun::barrier0(Thread &t) {
  if (arrive(ctaBarrier, t, live, "barrier0")) {
    release(ctaBarrier, t.tid);
    return Flow::Jump;
  }
  t.state = State::Blocked;
  return Flow::Yield;
}

Flow CtaRun::namedBarrier(Thread &t, const Inst &in) {
  const char *what = in.sub ? "bar.arrive" : "bar.sync";
  uint64_t id = in.a >= 0 ? static_cast<uint32_t>(t.regs[in.a]) : 0;
  bool wholeCta = in.b < 0;
  uint64_t count = wholeCta ? live : static_cast<uint32_t>(t.regs[in.b]);
  std::ostringstream os;
  if (id >= kNamedBarriers)
    os << what << ": barrier id " << id << " outside 0..15";
  else if (!wholeCta && (count == 0 || count % 32 || count > nthreads))
    os << what << ": thread count " << count
       << " is not a positive multiple of the warp size (32) up to the "
          "CTA's "
       << nthreads << " threads";
  if (!os.str().empty())
    fault(&t, t.pc, os.str());
  NamedBarrier &b = named[id];
  bool mismatch =
      b.wholeCta || wholeCta ? b.wholeCta != wholeCta : b.expected != count;
  if (b.arrived && mismatch) {
    os << what << ": threads arrive at barrier " << id << " with thread "
       << "counts " << (b.wholeCta ? "all" : std::to_string(b.expected))
       << " and " << (wholeCta ? "all" : std::to_string(count));
    fault(&t, t.pc, os.str());
  }
  b.expected = static_cast<uint32_t>(count);
  b.wholeCta = wholeCta;
  ++b.arrived;
  if (in.sub) { // bar.arrive: counted, never waits
    maybeCompleteNamed(b, ~0u);
    return Flow::Next;
  }
  b.waiting.push_back(t.tid);
  if (maybeCompleteNamed(b, t.tid))
    return Flow::Jump; // the last arrival: its pc already advanced
  t.state = State::Blocked;
  return Flow::Yield;
}

bool CtaRun::maybeCompleteNamed(NamedBarrier &b, uint32_t self) {
  if (!b.arrived || b.arrived < (b.wholeCta ? live : b.expected))
    return false;
  ++syncEpoch; // the waiters are ordered after every arrival
  for (uint32_t u : b.waiting) {
    threads[u].pc++;
    if (u != self) // the running thread is already runnable
      wake(u);
  }
  b = NamedBarrier();
  return true;
}

/// The source lane of shfl.sync kind `kind` (0 bfly, 1 up, 2 down, 3 idx)
/// for `lane` with operand `b` and the clamp/segment mask `cval`; its own
/// lane when out of range (PTX ISA shfl.sync).
static uint32_t shuffleSource(uint8_t kind, uint32_t lane, uint32_t b,
                              uint64_t cval) {
  uint32_t c = cval & 0x1F, seg = (cval >> 8) & 0x1F;
  uint32_t maxLane = (lane & seg) | (c & ~seg), minLane = lane & seg;
  int64_t j;
  bool ok;
  switch (kind) {
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
  return ok ? static_cast<uint32_t>(j) : lane;
}

Collective *CtaRun::arriveWarp(Thread &t, const Inst &in, const char *what) {
  Collective &w = warps[t.tid / 32];
  // A warp of a block that is not a multiple of 32 threads has fewer lanes.
  uint32_t lanes = std::min<uint32_t>(32, nthreads - t.tid / 32 * 32);
  uint32_t full = lanes == 32 ? 0xFFFFFFFFu : (1u << lanes) - 1;
  uint32_t mask = in.a >= 0 ? static_cast<uint32_t>(t.regs[in.a]) : 0xFFFFFFFFu;
  if (!(mask >> (t.tid % 32) & 1)) {
    char hex[16];
    std::snprintf(hex, sizeof(hex), "0x%x", mask);
    // Continued as the whole warp's collective (what a converged warp
    // executes).
    softFault(&t, t.pc,
              std::string(what) + " with member mask " + hex +
                  ", which does not include the executing lane " +
                  std::to_string(t.tid % 32) + " (undefined behaviour)");
  } else if ((mask & full) != full) {
    // Continued as the whole warp's collective: right when every lane
    // executes it converged (upstream's tests), not modelled otherwise.
    softFault(&t, t.pc,
              std::string(what) + " with a partial member mask is not "
                                  "modelled");
  }
  if (!arrive(w, t, lanes, what)) {
    t.state = State::Blocked;
    return nullptr;
  }
  return &w;
}

Flow CtaRun::shuffle(Thread &t, const Inst &in) {
  Collective *w = arriveWarp(t, in, "shfl.sync");
  if (!w)
    return Flow::Yield;
  uint64_t in32[32], out[32];
  for (uint32_t u : w->threads)
    in32[u % 32] = threads[u].regs[in.b];
  for (uint32_t u : w->threads) {
    uint64_t *r = threads[u].regs;
    uint32_t lane = u % 32;
    out[lane] = in32[shuffleSource(in.sub, lane, r[in.c] & 0x1F, r[in.imm])];
  }
  for (uint32_t u : w->threads)
    threads[u].regs[in.d] = out[u % 32];
  release(*w, t.tid);
  return Flow::Jump;
}

Flow CtaRun::warpSync(Thread &t, const Inst &in) {
  // bar.warp.sync: the warp's 32 lanes meet at the same instruction
  // (a warp collective like shfl.sync; partial masks not modelled).
  Collective *w = arriveWarp(t, in, "bar.warp.sync");
  if (!w)
    return Flow::Yield;
  release(*w, t.tid);
  return Flow::Jump;
}

Flow CtaRun::electSync(Thread &t, const Inst &in) {
  // elect.sync (full member mask): the lowest lane of the warp is the
  // leader (PTX ISA: a deterministic choice; the hardware elects the lowest
  // active lane).
  Collective *w = arriveWarp(t, in, "elect.sync");
  if (!w)
    return Flow::Yield;
  uint32_t leader = *std::min_element(w->threads.begin(), w->threads.end());
  for (uint32_t u : w->threads)
    threads[u].regs[in.d] = u == leader;
  release(*w, t.tid);
  return Flow::Jump;
}

Flow CtaRun::stMatrix(Thread &t, const Inst &in) {
  // PTX ISA, stmatrix (m8n8, b16): matrix i's row r is stored at the
  // address of lane 8 i + r (16 contiguous bytes, 16-byte aligned); its
  // element (r, c) is half c % 2 (the low half first) of source register i
  // of lane 4 r + c / 2. With .trans the matrix is stored transposed: the
  // row at lane 8 i + j's address holds column j.
  Collective *w = arriveWarp(t, in, "stmatrix");
  if (!w)
    return Flow::Yield;
  if (w->threads.size() != 32)
    fault(&t, t.pc, "stmatrix in a warp of fewer than 32 threads");
  uint32_t base = t.tid / 32 * 32;
  const std::vector<GepTerm> &sources = p.geps[in.x];
  const MemAccess row{2, 8, 3};
  for (int64_t i = 0; i < in.imm; ++i)
    for (uint32_t r = 0; r < 8; ++r) {
      uint16_t halves[8];
      for (uint32_t c = 0; c < 8; ++c) {
        uint32_t fr = in.sub ? c : r, fc = in.sub ? r : c;
        uint64_t word = threads[base + 4 * fr + fc / 2].regs[sources[i].slot];
        halves[c] = static_cast<uint16_t>(word >> (16 * (fc % 2)));
      }
      Thread &lane = threads[base + 8 * i + r];
      uint8_t *mem = dataMemory(lane, row, lane.regs[in.b], 16, Access::Store);
      std::memcpy(mem, halves, 16);
    }
  release(*w, t.tid);
  return Flow::Jump;
}
