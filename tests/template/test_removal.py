"""Template removal after extraction: which body lines go (filter_lines), and the Page left (strip_page)."""

from __future__ import annotations

from newscrawl.template.extraction import filter_lines

TEMPLATE = {"Related stories", "Subscribe to our newsletter", "These docs are old", "Condition:"}


def test_trailing_template_lines_go() -> None:
    body = "Council votes on the water plan\nThe vote was close.\nRelated stories\nSubscribe to our  newsletter"
    assert filter_lines(body, TEMPLATE) == ("Council votes on the water plan\nThe vote was close.", 2)


def test_template_lines_inside_the_article_stay() -> None:
    body = "These docs are old\nHooks let you use state.\nCondition:\nUsed, like new\nRelated stories"
    assert filter_lines(body, TEMPLATE) == ("These docs are old\nHooks let you use state.\nCondition:\nUsed, like new", 1)


def test_a_body_that_is_all_template_becomes_none() -> None:
    assert filter_lines("Related stories\nCondition:", TEMPLATE) == (None, 2)
    assert filter_lines(None, TEMPLATE) == (None, 0)


def test_the_stripped_page_keeps_the_style_elements_choice() -> None:
    from lxml import html

    from newscrawl.page import Page
    from newscrawl.template import detect_template
    from newscrawl.template.extraction import strip_page

    from .test_detect import page

    template = detect_template(html.document_fromstring(page("article", "a", 1)),
                               [html.document_fromstring(page("article", "b", s)) for s in (2, 3, 4)])
    styled = page("article", "c", 77).replace("</head>", "<style>h1 { font-size: 50px }</style></head>")
    for asked, size in ((None, 32.0), (True, 50.0)):
        stripped = strip_page(Page.from_html(styled, style_elements=asked), template)
        assert stripped.removed > 10 and stripped.page.style_elements is bool(asked)
        assert stripped.page.style(stripped.page.root.xpath("//h1")[0]).font_size == size
