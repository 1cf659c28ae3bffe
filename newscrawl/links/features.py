"""Link-target features: what a URL alone says about whether it points to a news article.

Seed 002 (link-target identification) names five features: the URL contains a number/id, contains
a date, ends with a slash, contains a reserved word (gallery, video, tag, ``page/N``, ...) and its
length. We add one: the number of words in the last path segment (the "slug"), since modern sites
put the headline there (``/a-critical-call-for-rural-clinics/``) and no date or id. Of the other
candidates we measured (path depth, slug length, digit share, query, file extension), none raised
the cross-validated F1 (docs/decisions.md). Everything is a pure function of the URL string, with
precompiled regexes, because the spider scores every link it sees.

Normalisation before measuring: the path is percent-decoded and lower-cased, and a final
``index.html`` / ``default.aspx`` style segment is dropped (``/a/index.html`` is the page ``/a/``,
as the crawler's canonicalisation treats it).
"""

from __future__ import annotations

import operator
import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from itertools import accumulate, compress
from typing import Any
from urllib.parse import unquote, urlsplit

# Words whose presence as a whole path segment, host label or query key marks a page that is
# usually not a single news article: media hubs, listings (tags, sections, authors, archives,
# pagination), feeds, search, accounts and the site's static/legal pages. A slug such as
# ``watch-the-video-of-the-storm`` does not match: only whole segments (extension stripped) do.
RESERVED_WORDS: tuple[str, ...] = (
    # media hubs
    "gallery",
    "galleries",
    "video",
    "videos",
    "photo",
    "photos",
    "images",
    "live",
    "podcast",
    "podcasts",
    "audio",
    "multimedia",
    # listings and navigation
    "tag",
    "tags",
    "category",
    "categories",
    "author",
    "authors",
    "topic",
    "topics",
    "section",
    "sections",
    "archive",
    "archives",
    "page",
    "search",
    "sitemap",
    "latest",
    "events",
    "calendar",
    "user",
    "users",
    "profile",
    "staff",
    # feeds
    "feed",
    "feeds",
    "rss",
    "atom",
    # accounts and subscriptions
    "login",
    "signin",
    "sign-in",
    "logout",
    "register",
    "account",
    "subscribe",
    "subscription",
    "subscriptions",
    "newsletter",
    "newsletters",
    "donate",
    "membership",
    "shop",
    "store",
    # static and legal pages
    "contact",
    "contact-us",
    "about",
    "about-us",
    "privacy",
    "privacy-policy",
    "terms",
    "terms-of-service",
    "terms-of-use",
    "cookies",
    "cookie-policy",
    "careers",
    "jobs",
    "advertise",
    "help",
    "faq",
    "imprint",
    "impressum",
)

_DEFAULT_RESERVED = frozenset(RESERVED_WORDS)

FEATURE_NAMES: tuple[str, ...] = (
    # the five features of seed 002
    "has_number",
    "has_date",
    "ends_with_slash",
    "has_reserved_word",
    "url_length",
    # the one extra that cross-validation kept: word count of the last path segment
    "slug_tokens",
)

_MONTHS = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]{0,6}"
_SEP = r"[/_.\-]"
# A year or a day not preceded by a digit: the test follows the first digit(s), so each pattern
# starts with a literal or a digit class and the regex engine skips to candidate positions (a
# leading lookbehind made it try every position: 11.4 -> 7.5 us a URL with a year)
_YEAR = r"(?:19(?<!\d19)|20(?<!\d20))\d\d"
_DAY = r"(?:0(?<!\d0)[1-9]|[1-9](?<!\d[1-9])|[12](?<!\d[12])\d|3(?<!\d3)[01])"  # (?<!\d)(?:0?[1-9]|[12]\d|3[01])
_DAY2 = r"(?:0(?<!\d0)[1-9]|[12](?<!\d[12])\d|3(?<!\d3)[01])"  # (?<!\d)(?:0[1-9]|[12]\d|3[01])
_DATE_RES = (
    # 2019/04/15, 2019-04-15, 2019_04_15, 2019/04 (year and month)
    re.compile(rf"{_YEAR}{_SEP}(?:0?[1-9]|1[0-2])(?:{_SEP}(?:0?[1-9]|[12]\d|3[01]))?(?!\d)"),
    # 20190415
    re.compile(rf"{_YEAR}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?!\d)"),
    # 15-04-2019, 15.04.2019
    re.compile(rf"{_DAY}{_SEP}(?:0?[1-9]|1[0-2]){_SEP}(?:19|20)\d\d(?!\d)"),
    # 15042019
    re.compile(rf"{_DAY2}(?:0[1-9]|1[0-2])(?:19|20)\d\d(?!\d)"),
    # 2019/april/15, 2019-apr
    re.compile(rf"{_YEAR}{_SEP}{_MONTHS}(?:{_SEP}(?:0?[1-9]|[12]\d|3[01]))?(?![a-z\d])"),
    # april-15-2019, 15-april-2019
    re.compile(rf"(?<![a-z]){_MONTHS}{_SEP}(?:0?[1-9]|[12]\d|3[01]){_SEP}(?:19|20)\d\d(?!\d)"),
    re.compile(rf"{_DAY}{_SEP}{_MONTHS}{_SEP}(?:19|20)\d\d(?!\d)"),
)
_DIGIT_RUN_RE = re.compile(r"\d{3,}")
# a short numeric id in the query (``?id=42``, ``?p=7``): longer ids are caught by _DIGIT_RUN_RE
_ID_PARAM_RE = re.compile(r"(?:^|&)(?:[a-z_]*id|p|story|article|post)=\d+(?:&|$)")
_PAGE_PATH_RE = re.compile(r"/(?:page|seite|pagina|strona)/\d+(?:/|$)")
_PAGE_QUERY_RE = re.compile(r"(?:^|&)(?:page|paged|pg|pagenum|start|offset)=\d+")
_QUERY_KEY_RE = re.compile(r"(?:^|&)([^=&]+)")
_SEARCH_KEYS = frozenset(("s", "q", "query", "search", "tag", "tags", "cat", "category", "author"))
_TOKEN_RE = re.compile(r"[^\W_]+")
_INDEX_RE = re.compile(r"^(?:index|default|home)\.[a-z0-9]{2,5}$")
_EXT_RE = re.compile(r"\.([a-z][a-z0-9]{1,4})$")


# every pattern in _DATE_RES contains a four-digit year: without one, none can match
_YEAR_RE = re.compile(r"(?:19|20)\d\d")


def _date_spans(text: str) -> list[tuple[int, int]]:
    if _YEAR_RE.search(text) is None:
        return []
    spans: list[tuple[int, int]] = []
    for regex in _DATE_RES:
        spans += [m.span() for m in regex.finditer(text)]
    return spans


def _blank(text: str, spans: Iterable[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


# An http(s) URL of printable ASCII without brackets in its host: urlsplit's parts by one match
# (scheme, host, path up to ? or #, query up to #), as urlsplit reads them
_PLAIN_HTTP = re.compile(r"https?://([^/?#\[\]]+)(/[^?#]*)?(?:\?([^#]*))?(?:#.*)?", re.S)


def _http_parts(raw: str) -> tuple[str, str, str, bool]:
    """(hostname, path, query, is http(s) with a host) as urlsplit and its ``hostname`` give
    them; parsing was a third of the cost of a link's features, so plain URLs skip urlsplit."""
    match = _PLAIN_HTTP.fullmatch(raw) if raw.isascii() and raw.isprintable() else None
    if match is not None:
        netloc, path, query = match.group(1, 2, 3)
        name, percent, zone = netloc.rpartition("@")[2].partition(":")[0].partition("%")
        return name.lower() + percent + zone, path or "", query or "", True
    try:
        parts = urlsplit(raw)
    except ValueError:
        parts = urlsplit("")
    if parts.scheme.lower() in ("http", "https") and parts.netloc:
        return parts.hostname or "", parts.path, parts.query, True
    return "", "", "", False


def link_features(url: str, reserved_words: Iterable[str] = RESERVED_WORDS) -> dict[str, float]:
    """The link-target features of ``url``, by name (see :data:`FEATURE_NAMES`)."""
    has_number, has_date, ends_with_slash, has_reserved, length, last = _measure(url, reserved_words)
    slug = _EXT_RE.sub("", last) if "." in last else last
    return {
        "has_number": float(has_number),
        "has_date": float(has_date),
        "ends_with_slash": float(ends_with_slash),
        "has_reserved_word": float(has_reserved),
        "url_length": float(length),
        "slug_tokens": float(len(_TOKEN_RE.findall(slug))),
    }


def link_flags(url: str) -> tuple[bool, bool, bool, bool, int]:
    """(has_number, has_date, ends_with_slash, has_reserved_word, url_length) of :func:`link_features`
    with the default reserved words: what the page classifier counts over a page's ~100 links,
    without the slug's tokens and the dict."""
    return _measure(url, RESERVED_WORDS)[:5]


# A URL link_flags_many measures together with the page's others: http(s), printable ASCII without
# spaces, no brackets in the host, no query and no "%" (so no unquoting), the groups _PLAIN_HTTP gives
_BATCH_URL = re.compile(
    r"https?://([^\x00-\x20\x7f-\U0010ffff/?#\[\]%]+)(/[^\x00-\x20\x7f-\U0010ffff?#%]*)?"
    r"(?:#[^\x00-\x20\x7f-\U0010ffff]*)?"
)


# over the lower-cased paths joined by NUL (none holds one): a whole segment that is a reserved word,
# with or without one extension (what the stems of _measure are), "page/N", a final index file
def _trie_pattern(words: Iterable[str]) -> str:
    """A regex for exactly ``words``, shaped as their trie (one alternative per next character): a plain
    alternation of the ~80 reserved words was tried word by word at every "/" of every path."""
    trie: dict[str, Any] = {}
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}  # a word ends here

    def pattern(node: dict[str, Any]) -> str:  # recursion as deep as the longest word
        branches = [re.escape(ch) + pattern(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return pattern(trie)


_RESERVED_SEGMENT = re.compile("/" + _trie_pattern(RESERVED_WORDS) + r"(?:\.[a-z][a-z0-9]{1,4})?(?=/|\x00|\Z)")
_PAGE_PATH_BATCH = re.compile(r"/(?:page|seite|pagina|strona)/\d+(?=/|\x00|\Z)")
_INDEX_LAST = re.compile(r"/(?:index|default|home)\.[a-z0-9]{2,5}/*(?=\x00|\Z)")


def link_flags_many(urls: Sequence[str]) -> list[tuple[bool, bool, bool, bool, int]]:
    """:func:`link_flags` of each URL: the page classifier's ~100 distinct links a page. The plain ones
    (:data:`_BATCH_URL`, most links) are measured together: their lower-cased paths joined by NUL, each
    regex run once over the whole and a match credited to the path it starts in, the date patterns
    (and the digit runs beside a date) only on the paths holding a year, the per-URL steps by ``map``
    (a Python step per URL cost as much as the regexes). The others go through :func:`link_flags`."""
    matches = list(map(_BATCH_URL.fullmatch, urls))
    plain = list(filter(None, matches))
    if not plain:
        return list(map(link_flags, urls))
    paths = [path or "" for path in map(_GROUP_PATH, plain)]
    netlocs = list(map(_GROUP_NETLOC, plain))
    hosts = {
        netloc: not _DEFAULT_RESERVED.isdisjoint(netloc.rpartition("@")[2].partition(":")[0].lower().split(".")[:-2])
        for netloc in set(netlocs)
    }  # a host label is reserved (video.example.com)
    joined = "\x00".join(paths).lower()
    # path j: joined[starts[j]:starts[j + 1] - 1]
    starts = list(accumulate(map((1).__add__, map(len, paths)), initial=0))

    def lines(regex: re.Pattern[str]) -> set[int]:
        return {bisect_right(starts, m.start()) - 1 for m in regex.finditer(joined)}

    reserved = (
        lines(_RESERVED_SEGMENT)
        | lines(_PAGE_PATH_BATCH)
        | set(compress(range(len(paths)), map(hosts.__getitem__, netlocs)))
    )
    numbered = lines(_DIGIT_RUN_RE)
    dated: set[int] = set()
    for j in lines(_YEAR_RE):  # a date is possible: the patterns, and digit runs outside the dates
        text = joined[starts[j] : starts[j + 1] - 1]
        spans = _date_spans(text)
        if spans:
            dated.add(j)
            numbered.discard(j)
            if _DIGIT_RUN_RE.search(_blank(text, spans)) is not None:
                numbered.add(j)
    positions = range(len(paths))
    slash = list(map(_SLASH_ENDS.__contains__, map(_LAST_CHAR, paths)))  # ends with "/" or no segment
    lengths = list(map(len, map(_GROUP_ALL, plain)))
    for m in _INDEX_LAST.finditer(joined):  # a final index file: the page of its folder, not counted
        j = bisect_right(starts, m.start()) - 1
        slash[j] = True
        lengths[j] -= len(m.group().strip("/"))
    flags = iter(
        zip(
            map(numbered.__contains__, positions),
            map(dated.__contains__, positions),
            slash,
            map(reserved.__contains__, positions),
            lengths,
        )
    )
    return [next(flags) if m is not None else link_flags(url) for m, url in zip(matches, urls)]


_GROUP_ALL, _GROUP_NETLOC, _GROUP_PATH = (operator.methodcaller("group", g) for g in (0, 1, 2))
_LAST_CHAR = operator.itemgetter(slice(-1, None))
_SLASH_ENDS = frozenset(("", "/"))


def _measure(url: str, reserved_words: Iterable[str]) -> tuple[bool, bool, bool, bool, int, str]:
    """The five flags and length of :func:`link_features`, and the last path segment (the slug's source)."""
    raw = url.strip()
    host, path, query, is_http = _http_parts(raw)
    # unquote returns a text without "%" as it is; most paths and queries have none
    path = (unquote(path) if "%" in path else path).lower()
    query = (unquote(query) if "%" in query else query).lower()

    segments = list(filter(None, path.split("/")))
    ends_with_slash = is_http and (path.endswith("/") or not segments)
    length = len(raw)
    if segments and "." in segments[-1] and _INDEX_RE.match(segments[-1]):
        length -= len(segments.pop())
        ends_with_slash = True

    reserved = _DEFAULT_RESERVED if reserved_words is RESERVED_WORDS else frozenset(reserved_words)
    # the spider and the page classifier call this for every link: regexes only where they can
    # match (an extension needs a ".", the query tests a query)
    stems = {_EXT_RE.sub("", s) if "." in s else s for s in segments} if "." in path else set(segments)
    query_keys = set(_QUERY_KEY_RE.findall(query)) if query else set()
    has_reserved = (
        not reserved.isdisjoint(stems)
        or not reserved.isdisjoint(host.split(".")[:-2])  # video.example.com
        or (
            bool(query)
            and (
                not reserved.isdisjoint(query_keys)
                or not _SEARCH_KEYS.isdisjoint(query_keys)
                or _PAGE_QUERY_RE.search(query) is not None
            )
        )
        or _PAGE_PATH_RE.search(path) is not None
    )

    text = f"{path}?{query}" if query else path
    spans = _date_spans(text)
    undated = _blank(text, spans) if spans else text
    has_number = _DIGIT_RUN_RE.search(undated) is not None or (bool(query) and _ID_PARAM_RE.search(query) is not None)
    return has_number, bool(spans), bool(ends_with_slash), has_reserved, length, segments[-1] if segments else ""


def feature_vector(url: str, reserved_words: Iterable[str] = RESERVED_WORDS) -> list[float]:
    """:func:`link_features` as a list in :data:`FEATURE_NAMES` order (the model's input)."""
    values = link_features(url, reserved_words)
    return [values[name] for name in FEATURE_NAMES]
