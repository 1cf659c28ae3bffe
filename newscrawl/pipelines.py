"""Item pipelines: thin Scrapy adapters over the plain-Python core.

Order (priorities installed by the add-on; any project may re-order them):

* 300 :class:`ExtractionPipeline` — title, dates, authors, body, is_article from the item's HTML
  with :func:`newscrawl.extract`, using the stylesheets the CSS middleware fetched.
* 350 :class:`TemplatePipeline` — learns each site's template and strips it from the body.
* 800 :class:`ArticleFilterPipeline` — drops pages the page classifier calls non-articles
  (``NEWSCRAWL_EXPORT_ALL = True`` keeps them, with ``is_article`` telling which they are).
* 900 :class:`DropRawHtmlPipeline` — removes the raw HTML before export (``NEWSCRAWL_KEEP_HTML``).
* 950 ``PostgresPipeline`` — upserts articles into PostgreSQL when ``NEWSCRAWL_POSTGRES_DSN`` is set
  (:mod:`newscrawl.postgres`; the watch's ``WatchPipeline`` runs at 850, before it).

Extraction never raises into the crawl: a page that fails is exported with the error recorded in
``extraction`` and counted in ``newscrawl/extraction/errors``; one that takes longer than
``NEWSCRAWL_EXTRACTION_TIMEOUT`` seconds is stopped, exported the same way and counted in
``newscrawl/extraction/timeouts``.

With ``NEWSCRAWL_EXTRACTION_WORKERS`` (default: the machine's cores minus one) the extraction runs
in worker processes (:mod:`newscrawl.extract_pool`) while the reactor keeps downloading; a page
past the time limit has its worker killed, one whose worker dies is exported with the error
(``newscrawl/extraction/worker_deaths``). See docs/workers.md.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem, NotConfigured

from newscrawl.pipeline_state import share_page as _share_page
from newscrawl.pipeline_state import shared_page as shared_page
from newscrawl.pipeline_state import stylesheets_for as _stylesheets_for
from newscrawl.timelimit import TimeLimitExceeded, page_time_limit

if TYPE_CHECKING:
    from newscrawl.extract_pool import ExtractionPool, Task

logger = logging.getLogger(__name__)

# newscrawl.page's warnings when an input limit was hit (size, element count, nesting depth)
LIMIT_WARNINGS = ("input cut to", "document cut", "deeper than")
ARTICLE_FIELDS = ("title", "published", "modified", "authors", "language", "body", "is_article", "probability")


def _check_choices(method: str, page_model: str | None) -> None:
    """Refuse, before the crawl starts, an extractor or page model every page would fail on (each
    page would otherwise get an error or the classifier's fallback rule, all crawl long)."""
    from newscrawl.classify import METHODS

    if method != "nce" and method not in METHODS:
        raise ValueError(f"NEWSCRAWL_BODY_EXTRACTOR = {method!r}: one of 'nce', {', '.join(map(repr, METHODS))}")
    if page_model not in (None, "default", "words", "plain") and not Path(page_model).is_file():
        raise ValueError(
            f"NEWSCRAWL_PAGE_MODEL = {page_model!r}: 'default', 'words', 'plain' or the path of a model file"
        )


class ExtractionPipeline:
    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        if not settings.getbool("NEWSCRAWL_EXTRACTION_ENABLED", True):
            raise NotConfigured("NEWSCRAWL_EXTRACTION_ENABLED is off")
        self._extract: Any = None  # the extractor, for the in-reactor path: _load_extractor
        self.crawler = crawler
        self.method = settings.get("NEWSCRAWL_BODY_EXTRACTOR", "nce")
        self.page_model = settings.get("NEWSCRAWL_PAGE_MODEL") or None
        _check_choices(self.method, self.page_model)
        # keep the Page for TemplatePipeline only when it runs
        self.share = settings.getbool("NEWSCRAWL_TEMPLATE_ENABLED", True)
        self.timeout = settings.getfloat("NEWSCRAWL_EXTRACTION_TIMEOUT", 120.0)
        self.workers = _worker_count(settings.get("NEWSCRAWL_EXTRACTION_WORKERS"))
        if not self.workers:
            self._load_extractor()
        self.pool: ExtractionPool | None = None
        self.waiting: Any = None  # a DeferredSemaphore: pages given to the pool at most (back-pressure)
        if self.workers:
            from newscrawl.css.store import stylesheet_store

            stylesheet_store(crawler).keep_sources = True  # workers parse sheets from their source
        self.site_layout = settings.getbool("NEWSCRAWL_SITE_ARTICLES", True)

    def _load_extractor(self) -> None:
        """The extractor in this process: with workers only if the pool breaks (the crawl's own
        process otherwise never imports it, 0.2 s of its start)."""
        from newscrawl.extract import extract
        from newscrawl.extract.api import extract_from_page
        from newscrawl.page import Page

        self._extract = extract
        self._extract_from_page = extract_from_page
        self._page = Page.from_html

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ExtractionPipeline:
        return cls(crawler)

    def open_spider(self) -> None:
        """Start the worker processes (they load their models while the first pages download)."""
        if not self.workers:
            return
        from twisted.internet.defer import DeferredSemaphore

        from newscrawl.extract_pool import ExtractionPool, Options

        s = self.crawler.settings
        options = Options(
            method=self.method,
            page_model=self.page_model,
            timeout=self.timeout,
            css_max_bytes=s.getint("NEWSCRAWL_CSS_MAX_BYTES", 2 * 1024 * 1024),
            template_mode=s.get("NEWSCRAWL_TEMPLATE_MODE", "after"),
            min_coverage=s.getfloat("NEWSCRAWL_TEMPLATE_MIN_COVERAGE", 0.5),
            site_layout=self.site_layout,
        )
        self.pool = ExtractionPool(
            self.workers,
            options,
            timeout=self.timeout,
            recycle_after=s.getint("NEWSCRAWL_EXTRACTION_WORKER_PAGES", 1000),
        )
        self.waiting = DeferredSemaphore(self.workers * (1 + max(0, s.getint("NEWSCRAWL_EXTRACTION_QUEUE", 2))))
        self.crawler.stats.set_value("newscrawl/workers/processes", self.workers)

    def close_spider(self) -> None:
        if self.pool is not None:
            pool, self.pool = self.pool, None
            pool.close()
            for name, value in pool.counts.items():
                self.crawler.stats.set_value(f"newscrawl/workers/{name}", round(value, 2))

    def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        html = adapter.get("html")
        if not html:
            return item
        if self.pool is not None and self.pool.broken is None:
            return self._in_worker(item, adapter, html)  # a coroutine: Scrapy awaits it
        if self._extract is None:
            self._load_extractor()
        stats = self.crawler.stats
        sheets = _stylesheets_for(self.crawler, list(adapter.get("stylesheets") or []))
        page = None
        try:
            with page_time_limit(self.timeout):
                try:
                    page = self._page(html, adapter.get("url"), stylesheets=tuple(sheets))
                except Exception:  # unparseable input: extract() reports it in the warnings
                    article = self._extract(
                        html, url=adapter.get("url"), stylesheets=sheets, method=self.method, page_model=self.page_model
                    )
                else:
                    article = self._extract_from_page(page, method=self.method, page_model=self.page_model)
                    if self.share:
                        _share_page(item, page)
        except TimeLimitExceeded as exc:  # a page the input limits missed: it must not hold up the crawl
            stats.inc_value("newscrawl/extraction/timeouts")
            logger.error("Extraction of %s stopped: %s", adapter.get("url"), exc)
            adapter["extraction"] = {"error": f"TimeLimitExceeded: {exc}"}
            return item
        except Exception as exc:  # the core must not raise; if it does, keep the page and say why
            stats.inc_value("newscrawl/extraction/errors")
            logger.error("Extraction failed for %s: %s: %s", adapter.get("url"), type(exc).__name__, exc)
            adapter["extraction"] = {"error": f"{type(exc).__name__}: {exc}"}
            return item
        _store_article(adapter, article.to_dict(), stats)
        if self.site_layout and page is not None:  # for SiteArticlePipeline: plain data, as from a worker
            from newscrawl.classify.site import page_layout

            try:
                adapter["site_layout"] = page_layout(page, article.title)
            except Exception as exc:  # the page model's verdict then stands alone
                _layout_failed(adapter, stats, f"{type(exc).__name__}: {exc}")
        return item

    async def _in_worker(self, item: Any, adapter: ItemAdapter, html: str) -> Any:
        """The page's extraction in a worker process; the reactor goes on meanwhile. At most
        ``workers x (1 + NEWSCRAWL_EXTRACTION_QUEUE)`` pages are with the pool; the others wait
        here, holding their responses in Scrapy's scraper, whose size limit then stops downloads."""
        from scrapy.utils.defer import maybe_deferred_to_future

        from newscrawl.extract_pool import PageTimeout, PoolBroken, WorkerDied

        stats = self.crawler.stats
        await maybe_deferred_to_future(self.waiting.acquire())
        try:
            if self.pool is None or self.pool.broken is not None:
                return self.process_item(item)  # the workers could not start: here, as without them
            future = self.pool.submit(self._task(adapter, html))
            result = await maybe_deferred_to_future(_deferred(future))
        except PoolBroken:
            return self.process_item(item)
        except PageTimeout as exc:
            stats.inc_value("newscrawl/extraction/timeouts")
            logger.error("Extraction of %s stopped: %s", adapter.get("url"), exc)
            adapter["extraction"] = {"error": str(exc)}
            return item
        except WorkerDied as exc:
            stats.inc_value("newscrawl/extraction/worker_deaths")
            adapter["extraction"] = {"error": f"WorkerDied: {exc}"}
            return item
        finally:
            self.waiting.release()
        if result.get("sheets_missing"):
            stats.inc_value("newscrawl/extraction/stylesheet_missing", result["sheets_missing"])
        if "timeout" in result or "error" in result:
            kind = "timeouts" if "timeout" in result else "errors"
            reason = result.get("timeout") or result["error"]
            stats.inc_value(f"newscrawl/extraction/{kind}")
            logger.error("Extraction of %s failed: %s", adapter.get("url"), reason)
            adapter["extraction"] = {"error": reason}
            return item
        _store_article(adapter, result["article"], stats)
        if result.get("site_layout") is not None:
            adapter["site_layout"] = result["site_layout"]
        elif result.get("layout_error"):
            _layout_failed(adapter, stats, result["layout_error"])
        applied = result.get("template")
        if applied is not None:  # TemplatePipeline's result, computed in the worker (its stats there)
            body = applied.pop("body")
            adapter["extraction"]["template"] = applied
            if body or "body" not in adapter:
                adapter["body"] = body
        return item

    def _task(self, adapter: ItemAdapter, html: str) -> Task:
        """The page for the pool: stylesheet sources from the CSS store, the templates already known."""
        from newscrawl.extract_pool import Task, TemplateRef

        url = adapter.get("url")
        task = Task(html, url, _sheet_sources(self.crawler, list(adapter.get("stylesheets") or [])))
        if self.share and url:
            from newscrawl.template.pipeline import known_templates

            domain, section, task.has_section = known_templates(self.crawler, url)
            if domain is not None:
                task.template = TemplateRef(*domain)
                if section is not None:
                    task.section = TemplateRef(*section)
        return task


def _worker_count(value: Any) -> int:
    """NEWSCRAWL_EXTRACTION_WORKERS: None (unset) for the cores minus one, 0 for the reactor."""
    from newscrawl.extract_pool import default_workers

    if value is None or value == "":
        return default_workers()
    count = int(value)
    if count < 0:
        raise ValueError(f"NEWSCRAWL_EXTRACTION_WORKERS = {value!r}: 0 (in the main process) or more")
    return count


def _sheet_sources(crawler: Crawler, urls: list[str]) -> list[Any]:
    """A page's stylesheets as the workers take them (:class:`~newscrawl.extract_pool.Sheet`:
    the source, by reference); absent ones are skipped and counted, as in the main process."""
    if not urls:
        return []
    from newscrawl.css.store import stylesheet_store
    from newscrawl.extract_pool import Sheet

    store = stylesheet_store(crawler)
    sheets = []
    for url in urls:
        source = store.source(url) if store.get(url) is not None else None
        if source is None:
            crawler.stats.inc_value("newscrawl/extraction/stylesheet_missing")
        else:
            sheets.append(Sheet(url, *source))
    return sheets


def _deferred(future: Any) -> Any:
    """A Deferred fired in the reactor thread with a concurrent Future's outcome."""
    from twisted.internet import reactor
    from twisted.internet.defer import Deferred

    d: Deferred[Any] = Deferred()

    def done(f: Any) -> None:
        exc = f.exception()
        if exc is not None:
            reactor.callFromThread(d.errback, exc)
        else:
            reactor.callFromThread(d.callback, f.result())

    future.add_done_callback(done)
    return d


def _layout_failed(adapter: ItemAdapter, stats: Any, reason: str) -> None:
    stats.inc_value("newscrawl/site/layout_errors")
    logger.error("Page layout failed for %s: %s", adapter.get("url"), reason)


def _store_article(adapter: ItemAdapter, data: dict[str, Any], stats: Any) -> None:
    """An extracted article's fields on the item, and its stats (the same with or without workers)."""
    for name in ARTICLE_FIELDS:
        value = data.get(name)
        if value is not None and value != []:
            adapter[name] = value
    if data.get("body") is None:
        adapter["body"] = None
    adapter["extraction"] = {**(adapter.get("extraction") or {}), **data.get("provenance", {})}
    if data.get("warnings"):
        adapter["extraction"]["warnings"] = data["warnings"]
    stats.inc_value("newscrawl/extraction/pages")
    if any(marker in w for w in data.get("warnings") or () for marker in LIMIT_WARNINGS):
        stats.inc_value("newscrawl/extraction/input_limited")  # hostile or broken page, cut to the limits
    stats.inc_value("newscrawl/extraction/articles" if data.get("is_article") else "newscrawl/extraction/non_articles")


class ArticleFilterPipeline:
    """Drops pages that the page classifier calls non-articles, unless NEWSCRAWL_EXPORT_ALL."""

    def __init__(self, crawler: Crawler) -> None:
        if crawler.settings.getbool("NEWSCRAWL_EXPORT_ALL", False):
            raise NotConfigured("NEWSCRAWL_EXPORT_ALL keeps every page")
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ArticleFilterPipeline:
        return cls(crawler)

    def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        if adapter.get("is_article") is False:
            self.crawler.stats.inc_value("newscrawl/export/non_articles_dropped")
            raise DropItem(f"not an article: {adapter.get('url')}", log_level="DEBUG")
        return item


class DropRawHtmlPipeline:
    """Removes the raw HTML from items before export, unless NEWSCRAWL_KEEP_HTML."""

    def __init__(self, crawler: Crawler) -> None:
        if crawler.settings.getbool("NEWSCRAWL_KEEP_HTML", False):
            raise NotConfigured("NEWSCRAWL_KEEP_HTML keeps the raw HTML")

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DropRawHtmlPipeline:
        return cls(crawler)

    def process_item(self, item: Any) -> Any:
        ItemAdapter(item).pop("html", None)
        return item


def __getattr__(name: str) -> Any:
    # TemplatePipeline lives with the template core; imported lazily so this module loads
    # without it.
    if name == "TemplatePipeline":
        from newscrawl.template.pipeline import TemplatePipeline

        return TemplatePipeline
    if name == "PostgresPipeline":  # upserts into PostgreSQL (the postgres extra, newscrawl.postgres)
        from newscrawl.postgres import PostgresPipeline

        return PostgresPipeline
    raise AttributeError(name)
