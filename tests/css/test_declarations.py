"""The declaration splitter agrees with tinycss2 on every block it accepts."""

from __future__ import annotations

import random

from newscrawl.css import stylesheet
from newscrawl.css.declarations import split_declarations

_STATS = stylesheet._STAT_NAMES


def _both(block: str) -> tuple[tuple, tuple]:
    slow = dict.fromkeys(_STATS, 0)
    fast = dict.fromkeys(_STATS, 0)
    reference = stylesheet._tinycss2_declarations(block, slow)
    result = stylesheet._declarations(block, fast)
    return (repr(reference), slow), (repr(result), fast)


def test_splits_at_top_level_semicolons_only() -> None:
    pieces = split_declarations(
        'margin:0; content: "a;b"; background: url(x;y.png); grid-area: calc(1px; 2px);'
        " /* c;d */ color: red !important ; --X-y: [a;b]")
    assert pieces is not None
    assert [name for name, _ in pieces] == [
        "margin", "content", "background", "grid-area", None, "--X-y"]  # None: comment first


def test_blocks_it_cannot_vouch_for_go_to_tinycss2() -> None:
    assert split_declarations("color: red; a { color: blue }") is None  # nested rule
    assert split_declarations(r"col\6fr: red") is None  # escape
    assert split_declarations("background: xurl(a;b); color: red") is None


def test_unusual_pieces_keep_their_name_unknown() -> None:
    pieces = split_declarations("/* x */ color: red; Font-Size :1em; @media x; -->: a")
    assert pieces is not None
    assert [name for name, _ in pieces] == [None, "font-size", None, None]


def test_same_declarations_and_stats_as_tinycss2() -> None:
    blocks = [
        "color: red; margin: 0; FONT-WEIGHT: bold !important; font: italic 2em serif",
        "color: var(--a, blue); --a: green; display: none;;; visibility: hidden",
        'font-family: "A;B", serif; background: url( "x;y" ); color: #fff',
        "color: red; float: left; position: absolute; unknown; : x; 12px: y",
        "font-size: calc(1em + (2px; 3px)); color: rgb(1 2 3",
        "color: red /* ; */; display: block /* unclosed",
        'content: "bad\nstring; color: red; font-style: italic',
    ]
    rng = random.Random(7)
    parts = ["color", ":", "red", ";", " ", "(", ")", "[", "]", '"', "'", "/*", "*/", "url(",
             "\n", "!important", "font", "font-size", "12px", "var(--x)", "--x", "@media",
             "#fff", "-->", "Color", "bold", "\r", "é", ",", "display", "none", "-", "1"]
    blocks += ["".join(rng.choice(parts) for _ in range(rng.randint(1, 12)))
               for _ in range(3000)]
    accepted = 0
    for block in blocks:
        reference, result = _both(block)
        assert result == reference, block
        accepted += split_declarations(block) is not None
    assert accepted > len(blocks) // 2  # the fast path is actually taken


def test_plain_custom_properties_are_kept_as_tinycss2_would_keep_them() -> None:
    # Values the fast path keeps as written must equal tinycss2's serialisation, or at least
    # tokenise to the same tokens (tinycss2 escapes a unit "e" after a number); the others
    # (strings, comments, !important, unbalanced parentheses, newlines) must not be taken.
    import tinycss2

    rng = random.Random(11)
    parts = ["1px", " ", "red", "#fff", "clamp(", ")", "(", ",", "var(--a)", "1e", "2e-a",
             "-", "+", ".5", "%", "*", "/", "calc(", "100%", "a--b", "--x", "\t", "0",
             "'s'", "/*c*/", "!important", "\n", "é", "url(x)", "#", "1.0E3"]
    taken = 0
    for _ in range(4000):
        value = "".join(rng.choice(parts) for _ in range(rng.randint(0, 8)))
        text = f" --wp--x{rng.randint(0, 9)} :{value}"
        fast = stylesheet._plain_custom(text)
        stats = dict.fromkeys(_STATS, 0)
        [reference] = stylesheet._tinycss2_declarations(text, stats)
        if fast is None:
            assert any(bad in value for bad in ("'", "/*", "!", "\n", "é", "url(")) \
                or value.count("(") != value.count(")") or ")" in value, value
            continue
        taken += 1
        assert fast[:3] == reference[:3], value
        same_tokens = tinycss2.serialize(tinycss2.parse_component_value_list(fast[3]))
        assert fast[3] == reference[3] or same_tokens.strip() == reference[3], value
    assert taken > 1000
