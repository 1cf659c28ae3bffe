"""Item pipelines: thin Scrapy adapters over the plain-Python core.

Order (priorities installed by the add-on; any project may re-order them):

* 300 :class:`ExtractionPipeline` — title, dates, authors, body, is_article from the item's HTML
  with :func:`newscrawl.extract`, using the stylesheets the CSS middleware fetched.
* 350 :class:`TemplatePipeline` — learns each site's template and strips it from the body.
* 800 :class:`ArticleFilterPipeline` — drops pages the page classifier calls non-articles
  (``NEWSCRAWL_EXPORT_ALL = True`` keeps them, with ``is_article`` telling which they are).
* 900 :class:`DropRawHtmlPipeline` — removes the raw HTML before export (``NEWSCRAWL_KEEP_HTML``).

Extraction never raises into the crawl: a page that fails is exported with the error recorded in
``extraction`` and counted in ``newscrawl/extraction/errors``; one that takes longer than
``NEWSCRAWL_EXTRACTION_TIMEOUT`` seconds is stopped, exported the same way and counted in
``newscrawl/extraction/timeouts``.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

from itemadapter import ItemAdapter
from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem, NotConfigured

from newscrawl.timelimit import TimeLimitExceeded, page_time_limit

logger = logging.getLogger(__name__)

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


def _share_page(item: Any, page: Any) -> None:
    try:
        _pages[item] = page
    except TypeError:
        pass

# newscrawl.page's warnings when an input limit was hit (size, element count, nesting depth)
LIMIT_WARNINGS = ("input cut to", "document cut", "deeper than")
ARTICLE_FIELDS = ("title", "published", "modified", "authors", "language", "body", "is_article", "probability")


def _stylesheets_for(crawler: Crawler, urls: list[str]) -> list[Any]:
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


def _check_choices(method: str, page_model: str | None) -> None:
    """Refuse, before the crawl starts, an extractor or page model every page would fail on (each
    page would otherwise get an error or the classifier's fallback rule, all crawl long)."""
    from newscrawl.classify import METHODS

    if method != "nce" and method not in METHODS:
        raise ValueError(f"NEWSCRAWL_BODY_EXTRACTOR = {method!r}: one of 'nce', {', '.join(map(repr, METHODS))}")
    if page_model not in (None, "default", "words", "plain") and not Path(page_model).is_file():
        raise ValueError(f"NEWSCRAWL_PAGE_MODEL = {page_model!r}: "
                         "'default', 'words', 'plain' or the path of a model file")


class ExtractionPipeline:
    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        if not settings.getbool("NEWSCRAWL_EXTRACTION_ENABLED", True):
            raise NotConfigured("NEWSCRAWL_EXTRACTION_ENABLED is off")
        from newscrawl.extract import extract
        from newscrawl.extract.api import extract_from_page
        from newscrawl.page import Page

        self._extract = extract
        self._extract_from_page = extract_from_page
        self._page = Page.from_html
        self.crawler = crawler
        self.method = settings.get("NEWSCRAWL_BODY_EXTRACTOR", "nce")
        self.page_model = settings.get("NEWSCRAWL_PAGE_MODEL") or None
        _check_choices(self.method, self.page_model)
        # keep the Page for TemplatePipeline only when it runs
        self.share = settings.getbool("NEWSCRAWL_TEMPLATE_ENABLED", True)
        self.timeout = settings.getfloat("NEWSCRAWL_EXTRACTION_TIMEOUT", 120.0)
        self.site_layout = settings.getbool("NEWSCRAWL_SITE_ARTICLES", True)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ExtractionPipeline:
        return cls(crawler)

    def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        html = adapter.get("html")
        if not html:
            return item
        stats = self.crawler.stats
        sheets = _stylesheets_for(self.crawler, list(adapter.get("stylesheets") or []))
        page = None
        try:
            with page_time_limit(self.timeout):
                try:
                    page = self._page(html, adapter.get("url"), stylesheets=tuple(sheets))
                except Exception:  # unparseable input: extract() reports it in the warnings
                    article = self._extract(html, url=adapter.get("url"), stylesheets=sheets, method=self.method,
                                            page_model=self.page_model)
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
        data = article.to_dict()
        for name in ARTICLE_FIELDS:
            value = data.get(name)
            if value is not None and value != []:
                adapter[name] = value
        if data.get("body") is None:
            adapter["body"] = None
        adapter["extraction"] = {**(adapter.get("extraction") or {}), **data.get("provenance", {})}
        if data.get("warnings"):
            adapter["extraction"]["warnings"] = data["warnings"]
        if self.site_layout and page is not None:  # for SiteArticlePipeline: plain data, as from a worker
            from newscrawl.classify.site import page_layout

            try:
                adapter["site_layout"] = page_layout(page, article.title)
            except Exception as exc:  # the page model's verdict then stands alone
                stats.inc_value("newscrawl/site/layout_errors")
                logger.error("Page layout failed for %s: %s: %s", adapter.get("url"), type(exc).__name__, exc)
        stats.inc_value("newscrawl/extraction/pages")
        if any(marker in w for w in data.get("warnings") or () for marker in LIMIT_WARNINGS):
            stats.inc_value("newscrawl/extraction/input_limited")  # hostile or broken page, cut to the limits
        stats.inc_value("newscrawl/extraction/articles" if data.get("is_article") else "newscrawl/extraction/non_articles")
        return item


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
    raise AttributeError(name)
