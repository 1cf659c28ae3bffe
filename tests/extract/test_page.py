"""Page: one parse, text nodes in document order, bottom-up measures, clean-up, styles."""

from __future__ import annotations

import pytest

from newscrawl.page import MAX_DEPTH, Page, TextNode, collapse

HTML = """<html><head><title> Hello   world - Site </title>
<style>h1 { font-size: 40px } .big { font-weight: bold }</style>
<script>var x = "<p>not text</p>";</script>
<script type="application/ld+json">{"@type": "NewsArticle"}</script></head>
<body><div id="nav" class="main-nav"><a href="/">Home</a> <a href="/n">News</a></div>
<article><h1>Hello world</h1><!-- a comment -->
<p>Some <b>bold</b> text here. <a href="/x">link</a> end</p>
<p style="display: none">hidden one</p><p hidden>hidden two</p>
<p class="big">Styled</p><noscript>no script text</noscript></article></body></html>"""


def test_text_nodes_in_document_order_with_tails():
    page = Page.from_html(HTML)
    texts = [tn.text for tn in page.text_nodes]
    assert texts == ["Home", "News", "Hello world", "Some", "bold", "text here.", "link", "end", "Styled"]
    assert all(isinstance(tn, TextNode) for tn in page.text_nodes)
    assert [tn.index for tn in page.text_nodes] == list(range(len(texts)))
    tail = page.text_nodes[5]
    assert tail.is_tail and tail.element.tag == "b" and tail.container.tag == "p"


def test_elements_above_text_nodes_each_once_and_only_inside_top():
    page = Page.from_html(HTML)
    texts = [tn.text for tn in page.text_nodes]
    tags = page.tags()
    bold, tail = texts.index("bold"), texts.index("text here.")  # "text here." is <b>'s tail: held by <p>
    above = page.elements_above([bold, tail])
    assert [tags[i] for i in above] == ["b", "p", "article"]  # <b>'s climb, then nothing new for the tail
    article = page.index(page.with_tags("article")[0])
    inside = page.elements_above([texts.index("Home"), bold], top=article)
    assert [tags[i] for i in inside] == ["b", "p"]  # the nav's link and the article itself are not inside


def test_clean_up_removes_scripts_comments_hidden_and_keeps_json_ld():
    page = Page.from_html(HTML)
    joined = " ".join(tn.text for tn in page.text_nodes)
    for gone in ("not text", "hidden one", "hidden two", "no script", "a comment", "font-size"):
        assert gone not in joined
    assert page.json_ld == ['{"@type": "NewsArticle"}']
    assert page.title_text == "Hello world - Site"


def test_measures_bottom_up():
    page = Page.from_html(HTML)
    p = page.root.xpath("//article/p")[0]
    # "Some" + "bold" + "text here." + "link" + "end"
    assert page.text_len(p) == 4 + 4 + 10 + 4 + 3
    assert page.link_text_len(p) == 4
    assert abs(page.link_density(p) - 4 / 25) < 1e-9
    nav = page.root.xpath("//div[@id='nav']")[0]
    assert page.link_density(nav) == 1.0
    assert page.tag_count(page.body, "a") == 3
    assert page.tag_count(p, "b") == 1
    assert page.descendants(p) == 2
    assert page.text(p) == "Some bold text here. link end"
    assert list(page.text_range(p)) == [3, 4, 5, 6, 7]
    assert page.elements[0] is page.body and page.index(page.body) == 0


def test_boilerplate_names_and_hidden_flags():
    page = Page.from_html(HTML)
    nav = page.root.xpath("//div[@id='nav']")[0]
    assert page.is_boilerplate(nav)
    assert not page.is_boilerplate(page.root.xpath("//article")[0])
    hidden = page.root.xpath("//p[@hidden]")[0]
    assert page.is_hidden(hidden) and not page.visible(hidden)


@pytest.mark.parametrize("style, hidden", [
    ("position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0)", True),
    ("clip: rect(1px, 1px, 1px, 1px); position: fixed", True),
    ("position:absolute; clip:rect(0px 0px 0px 0px)", True),
    ("clip-path: inset(50%)", True),
    ("clip:rect(0,0,0,0)", False),  # clip applies to absolutely positioned boxes only
    ("position:absolute; clip:rect(10px, 80px, 40px, 0)", False),  # a crop, not nothing
    ("clip-path: inset(0%)", False),
    ("position:absolute; mask-clip:rect(0,0,0,0)", False),
])
def test_visually_hidden_inline_styles(style, hidden):
    page = Page.from_html(f'<html><body><p id="announcer" style="{style}">The headline again</p>'
                          '<p>Body text that stays.</p></body></html>')
    el = page.root.xpath("//p[@id='announcer']")[0]
    assert page.is_hidden(el) is hidden
    texts = [tn.text for tn in page.text_nodes]
    assert ("The headline again" in texts) is not hidden and "Body text that stays." in texts


@pytest.mark.timeout(30)
def test_visually_hidden_test_is_linear_in_hostile_styles():
    # "rect(0" then a long run of spaces: the edge separator once backtracked quadratically
    spaces = " " * 200_000
    page = Page.from_html(f'<html><body><p style="position:absolute; clip:rect(0{spaces}x">Shown</p>'
                          f'<p style="clip:rect(0,{spaces}0,0,0); position:absolute">Hidden</p></body></html>')
    assert [tn.text for tn in page.text_nodes] == ["Shown"]


def test_styles_from_page_css_and_user_agent_defaults():
    page = Page.from_html(HTML, style_elements=True)
    h1 = page.root.xpath("//h1")[0]
    assert page.style(h1).font_size == 40.0
    assert page.style(h1).bold  # UA default for headings
    big = page.root.xpath("//p[@class='big']")[0]
    assert page.style(big).bold
    plain = page.root.xpath("//article/p")[0]
    assert not page.style(plain).bold and page.style(plain).font_size == 16.0


def test_external_stylesheet_text_applies():
    page = Page.from_html("<html><body><p class=x>Hi</p></body></html>", stylesheets=[".x { font-size: 30px }"])
    assert page.style(page.root.xpath("//p")[0]).font_size == 30.0


STYLED = ('<html><head><style>h1 { font-size: 40px } .gone { display: none }</style></head><body>'
          '<h1 class=x>Title</h1><p class=gone>Hidden by the page</p><p>Shown</p></body></html>')


def _h1_size_and_gone_visible(page: Page) -> tuple[float, bool]:
    return (page.style(page.root.xpath("//h1")[0]).font_size,
            page.style(page.root.xpath("//p[@class='gone']")[0]).visible)


def test_style_elements_left_out_of_a_page_given_alone():
    # inline styles and user-agent defaults only: the h1's UA size, the class rule not applied
    page = Page.from_html(STYLED)
    assert page.style_elements is False
    assert _h1_size_and_gone_visible(page) == (32.0, True)
    assert page.style(page.root.xpath("//p")[0]).display == "block"  # the UA cascade still runs


def test_style_elements_join_external_stylesheets_or_when_asked():
    with_sheet = Page.from_html(STYLED, stylesheets=[".x { color: red }"])
    assert with_sheet.style_elements is True
    assert _h1_size_and_gone_visible(with_sheet) == (40.0, False)
    assert with_sheet.style(with_sheet.root.xpath("//h1")[0]).color == "#ff0000"
    assert _h1_size_and_gone_visible(Page.from_html(STYLED, style_elements=True)) == (40.0, False)
    # and asked away beside a sheet: the sheet alone
    sheet_only = Page.from_html(STYLED, stylesheets=[".x { color: red }"], style_elements=False)
    assert _h1_size_and_gone_visible(sheet_only) == (32.0, True)
    assert sheet_only.style(sheet_only.root.xpath("//h1")[0]).color == "#ff0000"


def test_bytes_are_decoded_with_meta_charset():
    raw = '<html><head><meta charset="windows-1250"></head><body><p>Žluťoučký kůň</p></body></html>'.encode("cp1250")
    page = Page.from_html(raw)
    assert page.text_nodes[0].text == "Žluťoučký kůň"


def test_deep_nesting_is_flattened_with_a_warning():
    page = Page.from_html("<html><body>" + "<div>" * (MAX_DEPTH + 200) + "deep <b>text</b>" + "</div>" * (MAX_DEPTH + 200) + "<p>after</p></body></html>")
    assert [tn.text for tn in page.text_nodes] == ["deep text", "after"]
    assert any("flattened" in w for w in page.warnings)


def test_collapse():
    assert collapse("  a \n\t b  ") == "a b"


def test_fetched_stylesheets_keep_their_place_before_later_style_blocks():
    """A sheet linked with a relative href comes before a later <style> block in the cascade."""
    from newscrawl.css import parse_stylesheet
    from newscrawl.page import Page

    html = ('<html><head><link rel="stylesheet" href="/css/site.css">'
            '<style>p.lead { color: #00ff00 }</style></head>'
            '<body><p class="lead">Some text</p></body></html>')
    sheet = parse_stylesheet("p.lead { color: #ff0000 }", url="https://news.example.com/css/site.css")
    page = Page.from_html(html, "https://news.example.com/2025/01/02/a/", stylesheets=[sheet])
    lead = page.root.find(".//p")
    assert page.style(lead).color == "#00ff00"


def test_structure_arrays_match_the_tree():
    page = Page.from_html(HTML)
    parent, depth, descendants = page.structure()
    tags = page.tags()
    assert len(parent) == len(depth) == len(descendants) == len(tags) == len(page.elements)
    assert parent[0] == -1 and depth[0] == 0 and tags[0] == "body"
    for i, el in enumerate(page.elements[1:], start=1):
        assert page.elements[parent[i]] is el.getparent()
        assert depth[i] == depth[parent[i]] + 1
        assert descendants[i] == sum(1 for _ in el.iterdescendants())
        assert tags[i] == el.tag
    assert page.tag_count(page.body, "p") == tags.count("p")


def test_measure_arrays_match_the_per_element_measures():
    page = Page.from_html(HTML)
    text_len, link_len, first_tn, end_tn = page.measures()
    hidden = page.hidden_flags()
    assert sum(hidden) == 2  # the two hidden paragraphs
    for i, el in enumerate(page.elements):
        assert text_len[i] == page.text_len(el) == sum(len(page.text_nodes[k].text) for k in page.text_range(el))
        assert link_len[i] == page.link_text_len(el)
        assert range(first_tn[i], end_tn[i]) == page.text_range(el)
        assert hidden[i] == page.is_hidden(el)
    owners = page.text_owners()
    assert len(owners) == len(page.text_nodes)
    for tn, owner in zip(page.text_nodes, owners):
        assert page.elements[owner] is tn.element
        # a text node is the text of a shown element, or the tail of an element under a shown parent
        assert not hidden[page.structure()[0][owner] if tn.is_tail else owner]


def test_xhtml_with_an_xml_declaration_is_parsed():
    """lxml refuses decoded text that starts with <?xml ... encoding=...?>; the page must still parse."""
    xhtml = ('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" '
             '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n<html xmlns="http://www.w3.org/1999/xhtml">'
             '<head><title>Über uns</title></head><body><p>Grüße aus der Stadt</p></body></html>')
    for html in (xhtml, xhtml.encode("utf-8"), "\ufeff" + xhtml):
        page = Page.from_html(html)
        assert [tn.text for tn in page.text_nodes] == ["Grüße aus der Stadt"]
        assert page.title_text == "Über uns"
        assert not any("unparsable" in w for w in page.warnings)


@pytest.mark.parametrize("close", ["</body></html>", "</body>", "</BODY></HTML>", "</body></html><body>"])
def test_text_after_an_early_end_of_the_document_is_in_the_body(close):
    """Templates that close the page after its header and then print the article: browsers put what
    follows an early </body> or </html> into the body; libxml2 left it outside (a sibling of <body>,
    or a second <html>) and the Page, which reads the body, lost it."""
    story = "".join(f"<p>Paragraph {i} of the story that the template printed after closing the page.</p>"
                    for i in range(3))
    html = (f"<html><head><title>T</title></head><body><header><a href=/>Home</a></header>{close}\n"
            f"<div class=post><h1>Headline</h1>{story}</div>\n<footer>Contact</footer></body></html>\n")
    page = Page.from_html(html)
    assert [tn.text for tn in page.text_nodes] == (
        ["Home", "Headline"] + [f"Paragraph {i} of the story that the template printed after closing the page."
                                for i in range(3)] + ["Contact"])
    assert page.title_text == "T"


def test_noscript_is_dropped_unless_it_holds_the_page():
    """Script-rendered pages put their whole text in <noscript> for clients without scripts."""
    posts = "".join(f"<div class=post><p>Reply {i}: the firmware update fixed the crash for me as well.</p></div>"
                    for i in range(8))
    shell = Page.from_html(f"<html><body><div id=app></div><noscript><h1>Topic</h1>{posts}</noscript></body></html>")
    texts = [tn.text for tn in shell.text_nodes]
    assert texts[0] == "Topic" and len(texts) == 9
    article = "<p>" + "A long visible paragraph of the article itself. " * 10 + "</p>"
    normal = Page.from_html(f"<html><body>{article}<noscript><p>Please enable JavaScript to use "
                            f"all features of this site and see the comments.</p>{posts}</noscript></body></html>")
    assert [tn.text for tn in normal.text_nodes] == [collapse(article[3:-4])]


def test_mathml_is_text_but_its_tex_annotation_is_not():
    page = Page.from_html("<html><body><p>Energy is <math><semantics><mrow><mi>E</mi><mo>=</mo><mi>m</mi>"
                          "<msup><mi>c</mi><mn>2</mn></msup></mrow><annotation encoding='application/x-tex'>"
                          "E=mc^2</annotation></semantics></math> here.</p></body></html>")
    assert [tn.text for tn in page.text_nodes] == ["Energy is", "E", "=", "m", "c", "2", "here."]


def test_body_and_title_are_the_first_in_document_order_as_the_tree_queries_find_them():
    """Page looks for the body and the title child by child (a whole-tree query walks every element);
    it must find what ``//body`` and ``.//title`` find, wherever the parser put them."""
    from lxml import etree, html as lxml_html

    from newscrawl.page import _first

    cases = ["<html><head><title>A</title></head><body><p>x</p><title>B</title></body></html>",
             "<html><head></head><body><svg><title>no</title></svg><p>x</p><title>B</title></body></html>",
             "<html><frameset><frame src='a'><noframes><body><p>text</p></body></noframes></frameset></html>",
             "<html><head><title>A</title></head></html>", "<p>only text", ""]
    for html in cases:
        root = etree.fromstring(html or "<html/>", lxml_html.HTMLParser())
        bodies = root.xpath("//body")
        assert _first(root, "body", with_root=True) is (bodies[0] if bodies else None)
        assert _first(root, "title", with_root=False) is root.find(".//title")
        page = Page(root, None)
        assert page.body is (bodies[0] if bodies else root)
    built = lxml_html.Element("html")  # a body nested before the root's own (a tree built by hand)
    nested = etree.SubElement(etree.SubElement(built, "div"), "body")
    etree.SubElement(built, "body")
    assert _first(built, "body", with_root=True) is nested is built.xpath("//body")[0]
    body = etree.fromstring("<body><p>x</p></body>", etree.XMLParser())
    assert _first(body, "body", with_root=True) is body and _first(body, "body", with_root=False) is None


def test_comments_and_processing_instructions_go_and_their_tails_stay():
    page = Page.from_html("<html><body><p>one<!-- c1 -->two</p><?pi x?>three<template><!--in-->t</template>"
                          "<div><!--a--><!--b-->four</div></body></html>")
    assert not [n for n in page.root.iter() if not isinstance(n.tag, str)]
    assert [tn.text for tn in page.text_nodes] == ["onetwo", "three", "four"]


def test_body_text_is_the_text_of_the_body_joined_once():
    page = Page.from_html("<html><body><p>One <b>two</b></p> three<div hidden>no</div><p>four</p></body></html>")
    assert page.body_text == page.text(page.body) == "One two three four"
    assert page.body_text is page.body_text


def test_text_node_container_is_the_owner_or_the_parent_of_a_tail():
    page = Page.from_html("<html><body>lead<div><p>One <b>two</b> three</p>tail<span>x</span>end</div> after</body></html>")
    assert len(page.text_nodes) == 8
    for tn in page.text_nodes:
        assert tn.container is (tn.element.getparent() if tn.is_tail else tn.element)


def test_text_offsets_are_the_prefix_sums_of_the_text_node_lengths():
    page = Page.from_html("<html><body><p>One <b>two</b> three</p><div hidden>gone</div><ul><li>four five</li>"
                          "</ul>six</body></html>")
    lengths = [len(tn.text) for tn in page.text_nodes]
    assert page.text_offsets == [sum(lengths[:k]) for k in range(len(lengths) + 1)]
    assert page.text_offsets[-1] == page.text_len(page.body) == len("Onetwothreefour fivesix")
    assert page.text_offsets is page.text_offsets


def test_split_chars_counts_the_nodes_before_a_point_and_all_of_them():
    page = Page.from_html(HTML)
    size = [len(tn.text) for tn in page.text_nodes]
    nodes = [0, 2, 3, 5, 8]
    for at in range(-1, len(size) + 2):
        before = sum(size[k] for k in nodes if k < at)
        assert page.split_chars(nodes, at) == (before, sum(size[k] for k in nodes))
    assert page.split_chars([], 3) == (0, 0)


def test_element_cap_applies_and_the_skipped_count_is_bounded_by_the_tags(monkeypatch):
    import random

    import newscrawl.page as page_module
    from newscrawl.page import _parse

    monkeypatch.setattr(page_module, "MAX_ELEMENTS", 60)
    page = Page.from_html("<html><body>" + "<p>x</p>" * 200 + "</body></html>")
    assert len(list(page.root.iter())) <= 60 and "document cut after 60 elements" in page.warnings
    small = Page.from_html("<html><body>" + "<p>x</p>" * 20 + "</body></html>")
    assert not [w for w in small.warnings if "cut after" in w] and len(small.elements) == 21
    # what lets _limit_tree skip the tree count: libxml2 makes at most 2 elements per "<" plus 4
    rng = random.Random(3)
    pieces = ["<", ">", "/", "p", "a", "td", "tr", "li", "html", "head", "body", "br", " ", "x", "<!--", "-->", "&amp;"]
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 60)))
        assert int(_parse(text, []).xpath("count(//*)")) <= 2 * text.count("<") + 4, text


def test_enclosing_finds_the_nearest_tagged_ancestor_below_the_stop():
    from newscrawl.page import enclosing

    page = Page.from_html("<html><body><div id=d><table><tr><td><a href=/x><b>bold</b></a></td></tr></table></div>"
                          "</body></html>")
    bold = page.root.xpath("//b")[0]
    stop = page.root.xpath("//div")[0]
    assert enclosing(bold, "a", stop).tag == "a"
    assert enclosing(bold, "table", stop).tag == "table"
    assert enclosing(bold, "b", stop) is bold  # the element itself counts
    assert enclosing(bold, "div", stop) is None  # the stop is not below itself
    assert enclosing(bold, "table", bold.getparent().getparent()) is None  # the stop cuts the walk


def test_names_are_id_and_class_read_once():
    """Page.names gives "id class" of any element (body or above), the same on every call, and
    is_boilerplate reads it."""
    page = Page.from_html("<html class='root'><body id='b'><div id='x' class='nav bar'>a</div><p>b</p>"
                          "<section class='content'>c</section></body></html>")
    for el in list(page.root.iter()):
        assert page.names(el) == (el.get("id") or "") + " " + (el.get("class") or "")
        assert page.names(el) is page.names(el)
    assert [page.is_boilerplate(el) for el in page.elements] == [False, True, False, False]


# --- React streaming: segments sent hidden after the shell are moved where their scripts put them ----
def _streamed(shell: str, tail: str) -> list[str]:
    page = Page.from_html(f"<html><head><title>T</title></head><body>{shell}{tail}</body></html>")
    return [tn.text for tn in page.text_nodes]


def test_a_completed_boundary_gets_its_segment_at_its_template():
    # the fallback skeleton stays (the comment that ends it is gone with the parser's comments)
    shell = ('<h1>Head</h1><!--$?--><template id="B:0"></template><div>Loading...</div><!--/$-->'
             "<p>Footer</p>")
    tail = '<div hidden id="S:0"><p>First paragraph</p><p>Second</p></div><script>$RC("B:0","S:0")</script>'
    assert _streamed(shell, tail) == ["Head", "First paragraph", "Second", "Loading...", "Footer"]


def test_the_completing_call_decides_which_boundary_a_segment_fills():
    shell = ('<!--$?--><template id="B:0"></template><!--/$--><p>Middle</p>'
             '<!--$?--><template id="B:1"></template><!--/$-->')
    tail = ('<div hidden id="S:0"><p>Goes last</p></div><div hidden id="S:1"><p>Goes first</p></div>'
            '<script>$RC("B:1","S:0");$RC("B:0","S:1")</script>')
    assert _streamed(shell, tail) == ["Goes first", "Middle", "Goes last"]


def test_a_segment_fills_its_placeholder_and_one_without_target_is_shown_where_it_is():
    shell = '<p>Before</p><template id="P:2"></template><p>After</p>'
    tail = ('<div hidden id="S:2"><p>Placed</p></div>tail text'
            '<div hidden id="S:7"><p>Orphan</p></div>')
    assert _streamed(shell, tail) == ["Before", "Placed", "After", "tail text", "Orphan"]


def test_saved_pages_without_the_scripts_pair_boundaries_and_segments_by_number():
    shell = '<template id="B:a"></template><div>Loading paragraph</div><p>Shell end</p>'
    tail = '<div hidden id="S:a"><p>The paragraph</p></div>'
    assert _streamed(shell, tail) == ["The paragraph", "Loading paragraph", "Shell end"]


def test_other_hidden_divs_and_self_nesting_stay_safe():
    # an ordinary hidden div stays hidden; a segment whose placeholder sits inside itself is just shown
    shell = '<div hidden id="S-note"><p>Secret</p></div>'
    tail = '<div hidden id="S:3"><p>Own</p><template id="P:3"></template></div>'
    assert _streamed(shell, tail) == ["Own"]


def test_text_nodes_skip_exactly_the_texts_that_collapse_to_nothing() -> None:
    # _measure skips texts and tails that are whitespace (str.isspace) without collapsing them: the
    # text nodes are those a collapse of every .text and .tail gives, for every kind of Unicode
    # whitespace, and for characters that look blank but are not whitespace (ZWSP, U+FEFF)
    import random

    from lxml import etree

    rng = random.Random(4)
    blanks = [" ", "\t", "\n", "\r", "\x0c", "\x0b", "\x1c", "\x1f", "\x85", "\u00a0", "\u1680", "\u2003",
              "\u2028", "\u3000", "\u200b", "\ufeff"]
    pieces = blanks * 3 + ["a", "word", "\u00e9"]
    for _ in range(300):
        parts = []
        for _k in range(rng.randint(1, 8)):
            tag = rng.choice(["p", "span", "b", "div"])
            text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 4)))
            tail = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 4)))
            parts.append(f"<{tag}>{text}</{tag}>{tail}")
        page = Page.from_html("<html><body><div>" + "".join(parts) + "</div></body></html>")
        expected = []
        for event, el in etree.iterwalk(page.body, events=("start", "end")):
            raw = el.text if event == "start" else (el.tail if el is not page.body else None)
            if collapse(raw or ""):
                expected.append((collapse(raw), event == "end"))
        assert [(tn.text, tn.is_tail) for tn in page.text_nodes] == expected
        assert page.text_len(page.body) == sum(len(t) for t, _tail in expected)


def test_text_and_link_lengths_follow_the_tree_on_random_pages() -> None:
    # text_len and link_len (read from the text nodes' prefix sums and summed along links) against
    # their definition on the tree, bottom-up: an element's collapsed text, its shown children's
    # lengths and its children's tails (none inside a hidden element); an <a> links all of its text
    import random

    rng = random.Random(9)
    words = ["alpha", "be ta", " ", "\u00a0", "", "gamma delta", "\n"]
    opens = ["<div>", "<p>", "<a href='x'>", "<span>", "<div hidden>", "<b style='display:none'>",
             "<a href='y' hidden>", "<em>", "<style>.x{}</style>"]
    for _ in range(200):
        html, stack = [], []
        for _k in range(rng.randint(1, 40)):
            if stack and rng.random() < 0.35:
                html.append(f"</{stack.pop()}>")
            elif rng.random() < 0.6:
                piece = rng.choice(opens)
                html.append(piece)
                if not piece.endswith("</style>"):
                    stack.append(piece[1:].split(">")[0].split()[0])
            html.append(rng.choice(words))
        page = Page.from_html("<html><body>" + "".join(html) + "</body></html>")
        text_len, link_len = {}, {}
        for el in reversed(page.elements):  # children before parents
            if page.is_hidden(el):
                text_len[el] = link_len[el] = 0
                continue
            n = len(collapse(el.text or ""))
            links = 0
            for child in el:
                if child in text_len:
                    n += text_len[child] + len(collapse(child.tail or ""))
                    links += link_len[child]
            text_len[el] = n
            link_len[el] = n if el.tag == "a" else links
        assert [page.text_len(el) for el in page.elements] == [text_len[el] for el in page.elements]
        assert [page.link_text_len(el) for el in page.elements] == [link_len[el] for el in page.elements]
        lengths = [len(tn.text) for tn in page.text_nodes]
        assert page.text_offsets == [sum(lengths[:k]) for k in range(len(lengths) + 1)]
