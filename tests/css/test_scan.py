"""scan.split_rules: the one-match reading of flat rules gives what the general loop gives.

(Both against tinycss2: tests/css/test_differential.py.)
"""

from __future__ import annotations

import random
import re

import pytest

from newscrawl.css import scan

PIECES = ["a", " ", "\n", ".b", "#c", "{", "}", ";", ":", ",", "/", "*", "/*", "*/", '"', "'",
          "\\", "@media x", "@import 'u'", "@font-face", "color:red", "font-size:2em", "\u00e9",
          "[x=y]", "(", ")", "\t", "--v:1", "@", "[", "]", "url(", "a(b)",
          "rgba(0,0,0,.5)", "[x=\"]\"]"]
FLAT = ["a", " ", "\n", ".b", "#c", ":", ",", "/", "color:red", "font-size:2em", "[x=y]", "a(b)", "url(x)",
        ":not(.a)", "rgba(0,0,0,.5)", "x(y(z))"]


def _split_all(text: str) -> list[list[scan.RawRule]]:
    """split_rules on the text and, depth first, on the blocks of its at-rules."""
    out = []
    todo = [text]
    while todo:
        rules = scan.split_rules(todo.pop())
        # trailing whitespace after a string: the loop keeps it (it may end a bad string)
        out.append([(keyword, prelude.rstrip(" \t\n\r\f") if keyword is None else prelude, block)
                    for keyword, prelude, block in rules])
        todo += [block for keyword, _prelude, block in rules if block and keyword]
    return out


def test_flat_rules_are_read_in_one_match() -> None:
    rules = scan.split_rules(" h1 , .a { color: red } \n.b>p{font:x/2 y}@media print{.c{x:y}}")
    assert rules == [(None, "h1 , .a", " color: red "), (None, ".b>p", "font:x/2 y"),
                     ("media", " print", ".c{x:y}")]


@pytest.mark.parametrize("seed", range(4))
def test_split_rules_equals_the_general_loop_on_random_text(seed: int, monkeypatch) -> None:
    rng = random.Random(seed)
    texts = ["".join(rng.choice(PIECES) for _ in range(rng.randint(0, 60))) for _ in range(1500)]
    texts += ["".join(_rule(rng) for _ in range(rng.randint(0, 8))) for _ in range(1500)]
    fast = [_split_all(text) for text in texts]
    monkeypatch.setattr(scan, "_FLAT_RULE", re.compile(r"(?!)"))  # the loop alone
    monkeypatch.setattr(scan, "_FLAT_RUN", re.compile(r""))
    general = [_split_all(text) for text in texts]
    assert fast == general
    assert sum(len(rules) for out in general for rules in out) > 4000  # rules were read


def _rule(rng: random.Random) -> str:
    """Prelude, block and closing brace from random pieces (flat unless a piece intervenes)."""
    def piece() -> str:
        return "".join(rng.choice(PIECES) if rng.random() < 0.1 else rng.choice(FLAT)
                       for _ in range(rng.randint(0, 6)))
    return piece() + "{" + piece() + "}"


@pytest.mark.parametrize("seed", range(2))
def test_relevant_equals_the_case_insensitive_search(seed: int) -> None:
    """relevant() lower-cases ASCII text and searches words; other text keeps the regex."""
    rng = random.Random(seed)
    words = ["font", "FoNt", "colo", "COLOR", "display", "visib", "VISIBILITY", "floa", "float",
             "posit", "Position", "-", "--", "-x-", "viſib", "\u212a", "İ", "é", " ", ";", ":",
             "margin", "o", "r", "s", "i"]
    texts = ["".join(rng.choice(words) for _ in range(rng.randint(0, 8))) for _ in range(20000)]
    assert [scan.relevant(text) for text in texts] == \
        [scan._RELEVANT.search(text) is not None for text in texts]
    assert scan.relevant("viſibility: hidden")  # the regex's case folding, kept off ASCII
    assert sum(map(scan.relevant, texts)) > 5000 and not all(map(scan.relevant, texts))


@pytest.mark.timeout(60)
def test_linear_on_hostile_shapes() -> None:
    """Shapes that made a one-match attempt rescan the rest of a block after every group
    (quadratic: 16,000 groups took 12 s). 50,000 of each now take well under a second."""
    n = 50_000
    assert len(scan.split_rules("p{a:" + "(b)" * n + '"\\"}')) == 1
    assert len(scan.split_rules("@media x{" + "a{b:(c}" * n + "}")) == 1
    # "\"}a,b{c:d(e)" is one string: two rules a match
    assert len(scan.split_rules("".join('a,b{c:d(e)"\\"}' for _ in range(n)))) == n // 2
    assert len(scan.split_rules("p{" + "\\61(" * n + "}")) == 1
    assert len(scan.split_rules("/**/@x;" * n)) == n
    assert len(scan.split_rules("@media (a) and (b" * n)) == 1
    assert scan.split_rules("p{" + "url(" * n) == [(None, "p", "url(" * n)]
