"""Alternative body extractors (MSS, CoreEx, NewsFeed, Wang et al.) and the article/non-article page classifier.

The extract core picks a body extractor by name (``newscrawl.extract(..., method=...)``, the
``--method`` CLI option, the ``NEWSCRAWL_BODY_EXTRACTOR`` setting). Every extractor here takes the
one parsed :class:`newscrawl.page.Page` and returns a :class:`BodyResult`; modules are imported
only when their method is used (Wang needs a browser and is an optional extra).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class BodyResult:
    """What an alternative extractor found: the body text (None: nothing convincing) and a score."""

    body: str | None
    score: float
    title: str | None = None  # only methods with their own title rule (NewsFeed, Wang) set it


# name -> "module:function"; each function takes a Page and returns a BodyResult
METHODS: dict[str, str] = {
    "mss": "newscrawl.classify.mss:extract",
    "coreex": "newscrawl.classify.coreex:extract",
    "newsfeed": "newscrawl.classify.newsfeed:extract",
    "wang": "newscrawl.classify.wang:extract",
}


def body_extractor(name: str) -> Callable[[Any], BodyResult]:
    """The extractor function registered under ``name``; ValueError for an unknown name."""
    try:
        target = METHODS[name]
    except KeyError:
        raise ValueError(f"unknown body extractor {name!r}; choose one of {', '.join(METHODS)}") from None
    module_name, _, function = target.partition(":")
    return getattr(importlib.import_module(module_name), function)


def apply_method(article: Any, page: Any, method: str) -> Any:
    """Replace ``article``'s body (and title, for methods with a title rule) by ``method``'s result.

    The extract core builds the Article (title, dates, is_article) from the shared Page, then
    calls this for any ``method`` other than its own "nce"; provenance records the method used.
    """
    result = body_extractor(method)(page)
    article.body = result.body
    article.provenance["body"] = {"method": method, "score": round(float(result.score), 4)}
    if result.title:
        article.title = result.title
        article.provenance["title"] = {"method": f"{method}-title", "score": 1.0}
    return article
