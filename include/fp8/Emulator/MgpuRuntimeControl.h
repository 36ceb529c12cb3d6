//===- MgpuRuntimeControl.h - libfp8_emu_mgpu driven from C++ -*- C++ -*-===//
//
// For a host that runs compiled host code against libfp8_emu_mgpu in its own
// process (fp8-emu JIT-compiles the launchers of fp8-launch-kernels and
// calls them): the emulated device's options set in place of the FP8_EMU_*
// variables, faults kept instead of ending the process, and a record of
// each launch (the grid the launcher chose, the instructions run).
//
//===----------------------------------------------------------------------===//
#ifndef FP8_EMULATOR_MGPURUNTIMECONTROL_H
#define FP8_EMULATOR_MGPURUNTIMECONTROL_H

#include "fp8/Emulator/Emulator.h"

#include <string>
#include <vector>

namespace mlir::fp8::emu {

/// Every later launch of libfp8_emu_mgpu runs under `options` (seed,
/// quantum, copies, accumulator, uninitialised-memory check); the FP8_EMU_*
/// variables are no longer read. A fault or a misuse of the API is then
/// neither printed nor fatal: the first one is kept for fp8emuGetLastError
/// (a faulting launch stops, as with continueOnFault false; later calls
/// go on, their results undefined).
void setMgpuLaunchOptions(const Options &options);

/// One launch of libfp8_emu_mgpu while setMgpuLaunchOptions is in force.
struct MgpuLaunchRecord {
  std::string kernel;
  uint64_t ctas = 0;         // grid x * y * z
  uint64_t instructions = 0; // executed by all its threads
  bool ok = true;
};
/// The launches since the last call, in order; clears them.
std::vector<MgpuLaunchRecord> takeMgpuLaunchRecords();

} // namespace mlir::fp8::emu

#endif // FP8_EMULATOR_MGPURUNTIMECONTROL_H
