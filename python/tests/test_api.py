"""run_pipeline, has_pass, MLIRError, jit and compile's argument checks."""

import re
import subprocess
import sys

import numpy as np
import pytest

import fp8_mlir
from fp8_mlir import MLIRError

ADD = """
func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %c0 = arith.constant 0 : i32
  %1 = arith.addi %0, %c0 : i32
  return %1 : i32
}
"""

SCALED = """
func.func @q(%x: tensor<4x256xf32>) -> !fp8.scaled<4x256xf8E4M3FN, block = [1, 128], scale = f32> {
  %q = fp8.quantize %x : tensor<4x256xf32> -> !fp8.scaled<4x256xf8E4M3FN, block = [1, 128], scale = f32>
  return %q : !fp8.scaled<4x256xf8E4M3FN, block = [1, 128], scale = f32>
}
"""


def test_run_pipeline_empty_pipeline_roundtrips():
    out = fp8_mlir.run_pipeline(ADD)
    assert "func.func @f" in out
    assert out.count("arith.addi") == 2
    # The printed form parses again to the same text.
    assert fp8_mlir.run_pipeline(out) == out


def test_crash_in_libmlir_is_an_mlirerror_not_a_signal():
    # The packaged MLIR 22 linalg.reduce parser segfaults on this input
    # (test/Upstream/upstream-linalg-reduce-parse-crash.mlir): the crash is
    # recovered into an MLIRError naming the stage and the source (more in
    # test_robustness.py). In a subprocess, so that a regression cannot end
    # pytest.
    code = ("import fp8_mlir\n"
            "try:\n"
            "    fp8_mlir.run_pipeline('linalg.reduce\\ndimensions=', source_name='crash.mlir')\n"
            "except fp8_mlir.MLIRError as e:\n"
            "    print(e)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    assert "internal error in the MLIR parser while processing crash.mlir" in proc.stdout


def test_run_pipeline_canonicalize_folds():
    out = fp8_mlir.run_pipeline(ADD, "canonicalize")
    assert out.count("arith.addi") == 1
    assert "arith.constant" not in out


@pytest.mark.parametrize(
    "pipeline", ["builtin.module(canonicalize,cse)", "canonicalize,cse", ["canonicalize", "cse"]]
)
def test_run_pipeline_pipeline_spellings(pipeline):
    assert fp8_mlir.run_pipeline(ADD, pipeline).count("arith.addi") == 1


def test_run_pipeline_nested_anchor():
    out = fp8_mlir.run_pipeline(ADD, "func.func(canonicalize)")
    assert out.count("arith.addi") == 1


def test_run_pipeline_accepts_bytes_and_generic_form():
    out = fp8_mlir.run_pipeline(ADD.encode(), generic=True)
    assert '"arith.addi"' in out


def test_fp8_dialect_is_registered():
    out = fp8_mlir.run_pipeline(SCALED)
    assert "!fp8.scaled<4x256xf8E4M3FN, block = [1, 128], scale = f32>" in out
    assert "fp8.quantize" in out


def test_parse_error_raises_with_location():
    bad = "func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %b : i32\n  return %0 : i32\n}\n"
    with pytest.raises(MLIRError) as info:
        fp8_mlir.run_pipeline(bad)
    err = info.value
    assert len(err.errors) >= 1
    d = err.errors[0]
    assert d.severity == "error"
    assert d.location == "<input>:2:23"
    assert "undeclared SSA value" in d.message
    # The rendered form shows the source line with a caret, like fp8-opt.
    assert "%0 = arith.addi %a, %b : i32" in err.rendered
    assert "^" in err.rendered
    assert "<input>:2:23" in str(err)


def test_source_name_appears_in_locations():
    with pytest.raises(MLIRError) as info:
        fp8_mlir.run_pipeline("func.func @f( {", source_name="graph.mlir")
    assert info.value.errors[0].location.startswith("graph.mlir:1:")


def test_verifier_error_from_fp8_dialect():
    # 3 block sizes for a rank-2 tensor: the scaled type's verifier rejects it.
    bad = SCALED.replace("block = [1, 128]", "block = [1, 1, 128]")
    with pytest.raises(MLIRError) as info:
        fp8_mlir.run_pipeline(bad)
    assert any("block" in d.message for d in info.value.errors)


def test_verifier_error_carries_named_location():
    # A negative eps: fp8.quantize's verifier names the op's torch-style loc.
    bad = SCALED.replace(
        "%q = fp8.quantize %x :", "%q = fp8.quantize %x {eps = -1.0 : f32} :"
    ).replace("scale = f32>\n  return", 'scale = f32> loc("model.layers.3.mlp.gate")\n  return')
    assert 'loc("model.layers.3.mlp.gate")' in bad
    with pytest.raises(MLIRError) as info:
        fp8_mlir.run_pipeline(bad)
    d = info.value.errors[0]
    assert d.location == 'loc("model.layers.3.mlp.gate")'
    assert "eps" in d.message


def test_unknown_pass_raises():
    with pytest.raises(MLIRError) as info:
        fp8_mlir.run_pipeline(ADD, "no-such-pass")
    assert "no-such-pass" in str(info.value)
    assert info.value.errors[0].location == "<pipeline>"


def test_bad_pass_option_raises():
    with pytest.raises(MLIRError):
        fp8_mlir.run_pipeline(ADD, "canonicalize{no-such-option=1}")


def test_pass_failure_raises_not_aborts():
    # One-shot bufferization cannot bufferize arith on tensors: the pass
    # fails with an error at the op's location.
    text = """
    func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
      %0 = arith.addf %a, %a : tensor<4xf32> loc("model.layers.0.mlp")
      return %0 : tensor<4xf32>
    }
    """
    with pytest.raises(MLIRError) as info:
        fp8_mlir.run_pipeline(text, "one-shot-bufferize")
    d = info.value.errors[0]
    assert d.location == 'loc("model.layers.0.mlp")'
    assert "not bufferized" in d.message
    assert "one-shot-bufferize" in str(info.value)
    # The interpreter is alive and the next call works.
    assert "func.func" in fp8_mlir.run_pipeline(ADD)


def test_type_errors():
    with pytest.raises(TypeError):
        fp8_mlir.run_pipeline(42)
    with pytest.raises(TypeError):
        fp8_mlir.run_pipeline(ADD, 3)


def test_has_pass():
    assert fp8_mlir.has_pass("canonicalize")
    assert fp8_mlir.has_pass("convert-linalg-to-loops")
    assert not fp8_mlir.has_pass("no-such-pass")


# -- jit ---------------------------------------------------------------------

LOWER = "one-shot-bufferize{bufferize-function-boundaries},convert-linalg-to-loops,expand-strided-metadata,finalize-memref-to-llvm,convert-scf-to-cf,convert-to-llvm,reconcile-unrealized-casts"

AXPY = """
func.func @axpy(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %m = arith.mulf %x, %two : f32
    %s = arith.addf %m, %y : f32
    linalg.yield %s : f32
  }
  return
}
func.func @fixed(%a: memref<3xi8>, %s: i32) {
  %c0 = arith.constant 0 : index
  %t = arith.trunci %s : i32 to i8
  memref.store %t, %a[%c0] : memref<3xi8>
  return
}
"""


@pytest.fixture(scope="module")
def axpy():
    return fp8_mlir.jit(AXPY, LOWER)


def test_jit_runs_on_numpy_arrays(axpy):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((5, 7)).astype(np.float32)
    b = rng.standard_normal((5, 7)).astype(np.float32)
    c = np.zeros((5, 7), np.float32)
    axpy.axpy(a, b, c)
    np.testing.assert_array_equal(c, np.float32(2) * a + b)


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_jit_accepts_every_llvm_opt_level(level):
    # jit's opt_level is LLVM's -O0 .. -O3, all four accepted (the check of
    # its range is inclusive at both ends); the code of each computes the
    # same 2 a + b (exact in f32: a doubling and one rounding).
    m = fp8_mlir.jit(AXPY, LOWER, opt_level=level)
    a = np.arange(35, dtype=np.float32).reshape(5, 7) / 8
    b = np.full((5, 7), 0.25, np.float32)
    c = np.zeros((5, 7), np.float32)
    m.axpy(a, b, c)
    np.testing.assert_array_equal(c, np.float32(2) * a + b)


def test_jit_signature_and_scalars(axpy):
    sig = axpy.functions["fixed"]["args"]
    assert sig[0]["shape"] == [3] and sig[0]["bit_width"] == 8
    assert sig[1]["rank"] == -1 and sig[1]["element_type"] == "i32"
    a = np.zeros(3, np.uint8)
    axpy.call("fixed", a, 200)
    assert a.tolist() == [200, 0, 0]


def test_jit_checks_arguments(axpy):
    a = np.zeros((2, 2), np.float32)
    with pytest.raises(ValueError, match="takes 3 arguments"):
        axpy.axpy(a, a)
    with pytest.raises(ValueError, match="4-byte elements"):
        axpy.axpy(a, a, np.zeros((2, 2), np.float64))
    with pytest.raises(ValueError, match="rank"):
        axpy.axpy(a, a, np.zeros(4, np.float32))
    with pytest.raises(ValueError, match="C-contiguous"):
        axpy.axpy(a, a, np.zeros((2, 4), np.float32)[:, ::2])
    with pytest.raises(ValueError, match="dimension 0 must be 3"):
        axpy.fixed(np.zeros(4, np.uint8), 1)
    ro = np.zeros((2, 2), np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        axpy.axpy(a, a, ro)
    with pytest.raises(ValueError, match="no function"):
        axpy.call("nope")
    # Scalars: the argument and its type are named.
    with pytest.raises(ValueError, match="argument 1 of 'fixed' must be an integer .*got str"):
        axpy.fixed(np.zeros(3, np.uint8), "1")
    with pytest.raises(ValueError, match="argument 1 of 'fixed' must be an integer .*got float"):
        axpy.fixed(np.zeros(3, np.uint8), 1.5)
    with pytest.raises(ValueError, match="argument 1 of 'fixed': 4294967296 does not fit i32"):
        axpy.fixed(np.zeros(3, np.uint8), 2**32)
    with pytest.raises(ValueError, match="opt_level must be 0, 1, 2 or 3"):
        fp8_mlir.jit(ADD, "convert-to-llvm", opt_level="fast")
    for level in (-1, 4):
        with pytest.raises(ValueError, match="opt_level must be 0, 1, 2 or 3"):
            fp8_mlir.jit(ADD, "convert-to-llvm", opt_level=level)
    with pytest.raises(TypeError, match="shared_libs must be a list of library paths"):
        fp8_mlir.jit(ADD, "convert-to-llvm", shared_libs="libfoo.so")


def test_jit_lowering_failure_raises():
    with pytest.raises(MLIRError):
        fp8_mlir.jit(AXPY, "canonicalize")  # never reaches the LLVM dialect


def test_jit_library_that_does_not_load_raises(tmp_path):
    """A shared library that is not there, or is no library, fails the jit
    naming its path (as fp8-emu-run's --shared-libs). Before the tools' JIT
    set-up was shared, ExecutionEngine only warned on stderr and compiled
    on: a call then failed on an unresolved symbol, or ran without it."""
    missing = tmp_path / "libnone.so"
    with pytest.raises(MLIRError, match=f"cannot load the library '{re.escape(str(missing))}': no such file") as e:
        fp8_mlir.jit(ADD, "convert-to-llvm", shared_libs=[str(missing)])
    assert e.value.stage == "jit"
    text = tmp_path / "libtext.so"
    text.write_text("not a shared library\n")
    with pytest.raises(MLIRError, match=f"cannot load the library '{re.escape(str(text))}': .+"):
        fp8_mlir.jit(ADD, "convert-to-llvm", shared_libs=[str(text)])


# -- compile -----------------------------------------------------------------


def test_compile_rejects_unknown_policy_and_target():
    with pytest.raises(ValueError, match="policy"):
        fp8_mlir.compile(ADD, policy="fp4-magic")
    with pytest.raises(ValueError, match="target"):
        fp8_mlir.compile(ADD, target="sm_70")


def test_pass_output_is_captured_not_printed(capfd):
    # What a pass prints (here print-op-stats on stderr) comes back to the
    # caller instead of reaching the terminal.
    from fp8_mlir.compiler import _run

    r = _run(ADD, "print-op-stats", "<input>", capture_output=True)
    assert b"arith.addi" in r["stderr"]
    out, err = capfd.readouterr()
    assert "arith.addi" not in out + err
