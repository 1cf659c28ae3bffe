"""Find a page's stylesheet references without building its DOM.

The middleware runs on every HTML response in the reactor thread; a full parse there would
stall the crawl on huge or deeply nested pages (the spider and pipelines parse the page anyway).
A regular-expression pass finds ``<link>`` and ``<style>`` elements in document order, skipping
comments and scripts.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

_TAG = re.compile(r"<!--|<(script|style|link)\b([^>]*)>", re.I)
_SCRIPT_END = re.compile(r"</script\s*>", re.I)
_STYLE_END = re.compile(r"</style\s*>", re.I)
_ATTR = re.compile(r"""([^\s"'=<>/]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?""")


@dataclass(frozen=True, slots=True)
class Source:
    """A ``<link>`` (``href`` set) or a ``<style>`` (``text`` set), with its attributes."""

    kind: str  # "link" | "style"
    attrs: dict[str, str]
    text: str = ""


def _attributes(raw: str) -> dict[str, str]:
    attrs: dict[str, str] = {}
    for name, value in _ATTR.findall(raw):
        if value[:1] in ("'", '"'):
            value = value[1:-1]
        attrs.setdefault(name.lower(), html.unescape(value))
    return attrs


def style_sources(text: str) -> list[Source]:
    """``<link>`` and ``<style>`` elements of an HTML text, in document order."""
    found: list[Source] = []
    pos = 0
    while True:
        match = _TAG.search(text, pos)
        if match is None:
            return found
        if match.group() == "<!--":
            end = text.find("-->", match.end())
            pos = len(text) if end < 0 else end + 3
            continue
        name = match.group(1).lower()
        if name == "script":
            end_match = _SCRIPT_END.search(text, match.end())
            pos = len(text) if end_match is None else end_match.end()
        elif name == "style":
            end_match = _STYLE_END.search(text, match.end())
            end = len(text) if end_match is None else end_match.start()
            found.append(Source("style", _attributes(match.group(2)), text[match.end() : end]))
            pos = end if end_match is None else end_match.end()
        else:
            found.append(Source("link", _attributes(match.group(2))))
            pos = match.end()
