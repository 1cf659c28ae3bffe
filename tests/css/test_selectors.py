"""The plain-selector fast path builds the Selector a full cssselect2 compilation builds."""

from __future__ import annotations

import lxml.html
import pytest
import tinycss2

from newscrawl.css import selectors
from newscrawl.css.selectors import NodeRegistry, compile_selector_list

PLAIN = ["div", "*", "*.a", ".a.b", "#main", "div.a#b.c", "a > b c", "ul li + li", "h1 ~ p",
         ".post .entry-title a", "body > *", "p, .lead , #x>span", "nav\n.menu\t>a",
         "#x #y", ".a > .b.c", "* > p", "[hidden]", "a[href]", ".t[data-v-37cad6f0]",
         "[x=y]", "input[type=text]", "input[type='text']", '[data-x="a-b"] > .c', ".a[x] .b",
         "[x] [y]", '[x=""]', "p + [x]", "*[x]", "span[x][data-v-37cad6f0]", "[x] > b", "b[x]",
         "[x=y] span"]
# Selectors the full path drops (pseudo-elements, dynamic pseudo-classes), mixed with plain ones.
DROPPED = ["a:hover", ".a::before", "p:before", ".x:focus .y, .z", "::selection", ".a ::after",
           "a:Hover:AFTER", ".m li:hover > a, .n"]
NOT_PLAIN = ["[class=x]", "[id]", "[X]", "[x=1]", '[x="a b"]', "[x~=y]", "[x=y i]", "[x|y]",
             '[x="a,b"]', "[x=Y:z]", "DIV", "a::-webkit-scrollbar", "a:first-child", "a:before .b",
             ".a >::before", ".a\\:b", "a,", ", a", "a >", "> a",
             ".1a", "a /* c */ b", "p:not(.x)", "é", "a  >  > b"]


def _signature(selector: selectors.Selector) -> tuple:
    return (selector.specificity, selector.key, selector.own, selector.parent_own,
            selector.required, selector.implied, selector.plain,
            tuple(c for _, c in selector.parts))


def test_plain_selectors_compile_like_cssselect2() -> None:
    root = lxml.html.fromstring(
        "<html><body><div id=main class='a b c'><h1 class=t>x</h1><p class=lead>y</p>"
        "<ul><li>1</li><li class=a>2</li></ul><nav class=menu><a href=#>z</a></nav>"
        "<div class='a c' id=b><span id=x x=y data-v-37cad6f0><b x>q</b></span></div></div>"
        "<div class=post data-x=a-b><h2 class='entry-title c t' data-v-37cad6f0><a>t</a></h2>"
        "<input type=text hidden><p x=''>e</p><p x=y><span>f</span></p></div></body></html>")
    registry = NodeRegistry()
    nodes = [registry.node(el) for el in root.iter()]
    attribute_hits = 0
    for text in PLAIN:
        found = selectors._compile_simple_list(text)
        assert found is not None and found[1] == 0, text
        fast = found[0]
        full, dropped = compile_selector_list(tinycss2.parse_component_value_list(text, True))
        assert dropped == 0
        assert [_signature(s) + (s.presence, s.keys) for s in fast] == \
            [_signature(s) + (s.presence, s.keys) for s in full], text
        for quick, slow in zip(fast, full):
            matched = [bool(quick.matches(n, {})) for n in nodes]
            assert matched == [bool(slow.matches(n, {})) for n in nodes], text
            attribute_hits += "[" in text and any(matched)
    assert any(selectors._compile_simple_list("div.a#b.c")[0][0].matches(n, {}) for n in nodes)
    assert attribute_hits >= 12  # attribute selectors were matched, not only rejected


def test_dropped_selectors_are_counted_like_cssselect2() -> None:
    for text in DROPPED:
        found = selectors._compile_simple_list(text)
        assert found is not None, text
        full, dropped = compile_selector_list(tinycss2.parse_component_value_list(text, True))
        assert (found[1], [_signature(s) for s in found[0]]) == \
            (dropped, [_signature(s) for s in full]), text
        assert dropped > 0


def test_other_selectors_take_the_full_path() -> None:
    for text in NOT_PLAIN:
        assert selectors._compile_simple_list(text) is None, text


@pytest.mark.timeout(30)
def test_long_whitespace_runs_do_not_backtrack() -> None:
    # an empty compound in the plain-selector regex made this exponential in the spaces
    prelude = "a" + " " * 190 + "!b"
    assert selectors._compile_simple_list(prelude) is None
    assert selectors.compile_selector_text(prelude) is None  # invalid for the full path too


def test_synthetic_key_tests_agree_with_cssselect2() -> None:
    # Each synthetic key's own test (on element keys, id and class text) against cssselect2's
    # compiled predicate for the same simple selector, on every combination below.
    from itertools import product

    from cssselect2 import parser as css_parser

    from newscrawl.css.selectors import Node, _compile_compound_cached, element_keys

    texts = ["[class*=a]", "[class^=a]", "[class$=b]", "[class~=a]", "[class|=x]", "[id=a]",
             "[id^='']", "[class*='']", "[class~='a b']", "[class='']", "[id$=B i]",
             "[class*=A i]", "[CLASS^=x]", ":not(.a)", ":not(.a, #b)", ":not(p.a)",
             ":is(div, .b)", ":where(#a.b, span)", ":not([class*=b])", ":is(p[id|=a], .c)",
             ":not(.a.b[id=a])"]
    ids = [None, "", "a", "a-b", "ab", "A", "xB"]
    classes = [None, "", "a", "a b", "x-a", "ab c", " a ", "A", "x", "b\ta", "c ab"]
    tags = ["div", "p", "span"]
    checked = 0
    for text in texts:
        [parsed] = list(css_parser.parse(text))
        [simple] = parsed.parsed_tree.simple_selectors
        key = selectors.synthetic_key(simple)
        assert key is not None, text
        mine = selectors._key_test(simple)
        theirs = _compile_compound_cached(css_parser.CompoundSelector([simple]))
        outcomes = set()
        for tag, element_id, element_class in product(tags, ids, classes):
            attrs = {k: v for k, v in (("id", element_id), ("class", element_class))
                     if v is not None}
            el = lxml.html.Element(tag, attrs)
            expected = bool(theirs(Node(el))) if theirs is not None else False
            got = mine(element_keys(el), el.get("id"), el.get("class"))
            assert got == expected, (text, tag, element_id, element_class)
            outcomes.add(got)
            checked += 1
        assert outcomes == {True, False} or text in ("[id^='']", "[class*='']",
                                                      "[class~='a b']"), text
    assert checked == len(texts) * len(tags) * len(ids) * len(classes)
    # not synthetic: other attributes, pseudo-classes, combinators inside :not(), nesting
    for text in ["[href*=x]", ":first-child", ":not(.a .b)", ":not(:first-child)",
                 ":not(:not(.a))", ":is(*)", "[class]"]:
        [parsed] = list(css_parser.parse(text))
        assert selectors.synthetic_key(parsed.parsed_tree.simple_selectors[0]) is None, text


MIXED_PIECES = [".a", "#b", "div", " ", ",", " > ", " + ", "~", "*", ":hover", "::before",
                "[type=\"x,y\"]", "[data-v-1]", "[x='a']", ":not(.c, .d)", ":is(h1,h2)",
                ":first-child", ":nth-child(2n+1)", "/* c, d */", "/*", "\"", "\\,", "(", ")",
                "[", "]", "DIV", "\u00e9", ":root", ":empty", "{", "}", "\n", "[x]", "[x=y]",
                "[x=\"\"]", "[x='a-b.c']", "[_ngcontent-c1]", "[x=1]", "[class]", "[id=a]",
                "[X=y]", "[x=y s]", "[x^=y]", "[-x]", "=", "[x=\"a b\"]", "[x=\"a:b\"]"]


def _facts(s: selectors.Selector) -> tuple:
    """A compiled selector's signature with its index keys, presence tests and residual."""
    return _signature(s) + (s.presence, s.keys, tuple(k for k, _ in s.synthetic), s.residual is not None)


def _fast_and_full(prelude: str) -> tuple[tuple | None, tuple | None]:
    """(compile_selector_text's selectors as signatures, uncached; :func:`_full_path`'s)."""
    selectors.compile_selector_text.cache_clear()
    found = selectors.compile_selector_text(prelude)
    got = None if found is None else (list(map(_facts, found[0])), found[1])
    return got, _full_path(prelude)


def _full_path(prelude: str) -> tuple | None:
    try:
        found, dropped = compile_selector_list(tinycss2.parse_component_value_list(prelude, True))
    except ValueError:
        return None
    return list(map(_facts, found)), dropped


@pytest.mark.parametrize("seed", range(3))
def test_mixed_lists_compile_like_the_whole_prelude(seed: int) -> None:
    # plain selectors by the fast path and the others one by one give what cssselect2 gives
    # for the whole prelude (commas inside blocks, strings and comments do not cut it)
    import random

    rng = random.Random(seed)
    mixed = 0
    for _ in range(1500):
        prelude = "".join(rng.choice(MIXED_PIECES if rng.random() < 0.5 else MIXED_PIECES[:5])
                          for _ in range(rng.randint(1, 12)))
        got, expected = _fast_and_full(prelude)
        assert got == expected, prelude
        parts = selectors._top_level_parts(prelude)
        mixed += parts is not None and len(parts) > 1 \
            and selectors._compile_simple_list(prelude) is None and expected is not None
    assert mixed > 20  # lists compiled part by part were among them


def test_top_level_parts_cut_outside_blocks_strings_and_comments() -> None:
    assert selectors._top_level_parts('a, [x="1,2"] , :not(.a,.b)/* , */') == \
        ["a", ' [x="1,2"] ', " :not(.a,.b)/* , */"]
    assert selectors._top_level_parts("a\\,b") is None
    assert selectors._top_level_parts(":not(a, b") is None
    assert selectors._top_level_parts("[a)]") is None
    assert selectors._top_level_parts('a, "b') is None


def test_compounds_compiled_by_shape_match_like_cssselect2() -> None:
    """Compounds whose cssselect2 sources differ only in string literals share one compiled
    shape, and each predicate matches what cssselect2's own CompiledSelector matches."""
    from types import SimpleNamespace

    from cssselect2 import parser as css_parser
    from cssselect2.compiler import CompiledSelector

    root = lxml.html.fromstring(
        '<div><a id="x" class="a b" href="/p" type="submit">1</a><input type="hidden" class="c">'
        '<span lang="en-GB" data-k="v w" class="a">2</span><p>3</p><ul><li>4</li></ul></div>')
    registry = NodeRegistry()
    nodes = [registry.node(el) for el in root.iter()]
    texts = ["[type=submit]", "[type=hidden]", "input[type='hidden']", ".a[href]", ".b[href]",
             "a:first-child", "li:last-child", "[data-k~=w]", "[data-k~=v]", "[lang|=en]",
             "[href^='/']", "[href$=p]", "[class*=b]", ":not(.a)", ":not(.c)", "a:link",
             "span:lang(en)", "p:empty", "li:nth-child(2n+1)", "[title=\"it's\"]", "[x='a\\\"b']"]
    selectors._SHAPES.clear()
    matched = 0
    for text in texts:
        compound = next(css_parser.parse(text)).parsed_tree
        ours = selectors._compile_compound(compound)
        theirs = CompiledSelector(SimpleNamespace(parsed_tree=compound, specificity=(0, 0, 0),
                                                  pseudo_element=None))
        assert (ours is None) == theirs.never_matches, text
        if ours is not None:
            outcomes = [ours(node) for node in nodes]
            assert outcomes == [theirs.test(node) for node in nodes], text
            matched += sum(map(bool, outcomes))
    assert matched > 15
    assert len(selectors._SHAPES) < len(texts) - 5  # [type=submit] and [type=hidden]: one shape


@pytest.mark.parametrize("seed", range(2))
def test_leading_comments_take_the_fast_path_and_compile_like_cssselect2(seed: int) -> None:
    # a part starting with comments (a block's first prelude) is read without them, as
    # tinycss2 skips them; what follows is compiled as the full path compiles the whole part
    import random

    rng = random.Random(seed)
    comments = ["/* c */", "/**/", "/* a, b */", "/* x *//* y */", "/* open", "/* *", "/* */ /**/"]
    spaces = ["", " ", "\n", "\t \n"]
    fast = 0
    for _ in range(800):
        head = "".join(rng.choice(comments) + rng.choice(spaces) for _ in range(rng.randint(1, 3)))
        rest = ", ".join(rng.choice(PLAIN + DROPPED + NOT_PLAIN) for _ in range(rng.randint(1, 3)))
        prelude = rng.choice(spaces) + head + rest
        got, expected = _fast_and_full(prelude)
        assert got == expected, prelude
        text = prelude.split(",")[0].strip()
        fast += selectors._after_comments(text) != text \
            and selectors._cached_part(selectors._after_comments(text)) is not selectors._FULL_PATH
    assert fast > 100  # the comment-led parts did take the fast path
    assert selectors._after_comments("/* a */ /* b */\n.x") == ".x"
    assert selectors._after_comments("/* open .x") == "/* open .x"


def test_keys_of_reads_tag_id_and_class_as_element_keys_did() -> None:
    # keys_of (the cascade passes the tag, id and class it read for its memo key) against the
    # reading element_keys made of the element itself before: lower-cased tag, "#" + id, "." +
    # each class split on ASCII whitespace only (NBSP, vertical tab and the like are class characters)
    import random
    import re

    from newscrawl.css.selectors import element_keys, keys_of

    def reference(tag: str, element_id: str | None, classes: str | None) -> set[str]:
        keys = {tag.lower()}
        if element_id is not None:
            keys.add("#" + element_id)
        for c in re.findall("[^ \t\r\n\f]+", classes or ""):
            keys.add("." + c)
        return keys

    rng = random.Random(12)
    pieces = ["a", "B", "a-b", "_x", "\u00e9", " ", "\t", "\n", "\r", "\f", "\x0b", "\u00a0", "\u2003",
              "\x1c", "1", "a"]
    for _ in range(3000):
        tag = rng.choice(["div", "P", "span", "h1"])
        element_id, classes = (("".join(rng.choice(pieces) for _ in range(rng.randint(0, 6)))
                                if rng.random() < 0.8 else None) for _name in range(2))
        expected = reference(tag, element_id, classes)
        assert keys_of(tag, element_id, classes) == expected, (element_id, classes)
        if all(c not in "\f\x0b\x1c" for c in (element_id or "") + (classes or "")):  # XML-compatible
            attrs = {k: v for k, v in (("id", element_id), ("class", classes)) if v is not None}
            assert element_keys(lxml.html.Element(tag, attrs)) == expected, attrs
