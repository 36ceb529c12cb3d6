//===- Mbarrier.cpp - mbarrier phases and transaction counts --------------===//
//
// The mbarriers of a CTA (CtaRun.h), keyed by shared address: init, arrive
// (with expect_tx), try_wait.parity, and the complete_tx of TMA copies. A
// phase completes when both the pending arrivals and the transaction count
// reach zero; completing it while TMA bytes that signal it are still in
// flight, a transaction count out of range, more arrivals than the init
// count, or a use before init are faults.
//
//===----------------------------------------------------------------------===//
#include "CtaRun.h"

#include <cstring>
#include <sstream>

using namespace mlir::fp8::emu;

MBarrier &CtaRun::mbarrier(const Thread *t, int32_t inst, uint64_t addr) {
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

std::string CtaRun::describe(uint32_t addr, const MBarrier &mb) {
  std::ostringstream os;
  os << "mbarrier 0x" << std::hex << addr << std::dec << ": phase " << mb.phase
     << " (parity " << (mb.phase & 1) << "), " << mb.pending << " of "
     << mb.expected << " arrivals pending, tx-count " << mb.tx << ", "
     << mb.inflight << " TMA bytes in flight";
  return os.str();
}

void CtaRun::maybeCompletePhase(const Thread *t, int32_t inst, uint32_t addr,
                                MBarrier &mb) {
  if (mb.pending != 0 || mb.tx != 0)
    return;
  if (mb.inflight > 0) {
    softFault(t, inst,
              "mbarrier phase completed while " + std::to_string(mb.inflight) +
                  " bytes of TMA copies signalling it are still in flight: "
                  "expect_tx announced fewer bytes than the copies deliver "
                  "(" +
                  describe(addr, mb) + ")");
    // Continued: the phase completes when the copies have landed (their
    // complete_tx), as if expect_tx had announced them.
    return;
  }
  ++mb.phase;
  ++syncEpoch; // waiters of the phase are ordered after its arrivals
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

void CtaRun::wakeAfterWait(uint32_t t) {
  threads[t].pc++;
  wake(t);
}

void CtaRun::addTx(const Thread *t, int32_t inst, uint32_t addr, MBarrier &mb,
                   int64_t delta) {
  mb.tx += delta;
  if (mb.tx > (1 << 20) - 1 || mb.tx < -((1 << 20) - 1))
    fault(t, inst,
          "mbarrier transaction count out of range (+-(2^20-1)): " +
              describe(addr, mb));
  if (mb.tx < 0 && mb.pending == 0) {
    softFault(t, inst,
              "TMA copies delivered " + std::to_string(-mb.tx) +
                  " bytes more than expect_tx announced for the current "
                  "phase (transaction count overflow): " +
                  describe(addr, mb));
    // Continued: the surplus completes the phase.
    mb.tx = 0;
  }
}

void CtaRun::mbarrierInit(Thread &t, const Inst &in) {
  uint64_t addr = t.regs[in.a];
  if (addr % 8)
    fault(&t, t.pc, "mbarrier address is not 8-byte aligned");
  checkShared(&t, t.pc, addr, 8, "mbarrier.init");
  uint32_t count = static_cast<uint32_t>(t.regs[in.b]);
  if (count == 0 || count > (1u << 20) - 1)
    fault(&t, t.pc, "mbarrier.init count must be in 1..2^20-1");
  MBarrier &mb = mbars[static_cast<uint32_t>(addr)];
  if (!mb.waiters.empty() || mb.inflight) {
    softFault(&t, t.pc, "mbarrier.init of an mbarrier in use");
    return; // continued: the init is dropped
  }
  if (mb.initInst >= 0 &&
      (mb.pending != mb.expected || mb.tx != 0 || mb.phase != 0)) {
    softFault(&t, t.pc,
              "mbarrier.init of an initialised mbarrier whose current phase "
              "has arrivals or transactions (the init races with their "
              "arrive: a missing barrier between init and use?): " +
                  describe(static_cast<uint32_t>(addr), mb));
    return; // continued: the init is dropped, the arrivals are kept
  }
  mb = MBarrier();
  mb.expected = mb.pending = count;
  mb.initInst = t.pc;
  std::memset(&initialised[addr], 1, 8);
  if (auto it = initWaiters.find(static_cast<uint32_t>(addr));
      it != initWaiters.end()) {
    for (uint32_t w : it->second)
      wake(w); // their try_wait runs again
    initWaiters.erase(it);
  }
}

/// mbarrier.arrive and mbarrier.arrive.expect_tx, on this CTA's mbarrier or
/// (a shared::cluster address) a peer's: PTX ISA, mbarrier.arrive with
/// .shared::cluster has no state result, and its phase completion wakes the
/// owner's waiters.
void CtaRun::mbarrierArrive(Thread &t, const Inst &in) {
  uint64_t where = t.regs[in.a];
  CtaRun &o = sharedOwner(&t, t.pc, where, "mbarrier arrive");
  uint32_t addr = static_cast<uint32_t>(where);
  MBarrier &mb = o.mbarrier(&t, t.pc, addr);
  if (mb.pending == 0)
    fault(&t, t.pc,
          "arrival on an mbarrier whose current phase has no pending "
          "arrivals left (more arrivals than its init count): " +
              o.describe(addr, mb));
  if (in.op == Opcode::MbarArriveTx)
    o.addTx(&t, t.pc, addr, mb,
            static_cast<int64_t>(t.regs[in.b] & 0xFFFFFFFF));
  --mb.pending;
  if (mb.tx < 0 && mb.pending == 0)
    o.addTx(&t, t.pc, addr, mb, 0); // reports the overflow
  o.maybeCompletePhase(&t, t.pc, addr, mb);
}

Flow CtaRun::mbarrierTryWait(Thread &t, const Inst &in) {
  uint32_t addr = static_cast<uint32_t>(t.regs[in.a]);
  if (opt.continueOnFault && addr % 8 == 0 && !mbars.count(addr)) {
    std::ostringstream os;
    os << "mbarrier at 0x" << std::hex << addr << std::dec
       << " used before mbarrier.init (a wait racing the init: a missing "
          "barrier between them?)";
    softFault(&t, t.pc, os.str());
    // Continued: the wait blocks until the init (then waits as usual).
    initWaiters[addr].push_back(t.tid);
    t.state = State::Blocked;
    return Flow::Yield;
  }
  MBarrier &mb = mbarrier(&t, t.pc, addr);
  uint32_t parity = t.regs[in.b] & 1;
  if ((mb.phase & 1) != parity)
    return Flow::Next; // the phase with this parity has completed
  mb.waiters.push_back((t.tid << 1) | parity);
  t.state = State::Blocked;
  return Flow::Yield;
}
