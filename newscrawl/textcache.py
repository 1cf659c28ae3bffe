"""Memos keyed by text a page controls, bounded in memory as well as in entries.

Class and style attributes, hrefs, selectors and declarations repeat across the pages of a site, so
their parses and tests are remembered across pages. An entry count alone does not bound such a memo:
a hostile site whose pages carry megabyte-long attributes would leave thousands of them held, page
after page, until the crawl runs out of memory. Texts longer than MAX_KEY_CHARS (no real class list,
style attribute, URL or selector comes near it) are therefore computed each time and never held
(docs/decisions.md, "Memos keyed by page text").
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

MAX_KEY_CHARS = 4096

F = TypeVar("F", bound=Callable[..., Any])


def memorable(*texts: str | None) -> bool:
    """Whether a memo may hold these texts (each None or at most MAX_KEY_CHARS characters)."""
    return all(text is None or len(text) <= MAX_KEY_CHARS for text in texts)


def text_cache(maxsize: int, *, arg: int = 0) -> Callable[[F], F]:
    """``functools.lru_cache(maxsize)`` for a function whose positional argument ``arg`` is a text
    (or None), bypassed when that text is not :func:`memorable`. ``cache_info`` and ``cache_clear``
    are the cache's. A function of the text alone is called with it by position."""

    def decorate(function: F) -> F:
        cached = functools.lru_cache(maxsize=maxsize)(function)

        if arg == 0 and len(inspect.signature(function).parameters) == 1:
            # the text is the only argument (name tests, URLs, selector texts: ~2,500 calls a page),
            # passed by position: no argument tuple to pack and index, ~40% less overhead a call
            @functools.wraps(function)
            def call(text: Any) -> Any:
                if text is not None and len(text) > MAX_KEY_CHARS:  # memorable(), inlined
                    return function(text)
                return cached(text)
        else:

            @functools.wraps(function)
            def call(*args: Any, **kwargs: Any) -> Any:
                text = args[arg] if len(args) > arg else None
                if text is not None and len(text) > MAX_KEY_CHARS:  # memorable(), inlined: a hot path
                    return function(*args, **kwargs)
                return cached(*args, **kwargs)

        call.cache_info = cached.cache_info  # type: ignore[attr-defined]
        call.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
        return call  # type: ignore[return-value]

    return decorate
