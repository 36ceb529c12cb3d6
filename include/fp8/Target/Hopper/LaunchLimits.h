//===- LaunchLimits.h - the grid and block a kernel launch may have -------===//
//
// What `mgpuLaunchKernel` (the entry point upstream `gpu-to-llvm` emits for
// `gpu.launch_func`) accepts of a launch's grid and block, checked by both
// runtimes that implement it: the CUDA one (runtime/), whose driver takes
// the dimensions as `unsigned int` (a grid x of 2^32 + 1 passed on would
// launch 1 CTA: a silently wrong result), and the emulated device
// (lib/Emulator/Runtime). Header-only and free of MLIR and CUDA headers.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_TARGET_HOPPER_LAUNCHLIMITS_H
#define FP8_TARGET_HOPPER_LAUNCHLIMITS_H

#include <array>
#include <cstdint>
#include <string>

namespace mlir::fp8 {

/// What is wrong with a launch's grid and block, empty when CUDA takes them:
/// the limits of compute capability 9.0 (CUDA C++ Programming Guide,
/// "Features and Technical Specifications"): grid x 1..2^31 - 1, y and z
/// 1..65535, block x and y 1..1024, z 1..64, at most 1024 threads. An empty
/// grid is CUDA_ERROR_INVALID_VALUE too: a host program launches nothing
/// for an empty problem (fp8-launch-kernels).
inline std::string checkLaunchDims(const std::array<intptr_t, 3> &grid,
                                   const std::array<intptr_t, 3> &block) {
  static constexpr intptr_t kGridMax[3] = {INT32_MAX, 65535, 65535};
  static constexpr intptr_t kBlockMax[3] = {1024, 1024, 64};
  static constexpr const char *kAxis[3] = {"x", "y", "z"};
  auto range = [](const char *what, int axis, intptr_t value, intptr_t max) {
    if (value >= 1 && value <= max)
      return std::string();
    return std::string(what) + " " + kAxis[axis] + " = " +
           std::to_string(value) + " is out of range: CUDA accepts 1.." +
           std::to_string(max) + (value == 0 ? " (an empty launch)" : "");
  };
  for (int i = 0; i < 3; ++i) {
    std::string err = range("grid", i, grid[i], kGridMax[i]);
    if (err.empty())
      err = range("block", i, block[i], kBlockMax[i]);
    if (!err.empty())
      return err;
  }
  if (block[0] * block[1] * block[2] > 1024)
    return "a block of " + std::to_string(block[0] * block[1] * block[2]) +
           " threads: CUDA accepts at most 1024";
  return "";
}

} // namespace mlir::fp8

#endif // FP8_TARGET_HOPPER_LAUNCHLIMITS_H
