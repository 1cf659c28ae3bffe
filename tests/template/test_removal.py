"""Template removal after extraction: which body lines go (filter_lines)."""

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
