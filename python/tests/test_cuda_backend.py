"""The "cuda" backend: the host program of
fp8-gpu-pipeline{host=llvm target=ptx} run on a GPU through runtime/'s
libfp8_mgpu_runtime (the numerics' backend="cuda", jit(target="cuda")).

Without a GPU it must say what is missing, as a Python exception, and never
compute on the CPU instead: the runtime not built (no CUDA toolkit at build
time), the driver library libcuda.so.1 not loadable (no driver), no device
(the driver's error by CUDA's name; NVIDIA's stub libcuda stands in for a
driver without a device). Markers: `cuda_driver` (needs the runtime built,
this build's stub libcuda), `cuda_device` (needs an sm_90a GPU: the results
bit for bit against the "cpu" backend with Hopper's accumulation model);
test/Python runs each group in a lit test that REQUIRES what it needs."""

import ctypes
import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import fp8_mlir
from fp8_mlir._numerics import emulator
from fp8_mlir._numerics.quantization import _quantize_ir

try:
    from fp8_mlir import _build_config
except ImportError:  # pragma: no cover - only without a build tree
    _build_config = None


def _driver_loads() -> bool:
    try:
        ctypes.CDLL("libcuda.so.1")
        return True
    except OSError:
        return False


def _run(code, env_extra=None, pythonpath=None):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", **(env_extra or {}))
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          env=env, timeout=300)
    assert proc.returncode == 0, (proc.stdout, proc.stderr)
    return proc.stdout


# What each entry reports, printed by the child: the exception's type and
# text, or "RAN" when it computed something.
ENTRIES = """
    import numpy as np, fp8_mlir
    from fp8_mlir._numerics.quantization import _quantize_ir
    x = np.linspace(-3, 3, 4 * 256, dtype=np.float32).reshape(4, 256)
    qa = fp8_mlir.quantize(x)
    qb = fp8_mlir.quantize(x, block=(128, 128))
    ir = _quantize_ir(x.shape, (4, 2), "f32", "f8E4M3FN", (1, 128), "f32", "f32", 1e-4, True)
    for what, f in (("quantize", lambda: fp8_mlir.quantize(x, backend="cuda")),
                    ("scaled_matmul", lambda: fp8_mlir.scaled_matmul(qa, qb, backend="cuda")),
                    ("jit", lambda: fp8_mlir.jit(ir, target="cuda"))):
        try:
            f()
            print(what, "RAN")
        except Exception as e:
            print(what, type(e).__name__, e)
"""


def _reports(stdout):
    """{entry: (exception type or "RAN", its text)} from ENTRIES' output."""
    reports = {}
    for line in stdout.splitlines():
        what, _, rest = line.partition(" ")
        if what in ("quantize", "scaled_matmul", "jit"):
            kind, _, text = rest.partition(" ")
            reports[what] = (kind, text)
    return reports


def test_backend_is_listed():
    assert "cuda" in fp8_mlir.numerics.BACKENDS
    assert fp8_mlir.JIT_TARGETS["cuda"] == "fp8-gpu-pipeline{host=llvm target=ptx}"
    assert emulator.CUDA_PIPELINE == "fp8-gpu-pipeline{config=fixed host=llvm target=ptx require-kernels=true}"


def test_runtime_not_built(tmp_path):
    # A package without libfp8_mgpu_runtime.so, as a build without a CUDA
    # toolkit makes it: every entry says so, nothing runs on the CPU instead.
    package = os.path.dirname(fp8_mlir.__file__)
    shutil.copytree(package, tmp_path / "fp8_mlir",
                    ignore=shutil.ignore_patterns("libfp8_mgpu_runtime.so", "__pycache__"))
    reports = _reports(_run(ENTRIES, pythonpath=str(tmp_path)))
    runtime = str(tmp_path / "fp8_mlir" / "libfp8_mgpu_runtime.so")
    for what in ("quantize", "scaled_matmul", "jit"):
        assert reports[what] == ("RuntimeError",
                                 f"backend 'cuda': the CUDA runtime {runtime} was not built: the build found no "
                                 "CUDA toolkit (runtime/ needs cuda.h and the driver library to link; reconfigure "
                                 "with one, e.g. -DCUDAToolkit_ROOT=/usr/local/cuda)"), what


def test_accumulation_is_the_devices():
    # The device's wgmma accumulates as Hopper's does: another model cannot
    # be asked of it (checked before the runtime is looked for).
    qa = fp8_mlir.quantize(np.ones((4, 256), np.float32))
    qb = fp8_mlir.quantize(np.ones((8, 256), np.float32), block=(128, 128))
    for model in ("exact", "sm89", 14):
        with pytest.raises(ValueError, match=r"^backend 'cuda' accumulates as the device's wgmma does "
                                             r"\(Hopper's, modelled by emulate_accumulator='sm90'"):
            fp8_mlir.scaled_matmul(qa, qb, emulate_accumulator=model, backend="cuda")
    with pytest.raises(ValueError, match="got emulate_accumulator='14'"):
        fp8_mlir.scaled_matmul(qa, qb, emulate_accumulator_bits=14, backend="cuda")


def test_jit_target_needs_a_host_program_for_its_runtime():
    # A pipeline that makes no host program for the GPU would run on the
    # CPU (fp8-cpu-pipeline) or hold kernels the runtime cannot load
    # (target=emulator): refused before anything is loaded.
    ir = "func.func @f() { return }"
    for target, pipeline in (("cuda", "fp8-cpu-pipeline"),
                             ("cuda", "fp8-gpu-pipeline{host=llvm target=emulator}"),
                             ("cuda", "fp8-gpu-pipeline"),
                             ("cuda", "fp8-gpu-pipeline{host=llvm},canonicalize"),
                             ("gpu-emulator", "fp8-gpu-pipeline{host=llvm}")):
        with pytest.raises(ValueError, match=rf"^jit\(target='{target}'\) runs a host program of "
                                             r"fp8-gpu-pipeline\{host=llvm target=(ptx|emulator) \.\.\.\}"):
            fp8_mlir.jit(ir, pipeline, target=target)
    with pytest.raises(ValueError, match="target must be one of cpu, gpu-emulator, cuda, got 'gpu'"):
        fp8_mlir.jit(ir, target="gpu")


def test_jit_on_the_emulated_runtime():
    # jit(target=...) is the numerics' backend path: the same host program
    # (default pipeline fp8-gpu-pipeline{host=llvm target=emulator}) on
    # the emulated runtime gives the CPU backend's bits.
    rng = np.random.default_rng(3)
    x = rng.standard_normal((5, 300)).astype(np.float32)
    ir = _quantize_ir(x.shape, (5, 3), "f32", "f8E4M3FN", (1, 128), "f32", "f32", 1e-4, True)
    module = fp8_mlir.jit(ir, target="gpu-emulator")
    codes, scales = np.empty(x.shape, np.uint8), np.empty((5, 3), np.float32)
    module.quantize(x, codes, scales)
    cpu = fp8_mlir.quantize(x)
    np.testing.assert_array_equal(codes, cpu.codes)
    np.testing.assert_array_equal(scales.view(np.uint32), cpu.scales.view(np.uint32))


def _stub_driver_dir(tmp_path):
    """A directory whose libcuda.so.1 is NVIDIA's stub (from the toolkit the
    build used), for LD_LIBRARY_PATH: a driver library without a device."""
    stub = getattr(_build_config, "CUDA_STUB_DRIVER", "")
    assert stub and os.path.isfile(stub), "the build found no stub libcuda (CUDA_STUB_DRIVER)"
    os.symlink(stub, tmp_path / "libcuda.so.1")
    return str(tmp_path)


@pytest.mark.cuda_driver
def test_no_gpu_here():
    # This machine has no GPU (lit: UNSUPPORTED where nvidia-smi finds one):
    # without an NVIDIA driver libcuda.so.1 does not load; with a driver
    # but no GPU the driver has no device. Each entry says which.
    assert os.path.isfile(emulator.cuda_runtime()), "the runtime is not built"
    reports = _reports(_run(ENTRIES))
    for what in ("quantize", "scaled_matmul", "jit"):
        kind, text = reports[what]
        assert kind == "RuntimeError", reports
        if _driver_loads():
            assert text.startswith("backend 'cuda': the CUDA driver has no device to run on: cuInit(0): "), text
        else:
            assert text.startswith("backend 'cuda': the CUDA driver library libcuda.so.1 cannot be loaded ("), text
            assert text.endswith("): no NVIDIA driver is installed here"), text


@pytest.mark.cuda_driver
def test_driver_without_a_device(tmp_path):
    # NVIDIA's stub libcuda answers cuInit with CUDA_ERROR_STUB_LIBRARY and
    # names no error (the runtime takes the name from cuda.h): the backend
    # reports the probe's failure, whatever the entry; the process goes on.
    stdout = _run(ENTRIES + "    print('ALIVE')\n", {"LD_LIBRARY_PATH": _stub_driver_dir(tmp_path)})
    reports = _reports(stdout)
    for what in ("quantize", "scaled_matmul", "jit"):
        assert reports[what] == ("RuntimeError", "backend 'cuda': the CUDA driver has no device to run on: "
                                                 "cuInit(0): CUDA_ERROR_STUB_LIBRARY (CUresult 34)"), what
    assert stdout.splitlines()[-1] == "ALIVE"


@pytest.mark.cuda_driver
def test_driver_error_during_a_call_is_raised(tmp_path):
    # The session reads the runtime's error count around a call: an ABI call
    # that fails (here on no context; on a GPU a launch or copy) is a
    # RuntimeError with the runtime's report, never a result.
    stdout = _run("""
        import ctypes
        from fp8_mlir._numerics.emulator import GPU_BACKENDS
        cuda = GPU_BACKENDS["cuda"]
        lib = cuda._load(cuda.runtime_path())
        cuda._lib = lib  # past the probe, as if a device had been found
        lib.mgpuMemAlloc.restype = ctypes.c_void_p
        lib.mgpuMemAlloc.argtypes = [ctypes.c_uint64, ctypes.c_void_p, ctypes.c_bool]
        try:
            with cuda.session("sm90"):
                lib.mgpuMemAlloc(64, None, False)
            print("NO ERROR")
        except RuntimeError as e:
            print("RuntimeError", e)
    """, {"LD_LIBRARY_PATH": _stub_driver_dir(tmp_path)})
    assert stdout.strip() == ("RuntimeError backend 'cuda': initialising the CUDA primary context: "
                              "cuInit(0): CUDA_ERROR_STUB_LIBRARY (CUresult 34)"), stdout


# A stand-in libcuda.so.1 whose driver initialises an Ampere device
# (compute capability 8.0): every other call the runtime imports fails.
FAKE_AMPERE = r"""
typedef struct { int unused; } Context;
static Context context;
int cuInit(unsigned flags) { return 0; }
int cuDeviceGet(int *device, int ordinal) { *device = ordinal; return ordinal ? 101 : 0; }
int cuDevicePrimaryCtxRetain(void **ctx, int device) { *ctx = &context; return 0; }
int cuDeviceGetName(char *name, int len, int device) {
  const char *s = "Fake A100"; int i = 0;
  for (; s[i] && i + 1 < len; ++i) name[i] = s[i];
  name[i] = 0; return 0;
}
int cuDeviceGetAttribute(int *value, int attribute, int device) {
  if (attribute == 75) { *value = 8; return 0; }  /* COMPUTE_CAPABILITY_MAJOR */
  if (attribute == 76) { *value = 0; return 0; }  /* COMPUTE_CAPABILITY_MINOR */
  return 1;
}
"""


def _fake_driver_dir(tmp_path):
    """A directory whose libcuda.so.1 is FAKE_AMPERE, defining every cu*
    function the runtime imports (the rest answer CUDA_ERROR_UNKNOWN)."""
    runtime = emulator.cuda_runtime()
    nm = subprocess.run(["nm", "-D", "--undefined-only", runtime], capture_output=True, text=True, check=True)
    defined = {"cuInit", "cuDeviceGet", "cuDevicePrimaryCtxRetain", "cuDeviceGetName", "cuDeviceGetAttribute"}
    imported = sorted({line.split()[-1] for line in nm.stdout.splitlines() if line.split()[-1].startswith("cu")})
    source = FAKE_AMPERE + "".join(f"int {name}() {{ return 999; }}\n" for name in imported if name not in defined)
    (tmp_path / "fake.c").write_text(source)
    subprocess.run([shutil.which("cc") or "clang", "-shared", "-fPIC", "-Wl,-soname,libcuda.so.1",
                    str(tmp_path / "fake.c"), "-o", str(tmp_path / "libcuda.so.1")], check=True)
    return str(tmp_path)


@pytest.mark.cuda_driver
def test_device_that_is_not_sm90(tmp_path):
    # The kernels are sm_90a: a driver that initialises another device is
    # refused by its compute capability, naming the device, before the
    # driver is asked to load PTX it cannot run.
    reports = _reports(_run(ENTRIES, {"LD_LIBRARY_PATH": _fake_driver_dir(tmp_path)}))
    for what in ("quantize", "scaled_matmul", "jit"):
        assert reports[what] == ("RuntimeError", "backend 'cuda': the kernels are sm_90a (Hopper, compute "
                                                 "capability 9.0); device 0 (Fake A100) has compute capability "
                                                 "8.0"), what


def _random(rng, shape):
    rows = rng.integers(-6, 7, size=(shape[0], 1))
    return rng.standard_normal(shape).astype(np.float32) * np.ldexp(np.float32(1), rows).astype(np.float32)


@pytest.mark.cuda_device
@pytest.mark.parametrize("m,n,k,out", [(1, 65, 128, "bf16"), (129, 200, 272, "f32"), (256, 256, 512, "bf16")])
def test_scaled_matmul_on_the_device(m, n, k, out):
    # The device's wgmma against the CPU lowering's model of it (sm90),
    # bit for bit; the operands quantized on the device too.
    rng = np.random.default_rng(m + n + k)
    xa, xb = _random(rng, (m, k)), _random(rng, (n, k))
    qa = fp8_mlir.quantize(xa, backend="cuda")
    qb = fp8_mlir.quantize(xb, block=(128, 128), backend="cuda")
    cpu_qa, cpu_qb = fp8_mlir.quantize(xa), fp8_mlir.quantize(xb, block=(128, 128))
    np.testing.assert_array_equal(qa.codes, cpu_qa.codes)
    np.testing.assert_array_equal(qb.scales.view(np.uint32), cpu_qb.scales.view(np.uint32))
    gpu = fp8_mlir.scaled_matmul(qa, qb, out=out, backend="cuda")
    cpu = fp8_mlir.scaled_matmul(cpu_qa, cpu_qb, out=out, emulate_accumulator="sm90")
    np.testing.assert_array_equal(gpu.view(np.uint32), cpu.view(np.uint32))


@pytest.mark.cuda_device
@pytest.mark.parametrize("block,scale", [((1, 128), "f32"), ((128, 128), "pow2"), ((None, None), "f32")])
def test_quantize_on_the_device(block, scale):
    rng = np.random.default_rng(11)
    x = _random(rng, (130, 384))
    x[0, 3], x[1, 7], x[2, :128] = np.nan, np.inf, 0
    gpu = fp8_mlir.quantize(x, block=block, scale=scale, backend="cuda")
    cpu = fp8_mlir.quantize(x, block=block, scale=scale)
    np.testing.assert_array_equal(gpu.codes, cpu.codes)
    np.testing.assert_array_equal(gpu.scales.view(np.uint32), cpu.scales.view(np.uint32))
