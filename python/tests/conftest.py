"""Shared fixtures of the fp8_mlir pytest suite.

Run with PYTHONPATH=<build>/python_packages (check-fp8 does, through
test/Python); the build writes fp8_mlir/_build_config.py with the paths of
fp8-opt and the helper libraries these tests use.
"""

import importlib.util
import os
import subprocess
import sys
import zlib

import numpy as np
import pytest

import fp8_mlir

try:
    from fp8_mlir import _build_config
except ImportError:  # pragma: no cover - only without a build tree
    _build_config = None


@pytest.fixture(scope="session")
def fp8_opt():
    """Runs build/bin/fp8-opt on text; returns (returncode, stdout, stderr)."""
    path = getattr(_build_config, "FP8_OPT", "")
    if not path or not os.path.exists(path):
        pytest.skip("fp8-opt not found in the build tree")

    def run(text, *args):
        proc = subprocess.run([path, *args, "-"], input=text, capture_output=True, text=True)
        return proc.returncode, proc.stdout, proc.stderr

    return run


def pytest_configure(config):
    # Tests that need what a machine may lack; test/Python runs them in lit
    # tests of their own that REQUIRE the matching lit feature, so that they
    # report UNSUPPORTED there instead of passing with a skip inside.
    config.addinivalue_line("markers", "models: needs the real model graphs (FP8_MODELS_DIR)")
    config.addinivalue_line("markers", "ptxas: needs the CUDA toolkit's ptxas")
    config.addinivalue_line("markers", "cuda_driver: needs the CUDA runtime built, on a machine without a GPU")
    config.addinivalue_line("markers", "cuda_device: needs an sm_90a GPU with its driver")


@pytest.fixture(autouse=True)
def _rng_seeded_by_test_name(request):
    """A module's shared generator `RNG` restarts for each test from a seed
    of the test's own name (with its parameters): a test's inputs do not
    depend on which tests ran before it (order, -k selection), so a failure
    reproduces when the test runs alone."""
    if isinstance(getattr(request.module, "RNG", None), np.random.Generator):
        request.module.RNG = np.random.default_rng(zlib.crc32(request.node.name.encode()))


def models_dir():
    """The real model graphs, an optional input: only where FP8_MODELS_DIR
    says (check-fp8 and check-fp8-python set it from
    -DFP8_SHARED_MODELS_DIR); "" otherwise, and their tests skip."""
    return os.environ.get("FP8_MODELS_DIR", "")


def require_passes(*names):
    """Skip (visibly, with the reason) when this build lacks a pass."""
    missing = [n for n in names if not fp8_mlir.has_pass(n)]
    return pytest.mark.skipif(bool(missing), reason=f"pass(es) not in this build yet: {', '.join(missing)}")


def pytest_runtest_logreport(report):
    """Writes each failure's report to stderr as well: lit pipes the stdout of
    these runs into FileCheck and shows only stderr when a test fails."""
    if report.failed:
        sys.stderr.write(f"\nFAILED {report.nodeid} ({report.when})\n{report.longreprtext}\n")


def load_example(name):
    """examples/train/NAME.py as a module (the examples are scripts, not
    part of the package)."""
    path = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "train", name + ".py")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
