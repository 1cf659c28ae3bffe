"""ROUGE-LSum between a gold body and an extracted one: the Fundus benchmark's body metric.

The definition is the summary-level ROUGE-L of Lin (2004) as the ``rouge-score`` package computes
its ``rougeLsum`` (which the Fundus benchmark uses without stemming): both texts are split into
sentences; for each gold sentence the union of its longest common subsequences with every extracted
sentence is taken, each token counted at most as often as it occurs in either text; recall is those
hits over the gold's tokens, precision over the extraction's. Tokens as ``rouge-score`` makes them:
lowercased, every run of characters other than ``a-z0-9`` a separator (so the score reads only
ASCII letters and digits: it is meant for English). Sentences: the text's lines, each split after
``.``, ``!`` or ``?`` before a capital or a digit except after an initial or a common abbreviation,
a plain stand-in for the Punkt splitter the benchmark uses.

Written here, not taken from ``rouge-score``, to keep the evaluation free of its nltk dependency;
the LCS table of one gold sentence against all extracted sentences is one numpy pass per gold token.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import NamedTuple

import numpy as np

_NON_ALNUM = re.compile(r"[^a-z0-9]+")
# a piece that ends in an initial ("J.", "U.S.") or a short title or abbreviation does not end a sentence
_ABBREVIATION = re.compile(
    r"(?:^|[\s(])(?:[A-Z]\.)+$|\b(?:Mr|Mrs|Ms|Dr|St|Jr|Sr|Prof|Gen|Gov|Sen|Rep|Lt|Col|Capt|Sgt|Rev|No|vs|etc|"
    r"Inc|Corp|Co|Ltd|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.$"
)
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'\u201d\u2019)\]]*\s+(?=[\"'\u201c\u2018(\[]?[A-Z0-9])")


# a longer gold "sentence" (a table or a list flattened into one line) is scored in pieces of this
# many tokens: its LCS table against the extraction would otherwise grow without bound
MAX_SENTENCE_TOKENS = 1000


class Rouge(NamedTuple):
    precision: float
    recall: float
    f1: float


def tokens(text: str) -> list[str]:
    """``text`` as rouge-score's default tokenizer sees it (no stemming)."""
    return [t for t in _NON_ALNUM.split(text.lower()) if t]


def sentences(text: str) -> list[list[str]]:
    """The token lists of ``text``'s sentences (lines, split at sentence ends, not after an initial
    or a title like "Mr." as Punkt does not); empty ones dropped."""
    out: list[list[str]] = []
    for line in text.splitlines():
        pieces = _SENTENCE_END.split(line)
        for k, piece in enumerate(pieces):
            if k + 1 < len(pieces) and _ABBREVIATION.search(piece):
                pieces[k + 1] = piece + " " + pieces[k + 1]
                continue
            words = tokens(piece)
            if words:
                out.append(words)
    return out


def rouge_lsum(truth: str | None, prediction: str | None) -> Rouge | None:
    """ROUGE-LSum of ``prediction`` against ``truth``; None when the truth has no tokens (nothing
    to score), all zero when the prediction has none. Gold sentences over MAX_SENTENCE_TOKENS are
    scored in pieces (no development page's article has one: the longest holds 250 tokens)."""
    step = MAX_SENTENCE_TOKENS
    gold = [s[i : i + step] for s in sentences(truth or "") for i in range(0, len(s), step)]
    if not gold:
        return None
    extracted = sentences(prediction or "")
    if not extracted:
        return Rouge(0.0, 0.0, 0.0)
    vocabulary: dict[str, int] = {}
    gold_ids = [np.array([vocabulary.setdefault(t, len(vocabulary)) for t in s], dtype=np.int64) for s in gold]
    # extracted tokens absent from the gold can match nothing: one shared "other" id (-1)
    flat = np.array([vocabulary.get(t, -1) for s in extracted for t in s], dtype=np.int64)
    sentence_of = np.repeat(np.arange(len(extracted)), [len(s) for s in extracted])
    gold_left = Counter(t for s in gold for t in s)
    extracted_left = Counter(t for s in extracted for t in s)
    hits = 0
    for sentence, ids in zip(gold, gold_ids, strict=True):
        # an extracted token that is not in this gold sentence never matches in its table: its column
        # repeats the one before and the path back passes it going left, so it is left out
        keep = np.isin(flat, ids)
        if not keep.any():
            continue
        for i in _union_lcs(ids, flat[keep], np.bincount(sentence_of[keep])):
            token = sentence[i]
            if gold_left[token] > 0 and extracted_left[token] > 0:
                hits += 1
                gold_left[token] -= 1
                extracted_left[token] -= 1
    recall = hits / sum(len(s) for s in gold)
    precision = hits / len(flat)
    f1 = 2 * precision * recall / (precision + recall) if hits else 0.0
    return Rouge(precision, recall, f1)


def _union_lcs(ref: np.ndarray, flat: np.ndarray, lengths: np.ndarray) -> list[int]:
    """Sorted positions in ``ref`` on the longest common subsequence with any extracted sentence
    (the sentences laid end to end in ``flat``, ``lengths[j]`` tokens each; some may be empty).

    The table row of each ``ref`` prefix is computed for all sentences at once: a running maximum
    that restarts at each sentence (each sentence's values are lifted above the previous one's
    before the maximum and lowered after). The path back through one sentence's block follows
    rouge-score's order (a match, else up when up is larger, else left)."""
    n = len(flat)
    starts = np.cumsum(lengths) - lengths
    first = np.zeros(n, dtype=bool)
    first[starts[lengths > 0]] = True
    lift = np.repeat(np.arange(len(lengths), dtype=np.int32) * (len(ref) + 1), lengths)
    table = np.zeros((len(ref) + 1, n), dtype=np.int32)
    for row, token in enumerate(ref, 1):
        previous = table[row - 1]
        diagonal = np.empty(n, dtype=np.int32)
        diagonal[0] = 0
        diagonal[1:] = previous[:-1]
        diagonal[first] = 0
        step = np.where(flat == token, diagonal + 1, previous)
        table[row] = np.maximum.accumulate(step + lift) - lift
    # the paths back through every sentence's block, walked side by side
    m = len(ref)
    ends = starts + lengths  # one past each block's last column
    active = (lengths > 0) & (table[m, np.maximum(ends - 1, 0)] > 0)
    i = np.full(int(active.sum()), m)
    j = lengths[active].copy()  # columns left in each block
    start = starts[active]
    found = np.zeros(m, dtype=bool)
    while len(i):
        col = start + j - 1
        match = ref[i - 1] == flat[col]
        found[i[match] - 1] = True
        left = np.where(j > 1, table[i, np.maximum(col - 1, 0)], 0)
        up = ~match & (table[i - 1, col] > left)
        i = i - (match | up)
        j = j - ~up
        alive = (i > 0) & (j > 0)
        i, j, start = i[alive], j[alive], start[alive]
    return np.flatnonzero(found).tolist()
