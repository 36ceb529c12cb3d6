"""Text for the language-model example: load, tokenize (bytes), split into
training and validation documents, and sample batches deterministically.

The tokens are the text's bytes (a vocabulary of 256, no merges): no
tokenizer to train or ship, and any file reads the same way. The corpus is
cut into documents (fortune-file records separated by a line holding only
`%`, as the `fortunes` Debian package's files are, or else paragraphs
separated by blank lines); every `val_every`-th document goes to the
validation split, so the split samples the whole corpus and no byte of a
validation document is ever trained on.
"""

from __future__ import annotations

import numbers
import os
import re

import numpy as np

VOCAB = 256  # byte-level tokens


def read_corpus(paths) -> bytes:
    """The bytes of `paths` (a path or a list of them), in the order given.
    A directory stands for its regular files sorted by name, leaving out
    symbolic links (the fortunes package links `NAME.u8` to `NAME`) and
    `.dat` files (strfile's binary indexes). Files are joined with a
    newline."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += [os.path.join(p, n) for n in sorted(os.listdir(p))
                      if not n.endswith(".dat") and not os.path.islink(os.path.join(p, n))
                      and os.path.isfile(os.path.join(p, n))]
        elif os.path.isfile(p):
            files.append(p)
        else:
            raise FileNotFoundError(f"read_corpus: no such file or directory: {p}")
    if not files:
        raise ValueError(f"read_corpus: no text files in {', '.join(map(str, paths))}")
    parts = []
    for f in files:
        with open(f, "rb") as fh:
            parts.append(fh.read())
    return b"\n".join(parts)


def split_documents(text: bytes) -> list:
    """Documents of `text`: fortune records when it has `%` separator lines,
    else paragraphs (blank-line separated). Empty documents are dropped;
    each document keeps a trailing newline."""
    if re.search(rb"(?m)^%$", text):
        docs = re.split(rb"(?m)^%[ \t]*(?:\n|\Z)", text)
    else:
        docs = re.split(rb"\n[ \t]*\n", text)
    return [d if d.endswith(b"\n") else d + b"\n" for d in (d.strip(b"\n") for d in docs) if d.strip()]


def _count(name: str, value, low: int) -> int:
    """An integer >= low (Python or NumPy; not a bool or a float)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) or value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    return int(value)


class Corpus:
    """Byte tokens of a text, split into training and validation streams.

    `train` and `val` are uint8 arrays: the documents of each split joined
    with `separator` (the fortune files' own `%` line), every `val_every`-th
    document (the 1st, ... counting from `val_offset`) in `val`."""

    def __init__(self, text: bytes, val_every: int = 10, val_offset: int = 0, separator: bytes = b"%\n"):
        if val_every < 2:
            raise ValueError(f"Corpus: val_every must be >= 2 (one document in val_every), got {val_every}")
        docs = split_documents(text)
        if len(docs) < val_every:
            raise ValueError(f"Corpus: the text has {len(docs)} documents, fewer than val_every={val_every}: "
                             "no validation split can be kept apart")
        is_val = [(i - val_offset) % val_every == 0 for i in range(len(docs))]
        self.documents = len(docs)
        self.train = np.frombuffer(separator.join(d for d, v in zip(docs, is_val) if not v), np.uint8)
        self.val = np.frombuffer(separator.join(d for d, v in zip(docs, is_val) if v), np.uint8)

    @classmethod
    def from_files(cls, paths, **kw) -> "Corpus":
        return cls(read_corpus(paths), **kw)

    def batch(self, step: int, batch: int, seq: int, seed: int) -> np.ndarray:
        """The training batch of `step`: `batch` windows of seq + 1 tokens
        (inputs and shifted targets) at offsets drawn uniformly from the
        training stream by a generator seeded with (seed, step). A batch
        depends only on (seed, step, batch, seq), not on which batches were
        drawn before, so every run of an experiment sees the same ones.
        `step`, `seed` >= 0; `batch`, `seq` >= 1."""
        step, seed = _count("Corpus.batch: step", step, 0), _count("Corpus.batch: seed", seed, 0)
        batch, seq = _count("Corpus.batch: batch", batch, 1), _count("Corpus.batch: seq", seq, 1)
        last = len(self.train) - (seq + 1)  # the last window's start: 0 when exactly one fits
        if last < 0:
            raise ValueError(f"Corpus.batch: the training split has {len(self.train)} tokens, "
                             f"fewer than seq + 1 = {seq + 1}")
        rng = np.random.default_rng([seed, step])
        starts = rng.integers(0, last + 1, size=batch)
        return np.stack([self.train[s:s + seq + 1] for s in starts]).astype(np.int32)

    def val_batches(self, batch: int, seq: int, max_batches: int | None = None) -> list:
        """The validation set: consecutive non-overlapping windows of
        seq + 1 tokens (a window's last token is the next one's first),
        grouped in batches of `batch`; the windows of an incomplete last
        batch are dropped. With `max_batches`, that many batches of windows
        spread evenly over the split. Fixed: no randomness. `batch`, `seq`
        and `max_batches` (None: all) >= 1."""
        batch, seq = _count("Corpus.val_batches: batch", batch, 1), _count("Corpus.val_batches: seq", seq, 1)
        if max_batches is not None:
            max_batches = _count("Corpus.val_batches: max_batches", max_batches, 1)
        windows = (len(self.val) - 1) // seq
        total = windows // batch
        if total < 1:
            raise ValueError(f"Corpus.val_batches: the validation split has {len(self.val)} tokens, "
                             f"too few for one batch of {batch} x {seq + 1}")
        chosen = range(total) if max_batches is None or max_batches >= total else \
            np.linspace(0, total - 1, max_batches).round().astype(int)
        out = []
        for b in chosen:
            out.append(np.stack([self.val[(b * batch + i) * seq:(b * batch + i) * seq + seq + 1]
                                 for i in range(batch)]).astype(np.int32))
        return out
