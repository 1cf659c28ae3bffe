"""Hashed n-gram counts as scikit-learn's ``HashingVectorizer(alternate_sign=False)`` computes them, in numpy.

The text models were trained on scikit-learn's hashing (murmurhash3_32 of each n-gram's UTF-8 bytes,
seed 0, bucket ``abs(hash) % n_features``), so prediction must hash exactly as it does. Importing
scikit-learn for it cost every extraction worker 0.75 s of its start (scikit-learn imports SciPy),
while the worker is what a crawl waits for (docs/decisions/workers.md). This module has the same
analyzers and hash, to the bit (tests compare them with scikit-learn's), and needs only numpy; the
murmur rounds run on all of a text's n-grams at once, one array step per 4-byte block.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

# scikit-learn's default token_pattern, (?u)\b\w\w+\b, without its \b: the same tokens (a maximal
# run of word characters is bounded by non-word ones), a quarter faster
_TOKEN = re.compile(r"\w\w+")
_WHITE_SPACES = re.compile(r"\s\s+")
_C1, _C2 = np.uint32(0xCC9E2D51), np.uint32(0x1B873593)
_TAIL_MASK = np.array([0, 0xFF, 0xFFFF, 0xFFFFFF], dtype=np.uint32)


def ngrams(text: str, analyzer: str, ngram_range: tuple[int, int], lowercase: bool) -> list[str]:
    """The text's n-grams, as the named scikit-learn analyzer lists them (their order is irrelevant
    to the counts)."""
    if lowercase:
        text = text.lower()
    low, high = ngram_range
    if analyzer == "word":
        return _word_ngrams(_TOKEN.findall(text), low, high)
    text = _WHITE_SPACES.sub(" ", text)
    if analyzer == "char":
        return [text[i : i + n] for n in range(low, min(high, len(text)) + 1) for i in range(len(text) - n + 1)]
    if analyzer == "char_wb":
        return [gram for word in text.split() for gram in _padded_word_ngrams(f" {word} ", low, high)]
    raise ValueError(f"unknown analyzer {analyzer!r}")


def _word_ngrams(tokens: list[str], low: int, high: int) -> list[str]:
    grams = list(tokens) if low == 1 else []
    for n in range(max(low, 2), min(high, len(tokens)) + 1):
        grams.extend(map(" ".join, zip(*(tokens[k:] for k in range(n)))))
    return grams


def _padded_word_ngrams(word: str, low: int, high: int) -> list[str]:
    """A space-padded word's n-grams; a word shorter than ``n`` once, for the first such ``n`` only."""
    out = []
    for n in range(low, high + 1):
        if len(word) <= n:
            out.append(word[:n])
            break
        out.extend(word[i : i + n] for i in range(len(word) - n + 1))
    return out


def _rotl(x: np.ndarray, r: int) -> np.ndarray:
    return (x << np.uint32(r)) | (x >> np.uint32(32 - r))


def murmurhash3_32(strings: list[str]) -> np.ndarray:
    """Signed 32-bit MurmurHash3 (x86, seed 0) of each string's UTF-8 bytes, as int64."""
    return _murmur(*_utf8(strings))


def _word_ngram_hashes(text: str, ngram_range: tuple[int, int], lowercase: bool) -> np.ndarray:
    """:func:`murmurhash3_32` of the word analyzer's n-grams, without building them: the tokens
    joined by spaces are every n-gram too (n-gram i runs from token i's start to token i+n-1's end)."""
    tokens = _TOKEN.findall(text.lower() if lowercase else text)
    raw = " ".join(tokens).encode("utf-8")  # a token holds no space, nor does UTF-8 make one
    spaces = np.flatnonzero(np.frombuffer(raw, dtype=np.uint8) == 32)
    starts = np.concatenate(([0], spaces + 1)) if tokens else np.zeros(0, dtype=np.int64)
    ends = np.concatenate((spaces, [len(raw)])) if tokens else np.zeros(0, dtype=np.int64)
    low, high = ngram_range
    orders = range(low, min(high, len(tokens)) + 1)
    first = np.concatenate([starts[: len(tokens) - n + 1] for n in orders] or [np.zeros(0, dtype=np.int64)])
    last = np.concatenate([ends[n - 1 :] for n in orders] or [np.zeros(0, dtype=np.int64)])
    return _murmur(raw, first.astype(np.int64), (last - first).astype(np.int64))


def _murmur(raw: bytes, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """:func:`murmurhash3_32` of the byte ranges ``raw[start : start + length]``."""
    raw += b"\0" * 4
    # every byte offset's next four bytes as a little-endian word (the buffer read with stride 1)
    words = np.ndarray((len(raw) - 3,), dtype="<u4", buffer=raw, strides=(1,))
    blocks = lengths // 4
    # longest first, so the strings still in their blocks at step j are a prefix (live[j] of them),
    # and every block's k is mixed in one pass, laid out step after step
    order = np.argsort(-blocks, kind="stable")
    first, blocks, lengths = starts[order], blocks[order], lengths[order]
    live = np.searchsorted(-blocks, -np.arange(int(blocks.max(initial=0))), side="left")  # with > j blocks
    at_step = [first[:n] + 4 * j for j, n in enumerate(live)] or [np.zeros(0, dtype=np.int64)]
    k = _rotl(words[np.concatenate(at_step)] * _C1, 15) * _C2
    h = np.zeros(len(starts), dtype=np.uint32)
    at = 0
    for n in live.tolist():
        step = h[:n]
        step ^= k[at : at + n]
        step[:] = _rotl(step, 13)
        step *= np.uint32(5)
        step += np.uint32(0xE6546B64)
        at += n
    tail = lengths & 3
    k = _rotl((words[first + 4 * blocks] & _TAIL_MASK[tail]) * _C1, 15) * _C2
    h = np.where(tail > 0, h ^ k, h).astype(np.uint32) ^ lengths.astype(np.uint32)
    h ^= h >> np.uint32(16)
    h *= np.uint32(0x85EBCA6B)
    h ^= h >> np.uint32(13)
    h *= np.uint32(0xC2B2AE35)
    h ^= h >> np.uint32(16)
    out = np.empty(len(starts), dtype=np.int64)
    out[order] = h.view(np.int32)
    return out


def _utf8(strings: list[str]) -> tuple[bytes, np.ndarray, np.ndarray]:
    """The strings' UTF-8 bytes in one buffer, and each one's start and length in it. Joined by NUL
    and encoded at once when no string holds a NUL (n-grams of words never do), else one by one."""
    joined = "\0".join(strings)
    if joined.count("\0") == len(strings) - 1 and strings:
        raw = joined.encode("utf-8")
        ends = np.flatnonzero(np.frombuffer(raw, dtype=np.uint8) == 0)
        starts = np.concatenate(([0], ends + 1))
        lengths = np.concatenate((ends, [len(raw)])) - starts
        return raw, starts, lengths  # the NULs between them are never read: a tail is masked
    encoded = [s.encode("utf-8") for s in strings]
    lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
    starts = np.zeros(len(encoded), dtype=np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    return b"".join(encoded), starts, lengths


def hashed_row(text: str, settings: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """The text's row as the text models read it: sorted bucket indices and log(1 + count) values,
    L2-normalised. The sums run in order (``cumsum``) as scikit-learn's and SciPy's loops do, so
    the values and a model's dot product with them are theirs to the last bit."""
    analyzer, ngram_range, lowercase = settings["analyzer"], tuple(settings["ngram_range"]), settings["lowercase"]
    if analyzer == "word":
        hashes = _word_ngram_hashes(text, ngram_range, lowercase)
    else:
        hashes = murmurhash3_32(ngrams(text, analyzer, ngram_range, lowercase))
    buckets = np.abs(hashes) % settings["n_features"]
    indices, counts = np.unique(buckets, return_counts=True)
    values = np.log1p(counts.astype(np.float64))
    if len(values):
        values /= np.sqrt(np.cumsum(values * values)[-1])
    return indices, values
