"""Structured metadata a page declares about itself: JSON-LD, OpenGraph, ``<meta>``, microdata, ``<time>``.

Publishers fill these for search engines and social cards, so where present they are usually
more reliable than anything read off the layout (peers.md §2: most user complaints about dates are
about ignoring ``dc.date`` and friends, or taking the URL's date first). The extractor uses them
first or as features and records the source of each field in ``Metadata.sources``.

Source priority per field (first that yields a valid value wins):
- title: JSON-LD article headline > ``og:title`` > ``twitter:title``/``parsely``/``dc.title`` >
  microdata ``headline``, without a leading/trailing site name when the page declares one
  (``og:site_name``, JSON-LD publisher). (``<title>`` is left to the extractor.)
- published: JSON-LD article ``datePublished`` > ``article:published_time`` & co. > named ``<meta>``
  dates > microdata ``datePublished`` > JSON-LD ``datePublished`` of a non-article node (WebPage)
  > ``<time datetime>`` (weak: may be any date on the page, so it is marked ``"time"``).
- modified: the same chain for ``dateModified`` / ``article:modified_time``.
Dates are validated by :func:`newscrawl.extract.dates.parse_machine_date` (1990..today+1).
"""

from __future__ import annotations

import html
import json
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlsplit
from weakref import WeakKeyDictionary

from lxml import etree

from newscrawl.extract.dates import parse_machine_date
from newscrawl.extract.language import normalized_tag
from newscrawl.page import Page, fold
from newscrawl.safeurl import join_url

__all__ = ["Metadata", "read_metadata", "headline_segment", "strip_site_name", "strip_site_suffix", "ARTICLE_TYPES"]

ARTICLE_TYPES = frozenset(
    {
        "Article",
        "NewsArticle",
        "AnalysisNewsArticle",
        "AskPublicNewsArticle",
        "BackgroundNewsArticle",
        "OpinionNewsArticle",
        "ReportageNewsArticle",
        "ReviewNewsArticle",
        "SatiricalArticle",
        "BlogPosting",
        "LiveBlogPosting",
        "SocialMediaPosting",
        "DiscussionForumPosting",
        "TechArticle",
        "ScholarlyArticle",
        "Report",
        "AdvertiserContentArticle",
        "MedicalScholarlyArticle",
        "Review",
    }
)
_JSONLD_MAX_NODES = 20_000  # bound the walk over a hostile or huge JSON-LD block

_PUBLISHED_META = (
    "article:published_time",
    "og:published_time",
    "og:article:published_time",
    "article:published",
    "published_time",
    "date",
    "pubdate",
    "publishdate",
    "publish-date",
    "publish_date",
    "publication_date",
    "datepublished",
    "dc.date",
    "dc.date.issued",
    "dc.date.created",
    "dcterms.date",
    "dcterms.issued",
    "dcterms.created",
    "dc:date",
    "dcterms:date",
    "dcterms:issued",
    "dcterms:created",
    "sailthru.date",
    "parsely-pub-date",
    "article.published",
    "article_date_original",
    "originalpublicationdate",
    "original-publish-date",
    "cxenseparse:recs:publishtime",
    "citation_publication_date",
    "citation_date",
    "date.release",
    "release_date",
    "pub_date",
    "displaydate",
    "dc.date.published",
    "created",
)
_MODIFIED_META = (
    "article:modified_time",
    "og:updated_time",
    "article:modified",
    "modified_time",
    "datemodified",
    "dc.date.modified",
    "dcterms.modified",
    "dcterms:modified",
    "last-modified",
    "lastmod",
    "revised",
    "dc.date.updated",
    "article.updated",
    "parsely-updated",
)
# Any other <meta> name that says "published" (alone or with date/time/at/on), after the list above.
_PUBLISHED_NAME = re.compile(r"(?:^|[^a-z])(?:publish(?:ed)?|publication)(?:[_.-]?(?:date|time|at|on))?$")
_NAMESPACED_DATE = re.compile(r"[a-z0-9]{2,12}[.:]date$")
_NOT_FIRST = re.compile(r"last|modif|updat|revis|expir|next")  # "cdc:last_published" is a modification
_TITLE_META = (
    "og:title",
    "twitter:title",
    "parsely-title",
    "sailthru.title",
    "dc.title",
    "dcterms.title",
    "dc:title",
    "dcterms:title",
    "headline",
    "title",
)
_AUTHOR_META = (
    "author",
    "article:author",
    "parsely-author",
    "sailthru.author",
    "dc.creator",
    "dcterms.creator",
    "dc:creator",
    "dcterms:creator",
    "byl",
    "citation_author",
    "twitter:creator",
)
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"  # the attribute as an XML parser names it
_LANG_META = ("og:locale", "content-language", "dc.language", "dcterms.language", "language", "lang")
_SITE_META = ("og:site_name", "application-name", "twitter:site", "publisher", "dc.publisher")

_SEPARATORS = (" | ", " - ", " – ", " — ", " · ", " • ", " :: ", ": ", " / ", " » ")
# A trailing site name in another spelling than the declared one ("... - Slashdot" with
# twitter:site "@slashdot", "... | Ruggable US", "... | WRAL" on wral.com): the last segment after a
# separator, at most SITE_SEGMENT_WORDS words, starting with (or being the start of) a site key of
# at least _MIN_SITE_KEY characters. Measured in docs/decisions.md ("Titles and dates, round 7").
_SITE_SEP = re.compile(r"\s+[|\u2013\u2014\-\u00b7\u2022\u00bb/:]+\s+|\s*[|\u00bb\u2022\u00b7]\s*")
SEP_CHARS = " \t\n|\u2013\u2014-\u00b7\u2022\u00bb/:"
# what parts a declared title: the site separators, and ": " ("Jimmy: The Ultimate Device Opener")
_SEGMENT_SEP = re.compile(_SITE_SEP.pattern + r"|:\s+")
MAX_HEADLINE_CHARS = 300  # an <h1> longer than this is no headline to compare
_NON_WORD = re.compile(r"[\W_]+")
_DOMAIN_LIKE = re.compile(r"[\w.-]+\.[a-z]{2,}", re.IGNORECASE)
_MIN_SITE_KEY = 3
SITE_SEGMENT_WORDS = 4
_BY_PREFIX = re.compile(r"^\s*(?:by|von|par|por|di|door|autor|author)\s*:?\s+", re.IGNORECASE)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_MICRODATA = etree.XPath("//@itemprop|//@itemtype")
# Microdata date properties looked at, each with a climb to its item: a page's own and its replies'
# dates are among the first; a page of thousands (a hostile one) is not climbed for each
MAX_MICRODATA_DATES = 256
# Microdata items that are replies to the page's item: their dates are not the page's
_REPLY_TYPES = frozenset({"Comment", "Answer", "Review", "UserComments"})


_RDFA_PROPERTY = etree.XPath("//@property")
# RDFa date properties of the page's node (Drupal prints "dc:date dc:created" on a <span content=...>)
_RDFA_DATE = re.compile(r"(?:^|\s)(?:dc|dcterms):(?:date|created|issued)(?:\s|$)")
_RDFA_REPLY = re.compile(r"comment|answer|review", re.IGNORECASE)


def _rdfa_date(root: Any) -> str | None:
    """The first RDFa date of the page outside ``<meta>`` (read with the named metas) and outside
    a comment's resource (``typeof="sioct:Comment"``): the node's own, printed before its comments."""
    for attribute in _RDFA_PROPERTY(root)[:MAX_MICRODATA_DATES]:
        element = attribute.getparent()
        content = element.get("content")
        if not content or _tag_name(element) == "meta" or not _RDFA_DATE.search(str(attribute)):
            continue
        if any(_RDFA_REPLY.search(a.get("typeof") or "") for a in element.iterancestors()):
            continue
        return content.strip()
    return None


def _item_type(element: Any) -> str | None:
    """Type name ("Comment", "NewsArticle") of the microdata item a property element belongs to:
    its nearest ancestor with ``itemscope`` (None when there is none or it names no type)."""
    for ancestor in element.iterancestors():
        if ancestor.get("itemscope") is not None:
            types = (ancestor.get("itemtype") or "").split()
            return types[0].rstrip("/").rsplit("/", 1)[-1] if types else None
    return None


@dataclass(frozen=True)
class Metadata:
    """Declared metadata of one page; every field None/empty when the page does not say."""

    title: str | None = None
    published: str | None = None
    published_text: str | None = None  # the text ``published`` was read from
    # publication dates of other days that later sources declare (JSON-LD says one day, OpenGraph
    # another): the extraction takes the one the page's own dateline agrees with
    published_others: tuple[str, ...] = ()
    modified: str | None = None
    authors: list[str] = field(default_factory=list)
    language: str | None = None
    site_name: str | None = None
    og_type: str | None = None
    description: str | None = None
    schema_types: frozenset[str] = frozenset()
    article_body_element: Any = None  # the itemprop=articleBody lxml element, if any
    # the itemprop=recipeIngredient (or "ingredients") elements: a recipe's list, part of its text
    recipe_ingredients: tuple[Any, ...] = ()
    article_body_text: str | None = None  # JSON-LD articleBody, one paragraph per line, if any
    # what the page declares of its authors (the JSON-LD description of an ``author`` or ``creator``):
    # the author box that shows one is no part of the article's text
    author_bios: tuple[str, ...] = ()
    canonical_url: str | None = None
    sources: dict[str, str] = field(default_factory=dict)


def _first_string(value: Any) -> str | None:
    """A metadata value as a string: itself, or the first non-blank string of a list."""
    if isinstance(value, list):
        value = next((v for v in value if isinstance(v, str) and v.strip()), None)
    return value if isinstance(value, str) else None


def _clean(value: Any) -> str | None:
    """Collapsed text of a metadata value; entities decoded (CMSs often escape JSON-LD strings twice)."""
    value = _first_string(value)
    if value is None:
        return None
    if "&" in value:
        value = html.unescape(value)
    value = " ".join(value.split())  # re.sub(r"\s+", " ", value).strip(): the same blanks, ~4x faster
    return value or None


# block-level tags some CMSs leave in a JSON-LD articleBody: each ends a paragraph
_BLOCK_TAG = re.compile(
    r"<(?:/?(?:p|div|h[1-6]|li|ul|ol|blockquote|figure|figcaption|section|pre|tr|table)\b[^<>]*"
    r"|br\s*/?)>",
    re.I,
)
_TAG = re.compile(r"<[^<>]*>")


def _clean_paragraphs(value: Any) -> str | None:
    """A declared text block (JSON-LD ``articleBody``) as one paragraph per line, like a body:
    entities decoded, the markup some CMSs leave in it dropped (block tags end a paragraph),
    blanks collapsed within each line."""
    value = _first_string(value)
    if value is None:
        return None
    if "<" in value:
        value = _TAG.sub("", _BLOCK_TAG.sub("\n", value))
    if "&" in value:
        value = html.unescape(value)
    lines = (" ".join(line.split()) for line in value.splitlines())
    return "\n".join(line for line in lines if line) or None


def strip_site_name(title: str | None, site_name: str | None) -> str | None:
    """``title`` without a leading or trailing ``site_name`` joined by a separator (|, -, –, —, ·, :)."""
    if not title or not site_name:
        return title
    low, site = title.casefold(), site_name.casefold()
    for sep in _SEPARATORS:
        if low.endswith(sep + site) and len(title) > len(sep) + len(site):
            return title[: len(title) - len(sep) - len(site)].strip() or title
        if low.startswith(site + sep) and len(title) > len(sep) + len(site):
            return title[len(site) + len(sep) :].strip() or title
    return title


def strip_site_suffix(title: str, site_name: str | None, url: str | None) -> str:
    """``title`` without its last segment after a separator when that segment names the site in
    any spelling (:func:`names_site`) or one of the URL's section folders (:func:`section_keys`:
    "| Opinion" on /opinion/...), twice at most ("Story | Section | Site"), for the title the
    extractor outputs, whatever its source. ``Metadata.title`` keeps only the declared name
    stripped: it is also the title model's meta_title_edit feature, which the shipped model learnt
    on that form."""
    keys: Any = None
    sections: Any = None
    for _ in range(2):
        last: re.Match[str] | None = None
        for last in _SITE_SEP.finditer(title):  # noqa: B007  (the loop keeps the last match)
            pass
        if last is None or last.start() == 0:
            break
        if keys is None:
            keys, sections = site_keys(site_name, url), section_keys(url)
        tail = title[last.end() :]
        if not (names_site(tail, keys) or _key(tail) in sections):
            break
        head = title[: last.start()].rstrip(SEP_CHARS)  # "site.de // » Name": no "//" left
        if not head:
            break
        title = head
    return title


def headline_segment(title: str, headlines: Iterable[str]) -> str | None:
    """The one segment of a declared ``title`` ("Ridge Wallet - Royal Black", "Jimmy: The Ultimate
    Device Opener") that is, whole, the text of one of the page's ``headlines`` (its ``<h1>``s);
    None when no segment or more than one is (docs/decisions.md, "Titles: the segment of a declared
    title that the page's <h1> shows")."""
    segments = [part for part in _SEGMENT_SEP.split(title) if part.strip()]
    if len(segments) < 2:
        return None
    shown = {fold(h) for h in headlines if h and len(h) <= MAX_HEADLINE_CHARS}
    found = [part.strip() for part in segments if fold(part) in shown]
    return found[0] if len(found) == 1 else None


def section_keys(url: str | None) -> frozenset[str]:
    """The folders of the URL's path before its last segment, in letters and digits only, as
    :func:`site_keys` spells names: the sections a page sits in ("opinion", "patienteducation").
    Folders of digits only (dates, ids) are left out: a title may end in its year."""
    if not url:
        return frozenset()
    try:
        path = urlsplit(url).path
    except ValueError:  # a malformed URL names no sections
        return frozenset()
    folders = [_key(unquote(part)) for part in path.split("/")[:-1] if part]
    if path.endswith("/") and folders:
        folders.pop()  # "/opinion/story-slug/": the slug is the last segment still
    return frozenset(k for k in folders if len(k) >= _MIN_SITE_KEY and not k.isdigit())


def _key(text: str) -> str:
    return _NON_WORD.sub("", unicodedata.normalize("NFKC", text).casefold())


def site_keys(site_name: str | None, url: str | None) -> frozenset[str]:
    """Spellings of the site's name in letters and digits only: the declared name without a
    handle's "@" (twitter:site) or a domain's suffix ("WRAL.com"), and the URL's domain label."""
    keys = set()
    if site_name:
        name = site_name.strip().lstrip("@")
        keys.add(_key(name))
        if _DOMAIN_LIKE.fullmatch(name):
            keys.add(_key(name.rsplit(".", 1)[0]))
    if url:
        from newscrawl.links.urls import registrable_domain

        domain = registrable_domain(url).removeprefix("www.")  # a host without a known suffix keeps www.
        if "." in domain:
            keys.add(_key(domain.split(".", 1)[0]))
    return frozenset(k for k in keys if len(k) >= _MIN_SITE_KEY)


def names_site(segment: str, keys: frozenset[str]) -> bool:
    """A title segment of at most SITE_SEGMENT_WORDS words that is the site's name, begins with it
    in whole words ("Ruggable US", "REI Co-op", "Zoho People"; not "Apple's best yet" on apple.com)
    or is, or begins with a word that is, at least the first half of it ("Death Wish" of "Death Wish
    Coffee", "Rust Blog" of rust-lang.org; not "The" of theverge.com)."""
    words = segment.split()
    key = _key(segment)
    if len(key) < _MIN_SITE_KEY or not keys or len(words) > SITE_SEGMENT_WORDS:
        return False
    first = _key(words[0])
    for start in (key, first):  # the whole segment, or its first word ("Rust Blog" of rust-lang.org)
        if len(start) >= _MIN_SITE_KEY and any(site.startswith(start) and 2 * len(start) >= len(site) for site in keys):
            return True
    return any(_key(" ".join(words[:i])) in keys for i in range(1, len(words)))


def _type_names(node: dict[str, Any]) -> list[str]:
    raw = node.get("@type")
    names = raw if isinstance(raw, list) else [raw]
    return [n.rsplit("/", 1)[-1].rsplit(":", 1)[-1] for n in names if isinstance(n, str)]


def _load_json(text: str) -> Any:
    """json.loads with the repairs real pages need (CDATA/comment wrappers, trailing commas); None if hopeless."""
    text = text.strip()
    for prefix, suffix in (("<![CDATA[", "]]>"), ("<!--", "-->"), ("//<![CDATA[", "//]]>")):
        if text.startswith(prefix) and text.endswith(suffix):
            text = text[len(prefix) : -len(suffix)].strip()
    try:
        return json.loads(text, strict=False)
    except (ValueError, RecursionError):
        pass
    try:
        return json.loads(_TRAILING_COMMA.sub(r"\1", text), strict=False)
    except (ValueError, RecursionError):  # RecursionError: absurdly deep nesting
        return None


def _walk_json(data: Any) -> Iterator[dict[str, Any]]:
    """Every dict in a JSON-LD document (arrays, @graph, nested objects), iteratively and bounded."""
    stack = [data]
    seen = 0
    while stack and seen < _JSONLD_MAX_NODES:
        item = stack.pop()
        seen += 1
        if isinstance(item, dict):
            yield item
            stack.extend(reversed([v for v in item.values() if isinstance(v, (dict, list))]))
        elif isinstance(item, list):
            stack.extend(reversed([v for v in item if isinstance(v, (dict, list))]))


def _person_names(value: Any, by_id: dict[str, dict[str, Any]]) -> list[str]:
    names: list[str] = []
    for item in value if isinstance(value, list) else [value]:
        if isinstance(item, dict):
            if "name" not in item and isinstance(item.get("@id"), str):
                item = by_id.get(item["@id"], item)
            name = _clean(item.get("name"))
        else:
            name = _clean(item)
        if name and not name.startswith(("http://", "https://")):
            names.append(name)
    return names


def _people(value: Any, described: dict[str, dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The nodes of the people an ``author`` or ``creator`` value names: inline, or by the ``@id`` of
    a node with a description (Yoast's reference carries a name too, so it is no definition)."""
    for item in value if isinstance(value, list) else [value]:
        if isinstance(item, dict):
            yield described.get(item["@id"], item) if isinstance(item.get("@id"), str) else item


def _meta_keys(element: Any) -> list[str]:
    """The keys a ``<meta>`` element declares, lower-cased: each name of its RDFa ``property``, a
    space-separated list (``property="og:title twitter:title"`` declares both), else its ``name``,
    ``itemprop`` or ``http-equiv``."""
    names = (element.get("property") or "").lower().split()
    if names:
        return names
    key = (element.get("name") or element.get("itemprop") or element.get("http-equiv") or "").strip().lower()
    return [key] if key else []


def _tag_name(element: Any) -> str:
    tag = element.tag
    return tag.lower() if isinstance(tag, str) else ""


def _root_of(page_or_root: Any) -> Any:
    root = getattr(page_or_root, "root", page_or_root)
    if hasattr(root, "getroot"):
        root = root.getroot()
    return root


# sources that declare the page's own dates (not a post's or an element's: microdata and <time> date
# each reply of a thread)
_PAGE_WIDE = frozenset({"jsonld", "og"})


class _Collector:
    """First valid value per field, with its source; of the publication date, the later page-wide
    declarations of other days."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self.sources: dict[str, str] = {}
        self.other_published: list[str] = []

    def offer(self, name: str, value: Any, source: str) -> None:
        if value and name not in self.values:
            self.values[name] = value
            self.sources[name] = source

    def offer_date(self, name: str, text: str | None, source: str) -> None:
        """``offer`` of the date ``text`` reads as, keeping ``text`` (as ``name + "_text"``) for
        the callers that check a day-month order it leaves open."""
        if name not in self.values:
            value = parse_machine_date(text)
            if value:
                self.offer(name, value, source)
                self.values[name + "_text"] = text
        elif name == "published" and text and source in _PAGE_WIDE:
            value = parse_machine_date(text)
            days = {self.values[name][:10], *(other[:10] for other in self.other_published)}
            if value and value[:10] not in days:
                self.other_published.append(value)


# what read_metadata gave for a Page (and the url it was asked with): the extraction and the site
# layout both ask for it, once each a page; a Page's tree does not change after it is measured
_READ: WeakKeyDictionary[Page, tuple[str | None, Metadata]] = WeakKeyDictionary()


def read_metadata(page_or_root: Any, url: str | None = None) -> Metadata:
    """Read a page's declared metadata from a :class:`newscrawl.page.Page` or an lxml root.

    ``url`` is only used to resolve a relative canonical link. Never raises on malformed markup
    or JSON; a block that cannot be read is skipped. A Page is read once (the same, shared
    Metadata for the same ``url``: read it, do not change it).
    """
    if not isinstance(page_or_root, Page):
        return _read_metadata(page_or_root, url)
    found = _READ.get(page_or_root)
    if found is not None and found[0] == url:
        return found[1]
    meta = _read_metadata(page_or_root, url)
    _READ[page_or_root] = (url, meta)
    return meta


def _read_metadata(page_or_root: Any, url: str | None) -> Metadata:
    root = _root_of(page_or_root)
    if root is None:
        return Metadata()
    got = _Collector()
    schema_types: set[str] = set()
    metas: dict[str, list[str]] = {}
    # newscrawl.page.Page removes <script> elements and keeps the JSON-LD texts aside.
    page_jsonld = getattr(page_or_root, "json_ld", None)
    jsonld_texts: list[str] = list(page_jsonld) if page_jsonld is not None else []
    canonical = None
    times: list[Any] = []

    for element in root.iter("meta", "link", "script", "time", "html"):
        tag = _tag_name(element)
        if tag == "meta":
            content = element.get("content")
            if content is not None and content.strip():
                for key in _meta_keys(element):
                    metas.setdefault(key, []).append(content.strip())
        elif tag == "link":
            if canonical is None and "canonical" in (element.get("rel") or "").lower().split():
                canonical = (element.get("href") or "").strip() or None
        elif tag == "script":
            if page_jsonld is None and "ld+json" in (element.get("type") or "").lower() and element.text:
                jsonld_texts.append(element.text)
        elif tag == "time":
            if element.get("datetime") or element.get("pubdate") is not None:
                times.append(element)
        elif tag == "html":
            # XHTML pages served as HTML write xml:lang, which the HTML parser keeps as a plain name
            lang = element.get("lang") or element.get("xml:lang") or element.get(_XML_LANG)
            got.offer("language", normalized_tag(_clean(lang)), "html")

    # JSON-LD
    nodes: list[dict[str, Any]] = []
    for text in jsonld_texts:
        data = _load_json(text)
        if data is not None:
            nodes.extend(_walk_json(data))
    by_id: dict[str, dict[str, Any]] = {}
    for node in nodes:  # a bare {"@id": ...} is a reference, not the definition
        if isinstance(node.get("@id"), str) and len(node) > 1:
            by_id.setdefault(node["@id"], node)
    articles: list[dict[str, Any]] = []
    others: list[dict[str, Any]] = []
    for node in nodes:
        types = _type_names(node)
        schema_types.update(types)
        if any(t in ARTICLE_TYPES for t in types):
            articles.append(node)
        elif types:
            others.append(node)
    # the declared authors' descriptions, by the node an author names inline or by @id
    described = {node["@id"]: node for node in nodes if isinstance(node.get("@id"), str) and node.get("description")}
    bios = [
        _clean_paragraphs(person.get("description"))
        for node in nodes
        for person in _people(node.get("author") or node.get("creator"), described)
    ]
    for node in articles:
        got.offer("title", _clean(node.get("headline")) or _clean(node.get("name")), "jsonld")
        got.offer_date("published", _clean(node.get("datePublished")), "jsonld")
        got.offer_date("modified", _clean(node.get("dateModified")), "jsonld")
        got.offer("authors", _person_names(node.get("author") or node.get("creator"), by_id), "jsonld")
        got.offer("language", normalized_tag(_clean(node.get("inLanguage"))), "jsonld")
        got.offer("description", _clean(node.get("description")), "jsonld")
        got.offer("article_body_text", _clean_paragraphs(node.get("articleBody")), "jsonld")
        publisher = node.get("publisher")
        if isinstance(publisher, dict):
            name = publisher.get("name") or by_id.get(publisher.get("@id") or "", {}).get("name")
            got.offer("site_name", _clean(name), "jsonld")

    # OpenGraph, article:*, named <meta> tags
    def first_meta(keys: Iterable[str]) -> tuple[str, str] | None:
        for key in keys:
            for value in metas.get(key, ()):
                return key, value
        return None

    for key in _TITLE_META:
        if key in metas:
            got.offer("title", _clean(metas[key][0]), "og" if key.startswith("og:") else "meta")
    for key in _PUBLISHED_META:
        for value in metas.get(key, ()):
            got.offer_date("published", value, "og" if key.startswith(("og:", "article:")) else "meta")
    for key, listed in metas.items():  # publish-named keys the list lacks: "published", "w-published-date"
        if _PUBLISHED_NAME.search(key) and not _NOT_FIRST.search(key) and key not in _MODIFIED_META:
            for value in listed:
                got.offer_date("published", value, "meta")
    # "ms.date", "cludo:date": a vocabulary's plain date, read after the microdata (below)
    namespaced = [value for key, values in metas.items() if _NAMESPACED_DATE.match(key) for value in values]
    for key in _MODIFIED_META:
        for value in metas.get(key, ()):
            got.offer_date("modified", value, "og" if key.startswith(("og:", "article:")) else "meta")
    for key in _AUTHOR_META:
        names = [_BY_PREFIX.sub("", v).strip() for v in metas.get(key, ())]
        names = [n for n in names if n and not n.startswith(("http://", "https://", "@"))]
        got.offer("authors", names, "og" if key.startswith("article:") else "meta")
    found = first_meta(_LANG_META)
    if found:
        got.offer("language", normalized_tag(found[1]), "og" if found[0] == "og:locale" else "meta")
    found = first_meta(_SITE_META)
    if found:
        got.offer("site_name", found[1], "og" if found[0].startswith("og:") else "meta")
    found = first_meta(("description", "og:description", "twitter:description"))
    if found:
        got.offer("description", _clean(found[1]), "meta")
    found = first_meta(("og:type",))
    og_type = found[1].strip().lower() if found else None
    if canonical is None:
        found = first_meta(("og:url",))
        canonical = found[1] if found else None

    # Microdata (itemprop); <meta itemprop> was read above with the named metas. Selecting the
    # attributes (not the elements by predicate) is the fastest lxml way to find them.
    body_element = None
    ingredients: list[Any] = []
    created: list[str] = []
    dates_read = 0
    for attribute in _MICRODATA(root):
        element = attribute.getparent()
        if attribute.attrname == "itemtype":
            schema_types.update(t.rstrip("/").rsplit("/", 1)[-1] for t in str(attribute).split())
            continue
        for prop in str(attribute).split():
            if prop == "articleBody" and body_element is None:
                body_element = element
            elif prop in ("recipeIngredient", "ingredients"):
                ingredients.append(element)
            elif prop == "headline":
                got.offer("title", _clean(element.get("content") or element.text_content()), "itemprop")
            elif prop in ("datePublished", "dateModified", "dateCreated"):
                wanted = "modified" if prop == "dateModified" else "published"
                if wanted in got.values or dates_read >= MAX_MICRODATA_DATES:
                    continue
                dates_read += 1
                item = _item_type(element)
                if item in _REPLY_TYPES:  # a comment's or an answer's date, not the page's
                    continue
                value = _clean(element.get("content") or element.get("datetime") or element.text_content()) or ""
                if prop == "dateCreated":  # a Question's date (Q&A pages): after every datePublished
                    if item == "Question" and value:
                        created.append(value)
                else:
                    got.offer_date("published" if prop == "datePublished" else "modified", value, "itemprop")
            elif prop == "author":
                name = element.get("content")
                if name is None:
                    inner = element.xpath(".//*[@itemprop='name']")
                    name = (inner[0].get("content") or inner[0].text_content()) if inner else element.text_content()
                got.offer("authors", [n for n in [_clean(name)] if n], "itemprop")
    for value in created:
        got.offer_date("published", value, "itemprop")
    for value in namespaced:
        got.offer_date("published", value, "meta")
    if "published" not in got.values:
        got.offer_date("published", _rdfa_date(root), "rdfa")

    # JSON-LD of non-article nodes (WebPage and the like), then <time>: weak sources
    for node in others:
        got.offer_date("published", _clean(node.get("datePublished")), "jsonld-page")
        got.offer_date("modified", _clean(node.get("dateModified")), "jsonld-page")
    for element in times:
        if "published" in got.values:
            break
        got.offer_date("published", element.get("datetime") or element.text_content(), "time")

    if canonical and url:
        canonical = join_url(url, canonical)  # None when malformed
    values = got.values
    site_name = _clean(values.get("site_name"))
    return Metadata(
        title=strip_site_name(values.get("title"), site_name),
        published=values.get("published"),
        published_text=values.get("published_text"),
        published_others=tuple(got.other_published),
        modified=values.get("modified"),
        authors=_dedupe(values.get("authors", [])),
        language=values.get("language"),
        site_name=site_name,
        og_type=og_type,
        description=values.get("description"),
        schema_types=frozenset(schema_types),
        article_body_element=body_element,
        recipe_ingredients=tuple(ingredients),
        article_body_text=values.get("article_body_text"),
        author_bios=tuple(dict.fromkeys(bio for bio in bios if bio)),
        canonical_url=canonical,
        sources=dict(got.sources)
        | ({"canonical_url": "link"} if canonical else {})
        | ({"article_body_element": "itemprop"} if body_element is not None else {}),
    )


def _dedupe(names: list[str]) -> list[str]:
    seen: set[str] = set()
    result = []
    for name in names:
        key = name.casefold()
        if key not in seen:
            seen.add(key)
            result.append(name)
    return result
