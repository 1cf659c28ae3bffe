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


def test_a_piece_parses_like_its_text_without_leading_whitespace() -> None:
    # _declarations caches a piece by its text without leading whitespace (pieces indented
    # differently share an entry): tinycss2 must give the same declarations and counts
    rng = random.Random(11)
    parts = ["color", ":", "red", ";", " ", "(", ")", '"', "'", "/*", "*/", "url(", "\n",
             "!important", "font", "font-size", "12px", "var(--x)", "--x", "#fff", "\t",
             "\r\n", "\f", "é", ",", "display", "none", "\\", "bold"]
    spaces = [" ", "\n", "\t", "\r\n", "\f", "\r", "  \n\t"]
    for _ in range(4000):
        text = "".join(rng.choice(parts) for _ in range(rng.randint(1, 10)))
        padded = "".join(rng.choice(spaces) for _ in range(rng.randint(1, 3))) + text
        stripped = padded.lstrip(" \t\n\r\f")
        plain, short = dict.fromkeys(_STATS, 0), dict.fromkeys(_STATS, 0)
        assert repr(stylesheet._tinycss2_declarations(padded, plain)) == repr(
            stylesheet._tinycss2_declarations(stripped, short)), padded
        assert plain == short


def test_hex_colours_read_without_tinycss2_parse_as_tinycss2_parses_them() -> None:
    # _parsed_piece reads "color: #hex [!important]" itself: same declarations and counts as
    # tinycss2 and values.parse_color, and every other text still goes to tinycss2
    rng = random.Random(5)
    names = ["color", "COLOR", "Color", "colour", "background-color", "co\u212alor", "c"]
    digits = "0123456789abcdefABCDEFgx\u00e9"
    tails = ["", " ", "!important", " !important", "! important", "!IMPORTANT ", "!importan",
             "!important x", " !\u0130mportant", "!\u0131mportant", ";", "\n", " /* c */",
             "!important!important", "\\9", ")"]
    spaces = ["", " ", "\t", "\n", "\r\n", "\f", "  "]
    fast = 0
    for i in range(6000):
        valid = i % 2 == 0  # half of them in the shape read here, or nearly
        text = (rng.choice(names[:3] if valid else names) + rng.choice(spaces)
                + (":" if valid else rng.choice([":", ";", ""])) + rng.choice(spaces)
                + ("#" if valid else rng.choice(["#", "", "##"]))
                + "".join(rng.choice("0123456789abcdefABCDEF" if valid else digits)
                          for _ in range(rng.choice([3, 4, 6, 8]) if valid
                                         else rng.randint(0, 9)))
                + rng.choice(spaces) + rng.choice(tails[:6] if valid else tails))
        counts = dict.fromkeys(_STATS, 0)
        expected = tuple(stylesheet._tinycss2_declarations(text, counts))
        found, found_counts = stylesheet._parsed_piece.__wrapped__(text)
        assert (repr(found), dict(found_counts)) == (
            repr(expected), {k: v for k, v in counts.items() if v}), text
        fast += stylesheet._HEX_COLOR.fullmatch(text) is not None
    assert fast > 2000  # the hex reading was taken
