"""The lazily filled code-point tables answer as their classifier does, whenever a code point is met."""

from __future__ import annotations

import re
import unicodedata

import numpy as np

from newscrawl.classify.codepoints import WORD_CLASSES, CodePointClasses, code_points


def test_classes_follow_the_classifier_and_are_kept():
    calls: list[str] = []

    def vowel(char: str) -> int:
        calls.append(char)
        return int(char in "aeiou")

    classes = CodePointClasses(vowel)
    assert classes(code_points("banana")).tolist() == [0, 1, 0, 1, 0, 1]
    assert sorted(calls) == ["a", "b", "n"]  # each code point classified once
    assert classes(code_points("nab\U0001F600")).tolist() == [0, 1, 0, 0]
    assert sorted(calls) == ["a", "b", "n", "\U0001F600"]


def test_word_classes_are_re_word_characters_and_combining_marks():
    rng = np.random.default_rng(7)
    sample = np.concatenate((np.arange(0x3000), rng.integers(0, 0x110000, 20_000))).astype(np.uint32)
    text = "".join(map(chr, sample.tolist()))
    data = code_points(text)
    assert data.tolist() == sample.tolist()  # lone surrogates kept
    got = WORD_CLASSES(data).tolist()
    want = [1 if re.fullmatch(r"\w", chr(cp)) else 2 if unicodedata.combining(chr(cp)) else 0
            for cp in sample.tolist()]
    assert got == want
