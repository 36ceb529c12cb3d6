"""Issue 19, at the user's edge: nothing a user passes aborts the
interpreter, errors name the argument and the fix, read-only inputs are
accepted, long calls can be interrupted, reports go through sys.stdout.

Everything that could end the process runs in a subprocess, so that a
regression fails this test instead of killing pytest.
"""

import collections
import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import fp8_mlir
from fp8_mlir import MLIRError, models


def run_python(code, timeout=300):
    """Runs `code` in a fresh interpreter (same PYTHONPATH)."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=timeout)


MLP = models.llama_block(models.ModelConfig.small(), 1)

# -- crashes inside MLIR become MLIRError (subprocess) ------------------------


@pytest.mark.parametrize("text, source", [
    # test/Upstream/upstream-linalg-reduce-parse-crash.mlir: a null
    # dereference in the packaged MLIR 22 parser.
    ("linalg.reduce\\ndimensions=\\n", "crash.mlir"),
    ("linalg.transpose\\npermutation=\\n", "<input>"),
])
def test_parser_crash_is_an_mlirerror(text, source):
    proc = run_python(f"""
        import fp8_mlir
        try:
            fp8_mlir.run_pipeline("{text}", source_name={source!r})
        except fp8_mlir.MLIRError as e:
            print("STAGE", e.stage)
            print("MESSAGE", e)
        # The interpreter goes on, and so does the compiler.
        print("NEXT", "func.func @f" in fp8_mlir.run_pipeline("func.func @f() {{ return }}", "canonicalize"))
    """)
    assert proc.returncode == 0, proc.stderr
    assert "STAGE crash" in proc.stdout
    assert f"internal error in the MLIR parser while processing {source}" in proc.stdout
    assert "recovered" in proc.stdout
    assert "NEXT True" in proc.stdout
    assert "internal error" not in proc.stderr


def test_stack_overflow_is_an_mlirerror():
    # Nested arrays recurse in the parser: deeper than the parsing thread's
    # 256 MiB stack.
    proc = run_python("""
        import fp8_mlir
        depth = 2_000_000
        text = "func.func @f() attributes {a = " + "[" * depth + "]" * depth + "} { return }"
        try:
            fp8_mlir.run_pipeline(text)
        except fp8_mlir.MLIRError as e:
            print("STAGE", e.stage)
            print("MESSAGE", e)
        print("NEXT", "func.func" in fp8_mlir.run_pipeline("func.func @f() { return }"))
    """)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "STAGE crash" in proc.stdout
    assert "stack overflow" in proc.stdout
    assert "NEXT True" in proc.stdout


def test_deep_but_reasonable_nesting_parses():
    depth = 20000
    text = "func.func @f() attributes {a = " + "[" * depth + "]" * depth + "} { return }"
    assert "func.func @f" in fp8_mlir.run_pipeline(text)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_report_output_on_a_full_disk_is_an_mlirerror():
    # Was "LLVM ERROR: IO failure on output stream" and the end of the process.
    proc = run_python("""
        import fp8_mlir
        from fp8_mlir import models
        mlp = models.llama_block(models.ModelConfig.small(), 1)
        try:
            fp8_mlir.run_pipeline(mlp, "fp8-pipeline{report-output=/dev/full}")
        except fp8_mlir.MLIRError as e:
            print("STAGE", e.stage)
            print("MESSAGE", e)
        print("ALIVE")
    """)
    assert proc.returncode == 0, proc.stderr
    assert "STAGE pass" in proc.stdout
    assert "cannot write the report to '/dev/full'" in proc.stdout
    assert "ALIVE" in proc.stdout
    assert "LLVM ERROR" not in proc.stderr


# -- crashes of JIT-compiled code become MLIRError (subprocess) ---------------

# A user's own code through fp8_mlir.jit: a runtime fault in it fails the
# call (MLIRError, stage "crash"); the interpreter and the module go on.
JIT_CRASHES = """
func.func private @rec(%x: i64) -> i64 {
  %y = func.call @rec(%x) : (i64) -> i64
  %z = arith.addi %y, %x : i64
  return %z : i64
}
func.func @div(%m: memref<1xi32>, %d: i32) {
  %c0 = arith.constant 0 : index
  %x = memref.load %m[%c0] : memref<1xi32>
  %q = arith.divsi %x, %d : i32
  memref.store %q, %m[%c0] : memref<1xi32>
  return
}
func.func @load(%m: memref<1xi32>, %i: index) {
  %c0 = arith.constant 0 : index
  %x = memref.load %m[%i] : memref<1xi32>
  memref.store %x, %m[%c0] : memref<1xi32>
  return
}
func.func @recurse(%m: memref<1xi64>) {
  %c0 = arith.constant 0 : index
  %x = memref.load %m[%c0] : memref<1xi64>
  %y = func.call @rec(%x) : (i64) -> i64
  memref.store %y, %m[%c0] : memref<1xi64>
  return
}
func.func @check(%m: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %x = memref.load %m[%c0] : memref<1xi32>
  %zero = arith.constant 0 : i32
  %ok = arith.cmpi sgt, %x, %zero : i32
  cf.assert %ok, "x must be positive"
  return
}
"""


@pytest.mark.parametrize("call, cause", [
    ("m.div(np.array([7], np.int32), 0)", "arithmetic exception (an integer division by zero"),
    ("m.load(np.array([7], np.int32), 1 << 44)", "segmentation fault"),
    ("m.recurse(np.array([1], np.int64))", "stack overflow"),
    ("m.check(np.array([-1], np.int32))", "abort() called by the compiled code"),
])
def test_crash_in_jit_compiled_code_is_an_mlirerror(call, cause):
    proc = run_python(f"""
        import numpy as np
        import fp8_mlir
        m = fp8_mlir.jit({JIT_CRASHES!r}, "convert-to-llvm,reconcile-unrealized-casts", opt_level=0)
        try:
            {call}
        except fp8_mlir.MLIRError as e:
            print("STAGE", e.stage)
            print("MESSAGE", e)
        # The interpreter and the JIT module go on.
        x = np.array([7], np.int32)
        m.div(x, 2)
        print("NEXT", x[0])
    """)
    assert proc.returncode == 0, proc.stderr
    assert "STAGE crash" in proc.stdout, proc.stdout + proc.stderr
    assert "the JIT-compiled function '" in proc.stdout
    assert cause in proc.stdout
    assert "NEXT 3" in proc.stdout


def test_failed_assert_in_jit_code_prints_its_message():
    proc = run_python(f"""
        import numpy as np
        import fp8_mlir
        m = fp8_mlir.jit({JIT_CRASHES!r}, "convert-to-llvm,reconcile-unrealized-casts")
        for v in (5, -1):
            try:
                m.check(np.array([v], np.int32))
                print("PASSED", v)
            except fp8_mlir.MLIRError as e:
                print("FAILED", v, e.stage)
    """)
    assert proc.returncode == 0, proc.stderr
    assert "PASSED 5" in proc.stdout and "FAILED -1 crash" in proc.stdout
    assert "x must be positive" in proc.stdout


def test_heap_corruption_in_jit_code_ends_the_process_with_a_message():
    # The one kind that is not recovered (docs/robustness.md): the compiled
    # code frees memory it does not own, the C library detects it and calls
    # abort() from inside the allocator. The process must end with status 1
    # and a message naming the function, never die of a bare signal.
    proc = run_python("""
        import numpy as np
        import fp8_mlir
        m = fp8_mlir.jit('''
        func.func @bad(%m: memref<?xi32>) {
          memref.dealloc %m : memref<?xi32>
          return
        }''', "finalize-memref-to-llvm,convert-to-llvm,reconcile-unrealized-casts")
        x = np.zeros(8, np.int32)
        m.bad(x[1:])
        print("NOT REACHED")
    """)
    assert proc.returncode == 1, (proc.returncode, proc.stderr)
    assert "NOT REACHED" not in proc.stdout
    assert "internal error in the JIT-compiled function 'bad'" in proc.stderr
    assert "abort() (SIGABRT)" in proc.stderr
    assert "cannot continue safely" in proc.stderr


# -- errors say what failed and what to fix -----------------------------------


def test_garbage_input_is_a_parse_error_not_a_pipeline_error():
    with pytest.raises(MLIRError) as info:
        fp8_mlir.run_pipeline("garbage", "canonicalize")
    err = info.value
    assert err.stage == "parse"
    assert str(err).startswith("the input does not parse as MLIR")
    assert "pipeline" not in err.summary
    assert err.errors[0].location == "<input>:1:1"
    assert "custom op 'garbage' is unknown" in err.errors[0].message


def test_verifier_failure_is_its_own_stage():
    bad = "func.func @f(%a: i32) -> i64 {\n  return %a : i32\n}\n"
    with pytest.raises(MLIRError) as info:
        fp8_mlir.run_pipeline(bad, "canonicalize")
    assert info.value.stage == "verify"
    assert "verifier" in info.value.summary


def test_option_value_reason_is_in_the_exception(capfd):
    with pytest.raises(MLIRError) as info:
        fp8_mlir.run_pipeline(MLP, "fp8-pipeline{strict=maybe}")
    assert info.value.stage == "pipeline"
    assert "'maybe' is invalid value for boolean argument" in str(info.value)
    out, err = capfd.readouterr()
    assert "maybe" not in out + err


@pytest.mark.parametrize("pipeline, op", [("", "func.func"), ("fp8-pipeline", "func.func")])
def test_jit_of_a_module_not_lowered_to_llvm_names_the_first_op(capfd, pipeline, op):
    # A pipeline that stops before the LLVM dialect: the first op without an
    # LLVM IR translation is named, with its location, and the module is not
    # printed (translation's own error dumps it whole).
    with pytest.raises(MLIRError) as info:
        fp8_mlir.jit(MLP, pipeline=pipeline)
    message = info.value.errors[0].message
    assert f"'{op}' at <jit>:" in message
    assert "is not in the LLVM dialect" in message
    _, err = capfd.readouterr()
    assert "linalg" not in str(info.value) + err


def test_pass_manager_fatal_error_in_a_pipeline_is_a_pipeline_error():
    # MLIR's pass manager reports a module pass nested under func.func with
    # report_fatal_error (the end of the process without recovery).
    with pytest.raises(MLIRError) as info:
        fp8_mlir.run_pipeline(MLP, "func.func(fp8-pipeline)")
    assert info.value.stage == "pipeline"
    assert str(info.value).startswith("pass pipeline 'func.func(fp8-pipeline)' is invalid")
    assert "restricted to 'builtin.module'" in str(info.value)
    assert "crash" not in str(info.value)


def test_non_utf8_bytes_name_the_problem():
    with pytest.raises(ValueError, match="MLIR input bytes are not UTF-8 text"):
        fp8_mlir.run_pipeline(b"\xff\xfe")
    with pytest.raises(TypeError, match="has_pass needs a pass name"):
        fp8_mlir.has_pass(3)


@pytest.mark.parametrize("call, what", [
    (lambda bad: fp8_mlir.run_pipeline(MLP + bad), "the MLIR input"),
    (lambda bad: fp8_mlir.compile(MLP + bad), "the MLIR input"),
    (lambda bad: fp8_mlir.jit(MLP + bad, "fp8-cpu-pipeline"), "the MLIR input"),
    (lambda bad: fp8_mlir.run_pipeline(MLP, "canonicalize" + bad), "the pass pipeline"),
    (lambda bad: fp8_mlir.compile(MLP, source_name="model" + bad), "source_name"),
    (lambda bad: fp8_mlir.compile(MLP, overrides=["lm_head" + bad + ":f32"]), "overrides: entry"),
    (lambda bad: fp8_mlir.has_pass("cse" + bad), "the pass name"),
])
def test_lone_surrogate_is_a_short_error(call, what):
    # A str that is not Unicode text (a lone surrogate from a bad decode):
    # a short ValueError naming the argument, not the whole input echoed
    # with compile()'s internal pipeline and its temporary paths.
    with pytest.raises(ValueError) as err:
        call("\udc80")
    message = str(err.value)
    assert message.startswith(what + " holds a lone surrogate '\\udc80' at character"), message
    assert len(message) < 300 and "fp8_mlir_" not in message and "fp8-report" not in message, message


@pytest.mark.parametrize("text", ["garbage", "func.func @f( {"])
def test_compile_errors_do_not_show_the_internal_pipeline(text):
    with pytest.raises(MLIRError) as info:
        fp8_mlir.compile(text)
    message = str(info.value)
    assert message.startswith("the input does not parse as MLIR"), message
    for internal in ("fp8-report", "report.json", "fp8_mlir_", "pipeline '", "format=json"):
        assert internal not in message


def test_compile_pass_errors_name_the_stage_not_temporary_paths():
    with pytest.raises(MLIRError) as info:
        fp8_mlir.compile(MLP, overrides=["lm_head:fp16"])
    message = str(info.value)
    assert message.startswith("the FP8 graph pipeline (fp8-pipeline, policy 'deepseek-v3') failed")
    assert "malformed override 'lm_head:fp16'" in message
    assert "report.json" not in message and "fp8_mlir_" not in message


@pytest.mark.parametrize("overrides", [None, 3, {"lm_head": "f32"}])
def test_compile_overrides_type(overrides):
    with pytest.raises(TypeError, match="overrides must be a list of 'PATTERN:ROLE-or-PRECISION'"):
        fp8_mlir.compile(MLP, overrides=overrides)


X = np.linspace(-3, 3, 4 * 256, dtype=np.float32).reshape(4, 256)


@pytest.mark.parametrize("kwargs, message", [
    (dict(eps=1e50), r"eps=1e\+50 does not fit float32"),
    (dict(eps=1e-50), r"eps=1e-50 rounds to 0 in float32"),
    (dict(eps=float("nan")), "eps must be a finite number"),
    (dict(block=(1, 2**63)), r"block sizes must be positive integers below 2\*\*63"),
    (dict(block=(1, 0)), "block sizes must be positive integers"),
    (dict(block="1x128"), r"block must be a tuple with one size per dimension \(2\), got '1x128'"),
    (dict(block=1.5), r"block must be a tuple with one size per dimension \(2\), got 1.5"),
    (dict(fmt=["e4m3"]), r"fmt must be one of 'e4m3', 'e5m2', got \['e4m3'\]"),
    (dict(scale=["f32"]), "scale must be one of 'f32', 'pow2', 'e8m0'"),
])
def test_quantize_argument_errors_name_the_argument(kwargs, message):
    with pytest.raises(ValueError, match=message):
        fp8_mlir.quantize(X, **kwargs)


def test_largest_block_is_the_whole_dimension():
    # 2**63 - 1, the largest i64 block: one block per row, as block (1, 256)
    # (the scale shape was computed with an overflowing ceil before).
    want = fp8_mlir.quantize(X, block=(1, 256))
    got = fp8_mlir.quantize(X, block=(1, 2**63 - 1))
    np.testing.assert_array_equal(got.codes, want.codes)
    np.testing.assert_array_equal(got.scales, want.scales)


def test_values_outside_f32_are_rejected_not_flushed():
    big = X.astype(np.float64)
    big[0, 0] = 1e300
    with pytest.raises(ValueError, match="x holds 1e\\+300, beyond the float32 range"):
        fp8_mlir.quantize(big)
    q = fp8_mlir.quantize(X)
    scales = q.scales.astype(np.float64)
    scales[0, 0] = 1e300
    with pytest.raises(ValueError, match="scales holds 1e\\+300, beyond the float32 range"):
        fp8_mlir.dequantize(q.codes, scales)
    scales[0, 0] = 1e-300
    with pytest.raises(ValueError, match="scales holds nonzero values that round to 0 in float32"):
        fp8_mlir.dequantize(q.codes, scales)


# The f64 -> f32 boundaries of round to nearest even, written out: 2**-150 is
# half the smallest subnormal (a tie: rounds to 0, the even neighbour);
# anything above it rounds to 2**-149. The largest f32 plus half its ulp,
# 2**128 - 2**103, is a tie between it (odd) and 2**128 (even, Inf); anything
# below it rounds to the largest f32.
TINY_TIE = 2.0**-150
F32_MAX = (2 - 2.0**-23) * 2.0**127
HUGE_TIE = F32_MAX + 2.0**103
ROUNDS_TO_ZERO = [TINY_TIE, -TINY_TIE, 2.0**-151, 1e-300]
ROUNDS_TO_INF = [HUGE_TIE, -HUGE_TIE, 2.0**128, 1e300]
ROUNDS_TO_SMALLEST = [np.nextafter(TINY_TIE, 1.0), 1.5 * TINY_TIE, 2.0**-149]
ROUNDS_TO_LARGEST = [np.nextafter(HUGE_TIE, 0.0), F32_MAX + 2.0**102]


@pytest.mark.parametrize("value, holds, eps_error", [(v, "nonzero values that round to 0 in float32",
                                                      "rounds to 0 in float32") for v in ROUNDS_TO_ZERO]
                         + [(v, ".*, beyond the float32 range", "does not fit float32") for v in ROUNDS_TO_INF])
def test_f64_values_rounding_to_zero_or_inf_are_rejected(value, holds, eps_error):
    q = fp8_mlir.quantize(X)
    scales = q.scales.astype(np.float64)
    scales[0, 0] = value
    with pytest.raises(ValueError, match="scales holds " + holds):
        fp8_mlir.dequantize(q.codes, scales)
    x = X.astype(np.float64)
    x[1, 3] = value
    with pytest.raises(ValueError, match="x holds " + holds):
        fp8_mlir.quantize(x)
    with pytest.raises(ValueError, match=eps_error):
        fp8_mlir.quantize(X, eps=abs(value))


@pytest.mark.parametrize("value, f32", [(v, 2.0**-149) for v in ROUNDS_TO_SMALLEST]
                         + [(v, F32_MAX) for v in ROUNDS_TO_LARGEST])
def test_f64_values_rounding_to_a_finite_f32_are_accepted(value, f32):
    # E4M3 code 0x38 is 1.0: dequantize gives the scale as float32 holds it.
    codes = np.full((1, 128), 0x38, np.uint8)
    out = fp8_mlir.dequantize(codes, np.array([[value]], np.float64), block=(1, 128))
    assert out.dtype == np.float32 and (out == np.float32(f32)).all(), out[0, 0]
    x = np.zeros((1, 128), np.float64)
    x[0, 0] = value
    q = fp8_mlir.quantize(x, eps=0.0)  # accepted as x too
    if f32 == F32_MAX:
        # The block's amax is the rounded value: its scale is amax / 448.
        assert q.scales[0, 0] == np.float32(np.float32(F32_MAX) / np.float32(448.0)), q.scales
    fp8_mlir.quantize(X, eps=value)  # the eps attribute takes it too


JIT_STORE_F32 = """
func.func @store(%v: f32, %o: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  memref.store %v, %o[%c0] : memref<1xf32>
  return
}
"""


def test_jit_f32_scalars_follow_the_same_rule():
    store = fp8_mlir.jit(JIT_STORE_F32, "convert-to-llvm,reconcile-unrealized-casts").store
    o = np.zeros(1, np.float32)
    for value in ROUNDS_TO_ZERO + ROUNDS_TO_INF:
        with pytest.raises(ValueError, match=r"argument 0 of 'store': .* rounds to (0|infinity) in f32"):
            store(value, o)
    for value, f32 in [(v, 2.0**-149) for v in ROUNDS_TO_SMALLEST] + [(v, F32_MAX) for v in ROUNDS_TO_LARGEST]:
        store(value, o)
        assert o[0] == np.float32(f32), (value, o[0])
    for value in (0.0, -0.0, float("inf"), -float("inf")):  # exact in f32
        store(value, o)
        assert o[0] == value


def test_scaled_matmul_argument_errors_name_the_argument():
    qa = fp8_mlir.quantize(X)
    qb = fp8_mlir.quantize(np.ones((128, 256), np.float32), block=(128, 128))
    with pytest.raises(ValueError, match=r"promote_interval must be a positive multiple of 32.*2\*\*63"):
        fp8_mlir.scaled_matmul(qa, qb, promote_interval=2**64)
    with pytest.raises(ValueError, match="b_fmt must be one of"):
        fp8_mlir.scaled_matmul(qa.codes, qa.scales, qb.codes, qb.scales, b_fmt=["e5m2"])
    with pytest.raises(ValueError, match="out must be"):
        fp8_mlir.scaled_matmul(qa, qb, out=["f32"])


# -- read-only and memory-mapped inputs ---------------------------------------


def test_read_only_and_memory_mapped_inputs(tmp_path):
    rng = np.random.default_rng(19)
    a = rng.standard_normal((8, 256)).astype(np.float32)
    w = rng.standard_normal((128, 256)).astype(np.float32)
    want_q = fp8_mlir.quantize(a)
    qw = fp8_mlir.quantize(w, block=(128, 128))
    want_mm = fp8_mlir.scaled_matmul(want_q, qw, out="f32")

    ro = a.copy()
    ro.flags.writeable = False
    assert fp8_mlir.quantize(ro) == want_q

    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "codes.npy", want_q.codes)
    np.save(tmp_path / "scales.npy", want_q.scales)
    mapped = np.load(tmp_path / "a.npy", mmap_mode="r")
    codes = np.load(tmp_path / "codes.npy", mmap_mode="r")
    scales = np.load(tmp_path / "scales.npy", mmap_mode="r")
    assert not mapped.flags.writeable and not codes.flags.writeable
    assert fp8_mlir.quantize(mapped) == want_q
    np.testing.assert_array_equal(fp8_mlir.dequantize(codes, scales),
                                  fp8_mlir.dequantize(want_q))
    got = fp8_mlir.scaled_matmul(codes, scales, qw.codes, qw.scales, out="f32")
    np.testing.assert_array_equal(got, want_mm)


def test_jit_still_rejects_read_only_outputs():
    q = fp8_mlir.quantize(X)
    from fp8_mlir.numerics import _compile  # noqa: F401  (the same JIT path)

    axpy = fp8_mlir.jit("""
      func.func @copy(%x: memref<4xf32>, %y: memref<4xf32>) {
        memref.copy %x, %y : memref<4xf32> to memref<4xf32>
        return
      }""", "finalize-memref-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts")
    x = np.ones(4, np.float32)
    y = np.zeros(4, np.float32)
    y.flags.writeable = False
    with pytest.raises(ValueError, match="must be writeable"):
        axpy.copy(x, y)
    assert q.codes.shape == (4, 256)


# -- reports through sys.stdout; Ctrl-C ---------------------------------------


def test_reports_go_through_sys_stdout(capsys):
    # capsys replaces sys.stdout only (not file descriptor 1): the report
    # shows here only if it went through Python.
    fp8_mlir.run_pipeline(MLP, "fp8-pipeline")
    out, _ = capsys.readouterr()
    assert "fp8-report: policy deepseek-v3" in out


def test_output_of_threads_is_never_lost_or_duplicated(tmp_path):
    # Four threads run five pipelines each while the main thread writes
    # numbered lines to stdout (through sys.stdout) and stderr (os.write):
    # each call's report reaches stdout once (20 in all, and each call
    # captured exactly its own one), each main-thread line appears exactly
    # once, and an invalid option's reason is in each call's exception and
    # never on stderr. A capture that redirects the process's descriptors
    # loses and repeats the main thread's lines and the reports (other
    # calls' output re-captured and re-emitted). The child's stdout and
    # stderr are files opened for appending (each write lands whole).
    code = textwrap.dedent("""
        import os, sys, threading, time
        import fp8_mlir
        from fp8_mlir import compiler, models
        mlp = models.llama_block(models.ModelConfig.small(), 1)
        own, reasons = [], []
        def work():
            for _ in range(5):
                r = compiler._run(mlp, "fp8-pipeline", "<input>", capture_output=True)
                own.append(r.stdout.count(b"fp8-report: policy deepseek-v3") == 1 and b"MAIN" not in r.stdout)
                sys.stdout.write(r.stdout.decode())
                sys.stdout.flush()
                try:
                    fp8_mlir.run_pipeline(mlp, "fp8-pipeline{strict=maybe}")
                except fp8_mlir.MLIRError as e:
                    reasons.append("'maybe' is invalid value for boolean argument" in str(e))
        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        lines = 0
        while any(t.is_alive() for t in threads) or lines < 20:
            sys.stdout.write(f"MAIN-OUT {lines}\\n")
            sys.stdout.flush()
            os.write(2, f"MAIN-ERR {lines}\\n".encode())
            lines += 1
            time.sleep(0.005)
        for t in threads:
            t.join()
        sys.stdout.write(f"LINES {lines} OWN {own.count(True)} REASONS {reasons.count(True)}\\n")
    """)
    out_path, err_path = tmp_path / "out", tmp_path / "err"
    with open(out_path, "ab") as out, open(err_path, "ab") as err:
        proc = subprocess.run([sys.executable, "-c", code], stdout=out, stderr=err, timeout=300)
    out, err = out_path.read_text(), err_path.read_text()
    assert proc.returncode == 0, err[-2000:]
    lines = int(out.split("LINES ")[1].split()[0])
    assert out.endswith(f"LINES {lines} OWN 20 REASONS 20\n"), out[-300:]
    for stream, name in ((out, "MAIN-OUT"), (err, "MAIN-ERR")):
        seen = collections.Counter(re.findall(name + r" (\d+)\n", stream))
        assert seen == collections.Counter(str(i) for i in range(lines)), (name, lines, seen.most_common(3))
    assert out.count("fp8-report: policy deepseek-v3") == 20
    assert "maybe" not in err
    assert len(err) == sum(len(f"MAIN-ERR {i}\n") for i in range(lines)), err[:2000]


WAIT_FOR_FLAG = """
func.func @wait(%started: memref<1xi32>, %flag: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  memref.store %one, %started[%c0] : memref<1xi32>
  scf.while : () -> () {
    %v = memref.atomic_rmw addi %zero, %flag[%c0] : (i32, memref<1xi32>) -> i32
    %go = arith.cmpi eq, %v, %zero : i32
    scf.condition(%go)
  } do {
    scf.yield
  }
  return
}
"""


def test_jit_calls_release_the_gil():
    # Deterministic, no timing: the compiled function marks that it started,
    # then spins until the main thread sets a flag. Were the GIL held during
    # the call, the main thread could neither see the mark nor set the flag,
    # and the subprocess would hang into its timeout. scaled_matmul,
    # quantize and dequantize run as such calls.
    proc = run_python(f"""
        import threading
        import numpy as np
        import fp8_mlir
        m = fp8_mlir.jit({WAIT_FOR_FLAG!r}, "convert-scf-to-cf,convert-to-llvm,reconcile-unrealized-casts")
        started, flag = np.zeros(1, np.int32), np.zeros(1, np.int32)
        t = threading.Thread(target=m.wait, args=(started, flag))
        t.start()
        while started[0] == 0:
            pass
        flag[0] = 1
        t.join()
        print("RELEASED")
    """, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "RELEASED" in proc.stdout


def test_ctrl_c_interrupts_a_long_scaled_matmul():
    # Ctrl-C during a long call ends it with KeyboardInterrupt after the row
    # chunk under way, at the production chunk size (numerics._CHUNK_MACS).
    # No timing: the child records the row ranges it starts, and a thread of
    # it sends SIGINT once the first chunk is about to start; with a switch
    # interval of 1000 s the main thread keeps the GIL until the native call
    # releases it, so the signal arrives while compiled code runs. Should the
    # chunk end before that thread is scheduled (a loaded machine), the main
    # thread waits for the signal before it starts another chunk: no chunk
    # ever starts after the signal. Without chunking the one range would be
    # every row; a signal lost in native code (a handler of the crash
    # recovery) would let the call finish.
    proc = run_python("""
        import os, signal, sys, threading
        import numpy as np, fp8_mlir
        from fp8_mlir import numerics
        # Python leaves SIGINT alone when it starts ignored (as under lit).
        signal.signal(signal.SIGINT, signal.default_int_handler)
        m, n, k = 4096, 1024, 2048
        qa = fp8_mlir.quantize(np.ones((m, k), np.float32))
        qb = fp8_mlir.quantize(np.ones((n, k), np.float32), block=(128, 128))
        sys.setswitchinterval(1000)
        entering, sent = threading.Event(), threading.Event()
        def interrupt():
            entering.wait()
            os.kill(os.getpid(), signal.SIGINT)
            sent.set()
        threading.Thread(target=interrupt, daemon=True).start()
        started = []
        by_rows = numerics._by_rows
        def recording(rows, block_rows, work_per_row, chunk_work, call):
            def chunk(r0, r1, s0, s1):
                started.append(min(r1, rows) - r0)
                entering.set()
                call(r0, r1, s0, s1)
                sent.wait()
            by_rows(rows, block_rows, work_per_row, chunk_work, chunk)
        numerics._by_rows = recording
        try:
            fp8_mlir.scaled_matmul(qa, qb)
            print("FINISHED", flush=True)
        except KeyboardInterrupt:
            print("INTERRUPTED", flush=True)
        print("ROWS", sum(started), "OF", m, "CHUNKS", len(started), flush=True)
    """)
    assert proc.returncode == 0, proc.stderr
    assert "INTERRUPTED" in proc.stdout, proc.stdout + proc.stderr
    rows = int(proc.stdout.split("ROWS")[1].split()[0])
    chunks = int(proc.stdout.split("CHUNKS")[1].split()[0])
    # 2^30 multiply-adds per chunk: 512 of the 4096 rows of 1024x2048.
    assert chunks == 1 and rows == 512, proc.stdout


@pytest.mark.parametrize("block", [(1, 128), (3, 128), (128, 128)])
def test_row_chunks_give_the_same_result(monkeypatch, block):
    # The calls that Ctrl-C can interrupt run as row chunks of whole blocks:
    # many small chunks must give the bytes of one call.
    from fp8_mlir import numerics

    rng = np.random.default_rng(7)
    x = (rng.standard_normal((301, 256)) * np.exp(rng.uniform(-8, 8, (301, 1)))).astype(np.float32)
    w = rng.standard_normal((128, 256)).astype(np.float32)
    qb = fp8_mlir.quantize(w, block=(128, 128))
    one_q = fp8_mlir.quantize(x, block=block)
    one_d = fp8_mlir.dequantize(one_q)
    one_mm = fp8_mlir.scaled_matmul(one_q, qb, out="f32")
    monkeypatch.setattr(numerics, "_CHUNK_ELEMENTS", 2000)
    monkeypatch.setattr(numerics, "_CHUNK_MACS", 100000)
    q = fp8_mlir.quantize(x, block=block)
    assert q == one_q
    np.testing.assert_array_equal(fp8_mlir.dequantize(q), one_d)
    np.testing.assert_array_equal(fp8_mlir.scaled_matmul(q, qb, out="f32"), one_mm)


# The child's side of the Ctrl-C tests below: `interrupted_on_entry(fn)`
# wraps a native entry point so that SIGINT is sent once the main thread
# enters it (a thread waiting for that, switch interval of 1000 s: the main
# thread keeps the GIL until the native call releases it); the SIGINT
# handler records in `during_run` whether a thread created inside the call
# (a thread id absent when it began; Linux /proc) was still running. A call
# that is still running STOP_WITHIN_S seconds after the signal ignores it:
# the child prints NOT STOPPED and exits 3 then, so such a fault fails in
# seconds, not at the subprocess timeout (a call that honours Ctrl-C stops
# at its next check, within milliseconds; the work it was given takes many
# minutes).
STOP_WITHIN_S = 30
SIGINT_ON_ENTRY = """
import os, signal, sys, threading
def threads():
    return set(os.listdir("/proc/self/task"))
before, during_run = set(), []
def on_sigint(signum, frame):
    during_run.append(bool(threads() - before))
    raise KeyboardInterrupt
# Python leaves SIGINT alone when it starts ignored (as under lit).
signal.signal(signal.SIGINT, on_sigint)
sys.setswitchinterval(1000)
entering, returned = threading.Event(), threading.Event()
def interrupt():
    entering.wait()
    os.kill(os.getpid(), signal.SIGINT)
    if not returned.wait(%d):
        os.write(1, b"NOT STOPPED within %d s of SIGINT\\n")
        os._exit(3)
threading.Thread(target=interrupt, daemon=True).start()
def interrupted_on_entry(native):
    def entering_native(*args, **kwargs):
        before.update(threads())
        entering.set()
        try:
            return native(*args, **kwargs)
        finally:
            returned.set()
    return entering_native
""" % (STOP_WITHIN_S, STOP_WITHIN_S)


def test_ctrl_c_stops_a_pipeline_at_the_next_pass():
    # Ctrl-C during a pipeline ends it with KeyboardInterrupt at the next
    # pass boundary. No timing (a 0.2 s timer raced the pipeline, which a
    # fast machine finishes sooner): as in the scaled_matmul test above, a
    # thread of the child sends SIGINT once the main thread releases the GIL
    # in the native call (switch interval of 1000 s), and the pipeline ends in
    # 50000 cse passes on the lowered 16-layer MoE block (60-80 ms each on a
    # 2-core machine: close to an hour): only a run that stops at a pass
    # boundary returns before the subprocess timeout of 300 s. The
    # SIGINT handler also records whether the native run's thread (created
    # and joined inside the call: a thread id absent when the call began;
    # Linux /proc) was still running: a signal left pending in native code
    # would be handled by the interpreter only after the call returned.
    proc = run_python(SIGINT_ON_ENTRY + textwrap.dedent("""
        import fp8_mlir
        from fp8_mlir import compiler, models
        text = models.moe_block(models.ModelConfig.small(), 16)
        pipeline = "fp8-pipeline{report=false},fp8-cpu-pipeline," + ",".join(["cse"] * 50000)
        native = compiler._native.run_pipeline
        compiler._native.run_pipeline = interrupted_on_entry(native)
        try:
            fp8_mlir.run_pipeline(text, pipeline)
            print("FINISHED", flush=True)
        except KeyboardInterrupt:
            print("INTERRUPTED", "during the run" if during_run == [True] else during_run, flush=True)
        compiler._native.run_pipeline = native
        # The interpreter and the compiler go on.
        print("ALIVE", "func.func" in fp8_mlir.run_pipeline("func.func @f() { return }"), flush=True)
    """))
    assert proc.returncode == 0, (proc.stdout, proc.stderr)
    assert "INTERRUPTED during the run" in proc.stdout, (proc.stdout, proc.stderr)
    assert "ALIVE True" in proc.stdout, (proc.stdout, proc.stderr)


def test_ctrl_c_stops_the_gpu_emulator():
    # Ctrl-C during backend="gpu-emulator" ends the call with
    # KeyboardInterrupt while the emulated GEMM launch runs (it was honoured
    # only when the launch ended). No timing, as in the pipeline test above:
    # the emulated runtime traces each launch on stderr (FP8_EMU_TRACE),
    # which the child reads through a pipe, and SIGINT is sent once the GEMM
    # kernel's launch begins (not at the call's entry: the host program's
    # first allocation would stop it before any launch). The GEMM,
    # 4096 x 4096 x 16384 of E4M3 ones, takes close to 20 minutes on a
    # 2-core machine: only a launch that stops (the JIT asks the runtime to,
    # fp8_mgpu_request_stop) returns before the subprocess timeout of 300 s.
    # The SIGINT handler records whether the thread of the host program's
    # call (created and joined inside the call) was still running.
    proc = run_python(SIGINT_ON_ENTRY + textwrap.dedent("""
        import os
        import numpy as np, fp8_mlir
        from fp8_mlir import _fp8_mlir as native_module
        os.environ["FP8_EMU_TRACE"] = "1"
        read_end, write_end = os.pipe()
        os.dup2(write_end, 2)
        def watch_launches():
            with os.fdopen(read_end, "r", errors="replace") as lines:
                for line in lines:
                    if "launch fp8_scaled_matmul_" in line:
                        entering.set()
        threading.Thread(target=watch_launches, daemon=True).start()
        m, n, k = 4096, 4096, 16384
        one = np.uint8(0x38)  # E4M3 1.0
        qa = fp8_mlir.ScaledTensor(np.full((m, k), one), np.ones((m, k // 128), np.float32), (1, 128))
        qb = fp8_mlir.ScaledTensor(np.full((n, k), one), np.ones((n // 128, k // 128), np.float32), (128, 128))
        native = native_module.JitModule.call
        def recording_call(*args):
            before.update(threads())
            try:
                return native(*args)
            finally:
                returned.set()
        native_module.JitModule.call = recording_call
        try:
            fp8_mlir.scaled_matmul(qa, qb, backend="gpu-emulator")
            print("FINISHED", flush=True)
        except KeyboardInterrupt:
            print("INTERRUPTED", "during the run" if during_run == [True] else during_run, flush=True)
        native_module.JitModule.call = native
        # The emulator goes on: 128 x 128 x 16384 after the interrupted one.
        small = fp8_mlir.scaled_matmul(qa.codes[:128], qa.scales[:128], qb.codes[:128], qb.scales[:1],
                                       backend="gpu-emulator", out="f32")
        print("ALIVE", float(small.min()), float(small.max()), flush=True)
    """))
    assert proc.returncode == 0, (proc.stdout, proc.stderr)
    assert "INTERRUPTED during the run" in proc.stdout, (proc.stdout, proc.stderr)
    assert "ALIVE 16384.0 16384.0" in proc.stdout, (proc.stdout, proc.stderr)  # K products 1 x 1


# An f32 training step of about 100 s on a 2-core machine (1.3 GB when it
# ends), compiled in 2 s; interrupted, it returns within seconds (its longest
# stretch without an allocation is one matmul, 2048 x 1024 x 4096).
STEP_CONFIG = dict(vocab=256, layers=1, hidden=1024, heads=8, intermediate=4096, seq=256)
STEP_BATCH = 8


def test_ctrl_c_stops_a_training_step():
    # Ctrl-C during LanguageModel.loss_and_grads ends it with
    # KeyboardInterrupt while the compiled step runs (it was honoured only
    # when the step ended). No timing, as in the tests above: SIGINT is sent
    # once the main thread enters the JIT call, and the f32 step of STEP_CONFIG
    # takes several minutes on a 2-core machine: only a step that stops at its
    # next allocation returns within STOP_WITHIN_S of the signal. The handler
    # records whether the call's thread was still running; the JIT goes on
    # afterwards (a quantize, which runs compiled code too).
    proc = run_python(SIGINT_ON_ENTRY + textwrap.dedent("""
        import numpy as np, fp8_mlir
        from fp8_mlir.training import LanguageModel, LanguageModelConfig
        config = LanguageModelConfig(**STEP_CONFIG)
        model = LanguageModel(config, "f32")
        params = model.init(0)
        tokens = np.random.default_rng(0).integers(0, config.vocab, (STEP_BATCH, config.seq + 1))
        module = model.compiled(STEP_BATCH)
        native = module._native
        class Entering:
            call = staticmethod(interrupted_on_entry(native.call))
        module._native = Entering
        try:
            model.loss_and_grads(params, tokens)
            print("FINISHED", flush=True)
        except KeyboardInterrupt:
            print("INTERRUPTED", "during the run" if during_run == [True] else during_run, flush=True)
        module._native = native
        q = fp8_mlir.quantize(np.ones((4, 128), np.float32))
        print("ALIVE", float(fp8_mlir.dequantize(q).sum()), flush=True)
    """).replace("STEP_CONFIG", repr(STEP_CONFIG)).replace("STEP_BATCH", str(STEP_BATCH)))
    assert proc.returncode == 0, (proc.stdout, proc.stderr)
    assert "INTERRUPTED during the run" in proc.stdout, (proc.stdout, proc.stderr)
    assert "ALIVE 512.0" in proc.stdout, (proc.stdout, proc.stderr)


# -- the model generators never emit IR that does not parse -------------------


def test_model_generators_fuzzed():
    rng = np.random.default_rng(1919)
    ints = ["hidden", "num_heads", "num_kv_heads", "head_dim", "intermediate", "moe_intermediate",
            "num_experts", "num_shared_experts", "top_k", "tokens", "vocab"]
    floats = ["routed_scaling", "capacity_factor", "rms_eps", "rope_theta"]
    odd_ints = [0, -1, 1, 2, 3, 7, 2**20, 2**20 + 1, 2**31, 2**63, True, 2.0, "8", None]
    odd_floats = [0.0, -1.0, 1e-38, 1e-30, 1e38, 1e39, 3.4e38, float("inf"), float("nan"), 1, "1.0", None]
    parsed = rejected = 0
    for trial in range(60):
        fields = {}
        for name in rng.choice(ints + floats, size=int(rng.integers(1, 4)), replace=False):
            pool = odd_ints if name in ints else odd_floats
            fields[str(name)] = pool[int(rng.integers(len(pool)))]
        kwargs = dict(tokens=4, vocab=64)
        kwargs.update(fields)
        gen = [models.llama_block, models.moe_block, models.model][trial % 3]
        extra = {}
        if trial % 5 == 0:
            extra = dict(func_name=["forward", "1bad", "\u00e9", "a.b", ""][int(rng.integers(5))])
        if trial % 7 == 0:
            extra["dtype"] = ["bf16", "f16", ["f32"]][int(rng.integers(3))]
        try:
            config = models.ModelConfig.small(**kwargs)
            text = gen(config, 1, **extra)
        except (ValueError, TypeError) as err:
            # Named: the message says which parameter.
            assert any(k in str(err) for k in list(fields) + list(extra) + ["num_heads", "top_k"]), err
            rejected += 1
            continue
        fp8_mlir.run_pipeline(text)  # parses and verifies
        parsed += 1
    assert parsed >= 5 and rejected >= 20, (parsed, rejected)
