# -*- Python -*-
import os
import sys

import lit.formats
import lit.util
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "FP8"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.fp8_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", config.llvm_shlib_ext))
config.substitutions.append(("%models", config.fp8_models_dir))
config.substitutions.append(("%mlir_lib_dir", config.mlir_lib_dir))
config.substitutions.append(("%fp8_src_root", config.fp8_src_root))
config.substitutions.append(("%fp8_obj_root", config.fp8_obj_root))
# The toolchain of this build, for test/Examples (an out-of-tree project
# configured against the installed package).
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%make_program", config.make_program))
config.substitutions.append(("%c_compiler", config.c_compiler))
config.substitutions.append(("%cxx_compiler", config.cxx_compiler))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# Our tools first, then LLVM's (FileCheck, not, mlir-runner, ...).
config.fp8_tools_dir = os.path.join(config.fp8_obj_root, "bin")
tool_dirs = [config.fp8_tools_dir, config.llvm_tools_dir]
tools = ["fp8-opt", "fp8-translate", "fp8-emu", "fp8-emu-run", "mlir-opt", "mlir-runner", "mlir-translate", "llc"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.fp8_tools_dir, append_path=True)

# Optional capabilities: tests that need them declare `REQUIRES:` and are
# reported UNSUPPORTED (never passed) where they are missing.
if os.path.isdir(config.fp8_models_dir):
    config.available_features.add("models")
# ptxas behind scripts/ptxas_guard.py: a warning, a spill or a coded
# diagnostic (wgmma serialisation, C7515/C7517/C7519 `info` lines) fails the
# RUN line, whatever the test's FileCheck lines say (test/Tools/ptxas-guard.test).
# Before %ptxas: lit substitutes in order, and %ptxas is its prefix.
ptxas_guard = f"{sys.executable} {config.fp8_src_root}/scripts/ptxas_guard.py"
config.substitutions.append(("%ptxas_guard", ptxas_guard))
if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", f"{ptxas_guard} {config.ptxas}"))
# The exhaustive FP8 conversion harness exists only where CMake found
# cuda_fp8.h (NVIDIA's host reference, the oracle).
if config.fp8_cvt_exhaustive and os.path.exists(config.fp8_cvt_exhaustive):
    config.available_features.add("cuda-fp8")
    config.substitutions.append(("%fp8_cvt_exhaustive", config.fp8_cvt_exhaustive))
# Upstream MLIR's sm90 integration tests (their CHECK lines printed by H100s)
# run on the emulator only when pointed at an llvm-project checkout:
# `lit --param llvm_src=PATH build/test/Emulator/upstream-sm90` (the
# repository holds no copy; test/Emulator/upstream-sm90/lit.local.cfg).
llvm_src = lit_config.params.get("llvm_src")
if llvm_src and os.path.isdir(os.path.join(llvm_src, "mlir/test/Integration/GPU/CUDA/sm90")):
    config.available_features.add("llvm-src")
    config.substitutions.append(("%llvm_sm90", os.path.join(os.path.abspath(llvm_src), "mlir/test/Integration/GPU/CUDA/sm90")))
# Tests of CPU-hours (the tiled schedule on DeepSeek-V3's M = 4096 GEMMs) run
# only when asked: `lit --param long_tests=1 build/test/...`.
if lit_config.params.get("long_tests"):
    config.available_features.add("long-tests")
# stdbuf (coreutils): unbuffers the stdout of a JIT-run program so that a
# failed cf.assert's message (puts, then abort) reaches FileCheck.
import shutil
if shutil.which("stdbuf"):
    config.available_features.add("stdbuf")
# clang (LLVM's, beside mlir-translate): host programs lowered by
# fp8-gpu-pipeline{host=llvm} are translated to LLVM IR and linked into
# shared libraries.
clang = os.path.join(config.llvm_tools_dir, "clang")
if os.path.exists(clang):
    config.available_features.add("clang")
    config.substitutions.append(("%clang", clang))
# The mgpu* runtime those programs call (runtime/, built with the CUDA
# toolkit); linking against it proves it implements every function they use.
mgpu_runtime = os.path.join(config.fp8_obj_root, "lib", "libfp8_mgpu_runtime.so")
if os.path.exists(mgpu_runtime):
    config.available_features.add("mgpu-runtime")
    config.substitutions.append(("%fp8_lib_dir", os.path.join(config.fp8_obj_root, "lib")))
# valgrind, where installed: the regression test of an upstream parser's
# uninitialised read (test/Upstream/upstream-linalg-named-op-angle.mlir).
if lit.util.which("valgrind"):
    config.available_features.add("valgrind")
