"""``TemplatePipeline``: learn each site's template once, strip it from every article's body.

A thin Scrapy adapter over :mod:`newscrawl.template`. The HTML of the pages the crawl downloads
(every response, not only items) is kept, a bounded number per domain for the most recent
domains, with the page's on-site links once known (an item's ``outlinks``, or from the one parse
of a page the search reads). The first item of a domain becomes the key page; the n-CS search
first runs over the linked pages the crawl already has (Algorithm 1's order restricted to them),
and only when they hold no complete subdigraph of ``n`` pages does it search again, downloading
the missing pages through the engine (``download_async``). The key page is the Page
:class:`~newscrawl.pipelines.ExtractionPipeline` built (:func:`~newscrawl.pipeline_state.shared_page`),
not a second parse. The template goes to the :class:`~newscrawl.template.cache.TemplateCache`
(memory, and disk under ``NEWSCRAWL_TEMPLATE_CACHE_DIR`` or ``JOBDIR``) and is applied to every
item of the domain (``NEWSCRAWL_TEMPLATE_MODE``). A page that matches less than
``NEWSCRAWL_TEMPLATE_MIN_COVERAGE`` of the domain's template belongs to a section with its own
template, learned the same way and cached under ``domain/section``. The item's
``extraction["template"]`` records the template id, its key and how many elements were removed.
"""

from __future__ import annotations

import logging
import zlib
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

from itemadapter import ItemAdapter
from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import TextResponse
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import Deferred

from newscrawl.links.urls import canonicalize, registrable_domain
from newscrawl.page import Page
from newscrawl.pipeline_state import shared_page, stylesheets_for
from newscrawl.template.cache import TemplateCache, cache_key
from newscrawl.template.detect import template_from_search
from newscrawl.template.etdm import Params
from newscrawl.template.extraction import MODES, remove_template
from newscrawl.template.model import Template
from newscrawl.template.topology import (
    CompleteSubdigraphSearch,
    Link,
    hyperlink_distance,
    link_relevance_key,
    page_links,
)

logger = logging.getLogger(__name__)
STATS = "newscrawl/template"
# the crawl's TemplatePipeline, for ExtractionPipeline's worker processes (known_templates)
_RUNNING: WeakKeyDictionary[Crawler, TemplatePipeline] = WeakKeyDictionary()


def params_from_settings(settings: Any) -> Params:
    weights = settings.getdict("NEWSCRAWL_TEMPLATE_WEIGHTS")
    missing = settings.getdict("NEWSCRAWL_TEMPLATE_NOT_PROBABILITIES")
    base = Params()
    return Params(
        w_classes=float(weights.get("classes", base.w_classes)),
        w_position=float(weights.get("position", base.w_position)),
        w_attributes=float(weights.get("attributes", base.w_attributes)),
        w_children=float(weights.get("children", base.w_children)),
        not_classes=float(missing.get("classes", base.not_classes)),
        not_attributes=float(missing.get("attributes", base.not_attributes)),
        not_children=float(missing.get("children", base.not_children)),
        threshold=settings.getfloat("NEWSCRAWL_TEMPLATE_THRESHOLD", base.threshold),
        ordered=settings.getbool("NEWSCRAWL_TEMPLATE_ORDERED", base.ordered),
        text_mismatch=settings.getfloat("NEWSCRAWL_TEMPLATE_TEXT_MISMATCH", base.text_mismatch),
    )


@dataclass
class Stored:
    """A page the crawl downloaded: its HTML (zlib, level 1: a few ms per hundred pages, and a
    fifth of the memory) and, once known, its canonical on-site links."""

    packed: bytes | None
    links: list[str] | None = None

    @property
    def html(self) -> str | None:
        return None if self.packed is None else zlib.decompress(self.packed).decode("utf-8", "surrogatepass")


def _pack(html: str) -> bytes:
    return zlib.compress(html.encode("utf-8", "surrogatepass"), 1)


class PageStore:
    """Recent pages per registrable domain (``per_domain`` each, ``domains`` domains), least
    recently used out first: what the n-CS search reads instead of downloading."""

    def __init__(self, per_domain: int, domains: int = 8) -> None:
        self.per_domain = per_domain
        self.domains = domains
        self._pages: OrderedDict[str, OrderedDict[str, Stored]] = OrderedDict()

    def add(self, url: str, html: str | None, links: list[str] | None = None) -> None:
        domain = registrable_domain(url)
        pages = self._pages.setdefault(domain, OrderedDict())
        self._pages.move_to_end(domain)
        old = pages.pop(url, None)
        pages[url] = Stored(
            _pack(html) if html is not None else (old.packed if old else None),
            links if links is not None else (old.links if old else None),
        )
        while len(pages) > self.per_domain:
            pages.popitem(last=False)
        while len(self._pages) > self.domains:
            self._pages.popitem(last=False)

    def add_links(self, url: str, html: str, links: list[str]) -> None:
        """The links of a page, from its item: the HTML kept at its download is not packed again
        (it is the same response); ``html`` is kept only when the page is not held any more."""
        pages = self._pages.get(registrable_domain(url))
        held = pages.get(url) if pages is not None else None
        self.add(url, None if held is not None and held.packed is not None else html, links)

    def get(self, url: str) -> Stored | None:
        return self._pages.get(registrable_domain(url), OrderedDict()).get(url)

    def set_links(self, url: str, links: list[str]) -> None:
        stored = self.get(url)
        if stored is not None:
            stored.links = links


class TemplatePipeline:
    def __init__(self, crawler: Crawler) -> None:
        s = crawler.settings
        if not s.getbool("NEWSCRAWL_TEMPLATE_ENABLED", True):
            raise NotConfigured("NEWSCRAWL_TEMPLATE_ENABLED is off")
        self.crawler = crawler
        self.stats = crawler.stats
        self.params = params_from_settings(s)
        self.n = s.getint("NEWSCRAWL_TEMPLATE_N", 3)
        self.t = s.getint("NEWSCRAWL_TEMPLATE_T", 3)
        self.max_fetch = s.getint("NEWSCRAWL_TEMPLATE_MAX_FETCH", 15)
        self.max_attempts = s.getint("NEWSCRAWL_TEMPLATE_MAX_ATTEMPTS", 3)
        self.min_coverage = s.getfloat("NEWSCRAWL_TEMPLATE_MIN_COVERAGE", 0.5)
        self.atypical = s.getfloat("NEWSCRAWL_TEMPLATE_ATYPICAL", 0.5)
        self.mode = s.get("NEWSCRAWL_TEMPLATE_MODE", "after")
        if self.mode not in MODES:
            raise ValueError(f"NEWSCRAWL_TEMPLATE_MODE must be one of {MODES}, not {self.mode!r}")
        directory = s.get("NEWSCRAWL_TEMPLATE_CACHE_DIR")
        if not directory and s.get("JOBDIR"):
            directory = str(Path(s.get("JOBDIR")) / "newscrawl-templates")
        self.cache = TemplateCache(
            s.getint("NEWSCRAWL_TEMPLATE_CACHE_SIZE", 512),
            directory,
            s.getfloat("NEWSCRAWL_TEMPLATE_EXPIRY", 0) or None,
        )
        if s.getbool("NEWSCRAWL_DISTRIBUTED"):  # workers share templates through Redis (issue 7)
            from newscrawl.distributed.state import redis_template_cache

            self.cache = redis_template_cache(s)
        self.store = PageStore(s.getint("NEWSCRAWL_TEMPLATE_MAX_PAGES", 100))
        self.learning: dict[str, list[Deferred[None]]] = {}
        self.attempts: dict[str, int] = {}
        self.stale: set[str] = set()  # keys whose cached template had other parameters (logged once)
        self.known: set[str] = set()  # domains with a template
        self.absent: set[str] = set()  # keys templates_for found no template for (until one is learned here)
        crawler.signals.connect(self.response_received, signal=signals.response_received)
        _RUNNING[crawler] = self

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> TemplatePipeline:
        return cls(crawler)

    def templates_for(self, url: str) -> tuple[tuple[str, Template] | None, tuple[str, Template] | None, bool]:
        """The templates this pipeline would apply to ``url`` without learning anything: the
        domain's and the section's (each ``(key, template)`` or None), and whether the page's
        section key differs from its domain's. An extraction worker applies them itself."""
        key, section = cache_key(url), cache_key(url, section=True)
        return self._cached(key), self._cached(section) if section != key else None, section != key

    def _cached(self, key: str) -> tuple[str, Template] | None:
        if key in self.learning or key in self.absent:
            return None
        template = self.cache.get(key)
        if template is None:  # most section keys have none: not asked again (disk, Redis) for every item
            if len(self.absent) >= 10_000:
                self.absent.clear()
            self.absent.add(key)
            return None
        return (key, template) if template.params == self.params else None

    # --- page store ----------------------------------------------------------------------------
    def response_received(self, response: Any, request: Any, spider: Any = None) -> None:
        """Keep the HTML of the pages the crawl downloads (recent ones, a few domains)."""
        if not isinstance(response, TextResponse) or b"html" not in (response.headers.get("Content-Type") or b"html"):
            return
        if response.status == 200:
            self.store.add(canonicalize(response.url), response.text)

    async def _download(self, url: str) -> str | None:
        """A missing page, through the engine (not the scheduler: the search waits for it)."""
        request = Request(url, callback=NO_CALLBACK, dont_filter=True, meta={"newscrawl_template": True})
        try:
            response = await self.crawler.engine.download_async(request)
        except Exception as exc:  # a missing page only shrinks the search
            logger.debug("template: could not fetch %s: %s", url, exc)
            self.stats.inc_value(f"{STATS}/fetch_errors")
            return None
        self.stats.inc_value(f"{STATS}/pages_fetched")
        if not isinstance(response, TextResponse) or response.status != 200:
            return None
        self.store.add(url, response.text)
        return response.text

    def _known(self, key: str) -> None:
        if "/" not in key and key not in self.known:
            self.known.add(key)
            self.stats.set_value("newscrawl/templates/domains", len(self.known))  # read by newscrawl.progress

    # --- learning ------------------------------------------------------------------------------
    async def _search(
        self, url: str, key_links: list[Link], roots: dict[str, Any], download: bool
    ) -> CompleteSubdigraphSearch:
        """Algorithm 2 over ``key_links``: stored pages are read from the store (their links
        without a parse when known), missing ones downloaded only with ``download``."""
        search = CompleteSubdigraphSearch(url, key_links, self.n)
        while len(search.processed) < self.max_fetch and (link := search.next_url()) is not None:
            stored = self.store.get(link)
            links = None
            if stored is not None:
                self.stats.inc_value(f"{STATS}/pages_from_store")
                html = stored.html
            else:
                html = await self._download(link) if download else None
            if stored is not None and stored.links is not None:
                links = stored.links
            elif html is not None:
                roots[link] = Page.from_html(html, link).root
                links = [lk.url for lk in page_links(roots[link], link)]
                self.store.set_links(link, links)
            search.record(link, links)
        return search

    async def _learn(self, key: str, url: str, page: Page) -> Template | None:
        key_links = page_links(page.root, url)
        roots: dict[str, Any] = {}
        # The pages the crawl already has first, from the link-relevance classes the full search
        # would take its first n pages from (a stored page of another section must not win over
        # the key page's nearer, not yet downloaded, neighbours); download only without an n-CS.
        relevance = {lk.url: link_relevance_key(hyperlink_distance(url, lk.url)) for lk in key_links}
        ranked = sorted(relevance.values())
        limit = ranked[min(self.n, len(ranked)) - 1] if ranked else (0, 0)
        have = [lk for lk in key_links if relevance[lk.url] <= limit and self.store.get(lk.url) is not None]
        search = await self._search(url, have, roots, False)
        if len(search.best) < self.n:
            search = await self._search(url, key_links, roots, True)
        for link in search.processed:  # CS pages (and replacements) whose links came parse-free
            stored = self.store.get(link)
            html = stored.html if stored is not None and link not in roots else None
            if html is not None:
                roots[link] = Page.from_html(html, link).root
        template = template_from_search(
            page.root,
            url,
            search.best,
            search.processed,
            roots,
            n=self.n,
            t=self.t,
            params=self.params,
            atypical=self.atypical,
        )
        if template is None:
            self.stats.inc_value(f"{STATS}/no_cs")
            logger.info("template: no complete subdigraph from %s (%d pages loaded)", url, len(search.processed))
            return None
        self.cache.put(key, template)
        self.absent.discard(key)
        self._known(key)
        self.stats.inc_value(f"{STATS}/learned")
        logger.info("template %s for %s: %d nodes from %s + %s", template.id, key, template.size, url, template.pages)
        return template

    async def _template(self, key: str, url: str, page: Page) -> Template | None:
        """The cached template of ``key``, or learn it with this page as the key page (once:
        concurrent items of the same key wait for the same learning)."""
        template = self.cache.get(key)
        if template is not None and template.params != self.params:
            # learned by an earlier run with other NEWSCRAWL_TEMPLATE_* settings: its node set
            # answers another question, so it is learned again (and replaced) rather than applied
            if key not in self.stale:
                self.stale.add(key)
                logger.info("template: cached template of %s was learned with other parameters; relearning", key)
                self.stats.inc_value(f"{STATS}/stale_params")
            template = None
        if template is not None:
            self._known(key)
            return template
        if key in self.learning:
            waiter: Deferred[None] = Deferred()
            self.learning[key].append(waiter)
            await maybe_deferred_to_future(waiter)
            return self.cache.get(key)
        if self.attempts.get(key, 0) >= self.max_attempts:
            return None
        self.attempts[key] = self.attempts.get(key, 0) + 1
        self.learning[key] = []
        try:
            return await self._learn(key, url, page)
        except Exception:
            logger.exception("template: learning failed for %s", key)
            self.stats.inc_value(f"{STATS}/errors")
            return None
        finally:
            for waiter in self.learning.pop(key):
                waiter.callback(None)

    # --- items ---------------------------------------------------------------------------------
    async def process_item(self, item: Any, spider: Any = None) -> Any:
        adapter = ItemAdapter(item)
        html, url = adapter.get("html"), adapter.get("url")
        if not html or not url:
            return item
        if (adapter.get("extraction") or {}).get("error"):  # stopped or crashed: never parsed again here
            return item
        applied = (adapter.get("extraction") or {}).get("template")
        if applied and "removed" in applied:  # an extraction worker applied a known template
            return self._applied_in_worker(adapter, url, html, applied)
        page = shared_page(item)
        if page is None:
            page = Page.from_html(html, url)
            self.stats.inc_value(f"{STATS}/pages_parsed")
        if adapter.get("outlinks") is not None:  # the spider's links: a later search reads them parse-free
            self.store.add_links(canonicalize(url), html, list(adapter["outlinks"]))
        key = cache_key(url)
        template = await self._template(key, url, page)
        match = template.match(page) if template is not None else None
        if template is not None and match and len(match[1]) < self.min_coverage * template.size:
            section = cache_key(url, section=True)
            if section != key:
                self.stats.inc_value(f"{STATS}/low_coverage")
                section_template = await self._template(section, url, page)
                if section_template is not None:
                    template, key = section_template, section
                    match = template.match(page, match[0])
        if template is None:
            self.stats.inc_value(f"{STATS}/items_without_template")
            return item
        sheets = stylesheets_for(self.crawler, list(adapter.get("stylesheets") or []))
        had_body = "body" in adapter
        body, removed = remove_template(page, template, adapter.get("body"), self.mode, sheets, match)
        self.stats.inc_value(f"{STATS}/items")
        self.stats.inc_value(f"{STATS}/nodes_removed", removed)
        extraction = dict(adapter.get("extraction") or {})
        extraction["template"] = {"id": template.id, "key": key, "removed": removed}
        adapter["extraction"] = extraction
        if body or not had_body:  # never turn an extracted body into nothing
            adapter["body"] = body
        return item

    def _applied_in_worker(self, adapter: ItemAdapter, url: str, html: str, applied: dict[str, Any]) -> Any:
        """The bookkeeping of an item whose template an extraction worker applied (the same
        stats and page store as when this pipeline applies it)."""
        outlinks = adapter.get("outlinks")
        if outlinks is not None:
            self.store.add_links(canonicalize(url), html, list(outlinks))
        self._known(applied["key"].split("/", 1)[0])
        if applied.get("low_coverage"):
            self.stats.inc_value(f"{STATS}/low_coverage")
        self.stats.inc_value(f"{STATS}/items")
        self.stats.inc_value(f"{STATS}/nodes_removed", applied["removed"])
        applied.pop("low_coverage", None)
        return adapter.item


def known_templates(
    crawler: Crawler, url: str
) -> tuple[tuple[str, Template] | None, tuple[str, Template] | None, bool]:
    """:meth:`TemplatePipeline.templates_for` of the crawl's template pipeline ((None, None, False) without one)."""
    pipeline = _RUNNING.get(crawler)
    return pipeline.templates_for(url) if pipeline is not None else (None, None, False)
