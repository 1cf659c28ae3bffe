"""Partial parses of a page's own <style> blocks: rules naming an id or class the document
lacks are skipped, and every document still gets the styles of the complete sheet."""

from __future__ import annotations

import random

import lxml.html
import pytest

from newscrawl.css import StyleResolver, cascade, parse_style_block, parse_stylesheet
from newscrawl.css.scan import selector_key_tuples, selector_keys
from newscrawl.css.stylesheet import complete_stylesheet

DOCTYPE = "<!DOCTYPE html>"


@pytest.fixture(autouse=True)
def _fresh_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test starts with an empty block cache and partial parses on any page."""
    cascade._BLOCKS.clear()
    monkeypatch.setattr(cascade, "PARTIAL_MIN_RULES", 1)


def _page(body: str, css: str) -> lxml.html.HtmlElement:
    return lxml.html.document_fromstring(
        f"{DOCTYPE}<html><head><style>{css}</style></head><body>{body}</body></html>")


def _styles(root: lxml.html.HtmlElement) -> dict:
    resolver = StyleResolver(root)
    return {el.get("id"): (resolver.style(el).color, resolver.style(el).font_size)
            for el in root.iter() if el.get("id")}


@pytest.mark.parametrize("seed", range(3))
def test_selector_key_tuples_read_what_selector_keys_reads(seed: int) -> None:
    # the one-findall reading of preludes without escapes, strings, groups or comments, and the
    # general reader elsewhere, give each selector's keys as selector_keys does
    rng = random.Random(seed)
    pieces = [".a", "#b", ".c-1", "p", " ", ",", ">", "+", "~", "*", ":hover", "::before",
              ".caf\u00e9", "#\u00e9t\u00e9", ".", "#", "\n", ":not(.x)", "[y]", '[z="a,b"]',
              "/* .c, */", "\\31", "(", ")", "'", "a.b.c", "-", "_x", "\x00", "\t.d"]
    flat = 0
    for _ in range(4000):
        prelude = "".join(rng.choice(pieces if rng.random() < 0.3 else pieces[:15])
                          for _ in range(rng.randint(0, 10)))
        expected = selector_keys(prelude)
        found = selector_key_tuples(prelude)
        assert (None if found is None else tuple(frozenset(keys) for keys in found)) \
            == expected, prelude
        flat += found is not None and not any(c in prelude for c in "\\\x00\"'()[]") \
            and "/*" not in prelude
    assert flat > 1000  # the findall reading was taken


def test_selector_keys_reads_ids_and_classes_outside_groups_and_strings() -> None:
    assert selector_keys(".a, #b .c") == (frozenset({".a"}), frozenset({"#b", ".c"}))
    assert selector_keys('input[type="x.y"].z:not(.w) p') == (frozenset({".z"}),)
    assert selector_keys("/* .skip */ .a:is(.b, .c)::before") == (frozenset({".a"}),)
    assert selector_keys(".caf\u00e9.b-1") == (frozenset({".caf\u00e9", ".b-1"}),)
    assert selector_keys("h1, *") == (frozenset(), frozenset())
    # not read: escapes (another class than the text shows), unbalanced groups, open strings
    assert selector_keys(r".a\31") is None
    assert selector_keys(".a:not(.b") is None
    assert selector_keys('.a[x="b] .c') is None  # tinycss2: the string runs to the end


def test_partial_sheet_skips_rules_the_document_cannot_match() -> None:
    css = ("#main { color: red } .missing p { color: blue } .here, .gone { font-size: 20px }"
           " .gone { color: green } h1 { color: navy } .x:not(.gone) { color: #111 }")
    full = parse_stylesheet(css, cached=False)
    part = parse_stylesheet(css, cached=False, present=frozenset({"#main", ".here", ".x"}))
    assert len(full.rules) == 6 and len(part.rules) == 4
    assert part.stats["rules_skipped"] == 2 and part.absent == frozenset({".missing", ".gone"})
    assert [r.order for r in part.rules] == [1, 3, 5, 6]  # orders of the complete sheet
    assert not full.absent and full.stats["rules_skipped"] == 0


def test_completion_equals_a_complete_parse_and_keeps_the_rule_objects() -> None:
    rng = random.Random(7)
    names = [f"c{i}" for i in range(12)]
    rules = []
    for i in range(200):
        selector = ", ".join(" ".join("." + rng.choice(names) for _ in range(rng.randint(1, 3)))
                             for _ in range(rng.randint(1, 2)))
        body = rng.choice(["color: #%06x" % i, "margin: 0", "font-size: %dpx" % (i % 30 + 8)])
        rules.append(f"{selector} {{ {body} }}")
        if i % 50 == 0:
            rules.append("@media (min-width: 1px) { .c1 { color: red } }")
    css = "\n".join(rules)
    present = frozenset("." + n for n in rng.sample(names, 5))
    part = parse_stylesheet(css, cached=False, present=present)
    full = parse_stylesheet(css, cached=False)
    done = complete_stylesheet(part, css)
    assert part.absent and part.stats["rules_skipped"] > 0
    assert [(r.order, r.selectors[0].key, r.declarations, r.media) for r in done.rules] == \
        [(r.order, r.selectors[0].key, r.declarations, r.media) for r in full.rules]
    assert dict(done.stats) == dict(full.stats) and not done.absent
    kept = {id(r) for r in done.rules}
    assert all(id(r) in kept for r in part.rules)


def test_a_partial_block_serves_documents_without_its_absent_keys_and_completes_for_others(
        ) -> None:
    css = ".a { color: red } .b { color: blue } .c .d { font-size: 30px }"
    first = _page('<p id="p" class="a">x</p>', css)
    assert _styles(first)["p"] == ("#ff0000", 16.0)
    sheet = parse_style_block(css, document=first)
    assert sheet.absent == frozenset({".b", ".c"})  # parsed for the first page only
    completions = cascade._BLOCKS.completed
    # a document without .b and .c gets the same partial sheet
    assert parse_style_block(css, document=_page("<p>z</p>", css)) is sheet
    # so does a page whose keys are read anyway (it has a new block of its own)
    second = lxml.html.document_fromstring(
        f"{DOCTYPE}<html><head><style>{css}</style><style>.own {{ color: #123456 }}</style>"
        '</head><body><p id="q" class="a own">y</p></body></html>')
    assert _styles(second)["q"] == ("#123456", 16.0)
    assert parse_style_block(css, document=second) is sheet
    assert cascade._BLOCKS.completed == completions
    # a page with .b and .c .d: the block is completed, and styled as the complete sheet
    other = _page('<p id="r" class="b">y</p><div class="c"><p id="s" class="d">z</p></div>', css)
    assert _styles(other) == {"r": ("#0000ff", 16.0), "s": ("#000000", 30.0)}
    completed = parse_style_block(css)
    assert not completed.absent and completed is not sheet
    assert cascade._BLOCKS.completed == completions + 1
    assert set(sheet.rules) <= set(completed.rules)  # its rules, not new copies


def test_small_new_blocks_are_parsed_complete(monkeypatch: pytest.MonkeyPatch) -> None:
    """Below PARTIAL_MIN_RULES rules in a page's uncached blocks, reading the document's keys
    costs more than skipping saves."""
    monkeypatch.setattr(cascade, "PARTIAL_MIN_RULES", 3)
    css = ".a { color: red } .b { color: blue }"
    completions = cascade._BLOCKS.completed
    _styles(_page('<p id="p" class="a">x</p>', css))
    assert not parse_style_block(css).absent and cascade._BLOCKS.completed == completions


def test_without_a_document_a_block_is_always_complete() -> None:
    css = ".a { color: red } .b { color: blue }"
    parse_style_block(css, document=_page('<p class="a">x</p>', css))
    assert not parse_style_block(css).absent


def test_styles_equal_complete_parses_on_random_documents() -> None:
    """Random pages over a small vocabulary share random blocks: every element's style with
    partial parses (and completions, in any order) equals the one with complete sheets."""
    rng = random.Random(3)
    names = [f"k{i}" for i in range(10)]
    blocks = []
    for _ in range(6):
        rules = []
        for i in range(40):
            compound = lambda: rng.choice(["", "div", "p"]) + "".join(  # noqa: E731
                rng.choice([".", "#"]) + rng.choice(names) for _ in range(rng.randint(1, 2)))
            selector = rng.choice([" ", " > ", " + ", " ~ "]).join(
                compound() for _ in range(rng.randint(1, 3)))
            rules.append(f"{selector}, .{rng.choice(names)}:not(.{rng.choice(names)}) "
                         f"{{ color: #{rng.randrange(1 << 24):06x}; font-size: {i + 8}px }}")
        blocks.append("\n".join(rules))
    pages = []
    for _ in range(40):
        body = "".join(
            f'<div class="{" ".join(rng.sample(names, rng.randint(0, 2)))}" '
            f'id="{rng.choice(names)}"><p id="e{j}" class="{rng.choice(names)}">t</p>'
            f'<span id="s{j}" class="{rng.choice(names)}">u</span></div>' for j in range(4))
        css = rng.sample(blocks, 2)
        pages.append(lxml.html.document_fromstring(
            f"{DOCTYPE}<html><head><style>{css[0]}</style><style>{css[1]}</style></head>"
            f"<body>{body}</body></html>"))

    def all_styles(root: lxml.html.HtmlElement) -> list:
        resolver = StyleResolver(root)
        return [resolver.style(el) for el in root.iter() if isinstance(el.tag, str)]

    lazy = [all_styles(root) for root in pages]
    assert any(sheet.absent for sheet in cascade._BLOCKS._once.values()) \
        or cascade._BLOCKS.completed
    cascade._BLOCKS.clear()
    complete = []
    for root in pages:
        # complete sheets only: every block parsed with no document
        for el in root.iter("style"):
            parse_style_block(el.text)
        complete.append(all_styles(root))
    assert lazy == complete


def test_name_characters_are_those_of_the_alternation() -> None:
    # scan._NAME_CHARS, one negated class, reads the characters "[A-Za-z0-9_-]|[^\x00-\x7f]" reads
    import re

    from newscrawl.css import scan

    reference = re.compile(r"(?:[A-Za-z0-9_-]|[^\x00-\x7f])")
    names = re.compile(scan._NAME_CHARS)
    points = list(range(0x300)) + [0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF]
    assert [bool(names.fullmatch(chr(p))) for p in points] == \
        [bool(reference.fullmatch(chr(p))) for p in points]
    assert sum(bool(names.fullmatch(chr(p))) for p in range(0x80)) == 64  # letters, digits, _ -


@pytest.mark.parametrize("seed", range(3))
def test_missing_keys_name_the_least_key_each_selector_lacks(seed: int) -> None:
    # the plain loop of _missing_keys against its definition: per selector min() of the keys the
    # document lacks, None as soon as one selector lacks none (or names no id or class)
    from newscrawl.css.stylesheet import _SELECTOR_KEYS, _missing_keys

    rng = random.Random(seed)
    names = [".a", ".b", ".c", "#a", "#b", ".x-1", ".\u00e9"]
    for _ in range(500):
        selectors = [rng.sample(names, rng.randint(0, 3)) for _ in range(rng.randint(1, 4))]
        prelude = ", ".join("div" + "".join(keys) + " p" for keys in selectors)
        present = frozenset(rng.sample(names, rng.randint(0, len(names))))
        lacking = [[key for key in keys if key not in present] for keys in selectors]
        expected = None if not all(lacking) else [min(keys) for keys in lacking]
        _SELECTOR_KEYS.pop(prelude, None)
        assert _missing_keys(prelude, present) == expected


def test_document_keys_are_the_keys_of_its_elements() -> None:
    # distinct class attributes are split once: repeats, ASCII blanks of every kind, and a
    # no-break space (part of a class name, as for element_keys) give the elements' keys
    from newscrawl.css.selectors import element_keys

    body = ('<p class="a b" id="x">1</p><p class="a b">2</p><p class=" b\tc\n">3</p>'
            '<p class="d\x0ce\u00a0f" id="y z">4</p><p class="">5</p><p class="a b">6</p>')
    root = _page(body, "p { color: red }")
    expected = set().union(*(element_keys(el) for el in root.iter()))
    keys = cascade.DocumentKeys(root).keys()
    assert keys == {key for key in expected if key[:1] in "#."}
    assert ".d" in keys and ".e\u00a0f" in keys and "#y z" in keys
