"""examples/train/train_lm.py on option values and on the files it reads
and writes, without training (the short training run is
test_train_lm_example.py): every bad value is refused when the arguments
are parsed, by an argparse error naming the option and what it accepts,
before the corpus is read or a step compiled; a --json file --from-json
cannot use is refused naming the file."""

import argparse
import json

import pytest

from conftest import load_example

EX = load_example("train_lm")
CORPUS = ["--corpus", argparse.__file__]


def _error(capsys, argv):
    """The message of the argparse error parse_args(argv) exits with."""
    with pytest.raises(SystemExit) as exit_:
        EX.parse_args(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err.strip().splitlines()[-1]


@pytest.mark.parametrize("argv, message", [
    # Nothing to run (once: UnboundLocalError after the corpus was read).
    (["--runs", ","], "--runs names no run"),
    (["--runs", " "], "--runs names no run"),
    (["--runs", "bf16,f32,bf16"], "--runs names bf16 more than once"),
    (["--runs", "bf16,fp16"], "unknown run(s) fp16"),
    # Divided by (ZeroDivisionError after the first run's compile).
    (["--batch", "0"], "--batch must be an integer >= 1, got 0"),
    (["--eval-every", "0"], "--eval-every must be an integer >= 1, got 0"),
    # Averaged over nothing (a NaN validation loss in the table and JSON).
    (["--eval-batches", "0"], "--eval-batches must be an integer >= 1, got 0"),
    # Timed nothing (0.0 ms in the time split).
    (["--profile-repeats", "0"], "--profile-repeats must be an integer >= 1, got 0"),
    (["--steps", "0"], "--steps must be an integer >= 1"),
    (["--seq", "-5"], "--seq must be an integer >= 1"),
    (["--layers", "0"], "--layers must be an integer >= 1"),
    (["--seed", "-1"], "--seed must be an integer >= 0"),
    (["--warmup", "-1"], "--warmup must be an integer >= 0"),
    # NaN weights, or gradient ascent.
    (["--lr", "nan"], "--lr must be a finite number > 0, got nan"),
    (["--lr=-2e-3"], "--lr must be a finite number > 0"),
    (["--lr", "0"], "--lr must be a finite number > 0"),
    (["--min-lr", "nan"], "--min-lr must be a finite number >= 0"),
    (["--weight-decay", "inf"], "--weight-decay must be a finite number >= 0"),
    (["--clip", "-1"], "--clip must be a finite number > 0"),
    # The model's sizes, as LanguageModelConfig checks them.
    (["--hidden", "256", "--heads", "3"], "--heads"),
    # A GPU device runs what the kernels compute (a ValueError after the
    # CPU runs otherwise, hours in).
    (["--device", "gpu-emulator"], "--device gpu-emulator cannot run deepseek-v3-acc14, no-promotion"),
    (["--device", "cuda", "--runs", "bf16,no-promotion"], "--device cuda cannot run no-promotion"),
    (["--device", "tpu"], "argument --device: invalid choice: 'tpu'"),
])
def test_bad_option_values(capsys, argv, message):
    assert message in _error(capsys, CORPUS + argv)


def test_device_reaches_the_model(monkeypatch):
    """--device is the device of every run's LanguageModel (stopped there,
    before anything compiles)."""
    args = EX.parse_args(CORPUS + ["--device", "gpu-emulator", "--runs", "bf16,deepseek-v3"])
    seen = []

    class Stop(Exception):
        pass

    def model(config, policy, **kwargs):
        seen.append(kwargs.get("device"))
        raise Stop

    monkeypatch.setattr(EX, "LanguageModel", model)
    with pytest.raises(Stop):
        EX.run_all(args, log=lambda *a: None)
    assert seen == ["gpu-emulator"]


def test_missing_corpus(capsys, tmp_path):
    missing = str(tmp_path / "absent")
    assert f"--corpus: no such file or directory: {missing}" in _error(capsys, ["--corpus", missing])


def test_json_into_a_missing_directory_fails_before_training(capsys, tmp_path, monkeypatch):
    """--json (and --png) into a directory that does not exist: an error
    when the arguments are parsed, not when the first run has trained."""
    def train(*args, **kwargs):
        raise AssertionError("trained before checking --json")

    monkeypatch.setattr(EX, "run_all", train)
    missing = tmp_path / "no-such-dir" / "lm.json"
    for option in ("--json", "--png"):
        with pytest.raises(SystemExit):
            EX.main(CORPUS + [option, str(missing)])
        err = capsys.readouterr().err
        assert f"{option} {missing}: the directory {missing.parent} does not exist" in err, err
    with pytest.raises(SystemExit):
        EX.main(CORPUS + ["--json", str(tmp_path)])
    assert "is a directory" in capsys.readouterr().err
    assert not missing.parent.exists()


class _Model:
    """What time_split reads of a LanguageModel."""
    policy = "deepseek-v3"
    device = "cpu"
    report = None

    def compiled(self, batch):
        return None


def test_time_split_never_negative(monkeypatch):
    """The FP8 ops timed alone (0.8 + 0.3 ms) exceed the median step (1.0
    ms), as on a loaded machine: "other" is 0, flagged, and the table marks
    it, rather than printing -0.1 ms."""
    monkeypatch.setattr(EX, "fp8_op_seconds", lambda *a, **k: (0.8e-3, 0.3e-3, {"scaled_matmul": 1}))
    split = EX.time_split(_Model(), 4, [5e-3, 1.0e-3, 0.9e-3, 1.1e-3], 1)
    assert split["step_s"] == pytest.approx(1.0e-3)
    assert split["other_s"] == 0.0 and split["ops_exceed_step"] is True
    run = dict(final_val_loss=2.0, rel_err_vs_bf16=0.0, final_train_loss=2.1, tokens_per_s=1000, time_split=split)
    text = EX.table({"runs": {"deepseek-v3": run}})
    assert "| 1.0: 0.8 / 0.3 / 0.0* |" in text and "*: the FP8 ops timed alone took longer" in text
    # Within the step: the remainder, unflagged.
    monkeypatch.setattr(EX, "fp8_op_seconds", lambda *a, **k: (0.5e-3, 0.25e-3, {}))
    split = EX.time_split(_Model(), 4, [5e-3, 1.0e-3], 1)
    assert split["other_s"] == pytest.approx(0.25e-3) and split["ops_exceed_step"] is False
    with pytest.raises(ValueError, match="repeats must be >= 1"):
        EX._best_of(lambda: None, 0)


def _result(**change):
    """A --json result as train_lm.py writes it (what --from-json reads)."""
    run = dict(policy="bf16", options={}, train_loss=[5.5, 3.0], val_loss=[[2, 3.1]], grad_norms=[1.0, 0.5],
               final_val_loss=3.1, final_train_loss=3.0, compile_s=1.0, tokens_per_s=900.0, optimizer_s=1e-3,
               time_split=dict(step_s=0.01, fp8_gemm_s=0.0, quantize_s=0.0, other_s=0.01, fp8_ops={}))
    args = dict(steps=2, seed=0, layers=1, hidden=128, heads=2, batch=4, seq=32, runs=["bf16"])
    result = dict(seed=0, steps=2, args=args, runs={"bf16": run})
    result.update(change)
    return result


def _write(tmp_path, name, content):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(json.dumps(content))
    return str(path)


def test_from_json_reads_a_result(tmp_path, capsys):
    good = _write(tmp_path, "good.json", _result())
    assert EX.main(["--from-json", good]) == 0
    assert "| bf16 | 3.1000 | 0.000 % | 3.0000 | 900 |" in capsys.readouterr().out


def _without(key):
    result = _result()
    del result["runs"]["bf16"][key]
    return result


@pytest.mark.parametrize("content, message", [
    ({}, "it has no object 'args'"),
    ([], "it holds a JSON list, not an object"),
    (b"\x89PNG\r\n\x1a\n\x00\x00binary", "not a JSON file"),
    (b"{\"args\": ", "not a JSON file"),
    (_without("final_val_loss"), "run 'bf16' has no 'final_val_loss'"),
    (_without("time_split"), "run 'bf16' has no 'time_split'"),
    (_result(runs={}), "it has no runs"),
    (_result(runs={"fp16": _result()["runs"]["bf16"]}), "a run 'fp16' this script does not know"),
    (_result(runs={"bf16": dict(_result()["runs"]["bf16"], val_loss=[])}), "'val_loss' is not a list of"),
    (_result(runs={"bf16": dict(_result()["runs"]["bf16"], final_val_loss="3.1")}), "'final_val_loss' is not a number"),
    (_result(args={}), "has no integer 'args.steps'"),
    (_result(seed=None), "has no integer 'seed'"),
    (_result(modelled_h200={"rows": []}), "'modelled_h200' lacks"),
])
def test_from_json_names_the_file_it_cannot_use(tmp_path, capsys, content, message):
    """Once: KeyError, TypeError, UnicodeDecodeError or JSONDecodeError
    tracebacks that did not name the file."""
    path = _write(tmp_path, "bad.json", content)
    good = _write(tmp_path, "good.json", _result())
    with pytest.raises(SystemExit) as exit_:
        EX.main(["--from-json", good, path])
    text = str(exit_.value.code)
    assert text.startswith(f"--from-json {path}: ") and message in text, text


def test_from_json_missing_file(tmp_path):
    path = str(tmp_path / "absent.json")
    with pytest.raises(SystemExit, match=f"--from-json {path}: cannot read it"):
        EX.main(["--from-json", path])
