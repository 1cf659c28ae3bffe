"""Site-level article detection: what a crawl knows about a site decides what the page alone cannot.

A page classifier judges each page alone, so a short post (a paragraph and an embed, a puzzle page)
looks like a non-article and a thin tag page that shows one story looks like one. The pages of one
site share their templates, and the crawl sees many of them. This module keeps, per site, what the
pages the page model is sure of say about the site's layouts, and decides the others by the layout
they share:

* :func:`page_layout` reads one page's layout as plain data (the extraction computes it where it
  runs, in the crawl's process or a worker): the DOM position of the headline (the path of tags,
  ids and classes from ``<body>`` down, without the per-page tokens that hold digits), whether a
  dateline follows the headline and where, the number of teaser blocks (linked headings), and the
  type the page declares.
* :class:`SiteLayouts` collects, per site and per layout (headline position + dateline position),
  how many pages the page model calls sure articles and sure non-articles, and the URL shapes
  (:func:`url_shape`) of the sure articles. :meth:`SiteLayouts.decide` then gives each page a
  :class:`Verdict`: the layout's own evidence when enough sure pages share it and they agree,
  else the page model's, with the scores that decided (``extraction["is_article"]``).

Nothing here imports Scrapy: the crawl's stage (:mod:`newscrawl.site_pipeline`) feeds it the plain
data its items carry, and batch runs can use it the same way.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlsplit

from newscrawl.extract.metadata import read_metadata

# page-model probabilities at or beyond which a page is a sure example of its layout
SURE_ARTICLE = 0.8
SURE_OTHER = 0.2
# a layout decides when this many sure pages (other than the page itself) share it ...
MIN_SUPPORT = 4
# ... and this share of them (Laplace-smoothed) agree
AGREEMENT = 0.85
# a layout is a listing layout when this share of its pages show LISTING_TEASERS teaser blocks more
# than the site's sure articles do (a list of linked headlines: its thin pages are listings too)
LISTING_TEASERS = 4
LISTING_SHARE = 0.1
LEVELS = ("position", "path", "element")  # layout_keys, finest first
MAX_PATH = 24  # elements kept of a headline's path (deepest ones)
DATELINE_SPAN = 12  # text nodes after the headline in which a dateline is looked for
_DIGIT = re.compile(r"\d")
_YEAR = re.compile(r"(?<!\d)(?:19[7-9]\d|20\d\d)(?!\d)|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}")
_HEADINGS = ("h1", "h2", "h3", "h4")
_ALL_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
_ARTICLE_TYPE_RE = re.compile(r"(?:Article|BlogPosting|Report)$")
# schema.org types that declare a page that is not an article (when no Article type is present)
_NON_ARTICLE_PAGE_TYPES = frozenset({
    "WebPage", "CollectionPage", "ProfilePage", "AboutPage", "ContactPage", "SearchResultsPage",
    "FAQPage", "QAPage", "ItemPage", "CheckoutPage", "WebSite", "VideoGallery", "ImageGallery",
    "MediaGallery", "Event", "Product", "Recipe",
})


def declared_article(root: Any) -> bool | None:
    """What the page says it is: True (a JSON-LD/microdata Article type or itemprop=articleBody),
    False (only page types such as WebPage/CollectionPage/ProfilePage), None (nothing declared).
    ``root``: an lxml root or a :class:`newscrawl.page.Page`.

    Without a structured-data declaration, ``og:type=article`` counts as True. It is only a
    fallback because CMSs (e.g. Yoast) also set it on section and static pages: on the saved
    wyofile copy 81 of its 84 listing and static pages say ``og:type=article`` while their JSON-LD
    says WebPage.
    """
    meta = read_metadata(root)
    if meta.article_body_element is not None or any(_ARTICLE_TYPE_RE.search(t) for t in meta.schema_types):
        return True
    if meta.schema_types & _NON_ARTICLE_PAGE_TYPES:
        return False
    if (meta.og_type or "").strip().lower() == "article":
        return True
    return None
_CLASSES = re.compile(r"\.[^/#.]*")


def _step(el: Any) -> str:
    """``tag#id.class.class`` of one element, without ids and classes that hold digits (post ids,
    per-item counters) and at most two classes, in document order (CMSs append per-page ones)."""
    tag = el.tag if isinstance(el.tag, str) else "?"
    out = tag.lower()
    ident = (el.get("id") or "").strip()
    if ident and not _DIGIT.search(ident):
        out += "#" + ident
    classes = [c for c in (el.get("class") or "").split() if not _DIGIT.search(c)][:2]
    return out + "".join("." + c for c in classes)


def element_path(el: Any, stop: Any) -> str:
    """The normalised path from ``stop`` (exclusive, the page's ``<body>``) down to ``el``."""
    steps: list[str] = []
    node = el
    while node is not None and node is not stop and len(steps) < MAX_PATH:
        steps.append(_step(node))
        node = node.getparent()
    return "/".join(reversed(steps))


def _block(el: Any) -> Any:
    """The heading (or other block) a text run's element belongs to: inline wrappers (``<a>``,
    ``<span>``) are climbed so a linked headline and a plain one sit at one position."""
    node = el
    while node is not None and isinstance(node.tag, str) and node.tag in ("a", "span", "strong", "em", "b", "i",
                                                                             "font", "small", "time"):
        parent = node.getparent()
        if parent is None:
            break
        node = parent
    return node


def _headline(page: Any, title: str | None) -> int | None:
    """Index of the text node that shows the extracted title, in a heading when one does (a
    breadcrumb or a menu may show it first); the first ``<h1>`` when none shows it."""
    nodes = page.text_nodes
    found = None
    if title:
        want = " ".join(title.split())
        for node in nodes:
            text = " ".join(node.text.split())
            if text and (text == want or (len(text) >= 20 and want.startswith(text))):
                if _block(node.container).tag in _ALL_HEADINGS:
                    return node.index
                if found is None:
                    found = node.index
    if found is not None:
        return found
    for el in page.with_tags("h1"):
        rng = page.text_range(el)
        if len(rng):
            return rng.start
    return None


def _teasers(page: Any) -> int:
    """Headings (h2-h4) whose text is mostly one link: the teasers of a listing."""
    count = 0
    for el in page.with_tags(*_HEADINGS[1:]):
        length = page.text_len(el)
        if length and page.link_text_len(el) >= 0.8 * length:
            count += 1
    return count


def page_layout(page: Any, title: str | None) -> dict[str, Any]:
    """The layout of one parsed page (:class:`newscrawl.page.Page`) as plain data: ``headline``
    (path of the headline's block, or None), ``dateline`` (path of the first date-like text after
    it, or None), ``teasers`` (linked headings) and ``declared`` (the type the page declares:
    True an article, False another page type, None nothing)."""
    out: dict[str, Any] = {"headline": None, "dateline": None, "teasers": _teasers(page),
                           "declared": declared_article(page)}
    k = _headline(page, title)
    if k is None:
        return out
    nodes = page.text_nodes
    head = _block(nodes[k].container)
    out["headline"] = element_path(head, page.body)
    for j in range(k + 1, min(len(nodes), k + 1 + DATELINE_SPAN)):
        node = nodes[j]
        if len(node.text) <= 80 and _YEAR.search(node.text):
            out["dateline"] = element_path(_block(node.container), page.body)
            break
    return out


def url_shape(url: str) -> str:
    """The shape of a URL's path: each segment as itself when it is a word of the site's structure
    (no digits, no hyphen: ``news``, ``noticias``), ``<n>`` when all digits, ``<slug>`` otherwise;
    a trailing ``index.html`` dropped. ``/news/politics/20170321/some-story/`` ->
    ``news/politics/<n>/<slug>``."""
    path = unquote(urlsplit(url).path)
    parts = [p for p in path.split("/") if p]
    if parts and re.fullmatch(r"index\.html?", parts[-1]):
        parts.pop()
    out = []
    for part in parts:
        if part.isdigit():
            out.append("<n>")
        elif _DIGIT.search(part) or "-" in part or "_" in part or len(part) > 24:
            out.append("<slug>")
        else:
            out.append(part.lower())
    return "/".join(out)


def layout_keys(layout: dict[str, Any] | None) -> tuple[str, ...] | None:
    """The site layouts a page belongs to, finest first (:data:`LEVELS`): the positions of its
    headline and its dateline; the headline's path of tags and ids with the two slots' own
    elements; the two slots' elements alone (``h1.entry-title`` and ``time.published``: a template's
    variants, a full-width or a video post, share them)."""
    if not layout or not layout.get("headline"):
        return None
    head, date = layout["headline"], layout.get("dateline") or "-"
    steps = head.split("/")
    slots = f"{steps[-1]} | {date.rsplit('/', 1)[-1]}"
    coarse = "/".join(_CLASSES.sub("", s) for s in steps[:-1])
    return f"{head} | {date}", f"{coarse}/{slots}", slots


@dataclass
class Verdict:
    """A page's decision and the evidence that made it (``extraction["is_article"]``)."""

    is_article: bool
    probability: float
    method: str  # "page-model", "site-layout", "declared-type", "listing-layout"
    scores: dict[str, Any] = field(default_factory=dict)

    def provenance(self) -> dict[str, Any]:
        return {"method": self.method, "score": round(self.probability, 4), **self.scores}


@dataclass
class _Counts:
    """What the pages of one layout showed: sure articles, sure non-articles, and how many of its
    pages had each number of teaser blocks."""

    articles: int = 0
    others: int = 0
    teasers: Counter[int] = field(default_factory=Counter)

    def add(self, probability: float, teasers: int) -> None:
        if probability >= SURE_ARTICLE:
            self.articles += 1
        elif probability <= SURE_OTHER:
            self.others += 1
        self.teasers[min(teasers, 99)] += 1

    def sure(self, probability: float) -> tuple[int, int]:
        """Sure articles and sure non-articles, a page of ``probability`` left out."""
        articles, others = self.articles, self.others
        if probability >= SURE_ARTICLE:
            articles -= 1
        elif probability <= SURE_OTHER:
            others -= 1
        return max(articles, 0), max(others, 0)


class SiteLayouts:
    """Per site (any key: the crawl uses the registrable domain), the sure pages of each layout."""

    def __init__(self) -> None:
        self._layouts: dict[str, dict[str, _Counts]] = defaultdict(lambda: defaultdict(_Counts))
        self._article_teasers: dict[str, Counter[int]] = defaultdict(Counter)

    def add(self, url: str, site: str, probability: float, layout: dict[str, Any] | None) -> None:
        """Record one page the page model has judged (its probability, its layout)."""
        keys = layout_keys(layout)
        if keys is None or layout is None:
            return
        teasers = int(layout.get("teasers") or 0)
        for key in keys:
            self._layouts[site][key].add(probability, teasers)
        if probability >= SURE_ARTICLE:
            self._article_teasers[site][min(teasers, 99)] += 1

    def sure_articles(self, site: str) -> int:
        return sum(self._article_teasers[site].values())

    def _baseline(self, site: str) -> int:
        """Teaser blocks on the site's sure articles (the median): its related-story boxes."""
        counts = self._article_teasers.get(site)
        if not counts:
            return 0
        half, seen = sum(counts.values()) / 2, 0
        for value in sorted(counts):
            seen += counts[value]
            if seen >= half:
                return value
        return 0

    def decide(self, url: str, site: str, probability: float, layout: dict[str, Any] | None,
               threshold: float = 0.5) -> Verdict:
        """The page's verdict from the site's evidence (recorded with :meth:`add`, this page
        included or not: its own vote is left out) and its own."""
        page = probability >= threshold
        scores: dict[str, Any] = {"page_model": round(probability, 4)}
        keys = layout_keys(layout)
        layouts = self._layouts.get(site)
        declared = layout.get("declared") if layout else None
        if declared is not None:
            scores["declared"] = declared
        if keys is None or layouts is None:
            return self._own(page, probability, declared, scores)
        counts = None
        for level, key in zip(LEVELS, keys):
            found = layouts.get(key)
            if found is not None and sum(found.sure(probability)) >= MIN_SUPPORT:
                counts = found
                break
        if counts is None:
            return self._own(page, probability, declared, scores)
        articles, others = counts.sure(probability)
        share = (articles + 1) / (articles + others + 2)
        many = self._baseline(site) + LISTING_TEASERS
        members = sum(counts.teasers.values())
        listed = sum(n for value, n in counts.teasers.items() if value >= many) / members
        scores["layout"] = {"level": level, "pages": members, "sure_articles": articles, "sure_others": others,
                            "share": round(share, 4), "listing_pages": round(listed, 4)}
        if share >= AGREEMENT:
            return Verdict(True, max(probability, share), "site-layout", scores)
        if declared is False:
            return self._own(page, probability, declared, scores)
        if listed >= LISTING_SHARE:
            return Verdict(False, min(probability, 1 - listed), "listing-layout", scores)
        if 1 - share >= AGREEMENT:
            return Verdict(False, min(probability, share), "site-layout", scores)
        return self._own(page, probability, declared, scores)

    @staticmethod
    def _own(page: bool, probability: float, declared: bool | None, scores: dict[str, Any]) -> Verdict:
        """The page's own evidence: a page type it declares that is no article (JSON-LD WebPage,
        CollectionPage, ProfilePage, ... without an Article type), else the page model. A declared
        article type is not enough alone: CMSs set ``og:type=article`` on section pages too."""
        if declared is False:
            return Verdict(False, min(probability, SURE_OTHER), "declared-type", scores)
        return Verdict(page, probability, "page-model", scores)
