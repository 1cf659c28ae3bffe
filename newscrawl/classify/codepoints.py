"""Texts read as arrays of code points, each code point's class from a table filled lazily.

The page features count words (CoreEx's word counts, the site's brand words, the English words of
the language gate) on every page; finding them by regex and a string per word cost more than the
rest of those features. As arrays, a word count is a few numpy passes over the text's code points
and their classes. Classifying all 1.1 M code points up front cost ~0.12 s a process, while a page
meets a few hundred, so a table classifies each code point the first time it is met."""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Callable

import numpy as np

_UNSEEN = 255  # table entry of a code point not classified yet


class CodePointClasses:
    """A class (0-254) for every code point, ``classify(char)``, computed at its first meeting."""

    def __init__(self, classify: Callable[[str], int]) -> None:
        self._classify = classify
        self._table = np.full(sys.maxunicode + 1, _UNSEEN, dtype=np.uint8)

    def __call__(self, data: np.ndarray) -> np.ndarray:
        """The class of each code point of ``data`` (a :func:`code_points` array), as uint8."""
        classes = self._table[data]
        unseen = data[classes == _UNSEEN]
        if unseen.size:
            for cp in np.unique(unseen).tolist():
                self._table[cp] = self._classify(chr(cp))
            classes = self._table[data]
        return classes


def code_points(text: str) -> np.ndarray:
    """The code points of ``text`` (lone surrogates kept) as a uint32 array."""
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def runs(member: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Starts and (exclusive) ends of the runs of 1 in ``member``, a 0/1 uint8 array: a text's words
    when ``member`` says which code points are word characters."""
    edges = np.flatnonzero(np.diff(member, prepend=0, append=0))  # starts and ends, alternating
    return edges[0::2], edges[1::2]


def word_class(char: str) -> int:
    """1 for a \\w character as ``re`` reads it (alphanumeric or "_"), 2 for a combining mark, 0 else."""
    return 1 if char.isalnum() or char == "_" else 2 if unicodedata.combining(char) else 0


WORD_CLASSES = CodePointClasses(word_class)  # shared by CoreEx's word counts and the brand-word count
UNFOLDED = 3  # a FOLDED_CLASSES class: the code point's NFKD splits or joins words differently


def folded_class(char: str) -> int:
    """:func:`word_class` of ``char`` when its NFKD (what CoreEx counts words in) takes the same part in
    words: a non-word character decomposing into non-word ones, a word character into word characters and
    marks, a mark into marks; UNFOLDED otherwise ("½" is one word, its NFKD "1⁄2" two). NFKD decomposes
    character by character and reorders only marks among marks, so a text of such characters has the
    words of its NFKD."""
    own = word_class(char)
    parts = {word_class(c) for c in unicodedata.normalize("NFKD", char)}
    same = parts == {0} if own == 0 else (1 in parts and 0 not in parts) if own == 1 else parts == {2}
    return own if same else UNFOLDED


FOLDED_CLASSES = CodePointClasses(folded_class)  # CoreEx: texts whose words NFKD leaves alone skip it
