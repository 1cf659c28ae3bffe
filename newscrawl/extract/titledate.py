"""Title and date detection (seed 000 §3.4.2) and their post-processing (§3.4.3).

Two tree ensembles from ``models/`` (title_model.json, date_model.json via newscrawl.modelio)
score the text nodes of the evaluated subset: the title first, then the date with the signed
distance to the detected title as a feature. Post-processing keeps one title (the first
detected, else ``<title>`` without the site name) and the date cluster nearest the title.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from typing import Any
from urllib.parse import urljoin, urlsplit

import numpy as np
from lxml import etree

from newscrawl.extract.dates import cued_date, is_copyright, is_publish_label, names_update, parse_date
from newscrawl.extract.features import (
    DATE_FEATURES,
    FEATURES,
    MAX_TITLE_LEN,
    columns,
    node_features,
    with_title_distance,
)
from newscrawl.extract.metadata import SEP_CHARS, strip_site_suffix
from newscrawl.extract.metadata import strip_site_name as meta_strip_site_name
from newscrawl.extract.nce import INLINE
from newscrawl.modelio import ModelError, TreeModel, load_model
from newscrawl.page import Page, collapse, enclosing, fold
from newscrawl.paths import models_dir
from newscrawl.safeurl import join_url

THRESHOLD = 0.5  # class probability for "is title" / "is date"
CLUSTER_GAP = 3  # date nodes at most two text nodes apart (index difference <= 3) share a cluster
# the page's own entry in a listing on it (listed_date): a card of at most this much text, found at
# most this many levels above the link to the page
LISTED_ENTRY_CHARS = 400
LISTED_ENTRY_LEVELS = 4
UPDATE_LABEL_CHARS = 40  # of the text node before a date, read for an "Updated" label (shown_days)
MAX_DATE_LEN = 100  # longer "date" nodes add text, not a date (dropped, §3.4.3; never scored)
# Measured in docs/decisions.md ("Extraction quality against the peers, round 4"): a date above
# the headline counts this many text nodes farther than one below it (page banners show today's
# date there), and when no cluster reads as a date, the most probable candidate with at least
# WEAK_DATE_THRESHOLD that parses is kept as a weak date (used after metadata and the URL).
BEFORE_TITLE_PENALTY = 2
WEAK_DATE_THRESHOLD = 0.25
# the model's best title is the site's name: the most probable other row down to this probability
SITE_NAME_FALLBACK = 0.25
# "best" (most probable candidate) rather than the paper's "first detected": grouped CV over
# 1,600 dev pages, see docs/decisions.md ("Title and date models").
TITLE_RULE = "best"
# A dateline near the headline (:func:`dateline`): this many text nodes after the title, and before
# it, are read (docs/decisions/dates-news.md, "Text datelines near the headline")
DATELINE_AFTER = 12
DATELINE_BEFORE = 3
DATELINE_AROUND_STORY = 3
MIN_ZONE_HOURS, MAX_ZONE_HOURS = 12, 14  # UTC offsets run from -12 to +14 (local_published)
# Marks that separate breadcrumb or menu items: the site-name separators without dashes and colons
# ("-5 °C tonight", "Update:"), plus the arrows of breadcrumbs. A title text that starts or ends with
# one took it from a neighbouring run ("<span>|</span><span>Headline</span>", "» Headline"); no
# headline begins or ends with one.
_EDGE_MARKS = "".join(c for c in SEP_CHARS if c not in "-\u2013\u2014:") + "\u203a>"
_SEPARATORS = "|\u2013\u2014\\-:\u00b7\u2022\u00bb/"  # a character class's members
_SITE_SEP = re.compile(rf"\s+[{_SEPARATORS}]+\s+")


@functools.lru_cache(maxsize=4)
def load(name: str) -> TreeModel | None:
    """The shipped model ``name`` (title_model/date_model), or None when it is not there."""
    try:
        return load_model(models_dir() / f"{name}.json")
    except ModelError:
        return None


def block_of(el: Any) -> Any:
    """Nearest ancestor-or-self that is not an inline element (the paragraph a text run sits in)."""
    node = el
    while node is not None and isinstance(node.tag, str) and node.tag in INLINE:
        parent = node.getparent()
        if parent is None:
            break
        node = parent
    return node if node is not None else el


def _word_links(page: Page, block: Any) -> tuple[int, list[Any]]:
    """(text length of the links in ``block`` that hold a letter or digit, the other links): a
    link of symbols only ("¶", "#", "🔗") is a permalink anchor beside a heading, not a
    breadcrumb, and no part of the headline."""
    words, symbols = 0, []
    for a in block.iter("a"):
        if not page.has(a) or not page.text_len(a):
            continue
        if any(ch.isalnum() for ch in page.text(a)):
            words += page.text_len(a)
        else:
            symbols.append(a)
    return words, symbols


def joined_text(page: Page, el: Any, skip: Sequence[Any] = ()) -> str:
    """``el``'s shown text (without the ``skip`` elements) spaced as the page spaces it: whitespace
    only where the source has some (``&nbsp;`` included), a line break or a block boundary, so
    inline markup inside a word or before punctuation ("Staubsaugerzub<wbr>ehö",
    "Category<span>:</span>", "<em>Metroid</em>, One") adds none. Page.text joins every run with a
    space instead."""
    parts: list[str] = []
    hidden = page.hidden_flags()
    walker = etree.iterwalk(el, events=("start", "end"))
    for event, node in walker:
        tag = node.tag
        shown = isinstance(tag, str) and page.has(node) and not hidden[page.index(node)] and node not in skip
        if event == "start":
            if not shown:
                walker.skip_subtree()
                continue
            if tag == "br" or tag not in INLINE:
                parts.append(" ")
            parts.append(node.text or "")
        else:
            if shown and (tag == "br" or tag not in INLINE):
                parts.append(" ")
            if node is not el:
                parts.append(node.tail or "")
    return collapse("".join(parts))


def node_title_text(page: Page, k: int, meta_title: str | None = None) -> str:
    """A title node's full text when inline markup split the headline: the link it sits in when
    markup split a linked headline ("<a>The Story Of <em>Metroid</em>, One Of ...</a>"), else its
    short block when that holds no word links (breadcrumbs are links; permalink symbols such as
    "¶" are left out), else the text run alone. A run that is the structured headline
    ``meta_title`` by itself stays alone: the rest of its block is a label or kicker
    ("Headline:", "SELECTED:", a section name) that the page declares no part of the title.
    Separator marks at either end (``_EDGE_MARKS``) are left out, unless nothing else is left."""
    text = _title_unit_text(page, k, meta_title)
    return text.strip(_EDGE_MARKS) or text


def _title_unit_text(page: Page, k: int, meta_title: str | None) -> str:
    tn = page.text_nodes[k]
    limit = 2 * len(tn.text) + 10
    block = block_of(tn.container)
    link = enclosing(tn.container, "a", block)  # the run is link text
    skip: list[Any]
    if link is not None and page.has(link) and len(tn.text) < page.text_len(link) <= limit:
        unit, skip = link, []
    elif page.has(block) and page.text_len(block) <= limit:
        words, skip = _word_links(page, block)
        if words:
            return tn.text
        unit = block
    else:
        return tn.text
    if meta_title and fold(tn.text) == fold(meta_title):
        return tn.text
    return joined_text(page, unit, skip) or tn.text


def strip_site_name(title: str) -> str:
    """``<title>`` without the site name: the longest part between separators like ' | ' ' - '."""
    parts = [p.strip() for p in _SITE_SEP.split(title) if p.strip()]
    if len(parts) < 2:
        return title.strip()
    return max(parts, key=len)


def title_tag_title(title_text: str, site_name: str | None, url: str | None) -> str:
    """``<title>`` as a fallback headline: without the part that names the site (declared, or in
    another spelling) when one does, else its longest part between separators."""
    raw = title_text.strip()
    named = strip_site_suffix(meta_strip_site_name(raw, site_name) or raw, site_name, url)
    if named != raw:
        return named.rstrip(SEP_CHARS) or named
    return strip_site_suffix(strip_site_name(raw), site_name, url)


@dataclass
class TitleDate:
    title: str | None
    title_node: int | None  # text-node index
    title_score: float
    date_text: str | None  # the visible date text (joined cluster)
    published: str | None
    date_nodes: list[int]
    date_score: float
    weak_published: str | None = None  # below THRESHOLD; only when no cluster gave a date
    weak_score: float = 0.0


# <title> segments: the separators of _SITE_SEP and "@" (a blog's "Post @ Blog :: Host")
_TITLE_SEGMENTS = re.compile(rf"\s+[{_SEPARATORS}@]+\s+")


def _title_segments(title_text: str) -> list[str]:
    """The non-empty parts of ``<title>`` between its separators, in order."""
    return [part for part in (p.strip(SEP_CHARS) for p in _TITLE_SEGMENTS.split(title_text)) if part]


def site_names(title_text: str, site_name: str | None) -> set[str]:
    """Folded names the page gives its site: the declared ``site_name`` and each segment of
    ``<title>`` after its first (the headline comes first: "Post @ Blog :: Host") but its longest
    (a headline after the site's name: "Blog - Post")."""
    parts = _title_segments(title_text)
    longest = max(parts, key=len, default="")
    names = {fold(part) for part in parts[1:] if part != longest}
    if site_name:
        names.add(fold(site_name))
    return names


STAMP_SEGMENT_CHARS = 32  # a <title> segment this short that holds only a date is the page's date stamp
STAMP_TITLE_CHARS = 400  # of a <title> read for it: a hostile one of megabytes is not split whole
_STAMP_WORDS = re.compile(r"[^\W\d_]+")
_FULL_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")


def title_stamp(title_text: str, dayfirst: bool | None = None) -> str | None:
    """The day of a ``<title>`` segment that is only a date ("Headline - Section - 11/05/2022 -
    Paper"): the publisher stamps the story's day into its title as into its URL. A date inside
    the headline ("Update 2024-09-05", "after 08/02/2024?") is part of what the story is about,
    so only a segment of its own, beside the headline, counts."""
    parts = _title_segments(title_text[:STAMP_TITLE_CHARS])
    if len(parts) < 2:
        return None
    longest = max(parts, key=len)
    for part in parts:
        if part == longest or len(part) > STAMP_SEGMENT_CHARS or not _FULL_YEAR.search(part):
            continue
        if len(_STAMP_WORDS.findall(part)) > 3:  # a month, a weekday and "de" at most
            continue
        value = parse_date(part, dayfirst=dayfirst)
        if value:
            return value[:10]
    return None


def _not_the_site(
    page: Page, nodes: list[int], p_title: np.ndarray, row: int, meta_title: str | None, site_name: str | None
) -> int:
    """``row``, unless its text is the site's name (:func:`site_names`) and another row reaches
    :data:`SITE_NAME_FALLBACK` with text that is not: a blog's name in its banner ``<h1>`` over
    each post's ``<h2>`` headline (docs/decisions/titles-dates.md, "The site's name is not the
    headline")."""
    names = site_names(page.title_text, site_name)

    def the_site(k: int) -> bool:
        return fold(node_title_text(page, k, meta_title)) in names or _links_home(page, k)

    if not the_site(nodes[row]):
        return row
    for other in np.argsort(-p_title, kind="stable"):
        if p_title[other] < SITE_NAME_FALLBACK:
            break
        if other != row and not the_site(nodes[int(other)]):
            return int(other)
    return row


_FRONT_PAGE_PATHS = frozenset({"", "/", "/index.html", "/index.htm", "/index.php"})


def _links_home(page: Page, k: int) -> bool:
    """Text node ``k`` is inside a link to the site's front page: the banner's name or logo."""
    el = page.text_nodes[k].container
    link = el if el.tag == "a" else next(el.iterancestors("a"), None)
    href = (link.get("href") or "").strip() if link is not None else ""
    if not href or href.startswith("#"):
        return False
    try:
        target = urlsplit(urljoin(page.url or "", href))
        own = urlsplit(page.url or "")
    except ValueError:
        return False
    if target.hostname and own.hostname and target.hostname.removeprefix("www.") != own.hostname.removeprefix("www."):
        return False
    return target.path in _FRONT_PAGE_PATHS and not target.query


_HEADLINE_TAGS = frozenset({"h1", "h2"})


def evaluated_subset(page: Page, relevant: list[int]) -> list[int]:
    """Seed §3.4.1: the relevant nodes plus every text node before the first of them (all
    nodes when nothing is relevant), and the ``<h1>``/``<h2>`` text between the first and the last
    relevant node (a linked headline NCE pruned from its choice), without those hidden by computed
    style (styles are resolved here, on demand, for this subset only)."""
    tns = page.text_nodes
    if relevant:
        chosen = set(relevant)
        first, last = relevant[0], relevant[-1]
        for heading in page.with_tags(*_HEADLINE_TAGS):
            span = page.text_range(heading)
            if span.start > last:
                break
            chosen.update(k for k in span if first < k < last)
        nodes = list(range(first)) + sorted(chosen)
    else:
        nodes = list(range(len(tns)))
    shown = [k for k in nodes if getattr(page.style(tns[k].container), "visible", True)]
    if 2 * sum(len(tns[k].text) for k in shown) < sum(len(tns[k].text) for k in nodes):
        # most text hidden: an anti-flicker rule (html.no-js, body hidden until scripts run);
        # a browser with scripts shows it, so computed visibility is ignored for this page
        page.warnings.append("most text hidden by stylesheets until scripts run: visibility ignored")
        return nodes
    return shown


def distinct_positive_proba(model: TreeModel, X: np.ndarray) -> np.ndarray:
    """``model.positive_proba(X)``, each distinct row walked once: half of a page's title rows repeat
    another (short texts in one style: "Share", bylines, dates), and the walk costs by the row (title
    model 406 -> 260 us a trafilatura-eval page). Rows are the same when their bytes are."""
    n = len(X)
    width = X.shape[1] * X.itemsize if X.ndim == 2 else 0
    if n < 2 or not width:
        return model.positive_proba(X)
    data = np.ascontiguousarray(X).tobytes()
    keys = [data[i : i + width] for i in range(0, n * width, width)]
    first = dict(zip(reversed(keys), range(n - 1, -1, -1)))  # each row's bytes -> the first row holding them
    if len(first) == n:
        return model.positive_proba(X)
    rows = sorted(first.values())
    slot = dict(zip(map(keys.__getitem__, rows), range(len(rows))))
    return model.positive_proba(X[rows])[list(map(slot.__getitem__, keys))]


def title_candidates(X: np.ndarray) -> np.ndarray:
    """Rows that may be the title: non-empty and at most MAX_TITLE_LEN characters."""
    return np.flatnonzero(X[:, 0] <= MAX_TITLE_LEN)


def date_candidates(X: np.ndarray) -> np.ndarray:
    """Rows that may hold the date: with digits (§3.3) and at most MAX_DATE_LEN characters."""
    return np.flatnonzero((X[:, FEATURES.index("digits")] > 0) & (X[:, 0] <= MAX_DATE_LEN))


def pick_title(p_title: np.ndarray, rule: str = "first") -> int | None:
    """Row of the title among rows with probability >= THRESHOLD: the first in document order
    (§3.4.3) or, with rule="best", the most probable."""
    hits = np.flatnonzero(p_title >= THRESHOLD)
    if not hits.size:
        return None
    return int(hits[0]) if rule == "first" else int(hits[np.argmax(p_title[hits])])


def pick_date(
    page: Page,
    nodes: list[int],
    X: np.ndarray,
    p_date: np.ndarray,
    title_node: int | None,
    dayfirst: bool | None = None,
) -> tuple[list[int], str | None, str | None, float]:
    """§3.4.3: long nodes dropped, nodes clustered, the cluster nearest the title parsed
    (``dayfirst``: :func:`dayfirst_for` the page's language)."""
    date_rows = [int(r) for r in np.flatnonzero(p_date >= THRESHOLD) if X[r, 0] <= MAX_DATE_LEN]
    cluster = _nearest_cluster([nodes[r] for r in date_rows], title_node)
    score_of = {nodes[r]: float(p_date[r]) for r in date_rows}
    date_text, published = _read_date(page, cluster, dayfirst)
    return cluster, date_text, published, max((score_of[k] for k in cluster), default=0.0)


def detect(
    page: Page,
    nodes: list[int],
    meta_title: str | None = None,
    site_name: str | None = None,
    language: str | None = None,
) -> TitleDate:
    """Classify title then date over ``nodes`` (the evaluated subset, text-node indices);
    ``meta_title`` is the structured headline (a title-model feature); a trailing segment naming
    the site (``site_name`` as declared, or the URL's domain) leaves the title; ``language``
    (declared) decides how slash dates read (:func:`dayfirst_for`)."""
    if not nodes:
        fallback = title_tag_title(page.title_text, site_name, page.url) or None
        return TitleDate(fallback, None, 0.0, None, None, [], 0.0)
    X = node_features(page, nodes, meta_title)
    title_model = load("title_model")
    p_title = np.zeros(len(nodes))
    title_rows = title_candidates(X)
    if title_model is not None:
        p_title[title_rows] = distinct_positive_proba(title_model, columns(X[title_rows], title_model.features))
        row = pick_title(p_title, TITLE_RULE)
    else:  # before training: the non-trivial node closest to <title>
        edit = np.where((X[:, 0] >= 8) & (X[:, 0] <= MAX_TITLE_LEN), X[:, FEATURES.index("title_edit")], np.inf)
        row = int(np.argmin(edit)) if edit.size and edit.min() < 0.5 else None
        p_title = np.where(np.isfinite(edit), 1.0 - np.minimum(edit, 1.0), 0.0)
    if row is not None and title_model is not None:
        row = _not_the_site(page, nodes, p_title, row, meta_title, site_name)
    title_node, title, title_score = None, None, 0.0
    if row is not None:
        title_node = nodes[row]
        title = strip_site_suffix(node_title_text(page, title_node, meta_title), site_name, page.url)
        title_score = float(p_title[row])
    if not title:
        title = title_tag_title(page.title_text, site_name, page.url) or None

    date_rows = date_candidates(X)
    Xd = with_title_distance(X[date_rows], [nodes[r] for r in date_rows], title_node)
    date_model = load("date_model")
    p_date = np.zeros(len(nodes))
    if date_model is not None:
        p_date[date_rows] = date_model.positive_proba(columns(Xd, date_model.features))
    else:  # before training: short nodes with digits near the title
        Xd = columns(Xd, DATE_FEATURES)
        dist = np.abs(Xd[:, DATE_FEATURES.index("title_distance")])
        p_date[date_rows] = np.where((Xd[:, 1] >= 2) & (dist <= 15), 1.0, 0.0)
    dayfirst = dayfirst_for(language)
    cluster, date_text, published, date_score = pick_date(page, nodes, X, p_date, title_node, dayfirst)
    weak, weak_score = (None, 0.0) if published else weak_date(page, nodes, X, p_date, title_node, dayfirst)
    return TitleDate(title, title_node, title_score, date_text, published, cluster, date_score, weak, weak_score)


def weak_date(
    page: Page,
    nodes: list[int],
    X: np.ndarray,
    p_date: np.ndarray,
    title_node: int | None,
    dayfirst: bool | None = None,
) -> tuple[str | None, float]:
    """(date, probability) of the most probable candidate under THRESHOLD (nearest the title on
    ties) that parses: datelines such as "Hamburg, 11. November 2021" the model half-believes."""
    rows = [int(r) for r in np.flatnonzero(p_date >= WEAK_DATE_THRESHOLD) if X[r, 0] <= MAX_DATE_LEN]
    rows.sort(key=lambda r: (-p_date[r], abs(nodes[r] - title_node) if title_node is not None else 0, r))
    for r in rows:
        value = parse_date(page.text_nodes[nodes[r]].text, dayfirst=dayfirst)
        if value:
            return value, float(p_date[r])
    return None, 0.0


def closing_date(page: Page, relevant: list[int], comment_cut: int | None, dayfirst: bool | None = None) -> str | None:
    """The date of a byline that closes the article: the first shown text node after the relevant
    content when it is a date ("Posted on April 13, 2023", "Published On: 15 August 2025"). The
    evaluated subset (§3.4.1) ends with the relevant content, so the date model never sees it;
    a comment section's first node is a comment's date, not the story's."""
    if not relevant:
        return None
    tns = page.text_nodes
    for k in range(relevant[-1] + 1, len(tns)):
        if not getattr(page.style(tns[k].container), "visible", True):
            continue
        if (comment_cut is not None and k >= comment_cut) or len(tns[k].text) > MAX_DATE_LEN:
            return None
        return parse_date(tns[k].text, dayfirst=dayfirst)
    return None


def labelled_date(page: Page, dayfirst: bool | None = None) -> str | None:
    """The date in the shown text node right after a node that is only a "Published" label
    (:func:`newscrawl.extract.dates.is_publish_label`), the first such pair on the page: the
    page's own statement of its date, wherever the layout puts it."""
    tns = page.text_nodes
    for k in range(len(tns) - 1):
        if (
            is_publish_label(tns[k].text)
            and getattr(page.style(tns[k + 1].container), "visible", True)
            and len(tns[k + 1].text) <= MAX_DATE_LEN
        ):
            found = parse_date(tns[k + 1].text, dayfirst=dayfirst)
            if found:
                return found
    return None


def shown_days(page: Page, dayfirst: bool | None = None) -> dict[str, bool]:
    """The days the page's shown short text nodes read as, each with whether every node showing it
    says it is an update (the node itself or the end of the one before: "Updated:" "Dec 4, 2025")."""
    days: dict[str, bool] = {}
    tns = page.text_nodes
    for k, node in enumerate(tns):
        text = node.text
        if len(text) > MAX_DATE_LEN:
            continue
        found = parse_date(text, dayfirst=dayfirst)  # a quick test turns away text with no year first
        if not found or not getattr(page.style(node.container), "visible", True):
            continue
        label = (tns[k - 1].text[-UPDATE_LABEL_CHARS:] + " " if k else "") + text
        days[found[:10]] = days.get(found[:10], True) and names_update(label)
    return days


def _own_address(url: str | None) -> str | None:
    """A URL as the page's own links write it: no scheme, ``www.`` or trailing slash; None for a
    link to an anchor (``#comment-12``: a comment's permalink, not the page's)."""
    if not url or "#" in url:
        return None
    rest = url.split("://", 1)[-1]
    return rest.removeprefix("www.").rstrip("/.") or None


_JOIN_DROPS = str.maketrans("", "", "\t\r\n")  # what urlsplit removes from a URL before reading it


def _may_resolve_to(href: str, own: set[str]) -> bool:
    """Whether ``href`` can join to one of the ``own`` addresses: the joined URL ends with the
    href's last segment, so only hrefs whose segment ends an own address are joined (urljoin on
    every link of a page cost a trafilatura-eval page 0.2 ms). A segment of dots (``..``) does not
    survive joining, so such hrefs are always joined."""
    rest, _, fragment = href.translate(_JOIN_DROPS).partition("#")
    if fragment:
        return False  # an anchor (``#comments``), never the page's own address; a bare ``#`` is dropped
    tail = rest.rstrip("/?").rsplit("/", 1)[-1].rsplit(":", 1)[-1].removeprefix("www.")
    return tail.endswith(".") or any(address.endswith(tail) for address in own)


def listed_date(
    page: Page, own_urls: Sequence[str | None], comment_cut: int | None = None, dayfirst: bool | None = None
) -> str | None:
    """The date a listing on the page gives the page itself: a "latest news" rail or archive list
    that includes this article shows its date beside the link to it. The entry is the nearest
    block around a link to the page's URL or canonical URL (a permalink, not a ``#`` anchor, which
    is a comment's) holding at most LISTED_ENTRY_CHARS, within LISTED_ENTRY_LEVELS of the link; its
    date is the first of its short text nodes that reads as one. For pages that show no date of
    their own, and never from the comment section."""
    own = {a for a in (_own_address(u.split("#", 1)[0]) for u in own_urls if u) if a}
    if not own:
        return None
    tns = page.text_nodes
    for link in page.with_tags("a"):
        href = link.get("href")
        if not href or not _may_resolve_to(href := href.strip(), own):
            continue
        if _own_address(join_url(page.url, href)) not in own or page.is_hidden(link):
            continue
        entry = link
        for _ in range(LISTED_ENTRY_LEVELS):
            entry = entry.getparent()
            if entry is None or not page.has(entry) or page.text_len(entry) > LISTED_ENTRY_CHARS:
                break
            span = page.text_range(entry)
            if comment_cut is not None and span.stop > comment_cut:
                break
            for k in span:
                if len(tns[k].text) <= MAX_DATE_LEN:
                    found = parse_date(tns[k].text, dayfirst=dayfirst)
                    if found:
                        return found
    return None


def dateline(
    page: Page,
    title_node: int | None,
    comment_cut: int | None = None,
    dayfirst: bool | None = None,
    story: int | None = None,
) -> str | None:
    """The date of the page's own dateline: the shown text node nearest the headline (DATELINE_AFTER
    nodes after it, DATELINE_BEFORE before it, counted BEFORE_TITLE_PENALTY farther) that is a date
    ("12. März 2019", "Posted on March 12, 2019 by"), or a longer one whose date a "published" word or
    a byline introduces ("Von Hans Müller, veröffentlicht am 12. März 2019, ..."). The date model
    reads only the evaluated subset, and NCE's content often leaves the byline row out of it. When
    the story's first line (``story``) lies past that window (a rail of teasers under the headline),
    the DATELINE_AROUND_STORY nodes on either side of it are read too. Never a copyright line, the
    headline itself, or a node of the comment section."""
    if title_node is None:
        return None
    tns = page.text_nodes
    after = range(title_node + 1, min(len(tns), title_node + 1 + DATELINE_AFTER))
    before = range(title_node - 1, max(-1, title_node - 1 - DATELINE_BEFORE), -1)
    order = sorted(
        [(k - title_node, 0, k) for k in after] + [(title_node - k + BEFORE_TITLE_PENALTY, 1, k) for k in before]
    )
    ks = [k for _, _, k in order]  # on a tie, the node after the headline
    if story is not None and story > title_node + 1 + DATELINE_AFTER:
        # a rail between the headline and the story: the byline row at the story's first lines too
        low = max(title_node + 1 + DATELINE_AFTER, story - DATELINE_AROUND_STORY)
        ks += sorted(range(low, min(len(tns), story + DATELINE_AROUND_STORY + 1)), key=lambda k: abs(k - story))
    for k in ks:
        text = tns[k].text
        if comment_cut is not None and k >= comment_cut:
            continue
        if not getattr(page.style(tns[k].container), "visible", True) or is_copyright(text):
            continue
        found = parse_date(text, dayfirst=dayfirst) if len(text) <= MAX_DATE_LEN else cued_date(text, dayfirst=dayfirst)
        if found:
            return found
    return None


def _nearest_cluster(found: list[int], title_node: int | None) -> list[int]:
    if not found:
        return []
    if title_node is None:  # §3.4.3: no clustering without a detected title
        return found
    clusters: list[list[int]] = [[found[0]]]
    for k in found[1:]:
        if k - clusters[-1][-1] <= CLUSTER_GAP:
            clusters[-1].append(k)
        else:
            clusters.append([k])

    def distance(k: int) -> int:
        return k - title_node if k >= title_node else title_node - k + BEFORE_TITLE_PENALTY

    return min(clusters, key=lambda c: (min(distance(k) for k in c), c[0]))


def _read_date(page: Page, cluster: list[int], dayfirst: bool | None = None) -> tuple[str | None, str | None]:
    """The ISO date of a date cluster: its joined text first (dates split over nodes), then each node."""
    if not cluster:
        return None, None
    joined = collapse(" ".join(page.text_nodes[k].text for k in range(cluster[0], cluster[-1] + 1)))
    for text in [joined] + [page.text_nodes[k].text for k in cluster]:
        value = parse_date(text, dayfirst=dayfirst)
        if value:
            return text, value
    return joined, None


def dayfirst_for(language: str | None) -> bool | None:
    """Slash dates are day-first on pages declared in a language other than English ("03/05/2022"
    is 3 May in es, pt, fr, de, it, ...); English or undeclared pages keep the parser's month-first
    reading (US) unless it is impossible. Dots and dashes are day-first either way."""
    if not language:
        return None
    primary = language.strip().lower().replace("_", "-").split("-", 1)[0]
    return None if primary in ("", "en") else True


def local_published(declared: str, visible: str | None, url_day: str | None = None) -> str:
    """The declared (metadata) publication time, or the local day of that instant when the page
    shows it: the visible date-time when it is the same instant on another day (the same minute a
    whole number of hours, at most MAX_ZONE_HOURS, away), the visible day when the declared time has
    no zone and falls on that day in some UTC offset, else the URL's day when the instant falls
    on it in some UTC offset. Metadata timestamps are often UTC while the page and its URL carry the
    newsroom's local day, the story's date (docs/decisions.md, "Titles and dates, round 7")."""
    if "T" not in declared:
        return declared
    if visible and visible.endswith("T00:00:00"):
        visible = visible[:10]  # a shown midnight ("4 May 2022, 12:00 AM") is a day without a time
    try:
        moment = datetime.fromisoformat(declared)
    except ValueError:
        return declared
    if visible and "T" in visible and declared[:10] != visible[:10]:
        try:
            gap = datetime.fromisoformat(visible[:16]) - datetime.fromisoformat(declared[:16])
        except ValueError:
            gap = None
        if gap is not None and gap.total_seconds() % 3600 == 0 and abs(gap.total_seconds()) <= 3600 * MAX_ZONE_HOURS:
            offset = moment.utcoffset()
            if offset is not None and -MIN_ZONE_HOURS * 3600 <= (offset + gap).total_seconds() <= MAX_ZONE_HOURS * 3600:
                # the declared instant in the page's own offset: the local day, seconds and zone kept
                return moment.astimezone(timezone(offset + gap)).isoformat(timespec="seconds")
            return visible
    if (
        visible
        and "T" not in visible
        and moment.tzinfo is None
        and visible != declared[:10]
        and _reachable(moment, visible)
    ):
        # an instant without a zone: the page's own day for it, where some UTC offset gives that day
        return visible
    if url_day and url_day != declared[:10]:
        if _reachable(moment, url_day):
            return url_day
    return declared


def _reachable(moment: datetime, day: str) -> bool:
    """Whether the instant ``moment`` (naive: read as UTC) falls on ``day`` in some UTC offset."""
    utc = moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment
    return (
        (utc - timedelta(hours=MIN_ZONE_HOURS)).date().isoformat()
        <= day
        <= (utc + timedelta(hours=MAX_ZONE_HOURS)).date().isoformat()
    )
