"""Memos keyed by page text: long texts are computed each time and never held."""

from __future__ import annotations

from newscrawl.textcache import MAX_KEY_CHARS, text_cache


def test_short_texts_are_remembered_and_long_ones_bypass_the_memo() -> None:
    calls: list[str] = []

    @text_cache(16)
    def length(text: str | None) -> int:
        calls.append(text or "")
        return len(text or "")

    assert length("abc") == length("abc") == 3 and len(calls) == 1
    long = "x" * (MAX_KEY_CHARS + 1)
    assert length(long) == length(long) == MAX_KEY_CHARS + 1 and len(calls) == 3  # computed twice
    assert length(None) == 0 and length.cache_info().currsize == 2  # "abc" and None, not the long text
    length.cache_clear()
    assert length.cache_info().currsize == 0


def test_the_text_may_be_another_argument_and_keywords_pass_through() -> None:
    @text_cache(16, arg=1)
    def joined(prefix: str, text: str, *, sep: str = ":") -> str:
        return prefix + sep + text[:3]

    assert joined("p", "abcdef", sep="-") == "p-abc"
    assert joined("p", "y" * (MAX_KEY_CHARS + 1)) == "p:yyy"
    assert joined.cache_info().currsize == 1


def test_a_page_of_long_attributes_leaves_the_memos_as_they_were() -> None:
    from newscrawl import extract
    from newscrawl.css.cascade import _inline_declarations
    from newscrawl.links.urls import registrable_domain
    from newscrawl.page import _boilerplate_names

    def page(seed: int) -> str:
        pad = "q" * MAX_KEY_CHARS
        blocks = "".join(
            f'<div class="c{seed}x{i} {pad}" style="font-size: 40px; --pad: {pad}{i}">'
            f'<a href="/{pad}{seed}x{i}">Link {i}</a> A paragraph of ordinary text, number {i}.</div>'
            for i in range(30))
        return f"<html><body><article><h1>Headline</h1>{blocks}</article></body></html>"

    extract(page(0), "http://127.0.0.1/2024/01/02/a")  # the page's short texts are remembered here
    memos = (_inline_declarations, registrable_domain, _boilerplate_names)
    before = [memo.cache_info().currsize for memo in memos]
    art = extract(page(1), "http://127.0.0.1/2024/01/02/a")  # same URL: no new short text
    assert art.body is not None and "number 29" in art.body  # the long attributes still work
    assert [memo.cache_info().currsize for memo in memos] == before


def test_long_attributes_are_still_read() -> None:
    from newscrawl.page import Page

    pad = " ".join(f"k{i}" for i in range(2 * MAX_KEY_CHARS // 3))
    page = Page.from_html(f'<html><body><div class="{pad} sidebar"><p style="font-size: 40px; --x: {pad}">'
                          f'Side text</p></div><p>Main</p></body></html>')
    div, p = page.root.xpath("//div")[0], page.root.xpath("//div/p")[0]
    assert page.is_boilerplate(div)
    assert page.style(p).font_size == 40.0
