"""examples/train/train_lm.py, short: a 1-layer byte-level language model
(hidden 128, 2 heads, SwiGLU 256, 4 x 32 tokens per step) trained 16 AdamW
steps (BF16 moments, warmup 4, cosine) through the compiled training step
under `bf16` and `deepseek-v3`, from the same weights on the same batches.

The text is real prose and code the project did not write: the source of
Python's own `argparse` module (present wherever python3 is; the example's
documented corpus, the `fortunes` Debian package, is not needed here).

The tolerance: at every step the FP8 run's training loss is within 0.5 % of
the bf16 run's. Both runs see identical weights at step 0, where they differ
only by FP8's rounding of the forward's GEMM operands (E4M3: 2^-4 relative
per element at worst, averaged over 128-element dot products and 128 x 256
logits: measured 0.005 %); after that the trajectories separate slowly as
Adam's early steps (close to lr * sign(g)) turn small gradient differences
into weight differences. Measured: 0.10 % at most over the 16 steps (the
runs are deterministic); 0.5 % leaves room for another CPU's
floating-point contraction choices while staying below what a broken
scale or a dropped GEMM gives (the loss curves part by tens of percent).
DeepSeek-V3's 0.25 % is about the final, smoothed loss of a long run
(docs/training.md records that experiment)."""

import argparse

import numpy as np
import pytest

import fp8_mlir
from conftest import load_example, require_passes
from fp8_mlir import models

pytestmark = require_passes("fp8-pipeline", "fp8-cpu-pipeline")

TOLERANCE = 0.005


def test_fp8_loss_stays_within_tolerance_of_bf16():
    ex = load_example("train_lm")
    args = ex.parse_args(["--corpus", argparse.__file__, "--steps", "16", "--runs", "bf16,deepseek-v3",
                          "--layers", "1", "--hidden", "128", "--heads", "2", "--intermediate", "256",
                          "--seq", "32", "--batch", "4", "--lr", "3e-3", "--min-lr", "3e-4", "--warmup", "4",
                          "--eval-every", "1000", "--eval-batches", "2"])
    result = ex.run_all(args, log=lambda *a: None, measure=False)
    bf16 = np.array(result["runs"]["bf16"]["train_loss"])
    ds = np.array(result["runs"]["deepseek-v3"]["train_loss"])
    assert len(bf16) == len(ds) == 16
    # Both runs learn: from about ln 256 = 5.55 nats per byte at the start.
    for losses in (bf16, ds):
        assert abs(losses[0] - np.log(256)) < 0.2, losses[0]
        assert np.mean(losses[-4:]) < 0.7 * losses[0], losses
    rel = np.abs(ds - bf16) / bf16
    assert rel.max() < TOLERANCE, (rel.max(), int(rel.argmax()))
    # The validation loss after the last step, on documents never trained on.
    ds_val = result["runs"]["deepseek-v3"]["final_val_loss"]
    assert result["runs"]["deepseek-v3"]["rel_err_vs_bf16"] < TOLERANCE, ds_val
    assert ds_val < 0.75 * np.log(256)
    table = ex.table({"runs": {k: dict(v, time_split=dict(step_s=0, fp8_gemm_s=0, quantize_s=0, other_s=0))
                               for k, v in result["runs"].items()}})
    assert table.count("\n") == 4 and "| deepseek-v3 |" in table
    # The bytes one step saves for the weight gradients, measured on the
    # split step with FP8 caching: the layer's four Wgrad inputs, 128 tokens
    # x (3 x 128 + 256) features (attention input, context, MLP input,
    # SwiGLU product), 1 B codes + one f32 scale per 128 elements.
    elements = 128 * (3 * 128 + 256)
    assert result["runs"]["deepseek-v3"]["saved_activations"] == dict(
        tensors=4, elements=elements, high_bytes=4 * elements, bf16_bytes=2 * elements,
        fp8_bytes=elements + elements // 128 * 4)
    assert "saved_activations" not in result["runs"]["bf16"]
    assert "| deepseek-v3 | 4 | 0.16 MiB | 0.08 MiB | 0.516 |" in ex.saved_table(result)


def test_time_split_finds_the_fp8_ops_of_a_training_step():
    """fp8_ops (from fp8-report's JSON) on the joint 512-1024-256 MLP step, whose counts
    docs/training.md derives by hand: 5 FP8 GEMMs (2 fprop, 1 dgrad, 2
    wgrad), 6 quantizations, 3 requantizations."""
    ex = load_example("train_lm")
    report = fp8_mlir.compile(models.mlp_training_step(256, [512, 1024, 256]), "deepseek-v3", lower=False).report
    ops = ex.fp8_ops(report)
    assert {k: sum(v.values()) for k, v in ops.items()} == {"quantize": 6, "requantize": 3, "scaled_matmul": 5}
    # The first layer's Fprop: X [256, 512] in 1x128 tiles times W [1024, 512] in 128x128 blocks.
    assert ((256, 512), "e4m3", (1, 128), (1024, 512), "e4m3", (128, 128), "f32", 128) in ops["scaled_matmul"]
    # The requantizations: the Wgrads' X and dY, 1x128 tiles along the 256
    # tokens of their transposes.
    assert ((256, 1024), "e4m3", (1, 128), (1, 128), True, False) in ops["requantize"]
    gemm, quant, counts = ex.fp8_op_seconds(report, repeats=1)
    # Timings less the call overhead: non-negative (zero when an op is as fast as the overhead).
    assert gemm >= 0 and quant >= 0 and counts["scaled_matmul"] == 5


def test_underflow_fraction_of_an_outlier_channel():
    """One channel 1e5 times the others (amax about 3e5): per tensor, the
    scale amax / 448 puts every ordinary element (|x| below about 10 =
    2^-6 x scale, E4M3's smallest normal) into the subnormals or zero, all
    but the outlier column (255 of 256); with 1x128 tiles only the outlier's
    tile (128 of 256 channels), where the row's own outlier sets the scale,
    so a share of its elements that depends on that row's outlier."""
    ex = load_example("train_lm")
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 256)).astype(np.float32)
    assert ex.underflow_fraction(x, (None, None)) < 0.01
    x[:, 5] *= 1e5
    per_tensor, tiles = ex.underflow_fraction(x, (None, None)), ex.underflow_fraction(x, (1, 128))
    assert per_tensor > 0.95, per_tensor
    assert 0.3 < tiles < 0.55, tiles


def _seed_file(seed, runs, losses):
    """A --json file of one process of one seed, as train_lm.py writes it
    (only what merging reads)."""
    args = dict(steps=2000, layers=4, hidden=256, runs=runs, seed=seed, json="x.json")
    return dict(seed=seed, args=args, runs={n: dict(final_val_loss=v, val_loss=[(2000, v)])
                                             for n, v in zip(runs, losses)})


def test_seeds_table_pairs_each_run_with_its_seeds_bf16():
    ex = load_example("train_lm")
    files = [_seed_file(0, ["bf16"], [2.0]), _seed_file(0, ["deepseek-v3"], [2.002]),
             _seed_file(1, ["bf16", "deepseek-v3"], [1.9, 1.8981]),
             _seed_file(2, ["deepseek-v3", "bf16", "f32"], [2.104, 2.1, 2.0])]
    result = ex.merge_seeds(files)
    assert list(result["seeds"]) == ["0", "1", "2"]
    assert result["runs"]["deepseek-v3"]["final_val_loss"] == 2.002  # the smallest seed's runs
    stats = ex.seed_statistics(result["seeds"])
    assert list(stats) == ["bf16", "deepseek-v3"]  # f32 ran with one seed only
    # Hand-derived: d = +0.1 %, -0.1 %, +0.19047... %; mean 0.063492 %;
    # sample sd of d 0.14864 %, standard error 0.14864 / sqrt(3) = 0.085817 %.
    ds = stats["deepseek-v3"]
    np.testing.assert_allclose(ds["d"], [0.001, -0.001, 0.004 / 2.1], rtol=1e-9)
    np.testing.assert_allclose(ds["d_mean"], 0.00063492, rtol=1e-4)
    np.testing.assert_allclose(ds["d_se"], 0.00085817, rtol=1e-4)
    np.testing.assert_allclose(ds["mean"], (2.002 + 1.8981 + 2.104) / 3, rtol=1e-12)
    assert stats["bf16"]["d"] == [0.0, 0.0, 0.0]
    text = ex.seed_table(result)
    assert "| deepseek-v3 | 2.0020 | 1.8981 | 2.1040 |" in text and "+0.063 +- 0.086 % | - |" in text
    # Against f32 where every seed ran it: d = (2.2 - 2.0) / 2.0 and (1.9 - 2.0) / 2.0.
    two = ex.merge_seeds([_seed_file(0, ["bf16", "f32", "deepseek-v3"], [2.0, 2.0, 2.2]),
                          _seed_file(1, ["bf16", "f32", "deepseek-v3"], [2.1, 2.0, 1.9])])
    np.testing.assert_allclose(ex.seed_statistics(two["seeds"], reference="f32")["deepseek-v3"]["d"], [0.1, -0.05])
    assert "| deepseek-v3 | 2.2000 | 1.9000 | 2.0500 | 0.2121 | +10.00, -9.52 % | +0.238 +- 9.762 % | " \
           "+2.500 +- 7.500 % |" in ex.seed_table(two)
    # Seeds that ran different experiments are not merged.
    other = _seed_file(3, ["bf16"], [2.0])
    other["args"]["hidden"] = 512
    with pytest.raises(SystemExit, match="seed 3 ran a different experiment"):
        ex.merge_seeds(files + [other])
    assert ex.seed_table(ex.merge_seeds(files[:2])) == ""  # one seed: no table


def test_docs_modelled_table_is_what_the_script_prints():
    """docs/training.md's "What the 2x peak buys" table and its per-layer
    ratio are train_lm.py's modelled_table as the code prints it today (the
    doc once kept a table of an older cost model: 1.32x where the code
    printed 0.99x)."""
    import os

    ex = load_example("train_lm")
    m = ex.modelled_h200()
    printed = ex.modelled_table(m).splitlines()
    rows = [ln for ln in printed if ln.startswith("|")]
    doc_path = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "training.md")
    with open(doc_path, encoding="utf-8") as f:
        doc = f.read()
    section = doc[doc.index("### What the 2x peak buys"):doc.index("## The three GEMMs of a linear")]
    assert [ln for ln in section.splitlines() if ln.startswith("|")] == rows
    lin = m["linear_bf16_us"] / (m["linear_fp8_us"] + m["quantize_us"])
    assert f"**{lin:.2f}x**" in section
    words = " ".join(section.split())
    assert f"({m['model_fp8_us'] / 1e3:.1f} against {m['model_bf16_us'] / 1e3:.1f} ms" in words


def test_json_written_is_read_back_by_from_json(tmp_path, capsys):
    """What main writes with --json passes --from-json's checks (which
    refuse files lacking what the tables read) and prints the same run
    table."""
    ex = load_example("train_lm")
    path = str(tmp_path / "run.json")
    assert ex.main(["--corpus", argparse.__file__, "--steps", "2", "--runs", "bf16", "--layers", "1",
                    "--hidden", "128", "--heads", "2", "--intermediate", "256", "--seq", "32", "--batch", "4",
                    "--eval-batches", "1", "--profile-repeats", "1", "--no-h200", "--json", path]) == 0
    trained = capsys.readouterr().out
    assert ex.main(["--from-json", path]) == 0
    table = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("| bf16 |")]
    assert len(table) == 1 and table[0] in trained.splitlines()
