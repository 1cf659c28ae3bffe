"""Site-level article detection: what a crawl knows about a site decides what the page alone cannot.

A page classifier judges each page alone, so a short post (a paragraph and an embed, a puzzle page)
looks like a non-article and a thin tag page that shows one story looks like one. The pages of one
site share their templates, and the crawl sees many of them. This module keeps, per site, what the
pages the page model is sure of say about the site's layouts, and decides the others by the layout
they share:

* :func:`page_layout` reads one page's layout as plain data (the extraction computes it where it
  runs, in the crawl's process or a worker): the DOM position of the headline (the path of tags,
  ids and classes from ``<body>`` down, without the per-page tokens that hold digits), whether a
  dateline follows the headline and where, the number of teaser blocks (linked headings), the
  unlinked text under the headline, and the type the page declares.
* :class:`SiteLayouts` collects, per site and per layout (:func:`layout_keys`: headline and
  dateline positions, at three levels of detail), how many pages the page model calls sure
  articles and sure non-articles, and how many teaser blocks its pages show.
  :meth:`SiteLayouts.decide` then gives each page a :class:`Verdict`: a non-article type the page
  declares, else the layout's evidence when enough sure pages share it and they agree, else the
  page model's, with the scores that decided (``extraction["is_article"]``).

Nothing here imports Scrapy: the crawl's stage (:mod:`newscrawl.site_pipeline`) feeds it the plain
data its items carry, and batch runs can use it the same way.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from newscrawl.extract.metadata import read_metadata

# page-model probabilities at or beyond which a page is a sure example of its layout
SURE_ARTICLE = 0.8
SURE_OTHER = 0.2
# a layout decides when this many sure pages (other than the page itself) share it ...
MIN_SUPPORT = 4
# ... and this share of them (Laplace-smoothed) agree: no listing evidence overrides it
AGREEMENT = 0.85
# a layout whose sure pages are this share articles, but not AGREEMENT, is an article layout unless
# listing evidence says otherwise: short posts the page model is sure are no articles can be a
# third of a site's posts (they share its article layout), and they are left out of it only here
MAJORITY = 0.6
# a layout the sure pages do not settle is a listing layout when MIN_SUPPORT+ of its pages, and this
# share of them, show LISTING_TEASERS teaser blocks more than the site's sure articles do: a list of
# linked headlines (a tag archive's thin pages, one story each, are listings too)
LISTING_TEASERS = 4
LISTING_SHARE = 0.05
# a page with less unlinked text after its headline than this is not raised by a coarser level than
# the exact slot positions: a media/attachment page (an image and a title) is no article
MIN_TEXT = 80
OWN_TEXT_NODES = 400  # text nodes read after the headline for its own text (bounded work) ...
OWN_TEXT_CAP = 1000  # ... and characters counted at most
LEVELS = ("position", "path", "element")  # layout_keys, finest first
MAX_PATH = 24  # elements kept of a headline's path (deepest ones)
DATELINE_SPAN = 12  # text nodes after the headline in which a dateline is looked for
DATELINE_CHARS = 40  # a dateline is a short text with a year or a numeric date (or a <time>), not a teaser's title
_DIGIT = re.compile(r"\d")
_YEAR = re.compile(r"(?<!\d)(?:19[7-9]\d|20\d\d)(?!\d)|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}")
_HEADINGS = ("h1", "h2", "h3", "h4")
_ALL_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
_INLINE = frozenset(("a", "span", "strong", "em", "b", "i", "font", "small", "time"))
_ARTICLE_TYPE_RE = re.compile(r"(?:Article|BlogPosting|Report)$")
# schema.org types that declare a page that is not an article (when no Article type is present)
_NON_ARTICLE_PAGE_TYPES = frozenset(
    {
        "WebPage",
        "CollectionPage",
        "ProfilePage",
        "AboutPage",
        "ContactPage",
        "SearchResultsPage",
        "FAQPage",
        "QAPage",
        "ItemPage",
        "CheckoutPage",
        "WebSite",
        "VideoGallery",
        "ImageGallery",
        "MediaGallery",
        "Event",
        "Product",
        "Recipe",
    }
)


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
    while node is not None and isinstance(node.tag, str) and node.tag in _INLINE:
        parent = node.getparent()
        if parent is None:
            break
        node = parent
    return node


def _headline(page: Any, title: str | None) -> int | None:
    """Index of the text node that shows the extracted title in a heading; else the first ``<h1>``'s
    (a breadcrumb or a menu may show the title first, a title read from metadata may be worded
    otherwise); else any text node that shows the title."""
    nodes = page.text_nodes
    found = None
    if title:
        want = " ".join(title.split()).casefold()
        for node in nodes:
            text = " ".join(node.text.split()).casefold()
            if text and (text == want or (len(text) >= 20 and want.startswith(text))):
                if _block(node.container).tag in _ALL_HEADINGS:
                    return node.index
                if found is None:
                    found = node.index
    for el in page.with_tags("h1"):
        rng = page.text_range(el)
        if len(rng):
            return rng.start
    return found


def _teasers(page: Any) -> int:
    """Headings (h2-h4) whose text is mostly one link: the teasers of a listing."""
    count = 0
    for el in page.with_tags(*_HEADINGS[1:]):
        length = page.text_len(el)
        if length and page.link_text_len(el) >= 0.8 * length:
            count += 1
    return count


def _linked(el: Any) -> bool:
    """``el`` is a link or inside one (through inline wrappers)."""
    node = el
    while node is not None and isinstance(node.tag, str) and node.tag in _INLINE:
        if node.tag == "a":
            return True
        node = node.getparent()
    return False


def _own_text(page: Any, k: int, skip: Any) -> int:
    """Characters of unlinked text after the headline (text node ``k``), up to the next heading:
    what a post says, without the link lists beside it (a media page's image and title say nothing)."""
    nodes = page.text_nodes
    total = 0
    for j in range(k + 1, min(len(nodes), k + 1 + OWN_TEXT_NODES)):
        node = nodes[j]
        block = _block(node.container)
        if block.tag in _ALL_HEADINGS:
            break
        if block is not skip and not _linked(node.container):
            total += len(node.text.strip())
            if total >= OWN_TEXT_CAP:
                break
    return total


def page_layout(page: Any, title: str | None) -> dict[str, Any]:
    """The layout of one parsed page (:class:`newscrawl.page.Page`) as plain data: ``headline``
    (path of the headline's block, or None), ``dateline`` (path of the first date-like text after
    it, or None), ``teasers`` (linked headings), ``declared`` (the type the page declares: True an
    article, False another page type, None nothing) and ``text`` (characters of unlinked text
    after the headline, up to the next heading, at most OWN_TEXT_CAP)."""
    out: dict[str, Any] = {
        "headline": None,
        "dateline": None,
        "teasers": _teasers(page),
        "declared": declared_article(page),
        "text": 0,
    }
    k = _headline(page, title)
    if k is None:
        return out
    nodes = page.text_nodes
    head = _block(nodes[k].container)
    out["headline"] = element_path(head, page.body)
    dateline = None
    for j in range(k + 1, min(len(nodes), k + 1 + DATELINE_SPAN)):
        node = nodes[j]
        if (len(node.text.strip()) <= DATELINE_CHARS and _YEAR.search(node.text)) or node.container.tag == "time":
            dateline = _block(node.container)
            out["dateline"] = element_path(dateline, page.body)
            break
    out["text"] = _own_text(page, k, dateline)
    return out


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

    def decide(
        self, url: str, site: str, probability: float, layout: dict[str, Any] | None, threshold: float = 0.5
    ) -> Verdict:
        """The page's verdict from the site's evidence (recorded with :meth:`add`, this page
        included or not: its own vote is left out) and its own."""
        page = probability >= threshold
        scores: dict[str, Any] = {"page_model": round(probability, 4)}
        keys = layout_keys(layout)
        layouts = self._layouts.get(site)
        declared = layout.get("declared") if layout else None
        if declared is not None:
            scores["declared"] = declared
        if keys is None or layouts is None or layout is None:
            return self._own(page, probability, declared, scores)
        counts = None
        for level, key in zip(LEVELS, keys):  # noqa: B007 - the level that matched is read after the loop
            found = layouts.get(key)
            if found is not None and sum(found.sure(probability)) >= MIN_SUPPORT:
                counts = found
                break
        if counts is None:
            return self._own(page, probability, declared, scores)
        articles, others = counts.sure(probability)
        share = (articles + 1) / (articles + others + 2)
        many = self._baseline(site) + LISTING_TEASERS
        # may the layout raise the page? Not when it lists many stories itself; and away from the
        # template's exact slots only with text of its own: a media page's template (WordPress's
        # article.attachment) differs there, a puzzle or photo post's does not
        raisable = int(layout.get("teasers") or 0) < many and (
            level == LEVELS[0] or int(layout.get("text") or 0) >= MIN_TEXT
        )
        members = sum(counts.teasers.values())
        lists = sum(n for value, n in counts.teasers.items() if value >= many)
        listed = lists / members
        scores["layout"] = {
            "level": level,
            "pages": members,
            "sure_articles": articles,
            "sure_others": others,
            "share": round(share, 4),
            "listing_pages": round(listed, 4),
        }
        if declared is False:
            return self._own(page, probability, declared, scores)
        if share >= AGREEMENT and raisable:
            return Verdict(True, max(probability, share), "site-layout", scores)
        if lists >= MIN_SUPPORT and listed >= LISTING_SHARE:
            return Verdict(False, min(probability, 1 - listed), "listing-layout", scores)
        if share >= MAJORITY and raisable:
            return Verdict(True, max(probability, share), "site-layout", scores)
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
