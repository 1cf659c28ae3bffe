"""Downloader middleware: fetch each HTML page's stylesheets through Scrapy, once per crawl.

For every HTML response it finds ``<link rel=stylesheet>`` (skipping print-only and alternate
ones), ``<style>`` blocks and their ``@import``s (recursively, depth-limited, loop-safe), and
fetches the external sheets with ``crawler.engine.download_async`` so robots.txt, throttling,
retries and the HTTP cache apply. Like Scrapy's RobotsTxtMiddleware, a URL has one in-flight
download that concurrent pages await; the parsed sheet goes to the crawl-wide store
(:func:`newscrawl.css.store.stylesheet_store`), and the downloaded source to the second tier
(:mod:`newscrawl.css.sources`: ``JOBDIR`` or Redis), where a resumed crawl or another worker
finds it instead of downloading it again.

Hand-off: ``response.meta["newscrawl_stylesheets"]`` = absolute URLs of the sheets obtained, in
cascade order (imports before the sheet importing them); look them up in the store. A failed,
missing, oversize, non-CSS or slow sheet is left out: the page is never dropped and never waits
longer than ``NEWSCRAWL_CSS_TIMEOUT`` seconds in total. Internal requests (this middleware's,
robots.txt's, anything with ``callback=NO_CALLBACK``) are not processed, so no fetch waits on
itself.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from dataclasses import replace
from typing import TYPE_CHECKING, Any
from urllib.parse import urldefrag

from scrapy import Request, signals
from scrapy.exceptions import DownloadCancelledError, DownloadTimeoutError, NotConfigured
from scrapy.http import HtmlResponse, Response
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.asyncio import call_later, run_in_thread
from scrapy.utils.defer import deferred_from_coro, maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet.defer import Deferred

from newscrawl.css.cascade import parse_style_block
from newscrawl.css.links import style_sources
from newscrawl.css.media import media_matches
from newscrawl.css.sources import pack, source_cache, unpack
from newscrawl.css.store import stylesheet_store
from newscrawl.css.stylesheet import Stylesheet, parse_stylesheet
from newscrawl.defaults import DEFAULTS
from newscrawl.links.urls import registrable_domain
from newscrawl.responses import base_url, resolve

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

META_KEY = "newscrawl_stylesheets"
MARKER = "newscrawl_css_request"
THREAD_PARSE_BYTES = 256 * 1024  # parse bigger sheets in a thread to keep the reactor responsive
MAX_FAILED_REMEMBERED = 10_000
# Scrapy's middlewares that log a failed download of this middleware's requests, once per sheet (at
# ERROR, robots.txt's with a traceback); the middleware says it once per host instead (_QuietOwnFailures).
LOUD_LOGGERS = ("scrapy.downloadermiddlewares.retry", "scrapy.downloadermiddlewares.robotstxt")
_TIMED_OUT = object()


def _setting(crawler: Crawler, name: str, kind: str) -> Any:
    getter = getattr(crawler.settings, kind)
    return getter(name, DEFAULTS[name])


class StylesheetMiddleware:
    """Fetch linked stylesheets once per crawl and hand their URLs to the pipelines."""

    def __init__(self, crawler: Crawler) -> None:
        if not _setting(crawler, "NEWSCRAWL_CSS_ENABLED", "getbool"):
            raise NotConfigured
        self.crawler = crawler
        self.stats = crawler.stats
        self.max_per_page = _setting(crawler, "NEWSCRAWL_CSS_MAX_PER_PAGE", "getint")
        self.max_bytes = _setting(crawler, "NEWSCRAWL_CSS_MAX_BYTES", "getint")
        self.timeout = _setting(crawler, "NEWSCRAWL_CSS_TIMEOUT", "getfloat")
        self.import_depth = _setting(crawler, "NEWSCRAWL_CSS_IMPORT_DEPTH", "getint")
        self.offsite = _setting(crawler, "NEWSCRAWL_CSS_OFFSITE", "getbool")
        self.store = stylesheet_store(crawler)
        self.sources = source_cache(crawler.settings)
        self._inflight: dict[str, Deferred] = {}
        self._failed: OrderedDict[str, str] = OrderedDict()
        self._page_hosts: set[str] = set()  # hosts of pages seen
        self._sheet_hosts: set[str] = set()  # hosts first reached by a stylesheet request
        self._unreachable: set[str] = set()  # hosts reported unreachable (once each)
        self._quiet = _QuietOwnFailures(self._sheet_hosts)
        for name in LOUD_LOGGERS:
            logging.getLogger(name).addFilter(self._quiet)
        crawler.signals.connect(self._closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> StylesheetMiddleware:
        return cls(crawler)

    def _closed(self) -> None:
        for name in LOUD_LOGGERS:
            logging.getLogger(name).removeFilter(self._quiet)

    def _inc(self, key: str, count: int = 1) -> None:
        if self.stats is not None:
            self.stats.inc_value(f"newscrawl/css/{key}", count)

    async def process_response(self, request: Request, response: Response, spider: Any = None) -> Response:
        if (
            request.meta.get(MARKER)
            or request.callback is NO_CALLBACK
            or not isinstance(response, HtmlResponse)
            or META_KEY in request.meta
            or not 200 <= response.status < 300
        ):  # redirects and error pages: no styles
            return response
        self._page_hosts.add(urlparse_cached(response).netloc)
        self._inc("pages")
        try:
            urls = await self._page_stylesheets(response)
        except Exception:  # a stylesheet problem must never cost the page
            logger.exception("stylesheets of %s skipped", response.url)
            self._inc("errors/page")
            urls = []
        request.meta[META_KEY] = urls  # response.meta is this dict once tied to the request
        return response

    # --- page ----------------------------------------------------------------------------------
    def _sources(self, response: HtmlResponse) -> list[tuple[str, Any]]:
        """("link", url) and ("style", imports) in document order."""
        sources: list[tuple[str, Any]] = []
        for source in style_sources(response.text):
            media = source.attrs.get("media")
            if media is not None and not media_matches(media):
                self._inc("skipped_media")
                continue
            if source.kind == "link":
                rel = source.attrs.get("rel", "").lower().split()
                href = source.attrs.get("href", "").strip()
                if "stylesheet" not in rel or "alternate" in rel or not href:
                    continue
                joined = resolve(response, href)
                if joined is None:
                    self._inc("skipped_malformed_url")
                    continue
                url = urldefrag(joined)[0]
                if not url.startswith(("http://", "https://")):  # data:, file:, javascript:
                    self._inc("skipped_scheme")
                    continue
                if self._allowed(url, response.url):
                    sources.append(("link", url))
            elif "@import" in source.text.lower():
                sheet = parse_style_block(source.text, base_url(response))
                sources.append(
                    (
                        "style",
                        [
                            i
                            for i in sheet.imports
                            if media_matches(i.media)
                            and i.url.startswith(("http://", "https://"))
                            and self._allowed(i.url, response.url)
                        ],
                    )
                )
        return sources

    def _allowed(self, url: str, referrer: str) -> bool:
        """Off-site sheets (another registrable domain, e.g. a CDN) only with NEWSCRAWL_CSS_OFFSITE."""
        if self.offsite or registrable_domain(url) == registrable_domain(referrer):
            return True
        self._inc("skipped_offsite")
        return False

    async def _page_stylesheets(self, response: HtmlResponse) -> list[str]:
        deadline = time.monotonic() + self.timeout
        sources = self._sources(response)
        budget = [self.max_per_page]
        # Start the top-level downloads at once (within the page's budget); imports start as
        # their parent arrives.
        links = list(dict.fromkeys(value for kind, value in sources if kind == "link"))
        for url in links[: self.max_per_page]:
            self._start(url)
        ordered: list[str] = []
        seen: set[str] = set()
        for kind, value in sources:
            if kind == "link":
                await self._expand(value, 0, deadline, seen, ordered, budget)
            else:
                for imp in value:
                    await self._expand(imp.url, 1, deadline, seen, ordered, budget)
        return ordered

    async def _expand(
        self, url: str, depth: int, deadline: float, seen: set[str], ordered: list[str], budget: list[int]
    ) -> None:
        """Append ``url``'s imports (first) and ``url`` to ``ordered`` when obtained."""
        if url in seen:
            self._inc("import_loops" if depth else "duplicate_links")
            return
        if budget[0] <= 0:
            self._inc("page_limit")
            return
        seen.add(url)
        budget[0] -= 1
        sheet = await self._get(url, deadline)
        if sheet is None:
            return
        if sheet.imports and depth < self.import_depth:
            imports = [
                i
                for i in sheet.imports
                if media_matches(i.media) and i.url.startswith(("http://", "https://")) and self._allowed(i.url, url)
            ]
            for imp in imports:
                if imp.url not in seen:
                    self._start(imp.url, depth + 1)
            for imp in imports:
                await self._expand(imp.url, depth + 1, deadline, seen, ordered, budget)
        elif sheet.imports:
            self._inc("import_depth")
        ordered.append(url)

    # --- fetching ------------------------------------------------------------------------------
    def _start(self, url: str, depth: int = 0) -> Deferred | None:
        """The shared download of ``url`` (started if needed); None when known or failed."""
        if url in self.store or url in self._failed:
            return None
        pending = self._inflight.get(url)
        if pending is None:
            pending = deferred_from_coro(self._fetch(url, depth))
            if not pending.called:
                self._inflight[url] = pending
        return pending

    async def _get(self, url: str, deadline: float) -> Stylesheet | None:
        sheet = self.store.get(url)
        if sheet is not None:
            self._inc("cache_hits")
            return sheet
        if url in self._failed:
            return None
        pending = self._start(url)
        if pending is None:
            return self.store.get(url)
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            self._inc("timeouts")
            return None
        waiter: Deferred = Deferred()

        def fire(result: Any) -> Any:
            if not waiter.called:
                waiter.callback(result)
            return result

        pending.addBoth(fire)
        timer = call_later(remaining, fire, _TIMED_OUT)
        result = await maybe_deferred_to_future(waiter)
        timer.cancel()
        if result is _TIMED_OUT:
            self._inc("timeouts")
            return None
        return result if isinstance(result, Stylesheet) else None

    def _fail(self, url: str, reason: str) -> None:
        self._inc(f"failed/{reason}")
        self._failed[url] = reason
        while len(self._failed) > MAX_FAILED_REMEMBERED:
            self._failed.popitem(last=False)

    async def _fetch(self, url: str, depth: int) -> Stylesheet | None:
        """Download and parse one stylesheet, then start its imports' downloads; never raises."""
        try:
            sheet = await self._fetch_unsafe(url)
        except Exception as exc:
            logger.debug("stylesheet %s failed: %r", url, exc)
            reason = _failure_reason(exc)
            self._fail(url, reason)
            if reason in ("download", "timeout"):
                self._unreachable_host(url, exc)
            return None
        finally:
            self._inflight.pop(url, None)
        if sheet is not None and depth < self.import_depth:
            for imp in sheet.imports:
                if media_matches(imp.media) and imp.url.startswith(("http://", "https://")):
                    self._start(imp.url, depth + 1)
        return sheet

    def _unreachable_host(self, url: str, exc: Exception) -> None:
        """One INFO line and one count per host whose stylesheets cannot be downloaded (a CDN down, a
        name that does not resolve): the pages are styled without them, which is no error of the crawl."""
        host = urlparse_cached(Request(url)).netloc
        if host in self._unreachable:
            return
        self._unreachable.add(host)
        self._inc("unreachable_hosts")
        logger.info(
            "stylesheets on %s cannot be downloaded (%s: %s); pages are styled without them",
            host,
            type(exc).__name__,
            exc,
        )

    async def _fetch_unsafe(self, url: str) -> Stylesheet | None:
        source = self._kept_source(url)
        if source is None:
            source = await self._download(url)
            if source is None:
                return None
            self._keep_source(url, *source)
        final_url, body = source
        if len(body) > THREAD_PARSE_BYTES:
            sheet = await run_in_thread(parse_stylesheet, body, url=final_url, max_bytes=self.max_bytes)
        else:
            sheet = parse_stylesheet(body, url=final_url, max_bytes=self.max_bytes)
        if final_url != url:
            sheet = _renamed(sheet, url)
        self.store.put(url, sheet, source)
        self._inc("rules_total", sheet.stats["rules_total"])
        self._inc("rules_kept", sheet.stats["rules_kept"])
        return sheet

    async def _download(self, url: str) -> tuple[str, bytes] | None:
        """``(final URL, body)`` of a usable stylesheet, or None (failure recorded)."""
        self._inc("requests")
        host = urlparse_cached(Request(url)).netloc
        if host not in self._page_hosts:
            self._sheet_hosts.add(host)
        request = Request(
            url,
            callback=NO_CALLBACK,
            meta={
                MARKER: True,
                "download_timeout": self.timeout,
                "download_maxsize": self.max_bytes,
                "download_warnsize": 0,
            },
        )
        response = await self.crawler.engine.download_async(request)
        if response.status != 200:
            self._fail(url, f"status_{response.status}")
            return None
        body = response.body
        if len(body) > self.max_bytes:
            self._fail(url, "oversize")
            return None
        content_type = (response.headers.get(b"Content-Type") or b"").decode("latin-1").lower()
        if "css" not in content_type and (content_type or body.lstrip()[:1] == b"<"):
            self._fail(url, "not_css")  # browsers refuse e.g. text/html as a stylesheet
            return None
        self._inc("fetched")
        self._inc("bytes", len(body))
        return urldefrag(response.url)[0], body

    # --- second tier (JOBDIR directory or Redis) ------------------------------------------------
    def _kept_source(self, url: str) -> tuple[str, bytes] | None:
        """A source an earlier run or another worker downloaded; its loss only costs a download."""
        if self.sources is None:
            return None
        try:
            data = self.sources.get(url)
            source = unpack(data) if data is not None else None
        except Exception as exc:  # unreachable Redis, unreadable file: download instead
            logger.warning("stylesheet source cache unavailable for %s: %r", url, exc)
            self._inc("source_cache/errors")
            return None
        if source is not None and len(source[1]) <= self.max_bytes:
            self._inc("source_cache/hits")
            return source
        self._inc("source_cache/misses")
        return None

    def _keep_source(self, url: str, final_url: str, body: bytes) -> None:
        if self.sources is None:
            return
        try:
            self.sources.put(url, pack(final_url, body))
        except Exception as exc:
            logger.warning("stylesheet %s not kept in the source cache: %r", url, exc)
            self._inc("source_cache/errors")


class _QuietOwnFailures(logging.Filter):
    """Drops Scrapy's per-request failure records for this middleware's stylesheet requests and for
    the robots.txt of hosts only stylesheets are fetched from: the middleware counts each failure
    (``newscrawl/css/failed/*``) and logs one line per unreachable host instead."""

    def __init__(self, sheet_hosts: set[str]) -> None:
        super().__init__()
        self.sheet_hosts = sheet_hosts

    def filter(self, record: logging.LogRecord) -> bool:
        request = record.args.get("request") if isinstance(record.args, dict) else None
        if not isinstance(request, Request):
            return True
        if request.meta.get(MARKER):
            return False
        parsed = urlparse_cached(request)
        return not (
            request.meta.get("dont_obey_robotstxt")
            and parsed.path == "/robots.txt"
            and parsed.netloc in self.sheet_hosts
        )


def _failure_reason(exc: Exception) -> str:
    if isinstance(exc, (TimeoutError, DownloadTimeoutError)):
        return "timeout"
    if isinstance(exc, DownloadCancelledError) and "max size" in str(exc).lower():
        return "oversize"  # Scrapy cancels a download past download_maxsize
    return "parse" if isinstance(exc, ValueError) else "download"


def _renamed(sheet: Stylesheet, url: str) -> Stylesheet:
    """The same sheet keyed by the URL pages link (imports stay relative to the final URL)."""
    return replace(sheet, url=url)
