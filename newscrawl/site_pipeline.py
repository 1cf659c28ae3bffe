"""``SiteArticlePipeline``: the crawl's site-level article decision (:mod:`newscrawl.classify.site`).

Runs after the per-page extraction (which may have run in another process) and reads only plain
data its items carry: ``url``, ``domain``, the page model's ``probability`` and the page layout the
extraction put in ``site_layout`` (removed here). Each page is recorded in the crawl's
:class:`~newscrawl.classify.site.SiteLayouts`, then decided: ``is_article``, ``probability`` and
``extraction["is_article"]`` (which evidence decided, with its scores) are set; the
:class:`~newscrawl.pipelines.ArticleFilterPipeline` after it drops the non-articles.

A page whose site has too little evidence yet (fewer than ``NEWSCRAWL_SITE_MIN_ARTICLES`` sure
articles, or none that shares its layout) waits: at most ``NEWSCRAWL_SITE_BUFFER`` items wait at
once (the oldest is decided with what is known when one more comes), and every waiting item is
decided when the crawl has nothing else to do, when it closes, and when the items hold so much
memory that Scrapy would stop downloading. No item is lost.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet import task
from twisted.internet.defer import Deferred

from newscrawl.classify.site import AGREEMENT, SiteLayouts, Verdict

logger = logging.getLogger(__name__)
STATS = "newscrawl/site"
# how often the waiting items are checked against the crawl's state: the items still waiting when the
# crawl runs dry go two checks later, the crawl's last step (a check reads a few counters)
CHECK_SECONDS = 0.1


class SiteArticlePipeline:
    def __init__(self, crawler: Crawler) -> None:
        s = crawler.settings
        if not s.getbool("NEWSCRAWL_SITE_ARTICLES", True):
            raise NotConfigured("NEWSCRAWL_SITE_ARTICLES is off")
        if not s.getbool("NEWSCRAWL_EXTRACTION_ENABLED", True):
            raise NotConfigured("no extraction, no page model to start from")
        self.crawler = crawler
        self.stats = crawler.stats
        self.min_articles = s.getint("NEWSCRAWL_SITE_MIN_ARTICLES", 20)
        self.buffer = max(0, s.getint("NEWSCRAWL_SITE_BUFFER", 100))
        self.threshold = 0.5
        self.layouts = SiteLayouts()
        self.waiting: OrderedDict[int, tuple[Any, Deferred[Any]]] = OrderedDict()
        self._loop: task.LoopingCall | None = None
        self._quiet = 0  # consecutive checks that found the crawl with nothing else to do
        crawler.signals.connect(self._opened, signal=signals.spider_opened)
        crawler.signals.connect(self._closing, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SiteArticlePipeline:
        return cls(crawler)

    # --- items ---------------------------------------------------------------------------------
    async def process_item(self, item: Any, spider: Any = None) -> Any:
        adapter = ItemAdapter(item)
        layout = adapter.get("site_layout")
        probability = adapter.get("probability")
        if probability is None or "error" in (adapter.get("extraction") or {}):
            adapter.pop("site_layout", None)
            return item  # extraction off or failed: the page's own fields stand
        site, url = adapter.get("domain") or "", adapter.get("url") or ""
        self.layouts.add(url, site, float(probability), layout)
        self._release(site)
        verdict = self._verdict(adapter)
        if verdict is not None:
            self._apply(adapter, verdict)
            return item
        waiter: Deferred[Any] = Deferred()
        self.waiting[id(item)] = (item, waiter)
        self.stats.inc_value(f"{STATS}/waited")
        self.stats.max_value(f"{STATS}/max_waiting", len(self.waiting))
        while len(self.waiting) > self.buffer:
            self._decide_oldest("buffer_full")
        return await maybe_deferred_to_future(waiter)

    def _verdict(self, adapter: ItemAdapter, final: bool = False) -> Verdict | None:
        """The item's verdict, or None while it should wait for more of its site."""
        site = adapter.get("domain") or ""
        layout = adapter.get("site_layout")
        verdict = self.layouts.decide(
            adapter.get("url") or "", site, float(adapter["probability"]), layout, self.threshold
        )
        if final or layout is None or not layout.get("headline"):
            return verdict
        if self.layouts.sure_articles(site) < self.min_articles or "layout" not in verdict.scores:
            return None
        if verdict.method == "page-model":  # its layout's evidence is not conclusive yet: more of it may come
            return None
        if verdict.method == "site-layout" and verdict.is_article and verdict.scores["layout"]["share"] < AGREEMENT:
            return None  # a bare majority of its layout: more of the site may show it a listing
        return verdict

    def _apply(self, adapter: ItemAdapter, verdict: Verdict) -> None:
        adapter.pop("site_layout", None)
        before = adapter.get("is_article")
        adapter["is_article"] = verdict.is_article
        adapter["probability"] = round(verdict.probability, 4)
        adapter["extraction"] = {**(adapter.get("extraction") or {}), "is_article": verdict.provenance()}
        self.stats.inc_value(f"{STATS}/decided/{verdict.method}")
        if before is not None and bool(before) != verdict.is_article:
            self.stats.inc_value(f"{STATS}/{'raised' if verdict.is_article else 'lowered'}")

    def _release(self, site: str) -> None:
        """Decide the waiting items of ``site`` that its evidence now settles."""
        for key, (item, waiter) in list(self.waiting.items()):
            adapter = ItemAdapter(item)
            if (adapter.get("domain") or "") != site:
                continue
            verdict = self._verdict(adapter)
            if verdict is not None:
                del self.waiting[key]
                self._apply(adapter, verdict)
                waiter.callback(item)

    def _decide_oldest(self, why: str) -> None:
        _, (item, waiter) = self.waiting.popitem(last=False)
        adapter = ItemAdapter(item)
        verdict = self._verdict(adapter, final=True)
        assert verdict is not None
        self._apply(adapter, verdict)
        self.stats.inc_value(f"{STATS}/released/{why}")
        waiter.callback(item)

    def _decide_all(self, why: str) -> None:
        while self.waiting:
            self._decide_oldest(why)

    # --- the crawl's state ---------------------------------------------------------------------
    def _opened(self, spider: Any = None) -> None:
        self._loop = task.LoopingCall(self._check)
        self._loop.start(CHECK_SECONDS, now=False).addErrback(self._loop_failed)

    def _loop_failed(self, failure: Any) -> None:
        logger.error("site stage: check failed, deciding every waiting item: %s", failure.getErrorMessage())
        self._decide_all("error")

    def _check(self) -> None:
        """Decide the waiting items when nothing else can bring evidence (the downloader and the
        scheduler are empty, the crawl is closing) or when they hold up the downloads."""
        if not self.waiting:
            self._quiet = 0
            return
        engine = self.crawler.engine
        scraper = getattr(engine, "scraper", None)
        slot = getattr(scraper, "slot", None)
        engine_slot = getattr(engine, "_slot", None)
        # closing (CLOSESPIDER_*, a signal): the engine waits for the requests whose items wait here
        if getattr(engine_slot, "closing", None) is not None or getattr(slot, "closing", None) is not None:
            self._decide_all("closing")
            return
        if slot is not None and slot.needs_backout():
            # Scrapy stops downloading: once the pages still in the earlier stages (extraction workers)
            # have come, no evidence can come while these wait, and the oldest half goes
            if len(getattr(slot, "active", ())) <= len(self.waiting):
                for _ in range((len(self.waiting) + 1) // 2):
                    self._decide_oldest("memory")
            return
        downloader = getattr(engine, "downloader", None)
        scheduler = getattr(engine_slot, "scheduler", None)
        busy = bool(getattr(downloader, "active", None)) or (scheduler is not None and scheduler.has_pending_requests())
        # responses still in the earlier pipelines (extraction workers) bring evidence too
        busy = busy or len(getattr(slot, "active", ())) > len(self.waiting)
        self._quiet = 0 if busy else self._quiet + 1
        if self._quiet >= 2:  # a whole check period with nothing in flight
            self._decide_all("idle")

    def _closing(self, spider: Any = None) -> None:
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        self._decide_all("closing")
