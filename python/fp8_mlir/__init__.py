"""fp8_mlir: the fp8-mlir compiler from Python.

- `run_pipeline(mlir_text, pipeline)`, `compile(mlir_text, policy, target)`:
  drive the compiler (fp8_mlir.compiler); `gpu_kernels(ir)`: the GPU
  kernels of a lowered module as their typed attributes say;
- `quantize`, `dequantize`, `scaled_matmul`, `grouped_scaled_matmul`: the
  numerics contract executed by the compiler's own CPU lowering, on NumPy
  arrays (fp8_mlir.numerics);
- `fp8_mlir.models`: generators of model graphs (linalg on tensors),
  written with the emitter of `fp8_mlir.graph`;
- `jit(mlir_text, pipeline, target=...)`: the ExecutionEngine underneath
  (fp8_mlir.jit), running a module on the CPU or, as a host program of
  fp8-gpu-pipeline, on the emulated CUDA runtime or a GPU ("cuda").

Import from the build tree with PYTHONPATH=<build>/python_packages.
"""

from .compiler import (
    POLICIES,
    FP8_POLICIES,
    DEFAULT_POLICY,
    TARGETS,
    CompiledResult,
    Diagnostic,
    GemmKernel,
    MLIRError,
    QuantizeKernel,
    Report,
    TransposeKernel,
    compile,
    gpu_kernels,
    has_pass,
    run_pipeline,
)
from .jit import JIT_TARGETS, JitModule, jit
from .numerics import ScaledTensor, dequantize, grouped_scaled_matmul, quantize, requantize, scaled_matmul
from . import models

__all__ = [
    "MLIRError",
    "Diagnostic",
    "run_pipeline",
    "has_pass",
    "compile",
    "CompiledResult",
    "POLICIES",
    "FP8_POLICIES",
    "DEFAULT_POLICY",
    "TARGETS",
    "jit",
    "JIT_TARGETS",
    "JitModule",
    "models",
    "quantize",
    "dequantize",
    "scaled_matmul",
    "grouped_scaled_matmul",
    "requantize",
    "ScaledTensor",
    "gpu_kernels",
    "GemmKernel",
    "QuantizeKernel",
    "TransposeKernel",
    "Report",
]
