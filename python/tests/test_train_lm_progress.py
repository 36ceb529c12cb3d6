"""examples/train/train_lm.py's progress between evaluations: steps done,
tokens/s and the time left, on stderr. The expected lines are computed by
hand from a fake clock (tokens trained / seconds since the start; steps
left x seconds per step so far)."""

import argparse
import io

import numpy as np

from conftest import load_example


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_plain_lines_every_interval_and_after_the_last_step():
    ex = load_example("train_lm")
    clock, out = Clock(), io.StringIO()
    progress = ex.Progress(100, 1000, stream=out, every_s=30.0, clock=clock)
    for now, done, loss in [
        (10, 1, 5.0),       # 10 s since the start: nothing yet
        (30, 3, 4.5),       # 3000 tokens / 30 s = 100 tok/s; 97 steps x 10 s = 970 s
        (40, 4, 4.4),       # 10 s since the last line: nothing
        (3700, 50, 3.0),    # 50000 / 3700 = 13.5 tok/s; 50 x 74 s = 3700 s = 1 h 01 min 40 s
        (3701, 100, 2.0),   # the last step, always: 100000 / 3701 = 27.02 tok/s
    ]:
        clock.now = now
        progress.update(done, loss)
    progress.clear()  # not a terminal: nothing to erase
    assert out.getvalue() == ("  step 3/100  train 4.5000  100 tok/s  16m10s left\n"
                              "  step 50/100  train 3.0000  14 tok/s  1h01m left\n"
                              "  step 100/100  train 2.0000  27 tok/s  0s left\n")


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_one_line_rewritten_on_a_terminal():
    ex = load_example("train_lm")
    clock, out = Clock(), Terminal()
    progress = ex.Progress(10, 64, stream=out, clock=clock)
    clock.now = 0.5
    progress.update(1, 5.0)  # under a second: nothing
    clock.now = 2.0
    progress.update(2, 4.0)  # 128 tokens / 2 s = 64 tok/s; 8 steps x 1 s
    progress.clear()         # before an evaluation's line
    assert out.getvalue() == "\r  step 2/10  train 4.0000  64 tok/s  8s left\x1b[K\r\x1b[K"


def test_a_run_reports_its_progress(capsys):
    # train_run shows the progress: a stand-in model (a constant loss, zero
    # gradients) and corpus, so that only the loop runs.
    ex = load_example("train_lm")
    init = {"w": np.ones((2, 2), np.float32)}

    class Model:
        def loss_and_grads(self, params, tokens):
            return 2.0, {"w": np.zeros((2, 2), np.float32)}

    class Corpus:
        def batch(self, step, batch, seq, seed):
            return np.zeros((batch, seq + 1), np.int64)

    args = argparse.Namespace(steps=3, batch=2, seq=4, lr=1e-3, min_lr=1e-4, warmup=1, weight_decay=0.0,
                              clip=1.0, moments="f32", eval_every=1000, seed=0)
    result = ex.train_run(Model(), init, Corpus(), [np.zeros((2, 5), np.int64)], args, log=lambda *a: None)
    assert len(result["losses"]) == 3
    err = capsys.readouterr().err
    assert err.startswith("  step 3/3  train 2.0000  ") and err.endswith(" tok/s  0s left\n"), err
