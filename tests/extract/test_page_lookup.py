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


def test_name_test_equals_the_case_insensitive_search_on_random_names():
    """ASCII names are lower-cased and searched without re.I: the answers must be re.I's, on
    mixed-case ASCII and on names with the characters re.I folds ("\u017f" is "s", "\u212a" is "k")."""
    import random
    import re

    import pytest

    from newscrawl.page import BOILERPLATE_NAMES, name_test

    related = re.compile(r"(?:^|[\s_-])related[a-z]", re.I)
    rnd = random.Random(4)
    words = ["nav", "NAV", "Menu", "ads", "ad", "skip", "LogIn", "related", "RelatedX", "\u017fhare", "\u017fkip",
             "coo\u212aie", "\u212aey", "navbar2", "x"]
    for pattern in (BOILERPLATE_NAMES, related):
        test = name_test(pattern, maxsize=16)
        hits = 0
        for _ in range(4000):
            names = "".join(rnd.choice(words) + rnd.choice(" _-\t") for _ in range(rnd.randint(0, 4)))
            names = names[:rnd.randint(0, len(names))]
            want = pattern.search(names) is not None
            assert test(names) == want, names
            hits += want
        assert 100 < hits < 3900  # both answers are compared often
    with pytest.raises(ValueError):
        name_test(re.compile("nav"))  # case-sensitive: lower-casing the names would change answers
    with pytest.raises(ValueError):
        name_test(re.compile("Nav", re.I))  # upper case in the source never matches lowered names
