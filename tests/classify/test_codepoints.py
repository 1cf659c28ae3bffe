"""The lazily filled code-point tables answer as their classifier does, whenever a code point is met."""

from __future__ import annotations

import re
import unicodedata

import numpy as np

from newscrawl.classify.codepoints import WORD_CLASSES, CodePointClasses, code_points, runs


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


def test_runs_are_the_starts_and_ends_of_each_run_of_ones():
    member = np.array([1, 1, 0, 0, 1, 0, 1, 1, 1], dtype=np.uint8)
    starts, ends = runs(member)
    assert starts.tolist() == [0, 4, 6] and ends.tolist() == [2, 5, 9]
    assert [len(r) for r in runs(np.zeros(3, dtype=np.uint8))] == [0, 0]
    text = "Hi, wörld_1 ok"
    starts, ends = runs((WORD_CLASSES(code_points(text)) == 1).view(np.uint8))
    assert [text[a:b] for a, b in zip(starts.tolist(), ends.tolist())] == re.findall(r"\w+", text)
