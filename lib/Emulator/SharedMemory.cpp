//===- SharedMemory.cpp - shared-memory checks, loads and stores ----------===//
//
// A CTA's shared memory (CtaRun.h): every access is checked against the
// launch's shared window, reads against what was stored or copied there
// (initialisation), and writes against the ranges that issued wgmma still
// read. Loads and stores go to shared memory (address spaces 3 and 7) or to
// the device's global allocations (Device::resolve, bounds-checked).
//
//===----------------------------------------------------------------------===//
#include "CtaRun.h"

#include <algorithm>
#include <cstring>
#include <sstream>

using namespace mlir::fp8::emu;

void CtaRun::checkShared(const Thread *t, int32_t inst, uint64_t addr,
                         uint64_t bytes, const char *what) {
  if (addr < kSharedBase || addr + bytes > smemEnd || addr + bytes < addr) {
    std::ostringstream os;
    os << "out-of-bounds shared-memory " << what << " of " << bytes
       << " bytes at 0x" << std::hex << addr << std::dec
       << " (shared memory of this launch: [0x" << std::hex << kSharedBase
       << ", 0x" << smemEnd << std::dec << "))";
    fault(t, inst, os.str());
  }
}

void CtaRun::checkInitialised(const Thread *t, int32_t inst, uint32_t addr,
                              uint32_t bytes) {
  if (!opt.checkUninitialisedShared)
    return;
  for (uint32_t i = 0; i < bytes; ++i)
    if (!initialised[addr + i]) {
      std::ostringstream os;
      os << "read of uninitialised shared memory at 0x" << std::hex << addr + i
         << std::dec << " (nothing stored or copied there "
         << "before this read)";
      fault(t, inst, os.str());
    }
}

void CtaRun::checkNoPendingWgmma(const Thread *t, int32_t inst, uint32_t lo,
                                 uint32_t hi, const char *writer) {
  for (uint32_t w = 0; w < wgs.size(); ++w)
    for (const OutstandingRead &r : wgs[w].reads)
      if (lo < r.hi && r.lo < hi) {
        std::ostringstream os;
        os << writer << " writes shared memory [0x" << std::hex << lo << ", 0x"
           << hi << ") that a wgmma.mma_async of warpgroup " << std::dec << w
           << " still reads ([0x" << std::hex << r.lo << ", 0x" << r.hi
           << std::dec
           << "), not yet covered by a wgmma.wait_group)\n  the wgmma: "
           << p.locs[r.inst];
        fault(t, inst, os.str());
      }
}

void CtaRun::loadStore(Thread &t, const Inst &in) {
  uint64_t *R = t.regs;
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
                (isLoad ? "load" : "store") + " of " + std::to_string(bytes) +
                " bytes at " + dev.describe(addr));
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
}
