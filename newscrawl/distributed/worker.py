"""The distributed worker extension: Redis start URLs, shared scope and hand-off, idle close.

Installed by the add-on when ``NEWSCRAWL_DISTRIBUTED`` is on. scrapy-redis's ``RedisSpider`` is
not used (it only defines ``start_requests()``, which Scrapy 2.16+ no longer calls); the
``news`` spider's own ``start()`` builds the requests for URLs popped from Redis.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from scrapy import Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import CloseSpider, DontCloseSpider, NotConfigured
from scrapy.utils.defer import deferred_from_coro

from newscrawl.distributed import key_prefix
from newscrawl.distributed.inflight import InflightLedger
from newscrawl.distributed.state import ClaimSet, SharedScope
from newscrawl.journal import journal_for

logger = logging.getLogger(__name__)

START_BATCH = 16


class DistributedWorker:
    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        if not settings.getbool("NEWSCRAWL_DISTRIBUTED"):
            raise NotConfigured("NEWSCRAWL_DISTRIBUTED is off")
        from scrapy_redis.connection import get_redis_from_settings

        self.crawler = crawler
        self.client = get_redis_from_settings(settings)
        self.idle_seconds = settings.getfloat("NEWSCRAWL_IDLE_CLOSE_SECONDS", 30.0)
        self.read_starts = settings.getbool("NEWSCRAWL_REDIS_START_URLS", True)
        self.idle_since: float | None = None
        self.prefix = ""
        self.shared = False
        # Whichever comes first: this worker schedules a request, downloads one another worker
        # queued (a worker joining a crawl in progress pops at once and never idles first), or idles.
        crawler.signals.connect(self.share_state, signal=signals.request_scheduled)
        crawler.signals.connect(self.share_state, signal=signals.request_reached_downloader)
        crawler.signals.connect(self.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(self.active, signal=signals.response_received)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DistributedWorker:
        return cls(crawler)

    def share_state(self, request: Any = None, spider: Any = None) -> None:
        """Swap the spider's scope and hand-off set for shared ones, once it has configured them
        (the news spider does so at spider_opened; this runs at its first request, scheduled or
        downloaded, or at its first idle moment: always before the first response is parsed)."""
        if self.shared:
            return
        spider = spider or self.crawler.spider
        self.shared = True
        self.prefix = key_prefix(self.crawler.settings, spider.name)
        scope = getattr(spider, "scope", None)
        if scope is not None:
            spider.scope = SharedScope(scope, self.client, f"{self.prefix}:scope")
            for url in spider.start_urls:
                spider.scope.add(url)
            spider.scope.refresh()
        if hasattr(spider, "handed_canonicals"):
            ledger = journal_for(self.crawler)
            claims_key = ledger.claims_key if isinstance(ledger, InflightLedger) else None
            spider.handed_canonicals = ClaimSet(self.client, f"{self.prefix}:handed", claims_key=claims_key)

    def active(self, *args: Any, **kwargs: Any) -> None:
        self.idle_since = None

    def spider_idle(self, spider: Spider) -> None:
        self.share_state(spider=spider)
        if self.read_starts and self._pop_starts(spider):
            self.idle_since = None
            raise DontCloseSpider
        now = time.monotonic()
        if self.idle_since is None:
            self.idle_since = now
        if now - self.idle_since < self.idle_seconds:
            raise DontCloseSpider
        # other workers hold requests: they may still queue links, and if one of them died its
        # requests come back once its heartbeat expires (bounded: two idle workers never wait for
        # each other forever)
        ledger = journal_for(self.crawler)
        if (
            isinstance(ledger, InflightLedger)
            and now - self.idle_since < self.idle_seconds + ledger.timeout
            and ledger.others_hold_requests()
        ):
            raise DontCloseSpider
        logger.info("No work for %.0f s (shared frontier empty): closing this worker", now - self.idle_since)
        raise CloseSpider("idle")

    def _pop_starts(self, spider: Spider) -> list[str]:
        key = f"{self.prefix}:start_urls"
        found = journal_for(self.crawler)
        ledger = found if isinstance(found, InflightLedger) else None
        if ledger is not None:  # noted in flight until their requests are queued
            raw = ledger.take_starts(key, START_BATCH)
        else:
            raw = self.client.lpop(key, START_BATCH) or []
        given = []
        for value in raw:
            url = (value.decode() if isinstance(value, bytes) else value).strip()
            if url:
                given.append(url if "://" in url else f"https://{url}")
        valid_starts = getattr(spider, "valid_start_urls", None)  # the news spider's: canonical, malformed ones skipped
        urls = valid_starts(given) if valid_starts else given
        if urls:
            self.crawler.stats.inc_value("newscrawl/distributed/start_urls", len(urls))
            logger.info("Start URLs from Redis: %s", ", ".join(u[:200] for u in urls))
            if hasattr(spider, "scope"):
                for url in urls:
                    spider.scope.add(url)
            deferred_from_coro(self._schedule_starts(spider, urls, raw, ledger))
        elif ledger is not None:
            ledger.started(raw)  # blank or malformed entries: nothing to schedule
        return urls

    async def _schedule_starts(
        self, spider: Spider, urls: list[str], taken: list[Any], ledger: InflightLedger | None
    ) -> None:
        """Build the spider's own start requests for ``urls`` (robots.txt, sitemaps included) and
        queue them; then the ``taken`` start-list entries are no longer in flight."""
        saved = list(spider.start_urls)
        spider.start_urls = urls
        try:
            requests = [request async for request in spider.start()]
            for request in requests:
                self.crawler.engine.crawl(request)
        finally:
            spider.start_urls = saved + urls
            if ledger is not None:
                ledger.started(taken)
