//===- Scheduler.cpp - a CTA's threads and the seeded scheduler -----------===//
//
// The threads of one CTA (CtaRun.h), the scheduler loop that runs them and
// lands TMA copies (CopyLanding.h), thread exit, the deadlock and fault
// reports, and KernelModule::launch (CTAs one after another; the CTAs of a
// cluster interleaved under one scheduler, CtaRun::runCluster).
//
//===----------------------------------------------------------------------===//
#include "CtaRun.h"
#include "Numerics.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>

using namespace mlir::fp8::emu;

CtaRun::CtaRun(const Program &p, Device &dev, const LaunchDims &dims,
               const std::vector<KernelArg> &args, const Options &opt,
               uint32_t cta, std::mt19937_64 &rng, uint64_t &instCount,
               std::string &output)
    : p(p), dev(dev), dims(dims), opt(opt), cta(cta), rng(rng),
      instCount(instCount), output(output), landing(opt.copies, rng) {
  ctaXYZ[0] = cta % dims.grid;
  ctaXYZ[1] = cta / dims.grid % dims.gridY;
  ctaXYZ[2] = cta / dims.grid / dims.gridY;
  nthreads = static_cast<uint32_t>(dims.threads());
  accumulate = opt.accumulate;
  smemEnd = p.dynamicSharedBase + dims.dynamicSharedBytes;
  smem.assign(smemEnd, 0);
  initialised.assign(smemEnd, 0);
  lineTag.assign((smemEnd + 127) / 128, 0);
  uint32_t n = nthreads;
  localArena.assign(size_t(p.localBytes) * n, 0);
  storer.assign(smemEnd, 0);
  loader.assign(smemEnd, 0);
  otherLoader.assign(smemEnd, 0);
  storeEpoch.assign(smemEnd, 0);
  loadEpoch.assign(smemEnd, 0);
  storeFence.assign(smemEnd, 0);
  bulkCommits.assign(nthreads, 0);
  proxyFences.assign(nthreads, 0);
  localInit.assign(size_t(p.localBytes) * n, 0);
  size_t nregs = p.initialRegisters.size();
  regArena.resize(nregs * n);
  tagArena.assign(size_t(p.numWgmmaValues) * n, -1);
  threads.resize(n);
  for (uint32_t t = 0; t < n; ++t) {
    Thread &th = threads[t];
    th.tid = t;
    th.cta = cta;
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

void CtaRun::fault(const Thread *t, int32_t inst, const std::string &what) {
  report = faultReport(t, inst, what);
  throw FaultStop();
}

void CtaRun::softFault(const Thread *t, int32_t inst, const std::string &what) {
  if (!opt.continueOnFault)
    fault(t, inst, what);
  if (inst >= 0) {
    if (continuedAt.empty())
      continuedAt.assign(p.insts.size(), false);
    if (continuedAt[inst])
      return;
    continuedAt[inst] = true;
  }
  // At most 16 reports per CTA; the rest are counted.
  if (++continuedCount <= 16)
    continued += faultReport(t, inst, what + " (continued past it)");
}

std::string CtaRun::faultReport(const Thread *t, int32_t inst,
                                const std::string &what) {
  std::ostringstream os;
  os << "fp8-emu: error: " << what << "\n";
  if (inst >= 0)
    os << "  at " << p.locs[inst] << "\n";
  os << "  in kernel '" << p.name << "', CTA " << (t ? t->cta : cta);
  if (t)
    os << ", thread " << t->tid << " (warpgroup " << t->tid / 128 << ", warp "
       << t->tid / 32 << ", lane " << t->tid % 32 << ")";
  os << "\n";
  return os.str();
}

void CtaRun::wake(uint32_t t) {
  threads[t].state = State::Runnable;
  runnable.push_back(t);
}

Flow CtaRun::exit(Thread &t) {
  checkBulkReadsWaited(t);
  t.state = State::Done;
  --live;
  --wgs[t.tid / 128].live;
  // An exited thread no longer counts for barrier.cluster (nor does its
  // arrival in the current phase).
  if (t.clusterArrived && t.clusterPhase == cluster->phase)
    --cluster->arrived;
  --cluster->live;
  maybeCompleteClusterBarrier();
  // A CTA barrier waiting only for exited threads completes now.
  if (!ctaBarrier.threads.empty() && ctaBarrier.threads.size() == live)
    release(ctaBarrier, ~0u);
  for (NamedBarrier &b : named)
    if (b.wholeCta)
      maybeCompleteNamed(b, ~0u);
  return Flow::Yield;
}

void CtaRun::deadlock() {
  std::ostringstream os;
  os << "fp8-emu: error: deadlock: every live thread of the CTA is blocked "
        "and no TMA copy is in flight\n"
     << blockedThreads() << "  in kernel '" << p.name << "', CTA " << cta
     << "\n";
  report = os.str();
  throw FaultStop();
}

std::string CtaRun::blockedThreads() {
  std::ostringstream os;
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
    } else if (in.op == Opcode::NamedBarrier) {
      const Thread &t = threads[tids.front()];
      uint32_t id = in.a >= 0 ? static_cast<uint32_t>(t.regs[in.a]) : 0;
      const NamedBarrier &b = named[id];
      os << "    waiting at named barrier " << id << ": " << b.arrived << " of "
         << (b.wholeCta ? live : b.expected) << " threads arrived\n";
    } else if (in.op == Opcode::ClusterWait) {
      os << "    waiting for barrier.cluster: " << cluster->arrived << " of "
         << cluster->live << " live threads of the cluster arrived\n";
    }
  }
  return os.str();
}

bool CtaRun::schedule() {
  if (runnable.empty() && tmas.empty() && tmaStores.empty())
    return false;
  if (int c = landing.pick(tmas, !runnable.empty()); c >= 0) {
    completeTma(c);
    return true;
  }
  if (int c = landing.pick(tmaStores, !runnable.empty()); c >= 0) {
    completeTmaStore(c);
    return true;
  }
  size_t i;
  if (opt.lockstep) {
    // Round robin, one instruction each: a thread removed from `runnable`
    // (blocked, exited) is replaced in its slot by the last one, which then
    // runs next; woken threads join at the end.
    i = lockstepNext < runnable.size() ? lockstepNext : 0;
    lockstepNext = i + 1;
  } else {
    i = rng() % runnable.size();
  }
  uint32_t tid = runnable[i];
  Thread &t = threads[tid];
  step(t, opt.lockstep ? 1 : 1 + rng() % opt.maxQuantum);
  if (t.state != State::Runnable) {
    // It may have been moved by wake() during its own step: find it.
    if (runnable[i] != tid)
      i = std::find(runnable.begin(), runnable.end(), tid) - runnable.begin();
    runnable[i] = runnable.back();
    runnable.pop_back();
    if (opt.lockstep)
      lockstepNext = i; // the moved thread's turn
  }
  return true;
}

void CtaRun::lockstepRound() {
  // A round starts at slot 0 (a copy landing first leaves it there) and
  // ends when the last slot ran. Bounded: threads that wake each other
  // could extend a round for ever and starve the cluster's other CTAs.
  if (lockstepNext >= runnable.size())
    lockstepNext = 0;
  for (uint64_t steps = 0;
       steps < 4 * uint64_t(nthreads) + tmas.size() + tmaStores.size(); ++steps)
    if (!schedule() || lockstepNext >= runnable.size())
      return;
}

bool CtaRun::run(std::string &out) {
  try {
    while (schedule())
      ;
    if (live != 0)
      deadlock();
  } catch (FaultStop &) {
    out = report;
    return false;
  }
  return true;
}

bool CtaRun::runCluster(Cluster &c, std::mt19937_64 &rng, std::string &out) {
  std::vector<CtaRun *> busy;
  // Lockstep: the CTAs of the cluster take turns too, a whole round each
  // (one step per CTA would run the threads of a CTA with fewer runnable
  // threads, e.g. after one exited, ahead of the others').
  const bool lockstep = !c.ctas.empty() && c.ctas.front()->opt.lockstep;
  try {
    while (true) {
      busy.clear();
      for (CtaRun *cta : c.ctas)
        if (!cta->runnable.empty() || !cta->tmas.empty() ||
            !cta->tmaStores.empty())
          busy.push_back(cta);
      if (busy.empty())
        break;
      if (!lockstep) {
        busy[rng() % busy.size()]->schedule();
        continue;
      }
      for (CtaRun *cta : busy)
        cta->lockstepRound();
    }
    if (c.live != 0) {
      std::ostringstream os;
      os << "fp8-emu: error: deadlock: every live thread of the cluster is "
            "blocked and no TMA copy is in flight\n";
      for (CtaRun *cta : c.ctas) {
        std::string blocked = cta->blockedThreads();
        if (!blocked.empty())
          os << "  CTA " << cta->cta << " (rank " << cta->rank << "):\n"
             << blocked;
      }
      os << "  in kernel '" << c.ctas.front()->p.name
         << "', the cluster of CTA " << c.ctas.front()->cta << "\n";
      out = os.str();
      return false;
    }
  } catch (FaultStop &) {
    // The report is the one of the CTA that faulted (a thread's operation
    // on a peer's shared memory may fault in the peer's CtaRun).
    for (CtaRun *cta : c.ctas)
      if (!cta->report.empty())
        out = cta->report;
    return false;
  }
  return true;
}

bool mlir::fp8::emu::getAccumulator(const std::string &name,
                                    WgmmaAccumulation &out) {
  if (name == "exact")
    out = {};
  else if (name == "sm90")
    out = {sm90Accumulate, sm90Accumulate16};
  else if (name == "sm89")
    out = {sm89Accumulate, nullptr};
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
  if (dims.threads() == 0 || dims.threads() > 1024 || dims.ctas() == 0 ||
      dims.blockZ > 64 || dims.gridY > 65535 || dims.gridZ > 65535 ||
      dims.ctas() > (1ull << 32) - 1)
    return fail("grid and block must be positive, block at most 1024 "
                "threads (z at most 64), grid y and z at most 65535");
  if (dims.clusterX * dims.clusterY * dims.clusterZ > 16 ||
      dims.grid % dims.clusterX || dims.gridY % dims.clusterY ||
      dims.gridZ % dims.clusterZ || !dims.clusterX || !dims.clusterY ||
      !dims.clusterZ)
    return fail("a cluster must divide the grid and hold at most 16 CTAs");
  if (p.maxThreads && dims.threads() > p.maxThreads)
    return fail("block of " + std::to_string(dims.threads()) +
                " threads exceeds the kernel's maxntid " +
                std::to_string(p.maxThreads));
  // The CUDA limit is on the kernel's static shared memory (the globals it
  // reaches, not the module's) plus the launch's dynamic bytes. The static
  // part counts up to the dynamic array's 1024-byte alignment (the
  // generated kernels declare it so), where the dynamic bytes start.
  uint64_t staticShared = p.dynamicSharedBase - kSharedBase;
  uint64_t shared = staticShared + dims.dynamicSharedBytes;
  if (shared > kSharedLimit)
    return fail("shared memory of " + std::to_string(shared) + " bytes (" +
                std::to_string(staticShared) + " static, " +
                std::to_string(dims.dynamicSharedBytes) +
                " dynamic) exceeds the sm_90 limit of " +
                std::to_string(kSharedLimit));
  Options opt = options;
  if (opt.maxQuantum == 0)
    opt.maxQuantum = 1;
  std::mt19937_64 rng(opt.seed);
  auto collect = [&](CtaRun &run) {
    if (!run.continuedFaults().empty()) {
      result.ok = false;
      result.report = run.continuedFaults() + result.report;
    }
    if (run.continuedFaultCount() > 16)
      result.report +=
          "fp8-emu: error: " + std::to_string(run.continuedFaultCount() - 16) +
          " more faults of a CTA continued past (not shown)\n";
  };
  uint32_t clusterSize = dims.clusterX * dims.clusterY * dims.clusterZ;
  if (clusterSize == 1) {
    for (uint32_t cta = 0; cta < dims.ctas(); ++cta) {
      CtaRun run(p, device, dims, args, opt, cta, rng, result.instructions,
                 result.output);
      Cluster solo;
      solo.ctas = {&run};
      solo.live = static_cast<uint32_t>(dims.threads());
      run.join(solo, 0);
      bool ok = run.run(result.report);
      collect(run);
      if (!ok) {
        result.ok = false;
        return result;
      }
    }
    return result;
  }
  // Clusters one after another, the CTAs of each interleaved. A CTA's
  // linear index: x fastest; its rank: x fastest inside the cluster.
  uint32_t ncl[3] = {dims.grid / dims.clusterX, dims.gridY / dims.clusterY,
                     dims.gridZ / dims.clusterZ};
  for (uint32_t cz = 0; cz < ncl[2]; ++cz)
    for (uint32_t cy = 0; cy < ncl[1]; ++cy)
      for (uint32_t cx = 0; cx < ncl[0]; ++cx) {
        std::vector<std::unique_ptr<CtaRun>> runs;
        Cluster cluster;
        for (uint32_t r = 0; r < clusterSize; ++r) {
          uint32_t x = cx * dims.clusterX + r % dims.clusterX;
          uint32_t y = cy * dims.clusterY + r / dims.clusterX % dims.clusterY;
          uint32_t z = cz * dims.clusterZ + r / dims.clusterX / dims.clusterY;
          uint32_t cta = x + dims.grid * (y + dims.gridY * z);
          runs.push_back(std::make_unique<CtaRun>(p, device, dims, args, opt,
                                                  cta, rng, result.instructions,
                                                  result.output));
          runs.back()->join(cluster, r);
          cluster.ctas.push_back(runs.back().get());
        }
        cluster.live = static_cast<uint32_t>(dims.threads()) * clusterSize;
        bool ok = CtaRun::runCluster(cluster, rng, result.report);
        for (auto &run : runs)
          collect(*run);
        if (!ok) {
          result.ok = false;
          return result;
        }
      }
  return result;
}
