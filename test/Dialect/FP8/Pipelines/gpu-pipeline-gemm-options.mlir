// fp8-gpu-pipeline forwards every GEMM kernel option to its
// fp8-lower-to-nvvm (GemmKernelOptions::copyFrom), and the pass takes the
// same options in its own textual form: each of the fourteen is given a value
// other than its default, so an option left out of the forwarding prints its
// default here. The options are declared once (GemmKernelOptions.h); the
// expected line is the one both forms printed when the pass (ODS) and the
// pipeline (Passes.h) declared them apart.

// RUN: fp8-opt %s -o /dev/null --dump-pass-pipeline --fp8-gpu-pipeline="config=fixed device=h100-sxm block-m=64 block-n=96 stages=3 consumers=1 group-m=4 cluster=2 promotion-schedule=lockstep swap-ab=never quantize-epilogue=false require-kernels=true store=tma waves=1 host=none" 2>&1 | FileCheck %s
// RUN: fp8-opt %s -o /dev/null --dump-pass-pipeline --fp8-lower-to-nvvm="config=fixed device=h100-sxm block-m=64 block-n=96 stages=3 consumers=1 group-m=4 cluster=2 promotion-schedule=lockstep swap-ab=never quantize-epilogue=false require-kernels=true store=tma waves=1" 2>&1 | FileCheck %s

// CHECK: fp8-lower-to-nvvm{block-m=64 block-n=96 chip=sm_90a cluster=2 config=fixed consumers=1 device=h100-sxm features=+ptx80 group-m=4 promotion-schedule=lockstep quantize-epilogue=false require-kernels=true stages=3 store=tma swap-ab=never waves=1}

// The defaults, forwarded as they are.
// RUN: fp8-opt %s -o /dev/null --dump-pass-pipeline --fp8-gpu-pipeline="host=none" 2>&1 | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: fp8-lower-to-nvvm{block-m=0 block-n=0 chip=sm_90a cluster=0 config=auto consumers=0 device=h200 features=+ptx80 group-m=0 promotion-schedule=auto quantize-epilogue=true require-kernels=false stages=0 store=global swap-ab=auto waves=0}

module {
}
