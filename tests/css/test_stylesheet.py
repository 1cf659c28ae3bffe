"""Parsing: what is kept, imports, statistics, the store, and hostile stylesheets."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import lxml.html
import pytest

from newscrawl.css import StyleResolver, parse_stylesheet
from newscrawl.css.media import media_matches
from newscrawl.css.store import StylesheetStore, stylesheet_store
from newscrawl.css.stylesheet import DEFAULT_MAX_RULES

MB = 1024 * 1024


def test_keeps_only_rules_and_declarations_we_use() -> None:
    sheet = parse_stylesheet("""
        body { margin: 0; padding: 0; color: #333; background: white }
        .nav { float: left; width: 30% }
        .grid { display: grid; gap: 1rem; grid-template-columns: 1fr 1fr }
        .btn { border-radius: 4px; transition: all .2s; box-shadow: none }
        h1, .title { font: bold 2em/1.2 Georgia, serif; letter-spacing: 1px }
        @font-face { font-family: X; src: url(x.woff2) }
        @keyframes spin { from { color: red } to { color: blue } }
    """)
    stats = sheet.stats
    assert stats["rules_total"] == 5 and stats["rules_kept"] == 4
    assert stats["declarations_total"] == 14 and stats["declarations_kept"] == 4
    assert stats["at_rules_ignored"] == 2
    kept = {d[0] for rule in sheet.rules for d in rule.declarations}
    assert kept == {"color", "float", "display", "font-style", "font-weight", "font-size",
                    "font-family"}


def test_stylesheet_is_immutable_and_indexed() -> None:
    sheet = parse_stylesheet("#main { color: red } .a .b { color: blue } p { color: green }"
                             " [hidden] { display: none } * { color: black }")
    with pytest.raises(dataclasses.FrozenInstanceError):
        sheet.url = "x"  # type: ignore[misc]
    # the key each selector is indexed by: id, else class, tag, attribute name, else "*"
    assert [s.key for rule in sheet.rules for s in rule.selectors] == [
        ("id", "main"), ("class", "b"), ("tag", "p"), ("attr", "hidden"), ("*", None)]


def test_imports_are_absolute_in_order_with_media() -> None:
    sheet = parse_stylesheet('@charset "utf-8"; @import "a.css"; @import url(/b.css) screen;'
                             ' @import url("../c.css") print; p { color: red } @import "late.css";',
                             url="http://example.test/css/main.css")
    assert [(i.url, i.media) for i in sheet.imports] == [
        ("http://example.test/css/a.css", None), ("http://example.test/b.css", "screen"),
        ("http://example.test/c.css", "print")]


def test_media_attribute_of_the_sheet() -> None:
    sheet = parse_stylesheet("p { color: red }", media="print")
    root = lxml.html.document_fromstring("<!DOCTYPE html><p>x</p>")
    assert StyleResolver(root, [sheet]).style(next(root.iter("p"))).color == "#000000"
    assert not media_matches("print") and media_matches("screen, print") and media_matches(None)


def test_supports_blocks() -> None:
    sheet = parse_stylesheet("@supports (display: grid) { p { color: red } }"
                             " @supports not (display: grid) { p { color: blue } }")
    assert len(sheet.rules) == 1


def test_store_is_lru_bounded_by_bytes() -> None:
    store = StylesheetStore(max_bytes=120)
    a = parse_stylesheet("p { color: red }" + " " * 40, url="a")
    b = parse_stylesheet("p { color: blue }" + " " * 40, url="b")
    c = parse_stylesheet("p { color: green }" + " " * 40, url="c")
    store.put("a", a)
    store.put("b", b)
    assert store.get("a") is a  # a is now the most recently used
    store.put("c", c)
    assert store.get("b") is None and store.get("a") is a and store.get("c") is c
    assert store.evictions == 1 and store.total_bytes <= 120
    assert store.stats()["hit_rate"] == pytest.approx(3 / 4)


def test_store_is_per_crawler() -> None:
    class FakeCrawler:
        settings = None

    one, two = FakeCrawler(), FakeCrawler()
    assert stylesheet_store(one) is stylesheet_store(one)
    assert stylesheet_store(one) is not stylesheet_store(two)


# --- hostile input: bounded time (pytest-timeout) and memory (peak RSS growth) ----------------------
def hostile(case: str, *args: str) -> dict:
    """Parse a hostile stylesheet in a fresh process (its peak RSS is then ours alone)."""
    script = Path(__file__).with_name("_hostile.py")
    out = subprocess.run([sys.executable, str(script), case, *args], capture_output=True,
                         text=True, timeout=120, check=True)
    return json.loads(out.stdout)


@pytest.mark.timeout(150)
def test_twenty_megabyte_stylesheet_is_cut() -> None:
    report = hostile("twenty_mb")
    stats = report["stats"]
    assert report["input_bytes"] == 20_000_000
    assert stats["truncated"] == 1 and stats["bytes"] == 20_000_000
    assert 0 < stats["rules_kept"] <= DEFAULT_MAX_RULES
    assert report["peak_growth_mb"] < 200, report


@pytest.mark.timeout(150)
def test_hundred_thousand_rules() -> None:
    report = hostile("hundred_k", str(10 * MB))
    stats = report["stats"]
    assert stats["truncated"] == 0 and stats["rules_kept"] == DEFAULT_MAX_RULES
    assert stats["rules_total"] + stats["rules_over_limit"] >= 100_000
    assert stats["rules_over_limit"] > 0
    assert report["peak_growth_mb"] < 200, report


def test_rules_beyond_the_limit_are_ignored_not_fatal() -> None:
    css = "".join(f".r{i} {{ color: red }}" for i in range(300)) + "p { color: blue }"
    sheet = parse_stylesheet(css, max_rules=100)
    assert sheet.stats["rules_kept"] == 100 and sheet.stats["rules_over_limit"] == 201
    root = lxml.html.document_fromstring('<!DOCTYPE html><p class="r5">x</p>')
    assert StyleResolver(root, [sheet]).style(next(root.iter("p"))).color == "#ff0000"


@pytest.mark.timeout(60)
def test_selectors_with_thousands_of_parts() -> None:
    css = ("div " * 5000 + "p { color: red } "
           + ":not(" * 3000 + "p" + ")" * 3000 + " { color: red } "
           + "p, " + "a, " * 50_000 + "b { font-size: 30px } "
           + "p" + ".x" * 5000 + " { color: red } "
           + "em { color: blue }")
    sheet = parse_stylesheet(css)
    assert sheet.stats["selectors_dropped"] > 50_000 - 1000
    html = '<!DOCTYPE html><div class="x"><p class="x">a <em>b</em></p></div>'
    root = lxml.html.document_fromstring(html)
    resolver = StyleResolver(root, [sheet])
    p = next(root.iter("p"))
    assert resolver.style(p).color == "#000000" and resolver.style(p).font_size == 30
    assert resolver.style(next(root.iter("em"))).color == "#0000ff"


@pytest.mark.timeout(60)
def test_deeply_nested_blocks_and_parentheses() -> None:
    css = ("@media screen {" * 5000 + "p { color: red }" + "}" * 5000
           + " p { font-size: " + "(" * 50_000 + " } em { color: blue }")
    sheet = parse_stylesheet(css)
    root = lxml.html.document_fromstring("<!DOCTYPE html><p>a</p><em>b</em>")
    resolver = StyleResolver(root, [sheet])
    assert resolver.style(next(root.iter("p"))).color == "#000000"  # nesting cap
    assert resolver.style(next(root.iter("p"))).font_size == 16


def test_deeply_nested_values_that_must_be_serialized_are_dropped_alone() -> None:
    """Custom properties, var() values and @import media are kept as serialized text; tinycss2's
    serializer recurses, and a value a few thousand functions deep raised RecursionError, so the
    whole sheet (on a page: every stylesheet) was lost. Now that declaration alone is dropped."""
    deep = "f(" * 3000 + ")" * 3000  # closed: an open group runs to the end of the sheet
    css = (f"@import url(a.css) {'(' * 3000 + ')' * 3000}; p {{ --x: {deep} }}"
           f" h2 {{ font-size: var(--q, {deep}) }} h1 {{ color: #ff0000; --y: 4px }}")
    sheet = parse_stylesheet(css, url="http://127.0.0.1/s.css")
    assert [i.url for i in sheet.imports] == ["http://127.0.0.1/a.css"]
    assert sheet.stats["declarations_invalid"] == 2 and sheet.stats["custom_properties"] == 1
    root = lxml.html.document_fromstring("<!DOCTYPE html><h1>a</h1><h2>b</h2>")
    resolver = StyleResolver(root, [sheet])
    assert resolver.style(next(root.iter("h1"))).color == "#ff0000"
    assert resolver.style(next(root.iter("h2"))).font_size == 24  # the UA default: its declaration dropped


def test_invalid_utf8_is_replaced_not_fatal() -> None:
    sheet = parse_stylesheet(b"p { color: red } \xff\xfe\xc3\x41 h2 { font-size: 9px }"
                             b" em { font-family: \"\xe9l\xe9gante\", serif }")
    props = [d[0] for rule in sheet.rules for d in rule.declarations]
    assert "color" in props and "font-family" in props


def test_charset_and_bom_are_honoured() -> None:
    latin = '@charset "iso-8859-1"; p::before { content: "é" } p { font-family: "Ç" }'
    sheet = parse_stylesheet(latin.encode("latin-1"))
    assert sheet.rules[0].declarations[0][1] == ("ç",)
    assert parse_stylesheet(b"\xef\xbb\xbfp { color: red }").rules


def test_html_served_as_css_yields_nothing_harmful() -> None:
    html = (b"<!DOCTYPE html><html><head><title>404</title><style>p { color: red }</style>"
            b"</head><body><p>Not found</p><script>var a = {b: 1};</script></body></html>")
    sheet = parse_stylesheet(html)
    root = lxml.html.document_fromstring("<!DOCTYPE html><p>x</p>")
    assert StyleResolver(root, [sheet]).style(next(root.iter("p"))).visible


def test_css_served_as_html_is_just_text() -> None:
    root = lxml.html.document_fromstring(b"p { color: red } body { display: none }")
    resolver = StyleResolver(root)
    assert all(resolver.style(el).visible for el in root.iter() if el.tag not in ("head",))
