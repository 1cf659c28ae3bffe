"""Caps on a page's markup, applied to its bytes before any HTML parser sees them.

lxml's (libxml2's) HTML parser checks each new attribute of an element against the ones before it, so
one element's parse is quadratic in its attribute count: 10,000 attributes take 0.18 s, 20,000 0.77 s,
100,000 (a 1.1 MB page) 294 s, in one C call that no alarm can interrupt. A crawl parses each page
in its main process (the spider's link extraction) before any worker does, so such a page would
stop the whole crawl. :func:`guard_html` keeps the first ``max_attributes`` attributes of each tag
and the first ``max_tags`` tags of a page and drops the rest; a page under both caps (every real
page) is returned as it is, the same object.

The scan is linear: one regular expression finds only the tags that reach the attribute cap (an
atomic group per attribute, so no backtracking), written after the tokenizer's own rules: an
attribute is a name, optionally ``=`` and a quoted or unquoted value; quoted values may hold ``<``
and ``>``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_NAME = rb"[^\s/<>=\"'][^\s/<>=]*+"
# an unclosed quote runs to the end, as in the tokenizer (and the scan never comes back to it)
_VALUE = rb"(?:\"[^\"]*+(?:\"|\Z)|'[^']*+(?:'|\Z)|[^\s>\"']*+)"
_ATTRIBUTE = rb"(?>[\s/]++" + _NAME + rb"(?>\s*+=\s*+" + _VALUE + rb")?)"
_REST = re.compile(_ATTRIBUTE + rb"*+")


@lru_cache(maxsize=8)
def _flood(max_attributes: int) -> re.Pattern[bytes]:
    """A tag start followed by more than ``max_attributes`` attributes; the match ends after the
    last one kept."""
    return re.compile(
        rb"<[A-Za-z][^\s/<>]*+" + _ATTRIBUTE + rb"{" + str(max_attributes).encode() + rb"}(?=" + _ATTRIBUTE + rb")"
    )


@lru_cache(maxsize=8)
def _tags(max_tags: int) -> re.Pattern[bytes]:
    return re.compile(rb"(?:[^<]*+<){" + str(max_tags).encode() + rb"}")


@dataclass(frozen=True)
class Guarded:
    """A page's bytes after the caps: ``capped_tags`` tags lost attributes, ``attributes`` were
    dropped in all, ``cut`` says whether the page was cut after ``max_tags`` tags."""

    body: bytes
    capped_tags: int = 0
    attributes: int = 0
    cut: bool = False

    @property
    def changed(self) -> bool:
        return bool(self.capped_tags or self.cut)


def guard_html(body: bytes, max_attributes: int = 1000, max_tags: int = 2_000_000) -> Guarded:
    """``body`` with at most ``max_attributes`` attributes per tag and ``max_tags`` tags (0: no cap)."""
    cut = False
    if max_tags and body.count(b"<") > max_tags:
        match = _tags(max_tags).match(body)
        if match is not None:
            body = body[: match.end() - 1]
            cut = True
    if not max_attributes or len(body) < 2 * max_attributes:  # each attribute takes two bytes at least
        return Guarded(body, cut=cut)
    pattern = _flood(max_attributes)
    match = pattern.search(body)
    if match is None:
        return Guarded(body, cut=cut)
    parts, pos, capped, dropped = [], 0, 0, 0
    while match is not None:
        rest = _REST.match(body, match.end())
        end = rest.end() if rest is not None else match.end()
        parts += [body[pos : match.end()]]
        dropped += _count_attributes(body[match.end() : end])
        capped += 1
        pos = end
        match = pattern.search(body, pos)
    parts.append(body[pos:])
    return Guarded(b"".join(parts), capped, dropped, cut)


_ONE = re.compile(_ATTRIBUTE)


def _count_attributes(run: bytes) -> int:
    return sum(1 for _ in _ONE.finditer(run))
