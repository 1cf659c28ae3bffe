"""Page parses with lxml's C default class lookup: every element a plain HtmlElement."""

from __future__ import annotations

import lxml.html

from newscrawl.page import Page


def test_elements_are_html_elements_made_without_lxml_html_python_lookup() -> None:
    page = Page.from_html("<html><head><title>T</title></head><body><form><input name=q>"
                          "<select><option>a</option></select><label>L</label></form>"
                          "<p>Some <b>text</b></p></body></html>", "http://127.0.0.1/")
    kinds = {el.tag: type(el) for el in page.root.iter()}
    assert kinds["input"] is lxml.html.HtmlElement  # lxml.html's lookup gives InputElement
    assert set(kinds.values()) == {lxml.html.HtmlElement}
    assert page.root.find(".//p").text_content() == "Some text"  # HtmlElement's methods


def test_name_test_answers_as_the_regex_search_and_remembers_by_string():
    import re

    from newscrawl.page import name_test

    pattern = re.compile(r"(?:^|[\s_-])(?:author|bio)(?:$|[\s_-])", re.I)
    test = name_test(pattern)
    for names in ["", " ", "author-box", "coauthor", "post BIO", "bio_", "x author", "biography", "ſ author"]:
        assert test(names) == (pattern.search(names) is not None)
        assert test(names) == (pattern.search(names) is not None)  # the remembered answer
    assert test.cache_info().hits >= 9
