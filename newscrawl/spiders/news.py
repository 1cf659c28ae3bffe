"""The ``news`` spider: ``scrapy crawl news -a start=URL[,URL...]`` (or ``-a start_file=PATH``).

It stays on the registrable domains of its start URLs, discovers pages through links, sitemaps
(robots.txt ``Sitemap:`` lines and ``/sitemap.xml``) and the RSS/Atom feeds a start page links,
scores every URL with the link-target classifier, fetches likely articles first, and hands
article candidates to the item pipelines as :class:`~newscrawl.items.NewsArticle` items.

Which pages go to the pipelines: when the page declares its type in structured data (a JSON-LD /
microdata Article type or ``itemprop=articleBody``; or only page types such as WebPage,
CollectionPage, ProfilePage), that declaration decides; without one, ``og:type=article`` says
yes; otherwise the URL probability must reach ``NEWSCRAWL_ARTICLE_THRESHOLD``. So a low URL score never hides
a page that says it is an article. The other pages are counted in ``newscrawl/pages/not_candidate`` and logged
at DEBUG. With ``NEWSCRAWL_HAND_OFF = "all"`` every HTML page becomes an item.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import AsyncIterator, Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import scrapy
from parsel import Selector
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import CloseSpider
from scrapy.http import HtmlResponse, Request, Response, TextResponse
from twisted.python.failure import Failure

from newscrawl.classify.site import declared_article
from newscrawl.encoding import decode_html
from newscrawl.items import NewsArticle
from newscrawl.links.discovery import FEED_TYPES, parse_feed, parse_sitemap, sitemaps_from_robots
from newscrawl.links.traps import TrapGuard
from newscrawl.links.urls import Scope, UrlCanonicalizer, looks_like_html, registrable_domain
from newscrawl.modelio import ModelError
from newscrawl.responses import base_url, resolve, selector
from newscrawl.safeurl import join_url, valid_url

logger = logging.getLogger(__name__)
# an http(s) href with a host: urljoin returns it (re-assembled) whatever the base, given the scheme
_ABSOLUTE_HREF = re.compile(r"[Hh][Tt][Tt][Pp][Ss]?://[^/?#]")


def _looks_binary(body: bytes) -> bool:
    """True for bodies that are plainly not text (NUL bytes, mostly control characters)."""
    head = body[:2048]
    if not head:
        return False
    if b"\x00" in head:
        return True
    if head[:3] == b"\xef\xbb\xbf" or head.lstrip()[:1] == b"<":
        return False
    control = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13))
    return control / len(head) > 0.1


class NewsSpider(scrapy.Spider):
    name = "news"

    def __init__(self, start: str | None = None, start_file: str | None = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        urls = [u.strip() for u in (start or "").split(",") if u.strip()]
        if start_file:
            for line in Path(start_file).read_text(encoding="utf-8").splitlines():
                line = line.strip()
                if line and not line.startswith("#"):
                    urls.append(line)
        self.start_urls = [u if "://" in u else f"https://{u}" for u in urls]

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> NewsSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        # Settings are final (add-ons applied) only once the crawl starts, not here.
        crawler.signals.connect(spider._configure, signal=signals.spider_opened)
        crawler.signals.connect(spider._scheduled, signal=signals.request_scheduled)
        crawler.signals.connect(spider._dropped, signal=signals.request_dropped)
        return spider

    @property
    def stats(self) -> Any:
        return self.crawler.stats

    def _configure(self) -> None:
        from newscrawl.links.classifier import UrlClassifier  # loads the model once per crawl

        s = self.crawler.settings
        # present from the start, so the progress line never counts other responses before the first page
        self.stats.set_value("newscrawl/pages/fetched", self.stats.get_value("newscrawl/pages/fetched", 0))
        self.canonicalize = UrlCanonicalizer(s.getlist("NEWSCRAWL_STRIP_PARAMS"))
        self.start_urls = self.valid_start_urls(self.start_urls)
        self.scope = Scope(
            self.start_urls,
            allow_subdomains=s.getbool("NEWSCRAWL_ALLOW_SUBDOMAINS", True),
            extra_domains=s.getlist("NEWSCRAWL_ALLOWED_DOMAINS"),
        )
        self.traps = TrapGuard(
            max_url_length=s.getint("NEWSCRAWL_MAX_URL_LENGTH", 2000),
            max_pagination=s.getint("NEWSCRAWL_MAX_PAGINATION", 50),
            max_repeated_segments=s.getint("NEWSCRAWL_MAX_REPEATED_SEGMENTS", 3),
        )
        try:
            self.classifier = UrlClassifier.load(
                s.get("NEWSCRAWL_URL_MODEL") or None, extra_reserved_words=s.getlist("NEWSCRAWL_RESERVED_WORDS")
            )
        except ModelError as exc:  # missing, tampered or stale model: stop at once, say why
            logger.error("URL model refused: %s", exc)
            raise CloseSpider("url_model_refused") from exc
        self.threshold = s.getfloat("NEWSCRAWL_ARTICLE_THRESHOLD", 0.5)
        self.hand_off_all = s.get("NEWSCRAWL_HAND_OFF", "articles") == "all"
        self.max_pages_per_domain = s.getint("NEWSCRAWL_MAX_PAGES_PER_DOMAIN", 0)
        self.max_links = s.getint("NEWSCRAWL_MAX_LINKS_PER_PAGE", 2000)
        self.discover_sitemaps = s.getbool("NEWSCRAWL_DISCOVER_SITEMAPS", True)
        self.discover_feeds = s.getbool("NEWSCRAWL_DISCOVER_FEEDS", True)
        # page requests the scheduler accepted, by registrable domain: NEWSCRAWL_MAX_PAGES_PER_DOMAIN
        # bounds these, so a sitemap index of millions of URLs never fills the queue past it
        self.queued_per_domain: Counter[str] = Counter()
        self.handed_canonicals: set[str] = set()
        # hashes of the URLs already given to the scheduler (its dupefilter holds them now): a link
        # seen again is not made a request again, only for the dupefilter to drop it. A news page
        # links ~20 pages of its site, nearly all seen before; each request costs the spider
        # middlewares, a fingerprint and the URL model. Exact strings only: a URL that Scrapy
        # rewrites still reaches the dupefilter, as before.
        self.scheduled_urls: set[int] = set()
        self.href_links: dict[tuple[str, str], str | None] = {}  # _outlinks' resolved hrefs

    def valid_start_urls(self, urls: Iterable[str]) -> list[str]:
        """The canonical start URLs; a malformed one (``http://[x/``, a port that is not a number)
        is skipped with an error line and ``newscrawl/start/invalid``, not fatal to the crawl."""
        valid = []
        for url in urls:
            try:
                valid.append(self.canonicalize(url))
            except ValueError as exc:
                self.stats.inc_value("newscrawl/start/invalid")
                logger.error("Start URL %r skipped: malformed (%s)", url[:200], exc)
        return valid

    # --- start --------------------------------------------------------------------------------
    async def start(self) -> AsyncIterator[Request]:
        if not self.start_urls:
            if self.settings.getbool("NEWSCRAWL_DISTRIBUTED") and self.settings.getbool("NEWSCRAWL_REDIS_START_URLS"):
                return  # a distributed worker fed from Redis (newscrawl.distributed.worker)
            raise ValueError("the news spider needs start URLs: -a start=URL[,URL...] or -a start_file=PATH")
        for url in self.start_urls:
            yield Request(
                url, callback=self.parse_page, errback=self.on_error, priority=1000, meta={"newscrawl_source": "start"}
            )
        if self.discover_sitemaps:
            for root in dict.fromkeys(urlunsplit((*urlsplit(u)[:2], "", "", "")) for u in self.start_urls):
                yield Request(
                    f"{root}/robots.txt",
                    callback=self.parse_robots,
                    errback=self.on_error,
                    priority=900,
                    meta={"dont_obey_robotstxt": True, "newscrawl_source": "robots"},
                )
                yield self._sitemap_request(f"{root}/sitemap.xml")

    # --- pages --------------------------------------------------------------------------------
    def parse_page(self, response: Response) -> Iterator[Request | NewsArticle]:
        if not isinstance(response, HtmlResponse) or _looks_binary(response.body):
            binary = isinstance(response, HtmlResponse) or not isinstance(response, TextResponse)
            kind = "binary" if binary else "non_html"
            self._skip(kind, response.url, "body is not HTML")
            return
        url = self.canonicalize(response.url)
        domain = registrable_domain(url)
        self.stats.inc_value("newscrawl/pages/fetched")
        depth = response.meta.get("depth", 0)

        sel = selector(response)
        outlinks = self._outlinks(response, sel)
        # feeds first: a start page that also links its feed with <a> must not have the feed
        # URL queued as a page (the dupefilter would then drop the feed request)
        if self.discover_feeds and response.meta.get("newscrawl_source") == "start":
            yield from self._feed_requests(response, sel)
        yield from self._follow(outlinks, depth)

        item = self._page_item(response, sel, url, domain, depth, outlinks)
        if item is not None:
            yield item

    def _page_item(
        self, response: HtmlResponse, sel: Selector, url: str, domain: str, depth: int, outlinks: list[str]
    ) -> NewsArticle | None:
        probability = response.meta.get("url_probability")
        if probability is None:
            probability = self.classifier.probability(url)
        if not self.hand_off_all:  # otherwise every page goes on, whatever it declares
            declared = declared_article(sel.root)
            candidate = probability >= self.threshold if declared is None else declared
            if not candidate:
                self.stats.inc_value("newscrawl/pages/not_candidate")
                logger.debug(
                    "Not an article candidate (URL probability %.2f, declared %s): %s", probability, declared, url
                )
                return None
        canonical = self._canonical_url(response, sel, url)
        # a page the watch fetches again for changes is handed off again (a distributed crawl's
        # hand-off set persists across watch cycles)
        if canonical in self.handed_canonicals and not response.meta.get("newscrawl_watch_recheck"):
            self.stats.inc_value("newscrawl/pages/duplicate_canonical")
            logger.debug("Same canonical URL as a page already handed off: %s -> %s", url, canonical)
            return None
        self.handed_canonicals.add(canonical)
        self.stats.inc_value("newscrawl/pages/handed_off")
        return NewsArticle(
            url=url,
            canonical_url=canonical,
            domain=domain,
            fetched_at=datetime.now(UTC).isoformat(timespec="seconds"),
            status=response.status,
            depth=depth,
            url_probability=round(float(probability), 4),
            discovered_by=response.meta.get("newscrawl_source", "link"),
            outlinks=outlinks,
            stylesheets=list(response.meta.get("newscrawl_stylesheets", [])),
            html=decode_html(response.body, (response.headers.get("Content-Type") or b"").decode("latin-1"))[0],
        )

    def _canonical_url(self, response: HtmlResponse, sel: Selector, url: str) -> str:
        href = (
            sel.xpath("//link[@rel='canonical']/@href").get() or sel.xpath("//meta[@property='og:url']/@content").get()
        )
        canonical = self._resolve(response, href) if href else None
        return canonical if canonical is not None and canonical in self.scope else url

    def _resolve(self, response: Response, href: str) -> str | None:
        """The canonical absolute URL of ``href`` on ``response``; None (counted, logged at debug
        level) when it is malformed, so one bad attribute costs only itself."""
        link = self._canonical_link(resolve(response, href))
        if link is None:
            self._invalid_link(response, href)
        return link

    def _canonical_link(self, url: str | None) -> str | None:
        if url is not None:
            try:
                return self.canonicalize(url)
            except ValueError:  # e.g. a port that is not a number
                pass
        return None

    def _invalid_link(self, response: Response, href: str) -> None:
        self.stats.inc_value("newscrawl/links/invalid")
        logger.debug("Malformed URL %r on %s", href[:200], response.url)

    def _outlinks(self, response: HtmlResponse, sel: Selector) -> list[str]:
        # lxml's own strings: parsel would wrap each of a page's hundreds of values in a Selector
        hrefs = sel.root.xpath("//a/@href | //area/@href", smart_strings=False)
        if len(hrefs) > self.max_links:
            self.stats.inc_value("newscrawl/links/truncated_pages")
            hrefs = hrefs[: self.max_links]
        base = base_url(response)
        # an absolute href with a host resolves the same on every page of the base's scheme: the
        # site's navigation, repeated on all its pages, is resolved once per crawl, not per page
        scheme = base.partition(":")[0].lower() if valid_url(base) else None
        cache = self.href_links
        if len(cache) > 100_000:
            cache.clear()
        seen: dict[str, None] = {}
        for href in dict.fromkeys(hrefs):  # a page repeats most of its links: resolve each once
            href = href.strip()
            if not href or href.startswith(("#", "javascript:", "mailto:", "tel:", "data:")):
                continue
            key = (scheme, href) if scheme is not None and _ABSOLUTE_HREF.match(href) else None
            if key is not None and key in cache:
                link = cache[key]
            else:
                link = self._canonical_link(join_url(base, href))
                if key is not None:
                    cache[key] = link
            if link is None:
                self._invalid_link(response, href)
            elif link in self.scope:
                seen.setdefault(link, None)
            else:
                self.stats.inc_value("newscrawl/links/offsite")
        return list(seen)

    def _follow(self, links: Iterable[str], depth: int, source: str = "link") -> Iterator[Request]:
        candidates = []
        for link in links:
            if not looks_like_html(link):
                self.stats.inc_value("newscrawl/skipped/extension")
                continue
            rule = self.traps.check(link)
            if rule:
                self._skip(rule, link, "link trap guard")
                continue
            if self._domain_full(link):  # before the URL classifier: a full domain's links cost nothing
                self.stats.inc_value("newscrawl/skipped/domain_page_limit")
                continue
            candidates.append(link)
        candidates = [link for link in candidates if hash(link) not in self.scheduled_urls]
        if not candidates:
            return
        for link, probability in zip(candidates, self.classifier.probabilities(candidates)):
            if self._domain_full(link):  # again per yield: the count follows the scheduler
                self.stats.inc_value("newscrawl/skipped/domain_page_limit")
                continue
            # likely articles first; section pages still come, for discovery
            yield Request(
                link,
                callback=self.parse_page,
                errback=self.on_error,
                priority=int(round(probability * 100)) - depth,
                meta={"newscrawl_source": source, "url_probability": float(probability)},
            )

    def _domain_full(self, url: str) -> bool:
        return (
            bool(self.max_pages_per_domain)
            and self.queued_per_domain[registrable_domain(url)] >= self.max_pages_per_domain
        )

    # --- sitemaps and feeds -------------------------------------------------------------------
    def _sitemap_request(self, url: str) -> Request:
        return Request(
            url, callback=self.parse_sitemap, errback=self.on_error, priority=900, meta={"newscrawl_source": "sitemap"}
        )

    def parse_robots(self, response: Response) -> Iterator[Request]:
        text = response.body.decode("utf-8", "replace") if response.status == 200 else ""
        for href in sitemaps_from_robots(text):
            url = self._resolve(response, href)
            if url is not None and url in self.scope:
                yield self._sitemap_request(url)

    def parse_sitemap(self, response: Response) -> Iterator[Request]:
        entries = parse_sitemap(response.body)
        if not entries.kind:
            self.stats.inc_value("newscrawl/sitemaps/invalid")
            return
        self.stats.inc_value(f"newscrawl/sitemaps/{entries.kind}")
        urls = [self._resolve(response, u) for u in entries.urls]
        in_scope = [u for u in urls if u is not None and u in self.scope]
        if entries.kind == "sitemapindex":
            for url in in_scope:
                if self._domain_full(url):  # its pages could not be queued anyway
                    self.stats.inc_value("newscrawl/skipped/domain_page_limit")
                    continue
                yield self._sitemap_request(url)
        else:
            self.stats.inc_value("newscrawl/sitemaps/urls", len(in_scope))
            yield from self._follow(in_scope, 0, source="sitemap")

    def _feed_requests(self, response: HtmlResponse, sel: Selector) -> Iterator[Request]:
        for link in sel.xpath("//link[@rel='alternate'][@href]"):
            if (link.attrib.get("type") or "").lower() in FEED_TYPES:
                url = self._resolve(response, link.attrib["href"])
                if url is not None and url in self.scope:
                    yield Request(
                        url,
                        callback=self.parse_feed,
                        errback=self.on_error,
                        priority=900,
                        meta={"newscrawl_source": "feed"},
                    )

    def parse_feed(self, response: Response) -> Iterator[Request]:
        links = [self._resolve(response, u) for u in parse_feed(response.body)]
        in_scope = [u for u in links if u is not None and u in self.scope]
        self.stats.inc_value("newscrawl/feeds/urls", len(in_scope))
        yield from self._follow(in_scope, 0, source="feed")

    # --- errors -------------------------------------------------------------------------------
    def _scheduled(self, request: Request, spider: Any = None) -> None:
        if not request.dont_filter:  # the dupefilter saw it: accepted now, or refused as seen before
            self.scheduled_urls.add(hash(request.url))
        if request.callback == self.parse_page:
            self.queued_per_domain[registrable_domain(request.url)] += 1

    def _dropped(self, request: Request, spider: Any = None) -> None:
        """A request the scheduler refused (seen before) is not queued: uncount it. A redirect back
        into its own chain is dropped the same way, without an errback: count it, so redirect loops
        show in the stats."""
        if request.callback == self.parse_page:
            self.queued_per_domain[registrable_domain(request.url)] -= 1
        if request.url in (request.meta.get("redirect_urls") or ()):
            self._skip("redirect_loop", request.url, "redirect loop")

    def _skip(self, rule: str, url: str, why: str) -> None:
        self.stats.inc_value(f"newscrawl/skipped/{rule}")
        logger.info("Skipped %s (%s: %s)", url[:300], rule, why)

    def on_error(self, failure: Failure) -> None:
        if getattr(failure.value, "quiet", False):  # an expected outcome (the watch's 304 Not Modified)
            return
        request = getattr(failure, "request", None)
        url = request.url if request is not None else "?"
        kind = failure.type.__name__ if failure.type else "error"
        self.stats.inc_value(f"newscrawl/errors/{kind}")
        logger.info("Request failed: %s (%s: %s)", url[:300], kind, failure.getErrorMessage()[:200])
