"""Scrapy adapters of the watch (incremental crawling): thin layers over :mod:`newscrawl.watch.cycle`.

Installed by the add-on when ``NEWSCRAWL_WATCH_STATE`` is set (or ``NEWSCRAWL_WATCH_BACKEND =
"redis"``), for ``scrapy crawl news`` and ``newscrawl watch`` alike:

* :class:`WatchExtension` opens the state and the cycle, repairs the feed files after a crash
  (:meth:`~newscrawl.watch.cycle.Cycle.reconcile`), records each exported item after the feed
  exporter wrote it, and closes the cycle;
* :class:`WatchSpiderMiddleware` replaces the start requests by the due fronts in incremental
  cycles, filters the links each page yields (only never-seen URLs, and known articles whose
  sitemap/feed date changed) and tells the cycle which pages are done;
* :class:`WatchDownloaderMiddleware` turns a ``304 Not Modified`` into "nothing new here";
* :class:`WatchPipeline` decides new / updated / duplicate / unchanged and stamps ``first_seen``,
  ``last_changed``, ``updated`` and ``revision`` on exported items.
"""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urljoin
from weakref import WeakKeyDictionary

from itemadapter import ItemAdapter
from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem, IgnoreRequest, NotConfigured
from scrapy.http import Response

from newscrawl.links.urls import registrable_domain
from newscrawl.spiders.news import NewsSpider
from newscrawl.watch.cycle import Cycle, Link, iso
from newscrawl.watch.entries import dated_entries, parse_date
from newscrawl.watch.schedule import Bounds
from newscrawl.watch.state import WatchState

logger = logging.getLogger(__name__)

KIND = "newscrawl_watch_kind"  # request.meta: front kind (home, section, feed, sitemap)
URL = "newscrawl_watch_url"  # request.meta: the URL as the watch followed it
PARENT = "newscrawl_watch_parent"  # request.meta: the sitemap index that listed this sitemap
DATE = "newscrawl_watch_date"  # request.meta: the date its front stated for it
RECHECK = "newscrawl_watch_recheck"  # request.meta: a known article fetched again
VERDICT = "newscrawl_watch_verdict"  # item drop reason set by WatchPipeline
_CYCLES: WeakKeyDictionary[Crawler, Cycle] = WeakKeyDictionary()


class NotModified(IgnoreRequest):
    """A front or article answered 304: nothing to read. ``quiet``: not an error for the spider."""

    quiet = True


def cycle_for(crawler: Crawler) -> Cycle | None:
    return _CYCLES.get(crawler)


def open_state(settings: Any) -> WatchState:
    """The store the settings name: SQLite in NEWSCRAWL_WATCH_STATE, or Redis."""
    backend = (settings.get("NEWSCRAWL_WATCH_BACKEND") or "auto").lower()
    if backend == "redis" or (backend == "auto" and settings.getbool("NEWSCRAWL_DISTRIBUTED")):
        from newscrawl.watch.redis_state import RedisState

        return RedisState.from_url(
            settings.get("REDIS_URL") or "redis://127.0.0.1:6379/0",
            f"{settings.get('NEWSCRAWL_REDIS_PREFIX') or 'newscrawl'}:watch",
        )
    from newscrawl.watch.state import SqliteState

    return SqliteState(settings.get("NEWSCRAWL_WATCH_STATE"))


def _since(settings: Any) -> datetime | None:
    text = settings.get("NEWSCRAWL_WATCH_SINCE")
    if not text:
        return None
    value = parse_date(str(text))
    if value is None:
        raise ValueError(f"NEWSCRAWL_WATCH_SINCE = {text!r}: not a date (use e.g. 2025-05-01)")
    return value


def _local_jsonl_feeds(settings: Any) -> list[str]:
    paths = []
    for uri, options in (settings.getdict("FEEDS") or {}).items():
        text = str(uri)
        if "%(" in text or ("://" in text and not text.startswith("file://")):
            continue
        if (options or {}).get("format") in ("jsonlines", "jsonl", "jl"):
            paths.append(str(Path(text.removeprefix("file://")).resolve()))
    return paths


def _validators(response: Response) -> tuple[str, str]:
    etag = response.headers.get("ETag", b"") or b""
    modified = response.headers.get("Last-Modified", b"") or b""
    return etag.decode("latin-1"), modified.decode("latin-1")


class WatchExtension:
    def __init__(self, crawler: Crawler) -> None:
        s = crawler.settings
        if not s.get("NEWSCRAWL_WATCH_STATE") and (s.get("NEWSCRAWL_WATCH_BACKEND") or "auto").lower() != "redis":
            raise NotConfigured("no NEWSCRAWL_WATCH_STATE")
        self.crawler = crawler
        self.state: WatchState | None = None
        self.feeds = _local_jsonl_feeds(s)
        crawler.signals.connect(self.opened, signal=signals.engine_started)
        crawler.signals.connect(self.closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> WatchExtension:
        return cls(crawler)

    def opened(self) -> None:
        s, stats = self.crawler.settings, self.crawler.stats
        self.state = open_state(s)
        cycle = Cycle(
            self.state,
            bounds=Bounds(
                s.getfloat("NEWSCRAWL_WATCH_MIN_INTERVAL", 900.0), s.getfloat("NEWSCRAWL_WATCH_MAX_INTERVAL", 7200.0)
            ),
            since=_since(s),
            max_fronts=s.getint("NEWSCRAWL_WATCH_MAX_FRONTS", 10),
            front_min_articles=s.getint("NEWSCRAWL_WATCH_FRONT_MIN_ARTICLES", 3),
            forget_days=s.getfloat("NEWSCRAWL_WATCH_FORGET_DAYS", 30.0),
        )
        for path in self.feeds:
            cycle.reconcile(path)
        _CYCLES[self.crawler] = cycle
        # connected now, after the feed exporter's handlers: an item is written before it is recorded
        self.crawler.signals.connect(self.item_scraped, signal=signals.item_scraped)
        self.crawler.signals.connect(self.item_dropped, signal=signals.item_dropped)
        stats.set_value("newscrawl/watch/full_cycle", cycle.full)
        stats.set_value("newscrawl/watch/fronts_known", len(cycle.known_fronts))
        logger.info(
            "Watch cycle: %s, %d fronts known", "full crawl" if cycle.full else "incremental", len(cycle.known_fronts)
        )

    def item_scraped(self, item: Any, response: Any, spider: Spider) -> None:
        cycle = cycle_for(self.crawler)
        if cycle is None or not isinstance(response, Response):
            return
        etag, modified = _validators(response)
        outputs = [(path, os.path.getsize(path)) for path in self.feeds if os.path.exists(path)]
        cycle.exported(
            ItemAdapter(item).asdict(),
            response.meta.get(URL),
            lastmod=response.meta.get(DATE, ""),
            etag=etag,
            last_modified=modified,
            outputs=outputs,
        )
        self.crawler.stats.inc_value("newscrawl/watch/recorded")

    def item_dropped(self, item: Any, response: Any, exception: BaseException, spider: Spider) -> None:
        cycle = cycle_for(self.crawler)
        if cycle is None or not isinstance(response, Response):
            return
        etag, modified = _validators(response)
        kind = "article" if getattr(exception, VERDICT, None) else "other"
        cycle.page_done(
            response.meta.get(URL) or ItemAdapter(item).get("url") or response.url,
            kind,
            lastmod=response.meta.get(DATE, ""),
            etag=etag,
            last_modified=modified,
        )

    def closed(self, spider: Spider, reason: str) -> None:
        cycle = _CYCLES.pop(self.crawler, None)
        if cycle is None or self.state is None:
            return
        cycle.finish(completed=reason == "finished")
        stats = self.crawler.stats
        for name, value in cycle.counts.items():
            stats.set_value(f"newscrawl/watch/{name}", value)
        for name, value in self.state.counts().items():
            stats.set_value(f"newscrawl/watch/state_{name}", value)
        self.state.close()


class WatchSpiderMiddleware:
    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> WatchSpiderMiddleware:
        if (
            not crawler.settings.get("NEWSCRAWL_WATCH_STATE")
            and (crawler.settings.get("NEWSCRAWL_WATCH_BACKEND") or "auto").lower() != "redis"
        ):
            raise NotConfigured("no NEWSCRAWL_WATCH_STATE")
        return cls(crawler)

    async def process_start(self, start: AsyncIterator[Any]) -> AsyncIterator[Any]:
        cycle = cycle_for(self.crawler)
        spider: Any = self.crawler.spider
        if cycle is None or cycle.full or not cycle.known_fronts or not isinstance(spider, NewsSpider):
            async for request in start:
                if isinstance(request, Request):
                    self._tag_start(request, spider)
                yield request
            return
        for front in cycle.due_fronts():
            callback = {
                "feed": spider.parse_feed,
                "sitemap": spider.parse_sitemap,
                "sitemapindex": spider.parse_sitemap,
            }.get(front.kind, spider.parse_page)
            meta = {
                KIND: front.kind,
                URL: front.url,
                "newscrawl_source": "start" if front.kind == "home" else front.kind,
            }
            if front.kind == "section":
                meta["newscrawl_source"] = "link"
            yield Request(
                front.url,
                callback=callback,
                errback=spider.on_error,
                priority=1000,
                meta=meta,
                headers=cycle.conditional_headers(front.url),
                dont_filter=True,
            )
            # dont_filter: a distributed crawl's dupefilter persists in Redis across cycles
        self.crawler.stats.set_value("newscrawl/watch/fronts_due", len(cycle.due_fronts()))

    def _tag_start(self, request: Request, spider: Any) -> None:
        if request.callback == spider.parse_page and request.meta.get("newscrawl_source") == "start":
            request.meta[KIND] = "home"
        elif request.callback == spider.parse_sitemap:
            request.meta[KIND] = "sitemap"
        else:
            return
        request.meta[URL] = request.url

    async def process_spider_output(
        self, response: Response, result: AsyncIterator[Any], spider: Any = None
    ) -> AsyncIterator[Any]:
        cycle = cycle_for(self.crawler)
        spider = self.crawler.spider
        if cycle is None or not isinstance(spider, NewsSpider):  # the watch knows the news spider's callbacks
            async for output in result:
                yield output
            return
        url = response.meta.get(URL) or response.url
        kind = response.meta.get(KIND)
        dates: dict[str, str] = {}
        if kind or response.request and response.request.callback in (spider.parse_feed, spider.parse_sitemap):
            kind = self._front_kind(response, spider, kind)
            etag, modified = _validators(response)
            site = registrable_domain(url)
            cycle.visit(
                url,
                kind,
                site,
                parent=response.meta.get(PARENT, ""),
                lastmod=response.meta.get(DATE, ""),
                etag=etag,
                last_modified=modified,
            )
            if kind in ("feed", "sitemap", "sitemapindex"):
                dates = {self._absolute(response, spider, u): d for u, d in dated_entries(response.body).items()}
        requests: list[Request] = []
        items = 0
        async for output in result:
            if isinstance(output, Request) and self._link_kind(output, spider) is not None:
                requests.append(output)
                continue
            if output is not None and not isinstance(output, Request):
                items += 1
            yield output
        is_page = response.request is not None and response.request.callback == spider.parse_page
        if is_page and not items and kind is None and response.meta.get("depth", 0) <= 1:
            likely = [
                r.url
                for r in requests
                if self._link_kind(r, spider) == "page" and r.meta.get("url_probability", 0) >= spider.threshold
            ]
            cycle.front_candidate(url, registrable_domain(url), likely, *_validators(response))
        links = [Link(r.url, self._link_kind(r, spider) or "page", dates.get(r.url, "")) for r in requests]
        follows = {f.url: f for f in cycle.follow(url if cycle.is_front(url) else None, links)}
        for request in requests:
            follow = follows.get(request.url)
            if follow is None:
                self.crawler.stats.inc_value("newscrawl/watch/links_skipped")
                continue
            request.meta[URL] = request.url
            if dates.get(request.url):
                request.meta[DATE] = dates[request.url]
            link_kind = self._link_kind(request, spider)
            if link_kind == "feed":
                request.meta[KIND] = "feed"
            elif link_kind == "sitemap":
                request.meta[KIND] = "sitemap"
                if kind == "sitemapindex":
                    request.meta[PARENT] = url
            if follow.recheck:
                request.meta[RECHECK] = True
                request.dont_filter = True
            for name, value in follow.headers.items():
                request.headers[name] = value
            yield request
        if is_page and not items and kind not in ("home", "section"):
            etag, modified = _validators(response)
            cycle.page_done(url, "other", lastmod=response.meta.get(DATE, ""), etag=etag, last_modified=modified)

    @staticmethod
    def _absolute(response: Response, spider: Any, href: str) -> str:
        try:
            return spider.canonicalize(urljoin(response.url, href.strip()))
        except ValueError:
            return href

    @staticmethod
    def _link_kind(request: Request, spider: Any) -> str | None:
        return {spider.parse_page: "page", spider.parse_feed: "feed", spider.parse_sitemap: "sitemap"}.get(
            request.callback
        )

    @staticmethod
    def _front_kind(response: Response, spider: Any, kind: str | None) -> str:
        callback = response.request.callback if response.request is not None else None
        if callback == spider.parse_feed:
            return "feed"
        if callback == spider.parse_sitemap:
            head = response.body[:4096]
            if head[:2] == b"\x1f\x8b":
                import zlib

                head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(response.body, 4096)
            return "sitemapindex" if b"<sitemapindex" in head else "sitemap"
        return kind or "home"


class WatchDownloaderMiddleware:
    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> WatchDownloaderMiddleware:
        if (
            not crawler.settings.get("NEWSCRAWL_WATCH_STATE")
            and (crawler.settings.get("NEWSCRAWL_WATCH_BACKEND") or "auto").lower() != "redis"
        ):
            raise NotConfigured("no NEWSCRAWL_WATCH_STATE")
        return cls(crawler)

    @property
    def retried(self) -> set[int]:
        return {int(code) for code in self.crawler.settings.getlist("RETRY_HTTP_CODES")}

    def process_response(self, request: Request, response: Response, spider: Any = None) -> Response:
        cycle = cycle_for(self.crawler)
        if cycle is None or response.status < 300:
            return response
        url = request.meta.get(URL) or request.url
        if 400 <= response.status < 500 and response.status not in self.retried:
            cycle.page_done(url, "other")  # a dead link is final: not followed again, its front settles
            return response
        if response.status != 304:
            return response
        stats = self.crawler.stats
        stats.inc_value("newscrawl/watch/not_modified")
        if request.meta.get(KIND):
            kind = request.meta[KIND]
            if kind == "sitemap":
                kind = cycle.known_fronts[url].kind if url in cycle.known_fronts else kind
            cycle.visit(
                url,
                kind,
                registrable_domain(url),
                parent=request.meta.get(PARENT, ""),
                lastmod=request.meta.get(DATE, ""),
                status=304,
            )
        elif request.meta.get(RECHECK):
            known = cycle.state.pages([url]).get(url)
            cycle.page_done(
                url,
                "article",
                lastmod=request.meta.get(DATE, ""),
                etag=known.etag if known else "",
                last_modified=known.last_modified if known else "",
            )
        raise NotModified(f"not modified: {url}")

    def process_exception(self, request: Request, exception: BaseException, spider: Any = None) -> None:
        """A request refused before download (robots.txt) is final for this cycle: its front settles."""
        cycle = cycle_for(self.crawler)
        if cycle is not None and isinstance(exception, IgnoreRequest) and not isinstance(exception, NotModified):
            cycle.page_done(request.meta.get(URL) or request.url, "other")


class WatchPipeline:
    """New and updated articles pass (stamped), duplicates and unchanged ones are dropped."""

    def __init__(self, crawler: Crawler) -> None:
        s = crawler.settings
        if not s.get("NEWSCRAWL_WATCH_STATE") and (s.get("NEWSCRAWL_WATCH_BACKEND") or "auto").lower() != "redis":
            raise NotConfigured("no NEWSCRAWL_WATCH_STATE")
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> WatchPipeline:
        return cls(crawler)

    def process_item(self, item: Any) -> Any:
        cycle = cycle_for(self.crawler)
        if cycle is None:
            return item
        adapter = ItemAdapter(item)
        verdict = cycle.judge(adapter.asdict())
        self.crawler.stats.inc_value(f"newscrawl/watch/items_{verdict.kind}")
        if not verdict.export:
            drop = DropItem(
                f"watch: {verdict.kind} ({verdict.reason or 'seen before'}): {adapter.get('url')}", log_level="DEBUG"
            )
            setattr(drop, VERDICT, verdict.kind)
            raise drop
        adapter["first_seen"] = iso(verdict.first_seen)
        adapter["last_changed"] = iso(verdict.last_changed)
        adapter["updated"] = verdict.kind == "updated"
        adapter["revision"] = verdict.revision
        return item


def install(settings: Any) -> None:
    """Add-on hook: with NEWSCRAWL_WATCH_STATE (or the Redis backend) install the watch components,
    unbuffered local feeds (an exported line survives SIGKILL) and, in the state directory, the
    stylesheet and template caches so each cycle reuses what the previous ones learned."""
    state = settings.get("NEWSCRAWL_WATCH_STATE")
    if not state and (settings.get("NEWSCRAWL_WATCH_BACKEND") or "auto").lower() != "redis":
        return
    settings.setdefault_in_component_priority_dict("EXTENSIONS", "newscrawl.watch.crawl.WatchExtension", 600)
    settings.setdefault_in_component_priority_dict(
        "SPIDER_MIDDLEWARES", "newscrawl.watch.crawl.WatchSpiderMiddleware", 950
    )
    settings.setdefault_in_component_priority_dict(
        "DOWNLOADER_MIDDLEWARES", "newscrawl.watch.crawl.WatchDownloaderMiddleware", 590
    )
    settings.setdefault_in_component_priority_dict("ITEM_PIPELINES", "newscrawl.watch.crawl.WatchPipeline", 850)
    storages = dict(settings.getdict("FEED_STORAGES"))
    for scheme in ("", "file"):
        storages.setdefault(scheme, "newscrawl.journal.UnbufferedFileFeedStorage")
    settings.set("FEED_STORAGES", storages, priority="addon")
    if state:
        for name, sub in (("NEWSCRAWL_CSS_SOURCE_DIR", "css"), ("NEWSCRAWL_TEMPLATE_CACHE_DIR", "templates")):
            if not settings.get(name):
                settings.set(name, str(Path(state) / sub), priority="addon")


__all__ = [
    "NotModified",
    "WatchDownloaderMiddleware",
    "WatchExtension",
    "WatchPipeline",
    "WatchSpiderMiddleware",
    "cycle_for",
    "install",
    "open_state",
]
