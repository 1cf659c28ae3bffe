"""Template removal around body extraction, sharing the page's one parse.

Two ways, chosen by measurement (docs/decisions.md, "Site templates"): *before* extraction the
template subtrees are dropped from the parsed tree of a :class:`newscrawl.page.Page`, the Page is
re-measured on that same tree (no second HTML parse) and the body extracted again; *after*
extraction the body's trailing lines that are exactly the text of a template element are
dropped. ``both`` does the first, then the second.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lxml import etree

from newscrawl.page import Page
from newscrawl.template.etdm import Skeleton
from newscrawl.template.model import Template, whole_subtrees

MODES = ("before", "after", "both")


@dataclass
class Stripped:
    page: Page  # the page without the template (a new Page over the same, modified tree)
    removed: int  # elements removed
    texts: set[str]  # collapsed texts of the removed elements (for filter_lines)


def strip_page(
    page: Page,
    template: Template,
    stylesheets: Sequence[Any] = (),
    match: tuple[Skeleton, set[int]] | None = None,
    remeasure: bool = True,
) -> Stripped:
    """Remove ``template`` from ``page`` (its tree is modified): one mapping (or the given
    ``template.match(page)``) and, with ``remeasure``, a new Page over the stripped tree."""
    sk, marked = match or template.match(page)
    roots = [sk.elements[i] for i in whole_subtrees(sk, marked)]
    texts: set[str] = set()
    removed = sum(_add_texts(top, texts) for top in roots)
    for top in roots:
        top.drop_tree()
    if not removed or not remeasure:
        return Stripped(page, removed, texts)
    new = Page(
        page.root,
        page.url,
        list(stylesheets),
        encoding=page.encoding,
        warnings=list(page.warnings),
        json_ld=page.json_ld,
        css_texts=page.css_texts,
        style_elements=page.style_elements,
    )
    return Stripped(new, removed, texts)


def _add_texts(top: Any, texts: set[str]) -> int:
    """Add the collapsed ``text_content()`` of every element of ``top``'s subtree to ``texts``; the
    number of elements. One bottom-up pass (an element's text is its own text, then each child's
    text and tail), not one XPath evaluation an element: a Page's tree holds elements only (the
    parse drops comments and processing instructions); a subtree with other nodes is read the slow way."""
    if next(top.iter(etree.Comment, etree.ProcessingInstruction, etree.Entity), None) is not None:
        count = 0
        for el in top.iter():
            if isinstance(el.tag, str):
                count += 1
                text = " ".join(el.text_content().split())
                if text:
                    texts.add(text)
        return count
    count = 0
    open_parts: list[list[str]] = []
    for event, el in etree.iterwalk(top, events=("start", "end")):
        if event == "start":
            open_parts.append([el.text or ""])
            continue
        whole = "".join(open_parts.pop())
        count += 1
        text = " ".join(whole.split())
        if text:
            texts.add(text)
        if open_parts:
            parts = open_parts[-1]
            parts.append(whole)
            if el.tail:
                parts.append(el.tail)
    return count


def filter_lines(body: str | None, texts: set[str]) -> tuple[str | None, int]:
    """Drop the body's trailing lines that are exactly the text of a template element (all of
    them when the whole body is template); (body, lines dropped).

    Only the tail: extraction already starts the body at the detected title, so template text
    left before the first content line or between content lines sits inside the article (a
    site-wide banner, a shop's "Condition:" label) and the gold bodies keep it; the tail is where
    the extracted region runs on into related links and footers (docs/decisions.md)."""
    if not body:
        return body, 0
    lines = body.split("\n")
    end = len(lines)
    while end and " ".join(lines[end - 1].split()) in texts:
        end -= 1
    return ("\n".join(lines[:end]) or None), len(lines) - end


def remove_template(
    page: Page,
    template: Template,
    body: str | None,
    mode: str = "after",
    stylesheets: Sequence[Any] = (),
    match: tuple[Skeleton, set[int]] | None = None,
) -> tuple[str | None, int]:
    """The body of ``page`` without ``template``: ``body`` is what extraction gave on the full
    page (used by "after"). Returns (body, elements removed from the tree)."""
    from newscrawl.extract.api import extract_page

    if mode not in MODES:
        raise ValueError(f"template mode must be one of {MODES}, not {mode!r}")
    stripped = strip_page(page, template, stylesheets, match, remeasure=mode != "after")
    if mode == "after":
        return filter_lines(body, stripped.texts)[0], stripped.removed
    new_body = extract_page(stripped.page).body if stripped.removed else body
    if mode == "both":
        new_body = filter_lines(new_body, stripped.texts)[0]
    return new_body, stripped.removed
