"""Body extraction on a template-stripped page, sharing the page's one parse.

The template is removed from the parsed tree of a :class:`newscrawl.page.Page`, the Page is
re-measured on that same tree (no second HTML parse) and ``extract_page`` runs on it, so template
nodes never reach the body.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from newscrawl.page import Page
from newscrawl.template.model import Template


def strip_page(page: Page, template: Template, stylesheets: Sequence[Any] = ()) -> tuple[Page, int]:
    """``page`` without ``template`` (its tree is modified) and the number of elements removed."""
    removed = template.apply(page.root)
    if not removed:
        return page, 0
    return Page(page.root, page.url, list(stylesheets), encoding=page.encoding, warnings=list(page.warnings),
                json_ld=page.json_ld, css_texts=page.css_texts), removed


def extract_without_template(page: Page, template: Template, stylesheets: Sequence[Any] = ()) -> tuple[Any, int]:
    """``newscrawl.extract`` Article of ``page`` after template removal, and the removed count."""
    from newscrawl.extract.api import extract_page

    stripped, removed = strip_page(page, template, stylesheets)
    return extract_page(stripped), removed
