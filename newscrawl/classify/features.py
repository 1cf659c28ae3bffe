"""Page-level features for "is this page an article?" (seed 002's block design plus what measured well).

Seed 002's factors: the five link-target features counted over the page's links, the highest
MSS score, CoreEx's main-node tag, the most frequent tag in its set S and its score. The MSS score
is left out of the shipped set: with the extraction features below it adds no measurable F1 and
costs 17–25% of the extraction's CPU time (docs/decisions.md); ``benchmarks/page_classifier.py``
still runs seed 002's experiment with it. We add the
page URL's own link-target features, the structured data the page declares about itself
(og:type, schema.org types, a date), text/link measures, what the extraction pipeline found
(a visible date near the detected title, the body's shape: :class:`newscrawl.extract.article.Evidence`),
page-structure measures (repeated teaser and post blocks, text shares by container) and the
headline and body as text (lengths, punctuation, links inside prose, forum-style date lines);
``benchmarks/page_classifier.py`` shows what each group adds. Categorical tags are one-hot over a
fixed vocabulary so the feature vector (and the shipped model) does not depend on the training set.
Nothing here reads words of a particular language: punctuation, digits, markup and URLs only.
"""

from __future__ import annotations

import operator
import re
from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import accumulate, compress, repeat
from statistics import median
from typing import Any, NamedTuple, cast
from urllib.parse import unquote, urlsplit

import numpy as np

from newscrawl.classify.codepoints import WORD_CLASSES, code_points, runs
from newscrawl.classify.coreex import coreex
from newscrawl.extract.article import Evidence
from newscrawl.extract.metadata import ARTICLE_TYPES, read_metadata
from newscrawl.links.features import link_features, link_flags_many
from newscrawl.links.urls import registrable_domain
from newscrawl.page import Page
from newscrawl.safeurl import join_url

# Seed 002: "# of links that are smaller than a predetermined threshold" (characters).
SHORT_LINK = 40
MAX_LINKS = 2000  # bounded work on link farms (NEWSCRAWL_MAX_LINKS_PER_PAGE's default)
MIN_HEADLINES = 5  # news-please: with fewer headings the linked-headline tests pass

COREEX_TAGS = ("body", "div", "article", "main", "section", "td", "p", "li", "ul", "span")
LISTING_TYPES = frozenset({"CollectionPage", "ItemList", "SearchResultsPage", "ProfilePage", "Event"})
PRODUCT_TYPES = frozenset({"Product", "Offer", "AggregateOffer", "ProductGroup", "Service", "SoftwareApplication"})
FORUM_TYPES = frozenset({"DiscussionForumPosting", "QAPage", "Question", "Answer", "Comment"})
# A run of digits, dots and commas before a currency is tried once, from its first character (the
# lookbehind): tried from each digit, a long run without a currency after it cost quadratic time
# (100k digits after "eur": 200 s a page). Its first digit succeeds exactly when any does, so the
# count of matches, all the features read, is that of the pattern without it.
_PRICE = re.compile(r"(?:[$€£¥₹]\s?\d[\d.,]*|(?<![\d.,])[.,]*\d[\d.,]*\s?(?:[$€£¥₹]|usd|eur|gbp)\b)", re.IGNORECASE)
_PRICE_SIGNS, _PRICE_WORDS = "$€£¥₹", ("usd", "eur", "gbp")  # every _PRICE match holds one (see _price_count)
_PATH_WORDS = {
    "docs": re.compile(
        r"/(?:docs?|documentation|api|reference|manual|guides?|tutorials?|learn|kb|help|wiki)"
        r"(?:/|$|[.-])"
    ),
    "shop": re.compile(r"/(?:products?|shop|store|item|p|dp|buy|cart|collections?)(?:/|$|[.-])"),
    "forum": re.compile(
        r"/(?:forums?|community|threads?|t|discussions?|questions?|q|topic|board|viewtopic)"
        r"(?:/|$|[.-])"
    ),
    "service": re.compile(r"/(?:services?|solutions?|pricing|plans|features|contact|about|locations?)(?:/|$|[.-])"),
    "news": re.compile(
        r"/(?:blogs?|news|articles?|story|stories|posts?|insights|press|opinion|features|reports?)"
        r"(?:/|$|[.-])"
    ),
}

LINK_FEATURES = (
    "links",
    "links_number",
    "links_date",
    "links_slash",
    "links_reserved",
    "links_short",
    "share_number",
    "share_date",
    "share_slash",
    "share_reserved",
    "share_short",
)
URL_FEATURES = ("url_number", "url_date", "url_slash", "url_reserved", "url_length", "url_slug_tokens")
CONTENT_FEATURES = (
    ("coreex_score",)
    + tuple(f"coreex_tag_{t}" for t in COREEX_TAGS + ("other",))
    + tuple(f"coreex_s_tag_{t}" for t in COREEX_TAGS + ("other",))
)
PAGE_FEATURES = (
    "og_article",
    "og_website",
    "og_product",
    "og_other",
    "schema_article",
    "schema_news",
    "schema_blog",
    "schema_forum",
    "schema_tech",
    "schema_listing",
    "schema_product",
    "schema_faq",
    "has_published",
    "has_modified",
    "has_authors",
    "has_article_body",
    "time_elements",
    "text_len",
    "link_density",
    "paragraphs",
    "paragraph_share",
    "headlines",
    "headline_density",
    "linked_headlines",
    "self_linked_headlines",
    "list_items",
    "images",
    "inputs",
    "code_blocks",
    "prices",
    "path_docs",
    "path_shop",
    "path_forum",
    "path_service",
    "path_news",
)
# From the extraction (Evidence and the Article's body): title, visible date, body shape.
EXTRACTION_FEATURES = (
    "visible_date",
    "date_title_distance",
    "title_score",
    "title_heading",
    "title_position",
    "title_similarity",
    "h1_count",
    "body_share",
    "body_lines",
    "body_sentence_end",
    "body_long_share",
    "comment_cut",
    "comment_share",
    "region_headings",
    "region_external",
    "region_links",
    "region_list_share",
)
# The structure features that read only the URL and the page's declarations (no tree scan).
DECLARED_FEATURES = (
    "path_depth",
    "has_query",
    "url_root",
    "schema_breadcrumb",
    "schema_webpage",
    "schema_org",
    "meta_published_time",
    "meta_section",
    "meta_tag",
    "twitter_large_image",
)
# Page structure: repeated blocks, forms, text shares by container, links, URL shape, declared types.
STRUCTURE_FEATURES = (
    "teaser_blocks",
    "post_blocks",
    "max_repeat",
    "inputs_per_k",
    "share_li",
    "share_table",
    "share_p",
    "share_heading",
    "share_code",
    "article_elements",
    "long_node_share",
    "mean_node_len",
    "date_like_per_k",
    "tel_links",
    "mailto_links",
    "external_share",
    "brand_per_k",
    *DECLARED_FEATURES,
)
# Round 4: the headline and body as text (lengths, punctuation, inline links), dates as forums
# show them (a short "name · date time" line per post), the URL slug against the headline.
SHAPE_FEATURES = (
    "title_words",
    "h1_words",
    "h1_title_similarity",
    "slug_title_similarity",
    "body_mean_line",
    "body_median_line",
    "body_fragment_lines",
    "body_question_lines",
    "commas_per_sentence",
    "distinct_dates",
    "inline_links_per_k",
    "p_mean_len",
    "p_long",
    "body_date_lines",
    "dates_after_body",
    "clock_times",
)
FEATURE_GROUPS: dict[str, tuple[str, ...]] = {
    "links": LINK_FEATURES,
    "url": URL_FEATURES,
    "content": CONTENT_FEATURES,
    "page": PAGE_FEATURES,
    "extraction": EXTRACTION_FEATURES,
    "structure": STRUCTURE_FEATURES,
    "shape": SHAPE_FEATURES,
}
FEATURE_NAMES: tuple[str, ...] = (
    LINK_FEATURES
    + URL_FEATURES
    + CONTENT_FEATURES
    + PAGE_FEATURES
    + EXTRACTION_FEATURES
    + STRUCTURE_FEATURES
    + SHAPE_FEATURES
)
# What the page classifier's first pass reads (newscrawl.classify.page, docs/decisions.md "Page classifier,
# round 7"): the features that cost little once the extraction has run. Left for the full model are the
# link targets (resolving every href), CoreEx, the repeated-block and container scans, the site naming
# itself, the region's external links, and the text models: ~3 ms of a page's ~4.3 on trafilatura-eval.
FAST_FEATURES: tuple[str, ...] = (
    URL_FEATURES
    + PAGE_FEATURES
    + tuple(n for n in EXTRACTION_FEATURES if n != "region_external")
    + SHAPE_FEATURES
    + DECLARED_FEATURES
)

HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
FAR = 100  # date_title_distance when there is no title or no visible date (text nodes)
LONG_LINE = 150  # body lines (paragraphs) at least this long count as running text
LONG_NODE = 100  # text runs at least this long
MAX_CLIMB = 12  # ancestors looked at from a text node (bounded work on deep trees)
TEASER_MAX = 400  # a repeated block with less text than this and a linked headline is a teaser
POST_MIN = 80  # a repeated block with this much unlinked text and a date is a post or comment
MIN_REPEAT = 3  # siblings with one tag and class: a repeated block
# a line ends a sentence when its last character before trailing whitespace is one of these (a
# membership test, not a regex search that tried every position of every body line)
_SENTENCE_END = frozenset(".!?\u3002\uff01\uff1f\u2026\u061f\u0964:;\"'\u201d\u2019\u00bb)")
# a year or a numeric date, not preceded by a digit; the test follows the year's two digits, and
# the alternatives share their first \d, so the pattern starts with a character set and the regex
# engine skips to digits (an alternation whose branches start with 19, 20 and \d had no prefix:
# 2x slower scans of page text; docs/decisions.md, round 13 (regex))
_DATE_LIKE = re.compile(r"\d(?:(?<=1)9(?<!\d19)\d\d(?!\d)|(?<=2)0(?<!\d20)\d\d(?!\d)|[./-]\d\d?[./-]\d\d)")
_WORD = re.compile(r"\w+")
# a time of day, as forum posts and live pages show: 1-2 digits not preceded by a digit (tested
# after the first one, as _DATE_LIKE does), ":", 2 digits
_CLOCK = re.compile(r"\d(?<!\d\d)\d?:\d\d(?!\d)")
# from the start of a run of marks only (the lookbehind): the same matches, in linear time on a run
# of marks followed by a letter (40k dots cost 14 s when each mark of the run was tried)
_SENTENCE_BREAK = re.compile(r"(?<![.!?\u3002\uff01\uff1f])[.!?\u3002\uff01\uff1f]+(?:\s|$)")
_COMMAS = (",", "\uff0c", "\u3001")
SHORT_DATE = 40  # text nodes up to this long with a year or a numeric date are short dates (repeated blocks)
DATE_LINE = 80  # body lines and text nodes up to this long with a date or a clock time are date lines
LONG_P = 300  # paragraphs at least this long count in p_long
INLINE_P = 150  # links inside paragraphs at least this long are inline (prose) links
_FILE_EXT = re.compile(r"\.(?:html?|php|aspx?|jsp)$")
_TEASER_HEADINGS = ("h2", "h3", "h4", "h5")
_TEASER_SET = frozenset(_TEASER_HEADINGS)
_SHARE_TAGS = {
    "li": "share_li",
    "td": "share_table",
    "th": "share_table",
    "p": "share_p",
    "pre": "share_code",
    "code": "share_code",
    **{h: "share_heading" for h in HEADINGS},
}


@dataclass(frozen=True)
class HeadlineLinks:
    """news-please's linked-headline measures: share of h1–h6 that contain a link (to this site)."""

    headlines: int
    linked: float
    self_linked: float


class Anchor(NamedTuple):
    """One ``<a>`` of the body, resolved once for every feature that reads links (a tuple: a page
    builds ~100, and a frozen dataclass's constructor cost a third of :func:`page_anchors`)."""

    href: str  # as written, stripped
    target: str  # absolute http(s) URL, or "" (no href, fragment, tel:, mailto:, javascript:, ...)
    external: bool  # target on another registrable domain than the page


# hrefs that urljoin returns unchanged (absolute) or appends to the base's scheme://netloc
# (root-relative): printable ASCII, no empty query or fragment, no params (";") in the path, no
# brackets (IPv6 hosts are validated); a rooted path has no empty, "." or ".." segment (urljoin
# removes those). Two thirds of a page's hrefs are absolute: urljoin is the cost of page_anchors.
_PLAIN_ABSOLUTE = re.compile(r"https?://[^/?#;\[\] ]+(?:/[^?#;\[\] ]*)?(?:\?[^# ]+)?(?:#[^ ]+)?")
_PLAIN_ROOTED = re.compile(r"(?=/)(?:/[^/?#;\[\] .][^/?#;\[\] ]*)*/?(?:\?[^# ]+)?(?:#[^ ]+)?")


_new_anchor = tuple.__new__  # Anchor(...) without NamedTuple's Python __new__ (~100 distinct hrefs a page)


def page_anchors(page: Page) -> dict[Any, Anchor]:
    """Every ``<a>`` of the body in document order, with its resolved target (urljoin and the domain
    lookup are the cost, so the link counts, the relevant region and the link shares share them)."""
    site = _site(page.url)
    # a target that starts with the page's own scheme://netloc/ has the page's site (the site
    # key depends on scheme and netloc only), so only links elsewhere need the lookup
    parts = urlsplit(page.url or "")
    own = f"{parts.scheme}://{parts.netloc}/" if parts.netloc else None
    # a root-relative href under an http(s) base joins by concatenation when urljoin would not
    # change it (see _PLAIN_ROOTED)
    rooted = f"{parts.scheme}://{parts.netloc}" if parts.netloc and parts.scheme in ("http", "https") else None
    out: dict[Any, Anchor] = {}
    seen: dict[str, Anchor] = {}  # a page repeats many of its hrefs (menus, teasers): resolve each once
    for a in page.with_tags("a"):
        href = (a.get("href") or "").strip()
        anchor = seen.get(href)
        if anchor is None:
            target = ""
            if href and not href.startswith("#"):
                if href.isascii() and href.isprintable() and _PLAIN_ABSOLUTE.fullmatch(href):
                    url = href  # what urljoin returns for it, whatever the base
                elif rooted and href.isascii() and href.isprintable() and _PLAIN_ROOTED.fullmatch(href):
                    url = rooted + href
                else:
                    url = join_url(page.url, href) or ""  # a malformed href links nowhere
                target = url if url.startswith(("http://", "https://")) else ""
            other = (site if own and target.startswith(own) else _site(target)) if target else ""
            anchor = seen[href] = _new_anchor(Anchor, (href, target, bool(other and site and other != site)))
        out[a] = anchor
    return out


def page_links(anchors: dict[Any, Anchor]) -> list[str]:
    """Absolute http(s) targets of the page's ``<a href>``, in document order, bounded."""
    return [a.target for a in anchors.values() if a.target][:MAX_LINKS]


def _site(url: str | None) -> str:
    try:
        return registrable_domain(url) if url else ""
    except ValueError:
        return ""


def headline_links(page: Page) -> HeadlineLinks:
    site = _site(page.url)
    total = linked = self_linked = 0
    for heading in page.with_tags(*HEADINGS):
        total += 1
        hrefs = [a.get("href") for a in heading.iter("a") if a.get("href")]
        if heading.getparent() is not None and heading.getparent().tag == "a" and heading.getparent().get("href"):
            hrefs.append(heading.getparent().get("href"))
        if hrefs:
            linked += 1
            if any(_site(join_url(page.url, h)) in ("", site) for h in hrefs):
                self_linked += 1
    if total == 0:
        return HeadlineLinks(0, 0.0, 0.0)
    return HeadlineLinks(total, linked / total, self_linked / total)


def _one_hot(prefix: str, tag: str) -> dict[str, float]:
    tag = tag if tag in COREEX_TAGS else "other"
    return {f"{prefix}_{t}": float(t == tag) for t in COREEX_TAGS + ("other",)}


class PageFeatures:
    """One page's features in two stages: :meth:`fast` (:data:`FAST_FEATURES`, what the classifier's first
    pass reads) and :meth:`all` (:data:`FEATURE_NAMES`), which adds the costly ones to the fast ones
    without computing those again. ``metadata`` is reused if given, otherwise read here; the extraction's
    ``article`` and ``evidence`` come from the pipeline (or :func:`newscrawl.extract.api.extraction_evidence`
    for a bare Page)."""

    def __init__(self, page: Page, metadata: Any, article: Any, evidence: Evidence) -> None:
        self.page = page
        self.meta = metadata if metadata is not None else read_metadata(page, page.url)
        self.article, self.evidence = article, evidence
        self._fast: dict[str, float] | None = None
        self._all: dict[str, float] | None = None
        self._region: Region | None = None
        self._dates: DateNodes | None = None

    def fast_row(self) -> list[float]:
        """:meth:`fast` in :data:`FAST_FEATURES` order (the first pass's input)."""
        values = self.fast()
        return [values[name] for name in FAST_FEATURES]

    def row(self) -> list[float]:
        """:meth:`all` in :data:`FEATURE_NAMES` order (the full models' input)."""
        values = self.all()
        return [values[name] for name in FEATURE_NAMES]

    def fast(self) -> dict[str, float]:
        if self._fast is not None:
            return self._fast
        page, meta, article, evidence = self.page, self.meta, self.article, self.evidence
        out: dict[str, float] = {}
        own = link_features(page.url or "")
        out.update(
            url_number=own["has_number"],
            url_date=own["has_date"],
            url_slash=own["ends_with_slash"],
            url_reserved=own["has_reserved_word"],
            url_length=own["url_length"],
            url_slug_tokens=own["slug_tokens"],
        )
        text_len = page.text_len(page.body)
        types = set(meta.schema_types or ())
        og = (meta.og_type or "").strip().lower()
        heads = headline_links(page)
        body = page.body
        paragraphs = float(page.tag_count(body, "p"))
        elements = max(page.descendants(body), 1)
        path = urlsplit(page.url or "").path.lower()
        tags = page.tag_totals()  # what body.iter(tag) yields, counted once
        out.update(
            og_article=float(og == "article"),
            og_website=float(og == "website"),
            og_product=float(og.startswith("product")),
            og_other=float(bool(og) and og not in ("article", "website") and not og.startswith("product")),
            schema_article=float(bool(types & ARTICLE_TYPES)),
            schema_news=float(any("News" in t for t in types)),
            schema_blog=float(bool(types & {"BlogPosting", "Blog"})),
            schema_forum=float(bool(types & FORUM_TYPES)),
            schema_tech=float(bool(types & {"TechArticle", "APIReference", "HowTo"})),
            schema_listing=float(bool(types & LISTING_TYPES)),
            schema_product=float(bool(types & PRODUCT_TYPES)),
            schema_faq=float("FAQPage" in types),
            has_published=float(bool(meta.published)),
            has_modified=float(bool(meta.modified)),
            has_authors=float(bool(meta.authors)),
            has_article_body=float(meta.article_body_element is not None or bool(meta.article_body_text)),
            time_elements=float(tags["time"]),
            text_len=float(text_len),
            link_density=page.link_density(body),
            paragraphs=paragraphs,
            paragraph_share=paragraphs / elements,
            headlines=float(heads.headlines),
            headline_density=heads.headlines / max(text_len / 1000, 1.0),
            linked_headlines=heads.linked,
            self_linked_headlines=heads.self_linked,
            list_items=float(page.tag_count(body, "li")) / elements,
            images=float(page.tag_count(body, "img")),
            inputs=float(tags["input"] + tags["form"]),
            code_blocks=float(tags["pre"] + tags["code"]),
            prices=float(_price_count(page.body_text[:200_000])),
            **{f"path_{k}": float(rx.search(path) is not None) for k, rx in _PATH_WORDS.items()},
        )
        extraction, self._region = extraction_features(page, article, evidence, text_len)
        out.update(extraction)
        self._dates = date_nodes(page)
        out.update(shape_features(page, article, evidence, self._dates))
        out.update(declared_features(page, meta))
        self._fast = out
        return out

    def all(self) -> dict[str, float]:
        if self._all is not None:
            return self._all
        out = dict(self.fast())
        page, region = self.page, cast(Region, self._region)
        anchors = page_anchors(page)
        links = page_links(anchors)
        repeats = Counter(links)  # each distinct URL measured once, counted as often as it is linked
        times = list(repeats.values())
        number, date, slash, reserved, length = zip(*link_flags_many(list(repeats))) if repeats else ((),) * 5
        counts = {
            "number": sum(compress(times, number)),
            "date": sum(compress(times, date)),
            "slash": sum(compress(times, slash)),
            "reserved": sum(compress(times, reserved)),
            "short": sum(compress(times, map(SHORT_LINK.__gt__, length))),
        }
        out["links"] = float(len(links))
        for key, value in counts.items():
            out[f"links_{key}"] = float(value)
            out[f"share_{key}"] = value / len(links) if links else 0.0
        core = coreex(page, with_text=False)
        out["coreex_score"] = core.score
        out.update(_one_hot("coreex_tag", core.tag))
        out.update(_one_hot("coreex_s_tag", core.subset_tag))
        elements = page.elements
        external = sum(
            1 for a in region.anchors if isinstance(a, int) and elements[a] in anchors and anchors[elements[a]].external
        )
        out["region_external"] = external * (1000 / max(region.chars, 1))  # per_k as the other region measures
        out.update(
            structure_features(
                page,
                self.meta,
                int(out["text_len"]),
                getattr(self.article, "body", None) or "",
                anchors,
                cast(DateNodes, self._dates).short,
            )
        )
        self._all = out
        return out


def page_features(page: Page, metadata: Any, article: Any, evidence: Evidence) -> dict[str, float]:
    """Every feature in :data:`FEATURE_NAMES` for one parsed page (see :class:`PageFeatures`)."""
    return PageFeatures(page, metadata, article, evidence).all()


@dataclass(frozen=True)
class DateNodes:
    """Text nodes that show a date or a time of day, by index (:func:`date_nodes`)."""

    short: list[int]  # at most SHORT_DATE characters holding a year or a numeric date
    lines: list[int]  # date lines: :func:`_date_line` holds
    clocks: int  # how many text nodes up to DATE_LINE characters hold a clock time


def date_nodes(page: Page) -> DateNodes:
    """The date-like text nodes the repeated-block scan, the distinct-date count, the date lines
    after the body and the clock count read, by one scan of each regex over the texts up to
    DATE_LINE long joined by NUL (a text node never holds one, no match can cross it and the
    lookarounds see a non-digit there as at a lone text's ends): a search per node and regex
    cost ~3 calls a node."""
    texts = list(map(_TEXT, page.text_nodes))
    short = list(map(DATE_LINE.__ge__, map(len, texts)))
    near = list(compress(range(len(texts)), short))  # node indices
    texts = list(compress(texts, short))
    starts = list(accumulate(map((1).__add__, map(len, texts)), initial=0))  # offset of each text in joined (+1: NUL)
    joined = "\x00".join(texts)

    def hits(regex: re.Pattern[str]) -> list[int]:
        found: list[int] = []  # positions in near of the texts with a match, ascending
        for m in regex.finditer(joined):
            j = bisect_right(starts, m.start()) - 1
            if not found or found[-1] != j:
                found.append(j)
        return found

    dated, clocked = hits(_DATE_LIKE), hits(_CLOCK)
    return DateNodes(
        [near[j] for j in dated if len(texts[j]) <= SHORT_DATE],
        [near[j] for j in sorted(set(dated).union(clocked))],
        len(clocked),
    )


_TEXT = operator.attrgetter("text")
_HREF, _TARGET, _EXTERNAL = operator.attrgetter("href"), operator.attrgetter("target"), operator.attrgetter("external")


def _jaccard(a: str | None, b: str | None) -> float:
    x = {w.lower() for w in _WORD.findall(a or "")}
    y = {w.lower() for w in _WORD.findall(b or "")}
    return len(x & y) / len(x | y) if x | y else 0.0


class Region(NamedTuple):
    """The relevant region's links (element indices, and elements above the body) and text length:
    :class:`PageFeatures` counts the external ones only when the full model needs them."""

    anchors: set[Any]
    chars: int


def extraction_features(page: Page, article: Any, evidence: Evidence, text_len: int) -> tuple[dict[str, float], Region]:
    """Title, visible date and body shape as the extraction found them: an article has a title
    heading early, a date next to it, and a body of long lines ending like sentences. Also the
    relevant region, whose external links (``region_external``) need the resolved anchors."""
    tns = page.text_nodes
    total = max(text_len, 1)
    out: dict[str, float] = {}
    title = evidence.title_node
    out["visible_date"] = float(bool(evidence.visible_date))
    distance = min((abs(k - title) for k in evidence.date_nodes), default=FAR) if title is not None else FAR
    out["date_title_distance"] = float(min(distance, FAR))
    out["title_score"] = float(evidence.title_score)
    heading = 0
    if title is not None:
        node, steps = tns[title].container, 0
        while node is not None and steps < MAX_CLIMB and not heading:
            heading = int(node.tag[1]) if node.tag in HEADINGS else 0
            node, steps = node.getparent(), steps + 1
        out["title_position"] = page.text_offsets[title] / total
    else:
        out["title_position"] = 1.0
    out["title_heading"] = float(heading)
    out["title_similarity"] = _jaccard(page.title_text, getattr(article, "title", None))
    out["h1_count"] = float(page.tag_count(page.body, "h1"))

    body = getattr(article, "body", None) or ""
    lines = [line for line in body.split("\n") if line.strip()]
    chars = max(len(body), 1)
    out["body_share"] = len(body) / total
    out["body_lines"] = float(len(lines))
    out["body_sentence_end"] = sum(len(line) for line in lines if _ends_sentence(line)) / chars
    out["body_long_share"] = sum(len(line) for line in lines if len(line) >= LONG_LINE) / chars

    cut = evidence.comment_cut
    out["comment_cut"] = float(cut is not None)
    offsets = page.text_offsets
    out["comment_share"] = (offsets[-1] - offsets[min(cut, len(tns))]) / total if cut is not None else 0.0

    # the relevant region: its headings, links (how many leave the site) and list text; the climb goes
    # by parent index (the tree's getparent made a proxy a step), then through the body's ancestors. The
    # climbs of a page's nodes share their upper ancestors: one stops at an element an earlier climb went
    # on from with at least its budget of steps left (all above it is seen), and reads from that climb the
    # steps to the first <li> (``nearest``; its budget when there was none)
    region_anchors: set[Any] = set()  # element indices, and elements above the body
    headings: set[Any] = set()
    in_list = region = 0
    parent, tags, containers = page.structure()[0], page.tags(), page.text_containers
    reach: dict[int, int] = {}  # element index -> the most steps left with which a climb passed it
    nearest: dict[int, int] = {}  # element index -> steps from it to the first <li> that climb met
    for k in evidence.relevant:
        i, budget, path = containers[k], MAX_CLIMB, []
        li = -1  # position in path of the first <li>
        beyond: int | None = None  # steps from the element after the path to the first <li> within budget
        while i >= 0 and budget:
            if reach.get(i, 0) >= budget:
                if nearest[i] < budget:
                    beyond = nearest[i]
                break
            reach[i] = budget
            path.append(i)
            tag = tags[i]
            if tag == "a":
                region_anchors.add(i)
            elif tag in HEADINGS:
                headings.add(i)
            elif tag == "li" and li < 0:
                li = len(path) - 1
            i, budget = parent[i], budget - 1
        else:
            if budget and i < 0:
                for steps, node in enumerate(page.above_body[:budget]):
                    tag = node.tag
                    if tag == "a":
                        region_anchors.add(node)
                    elif tag in HEADINGS:
                        headings.add(node)
                    elif tag == "li" and beyond is None:
                        beyond = steps
        d = beyond
        for t in range(len(path) - 1, -1, -1):
            j = path[t]
            d = 0 if tags[j] == "li" else None if d is None else d + 1
            nearest[j] = reach[j] if d is None else d
        region += len(tns[k].text)
        in_list += len(tns[k].text) if li >= 0 or beyond is not None else 0
    per_k = 1000 / max(region, 1)
    out["region_headings"] = len(headings) * per_k
    out["region_links"] = len(region_anchors) * per_k
    out["region_list_share"] = in_list / max(region, 1)
    return out, Region(region_anchors, region)


def _repeated_blocks(page: Page, date_like: list[int]) -> tuple[int, int, int]:
    """(teasers, posts, largest group): siblings sharing tag and class, MIN_REPEAT+ of them with
    text. Teasers are short blocks led by links (listings); posts carry a date and unlinked text
    (forum threads, comment sections). ``date_like[k]``: short date-like text nodes before node k."""
    return _score_groups(page, _sibling_groups(page), date_like)


def _sibling_groups(page: Page) -> list[list[int]]:
    """Indices of the elements with text (20+ characters) grouped by parent, tag and class, the
    groups of MIN_REPEAT+ only. Works on the Page's arrays, not the tree."""
    parent = page.structure()[0]
    text_len = page.measures()[0]
    tags = page.tags()
    elements = page.elements
    # elements with text, by (parent, tag): a group of MIN_REPEAT siblings of one class needs that many
    # of one tag, so only those read their class (an lxml call each); the rest is done by map in C
    texted = list(compress(range(len(tags)), map((20).__le__, text_len)))
    pairs = list(zip(map(parent.__getitem__, texted), map(tags.__getitem__, texted)))
    siblings = Counter(pairs)
    repeated = list(map(MIN_REPEAT.__le__, map(siblings.__getitem__, pairs)))
    groups: dict[tuple[int, str, str], list[int]] = defaultdict(list)
    for j, (p, tag) in zip(compress(texted, repeated), compress(pairs, repeated)):
        if p >= 0 and isinstance(tag, str):
            groups[(p, tag, (elements[j].get("class") or "").strip())].append(j)
    return [members for members in groups.values() if len(members) >= MIN_REPEAT]


def _score_groups(page: Page, groups: list[list[int]], date_like: list[int]) -> tuple[int, int, int]:
    """(teasers, posts, largest) of :func:`_repeated_blocks` over the sibling groups."""
    teasers = posts = largest = 0
    if not groups:
        return teasers, posts, largest
    _parent, _depth, desc = page.structure()
    text_len, link_len, first_tn, end_tn = page.measures()
    tags, elements = page.tags(), page.elements
    headings = list(accumulate(map(_TEASER_SET.__contains__, tags), initial=0))  # teaser headings before i
    for members in groups:
        largest = max(largest, len(members))
        for j in members:
            text, linked, tag = text_len[j], link_len[j], tags[j]
            headed = tag in _TEASER_SET or headings[j + 1 + desc[j]] > headings[j + 1]
            if text < TEASER_MAX and (
                (headed and linked >= 15 and linked >= 0.1 * text) or (linked >= 20 and linked > 0.3 * text)
            ):
                teasers += 1
            if (
                text >= POST_MIN
                and linked < 0.3 * text
                and (
                    tag == "time"
                    or page.tag_count(elements[j], "time")
                    or date_like[end_tn[j]] > date_like[first_tn[j]]
                )
            ):
                posts += 1
    return teasers, posts, largest


def structure_features(
    page: Page, meta: Any, text_len: int, body_text: str, anchors: dict[Any, Anchor], short_dates: list[int]
) -> dict[str, float]:
    """Markup and link measures that tell listings, forums, shops and service pages from articles (with
    :func:`declared_features`, the structure group; ``body_text``: the extracted body, where the site
    naming itself is counted; ``short_dates``: ``DateNodes.short`` of :func:`date_nodes`)."""
    body = page.body
    total = max(text_len, 1)
    out: dict[str, float] = {}
    prefix = page.text_offsets  # characters of text nodes before index i
    lengths = list(map(operator.sub, prefix[1:], prefix))
    long_chars = sum(compress(lengths, map(LONG_NODE.__le__, lengths)))
    flags = [0] * len(lengths)
    for k in short_dates:
        flags[k] = 1
    date_like = list(accumulate(flags, initial=0))  # short date-like text nodes before index i
    out["teaser_blocks"], out["post_blocks"], out["max_repeat"] = map(float, _repeated_blocks(page, date_like))
    out["inputs_per_k"] = 1000 * page.tag_count(body, "input") / total
    # share of the text inside each kind of container, a run counted once per kind: in document
    # order, an element starting inside the last counted one of its kind is nested in it
    shares = dict.fromkeys(_SHARE_TAGS.values(), 0)
    counted_to = dict.fromkeys(_SHARE_TAGS.values(), 0)
    first_tn, end_tn = page.measures()[2:]
    tags = page.tags()
    for i in compress(range(len(tags)), map(_SHARE_TAGS.__contains__, tags)):  # the containers, in C
        name = _SHARE_TAGS[tags[i]]
        start, stop = first_tn[i], end_tn[i]
        if start >= counted_to[name]:
            shares[name] += prefix[stop] - prefix[start]
            counted_to[name] = stop
    out.update({name: value / total for name, value in shares.items()})
    out["article_elements"] = float(page.tag_count(body, "article"))
    out["long_node_share"] = long_chars / total
    out["mean_node_len"] = text_len / max(len(page.text_nodes), 1)
    out["date_like_per_k"] = 1000 * date_like[-1] / total

    # links: contact links (service pages), how much leaves the site, the site naming itself
    hrefs = list(map(_HREF, anchors.values()))
    tel = sum(map(operator.methodcaller("startswith", "tel:"), hrefs))
    mail = sum(map(operator.methodcaller("startswith", "mailto:"), hrefs))
    web = sum(map(bool, map(_TARGET, anchors.values())))
    external = sum(map(_EXTERNAL, anchors.values()))
    out["tel_links"], out["mailto_links"] = float(tel), float(mail)
    out["external_share"] = external / web if web else 0.0
    out["brand_per_k"] = _brand_per_k(body_text, meta, _site(page.url))

    return out


def declared_features(page: Page, meta: Any) -> dict[str, float]:
    """The URL's shape and what the page declares about itself (schema.org types, OpenGraph and
    Twitter tags): :data:`DECLARED_FEATURES`, no tree scan."""
    out: dict[str, float] = {}
    parts = urlsplit(page.url or "")
    segments = [s for s in parts.path.split("/") if s]
    out["path_depth"] = float(len(segments))
    out["has_query"] = float(bool(parts.query))
    out["url_root"] = float(not segments)

    types = set(meta.schema_types or ())
    out["schema_breadcrumb"] = float("BreadcrumbList" in types)
    out["schema_webpage"] = float("WebPage" in types)
    out["schema_org"] = float(bool(types & {"Organization", "Corporation", "LocalBusiness", "NewsMediaOrganization"}))
    names = {(m.get("property") or m.get("name") or "").strip().lower(): m.get("content") or "" for m in _metas(page)}
    out["meta_published_time"] = float("article:published_time" in names)
    out["meta_section"] = float("article:section" in names)
    out["meta_tag"] = float("article:tag" in names)
    out["twitter_large_image"] = float(names.get("twitter:card", "").strip() == "summary_large_image")
    return out


def _metas(page: Page) -> Iterator[Any]:
    """``page.root.iter("meta")``, reading the body's from the Page's tag list: the tree walk
    over the body cost ~0.14 ms a page for the few ``<meta>`` a body holds."""
    root, body = page.root, page.body
    if body is root or body.getparent() is not root or root.tag == "meta":
        yield from root.iter("meta")
        return
    for child in root:
        if child is not body:
            yield from child.iter("meta")
        else:
            yield from page.with_tags("meta")


def _price_count(text: str) -> int:
    """``len(_PRICE.findall(text))``, the regex run only around the currency signs and words: every match
    holds one, with at most a whitespace and a run of digits, dots and commas on either side. The scan
    of the whole body for digits cost ~0.2 ms a page; str.find of each token is a C search. Windows
    keep one character of context each side (the final ``\\b``) and merge when they touch, so findall
    meets each match as the whole-text scan does."""
    low = text.lower()
    if len(low) != len(text):  # a character whose lower case is longer: offsets would differ
        return len(_PRICE.findall(text))
    if "\u017f" in low:
        low = low.replace("\u017f", "s")  # the long s matches "s" under IGNORECASE
    tokens = []
    for needle, source in [(c, text) for c in _PRICE_SIGNS] + [(w, low) for w in _PRICE_WORDS]:
        at = source.find(needle)
        while at >= 0:
            tokens.append((at, at + len(needle)))
            at = source.find(needle, at + 1)
    tokens.sort()
    n = len(text)
    spans: list[list[int]] = []
    for start, end in tokens:
        if start > 0 and text[start - 1].isspace():
            start -= 1
        while start > 0 and (text[start - 1] in ".," or text[start - 1].isdecimal()):
            start -= 1
        if end < n and text[end].isspace():
            end += 1
        while end < n and (text[end] in ".," or text[end].isdecimal()):
            end += 1
        start, end = max(start - 1, 0), min(end + 1, n)
        if spans and start <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], end)
        else:
            spans.append([start, end])
    return sum(len(_PRICE.findall(text, start, end)) for start, end in spans)


def _ends_sentence(line: str) -> bool:
    """Whether ``line`` (no newline in it) ends in one of _SENTENCE_END before trailing whitespace: what
    the regex ``[...]\\s*$`` found, since str.rstrip drops exactly the characters ``\\s`` matches."""
    return line.rstrip()[-1:] in _SENTENCE_END


def _date_line(text: str) -> bool:
    return len(text) <= DATE_LINE and (_DATE_LIKE.search(text) is not None or _CLOCK.search(text) is not None)


def _slug_words(url: str | None) -> list[str]:
    """Words of the URL's last path segment (file extension and numbers left out)."""
    segments = [s for s in unquote(urlsplit(url or "").path).split("/") if s]
    slug = _FILE_EXT.sub("", segments[-1].lower()) if segments else ""
    return [w for w in _WORD.findall(slug.replace("_", " ")) if not w.isdigit()]


def shape_features(page: Page, article: Any, evidence: Evidence, dates: DateNodes) -> dict[str, float]:
    """The headline and the body as text: an article has a headline of several words that its
    URL slug repeats, paragraphs of prose (long lines, commas, sentence ends, links inside the
    sentences); a forum thread shows a short "name · date time" line before every post and keeps
    dating posts after the first one; service pages have short fragments and few long paragraphs."""
    out: dict[str, float] = {}
    title = getattr(article, "title", None) or ""
    title_words = [w.lower() for w in _WORD.findall(title)]
    out["title_words"] = float(len(title_words))
    h1 = next(iter(page.with_tags("h1")), None)  # body.iter("h1") would walk the body for a second one
    h1_text = page.text(h1) if h1 is not None and page.has(h1) else ""
    out["h1_words"] = float(len(_WORD.findall(h1_text)))
    out["h1_title_similarity"] = _jaccard(h1_text, page.title_text)
    slug = set(_slug_words(page.url))
    words = set(title_words)
    out["slug_title_similarity"] = len(slug & words) / len(slug | words) if slug | words else 0.0

    body = getattr(article, "body", None) or ""
    lines = [line.strip() for line in body.split("\n") if line.strip()]
    n_lines = max(len(lines), 1)
    out["body_mean_line"] = len(body) / n_lines
    out["body_median_line"] = float(median(len(line) for line in lines)) if lines else 0.0
    out["body_fragment_lines"] = sum(1 for line in lines if not _ends_sentence(line)) / n_lines
    out["body_question_lines"] = sum(1 for line in lines if line.endswith(("?", "\uff1f"))) / n_lines
    commas = sum(map(body.count, _COMMAS))  # what [,\uff0c\u3001] finds, by str.count in C
    out["commas_per_sentence"] = commas / max(len(_SENTENCE_BREAK.findall(body)), 1)
    out["body_date_lines"] = float(sum(1 for line in lines if _date_line(line)))

    tns = page.text_nodes
    out["distinct_dates"] = float(len({tns[k].text for k in dates.short}))
    last = evidence.relevant[-1] if evidence.relevant else None
    out["dates_after_body"] = float(len(dates.lines) - bisect_right(dates.lines, last)) if last is not None else 0.0
    out["clock_times"] = float(dates.clocks)

    relevant = set(evidence.relevant)
    inline = 0
    parents, tags = page.structure()[0], page.tags()
    text_len, _, first_tn, end_tn = page.measures()
    for i in compress(range(len(tags)), map(operator.eq, tags, repeat("a"))):  # the body's links, by index
        p = parents[i]  # -1 for the body: its parent is no element of the page
        if p >= 0 and tags[p] == "p" and text_len[p] >= INLINE_P:
            inline += first_tn[p] in relevant or (end_tn[p] - 1) in relevant
    out["inline_links_per_k"] = 1000 * inline / max(len(body), 1)
    paragraphs = [n for n in compress(text_len, map(operator.eq, tags, repeat("p"))) if n > 0]
    out["p_mean_len"] = sum(paragraphs) / len(paragraphs) if paragraphs else 0.0
    out["p_long"] = float(sum(1 for n in paragraphs if n >= LONG_P))
    return out


def _brand_per_k(text: str, meta: Any, site: str) -> float:
    """Words of ``text`` naming the site itself (og:site_name words, the domain's label), per
    1000 words: service and product pages talk about the company, articles about their subject.
    The words (runs of \\w) are found on the code points as arrays, and only those that can name the
    site are read as strings: an ASCII word whose lower-cased first letter starts a brand word or the
    label, and every word with a non-ASCII character (lower-casing those may change them otherwise)."""
    label = site.split(".")[0] if site else ""
    brand = {w.lower() for w in _WORD.findall(meta.site_name or "") if len(w) >= 4}
    if len(label) >= 4:
        brand.add(label)
    if not brand:
        return 0.0
    text = text[:200_000]
    data = code_points(text)
    starts, ends = runs((WORD_CLASSES(data) == 1).view(np.uint8))
    if not starts.size:
        return 0.0
    first = data[starts]
    first = np.where((first >= 65) & (first <= 90), first + 32, first)  # A-Z lower-cased
    non_ascii = np.concatenate(([0], np.cumsum(data >= 128)))
    firsts = [ord(b[0]) for b in brand] + ([ord(label[0])] if label else [])
    maybe = np.isin(first, firsts) | (non_ascii[ends] > non_ascii[starts])
    hits = 0
    for a, b in zip(starts[maybe].tolist(), ends[maybe].tolist()):
        w = text[a:b].lower()
        if w in brand or (len(w) >= 5 and label.startswith(w)):
            hits += 1
    return 1000 * hits / len(starts)


def feature_vector(page: Page, metadata: Any, article: Any, evidence: Evidence) -> list[float]:
    """:func:`page_features` in :data:`FEATURE_NAMES` order (the model's input)."""
    return PageFeatures(page, metadata, article, evidence).row()


def newsplease_rule(page: Page, metadata: Any = None) -> bool:
    """news-please's default page heuristic (algorithms.md §8), the baseline the classifier must beat:
    og:type=article and (linked headlines ≤ 0.65 or self-linked headlines ≤ 0.56), the linked tests
    passing when the page has fewer than 5 headings."""
    meta = metadata if metadata is not None else read_metadata(page, page.url)
    if (meta.og_type or "").strip().lower() != "article":
        return False
    heads = headline_links(page)
    if heads.headlines < MIN_HEADLINES:
        return True
    return heads.linked <= 0.65 or heads.self_linked <= 0.56
