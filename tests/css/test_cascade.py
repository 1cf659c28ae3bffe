"""The simplified cascade, property by property and quirk by quirk (no Scrapy, no network)."""

from __future__ import annotations

import lxml.html
import pytest

from newscrawl.css import ComputedStyle, StyleResolver, parse_stylesheet

STANDARDS = "<!DOCTYPE html>"


def styles(body: str, css: str = "", *, doctype: str = STANDARDS, head: str = "",
           sheets: tuple = (), viewport: tuple[int, int] = (1366, 768),
           url: str = "http://example.test/page") -> dict[str, ComputedStyle]:
    """Computed style of every element with an id, for a document and one stylesheet."""
    html = f"{doctype}<html><head>{head}</head><body>{body}</body></html>"
    root = lxml.html.document_fromstring(html, base_url=url)
    all_sheets = list(sheets)
    if css:
        all_sheets.append(parse_stylesheet(css))
    resolver = StyleResolver(root, all_sheets, viewport=viewport)
    return {el.get("id"): resolver.style(el) for el in root.iter() if el.get("id")}


def one(body: str, css: str = "", **kw: object) -> ComputedStyle:
    return styles(body, css, **kw)["t"]  # type: ignore[arg-type]


# --- user-agent defaults -------------------------------------------------------------------------
def test_user_agent_defaults() -> None:
    s = styles('<h1 id="h1">a</h1><h2 id="h2">b</h2><h6 id="h6">c</h6><p id="p">d <b id="b">e</b>'
               '<strong id="strong">f</strong><em id="em">g</em><small id="small">h</small>'
               '<code id="code">i</code><a id="a" href="/x">j</a><span id="span">k</span></p>'
               '<table><tr><th id="th">l</th><td id="td">m</td></tr></table><ul><li id="li">n'
               '</li></ul><div hidden id="hidden">o</div>')
    assert s["h1"].font_size == 32 and s["h1"].bold and s["h1"].display == "block"
    assert s["h2"].font_size == 24
    assert s["h6"].font_size == pytest.approx(16 * 0.67)
    assert s["p"].font_size == 16 and not s["p"].bold and s["p"].font_weight == 400
    assert s["b"].bold and s["strong"].font_weight == 700
    assert s["em"].italic and not s["p"].italic
    assert s["small"].font_size == pytest.approx(16 / 1.2)
    assert s["code"].font_family == "monospace"
    assert s["code"].font_size == 13  # browsers' monospace default size
    assert s["a"].color == "#0000ee" and s["span"].color == "#000000"
    assert s["span"].display == "inline" and s["p"].font_family == "serif"
    assert s["th"].bold and s["th"].display == "table-cell" and not s["td"].bold
    assert s["li"].display == "list-item"
    assert s["hidden"].display == "none" and not s["hidden"].visible


def test_options_are_blocks() -> None:
    """Chrome's html.css: option { display: block } (getComputedStyle on a saved TV news site's
    selects said block for every option; we said inline)."""
    s = styles('<select id="select"><optgroup id="group" label="g"><option id="option">a</option>'
               '</optgroup></select>')
    assert s["option"].display == "block" and s["group"].display == "block"
    assert s["select"].display == "inline-block"


def test_ids_and_classes_describe_elements_only_where_some_rule_reads_them() -> None:
    body = ('<div class="a" id="d1"><p class="lead" id="p1">x</p></div>'
            '<div class="b" id="d2"><p class="other" id="p2">y</p></div>')

    def resolve(*css: str) -> tuple[StyleResolver, dict[str, ComputedStyle]]:
        root = lxml.html.document_fromstring(f"{STANDARDS}<html><body>{body}</body></html>")
        resolver = StyleResolver(root, [parse_stylesheet(text) for text in css], style_elements=False)
        return resolver, {el.get("id"): resolver.style(el) for el in root.iter() if el.get("id")}

    # the user-agent sheet alone reads no id or class: elements differing only by them share states
    alone, plain = resolve()
    assert not alone._index.space.reads_names
    assert plain["p1"] is plain["p2"] and plain["p1"].font_size == 16
    # a class, an id, or an attribute test on either, and they describe elements again
    for css, sized in ((".a .lead { font-size: 30px }", "p1"), ("#p2 { font-size: 30px }", "p2"),
                       ('[class^="oth"] { font-size: 30px }', "p2"), ('div[id$="1"] p { font-size: 30px }', "p1")):
        resolver, found = resolve(css)
        assert resolver._index.space.reads_names, css
        assert found[sized].font_size == 30 and {found["p1"].font_size, found["p2"].font_size} == {16, 30}, css
    # and the user-agent-only resolver made first still answers by tag alone
    assert resolve()[1]["p1"].font_size == 16


def test_head_and_script_are_not_displayed() -> None:
    root = lxml.html.document_fromstring("<html><head><title>x</title></head><body><script>1"
                                         "</script><p>y</p></body></html>")
    resolver = StyleResolver(root)
    assert not resolver.style(root.find(".//title")).visible
    assert not resolver.style(root.find(".//script")).visible
    assert resolver.style(root.find(".//p")).visible


# --- font-size units ---------------------------------------------------------------------------
@pytest.mark.parametrize(("value", "expected"), [
    ("20px", 20), ("12pt", 16), ("1.5em", 30), ("150%", 30), ("2rem", 32), ("small", 13),
    ("x-large", 24), ("larger", 24), ("smaller", 20 / 1.2), ("calc(1em + 2px)", 22),
    ("calc(100% - 4px)", 16), ("clamp(10px, 2vw, 40px)", 27.32), ("max(1rem, 30px)", 30),
    ("min(1rem, 30px)", 16), ("1.25vw", 17.075), ("inherit", 20), ("initial", 16),
    ("0.5in", 48), ("-3px", 20),
])
def test_font_size_units(value: str, expected: float) -> None:
    style = one('<div id="p"><span id="t">x</span></div>',
                f"div {{ font-size: 20px }} span {{ font-size: {value} }}")
    assert style.font_size == pytest.approx(expected, abs=0.01)


def test_rem_uses_the_root_font_size() -> None:
    assert one('<p id="t">x</p>', "html { font-size: 10px } p { font-size: 1.6rem }"
               ).font_size == pytest.approx(16)
    assert one('<p id="t">x</p>', "html { font-size: 62.5% } p { font-size: 2rem }"
               ).font_size == pytest.approx(20)


def test_em_chains_through_ancestors() -> None:
    s = styles('<div id="a"><div id="b"><p id="c">x</p></div></div>',
               "#a { font-size: 10px } #b { font-size: 2em } #c { font-size: 1.5em }")
    assert (s["a"].font_size, s["b"].font_size, s["c"].font_size) == (10, 20, 30)


@pytest.mark.parametrize("value", ["calc(1e308px * 1e308)", "1e400px", "calc(1e308px + 1e308px)",
                                   "calc(1e308px * 1e308 - 1e308px * 1e308)"])
def test_an_overflowing_font_size_is_clamped_and_finite(value: str) -> None:
    from newscrawl.css.cascade import MAX_FONT_SIZE

    size = one('<p id="t">x</p>', f"p {{ font-size: {value} }}").font_size
    assert 0 <= size <= MAX_FONT_SIZE and size == size  # not NaN


def test_nested_em_sizes_stop_at_the_clamp() -> None:
    from newscrawl.css.cascade import MAX_FONT_SIZE

    body = "<div>" * 30 + '<span id="t">x</span>' + "</div>" * 30  # 16px * 2**30
    assert one(body, "div { font-size: 2em }").font_size == MAX_FONT_SIZE


def test_unitless_lengths_only_in_quirks_mode() -> None:
    css = "p { font-size: 14px } p { font-size: 20 }"
    assert one('<p id="t">x</p>', css).font_size == 14  # standards mode drops "20"
    assert one('<p id="t">x</p>', css, doctype="").font_size == 20  # quirks mode: 20px


def test_quirks_mode_tables_do_not_inherit_font() -> None:
    body = '<div style="font-size: 30px; font-weight: bold"><table><tr><td id="t">x</td></tr>' \
           '</table></div>'
    assert one(body).font_size == 30
    quirky = one(body, doctype="")
    assert quirky.font_size == 16 and not quirky.bold


# --- font-weight, style, family ------------------------------------------------------------------
@pytest.mark.parametrize(("parent", "value", "expected"), [
    ("400", "bold", 700), ("400", "bolder", 700), ("700", "bolder", 900), ("300", "bolder", 400),
    ("700", "lighter", 400), ("900", "lighter", 700), ("400", "600", 600), ("400", "550", 600),
    ("400", "normal", 400), ("700", "inherit", 700), ("700", "initial", 400),
    ("400", "1200", 400),
])
def test_font_weight(parent: str, value: str, expected: int) -> None:
    style = one('<div><span id="t">x</span></div>',
                f"div {{ font-weight: {parent} }} span {{ font-weight: {value} }}")
    assert style.font_weight == expected
    assert style.bold == (expected >= 600)


def test_font_style() -> None:
    s = styles('<p id="a">x <em id="b">y</em> <i id="c" style="font-style: normal">z</i></p>',
               "p { font-style: oblique }")
    assert s["a"].italic and s["b"].italic and not s["c"].italic


@pytest.mark.parametrize(("family", "category"), [
    ('Georgia, "Times New Roman", serif', "serif"), ("Helvetica Neue, Arial", "sans-serif"),
    ("'Roboto Slab', serif", "serif"), ("Menlo, Consolas, monospace", "monospace"),
    ("SomeWebFont, sans-serif", "sans-serif"), ("Comic Sans MS", "sans-serif"),
    ("Papyrus", "other"), ("system-ui, -apple-system", "sans-serif"),
    ("cursive", "other"), ("'Merriweather'", "serif"),
])
def test_font_family_normalisation(family: str, category: str) -> None:
    assert one('<p id="t">x</p>', f"p {{ font-family: {family} }}").font_family == category


def test_font_shorthand() -> None:
    s = styles('<p id="a">x</p><p id="b">y</p><p id="c">z</p>',
               "p { font-weight: 900; font-style: italic }"
               "#a { font: bold 20px/1.5 Georgia, serif }"
               "#b { font: italic 600 1.5em Arial, sans-serif }"
               "#c { font: 12px monospace }")
    assert (s["a"].font_size, s["a"].font_weight, s["a"].font_family) == (20, 700, "serif")
    assert not s["a"].italic  # the shorthand resets font-style
    assert (s["b"].font_size, s["b"].font_weight, s["b"].italic) == (24, 600, True)
    assert (s["c"].font_size, s["c"].font_weight, s["c"].font_family) == (12, 400, "monospace")


# --- colour --------------------------------------------------------------------------------------
@pytest.mark.parametrize(("value", "expected"), [
    ("red", "#ff0000"), ("RebeccaPurple", "#663399"), ("#abc", "#aabbcc"),
    ("#A1B2C3", "#a1b2c3"), ("#11223380", "#11223380"), ("rgb(1, 2, 3)", "#010203"),
    ("rgb(100% 0% 0%)", "#ff0000"), ("rgba(0, 0, 255, 0.5)", "#0000ff80"),
    ("rgb(0 128 0 / 50%)", "#00800080"), ("hsl(120, 100%, 25%)", "#008000"),
    ("hsla(0, 100%, 50%, 1)", "#ff0000"), ("transparent", "#00000000"),
    ("currentcolor", "#123456"), ("inherit", "#123456"), ("initial", "#000000"),
    ("nonsense", "#123456"), ("#12", "#123456"),
])
def test_colour_forms(value: str, expected: str) -> None:
    style = one('<div><span id="t">x</span></div>',
                f"div {{ color: #123456 }} span {{ color: {value} }}")
    assert style.color == expected


# --- display and visibility ----------------------------------------------------------------------
def test_display_and_visibility() -> None:
    s = styles('<div id="a"><p id="b">x</p></div><div id="c" style="visibility: hidden">'
               '<span id="d">y</span><span id="e" style="visibility: visible">z</span></div>'
               '<span id="f">w</span><ul id="g"><li id="h">v</li></ul>',
               "#a { display: none } #f { display: inline-block } #g { display: flex }"
               " #h { display: inline }")
    assert s["a"].display == "none" and not s["a"].visible
    assert s["b"].display == "block" and not s["b"].visible  # hidden by an ancestor
    assert not s["c"].visible and not s["d"].visible and s["e"].visible  # visibility inherits
    assert s["f"].display == "inline-block" and s["f"].visible
    assert s["h"].display == "block"  # flex items are blockified


def test_display_is_not_inherited_and_floats_blockify() -> None:
    s = styles('<div id="a"><span id="b">x</span><span id="c">y</span></div>',
               "#a { display: inline } #c { float: left } #b { display: inherit }")
    assert s["b"].display == "inline" and s["c"].display == "block"


def test_visibility_collapse_hides() -> None:
    assert not one('<p id="t">x</p>', "p { visibility: collapse }").visible


# --- cascade order -------------------------------------------------------------------------------
def test_specificity() -> None:
    s = styles('<div id="box" class="c"><p id="t" class="x y">a</p></div>',
               "#t { color: red } p { color: blue } .x.y { color: green }"
               " div p { color: orange } .x { font-size: 30px } p.x { font-size: 40px }"
               " :is(#box) p { font-weight: 300 } .c .x { font-weight: 800 }")
    assert s["t"].color == "#ff0000"
    assert s["t"].font_size == 40
    assert s["t"].font_weight == 300  # :is(#box) counts as an id


def test_source_order_breaks_ties() -> None:
    assert one('<p id="t">x</p>', "p { color: red } p { color: blue }").color == "#0000ff"
    sheets = (parse_stylesheet("p { color: red }", url="http://example.test/a.css"),
              parse_stylesheet("p { color: blue }", url="http://example.test/b.css"))
    # linked in the order b, a: a wins although it was given first
    head = '<link rel="stylesheet" href="/b.css"><link rel="stylesheet" href="a.css">'
    assert one('<p id="t">x</p>', head=head, sheets=sheets).color == "#ff0000"


def test_style_blocks_and_links_follow_document_order() -> None:
    sheet = parse_stylesheet("p { color: red }", url="http://example.test/a.css")
    before = '<style>p { color: blue }</style><link rel="stylesheet" href="/a.css">'
    after = '<link rel="stylesheet" href="/a.css"><style>p { color: blue }</style>'
    assert one('<p id="t">x</p>', head=before, sheets=(sheet,)).color == "#ff0000"
    assert one('<p id="t">x</p>', head=after, sheets=(sheet,)).color == "#0000ff"


def test_important_and_inline() -> None:
    s = styles('<p id="a" class="c" style="color: green">x</p>'
               '<p id="b" class="c" style="color: green">y</p>'
               '<p id="c" class="d" style="color: green !important">z</p>',
               "p { color: red } #b { color: blue !important } .d { color: blue !important }")
    assert s["a"].color == "#008000"  # inline beats any selector
    assert s["b"].color == "#0000ff"  # !important beats inline
    assert s["c"].color == "#008000"  # inline !important beats sheet !important


def test_inheritance() -> None:
    s = styles('<div id="a"><section><p id="b">x <span id="c">y</span></p></section></div>',
               "#a { color: #336699; font-size: 22px; font-weight: bold;"
               " font-family: Arial; display: flex }")
    assert (s["c"].color, s["c"].font_size, s["c"].bold, s["c"].font_family) == (
        "#336699", 22, True, "sans-serif")
    assert s["c"].display == "inline"


# --- quirks of real stylesheets ------------------------------------------------------------------
def test_broken_blocks_recover() -> None:
    css = """
    p { color: red; font-size: }
    garbage here { } #### { color: pink }
    .a { color: blue; font-weight: ; font-size: 20px
    """
    s = styles('<p id="p">x</p><p id="a" class="a">y</p>', css)
    assert s["p"].color == "#ff0000" and s["p"].font_size == 16
    assert s["a"].color == "#0000ff" and s["a"].font_size == 20  # unclosed block at EOF


def test_stray_brace_and_unclosed_comment() -> None:
    s = styles('<p id="p">x</p><h2 id="h">y</h2><em id="e">z</em>',
               "p { color: red } } h2 { color: blue } em { color: green } /* unclosed")
    assert s["p"].color == "#ff0000"
    assert s["h"].color == "#000000"  # the stray brace swallows the next rule, as in browsers
    assert s["e"].color == "#008000"


def test_vendor_hacks_are_ignored_like_browsers() -> None:
    css = ("p { color: blue; *color: red; _color: red; -webkit-text-size-adjust: 100%;"
           " color: red\\9; font-size: 20px !ie; font-weight: bold }"
           " @media \\0screen { p { color: red } }"
           " p { -moz-font-feature-settings: 'liga'; font-family: Georgia, serif }")
    style = one('<p id="t">x</p>', css)
    assert style.color == "#0000ff"
    assert style.font_size == 16 and style.bold and style.font_family == "serif"


def test_wrong_declaration_order_is_dropped() -> None:
    css = "p { font: Arial 12px bold; font-weight: 300 } p { color: !important red }"
    style = one('<p id="t">x</p>', css)
    assert style.font_size == 16 and style.font_weight == 300 and style.color == "#000000"


def test_declaration_order_within_a_rule() -> None:
    assert one('<p id="t">x</p>', "p { font-size: 10px; font: 20px serif }").font_size == 20
    assert one('<p id="t">x</p>', "p { font: 20px serif; font-size: 10px }").font_size == 10


def test_dynamic_pseudo_classes_and_pseudo_elements_do_not_apply() -> None:
    css = ("a:hover { color: red } p::first-line { font-size: 40px } p::before { color: red }"
           " a:focus { font-size: 40px } li:first-child { font-weight: bold }"
           " li:nth-child(2n) { color: green } li + li { font-style: italic }")
    s = styles('<p id="p"><a id="a" href="/">x</a></p><ul><li id="l1">1</li><li id="l2">2</li>'
               '</ul>', css)
    assert s["a"].color == "#0000ee" and s["a"].font_size == 16 and s["p"].font_size == 16
    assert s["l1"].bold and not s["l2"].bold and s["l2"].color == "#008000"
    assert s["l2"].italic and not s["l1"].italic


# --- custom properties ---------------------------------------------------------------------------
def test_custom_properties() -> None:
    css = (":root { --main: #112233; --size: 1.5rem; --both: var(--main) }"
           " .a { --main: #445566 } p { color: var(--main); font-size: var(--size) }"
           " .b { color: var(--missing, red) } .c { color: var(--missing) }"
           " .d { font: var(--w, bold) 30px serif } .e { color: var(--both) }"
           " .f { font-size: calc(var(--size) * 2) }")
    s = styles('<p id="p">x</p><div class="a"><p id="q">y</p></div><p id="b" class="b">z</p>'
               '<div style="color: #00ff00"><p id="c" class="c">w</p></div>'
               '<p id="d" class="d">v</p><p id="e" class="e">u</p><p id="f" class="f">t</p>',
               css)
    assert s["p"].color == "#112233" and s["p"].font_size == 24
    assert s["q"].color == "#445566"
    assert s["b"].color == "#ff0000"  # fallback
    assert s["c"].color == "#00ff00"  # invalid at computed time: inherits
    assert s["d"].bold and s["d"].font_size == 30
    assert s["e"].color == "#112233"
    assert s["f"].font_size == 48


def test_custom_property_cycles_terminate() -> None:
    css = ":root { --a: var(--b); --b: var(--a) } p { color: var(--a, blue) }"
    assert one('<p id="t">x</p>', css).color in ("#0000ff", "#000000")


# --- media queries -------------------------------------------------------------------------------
def test_media_queries_for_a_desktop_viewport() -> None:
    css = ("p { font-size: 10px }"
           " @media (min-width: 1000px) { p { font-size: 20px } }"
           " @media (max-width: 600px) { p { color: red } }"
           " @media print { p { font-weight: bold } }"
           " @media screen and (orientation: landscape) { p { font-style: italic } }"
           " @media (width >= 1400px) { p { display: none } }"
           " @media not print { p { color: blue } }"
           " @media only screen and (min-width: 40em) and (max-width: 2000px) { em { color: green } }"
           " @media (prefers-color-scheme: dark) { em { font-weight: bold } }")
    s = styles('<p id="p">x <em id="e">y</em></p>', css)
    assert s["p"].font_size == 20 and s["p"].color == "#0000ff" and not s["p"].bold
    assert s["p"].italic and s["p"].display == "block"
    assert s["e"].color == "#008000" and not s["e"].bold
    small = styles('<p id="p">x</p>', css, viewport=(500, 800))["p"]
    assert small.font_size == 10 and small.color == "#0000ff" and not small.italic


def test_link_media_and_import_media() -> None:
    screen = parse_stylesheet("p { color: red }", url="http://example.test/s.css")
    printed = parse_stylesheet("p { font-size: 40px }", url="http://example.test/p.css")
    head = ('<link rel="stylesheet" href="/s.css" media="screen">'
            '<link rel="stylesheet" href="/p.css" media="print">'
            '<link rel="alternate stylesheet" href="/x.css">')
    alternate = parse_stylesheet("p { font-weight: bold }", url="http://example.test/x.css")
    style = one('<p id="t">x</p>', head=head, sheets=(screen, printed, alternate))
    assert style.color == "#ff0000" and style.font_size == 16
    assert not style.bold  # named by a link (an alternate one): never applied as unlinked


def test_imports_come_before_the_importing_sheet() -> None:
    main = parse_stylesheet('@import "base.css"; @import url(print.css) print; p { color: blue }',
                            url="http://example.test/css/main.css")
    base = parse_stylesheet("p { color: red; font-size: 30px }",
                            url="http://example.test/css/base.css")
    printed = parse_stylesheet("p { font-weight: bold }", url="http://example.test/css/print.css")
    head = '<link rel="stylesheet" href="/css/main.css">'
    style = one('<p id="t">x</p>', head=head, sheets=(main, base, printed))
    assert style.color == "#0000ff" and style.font_size == 30 and not style.bold


def test_import_cycles_are_safe() -> None:
    a = parse_stylesheet('@import "b.css"; p { color: red }', url="http://example.test/a.css")
    b = parse_stylesheet('@import "a.css"; p { font-size: 30px }', url="http://example.test/b.css")
    style = one('<p id="t">x</p>', head='<link rel="stylesheet" href="/a.css">', sheets=(a, b))
    assert style.color == "#ff0000" and style.font_size == 30


def test_unlinked_sheets_apply_after_the_document() -> None:
    extra = parse_stylesheet("p { color: green }")
    assert one('<p id="t">x</p>', head="<style>p { color: red }</style>",
               sheets=(extra,)).color == "#008000"


def test_base_element_resolves_links() -> None:
    sheet = parse_stylesheet("p { color: red }", url="http://cdn.test/assets/site.css")
    head = '<base href="http://cdn.test/assets/"><link rel="stylesheet" href="site.css">'
    assert one('<p id="t">x</p>', head=head, sheets=(sheet,)).color == "#ff0000"


def test_only_the_first_base_element_counts_and_links_need_a_sheet() -> None:
    # the sheet at the page-relative URL: linked (before the <style>) unless a <base> moves the
    # link elsewhere, and then unlinked (after the document)
    sheet = parse_stylesheet("p { color: red }", url="http://example.test/site.css")
    rest = '<link rel="stylesheet" href="site.css"><style>p { color: blue }</style>'
    elsewhere = '<base href="http://cdn.test/assets/">'
    assert one('<p id="t">x</p>', head=rest, sheets=(sheet,)).color == "#0000ff"
    # the document's first <base>, even after the link, resolves it
    assert one('<p id="t">x</p>', head=rest + elsewhere, sheets=(sheet,)).color == "#ff0000"
    # a first <base> without href leaves the page URL; a later <base> is ignored
    head = '<base target="_top">' + rest + elsewhere
    assert one('<p id="t">x</p>', head=head, sheets=(sheet,)).color == "#0000ff"
    # no sheet given: links name nothing, <style> still applies
    assert one('<p id="t">x</p>', head=rest).color == "#0000ff"


# --- structure -----------------------------------------------------------------------------------
def deep_tree(depth: int, tag: str, leaf: str, **attrs: str) -> lxml.html.HtmlElement:
    """A document nested ``depth`` levels (built directly: libxml2's parser caps nesting)."""
    root = lxml.html.document_fromstring("<!DOCTYPE html><html><body></body></html>")
    parent = root.find("body")
    for _ in range(depth):
        parent = lxml.html.etree.SubElement(parent, tag, **attrs)
    lxml.html.etree.SubElement(parent, leaf).text = "deep"
    return root


def test_deep_documents_do_not_recurse() -> None:
    root = deep_tree(5000, "div", "p", **{"class": "x"})
    sheet = parse_stylesheet(".x { font-size: 20px } .x .x p { color: red } body > div { color: blue }"
                             " div:first-child p { font-weight: bold }")
    resolver = StyleResolver(root, [sheet])
    p = next(root.iter("p"))
    style = resolver.style(p)
    assert style.font_size == 20 and style.color == "#ff0000" and style.bold


def test_memoised_per_element() -> None:
    root = lxml.html.document_fromstring("<html><body><p>x</p></body></html>")
    resolver = StyleResolver(root, [parse_stylesheet("p { color: red }")])
    p = next(root.iter("p"))
    assert resolver.style(p) is resolver.style(p)


def test_backtracking_selectors_stay_cheap() -> None:
    # "p div div ... span" fails everywhere on a deep tree: naive matching is exponential.
    root = deep_tree(300, "div", "span")
    css = "p " + "div " * 12 + "span { color: red } " + "div " * 12 + "span { color: blue }"
    resolver = StyleResolver(root, [parse_stylesheet(css)])
    assert resolver.style(next(root.iter("span"))).color == "#0000ff"


def test_style_texts_are_parsed_once_and_accepted_as_sheets() -> None:
    from newscrawl.css import parse_style_block

    first = parse_style_block("p { color: red }", "http://example.test/")
    assert parse_style_block("p { color: red }", "http://example.test/") is first
    assert one('<p id="t">x</p>', sheets=("p { color: #0a0b0c }",)).color == "#0a0b0c"


def test_child_and_descendant_combinators() -> None:
    css = ("#box > * { display: inline-block } .a > p { font-size: 30px } .a p { font-weight: bold }"
           " .a .b .c { font-style: italic } .b.c { display: inline-block }")
    s = styles('<div id="box" class="a"><p id="child">x</p><div><p id="grand" class="c">y</p>'
               '</div><div class="b"><span id="deep" class="c">z</span></div></div>'
               '<div class="b"><div class="a"><span id="wrong" class="c">w</span></div></div>', css)
    assert s["child"].display == "inline-block" and s["child"].font_size == 30 and s["child"].bold
    assert s["grand"].display == "block" and s["grand"].font_size == 16 and s["grand"].bold
    assert s["deep"].italic and s["deep"].display == "inline"
    assert not s["wrong"].italic  # .a and .b are ancestors, but in the wrong order


def test_class_names_split_on_ascii_whitespace_only() -> None:
    s = styles('<p id="a" class="x\u00a0y">a</p><p id="b" class="x\ty">b</p>', ".y { color: red }")
    assert s["a"].color == "#000000" and s["b"].color == "#ff0000"
