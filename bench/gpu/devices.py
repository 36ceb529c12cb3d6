#!/usr/bin/env python3
"""The GPUs the device session may run on, keyed by the name the device gives
(nvidia-smi's `name`, CUDA's device name: the same string): the datasheet
HBM bandwidth the memory-bound kernels are reported against, and the chip
of the GEMM cost model (fp8-gpu-pipeline's `device`) that describes it.
families.py and session_report.py read it; no PyTorch, no MLIR.

Sources: NVIDIA H100 Tensor Core GPU datasheet (H100 SXM 3.35 TB/s, H100
NVL 3.9 TB/s, H100 PCIe 2 TB/s), NVIDIA H200 Tensor Core GPU datasheet (H200
SXM and NVL 4.8 TB/s). The cost model (lib/Target/Hopper/GemmCostModel.cpp)
describes the SXM parts only: the others have no chip.

  devices.py NAME   prints the entry of the GPU named NAME
"""
import sys

# (name contains, HBM TB/s, cost-model chip): the first match wins, so a
# more specific name comes before the one it contains. A GH200's name
# contains "H200" but its memory is 96 GB of HBM3 (4.0 TB/s) or 144 GB of
# HBM3e (4.9 TB/s), which the name alone does not tell: no figure.
DEVICES = (
    ("GH200", None, None),
    ("H200 NVL", 4.8, None),
    ("H200", 4.8, "h200"),
    ("H100 NVL", 3.9, None),
    ("H100 PCIe", 2.0, None),
    ("H100", 3.35, "h100-sxm"),  # "NVIDIA H100 80GB HBM3": the SXM5 part
)


def lookup(device_name):
    """(HBM TB/s, cost-model chip) of the GPU named so; (None, None) when
    the table does not know it."""
    for key, tbps, chip in DEVICES:
        if key in (device_name or ""):
            return tbps, chip
    return None, None


def hbm_tbps(device_name):
    """The datasheet HBM bandwidth (TB/s) of the GPU named so, or None."""
    return lookup(device_name)[0]


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    tbps, chip = lookup(sys.argv[1])
    print(f"{sys.argv[1]}: HBM {tbps if tbps else 'unknown'} TB/s, cost model chip {chip or 'none'}")
