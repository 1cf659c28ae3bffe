"""URL joining that a malformed href cannot turn into an exception.

``urllib.parse`` raises ``ValueError`` for an unclosed or non-IP bracketed host (``http://[x/``,
``http://[ua]/``) and some other hrefs real and hostile pages carry; one such link must not cost
the page its canonical URL, its stylesheets, its links or its page classifier (found by mutating
dataset pages: docs/decisions.md, "Malformed URLs and deeply nested CSS values"). Callers count
and skip what this rejects.
"""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit


def join_url(base: str | None, href: str) -> str | None:
    """``urljoin(base, href)`` (``href`` alone without a base), or None when either is malformed."""
    try:
        if base:
            return urljoin(base, href)  # reads (and so checks) both
        urlsplit(href)  # urljoin would return it unchecked
    except ValueError:
        return None
    return href


def valid_url(url: object) -> bool:
    """Whether ``url`` is a string (or None) that ``urllib.parse`` reads without raising."""
    if url is not None and not isinstance(url, str):
        return False
    try:
        urlsplit(url or "")
    except ValueError:
        return False
    return True
