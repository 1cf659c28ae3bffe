"""The skeleton built from a Page's element list, read lazily, is the tree walk's skeleton."""

from __future__ import annotations

from lxml import html

from newscrawl.page import Page
from newscrawl.template import Template, detect_template
from newscrawl.template.etdm import PageSkeleton, Skeleton

from .test_detect import SECTIONS, page

FIELDS = ("elements", "tag", "id", "classes", "attrs", "attr_names", "text", "nchild", "index", "nsib", "parent",
          "children", "sig")
# skipped subtrees the Page keeps (style, math, object), text split around them and comments,
# attributes of every kind, and empty, whitespace-only and nested elements
ODD = """<html><head><title>t</title></head><body class="home  page" data-x="1">
<div id=" main " class="wrap">lead <style>p { color: red }</style>after style<!-- c -->tail of comment
<math><mi>x</mi></math> after math <object data="a.swf"><p>fallback</p></object>after object
<p hidden>hidden <b>bold</b> tail</p><ul><li class="a b">one</li><li class="b a">two</li><li></li></ul>
<section aria-label="s"><div><div><span style="display:none">gone</span></div></div></section></div>
<footer id="f"><p>Copyright</p>   </footer></body></html>"""


def _read_all(sk: PageSkeleton) -> PageSkeleton:
    for i in range(len(sk)):
        if sk.sig[i] is None:
            sk._read(i)
    return sk


def test_page_skeleton_is_the_walked_skeleton() -> None:
    sources = [ODD] + [page(kind, name, seed) for seed, (kind, name) in
                       enumerate([("article", "a"), ("section", "sports"), ("article", "b")])]
    for source in sources:
        parsed = Page.from_html(source, "https://example.com/x/")
        walked = Skeleton.from_element(parsed.body)
        built = _read_all(PageSkeleton.from_page(parsed))
        for name in FIELDS:
            assert getattr(built, name) == getattr(walked, name), name
        assert [built.size(i) for i in range(len(built))] == [walked.size(i) for i in range(len(walked))]
        assert built.shapes() == walked.shapes()
    odd = Skeleton.from_element(Page.from_html(ODD).body)
    assert "style" not in odd.tag and "math" not in odd.tag and "object" not in odd.tag and "p" in odd.tag


def test_matching_a_page_reads_part_of_it_and_marks_the_same_nodes() -> None:
    """Also: a template that remembers equality probabilities across pages maps as a fresh one."""
    template = detect_template(html.document_fromstring(page("article", "a", 1)),
                               [html.document_fromstring(page("article", "b", s)) for s in (2, 3, 4)])
    section_template = detect_template(html.document_fromstring(page("section", "sports", 5)),
                                       [html.document_fromstring(page("section", s, 6 + k))
                                        for k, s in enumerate(SECTIONS[:3])])
    for seed in range(20, 26):
        source = page("article" if seed % 2 else "section", SECTIONS[seed % 5], seed)
        parsed = Page.from_html(source)
        lazy, marked = template.match(parsed)
        assert isinstance(lazy, PageSkeleton)
        # a fresh copy of the template, without the equalities the first one remembers from earlier pages
        walked, expected = Template.from_dict(template.to_dict()).match(html.document_fromstring(source))
        assert marked == expected and len(marked) > 10
        assert [walked.elements[i].sourceline for i in sorted(expected)] == \
            [lazy.elements[i].sourceline for i in sorted(marked)]
        assert any(sig is None for sig in lazy.sig)  # the article's paragraphs were never read
        assert template.skeleton().equalities(template.params)  # remembered, not only computed
        # a second template on the same page reuses its skeleton (the nodes read stay read)
        again, second = section_template.match(parsed, lazy)
        assert again is lazy
        assert second == section_template.match(html.document_fromstring(source))[1]


def test_removed_texts_are_the_elements_text_content() -> None:
    from newscrawl.template.extraction import _add_texts

    def by_xpath(top: object) -> tuple[set[str], int]:
        els = [el for el in top.iter() if isinstance(el.tag, str)]  # type: ignore[attr-defined]
        return {t for el in els if (t := " ".join(el.text_content().split()))}, len(els)

    # a Page's tree (elements only) and a raw parse that keeps comments and processing instructions
    for top in (Page.from_html(ODD).body, html.document_fromstring(ODD).find("body"),
                html.fromstring("<div>a<!--x-->b<?pi y?><p>c<b>d</b>e</p>f</div>")):
        texts: set[str] = set()
        count = _add_texts(top, texts)
        assert (texts, count) == by_xpath(top) and count > 1
