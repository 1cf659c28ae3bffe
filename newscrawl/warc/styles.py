"""``extract --warc --stylesheets``: a page's external stylesheets taken from the WARC files, as
the crawl's CSS middleware took them from the web, so a replay extracts with the styles the crawl
extracted with.

A first pass indexes the ``text/css`` 200 responses of all input files by URL (offsets only, no
payload read). For each page, the sheets are listed as :mod:`newscrawl.css.middleware` lists
them — ``<link rel=stylesheet>`` (not alternate, media matching) and ``<style>`` ``@import``s in
document order, each sheet's own imports before it, up to the default per-page budget and import
depth — and each one found in the index is read and parsed once per process (LRU). A sheet the
archive does not hold (the crawl could not fetch it, or it was redirected) is left out, as the
crawl left out a sheet it could not fetch.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any
from urllib.parse import urldefrag

from newscrawl.defaults import DEFAULTS
from newscrawl.warc.reader import Counts, iter_responses, record_body

Index = dict[str, tuple[str, int]]  # stylesheet URL -> (file, offset of its response record)
CACHE_SIZE = 256  # parsed sheets kept per process
_BASE = re.compile(rb"<base\s[^>]*href\s*=\s*[\"']?([^\"'\s>]+)", re.IGNORECASE)


def stylesheet_index(paths: Iterable[str]) -> Index:
    """Where each archived stylesheet is (the first record of a URL wins, as the crawl fetched it once)."""
    index: Index = {}
    for path in paths:
        for response in iter_responses(path, Counts(), want="css"):
            if response.offset is not None:
                index.setdefault(urldefrag(response.url)[0], (response.file, response.offset))
    return index


class ArchivedStylesheets:
    """The stylesheets of pages, from an :data:`Index`; parsed sheets cached (LRU)."""

    def __init__(self, index: Index) -> None:
        self.index = index
        self.cache: OrderedDict[str, Any] = OrderedDict()
        self.max_per_page = int(DEFAULTS["NEWSCRAWL_CSS_MAX_PER_PAGE"])
        self.import_depth = int(DEFAULTS["NEWSCRAWL_CSS_IMPORT_DEPTH"])
        self.max_bytes = int(DEFAULTS["NEWSCRAWL_CSS_MAX_BYTES"])

    def _sheet(self, url: str) -> Any | None:
        if url in self.cache:
            self.cache.move_to_end(url)
            return self.cache[url]
        where = self.index.get(url)
        body = record_body(*where) if where else None
        sheet = None
        if body is not None:
            from newscrawl.css.stylesheet import parse_stylesheet

            sheet = parse_stylesheet(body, url=url, max_bytes=self.max_bytes)
        self.cache[url] = sheet
        if len(self.cache) > CACHE_SIZE:
            self.cache.popitem(last=False)
        return sheet

    def for_page(self, html: bytes, text: str, url: str) -> list[Any]:
        """The page's stylesheets in cascade order (imports before the sheet importing them)."""
        from newscrawl.css.cascade import parse_style_block
        from newscrawl.css.links import style_sources
        from newscrawl.css.media import media_matches
        from newscrawl.safeurl import join_url

        found = _BASE.search(html[:65536])
        base = (join_url(url, found.group(1).decode("latin-1")) if found else None) or url
        ordered: list[Any] = []
        seen: set[str] = set()
        budget = [self.max_per_page]

        def expand(sheet_url: str, depth: int) -> None:
            if sheet_url in seen or budget[0] <= 0:
                return
            seen.add(sheet_url)
            budget[0] -= 1
            sheet = self._sheet(sheet_url)
            if sheet is None:
                return
            if depth < self.import_depth:
                for imp in sheet.imports:
                    if media_matches(imp.media) and imp.url.startswith(("http://", "https://")):
                        expand(imp.url, depth + 1)
            ordered.append(sheet)

        for source in style_sources(text):
            if not media_matches(source.attrs.get("media")):
                continue
            if source.kind == "link":
                rel = source.attrs.get("rel", "").lower().split()
                href = source.attrs.get("href", "").strip()
                joined = join_url(base, href) if "stylesheet" in rel and "alternate" not in rel and href else None
                if joined is not None and joined.startswith(("http://", "https://")):
                    expand(urldefrag(joined)[0], 0)
            elif "@import" in source.text.lower():
                for imp in parse_style_block(source.text, base).imports:
                    if media_matches(imp.media) and imp.url.startswith(("http://", "https://")):
                        expand(imp.url, 1)
        return ordered
