"""Finding stylesheet references in HTML text without a DOM (the middleware's first step)."""

from __future__ import annotations

from newscrawl.css.links import style_sources


def test_links_and_styles_in_document_order() -> None:
    html = ("<html><head><!-- <link rel=stylesheet href=commented.css> -->"
            "<link rel=\"stylesheet\" href=\"a.css?x=1&amp;y=2\" media='screen'>"
            "<script>var s = '<link rel=stylesheet href=js.css><style>p{}</style>';</script>"
            "<STYLE type=text/css>@import \"b.css\";</STYLE><link rel=stylesheet href=c.css />"
            "<link rel=preload as=style href=d.css></head><body><style>p { color: red }")
    sources = style_sources(html)
    assert [(s.kind, s.attrs.get("href"), s.text) for s in sources] == [
        ("link", "a.css?x=1&y=2", ""), ("style", None, '@import "b.css";'),
        ("link", "c.css", ""), ("link", "d.css", ""), ("style", None, "p { color: red }")]
    assert sources[0].attrs["media"] == "screen" and sources[1].attrs["type"] == "text/css"


def test_huge_pages_are_scanned_without_a_tree() -> None:
    html = "<html><head><link rel=stylesheet href=a.css></head><body>" + "<div>" * 200_000 + \
        "x" + "</div>" * 200_000 + "<style>p{}</style></body></html>"
    assert [s.kind for s in style_sources(html)] == ["link", "style"]
