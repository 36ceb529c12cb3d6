// Every option of the fp8 pipelines (fp8-pipeline, fp8-cpu-pipeline,
// fp8-gpu-pipeline), given a
// bad value, is a clear error naming the option, the bad value and what is
// expected; never a crash and never silently accepted.

// RUN: not fp8-opt %s --fp8-pipeline='overrides=proj' 2>&1 | FileCheck %s --check-prefix=PL-OVR
// PL-OVR: fp8-assign-precision: malformed override 'proj': missing ':'
// RUN: not fp8-opt %s --fp8-pipeline='overrides=proj:head' 2>&1 | FileCheck %s --check-prefix=PL-OVR-VALUE
// PL-OVR-VALUE: fp8-assign-precision: malformed override 'proj:head': unknown value 'head'
// RUN: not fp8-opt %s --fp8-pipeline='report-format=xml' 2>&1 | FileCheck %s --check-prefix=PL-FMT
// PL-FMT: fp8-report: unknown format 'xml' in option format (expected table or json)
// RUN: not fp8-opt %s --fp8-pipeline='report-output=%t.missing-dir/r.txt' 2>&1 | FileCheck %s --check-prefix=PL-OUT
// PL-OUT: fp8-report: option output: cannot write the report to '{{.*}}missing-dir/r.txt'
// RUN: not fp8-opt %s --fp8-pipeline='report=maybe' 2>&1 | FileCheck %s --check-prefix=PL-REPORT
// PL-REPORT: for the --report option: 'maybe' is invalid value for boolean argument
// RUN: not fp8-opt %s --fp8-pipeline='strict=maybe' 2>&1 | FileCheck %s --check-prefix=PL-STRICT
// PL-STRICT: for the --strict option: 'maybe' is invalid value for boolean argument
// RUN: not fp8-opt %s --fp8-pipeline='polcy=rowwise' 2>&1 | FileCheck %s --check-prefix=PL-UNKNOWN
// PL-UNKNOWN: no such option polcy
// RUN: not fp8-opt %s -fp8-cpu-pipeline='accumulator-bits=99' 2>&1 | FileCheck %s --check-prefix=ACC
// ACC: fp8-cpu-pipeline: option accumulator-bits=99 is out of range: expected 0 (exact f32 sums) or 1..24 (the emulated significand must fit an f32)
// ACC-NOT: see current operation
// RUN: not fp8-opt %s -fp8-cpu-pipeline='accumulator-bits=abc' 2>&1 | FileCheck %s --check-prefix=ACC-ABC
// ACC-ABC: for the --accumulator-bits option: 'abc' value invalid for uint argument!
// RUN: not fp8-opt %s -fp8-cpu-pipeline='accumulator=sm80' 2>&1 | FileCheck %s --check-prefix=MODEL
// MODEL: for the --accumulator option: Cannot find option named 'sm80'!
// RUN: not fp8-opt %s -fp8-cpu-pipeline='accumulator=sm90 accumulator-bits=14' 2>&1 | FileCheck %s --check-prefix=SM90-BITS
// SM90-BITS: fp8-cpu-pipeline: options accumulator=sm90 and accumulator-bits=14 contradict: accumulator-bits=N is the generic N-bit model, accumulator=exact|sm90|sm89 the exact sums and the hardware models; give one of them
// RUN: not fp8-opt %s -fp8-cpu-pipeline='accumulator=exact accumulator-bits=14' 2>&1 | FileCheck %s --check-prefix=EXACT-BITS
// EXACT-BITS: fp8-cpu-pipeline: options accumulator=exact and accumulator-bits=14 contradict
// RUN: not fp8-opt %s -fp8-cpu-pipeline='deallocate=maybe' 2>&1 | FileCheck %s --check-prefix=DEALLOC
// DEALLOC: for the --deallocate option: 'maybe' is invalid value for boolean argument
// RUN: not fp8-opt %s -fp8-gpu-pipeline='config=fixed chip=sm_80' 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: fp8-lower-to-nvvm: option chip='sm_80' is not supported: expected sm_90a (the kernel uses wgmma and setmaxnreg, which need the architecture-specific 'a' target of Hopper)
// RUN: not fp8-opt %s -fp8-gpu-pipeline='config=fixed features=+ptx78' 2>&1 | FileCheck %s --check-prefix=FEAT-OLD
// FEAT-OLD: fp8-lower-to-nvvm: option features='+ptx78': PTX ISA 7.8 is too old (expected +ptx80 or newer: wgmma needs PTX 8.0)
// RUN: not fp8-opt %s -fp8-gpu-pipeline='config=fixed format=ptx' 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: fp8-gpu-pipeline: option format='ptx' is not a gpu-module-to-binary format (expected isa (PTX), bin (cubin), fatbin or llvm)
// Options that another option turns off are errors naming both, never
// dropped silently: a swap-AB kernel has no cluster; the host kernels need
// the residency; both are about the host program of host=llvm only.
// RUN: not fp8-opt %s -fp8-gpu-pipeline='cluster=2 swap-ab=always' 2>&1 | FileCheck %s --check-prefix=CLUSTER-SWAP
// CLUSTER-SWAP: fp8-lower-to-nvvm: options cluster=2 and swap-ab=always contradict: a swap-AB kernel has no cluster (the CTAs of a cluster share the B tile, and the swapped kernel's B is the activation); give cluster=0 or 1 with swap-ab=always, or swap-ab=auto or never with cluster=2
// RUN: not fp8-opt %s -fp8-lower-to-nvvm='cluster=2 swap-ab=always' 2>&1 | FileCheck %s --check-prefix=CLUSTER-SWAP
// RUN: fp8-opt %s -fp8-gpu-pipeline='cluster=1 swap-ab=always' -o /dev/null
// RUN: fp8-opt %s -fp8-gpu-pipeline='cluster=2 swap-ab=never' -o /dev/null
// RUN: not fp8-opt %s -fp8-gpu-pipeline='host=llvm host-kernels=true resident=false' 2>&1 | FileCheck %s --check-prefix=KERNELS-COPY
// KERNELS-COPY: fp8-gpu-pipeline: options host-kernels=true and resident=false contradict: the host kernels need the residency (their launches take device buffers only); give resident=true (the default) with host-kernels=true, or host-kernels=false with resident=false
// RUN: not fp8-opt %s -fp8-gpu-pipeline='host=launch host-kernels=true' 2>&1 | FileCheck %s --check-prefix=KERNELS-LAUNCH
// KERNELS-LAUNCH: fp8-gpu-pipeline: options host=launch and host-kernels=true contradict: only host=llvm lowers the host program that host-kernels is about; give host=llvm, or leave host-kernels out
// RUN: not fp8-opt %s -fp8-gpu-pipeline='resident=false' 2>&1 | FileCheck %s --check-prefix=RESIDENT-LAUNCH
// RESIDENT-LAUNCH: fp8-gpu-pipeline: options host=launch and resident=false contradict: only host=llvm lowers the host program that resident is about; give host=llvm, or leave resident out
// RUN: not fp8-opt %s -fp8-gpu-pipeline='host=none host-kernels=false' 2>&1 | FileCheck %s --check-prefix=KERNELS-NONE
// KERNELS-NONE: fp8-gpu-pipeline: options host=none and host-kernels=false contradict
// The defaults, and resident=false alone with host=llvm (no host kernels),
// are fine.
// RUN: fp8-opt %s -fp8-gpu-pipeline='host=llvm resident=false' -o /dev/null
// RUN: fp8-opt %s -fp8-gpu-pipeline='host=llvm host-kernels=false resident=false' -o /dev/null
// RUN: fp8-opt %s -fp8-gpu-pipeline='config=fixed format=isa' -o /dev/null

func.func @f(%x: tensor<16x256xf32>, %w: tensor<256x512xf32>, %init: tensor<16x512xf32>) -> tensor<16x512xf32> {
  %y = linalg.matmul ins(%x, %w : tensor<16x256xf32>, tensor<256x512xf32>) outs(%init : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %y : tensor<16x512xf32>
}
