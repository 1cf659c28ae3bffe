"""_DATE_LIKE is written with its first digit factored out so the regex engine skips to digits;
it must find exactly the spans of the plain alternation it replaced."""

import random
import re

from newscrawl.classify.features import _DATE_LIKE

# the readable form: a year 19xx/20xx not inside a longer number, or a numeric date
_PLAIN = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)|\d[./-]\d\d?[./-]\d\d")


def _spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [m.span() for m in pattern.finditer(text)]


def test_same_spans_as_the_plain_alternation_on_random_text() -> None:
    rnd = random.Random(13)
    alphabet = "0123456789" * 2 + "1920" * 3 + "./- x\u0663\u0669\uff11"
    found = 0
    for _ in range(20000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 16)))
        want = _spans(_PLAIN, text)
        assert _spans(_DATE_LIKE, text) == want, text
        assert (_DATE_LIKE.search(text) is None) == (not want), text
        found += bool(want)
    assert found > 300  # the alphabet makes dates often enough to compare matches, not only misses


def test_known_cases() -> None:
    assert _spans(_DATE_LIKE, "on 2019-04-15, 119 and 12019") == [(3, 7)]
    assert _spans(_DATE_LIKE, "a 4-15-19") == [(2, 9)]
    assert _spans(_DATE_LIKE, "1.2.34 1999") == [(0, 6), (7, 11)]
    assert _DATE_LIKE.search("31920 20195") is None
