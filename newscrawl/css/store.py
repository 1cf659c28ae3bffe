"""The crawl-wide store of parsed stylesheets, shared by the middleware and the pipelines.

The middleware puts each fetched stylesheet here once, under the URL the page links; pipelines
(and anything else holding the crawler) read it with ``stylesheet_store(crawler).get(url)``.
Memory is bounded by the total size of the stylesheets' source text, least recently used first.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any
from weakref import WeakKeyDictionary

from newscrawl.css.stylesheet import Stylesheet

DEFAULT_MAX_BYTES = 64 * 1024 * 1024


class StylesheetStore:
    """An LRU map url -> Stylesheet, bounded by summed stylesheet size in bytes."""

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self._sheets: OrderedDict[str, Stylesheet] = OrderedDict()
        self.total_bytes = 0
        self.hits = 0
        self.misses = 0
        self.evictions = 0
        # (final URL, source) per URL, for extraction worker processes (newscrawl.extract_pool),
        # which parse each sheet once themselves (a parsed sheet holds compiled matchers that
        # cannot be sent to another process). Kept only when the pipeline asks, counted in the bound.
        self.keep_sources = False
        self._sources: dict[str, tuple[str, bytes]] = {}

    def __contains__(self, url: str) -> bool:
        return url in self._sheets

    def __len__(self) -> int:
        return len(self._sheets)

    def get(self, url: str) -> Stylesheet | None:
        sheet = self._sheets.get(url)
        if sheet is None:
            self.misses += 1
            return None
        self.hits += 1
        self._sheets.move_to_end(url)
        return sheet

    def put(self, url: str, sheet: Stylesheet, source: tuple[str, bytes] | None = None) -> None:
        """Store ``sheet`` under ``url``; ``source`` (final URL, bytes) is kept with it when
        :attr:`keep_sources` is on."""
        old = self._sheets.pop(url, None)
        if old is not None:
            self.total_bytes -= old.size + self._source_size(url)
            self._sources.pop(url, None)
        self._sheets[url] = sheet
        self.total_bytes += sheet.size
        if self.keep_sources and source is not None:
            self._sources[url] = source
            self.total_bytes += len(source[1])
        while self.total_bytes > self.max_bytes and len(self._sheets) > 1:
            evicted_url, evicted = self._sheets.popitem(last=False)
            self.total_bytes -= evicted.size + self._source_size(evicted_url)
            self._sources.pop(evicted_url, None)
            self.evictions += 1

    def source(self, url: str) -> tuple[str, bytes] | None:
        """The (final URL, source) kept for ``url`` (see :attr:`keep_sources`), or None."""
        return self._sources.get(url)

    def _source_size(self, url: str) -> int:
        source = self._sources.get(url)
        return len(source[1]) if source is not None else 0

    @property
    def hit_rate(self) -> float:
        asked = self.hits + self.misses
        return self.hits / asked if asked else 0.0

    def stats(self) -> dict[str, float]:
        return {
            "stylesheets": len(self._sheets),
            "bytes": self.total_bytes,
            "hits": self.hits,
            "misses": self.misses,
            "hit_rate": self.hit_rate,
            "evictions": self.evictions,
        }


_STORES: WeakKeyDictionary[Any, StylesheetStore] = WeakKeyDictionary()


def stylesheet_store(crawler: Any) -> StylesheetStore:
    """The store of this crawl (created on first use, sized by NEWSCRAWL_CSS_CACHE_BYTES)."""
    store = _STORES.get(crawler)
    if store is None:
        settings = getattr(crawler, "settings", None)
        max_bytes = (
            settings.getint("NEWSCRAWL_CSS_CACHE_BYTES", DEFAULT_MAX_BYTES)
            if settings is not None
            else DEFAULT_MAX_BYTES
        )
        store = StylesheetStore(max_bytes)
        _STORES[crawler] = store
    return store
