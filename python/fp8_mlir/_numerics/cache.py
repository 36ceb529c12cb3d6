"""Compiling the small functions around one fp8 op through the JIT
(fp8-cpu-pipeline, or a GPU backend's GPU pipeline), cached per IR,
pipeline and runtime libraries."""

from __future__ import annotations

import collections

from ..compiler import MLIRError, has_pass
from ..jit import JitModule, jit, openmp_runtime


PIPELINE = "fp8-cpu-pipeline"
_CACHE_SIZE = 64
_cache: "collections.OrderedDict[str, JitModule]" = collections.OrderedDict()


def _threads_option() -> str:
    """The tiled scaled_matmul runs as an OpenMP loop over output chunks
    (`threads=0`: OMP_NUM_THREADS, else every core) where the build found the
    OpenMP runtime; sequential code otherwise."""
    return "threads=0" if openmp_runtime() else ""


def _compile(ir: str, options: str = "") -> JitModule:
    options = " ".join(o for o in (options, _threads_option()) if o)
    pipeline = f"{PIPELINE}{{{options}}}" if options else PIPELINE
    return _jit_cached(ir, pipeline, PIPELINE, "the numerics functions run the compiler's CPU lowering")


def _jit_cached(ir: str, pipeline: str, pass_name: str, what: str, shared_libs=(),
                pass_failure: str = "invalid arguments") -> JitModule:
    """`jit(ir, pipeline, shared_libs=...)`, cached; `pass_name` (the
    pipeline's) must be registered, else NotImplementedError saying `what`
    needs it. A compile error is a ValueError with the compiler's errors,
    after `pass_failure` when a pass of the pipeline failed on valid IR."""
    key = _key(ir, pipeline, shared_libs)
    module = _cache.get(key)
    if module is not None:
        _cache.move_to_end(key)
        return module
    if not has_pass(pass_name):
        raise NotImplementedError(f"{what} ({pass_name}), which this build of fp8-mlir does not register")
    try:
        module = jit(ir, pipeline, shared_libs=shared_libs)
    except MLIRError as err:
        # The op verifiers are the final judges of shapes, blocks and
        # intervals: what they reject is a bad argument.
        errors = "; ".join(d.message for d in err.errors) or str(err)
        what_failed = pass_failure if err.stage == "pass" else "invalid arguments"
        raise ValueError(f"{what_failed}: {errors}") from None
    _cache[key] = module
    if len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return module


def _key(ir: str, pipeline: str, shared_libs=()) -> str:
    return "\n".join((pipeline, *shared_libs, ir))


def _forget(key: str) -> None:
    """Drops a cached module (a GPU backend's whose kernels did not load)."""
    _cache.pop(key, None)
