"""What the item pipelines share about an item: the Page one pipeline built and the parsed stylesheets.

Below both :mod:`newscrawl.pipelines` and :mod:`newscrawl.template.pipeline`, so the template
pipeline reads the extraction pipeline's Page without importing the pipelines module (which names
it in turn).
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from scrapy.crawler import Crawler

# The Page that ExtractionPipeline built for an item, for the later pipelines (TemplatePipeline):
# one parse per page. Weak keys: an entry goes when its item does. Plain dict items cannot be
# weakly referenced; later pipelines then parse the HTML themselves.
_pages: WeakKeyDictionary[Any, Any] = WeakKeyDictionary()


def shared_page(item: Any) -> Any | None:
    """The :class:`newscrawl.page.Page` ExtractionPipeline built from ``item``'s HTML, if any."""
    try:
        return _pages.get(item)
    except TypeError:  # not weakly referenceable (a dict item)
        return None


def share_page(item: Any, page: Any) -> None:
    try:
        _pages[item] = page
    except TypeError:
        pass


def stylesheets_for(crawler: Crawler, urls: list[str]) -> list[Any]:
    """The parsed stylesheets of a page from the crawl's CSS store (absent ones are skipped)."""
    if not urls:
        return []
    try:
        from newscrawl.css.store import stylesheet_store
    except ImportError:
        return []
    store = stylesheet_store(crawler)
    sheets = []
    for url in urls:
        sheet = store.get(url)
        if sheet is None:
            crawler.stats.inc_value("newscrawl/extraction/stylesheet_missing")
        else:
            sheets.append(sheet)
    return sheets
