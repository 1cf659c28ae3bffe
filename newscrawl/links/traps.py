"""Link-trap guards: limits that keep a crawl finite on sites that generate URLs forever.

Each check returns the name of the rule a URL breaks (used as the stats key
``newscrawl/skipped/<rule>``) or ``None``. Session ids are handled earlier, by removing them
during canonicalisation, so such links collapse into one URL.
"""

from __future__ import annotations

import re
from collections import Counter
from urllib.parse import parse_qsl, urlsplit

_PAGE_PATH_RE = re.compile(r"/(?:page|seite|pagina|strona|p)/(\d+)(?:/|$)", re.IGNORECASE)
_PAGE_QUERY_KEYS = frozenset({"page", "p", "pg", "paged", "pagenum", "start", "offset"})
_CALENDAR_WORD_RE = re.compile(r"calendar|kalender|agenda|events?", re.IGNORECASE)
_CALENDAR_KEYS = frozenset({"month", "year", "day", "date", "week", "ym", "cal", "tribe-bar-date", "eventdate"})
_DIGITS_RE = re.compile(r"\d+")


class TrapGuard:
    """Per-crawl state for the trap rules (calendar pages are counted per URL shape)."""

    def __init__(
        self, *, max_url_length: int, max_pagination: int, max_repeated_segments: int, max_calendar_pages: int = 24
    ) -> None:
        self.max_url_length = max_url_length
        self.max_pagination = max_pagination
        self.max_repeated_segments = max_repeated_segments
        self.max_calendar_pages = max_calendar_pages
        self._calendar_shapes: Counter[str] = Counter()

    def check(self, url: str) -> str | None:
        if self.max_url_length and len(url) > self.max_url_length:
            return "url_too_long"
        parts = urlsplit(url)
        segments = [s for s in parts.path.split("/") if s]
        if self.max_repeated_segments and segments:
            word_segments = [s for s in segments if not s.isdigit()]
            if word_segments and Counter(word_segments).most_common(1)[0][1] >= self.max_repeated_segments:
                return "repeated_segments"
        query = parse_qsl(parts.query, keep_blank_values=True)
        if self.max_pagination:
            numbers = [int(m) for m in _PAGE_PATH_RE.findall(parts.path)]
            numbers += [int(v) for k, v in query if k.lower() in _PAGE_QUERY_KEYS and v.isdigit()]
            if numbers and max(numbers) > self.max_pagination:
                return "pagination"
        if self._is_calendar(parts.path, query):
            shape = _DIGITS_RE.sub("N", f"{parts.netloc}{parts.path}?{'&'.join(sorted(k for k, _ in query))}")
            self._calendar_shapes[shape] += 1
            if self._calendar_shapes[shape] > self.max_calendar_pages:
                return "calendar"
        return None

    @staticmethod
    def _is_calendar(path: str, query: list[tuple[str, str]]) -> bool:
        if any(k.lower() in _CALENDAR_KEYS and any(c.isdigit() for c in v) for k, v in query):
            return True
        return bool(_CALENDAR_WORD_RE.search(path)) and bool(query)
