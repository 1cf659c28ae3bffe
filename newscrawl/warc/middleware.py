"""Scrapy adapters of the WARC writer: ``NEWSCRAWL_WARC_DIR`` turns them on (the add-on installs them).

* :class:`WarcDownloaderMiddleware` (downloader middleware, priority 950): every response the
  downloader returns — pages, redirects, stylesheets, robots.txt, sitemaps, feeds — is written
  with its request before any other middleware sees it. At 950 it sits beyond
  HttpCompressionMiddleware (590), so the body is archived as received (still gzip, brotli, ...
  as the server sent it), and beyond HttpCacheMiddleware (900). Chunked transfer coding is
  already removed by the download handler: the ``Transfer-Encoding`` header is kept under the
  name ``X-Newscrawl-Transfer-Encoding``, so readers do not try to de-chunk the body again. The
  record's location goes to ``request.meta["newscrawl_warc"]``.
* :class:`WarcItemMiddleware` (spider middleware): copies that location into the ``warc`` field
  of each item the page's callback yields.

A response that cannot be written (disk full) is logged and counted
(``newscrawl/warc/write_errors``); the crawl goes on. With ``JOBDIR``, the job's earlier WARC
files are listed in ``JOBDIR/newscrawl-warc.txt`` and cut back to their last whole record when the
crawl resumes (:func:`newscrawl.warc.writer.repair`).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from scrapy import Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Request, Response
from scrapy.utils.job import job_dir

logger = logging.getLogger(__name__)

META = "newscrawl_warc"
PRIORITY = 950
STATS = "newscrawl/warc"
_RENAMED = {b"transfer-encoding": "X-Newscrawl-Transfer-Encoding"}


def _header_list(headers: Any) -> list[tuple[str, str]]:
    """Scrapy Headers as (name, value) pairs, multi-valued headers repeated, bytes as latin-1."""
    pairs = []
    for name, values in headers.items():
        key = _RENAMED.get(name.lower(), name.decode("latin-1"))
        for value in values:
            pairs.append((key, value.decode("latin-1")))
    return pairs


class WarcDownloaderMiddleware:
    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        directory = settings.get("NEWSCRAWL_WARC_DIR")
        if not directory:
            raise NotConfigured("NEWSCRAWL_WARC_DIR is not set")
        from newscrawl.warc.reader import require_warcio
        from newscrawl.warc.writer import WarcWriter, repair

        require_warcio()
        self.crawler = crawler
        self.stats = crawler.stats
        self.ledger: Path | None = None
        jobdir = job_dir(settings)
        if jobdir:
            self.ledger = Path(jobdir, "newscrawl-warc.txt")
            for line in self.ledger.read_text(encoding="utf-8").splitlines() if self.ledger.exists() else ():
                if line.strip() and Path(line.strip()).exists() and repair(line.strip()):
                    self.stats.inc_value(f"{STATS}/repaired_files")
        info = {
            "isPartOf": settings.get("BOT_NAME"),
            "http-header-user-agent": settings.get("USER_AGENT"),
            "robots": "obey" if settings.getbool("ROBOTSTXT_OBEY") else "ignore",
            "description": settings.get("NEWSCRAWL_WARC_DESCRIPTION"),
        }
        self.writer = WarcWriter(
            directory,
            prefix=settings.get("NEWSCRAWL_WARC_PREFIX") or "newscrawl",
            max_bytes=settings.getint("NEWSCRAWL_WARC_MAX_BYTES", 10**9),
            info=info,
        )
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> WarcDownloaderMiddleware:
        return cls(crawler)

    def process_response(self, request: Request, response: Response) -> Response:
        files = len(self.writer.files)
        try:
            location = self.writer.write_exchange(
                url=response.url,
                method=request.method,
                request_headers=_header_list(request.headers),
                request_body=request.body or b"",
                protocol=response.protocol or "HTTP/1.1",
                status=response.status,
                reason=_reason(response.status),
                response_headers=_header_list(response.headers),
                body=response.body,
                ip=str(response.ip_address) if response.ip_address else None,
            )
        except Exception as exc:  # the archive must never stop the crawl
            self.stats.inc_value(f"{STATS}/write_errors")
            logger.error("WARC record of %s not written: %s: %s", response.url, exc.__class__.__name__, exc)
            return response
        if len(self.writer.files) > files:
            self.stats.inc_value(f"{STATS}/files")
            if self.ledger is not None:
                with self.ledger.open("a", encoding="utf-8") as ledger:
                    ledger.write(f"{self.writer.files[-1]}\n")
        request.meta[META] = location.to_dict()
        self.stats.inc_value(f"{STATS}/responses")
        self.stats.set_value(f"{STATS}/bytes", self.writer.written)
        return response

    def spider_closed(self, spider: Spider) -> None:
        self.writer.close()


def _reason(status: int) -> str:
    from http import HTTPStatus

    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


class WarcItemMiddleware:
    """Puts the page's WARC location into the ``warc`` field of the items its callback yields."""

    def __init__(self, crawler: Crawler) -> None:
        if not crawler.settings.get("NEWSCRAWL_WARC_DIR"):
            raise NotConfigured("NEWSCRAWL_WARC_DIR is not set")
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> WarcItemMiddleware:
        return cls(crawler)

    async def process_spider_output(self, response: Response, result: Any, spider: Any = None) -> Any:
        location = response.meta.get(META)
        async for output in result:
            if location is not None and output is not None and not isinstance(output, Request):
                from itemadapter import ItemAdapter

                try:
                    ItemAdapter(output)["warc"] = dict(location)
                except (KeyError, TypeError):  # an item class without a warc field
                    self.stats.inc_value(f"{STATS}/items_without_field")
            yield output


def install(settings: Any) -> None:
    """Add-on hook: with ``NEWSCRAWL_WARC_DIR`` set, both middlewares (warcio missing: a clear error now)."""
    if not settings.get("NEWSCRAWL_WARC_DIR"):
        return
    from newscrawl.warc.reader import require_warcio

    require_warcio()
    settings.setdefault_in_component_priority_dict(
        "DOWNLOADER_MIDDLEWARES", "newscrawl.warc.middleware.WarcDownloaderMiddleware", PRIORITY
    )
    settings.setdefault_in_component_priority_dict(
        "SPIDER_MIDDLEWARES", "newscrawl.warc.middleware.WarcItemMiddleware", 10
    )
