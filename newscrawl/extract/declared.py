"""Whether a page's declared article text (JSON-LD ``articleBody``) is its article.

A publisher's declared text is the best body when the page shows none (text written in by scripts, a
paywall). When the page does show text, the declaration can be wrong: a teaser of a longer story the
page shows, or another article's text left in a template. So it is used only when it agrees with the
page's visible text, or when the page shows less text than it declares (docs/decisions/body-news.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from newscrawl.page import Page

_TOKEN = re.compile(r"\w+")
SHINGLE = 4  # tokens a shingle: the body metric's
OPENING_SHINGLES = 60  # the declared text is judged on its opening (a paywall shows the opening only)
AGREES = 0.5  # share of the opening's shingles the shown text must hold
TEASER = 2.0  # a shown text this many times the declared one, holding it, is the story it teases


def _shingles(tokens: list[str]) -> set[tuple[str, ...]]:
    return {tuple(tokens[i : i + SHINGLE]) for i in range(max(1, len(tokens) - SHINGLE + 1))} if tokens else set()


def _tokens(text: str) -> list[str]:
    return [t.casefold() for t in _TOKEN.findall(text)]


def shown_text(page: Page) -> str:
    """The text of the page's visible text nodes (computed styles), in document order."""
    visible: dict[Any, bool] = {}
    parts = []
    for tn in page.text_nodes:
        seen = visible.get(tn.container)
        if seen is None:
            seen = visible[tn.container] = page.style(tn.container).visible
        if seen:
            parts.append(tn.text)
    return " ".join(parts)


def declared_verdict(declared: str, shown: str, candidate: Callable[[], str | None]) -> str:
    """``"use"`` the declared text, or why not. ``candidate()`` is the main text the page's own blocks
    give (CoreEx's node). ``"disagrees"``: the shown text does not hold the declared opening, and the
    candidate is at least as long as the declared text (the page shows an article, another one);
    ``"teaser"``: the shown text holds the opening, and the candidate holds the declared text and is
    TEASER times longer. A page whose shown text holds no article of that length has none, and gets
    the declared text (an application shell under menus, a paywall over the opening)."""
    declared_tokens = _tokens(declared)
    opening = _shingles(declared_tokens[: OPENING_SHINGLES + SHINGLE - 1])
    if not opening:
        return "disagrees"
    held = len(opening & _shingles(_tokens(shown))) / len(opening)
    other = candidate()
    other_tokens = _tokens(other) if other else []
    if held < AGREES:
        return "disagrees" if len(other_tokens) >= len(declared_tokens) else "use"
    whole = _shingles(declared_tokens)
    if len(other_tokens) >= TEASER * len(declared_tokens) and len(whole & _shingles(other_tokens)) >= AGREES * len(
        whole
    ):
        return "teaser"
    return "use"
