"""``newscrawl.extract()``: one page in, one :class:`Article` out; never raises for bad input.

Pipeline: :class:`Page` (decode, parse once, clean up) -> NCE relevant content -> the 9 features
on the evaluated subset -> title model, date model -> post-processing -> body. Structured
metadata (JSON-LD, OpenGraph, itemprop, meta) fills or overrides fields as measured in
docs/decisions.md ("Extraction: metadata vs visible"); every field records its provenance.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from datetime import date
from typing import Any
from urllib.parse import urlsplit

from newscrawl.encoding import repair_c1
from newscrawl.extract.anchor import (
    above_headline_elsewhere,
    under_headline,
    without_sidebars,
    without_teaser_cards,
    without_trailing_card,
)
from newscrawl.extract.article import Article, Classifier, Evidence
from newscrawl.extract.bios import without_declared_bios
from newscrawl.extract.body import paragraphs
from newscrawl.extract.byline import byline_authors, story_start
from newscrawl.extract.copies import without_copies
from newscrawl.extract.dates import (
    find_date_in_url,
    is_date_label,
    names_update,
    other_reading,
    padded_url_date,
    parse_date,
    parse_machine_date,
)
from newscrawl.extract.declared import declared_verdict, shown_text
from newscrawl.extract.language import SAMPLE_CHARS as LANGUAGE_SAMPLE_CHARS
from newscrawl.extract.language import text_language
from newscrawl.extract.metadata import ARTICLE_TYPES, headline_segment, strip_site_suffix
from newscrawl.extract.nce import _HEADINGS, DEFAULT_PARAMS, NCEParams, pruned, relevant_content
from newscrawl.extract.site_matter import without_site_matter
from newscrawl.extract.titledate import (
    BEFORE_TITLE_PENALTY,
    TitleDate,
    block_of,
    closing_date,
    dateline,
    dayfirst_for,
    detect,
    evaluated_subset,
    labelled_date,
    listed_date,
    local_published,
    shown_days,
    title_stamp,
)
from newscrawl.extract.zones import in_publisher_zone
from newscrawl.gcpause import gc_paused
from newscrawl.links.urls import registrable_domain
from newscrawl.page import Page, alnum, fold, name_test

logger = logging.getLogger(__name__)

MIN_BODY_CHARS = 100  # less relevant text than this is "no convincing content": body None
# Titles longer than this are cut at a word, with a warning: on the 1,933 dataset pages the longest
# gold and extracted titles have 257 and 251 characters; a <title> or JSON-LD headline of a hostile
# page can hold megabytes, which every consumer of the item would then carry.
MAX_TITLE_CHARS = 1000
# schema.org types of a page whose replies are its content: forum threads (a QAPage's comments under
# its question and answers are comments, and its gold leaves them out: docs/decisions.md, "Forum threads")
DISCUSSION_TYPES = frozenset({"DiscussionForumPosting"})
# ... and of a page made of posts, forum threads and Q&A pages, whose per-post chrome (signatures, user
# cards, votes, badges) is not text (docs/decisions.md, "Forum threads")
THREAD_TYPES = frozenset({"DiscussionForumPosting", "QAPage"})
# a declared publication day this many days after the shown date, not before the declared modification
# day, is an edit's stamp (docs/decisions.md, "Dates stamped on edit")
EDIT_STAMP_DAYS = 60
# A date the URL writes in full outranks a declared date more than this many days away from it, unless
# the page's own dateline is within this many days of the declared one (docs/decisions/dates-news.md,
# "The URL's day over contradicting metadata")
URL_CONFLICT_DAYS = 3
# A lone <main> (or role="main") inside NCE's separator, and then a lone <article> inside what is
# left, that holds at least this share of the body's text is where the body is: the rest of the
# separator is the site's (a newsletter pitch, "How we reviewed this article", a footer promo)
# (docs/decisions.md, "Landmarks inside the content region")
LANDMARK_SHARE = 0.5
NO_SEPARATOR_MAX_CHARS = 300  # without a separator, a page with this little text is its own content
ARTICLE_BODY_CHARS = 1200
# The body starts at the detected title (§3.4.3) only when the relevant text before it is at
# most this share of the whole (docs/decisions.md).
TITLE_CUT_SHARE = 0.2  # simple is_article rule until the page classifier exists
# Standfirsts/leads often sit between the headline and the separator NCE elects (a header block
# of their own): such a block joins the body when it has this much text and little link text
# (docs/decisions.md, "Extraction quality against the peers, round 4").
LEAD_MIN_CHARS = 80
LEAD_MAX_LINK_DENSITY = 0.3
# ... or this much when the block is named as a standfirst ("dek", "standfirst", "subtitle",
# "summary", "lead") and holds no picture (docs/decisions/body-news.md, "A named standfirst")
NAMED_LEAD_MIN_CHARS = 30
_LEAD_NAMES = re.compile(
    r"(?:^|[\s_-])(?:standfirst|dek|deck|subtitle|subheadline|subhead|summary|lead|lede|intro|strapline|abstract)"
    r"(?:$|[\s_-])",
    re.I,
)
_lead_named = name_test(_LEAD_NAMES)
# A last line shorter than this, followed by removed text of the body's container, is dropped
# (docs/decisions.md, "Extraction quality against the peers, round 5").
TAIL_MAX_CHARS = 60
# Author boxes inside the text container (a bio, "follow me on ...", a byline block): elements
# named author/bio/byline leave the body when the container holds at most AUTHOR_BOXES_MAX of
# them (listing cards, forum posts and reviews name one per item, and those are content) and
# each holds under half of its text; their text is no lead either (docs/decisions.md,
# "Extraction quality against the peers, round 6").
AUTHOR_NAMES = re.compile(r"(?:^|[\s_-])(?:author|authors|bio|byline)(?:$|[\s_-])", re.I)
AUTHOR_BOXES_MAX = 2
_author_named = name_test(AUTHOR_NAMES)
_CAPTION_TAGS = ("figure", "figcaption")  # a picture's caption above the text is not its lead
_ARTICLE_TYPES = {
    "article",
    "newsarticle",
    "blogposting",
    "reportagenewsarticle",
    "analysisnewsarticle",
    "opinionnewsarticle",
    "reviewnewsarticle",
    "backgroundnewsarticle",
    "liveblogposting",
    "scholarlyarticle",
    "techarticle",
    "report",
}


def extract(
    html: str | bytes,
    url: str | None = None,
    stylesheets: Iterable[Any] = (),
    *,
    method: str = "nce",
    http_charset: str | None = None,
    params: NCEParams = DEFAULT_PARAMS,
    page_model: str | None = None,
    style_elements: bool | None = None,
) -> Article:
    """Extract title, publication date and body from one page (str or raw bytes).

    ``stylesheets`` are newscrawl.css Stylesheet objects or CSS texts, in cascade order; the
    page's own ``<style>`` elements join them, and are left out of a page given without any unless
    ``style_elements=True`` (:class:`newscrawl.page.Page`). Bad input gives an Article with
    ``warnings`` (and body None), never an exception. ``page_model`` picks the page classifier
    (:func:`newscrawl.classify.page.page_model_file`; None: the default).
    """
    if method != "nce":
        from newscrawl.classify import METHODS  # the alternative body extractors

        if method not in METHODS:
            raise ValueError(f"unknown extraction method {method!r} (available: nce, {', '.join(METHODS)})")
    # the collector paused (newscrawl/gcpause.py); the Page dies with _extract's frame, by
    # refcount, before the pause ends (a collection then would walk all of its objects)
    with gc_paused():
        return _extract(html, url, stylesheets, method, http_charset, params, page_model, style_elements)


def _extract(
    html: str | bytes,
    url: str | None,
    stylesheets: Iterable[Any],
    method: str,
    http_charset: str | None,
    params: NCEParams,
    page_model: str | None,
    style_elements: bool | None,
) -> Article:
    try:
        page = Page.from_html(
            html, url, stylesheets=tuple(stylesheets), http_charset=http_charset, style_elements=style_elements
        )
    except Exception as exc:  # bad bytes must not stop a crawl
        logger.debug("page could not be built", exc_info=True)
        return Article(warnings=[f"page could not be parsed: {exc.__class__.__name__}: {exc}"])
    return extract_from_page(page, method=method, params=params, page_model=page_model)


def extract_from_page(
    page: Page, *, method: str = "nce", params: NCEParams = DEFAULT_PARAMS, page_model: str | None = None
) -> Article:
    """:func:`extract` on an already built Page, so a caller (the crawl's pipelines) can keep
    using the one parse afterwards; never raises."""
    try:
        with gc_paused():
            article = extract_page(page, params, page_model=page_model)
        if method != "nce":  # same Page, same title/date/is_article; the chosen method's body
            from newscrawl.classify import apply_method

            apply_method(article, page, method)
        _mend_c1(article)
        return article
    except Exception as exc:
        logger.warning("extraction failed for %s", page.url, exc_info=True)
        return Article(warnings=page.warnings + [f"extraction failed: {exc.__class__.__name__}: {exc}"])


def _headlines(page: Page) -> Iterator[str]:
    """The text of every ``<h1>`` of the page, joined only when asked for."""
    return (page.text(el) for el in page.with_tags("h1"))


def _reordered(value: str, text: str | None, *days: str | None) -> str:
    """``value`` with its day and month exchanged when ``text``, which it was read from, leaves their
    order open and one of ``days`` (the page's other dates) is the other reading; else ``value``."""
    other = other_reading(text, value)
    return other + value[10:] if other is not None and other in days else value


def _stamped_on_edit(published: str, modified: str | None, td: TitleDate, url_day: str | None) -> bool:
    """Whether the declared publication day is on or after the declared modification day (a story
    is not published after its last edit) and comes more than EDIT_STAMP_DAYS after the date the
    page shows (not its day-month swap, not the URL's day): CMSs that rewrite datePublished on every
    save (docs/decisions.md, "Dates stamped on edit")."""
    day = published[:10]
    if not modified or modified[:10] > day or not td.published or url_day == day:
        return False
    shown = td.published[:10]
    if other_reading(td.date_text, td.published) == day:
        return False
    try:
        return (date.fromisoformat(day) - date.fromisoformat(shown)).days > EDIT_STAMP_DAYS
    except ValueError:
        return False


def _declared_as_shown(published: str, meta: Any, td: TitleDate, shown_line: _Lazy) -> str | None:
    """Of publication dates the metadata declares for different days (JSON-LD one, OpenGraph
    another), the later one the page's own date agrees with, when the first is more than
    URL_CONFLICT_DAYS from that date: a stale or template-wide declaration loses to the one the
    reader sees (docs/decisions/dates-news.md, "Metadata that disagrees with itself")."""
    others = meta.published_others if meta is not None else ()
    if len(others) != 1:  # none, or a page of many dated parts: no second declaration to weigh
        return None
    shown = td.published or shown_line.get()
    if _days_apart(published, shown) <= URL_CONFLICT_DAYS:
        return None
    return next((other for other in others if _days_apart(other, shown) <= 1), None)


def _placeholder_published(
    published: str, meta: Any, td: TitleDate, shown_line: _Lazy, page: Page, language: str | None
) -> str | None:
    """The declared modification in place of a declared publication that is only a day (no time,
    or midnight), when the modification is on a later day, the page shows that later day as its
    date (not as an "Updated" line) and never shows the declared one: a CMS's placeholder day,
    while the reader sees the story's (docs/decisions/dates-news.md, "A bare
    publication day the page never shows")."""
    modified = meta.modified if meta is not None else None
    if not modified or modified[:10] <= published[:10]:
        return None
    if "T" in published and published[11:19] != "00:00:00":
        return None
    if _days_apart(modified, td.published or shown_line.get()) != 0:
        return None
    days = shown_days(page, dayfirst_for(language))
    return modified if published[:10] not in days and days.get(modified[:10]) is False else None


def _dateline_part(text: str) -> bool:
    """A node of the date cluster that is the date's, not text the cluster swept in: it reads as a
    date, absolute or relative ("Updated 3 hours ago"). Spec values beside the dateline ("12,000
    BTU", "Ski: 2021-2022 Line Outline, 186 cm") stay in the body however short."""
    return parse_date(text, today=date.today()) is not None


DATE_LABEL_WORDS = 3  # a label element beside the date holds at most this many words ...
DATE_LABEL_CHARS = 30  # ... and characters, and no digit


def _date_label(page: Page, k: int, date_k: int) -> bool:
    """Text node ``k``, just before the date's node ``date_k``, is the date's label: a "Published:" or
    "Updated" in a language the date parser reads, or, in any language, an element of its own in the
    date's block holding nothing but a few words without digits ("Τελευταία ενημέρωση" in a
    ``<span class="label">``): without the date it is a stray word in the body."""
    tn = page.text_nodes[k]
    if is_date_label(tn.text):
        return True
    text = tn.text.strip()
    if tn.is_tail or not text or len(text) > DATE_LABEL_CHARS or len(text.split()) > DATE_LABEL_WORDS:
        return False
    if any(c.isdigit() for c in text):
        return False
    date_node = page.text_nodes[date_k]
    if tn.container is date_node.container or page.text_len(tn.container) != len(tn.text):
        return False
    return block_of(tn.container) is block_of(date_node.container)


class _Lazy:
    """A value computed on first use: the dateline scan runs only on pages whose choice needs it."""

    def __init__(self, compute: Callable[[], str | None]) -> None:
        self._compute, self._done = compute, False
        self._value: str | None = None

    def get(self) -> str | None:
        if not self._done:
            self._value, self._done = self._compute(), True
        return self._value


_LOWER_HEADINGS = ("h2", "h3", "h4")


def _headline_node(page: Page, td: TitleDate) -> int | None:
    """Where the headline is: the title node the model found, else the first text of the page's first
    ``<h1>`` that holds text, else of the first lower heading that reads as the title (a blog's
    ``<h2 class="post-title">``; the dateline sits beside the headline either way)."""
    if td.title_node is not None:
        return td.title_node
    for h1 in page.with_tags("h1"):
        span = page.text_range(h1)
        if len(span):
            return span.start
    title = fold(td.title)
    if title:
        for heading in page.with_tags(*_LOWER_HEADINGS):
            span = page.text_range(heading)
            if len(span) and fold(page.text(heading)) == title:
                return span.start
    return None


def _shown_dateline(
    page: Page, td: TitleDate, nodes: list[int], comment_cut: int | None, language: str | None
) -> str | None:
    """The page's own dateline (:func:`dateline`) by the headline, or over the story's first line."""
    headline = _headline_node(page, td)
    story = story_start(page, headline, nodes) if headline is not None else None
    return dateline(page, headline, comment_cut, dayfirst_for(language), story)


TIME_LABEL_CHARS = 30  # the end of the text before a <time>, in its line, read as its label ("Last updated")


def _edit_label(page: Page, element: Any, at: int) -> bool:
    """The text right before the ``<time>`` at text node ``at`` calls it an edit's: the end of its
    line ("Last updated <time>"), or a label element of its own before it ("Updated:")."""
    if not at:
        return False
    before = page.text_nodes[at - 1].text
    if at - 1 in page.text_range(block_of(element)):
        return names_update(before[-TIME_LABEL_CHARS:])
    return is_date_label(before) and names_update(before)


def _nearest_time(page: Page, anchor: int | None, comment_cut: int | None) -> tuple[str | None, str | None] | None:
    """(date, the text it was read from) of the dated ``<time>`` element (a ``datetime`` or ``pubdate``
    attribute, as metadata reads them) nearest the headline ``anchor``, those before it counted
    BEFORE_TITLE_PENALTY farther; never one in the comment section or hidden. The page's first
    ``<time>`` is as often a teaser's or a sidebar's (docs/decisions/dates-news.md). One that its
    label or its own class names call an edit's ("Last updated", ``class="updated"``) gives way to
    any other, and one inside a quoted post (a ``<blockquote>``: an embedded tweet or Instagram
    post) is never the page's: (None, None) when those are all there is. None: no opinion (no
    headline, no such time)."""
    if anchor is None:
        return None
    best: tuple[bool, int, str, str] | None = None  # (an edit's?, distance, date, raw)
    quoted = False
    for element in page.with_tags("time"):
        raw = element.get("datetime") or (element.text_content() if element.get("pubdate") is not None else None)
        span = page.text_range(element)
        at = span.start if len(span) else None
        if not raw or at is None or (comment_cut is not None and at >= comment_cut):
            continue
        if not getattr(page.style(page.text_nodes[at].container), "visible", True):
            continue
        if any(ancestor.tag == "blockquote" for ancestor in element.iterancestors()):
            quoted = True
            continue
        edit = names_update(page.names(element)) or _edit_label(page, element, at)
        distance = at - anchor if at >= anchor else anchor - at + BEFORE_TITLE_PENALTY
        if best is not None and (edit, distance) >= best[:2]:
            continue
        value = parse_machine_date(raw)
        if value:
            best = (edit, distance, value, raw)
    if best is None:
        return (None, None) if quoted else None
    return best[2], best[3]


def _days_apart(first: str | None, second: str | None) -> float:
    """Days between two ISO dates (their day parts); infinite when either is missing or invalid."""
    if not first or not second:
        return float("inf")
    try:
        return abs((date.fromisoformat(first[:10]) - date.fromisoformat(second[:10])).days)
    except ValueError:
        return float("inf")


def _mend_c1(art: Article) -> None:
    """The text fields with C1 control characters read back as the bytes they were
    (:func:`newscrawl.encoding.repair_c1`): pages written with mojibake in them. Done on what is
    returned, not on the page, which costs a scan of every page's whole text."""
    if art.title:
        art.title = repair_c1(art.title)
    if art.body:
        art.body = repair_c1(art.body)
    if art.authors:
        art.authors = [repair_c1(name) for name in art.authors]


def extract_page(
    page: Page,
    params: NCEParams = DEFAULT_PARAMS,
    *,
    classifier: Classifier | None = None,
    page_model: str | None = None,
) -> Article:
    """The NCE pipeline on an already built :class:`Page` (other extractors share the Page).

    ``classifier`` replaces the page classifier; training uses it to record the classifier's
    features on exactly the path extraction takes."""
    art = Article(warnings=page.warnings)
    meta = _metadata(page, art)
    _adopt_declared_address(page, meta)
    params = _declared(params, meta)
    rel = relevant_content(page, params)
    _read_language(page, art, rel.nodes)
    evaluated = evaluated_subset(page, rel.nodes)
    shown = set(evaluated)
    nodes = [k for k in rel.nodes if k in shown]  # hidden by computed style: not body text
    td = detect(page, evaluated, *((meta.title, meta.site_name, art.language) if meta is not None else ()))
    if not art.authors or _site_as_author(art.authors, meta, page.url):
        # declared authors first, unless they only name the site; else the byline's names
        named = byline_authors(page, td.title_node, nodes, rel.comment_cut)
        if named:
            art.authors = named
            art.provenance["authors"] = {"method": "byline", "score": 0.5}

    # title: visible detection, structured headline when nothing was detected
    if td.title_node is not None:
        art.title = td.title
        art.provenance["title"] = {"method": "nce-title-model", "score": round(td.title_score, 4)}
    elif meta is not None and meta.title:
        declared = strip_site_suffix(meta.title, meta.site_name, page.url)
        # no title node: of a declared "Name - tagline", the part the page's <h1> shows
        art.title = headline_segment(declared, _headlines(page)) or declared
        art.provenance["title"] = {"method": _source(meta, "title"), "score": 1.0}
    elif td.title:
        art.title = headline_segment(page.title_text, _headlines(page)) or td.title
        art.provenance["title"] = {"method": "title-tag", "score": 0.5}
    if art.title and len(art.title) > MAX_TITLE_CHARS:  # a hostile headline, megabytes long
        art.title = art.title[:MAX_TITLE_CHARS].rsplit(" ", 1)[0] or art.title[:MAX_TITLE_CHARS]
        art.warnings.append(f"title cut to {MAX_TITLE_CHARS} characters")

    # published: structured metadata first, then the visible date, then the URL
    published = meta.published if meta is not None else None
    published_text = meta.published_text if meta is not None else None
    if published and meta is not None and meta.sources.get("published") == "time":
        # the weakest declaration, the first <time> of the page: the one nearest the headline instead
        nearest = _nearest_time(page, _headline_node(page, td), rel.comment_cut)
        if nearest is not None:
            published, published_text = nearest
    url_day = find_date_in_url(page.url)
    # the day the publisher stamps into the URL, else into a <title> segment of its own
    stamp_day = url_day or title_stamp(page.title_text, dayfirst_for(art.language))
    if published:
        # a day-month order the declared text leaves open follows the visible date or the URL;
        # then the local day of the same instant, when the page, its URL or its <title> shows it
        published = _reordered(published, published_text, td.published and td.published[:10], url_day)
    stamped = bool(published) and _stamped_on_edit(str(published), meta.modified, td, url_day)
    shown_line = _Lazy(lambda: _shown_dateline(page, td, nodes, rel.comment_cut, art.language))
    agreeing = None
    if published and not stamped:
        agreeing = _declared_as_shown(published, meta, td, shown_line) or _placeholder_published(
            published, meta, td, shown_line, page, art.language
        )

    def local_day(value: str) -> str:  # the declared instant on the page's, or the publisher's, local day
        return in_publisher_zone(local_published(value, td.published, stamp_day), art.language, page.url)

    if agreeing:
        art.published = local_day(agreeing)
        art.provenance["published"] = {"method": "metadata-as-shown", "score": 1.0}
    elif published and not stamped:
        art.published = local_day(published)
        art.provenance["published"] = {"method": _source(meta, "published"), "score": 1.0}
        full_url_day = padded_url_date(page.url)
        if (
            full_url_day
            and _days_apart(art.published, full_url_day) > URL_CONFLICT_DAYS
            and _days_apart(td.published or shown_line.get(), art.published) > URL_CONFLICT_DAYS
        ):
            art.published = full_url_day
            art.provenance["published"] = {"method": "url-over-metadata", "score": 0.5}
    elif td.published:
        art.published = _reordered(td.published, td.date_text, url_day)
        method = "nce-date-model-over-edit-stamp" if stamped else "nce-date-model"
        art.provenance["published"] = {"method": method, "score": round(td.date_score, 4)}
    elif url_day:
        art.published = url_day
        art.provenance["published"] = {"method": "url", "score": 0.5}
    elif stamp_day:
        art.published = stamp_day
        art.provenance["published"] = {"method": "title-stamp", "score": 0.5}
    elif shown_line.get():
        art.published = shown_line.get()
        art.provenance["published"] = {"method": "dateline", "score": 0.5}

    # body: the itemprop=articleBody element when the page marks one (seed 004; measured better
    # than NCE on the dev pages that have it), without its link lists and boilerplate blocks as
    # NCE's forest drops them; else the relevant nodes from the title on; never title/date nodes
    skip = {k for k in td.date_nodes if _dateline_part(page.text_nodes[k].text)}
    skip |= {k - 1 for k in skip if k and _date_label(page, k - 1, k)}  # its "Published:" too
    if td.title_node is not None:
        skip.add(td.title_node)
    marked = meta.article_body_element if meta is not None else None
    region = rel.separator  # where the body's text is: NCE's separator, or the block under the headline
    if marked is not None and page.has(marked) and page.text_len(marked) >= MIN_BODY_CHARS:
        method, found = "itemprop-articleBody", True
        kept = [
            k
            for k in pruned(page, marked, marked, params)
            if k not in skip and (k in shown or page.style(page.text_nodes[k].container).visible)
        ]
    elif rel.separator is None:
        # NCE returns the whole page when it finds no separator (§3.4.1); that is the content
        # only on tiny pages, elsewhere it is navigation and footers (seed 004: body None)
        method = "nce-whole-page"
        kept = [k for k in pruned(page, page.body, page.body, params) if k not in skip and k in shown]
        found = bool(kept) and page.text_len(page.body) <= NO_SEPARATOR_MAX_CHARS
    else:
        method, found = "nce", True
        start = 0
        if td.title_node is not None and nodes and td.title_node >= nodes[0]:
            before, total = page.split_chars(nodes, td.title_node)
            # a "title" deep inside the text is not where the story starts, unless what is before
            # it lies outside the story's block (a notice over the page, the site's banner)
            if before <= TITLE_CUT_SHARE * total or above_headline_elsewhere(
                page, nodes, td.title_node, MIN_BODY_CHARS
            ):
                start = td.title_node
        kept = _within_landmarks(page, [k for k in nodes if k >= start and k not in skip], rel.separator, td.title_node)
        kept = without_sidebars(page, kept, td.title_node, rel.separator, MIN_BODY_CHARS)
        # a short post: NCE's choice in a sidebar or comments, sharing no word with the headline
        under = under_headline(page, kept, _headline_node(page, td), rel.separator, params, shown, skip, MIN_BODY_CHARS)
        if under is not None:
            (kept, region), method = under, "nce-under-headline"
    container = marked if method == "itemprop-articleBody" else region  # None: the whole page
    if container is not None and kept:
        kept = without_teaser_cards(
            page, _without_author_boxes(page, kept, container), container, td.title_node, params
        )
    if container is not None and kept:
        head = td.title_node if td.title_node is not None else _last_h1(page, kept[0], shown)
        if head is not None and head < kept[0]:  # standfirsts sit outside the content
            small = page.text_len(container) / 2
            kept = _lead(page, range(head + 1, kept[0]), shown, skip, small, params.declared_article) + kept
        kept = without_trailing_card(page, _trim_tail(page, kept, page.text_range(container)), container, head, params)
    if container is not None and kept and meta is not None and meta.author_bios:
        kept = without_declared_bios(page, kept, container, meta.author_bios)
    if kept and meta is not None and meta.recipe_ingredients:
        kept = _with_ingredients(page, kept, meta.recipe_ingredients, shown)
    kept = without_copies(page, kept)  # a block shown once but written twice: its first copy
    if kept:
        kept = without_site_matter(page, kept)
    text = "\n".join(paragraphs(page, kept))
    if found and (len(text) >= MIN_BODY_CHARS or method == "nce-whole-page"):
        art.body = text
        art.provenance["body"] = {"method": method, "score": 1.0}
    else:
        art.provenance["body"] = {"method": method, "score": 0.0}
        art.warnings.append("no convincing content" if not found else "too little relevant text")
    art.warnings.extend(rel.notes)

    evidence = Evidence(
        tuple(rel.nodes), rel.comment_cut, td.title_node, td.title_score, tuple(td.date_nodes), td.published
    )
    if classifier is None:
        art.is_article, art.probability = _classify(page, art, meta, evidence, page_model)
    else:
        art.is_article, art.probability = classifier(page, art, meta, evidence)
    if art.body is None and meta is not None and meta.article_body_text:
        _declared_body(page, art, meta.article_body_text)
    if art.body is None and art.is_article:
        _fallback_body(page, art)
    elif art.body is None and rel.separator is not None and rel.separator is not page.body:
        _listing_body(page, art, rel.separator, params, shown, skip)
    if art.published is None and td.weak_published and art.is_article:
        # a date the model half-believes, only where a date is expected (not on product or
        # documentation pages, which often have none)
        art.published = td.weak_published
        art.provenance["published"] = {"method": "nce-date-model-weak", "score": round(td.weak_score, 4)}
    if art.published is None and art.is_article:
        # a byline date closing the article, after the text the date model reads
        closing = closing_date(page, rel.nodes, rel.comment_cut, dayfirst_for(art.language))
        if closing:
            art.published = closing
            art.provenance["published"] = {"method": "closing-byline", "score": 0.5}
    if art.published is None and art.is_article:
        labelled = labelled_date(page, dayfirst_for(art.language))
        if labelled:
            art.published = labelled
            art.provenance["published"] = {"method": "published-label", "score": 0.5}
    if art.published is None:  # a dated entry of its own: a page of a dated series, article or not
        own = (page.url, meta.canonical_url if meta is not None else None)
        listed = listed_date(page, own, rel.comment_cut, dayfirst_for(art.language))
        if listed:
            art.published = listed
            art.provenance["published"] = {"method": "listed-entry", "score": 0.5}
    return art


def extraction_evidence(page: Page) -> tuple[Article, Evidence]:
    """Run the extraction pipeline on ``page`` without classifying it: for callers that hold only a
    Page (tests, direct calls of the page classifier); inside ``extract()`` the pipeline hands its
    evidence over itself."""
    found: list[tuple[Article, Evidence]] = []

    def keep(page: Page, art: Article, meta: Any, evidence: Evidence) -> tuple[bool, float]:
        found.append((art, evidence))
        return False, 0.0

    extract_page(page, classifier=keep)
    return found[0]


def _within_landmarks(page: Page, kept: list[int], separator: Any, headline: int | None = None) -> list[int]:
    """``kept`` cut to the one ``<main>`` (or ``role="main"``) element inside ``separator``, then to the
    one ``<article>`` inside what is left, each only when it holds LANDMARK_SHARE+ of the text. NCE
    elects the block whose children carry the most text, and a site's own blocks written as prose
    can sit beside the article under it. The page's markup says where the article is; two or more
    such elements say nothing (teaser cards, one ``<article>`` a post), unless one of them holds the
    ``headline`` text node: then that one is the story and the others are teasers after it."""
    # by tag in lxml's C loop (an XPath over the separator costs ~1% of a page), by role from the
    # page's one search of role attributes
    first = page.index(separator)
    last = first + page.descendants(separator)
    tagged = [el for el in separator.iter("main", "article") if el is not separator and page.has(el)]
    mains = sorted(
        {
            *(el for el in tagged if el.tag == "main"),
            *(el for el in page.with_role("main") if first < page.index(el) <= last and el.tag != "article"),
        },
        key=page.index,
    )
    text = page.text_nodes
    for landmarks in (mains, [el for el in tagged if el.tag == "article"]):
        outer = _outermost(page, landmarks)
        if len(outer) > 1 and headline is not None:
            outer = [el for el in outer if headline in page.text_range(el)]
        if len(outer) != 1:
            continue
        inside = page.text_range(outer[0])
        total = sum(len(text[k].text) for k in kept)
        within = sum(len(text[k].text) for k in kept if k in inside)
        if LANDMARK_SHARE * total <= within < total:
            kept = [k for k in kept if k in inside]
    return kept


def _outermost(page: Page, elements: list[Any]) -> list[Any]:
    """Those of ``elements`` (in document order) that are inside none of the others."""
    outer, end = [], -1
    for el in elements:
        if page.index(el) > end:
            outer.append(el)
            end = page.index(el) + page.descendants(el)
    return outer


def _declared_body(page: Page, art: Article, text: str) -> None:
    """A page whose shown text gave no body, but whose JSON-LD declares the article's text
    (``articleBody``: pages whose text scripts write in, paywalled pages, forum threads), gets
    that text: the publisher's own words, not a guess over the page's blocks. Only when it agrees
    with the page's visible text or the page shows no article as long, and is no teaser of a longer
    text CoreEx finds (newscrawl.extract.declared)."""
    if len(text) < MIN_BODY_CHARS:
        return

    def candidate() -> str | None:
        from newscrawl.classify.coreex import coreex  # the page classifier has it loaded already

        return coreex(page).text

    verdict = declared_verdict(text, shown_text(page), candidate)
    if verdict != "use":
        art.warnings.append(f"the declared articleBody not used: {verdict}")
        return
    art.body = text
    art.provenance["body"] = {"method": "jsonld-articleBody", "score": 1.0}
    art.warnings.append("no body in the shown text: the declared articleBody used")


def _fallback_body(page: Page, art: Article) -> None:
    """A page the classifier calls an article, where NCE found no content (no separator node, or
    one over too little text), gets CoreEx's main content node (seed 002) instead of no body: the
    page has an article, and None would drop it. Only on articles: on the other pages with no NCE
    content (listings, product grids) CoreEx's node is not the labelled text (wcxb-dev body F1
    .8263 -> .8214 when used on every page, -> .8277 on articles only; docs/decisions.md)."""
    from newscrawl.classify.coreex import coreex  # the page classifier has it loaded already

    found = coreex(page)
    if found.text and len(found.text) >= MIN_BODY_CHARS:
        art.body = found.text
        art.provenance["body"] = {"method": "coreex-fallback", "score": round(found.score, 4)}
        art.warnings.append("NCE found no content: CoreEx's main content node used")


def _listing_body(page: Page, art: Article, separator: Any, params: NCEParams, shown: set[int], skip: set[int]) -> None:
    """A page that is no article, whose separator held too little text once its link lists were
    pruned, gets the separator's text with the link lists kept (boilerplate-named blocks still
    go): on a listing, collection or index page the links are the content (wcxb-dev body F1
    .8355 -> .8377, listing pages .533 -> .560, collection .573 -> .600; docs/decisions.md,
    "Listing pages: the separator's links as the body"). A separator that is the whole
    ``<body>`` is no content region (menus and footers: seed 004's garbage), and keeps None."""
    keep_links = replace(params, prune_nested=False)
    kept = [k for k in pruned(page, separator, separator, keep_links) if k in shown and k not in skip]
    text = "\n".join(paragraphs(page, kept))
    if len(text) >= MIN_BODY_CHARS:
        art.body = text
        art.provenance["body"] = {"method": "nce-links-kept", "score": 0.5}
        art.warnings.append("no article text: the separator's text is the body, link lists included")


def _last_h1(page: Page, end: int, shown: set[int]) -> int | None:
    """The last shown ``<h1>`` text before text node ``end``: the visible headline when the title
    model found none (the title then comes from metadata or ``<title>``, often worded otherwise), so
    a lead between it and the content is read as on the other pages (docs/decisions.md, "Extraction
    quality against the peers, round 9")."""
    tns = page.text_nodes
    for k in range(end - 1, -1, -1):
        if k in shown and block_of(tns[k].container).tag == "h1":
            return k
    return None


def _lead(page: Page, gap: range, shown: set[int], skip: set[int], small: float, article: bool) -> list[int]:
    """Text nodes between the headline and the relevant content that read as a lead paragraph:
    in a block with LEAD_MIN_CHARS+ characters and link density at most LEAD_MAX_LINK_DENSITY
    (bylines, share bars, captions and tables of contents are shorter or all links; a block
    holding the detected date is a dateline; text in an author box under ``small`` characters
    is a byline). In a declared ``article``, a block inside a link is a teaser card's headline
    ("You may also like"), not the story's lead; on listings such cards are the content."""
    tns = page.text_nodes
    outside = (*_CAPTION_TAGS, "a") if article else _CAPTION_TAGS
    verdict: dict[Any, bool] = {block_of(tns[k].container): False for k in gap if k in skip}
    out = []
    for k in gap:
        if k not in shown or k in skip or _in_author_box(page, tns[k].container, small):
            continue
        block = block_of(tns[k].container)
        ok = verdict.get(block)
        if ok is None:
            ok = verdict[block] = (
                page.has(block)
                and page.text_len(block) >= _lead_min_chars(page, block)
                and page.link_density(block) <= LEAD_MAX_LINK_DENSITY
                and block.tag not in _CAPTION_TAGS
                and next(block.iterancestors(*outside), None) is None
                and not _in_gap_box(page, block, gap)
            )
        if ok:
            out.append(k)
    return out


def _lead_min_chars(page: Page, block: Any) -> int:
    """How much text a block between the headline and the content needs to be the lead: less when
    its names say it is the standfirst and it holds no picture (whose credit line would pass)."""
    if _lead_named(page.names(block)) and next(block.iter("img", "picture", "figure"), None) is None:
        return NAMED_LEAD_MIN_CHARS
    return LEAD_MIN_CHARS


# Boxes whose pitch is no lead: a newsletter or subscription box, related stories, a share bar, a
# promotion, a call to action (NCE's strong names but the comment words: a forum's replies are its
# content, and "cta")
_BOX_NAMES = re.compile(
    r"(?:^|[\s_-])(?:newsletter|subscribe|subscription|signup|related|recommended|share|sharing|social|"
    r"promo|sponsored|advert|cta)(?:$|[\s_-])",
    re.I,
)
_box_named = name_test(_BOX_NAMES)


def _with_ingredients(page: Page, kept: list[int], ingredients: Sequence[Any], shown: set[int]) -> list[int]:
    """``kept`` with the text of a recipe's declared ingredients (microdata ``recipeIngredient``)
    when none of it is in: NCE elects the method's steps, and the list beside them is as much the
    recipe. Each item once: pages write the list again for narrow screens."""
    tns = page.text_nodes
    seen: set[str] = set()
    items: list[int] = []
    for el in ingredients:
        if not page.has(el):
            continue
        text = page.text(el)
        if text in seen:
            continue
        seen.add(text)
        items.extend(k for k in page.text_range(el) if k in shown or page.style(tns[k].container).visible)
    held = set(kept)
    if not items or any(k in held for k in items):
        return kept
    return sorted(held.union(items))


def _in_gap_box(page: Page, block: Any, gap: range) -> bool:
    """``block``, or an ancestor of it between the headline and the content, is kept out of the
    lead: it carries ``data-nosnippet`` (the site keeps it out of search snippets as not the
    article's text: the author's bio, the byline row, a promo in the header), or its class names a
    box that is no part of the story (:data:`_BOX_NAMES`: its pitch is no lead)."""
    node = block
    while node is not None and page.has(node):
        span = page.text_range(node)
        if span.start < gap.start or span.stop > gap.stop:
            return False
        if node.get("data-nosnippet") is not None or _box_named(node.get("class") or ""):
            return True
        node = node.getparent()
    return False


# four or more words ending as a sentence does, a credit line's "; " ("Reporting by A; Editing by B"),
# or a sign-off after a dash ("— Ann Lee, City Desk"; not a tweet's "— Ann (@ann) March 3, 2024")
_CLOSING_SENTENCE = re.compile(r"(?=(?:\S+\s+){3}\S)(?:.*[.!?]|.*\S; \S.*)|[—–]\s*[^\W\d_][^@\d]*", re.S)


def _trim_tail(page: Page, kept: list[int], span: range) -> list[int]:
    """Drop the last line when it is short and text of its container after it was removed
    (pruned, hidden or cut as comments): "Related:", "Read more", the heading over a link list
    or a comment section announce what is gone and are left over. A short sentence that closes the
    story ("The Associated Press contributed to this report.") stays."""
    tns = page.text_nodes
    block = block_of(tns[kept[-1]].container)
    j = len(kept) - 1
    while j > 0 and kept[j - 1] == kept[j] - 1 and block_of(tns[kept[j - 1]].container) is block:
        j -= 1
    if sum(len(tns[k].text) for k in kept[j:]) >= TAIL_MAX_CHARS or kept[-1] + 1 >= span.stop:
        return kept
    if block.tag not in _HEADINGS and _CLOSING_SENTENCE.fullmatch(" ".join(tns[k].text for k in kept[j:]).strip()):
        return kept  # a sentence closing the story ("The AP contributed to this report."), no label
    return kept[:j]


def _in_author_box(page: Page, el: Any, small: float) -> bool:
    """``el`` or an ancestor with under ``small`` characters is named like an author box."""
    node = el
    while node is not None and page.has(node) and page.text_len(node) < small:
        if _author_named(page.names(node)):
            return True
        node = node.getparent()
    return False


def _without_author_boxes(page: Page, kept: list[int], container: Any) -> list[int]:
    """``kept`` minus the text of the container's author boxes (outermost elements named by
    AUTHOR_NAMES that hold some of ``kept``), unless there are more than AUTHOR_BOXES_MAX of them (one
    per listed item)."""
    held = sorted(page.elements_above(kept, page.index(container)))  # in document order
    named = [
        el
        for el in map(page.elements.__getitem__, held)
        if (el.get("class") or el.get("id")) and _author_named(page.names(el))
    ]
    if not named:
        return kept
    inside = set(named)
    boxes = [el for el in named if not any(a in inside for a in el.iterancestors())]
    if len(boxes) > AUTHOR_BOXES_MAX:
        return kept
    half = page.text_len(container) / 2
    drop: set[int] = set()
    for el in boxes:
        if page.has(el) and page.text_len(el) < half:
            drop.update(page.text_range(el))
    return [k for k in kept if k not in drop] if drop else kept


def _source(meta: Any, name: str) -> str:
    return f"metadata:{meta.sources.get(name, 'unknown')}"


def _metadata(page: Page, art: Article) -> Any:
    """Structured metadata (newscrawl.extract.metadata) when it is available; fills the fields
    the visible page cannot give (modified, authors, language)."""
    try:
        from newscrawl.extract.metadata import read_metadata
    except ImportError:
        return None
    try:
        meta = read_metadata(page)
    except Exception as exc:  # metadata is a bonus; never lose the page for it
        art.warnings.append(f"metadata unreadable: {exc.__class__.__name__}")
        return None
    for name in ("modified", "language"):
        value = getattr(meta, name)
        if value:
            setattr(art, name, value)
            art.provenance[name] = {"method": _source(meta, name), "score": 1.0}
    if meta.authors:
        art.authors = list(meta.authors)
        art.provenance["authors"] = {"method": _source(meta, "authors"), "score": 1.0}
    return meta


def _site_as_author(authors: list[str], meta: Any, url: str | None) -> bool:
    """Every declared author is the site itself: its declared name or its domain ("24horas.cl",
    "latercera" on latercera.com), a CMS default where the byline names the writer."""
    site = {alnum(meta.site_name)} if meta is not None and meta.site_name else set()
    if url:
        domain = registrable_domain(url)
        site |= {alnum(domain), alnum(domain.split(".", 1)[0])}
    site.discard("")
    return bool(site) and all(alnum(name) in site for name in authors)


def _read_language(page: Page, art: Article, nodes: Sequence[int]) -> None:
    """A page declaring no language is read for one (:func:`text_language`) in the text NCE
    chose, or the whole page's when that is short: the date rules read day-month order and the
    publisher's zone from it, and a corpus wants every record's language."""
    if art.language:
        return
    tns = page.text_nodes
    parts, size = [], 0
    for k in nodes:
        parts.append(tns[k].text)
        size += len(tns[k].text) + 1
        if size >= LANGUAGE_SAMPLE_CHARS:
            break
    text = "\n".join(parts) if size >= LANGUAGE_SAMPLE_CHARS // 4 else page.body_text
    found = text_language(text)
    if found:
        art.language = found
        art.provenance["language"] = {"method": "text", "score": 0.5}


def _adopt_declared_address(page: Page, meta: Any | None) -> None:
    """A page given without its URL takes the address it declares (canonical link, og:url), so
    the rules that weigh links, dates and names against the page's own site work on saved files."""
    if page.url is not None or meta is None or not meta.canonical_url:
        return
    address = meta.canonical_url.strip()
    try:
        host = urlsplit(address).hostname
    except ValueError:  # malformed ("http://[x"): no address to adopt
        return
    if host and address.startswith(("http://", "https://")):
        page.url = address


def _declared(params: NCEParams, meta: Any | None) -> NCEParams:
    """``params`` with the rules the page's metadata turns on: a declared article, a forum thread
    (its replies kept), a thread or Q&A page (the chrome around its posts dropped)."""
    if meta is None:
        return params
    flags = {
        "declared_article": params.declared_article or _declares_article(meta),
        "discussion": params.discussion or bool(meta.schema_types & DISCUSSION_TYPES),
        "post_chrome": params.post_chrome or bool(meta.schema_types & THREAD_TYPES),
    }
    if all(getattr(params, name) == value for name, value in flags.items()):
        return params
    return replace(params, **flags)


def _declares_article(meta: Any | None) -> bool:
    """The page's metadata calls it an article (og:type, JSON-LD/microdata type)."""
    return meta is not None and ("article" in (meta.og_type or "") or bool(meta.schema_types & ARTICLE_TYPES))


def _classify(
    page: Page, art: Article, meta: Any | None, evidence: Evidence, page_model: str | None = None
) -> tuple[bool, float]:
    """The page classifier (newscrawl.classify.page) when present, else a documented rule:
    an article type in metadata, or a title and a body of ARTICLE_BODY_CHARS+ characters."""
    try:
        from newscrawl.classify.page import classify, first_pass_file, page_model_file
    except ImportError:
        classify = None  # type: ignore[assignment]
    if classify is not None:
        try:
            verdict, probability = classify(
                page,
                art,
                metadata=meta,
                evidence=evidence,
                model_path=page_model_file(page_model, page),
                first_pass=first_pass_file(page_model, page),
            )
        except Exception as exc:  # e.g. its model missing: fall back to the rule below
            art.warnings.append(f"page classifier unavailable: {exc.__class__.__name__}: {exc}")
        else:
            art.provenance["is_article"] = {"method": "page-classifier", "score": round(float(probability), 4)}
            return bool(verdict), float(probability)
    types = set()
    if meta is not None:
        if meta.og_type:
            types.add(meta.og_type.lower())
        types.update(t.lower() for t in meta.schema_types)
    body_len = len(art.body or "")
    score = min(1.0, body_len / (2 * ARTICLE_BODY_CHARS))
    if types & _ARTICLE_TYPES:
        score = max(score, 0.8)
    if not art.title:
        score *= 0.5
    art.provenance["is_article"] = {"method": "rule", "score": round(score, 4)}
    return score >= 0.5, score
