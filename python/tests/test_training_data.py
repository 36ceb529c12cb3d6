"""fp8_mlir.training.data on texts the tests write: documents (fortune
records or paragraphs), the validation split kept apart, byte tokens and
the deterministic batches."""

import os

import numpy as np
import pytest

from fp8_mlir.training import data


def fortunes(n):
    # Records as in the fortunes package: text lines, then a line "%". One
    # record has a line starting with "%" that is not a separator.
    recs = [f"record {i}\n  -- author {i}\n" for i in range(n)]
    recs[3] = "record 3\n%d is not a separator\n"
    return ("%\n".join(recs)).encode()


def test_documents_of_a_fortune_file_and_of_paragraphs():
    docs = data.split_documents(fortunes(12))
    assert len(docs) == 12
    assert docs[3] == b"record 3\n%d is not a separator\n"
    assert docs[11] == b"record 11\n  -- author 11\n"
    assert data.split_documents(b"one\ntwo\n\n\nthree\n  \nfour") == [b"one\ntwo\n", b"three\n", b"four\n"]


def test_validation_split_is_every_tenth_document_and_never_trained_on():
    c = data.Corpus(fortunes(30), val_every=10)
    assert c.documents == 30
    val = c.val.tobytes()
    assert val == b"record 0\n  -- author 0\n%\nrecord 10\n  -- author 10\n%\nrecord 20\n  -- author 20\n"
    train = c.train.tobytes()
    for i in range(30):
        assert (f"record {i}\n".encode() in train) == (i % 10 != 0), i
    # Byte tokens: the text's bytes as they are.
    assert c.train.dtype == np.uint8 and train.startswith(b"record 1\n  -- author 1\n%\nrecord 2\n")
    with pytest.raises(ValueError, match="fewer than val_every"):
        data.Corpus(fortunes(5), val_every=10)


def test_batches_are_windows_of_the_training_split_fixed_by_seed_and_step():
    c = data.Corpus(fortunes(200), val_every=10)
    b = c.batch(step=7, batch=4, seq=16, seed=3)
    assert b.shape == (4, 17) and b.dtype == np.int32
    train = c.train.tobytes()
    for row in b:
        assert bytes(row.astype(np.uint8)) in train
    assert np.array_equal(b, c.batch(step=7, batch=4, seq=16, seed=3))  # no hidden state
    c.batch(step=0, batch=4, seq=16, seed=3)
    assert np.array_equal(b, c.batch(step=7, batch=4, seq=16, seed=3))
    assert not np.array_equal(b, c.batch(step=8, batch=4, seq=16, seed=3))
    assert not np.array_equal(b, c.batch(step=7, batch=4, seq=16, seed=4))
    # Offsets cover the whole split: with 3 possible windows, all 3 occur.
    seq = len(c.train) - 3
    seen = set()
    for s in range(20):
        for row in c.batch(step=s, batch=8, seq=seq, seed=0):
            start = [k for k in range(3) if np.array_equal(row, c.train[k:k + seq + 1])]
            assert len(start) == 1
            seen.add(start[0])
    assert seen == {0, 1, 2}
    with pytest.raises(ValueError, match="fewer than seq"):
        c.batch(step=0, batch=1, seq=len(c.train), seed=0)


def test_validation_batches_are_consecutive_windows():
    c = data.Corpus(fortunes(200), val_every=10)
    seq, batch = 8, 3
    vb = c.val_batches(batch, seq)
    windows = (len(c.val) - 1) // seq
    assert len(vb) == windows // batch
    flat = np.concatenate(vb)
    for i, row in enumerate(flat):
        assert np.array_equal(row, c.val[i * seq:i * seq + seq + 1])
    few = c.val_batches(batch, seq, max_batches=2)
    assert len(few) == 2 and np.array_equal(few[0], vb[0]) and np.array_equal(few[1], vb[-1])
    with pytest.raises(ValueError, match="too few"):
        c.val_batches(batch, len(c.val))


def test_read_corpus_skips_indexes_and_links(tmp_path):
    (tmp_path / "b").write_bytes(b"bee\n")
    (tmp_path / "a").write_bytes(b"ay\n")
    (tmp_path / "a.dat").write_bytes(b"\x00\x01binary")
    os.symlink(tmp_path / "a", tmp_path / "a.u8")
    assert data.read_corpus(str(tmp_path)) == b"ay\n\nbee\n"
    assert data.read_corpus([str(tmp_path / "b"), str(tmp_path / "a")]) == b"bee\n\nay\n"
    with pytest.raises(FileNotFoundError, match="missing"):
        data.read_corpus(str(tmp_path / "missing"))


def test_batch_when_exactly_one_window_fits():
    """A training split of exactly seq + 1 tokens holds one window (start
    0): every row of the batch is the whole split."""
    c = data.Corpus(fortunes(30), val_every=10)
    seq = len(c.train) - 1
    b = c.batch(step=3, batch=2, seq=seq, seed=0)
    assert b.shape == (2, seq + 1)
    for row in b:
        assert np.array_equal(row, c.train)
    with pytest.raises(ValueError, match="fewer than seq"):
        c.batch(step=3, batch=2, seq=seq + 1, seed=0)


@pytest.mark.parametrize("kwargs, what", [
    (dict(seq=-5), "seq"), (dict(seq=0), "seq"), (dict(batch=0), "batch"), (dict(batch=-1), "batch"),
    (dict(step=-1), "step"), (dict(seed=-1), "seed"), (dict(seq=8.0), "seq"), (dict(batch=True), "batch"),
])
def test_batch_rejects_bad_arguments(kwargs, what):
    """A negative seq once read windows past the end of the split (of
    negative length), a zero batch returned an empty array."""
    c = data.Corpus(fortunes(30), val_every=10)
    args = dict(step=0, batch=2, seq=8, seed=0)
    args.update(kwargs)
    with pytest.raises(ValueError, match=f"Corpus.batch: {what} must be an integer >="):
        c.batch(**args)


@pytest.mark.parametrize("args, what", [
    ((0, 16), "batch"), ((2, 0), "seq"), ((2, -3), "seq"), ((2, 8, 0), "max_batches"), ((2, 8, -1), "max_batches"),
])
def test_val_batches_rejects_bad_arguments(args, what):
    """val_batches(0, 16) divided by zero; max_batches=0 returned no batch,
    whose mean loss is NaN."""
    c = data.Corpus(fortunes(200), val_every=10)
    with pytest.raises(ValueError, match=f"Corpus.val_batches: {what} must be an integer >= 1"):
        c.val_batches(*args)
