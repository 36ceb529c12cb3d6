//===- Cluster.cpp - barrier.cluster, mapa and shared::cluster addresses --===//
//
// The cluster side of a CTA (CtaRun.h): the cluster barrier, mapa and the
// resolution of shared::cluster addresses to a CTA of the cluster
// (distributed shared memory). PTX ISA sources:
// - barrier.cluster: arrive marks the thread's arrival without waiting; wait
//   waits until every non-exited thread of the cluster has arrived. Each
//   thread alternates arrive and wait (a second arrive before the wait, or a
//   wait without an arrive, is undefined: a fault here). .relaxed drops the
//   release ordering, .aligned requires the warp to execute the instruction
//   together: neither changes when the barrier completes.
// - mapa.shared::cluster d, a, b: the address in CTA rank b corresponding to
//   the shared::cta address a (b must name a CTA of the cluster).
// - The shared::cta window lies inside the shared::cluster window: a
//   shared::cta address used as shared::cluster names the executing CTA.
// - Distributed shared memory may be accessed only while the owning CTA is
//   running: the CUDA programming guide's rule is a cluster.sync() before
//   the first access (all CTAs have started) and before exit (no CTA exits
//   while others still access it). Checked here: a peer access before any
//   barrier.cluster.wait of the accessing CTA completed, and an access to a
//   CTA whose threads have all exited, are faults.
//
//===----------------------------------------------------------------------===//
#include "CtaRun.h"

#include <sstream>

using namespace mlir::fp8::emu;

CtaRun &CtaRun::sharedOwner(const Thread *t, int32_t inst, uint64_t &addr,
                            const char *what) {
  if (addr < kClusterWindow)
    return *this;
  uint64_t r = addr / kClusterWindow - 1;
  uint32_t size = static_cast<uint32_t>(cluster->ctas.size());
  if (r >= size) {
    std::ostringstream os;
    os << what << ": shared::cluster address 0x" << std::hex << addr << std::dec
       << " is outside the cluster (it names CTA rank " << r
       << ", the cluster has " << size << " CTA" << (size == 1 ? "" : "s")
       << ")";
    fault(t, inst, os.str());
  }
  addr %= kClusterWindow;
  if (r == rank)
    return *this;
  CtaRun &peer = *cluster->ctas[r];
  if (!clusterStarted)
    fault(t, inst,
          std::string(what) + " of the shared memory of CTA rank " +
              std::to_string(r) +
              " before any barrier.cluster.wait of this CTA completed (the "
              "peer CTA may not have started: cluster.sync first)");
  if (peer.live == 0)
    fault(t, inst,
          std::string(what) + " of the shared memory of CTA rank " +
              std::to_string(r) +
              ", whose threads have all exited (a barrier.cluster before "
              "its exit is missing)");
  return peer;
}

void CtaRun::mapa(Thread &t, const Inst &in) {
  uint64_t a = t.regs[in.a];
  uint32_t b = static_cast<uint32_t>(t.regs[in.b]);
  uint32_t size = static_cast<uint32_t>(cluster->ctas.size());
  if (b >= size)
    fault(&t, t.pc,
          "mapa: target CTA rank " + std::to_string(b) +
              " is not in the cluster of " + std::to_string(size) + " CTA" +
              (size == 1 ? "" : "s"));
  if (a >= kClusterWindow) {
    std::ostringstream os;
    os << "mapa: 0x" << std::hex << a << std::dec
       << " is not a shared::cta address";
    fault(&t, t.pc, os.str());
  }
  checkShared(&t, t.pc, a, 1, "mapa operand");
  t.regs[in.d] = (uint64_t(b) + 1) * kClusterWindow + a;
}

Flow CtaRun::clusterArrive(Thread &t) {
  if (t.clusterArrived)
    fault(&t, t.pc,
          "barrier.cluster.arrive twice without a barrier.cluster.wait "
          "between them");
  t.clusterArrived = true;
  t.clusterPhase = cluster->phase;
  ++cluster->arrived;
  maybeCompleteClusterBarrier();
  return Flow::Next;
}

Flow CtaRun::clusterWait(Thread &t) {
  if (!t.clusterArrived)
    fault(&t, t.pc,
          "barrier.cluster.wait without a preceding barrier.cluster.arrive");
  if (cluster->phase > t.clusterPhase) {
    t.clusterArrived = false;
    clusterStarted = true;
    return Flow::Next;
  }
  cluster->waiters.push_back({this, t.tid});
  t.state = State::Blocked;
  return Flow::Yield;
}

void CtaRun::maybeCompleteClusterBarrier() {
  Cluster &c = *cluster;
  if (c.arrived == 0 || c.arrived != c.live)
    return;
  ++c.phase;
  c.arrived = 0;
  for (CtaRun *cta : c.ctas)
    ++cta->syncEpoch; // the waiters are ordered after every arrival
  std::vector<std::pair<CtaRun *, uint32_t>> waiters;
  waiters.swap(c.waiters);
  for (auto [cta, w] : waiters) {
    cta->threads[w].clusterArrived = false;
    cta->clusterStarted = true;
    cta->wakeAfterWait(w);
  }
}
