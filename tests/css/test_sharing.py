"""What the cascade shares between elements and pages must never mix up their styles.

Selectors decided once per key chain (``.a .b``, ``a:link``, ``[disabled]``), computed states
shared across pages, and parsed ``<style>`` blocks shared by text: each test builds elements or
pages that share as much as possible and differ in exactly one thing that must show.
"""

from __future__ import annotations

import lxml.html
import pytest

from newscrawl.css import StyleResolver, parse_style_block, parse_stylesheet
from newscrawl.css import cascade, stylesheet

DOCTYPE = "<!DOCTYPE html>"


def _styles(body: str, sheets: list, head: str = "") -> dict:
    root = lxml.html.document_fromstring(
        f"{DOCTYPE}<html><head>{head}</head><body>{body}</body></html>",
        base_url="http://example.test/page")
    resolver = StyleResolver(root, sheets)
    return {el.get("id"): resolver.style(el) for el in root.iter() if el.get("id")}


def test_attribute_presence_decides_per_element_not_per_chain() -> None:
    sheet = parse_stylesheet(".nav a:link { color: red } .nav a { font-size: 20px }"
                             ".f button[disabled] { color: #777 } .f button { color: blue }")
    s = _styles('<div class="nav"><a id="l1" href="/x">a</a><a id="n1">b</a>'
                '<a id="l2" href="/y">c</a><a id="n2">d</a></div>'
                '<form class="f"><button id="d" disabled>x</button><button id="e">y</button>'
                '</form>', [sheet])
    assert s["l1"].color == s["l2"].color == "#ff0000"
    assert s["n1"].color == s["n2"].color == "#000000"  # no href: not a link
    assert {s[k].font_size for k in ("l1", "n1", "l2", "n2")} == {20}
    assert s["d"].color == "#777777" and s["e"].color == "#0000ff"


def test_descendant_selectors_decided_per_chain_follow_the_real_ancestors() -> None:
    sheet = parse_stylesheet(".a .b > p { color: red } .a > p { color: green }")
    s = _styles('<div class="a"><div class="b"><p id="x">1</p></div><p id="y">2</p></div>'
                '<div class="b"><p id="z">3</p></div>'
                '<div class="a"><div class="c"><div class="b"><p id="w">4</p></div></div></div>',
                [sheet])
    assert s["x"].color == "#ff0000" and s["w"].color == "#ff0000"
    assert s["y"].color == "#008000" and s["z"].color == "#000000"


def test_pages_sharing_rules_keep_their_own_inherited_values() -> None:
    # Same sheet, same structure: the second page shares states with the first except where
    # its root font size (rem) and an inline style differ.
    sheet = parse_stylesheet("p { font-size: 2rem } .k { color: green }")
    first = _styles('<p id="p">a</p><span class="k" id="k">b</span>', [sheet],
                    head="<style>html { font-size: 10px }</style>")
    second = _styles('<p id="p">a</p><span class="k" id="k" style="color: red">b</span>',
                     [sheet], head="<style>html { font-size: 12px }</style>")
    third = _styles('<p id="p">a</p><span class="k" id="k">b</span>', [sheet],
                    head="<style>html { font-size: 10px }</style>")
    assert first["p"].font_size == 20 and second["p"].font_size == 24
    assert third == first
    assert first["k"].color == "#008000" and second["k"].color == "#ff0000"


def test_identical_style_text_is_parsed_once_and_different_text_is_not_confused(
        monkeypatch) -> None:
    parsed: list[str] = []
    real = stylesheet._parse

    def counting(css, *args):
        parsed.append(css)
        return real(css, *args)

    monkeypatch.setattr(stylesheet, "_parse", counting)
    stylesheet._parse_cached.cache_clear()
    cascade._BLOCKS.clear()
    text = ".story h2 { color: #123456 } /* sharing test */"
    other = ".story h2 { color: #654321 } /* sharing test */"
    pages = [f'<div class="story"><h2 id="h">t{i}</h2></div>' for i in range(4)]
    colours = [_styles(body, [], head=f"<style>{text}</style>")["h"].color for body in pages]
    assert colours == ["#123456"] * 4
    assert parsed.count(text) == 1  # one parse for four pages
    assert parse_style_block(text) is parse_style_block(text)
    assert _styles(pages[0], [], head=f"<style>{other}</style>")["h"].color == "#654321"
    assert parsed.count(other) == 1 and parse_style_block(other) is not parse_style_block(text)


def test_style_blocks_with_imports_keep_their_page_url() -> None:
    # Blocks with @import are parsed against the page URL: the same text on two sites must
    # import from each site, so those are not shared across base URLs.
    text = '@import "theme.css"; p { color: red }'
    one = parse_style_block(text, "http://one.test/a/")
    two = parse_style_block(text, "http://two.test/a/")
    assert one is not two
    assert [i.url for i in one.imports] == ["http://one.test/a/theme.css"]
    assert [i.url for i in two.imports] == ["http://two.test/a/theme.css"]
    plain = "p { color: red }"
    assert parse_style_block(plain, "http://one.test/") is parse_style_block(plain,
                                                                           "http://two.test/")


def test_states_are_shared_across_pages_of_a_site() -> None:
    sheet = parse_stylesheet(".x { color: red } p { font-weight: bold }")
    body = '<div class="x"><p id="p">a</p></div>'
    root1 = lxml.html.document_fromstring(f"{DOCTYPE}<html><body>{body}</body></html>")
    root2 = lxml.html.document_fromstring(f"{DOCTYPE}<html><body>{body}</body></html>")
    p1 = StyleResolver(root1, [sheet]).style(root1.get_element_by_id("p"))
    p2 = StyleResolver(root2, [sheet]).style(root2.get_element_by_id("p"))
    assert p1 is p2  # one computed style object for both pages
    assert p1.color == "#ff0000" and p1.bold
    assert cascade._combined_index.cache_info().currsize >= 1


def test_chain_decided_selectors_match_like_cssselect2() -> None:
    # The key-chain decision against cssselect2's own predicates, element by element, on a
    # tree where the same keys recur at different depths and under different parents.
    from newscrawl.css.selectors import NodeRegistry, compile_selector_text

    body = ('<div class="a" id="top"><ul class="m"><li class="i"><a href="/1">x</a><ul class="m">'
            '<li class="i"><a>y</a><span class="a"><a href="/2" class="i">z</a></span></li>'
            '</ul></li></ul><p class="i"><b class="a b">q</b></p></div><section><div class="b">'
            '<p><a class="i" href="/3">w</a></p></div><a disabled class="a">v</a></section>')
    texts = [".a .i", ".m > .i > a", ".a > .m .i a", "ul li a", "#top a", "div p b.a",
             ".a .b", "section > a", ".m .m a", "div > p > a", "* > .i", ".a *", "li a:link",
             ".a a[href]", "section [disabled]", "ul > li > span > a.i", ".b p a"]
    root = lxml.html.document_fromstring(f"{DOCTYPE}<html><body>{body}</body></html>")
    elements = [el for el in root.iter() if isinstance(el.tag, str)]
    registry = NodeRegistry()
    for text in texts:
        selectors = compile_selector_text(text)[0]
        assert all(s.plain for s in selectors), text
        expected = [any(s.matches(registry.node(el), {}) for s in selectors) for el in elements]
        assert any(expected), text
        resolver = StyleResolver(root, [parse_stylesheet(f"{text} {{ display: table-caption }}")])
        got = [resolver.style(el).display == "table-caption" for el in elements]  # not inherited
        assert got == expected, text


@pytest.mark.timeout(30)
def test_descendant_chains_stay_linear_on_deep_documents() -> None:
    # 20,000 nested .b under one .a: each .b asks whether some ancestor is .a; without a memo
    # per chain start that walk is quadratic in the depth.
    root = lxml.html.document_fromstring(f"{DOCTYPE}<html><body></body></html>")
    parent = lxml.html.etree.SubElement(root.find("body"), "div", {"class": "a"})
    for _ in range(20_000):
        parent = lxml.html.etree.SubElement(parent, "div", {"class": "b"})
    lxml.html.etree.SubElement(parent, "p").text = "deep"
    resolver = StyleResolver(root, [parse_stylesheet(".a div.b .b { color: red } .a .b .b p { "
                                                     "font-weight: bold } .c .b { color: blue }")])
    for el in root.iter("div"):  # every level, as an extractor walking the tree would
        resolver.style(el)
    style = resolver.style(next(root.iter("p")))
    assert style.color == "#ff0000" and style.bold


def test_block_cache_keeps_blocks_seen_again_and_bounds_both_segments() -> None:
    cache = cascade.BlockCache(max_chars=100, max_text=60, probation=50)
    a, b, c = ("p{color:red}" + " " * 28, "p{color:#00f}" + " " * 27, "p{color:#0f0}" + " " * 27)
    first = cache.get(a, None)
    assert cache.get(a, None) is first and (cache.hits, cache.misses) == (1, 1)  # a: main
    cache.get(b, None)
    cache.get(c, None)  # seen once: 80 characters > 50, b (least recent) goes
    assert cache.chars == 80  # a in the main segment, c seen once
    misses = cache.misses
    second_b = cache.get(b, None)
    assert cache.misses == misses + 1  # parsed again; c, seen once before it, goes
    assert cache.get(a, None) is first  # blocks seen again outlive those seen once
    assert cache.get(b, None) is second_b and cache.chars == 80  # b seen again: main
    cache.get(c, None)
    third_c = cache.get(c, None)  # into the main segment: 120 > 100, a (least recent) goes
    assert cache.chars == 80
    misses = cache.misses
    assert cache.get(b, None) is second_b and cache.get(c, None) is third_c
    assert cache.get(a, None) is not first and cache.misses == misses + 1
    huge = "p{color:red}" + " " * 100  # longer than max_text: parsed, never held
    misses = cache.misses
    cache.get(huge, None)
    cache.get(huge, None)
    assert cache.misses == misses + 2 and cache.chars <= 150
    # the key is the whole text: a one-character difference is another sheet
    assert cache.get(a, None).rules[0].declarations != cache.get(a.replace("red", "tan"),
                                                                   None).rules[0].declarations


def test_states_are_shared_across_block_combinations_but_not_across_modes() -> None:
    sheet = parse_stylesheet(".x { color: red } p { font-size: 20 }")  # unitless: quirks only
    body = '<div class="x"><p id="p">a</p></div>'
    one = _styles(body, [sheet], head="<style>.unused-a { color: blue }</style>")["p"]
    two = _styles(body, [sheet], head="<style>.unused-b { color: green }</style>")["p"]
    assert one is two  # two indexes (block combinations), one computed style
    assert one.color == "#ff0000" and one.font_size == 16  # standards mode: 20 is dropped
    root = lxml.html.document_fromstring(f"<html><body>{body}</body></html>")  # no doctype
    quirky = StyleResolver(root, [sheet]).style(root.get_element_by_id("p"))
    assert quirky.font_size == 20 and quirky.color == "#ff0000"
    wide = _styles(body, [parse_stylesheet("p { font-size: 2vw }")], head="")["p"]
    root = lxml.html.document_fromstring(f"{DOCTYPE}<html><body>{body}</body></html>")
    narrow = StyleResolver(root, [parse_stylesheet("p { font-size: 2vw }")],
                           viewport=(800, 600)).style(root.get_element_by_id("p"))
    assert wide.font_size == pytest.approx(27.32) and narrow.font_size == pytest.approx(16)


def test_synthetic_keys_match_like_cssselect2() -> None:
    # Selectors decided by the tag, id and class text alone ([class*=x], :not(.a), :is(...))
    # become keys evaluated once per (tag, id, class); element by element they must agree
    # with cssselect2's own predicates, alone and inside chains.

    body = ('<div class="ad-unit-1 x" id="wp-block-3"><p class="published updated">a</p>'
            '<p class="updated">b</p><span class="align-left">c</span></div>'
            '<div class="ad-unit-2"><h2 class="t">d</h2><h3>e</h3><p id="pico">f</p></div>'
            '<section class="x"><div class="y"><p class="updated">g</p></div><div><p>h</p></div>'
            '</section>')
    texts = ["[class*=ad-unit]", "div[class^=ad-unit] p", ".updated:not(.published)",
             ":is(h2, h3)", "div:not(.x) > :where(h2, .t)", "[id^=wp-block] span[class$=left]",
             "[id=pico]", "section :not(.y) p", "[class~=x] > p:not(.published)",
             "p:not(.updated, .published)", ":not(div):not(p)"]
    _assert_cascade_agrees_with_cssselect2(body, texts, lambda s: s.synthetic and (s.implied or s.plain))


def test_synthetic_keys_beyond_the_cap_are_tested_per_element(monkeypatch) -> None:
    monkeypatch.setattr(cascade._CombinedIndex, "MAX_SYNTHETIC", 2)
    cascade._SPACES.clear()
    css = "".join(f"[class*=c{i}] {{ font-size: {10 + i}px }}" for i in range(6))
    body = "".join(f'<p id="p{i}" class="xc{i}y">t</p>' for i in range(6)) + '<p id="q">u</p>'
    try:
        s = _styles(body, [parse_stylesheet(css)])
    finally:
        cascade._SPACES.clear()
    assert [s[f"p{i}"].font_size for i in range(6)] == [10 + i for i in range(6)]
    assert s["q"].font_size == 16


def test_indexes_of_one_site_share_a_key_space_and_stay_correct() -> None:
    cascade._SPACES.clear()
    site = parse_stylesheet(".nav a { color: red } .post h2 { font-weight: 300 }")
    body = '<div class="nav"><a id="a">x</a></div><div class="post"><h2 id="h">t</h2></div>'
    first = _styles(body, [site], head="<style>.k { color: blue }</style>")
    # another block combination: a new index, the same key space (its keys are covered)
    second = _styles(body, [site], head="<style>div.nav a { color: green }</style>")
    # a block with keys the space lacks: the space is widened, styles still follow the rules
    third = _styles(body + '<b class="new" id="b">n</b>', [site],
                    head="<style>.post .new, .nav { font-size: 30px }</style>")
    spaces = cascade._SPACES._spaces
    assert len(spaces) == 1 and ".new" in spaces[0].relevant
    assert first["a"].color == "#ff0000" and second["a"].color == "#008000"
    assert third["b"].font_size == 16 and third["a"].font_size == 30
    assert first["h"].font_weight == second["h"].font_weight == 300


def test_elements_with_one_description_still_get_their_own_tests() -> None:
    # Same parent, tag, class and attributes: one memo entry, but :first-child and :empty
    # are decided per element.
    sheet = parse_stylesheet("li:first-child { color: red } li:empty { display: none }"
                             " li { font-size: 20px }")
    s = _styles('<ul><li id="a">1</li><li id="b">2</li><li id="c"></li><li id="d">4</li></ul>',
                [sheet])
    assert s["a"].color == "#ff0000" and s["b"].color == s["d"].color == "#000000"
    assert s["c"].display == "none" and s["b"].display == "list-item"
    assert {s[k].font_size for k in "abcd"} == {20}


def test_root_pseudo_class_is_decided_by_the_chain() -> None:
    from newscrawl.css.selectors import NodeRegistry, compile_selector_text

    root = lxml.html.document_fromstring(
        f'{DOCTYPE}<html class="r"><body><div class="a"><p>x</p></div></body></html>')
    nested = lxml.html.etree.SubElement(root.find("body"), "html")  # not the root
    lxml.html.etree.SubElement(nested, "p").text = "y"
    elements = [el for el in root.iter() if isinstance(el.tag, str)][1:]  # root: blockified
    registry = NodeRegistry()
    for text in [":root > body", ":root .a p", "html:root > body > html", ":root.r p",
                 "html > p", "body :root"]:
        selectors = compile_selector_text(text)[0]
        assert all(s.implied or s.plain for s in selectors), text
        expected = [any(s.matches(registry.node(el), {}) for s in selectors) for el in elements]
        resolver = StyleResolver(root, [parse_stylesheet(f"{text} {{ display: table-caption }}")])
        got = [resolver.style(el).display == "table-caption" for el in elements]
        assert got == expected, text
    style = StyleResolver(root, [parse_stylesheet(":root { font-size: 20px }")]).style(nested)
    assert style.font_size == 20  # inherited from the real root, not matched itself


def test_empty_subjects_are_decided_by_the_chain_and_one_element_test() -> None:
    body = ('<ul class="m"><li><a class="x"></a></li><li><a class="x">t</a></li>'
            '<li><a class="x"><!--c-->tail</a></li><li><a class="x"><b></b></a></li></ul>'
            '<div><a class="x"></a><span></span></div><a></a>')
    _assert_cascade_agrees_with_cssselect2(body, [".m > li > a:empty", "div a:empty", "a.x:empty", "ul :empty", ":empty"],
                                           lambda s: s.residual is not None)


def test_key_spaces_are_per_site_and_bounded(monkeypatch) -> None:
    monkeypatch.setattr(cascade._KeySpaces, "MAX", 3)
    cascade._SPACES.clear()
    try:
        # five unrelated "sites" (no keys in common): five spaces made, the 3 latest kept
        for site in range(5):
            css = "".join(f".s{site}k{i} {{ color: red }}" for i in range(10))
            s = _styles(f'<p id="p" class="s{site}k3">x</p>', [parse_stylesheet(css)])
            assert s["p"].color == "#ff0000"
        spaces = cascade._SPACES._spaces
        assert len(spaces) == 3
        assert [any(f".s{site}k0" in space.relevant for space in spaces)
                for site in range(5)] == [False, False, True, True, True]
    finally:
        cascade._SPACES.clear()


def test_per_index_memos_are_bounded_and_refill_correctly(monkeypatch) -> None:
    monkeypatch.setattr(cascade._CombinedIndex, "MAX_MEMO", 4)
    monkeypatch.setattr(cascade._KeySpace, "MAX_MEMO", 4)
    cascade._SPACES.clear()
    try:
        sheet = parse_stylesheet(".a p { color: red } li:first-child { font-weight: bold }"
                                 " .b > span { font-size: 30px }")
        body = ('<div class="a"><p id="p1">x</p><ul><li id="l1">1</li><li id="l2">2</li></ul>'
                '</div><div class="b"><span id="s1">y</span><p id="p2">z</p></div>')
        for _ in range(3):  # memos cleared again and again while the pages are resolved
            s = _styles(body, [sheet])
            assert s["p1"].color == "#ff0000" and s["p2"].color == "#000000"
            assert s["l1"].bold and not s["l2"].bold and s["s1"].font_size == 30
            index = cascade._combined_index.cache_info()
            assert index.currsize >= 1
        for space in cascade._SPACES._spaces:
            assert len(space._chains) <= 4 and len(space._own_memo) <= 4
    finally:
        cascade._SPACES.clear()


def test_chain_memo_is_bounded_on_its_own(monkeypatch) -> None:
    # Few chains but many chain-decided selectors: the memo of their outcomes is cleared at
    # MAX_OUTCOMES entries (between top-level questions), and the outcomes stay right.
    monkeypatch.setattr(cascade._KeySpace, "MAX_OUTCOMES", 20)
    cascade._SPACES.clear()
    try:
        css = "".join(f".a{i} .b{j} .x {{ font-size: {10 + 5 * i + j}px }}"
                      for i in range(5) for j in range(5))
        sheet = parse_stylesheet(css + ".a3 .b9 .x { color: red } .a3 .b2 .x { color: blue }")
        a = " ".join(f"a{i}" for i in range(5))
        b = " ".join(f"b{j}" for j in range(5))
        s = _styles(f'<section class="{a}"><div class="{b}"><p class="x" id="p">t</p></div>'
                    '</section>', [sheet])
        [space] = cascade._SPACES._spaces
        assert len(space._chain_memo) <= 20 + 8  # + one selector's walk up the chain
        assert s["p"].font_size == 34 and s["p"].color == "#0000ff"
    finally:
        cascade._SPACES.clear()


def _assert_cascade_agrees_with_cssselect2(body: str, texts: list[str], compiled_as) -> None:
    """Each selector text compiles to the expected fast form (``compiled_as``), matches some but not
    all elements of ``body``, and the cascade applies it to exactly the elements cssselect2 matches."""
    from newscrawl.css.selectors import NodeRegistry, compile_selector_text

    root = lxml.html.document_fromstring(f"{DOCTYPE}<html><body>{body}</body></html>")
    elements = [el for el in root.iter() if isinstance(el.tag, str)][1:]  # root: blockified
    registry = NodeRegistry()
    for text in texts:
        selectors = compile_selector_text(text)[0]
        assert all(compiled_as(s) for s in selectors), text
        expected = [any(s.matches(registry.node(el), {}) for s in selectors) for el in elements]
        assert any(expected) and not all(expected), text
        resolver = StyleResolver(root, [parse_stylesheet(f"{text} {{ display: table-caption }}")])
        got = [resolver.style(el).display == "table-caption" for el in elements]
        assert got == expected, text
