"""A periodic progress line for long crawls, after Scrapy's ``LogStats``, and a summary at close.

Every ``NEWSCRAWL_PROGRESS_INTERVAL`` seconds (default 60; 0 = off) it logs, at INFO::

    Progress: 12840 pages fetched (412/min), 9311 articles exported (301/min),
    templates for 3 domains, CSS cache hit rate 97.4%

and at close a ``Summary:`` line with the totals and overall rates over the crawl's wall time,
also stored as stats (``newscrawl/progress/articles_per_minute`` ...). Sources: pages are the
spider's ``newscrawl/pages/fetched`` (else ``response_received_count``), articles are
``item_scraped_count`` (items that reached the feeds), templates come from the stat
``newscrawl/templates/domains`` kept by the template pipeline, the hit rate from the crawl's
stylesheet store.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from scrapy import Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.utils.asyncio import create_looping_call

logger = logging.getLogger(__name__)


def _css_hit_rate(crawler: Crawler) -> float | None:
    try:
        from newscrawl.css.store import stylesheet_store
    except ImportError:
        return None
    store = stylesheet_store(crawler)
    return store.hit_rate if store.hits + store.misses else None


class ProgressLog:
    def __init__(self, crawler: Crawler, interval: float) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.interval = interval
        self.task: Any = None
        self.started = time.monotonic()
        self.previous = (0, 0)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ProgressLog:
        interval = crawler.settings.getfloat("NEWSCRAWL_PROGRESS_INTERVAL", 60.0)
        if interval <= 0:
            raise NotConfigured("NEWSCRAWL_PROGRESS_INTERVAL is 0")
        progress = cls(crawler, interval)
        crawler.signals.connect(progress.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(progress.spider_closed, signal=signals.spider_closed)
        return progress

    def counts(self) -> dict[str, Any]:
        pages = self.stats.get_value("newscrawl/pages/fetched")
        if pages is None:  # a spider other than news: every response counts
            pages = self.stats.get_value("response_received_count", 0)
        return {
            "pages": int(pages),
            "articles": int(self.stats.get_value("item_scraped_count", 0)),
            "templates": int(self.stats.get_value("newscrawl/templates/domains", 0)),
            "css_hit_rate": _css_hit_rate(self.crawler),
        }

    @staticmethod
    def _rate(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.1%}"

    def spider_opened(self, spider: Spider) -> None:
        self.started = time.monotonic()
        self.task = create_looping_call(self.log, spider)
        self.task.start(self.interval, now=False)

    def log(self, spider: Spider) -> None:
        c = self.counts()
        per_min = 60.0 / self.interval
        pages_rate = (c["pages"] - self.previous[0]) * per_min
        articles_rate = (c["articles"] - self.previous[1]) * per_min
        self.previous = (c["pages"], c["articles"])
        logger.info(
            "Progress: %d pages fetched (%d/min), %d articles exported (%d/min), "
            "templates for %d domains, CSS cache hit rate %s",
            c["pages"],
            pages_rate,
            c["articles"],
            articles_rate,
            c["templates"],
            self._rate(c["css_hit_rate"]),
            extra={"spider": spider},
        )

    def spider_closed(self, spider: Spider, reason: str) -> None:
        if self.task is not None and self.task.running:
            self.task.stop()
        c = self.counts()
        minutes = max((time.monotonic() - self.started) / 60.0, 1e-9)
        self.stats.set_value("newscrawl/progress/pages_per_minute", round(c["pages"] / minutes, 1))
        self.stats.set_value("newscrawl/progress/articles_per_minute", round(c["articles"] / minutes, 1))
        if c["css_hit_rate"] is not None:
            self.stats.set_value("newscrawl/progress/css_hit_rate", round(c["css_hit_rate"], 4))
        logger.info(
            "Summary (%s): %d pages fetched, %d articles exported in %.1f min (%.0f articles/min), "
            "templates for %d domains, CSS cache hit rate %s",
            reason,
            c["pages"],
            c["articles"],
            minutes,
            c["articles"] / minutes,
            c["templates"],
            self._rate(c["css_hit_rate"]),
            extra={"spider": spider},
        )


def install(settings: Any) -> None:
    """Add-on hook: the progress line next to Scrapy's LogStats (same priority, 0)."""
    settings.setdefault_in_component_priority_dict("EXTENSIONS", "newscrawl.progress.ProgressLog", 0)
