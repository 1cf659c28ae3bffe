"""One parsed page, shared by every extractor: parse once, measure once, style on demand.

Usage::

    page = Page.from_html(raw_bytes_or_text, url, stylesheets=[css_text_or_Stylesheet, ...])

API (reused by NCE, the title/date models, MSS/CoreEx/NewsFeed and the template mapper):

- ``page.url``, ``page.encoding`` (how bytes were decoded), ``page.warnings`` (list of str:
  limits hit, frames, empty input; extraction never raises for bad input, it records here).
- ``page.root`` the lxml root (``<html>``); ``page.body`` the ``<body>`` (or the root when there
  is none, e.g. frames-only pages); ``page.title_text`` the whitespace-collapsed ``<title>``.
- ``page.json_ld`` raw texts of ``<script type="application/ld+json">`` (scripts themselves are
  removed from the tree); ``page.css_texts`` texts of the page's ``<style>`` elements (they stay
  in the tree for the style resolver, as hidden elements without text nodes).
- ``page.elements`` every element under ``page.body`` in document order (``page.body`` first);
  ``page.index(el)`` its position in that list.
- ``page.text_nodes`` the ordered :class:`TextNode` list: each element's ``.text`` and
  ``.tail`` as separate nodes, whitespace-collapsed, empty ones skipped, hidden ones excluded.
- Per-element measures from one bottom-up pass (no ``text_content()`` calls needed):
  ``text_len(el)`` collapsed characters in the subtree (tails of the element itself excluded),
  ``link_text_len(el)`` characters inside ``<a>``, ``link_density(el)``,
  ``descendants(el)`` element count, ``tag_count(el, tag)`` descendants with that tag,
  ``depth(el)``, ``text_range(el)`` the half-open range of ``text_nodes`` indices inside it,
  ``text(el)`` the subtree's text joined from its text nodes; ``text_offsets`` the characters of
  the text nodes before each index (prefix sums), ``split_chars(nodes, at)``; ``tags()``, ``structure()``
  (parent index, depth, descendant count), ``measures()`` (text and link lengths, text-node
  range) and ``hidden_flags()`` of every element by index, and ``text_owners()`` (element index
  of each text node), for array passes.
- ``is_hidden(el)`` hidden by markup (``hidden`` attribute, inline ``display:none`` /
  ``visibility:hidden`` or clipped to nothing, ``aria-hidden`` is *not* hidden); such subtrees
  contribute no text nodes and no length. ``style(el)`` the computed style (lazy, cached),
  ``visible(el)``. The page's own ``<style>`` elements enter that cascade only beside external
  ``stylesheets`` unless ``style_elements`` says otherwise (see :class:`Page`).
- ``is_boilerplate(el)`` id/class names that say navigation, sidebar, share, comments, ...

Bad input degrades: at most ``MAX_CHARS`` characters are parsed, at most ``MAX_ELEMENTS``
elements are kept, subtrees deeper than ``MAX_DEPTH`` are flattened into text; each cut adds a
warning.
"""

from __future__ import annotations

import functools
import operator
import re
import unicodedata
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate, compress, repeat
from typing import Any, NamedTuple

from lxml import etree
from lxml import html as lxml_html

from newscrawl.encoding import decode_html
from newscrawl.safeurl import valid_url
from newscrawl.textcache import text_cache

MAX_CHARS = 8_000_000  # decoded characters parsed; the rest is cut (a real article page is < 3 MB)
MAX_ELEMENTS = 150_000  # elements kept in document order; later ones are dropped
MAX_DEPTH = 400  # deeper subtrees are flattened into their text

# Removed from the tree before anything is measured: they never carry visible article text.
# <style> stays (the style resolver reads it in cascade order and caches each block) but
# counts as hidden, so it yields no text nodes. <object> stays: browsers show its children when
# they cannot display it (every Flash/ActiveX player today), and pages put captions there.
_NOT_IN_BUTTONS = (
    "p",
    "a",
    "form",
    "ul",
    "ol",
    "table",
    "article",
    "section",
    "main",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
)
SWALLOWED_CHARS = 1000  # a <button> with this much text under blocks was left open by the parser
_UNWRAP = "newscrawl-unwrap"  # a temporary tag: elements renamed so are replaced by their content
_DROP_TAGS = (
    "script",
    "template",
    "svg",
    "select",
    "option",
    "textarea",
    "button",
    "iframe",
    "embed",
    "canvas",
    "video",
    "audio",
    "map",
    "frameset",
    "frame",
    # MathML is rendered text (formulas are part of the article), except the source annotations
    # (TeX) that a browser never shows
    "annotation",
    "annotation-xml",
)
# <noscript> is dropped too, unless the page shows less than this many characters without it
# and its <noscript> blocks hold more: script-rendered pages (forum software) that put the whole
# text there for clients without scripts; a reader without scripts sees it (docs/decisions.md,
# "Extraction quality against the peers, round 4").
NOSCRIPT_PAGE_CHARS = 300
_WS = re.compile(r"\s+")
# Inline styles that hide an element: display:none, visibility:hidden, and the "visually hidden"
# idiom of screen-reader-only text (route announcers repeating the headline, skip links, honeypot
# form fields): a box clipped to nothing, by clip-path: inset(50%) or, on an absolutely positioned
# box (clip applies to no other), clip: rect() of zero or one-pixel edges (docs/decisions.md,
# "Visually hidden inline styles").
_INLINE_HIDDEN = re.compile(
    r"display\s*:\s*none|visibility\s*:\s*hidden|clip-path\s*:\s*inset\(\s*50%\s*\)"
    # edges apart by a comma or by spaces, never by "\s*,?\s*": two adjacent runs over the same
    # spaces backtrack quadratically on a hostile attribute (a rect( followed by 100k spaces)
    r"|(?P<clip>(?<![\w-])clip\s*:\s*rect\(\s*(?:0(?:px)?|1px)(?:(?:\s*,\s*|\s+)(?:0(?:px)?|1px)){3}\s*\))",
    re.I,
)
_POSITIONED = re.compile(r"position\s*:\s*(?:absolute|fixed)", re.I)


def _placed(style: str | None) -> bool:
    """An inline style that sets both ``top`` and ``left`` (not only ``margin-top``)."""
    if not style or "left" not in style.lower():
        return False
    return {name.lower() for name in _COORDINATE.findall(style)} == {"top", "left"}


def inline_hidden(style: str) -> bool:
    """Whether an inline ``style`` attribute hides its element (see _INLINE_HIDDEN)."""
    found = _INLINE_HIDDEN.search(style)
    return found is not None and (found.lastgroup != "clip" or _POSITIONED.search(style) is not None)


# id/class words of navigation, share, related, ...; a theme numbers its regions ("footer1", "sidebar2")
BOILERPLATE_NAMES = re.compile(
    r"(?:^|[\s_-])(?:nav|navbar|navigation|menu\d*|breadcrumbs?|sidebar\d*|side-bar|aside|widget|"
    r"social|share|sharing|shares|related|recommended|more-stories|cookie|cookies|consent|gdpr|"
    r"newsletter|subscribe|subscription|signup|comment|comments|disqus|respond|footer\d*|"
    r"banner|advert|ads|ad|sponsor|sponsored|promo|popup|modal|tags|taglist|pagination|"
    r"pager|toolbar|skip|login)(?:$|[\s_-])",
    re.I,
)


_TEXT = operator.attrgetter("text")
_IS_TAIL = operator.attrgetter("is_tail")


def name_test(pattern: re.Pattern[str], maxsize: int = 4096) -> Callable[[str], bool]:
    """``pattern.search(names) is not None`` remembered per string, for the regexes the Page, NCE and
    the body read id/class names with (boilerplate, comments, captions, author boxes, screen-reader
    classes): siblings and pages repeat their names, and such a regex has no literal to skip to (~1 us
    a search, ~500 a page). Keyed by the string alone, so an entry holds no object the collector tracks;
    names longer than textcache.MAX_KEY_CHARS are searched each time, never held.
    ASCII names (nearly all) are lower-cased and searched without re.I, the same answer ~2x faster on
    the long word alternations; other names keep re.I (its folding matches "\u017f" to "s", "\u212a" to
    "k"). So the pattern must be case-insensitive and written in lower case."""
    if not pattern.flags & re.IGNORECASE or pattern.pattern != pattern.pattern.lower():
        raise ValueError(f"name_test needs a re.I pattern written in lower case: {pattern.pattern!r}")
    cased = re.compile(pattern.pattern, pattern.flags & ~re.IGNORECASE).search
    search = pattern.search
    return text_cache(maxsize)(lambda names: (cased(names.lower()) if names.isascii() else search(names)) is not None)


_boilerplate_names = name_test(BOILERPLATE_NAMES, maxsize=8192)


_WITH_ROLE = "descendant-or-self::*[@role]"
# A picture (<img>) beside boxes placed on it by coordinates in their inline style holds the labels
# of a chart or a map drawn over its image (ai2html and other graphics exporters): this many boxes
LABELS_MIN = 3
# the text a media player, or the module around a chart, holds of its own (a paragraph beside it is more)
PLAYER_MAX_CHARS = 200
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
MEDIA_MARK = "data-newscrawl-media"  # set on the parent of each <video>, <audio>, <iframe> before they go
_COORDINATE = re.compile(r"(?:^|;)\s*(top|left)\s*:", re.I)
# ARIA roles that say what <nav>, <aside> and <footer> say, whatever the element's tag
CHROME_ROLES = frozenset({"navigation", "complementary", "contentinfo", "search"})


# Live commentary ("live-match-comments", "live_comment", "match-commentary"): a match's or a live
# blog's running text, named with the word comment sites also give their readers' comments. A name
# is "live" as a word of its own ("sp-live-..."), then "comment" after it
_LIVE_WORD = re.compile(r"(?:^|[-_])live[-_]")


def _live_text(name: str) -> bool:
    low = name.lower()
    if "commentary" in low:
        return True
    live = _LIVE_WORD.search(low)
    return live is not None and "comment" in low[live.end() :]


def live_text_names(names: str) -> str:
    """``names`` (ids and classes) with live commentary's names written "livetext", so that no
    comment-section test takes the commentary for readers' comments ("livefyre-comments" is one).
    Name by name, in linear time: names are the page's, hostile ones included."""
    if "omment" not in names:
        return names
    return " ".join("livetext" if _live_text(name) else name for name in names.split(" "))


def boilerplate_named(names: str) -> bool:
    """:meth:`Page.is_boilerplate` of an element whose id and class are ``names`` ("id class"), for
    callers that have read them already."""
    return len(names) > 1 and _boilerplate_names(names)


def enclosing(el: Any, tag: str, stop: Any) -> Any | None:
    """The nearest element with ``tag`` from ``el`` itself up to, not including, ``stop`` (None:
    there is none below it): the link a title run sits in, the table a link-dense block sits in."""
    node = el
    while node is not None and node is not stop:
        if node.tag == tag:
            return node
        node = node.getparent()
    return None


def collapse(text: str) -> str:
    """Whitespace-collapsed, stripped text (the form every measure and output uses)."""
    return " ".join(text.split())


def fold(text: str | None) -> str:
    """NFKC, casefolded, whitespace-collapsed: the form in which titles are compared (the title metric,
    gold titles matched to text nodes in training, a headline run against the structured headline)."""
    return " ".join(unicodedata.normalize("NFKC", text or "").casefold().split())


def alnum(text: str) -> str:
    """Only the casefolded letters and digits: text compared across markup, spacing and punctuation."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


class TextNode(NamedTuple):
    """One non-empty text run: ``element.text`` (is_tail False) or ``element.tail`` (True)."""

    element: Any
    text: str
    is_tail: bool
    index: int  # type: ignore[assignment]  # shadows tuple.index, which nothing calls
    # the element whose style applies: the owner for ``.text``, its parent for ``.tail`` (a field, not a
    # property calling getparent: the title/date and page features read it ~500 times a page)
    container: Any


def _style_resolver(root: Any, stylesheets: Sequence[Any], url: str | None, style_elements: bool) -> Any | None:
    try:
        from newscrawl.css import StyleResolver, parse_stylesheet
    except ImportError:
        return None
    sheets = [parse_stylesheet(s) if isinstance(s, str) else s for s in stylesheets]
    # the page URL resolves relative <link href>s, so fetched sheets keep their cascade position
    return StyleResolver(root, sheets, base_url=url, style_elements=style_elements)


@dataclass(frozen=True, slots=True)
class FallbackStyle:
    """User-agent defaults only (headings, bold tags, inline font-size/weight); no stylesheet."""

    font_size: float
    font_weight: int
    bold: bool
    italic: bool
    color: str = "#000000"
    font_family: str = "serif"
    display: str = "inline"
    visible: bool = True


_UA_SIZE = {"h1": 32.0, "h2": 24.0, "h3": 18.72, "h4": 16.0, "h5": 13.28, "h6": 10.72, "small": 13.33}
_UA_BOLD = {"h1", "h2", "h3", "h4", "h5", "h6", "b", "strong", "th"}
_UA_ITALIC = {"i", "em", "cite", "var", "address", "dfn"}
_BLOCK = {
    "p",
    "div",
    "section",
    "article",
    "main",
    "header",
    "footer",
    "aside",
    "nav",
    "ul",
    "ol",
    "li",
    "table",
    "tr",
    "td",
    "th",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "pre",
    "figure",
    "figcaption",
    "dl",
    "dt",
    "dd",
    "form",
    "body",
    "html",
    "address",
    "hr",
    "center",
    "details",
    "summary",
    "fieldset",
    "caption",
    "tbody",
    "thead",
    "tfoot",
}


def _fallback_style(el: Any) -> FallbackStyle:
    size, bold, italic = None, False, False
    node = el
    while node is not None:
        tag = node.tag if isinstance(node.tag, str) else ""
        if size is None and tag in _UA_SIZE:
            size = _UA_SIZE[tag]
        bold = bold or tag in _UA_BOLD
        italic = italic or tag in _UA_ITALIC
        node = node.getparent()
    tag = el.tag if isinstance(el.tag, str) else ""
    return FallbackStyle(
        font_size=size or 16.0,
        font_weight=700 if bold else 400,
        bold=bold,
        italic=italic,
        display="block" if tag in _BLOCK else "inline",
    )


class Page:
    """A parsed page with per-element measures; build it with :meth:`from_html`.

    ``style_elements``: whether the page's own ``<style>`` elements enter the cascade of
    :meth:`style`. None (the default) reads them when external ``stylesheets`` are given (a
    crawl's CSS middleware fetched them: the page's whole author cascade) and leaves them out of
    a page given alone, which is then styled by its inline ``style`` attributes and the
    user-agent defaults. Measured on the development data, the ``<style>`` elements without the
    sheets they complement moved 18 of ~1,900 titles (9 each way), no date and no set's body F1 by
    more than 0.0005, at ~27% of extraction time (docs/decisions.md, "A page alone: its
    ``<style>`` elements left out").
    """

    def __init__(
        self,
        root: Any,
        url: str | None,
        stylesheets: Sequence[Any] = (),
        *,
        encoding: str = "utf-8",
        warnings: list[str] | None = None,
        json_ld: list[str] | None = None,
        css_texts: list[str] | None = None,
        style_elements: bool | None = None,
    ) -> None:
        self.url = url
        self.root = root
        self.encoding = encoding
        self.warnings: list[str] = warnings if warnings is not None else []
        self.json_ld: list[str] = json_ld or []
        self.css_texts: list[str] = css_texts or []
        self._stylesheets = list(stylesheets)
        self.style_elements = bool(self._stylesheets) if style_elements is None else style_elements
        self._resolver: Any = False  # False: not built yet; None: newscrawl.css unavailable
        self._styles: dict[Any, Any] = {}
        self._names: dict[Any, str] = {}
        body = _first(root, "body", with_root=True)  # root.xpath("//body")[0]
        self.body = body if body is not None else root
        title = _first(root, "title", with_root=False)  # root.find(".//title")
        self.title_text = collapse(title.text_content()) if title is not None else ""
        self._measure()

    # --- construction ---------------------------------------------------------------------------
    @classmethod
    def from_html(
        cls,
        html: str | bytes,
        url: str | None = None,
        *,
        stylesheets: Iterable[Any] = (),
        http_charset: str | None = None,
        style_elements: bool | None = None,
    ) -> Page:
        """Decode (browser-like), parse once with lxml (recovering), clean up and measure."""
        warnings: list[str] = []
        encoding = "str"
        if isinstance(html, (bytes, bytearray, memoryview)):
            data = bytes(html)
            if len(data) > 4 * MAX_CHARS:
                data = data[: 4 * MAX_CHARS]
                warnings.append(f"input cut to {4 * MAX_CHARS} bytes")
            text, encoding = decode_html(data, http_charset)
        elif isinstance(html, str):
            text = html
        else:
            raise TypeError(f"html must be str or bytes, not {type(html).__name__}")
        if len(text) > MAX_CHARS:
            text = text[:MAX_CHARS]
            warnings.append(f"document cut to {MAX_CHARS} characters")
        if _looks_binary(text):
            warnings.append("input is not HTML text (binary data)")
            text = ""
        text = text.replace("\x00", "")
        root = _parse(text, warnings)
        if root.find(".//frameset") is not None:
            warnings.append("frames page: frame contents are not fetched")
        if _STREAMED_MARK in text:
            _place_streamed(root, text)
        json_ld, css_texts = _strip_unseen(root)
        _limit_tree(root, warnings, text)
        if url is not None and not valid_url(url):  # every URL-based feature would raise on it
            warnings.append(f"page URL ignored: malformed ({str(url)[:200]!r})")
            url = None
        return cls(
            root,
            url,
            list(stylesheets),
            encoding=encoding,
            warnings=warnings,
            json_ld=json_ld,
            css_texts=css_texts,
            style_elements=style_elements,
        )

    # --- one bottom-up pass -----------------------------------------------------------------------
    def _measure(self) -> None:
        # one iterwalk; the loop runs twice per element, so list methods are bound to locals,
        # the hidden test is inlined and text nodes are built without NamedTuple's Python __new__
        elements: list[Any] = []
        tags: list[Any] = []
        text_len: list[int] = []
        link_len: list[int] = []
        depth: list[int] = []
        parent: list[int] = []
        first_tn: list[int] = []
        end_tn: list[int] = []
        desc: list[int] = []
        hidden_flag: list[bool] = []
        text_nodes: list[TextNode] = []
        owner: list[int] = []  # element index of each text node
        add_el, add_tag, add_depth, add_parent = elements.append, tags.append, depth.append, parent.append
        add_first, add_end, add_desc, add_hidden = first_tn.append, end_tn.append, desc.append, hidden_flag.append
        add_len, add_link, add_tn, add_owner = text_len.append, link_len.append, text_nodes.append, owner.append
        new_tn, hidden_style = tuple.__new__, inline_hidden
        stack: list[int] = [-1]  # indices of open elements under a sentinel (the body's parent)
        push, pop = stack.append, stack.pop
        hidden_depth = 0  # > 0 while inside a hidden subtree
        flattened = 0
        walker = etree.iterwalk(self.body, events=("start", "end"))
        for event, el in walker:
            if event == "start":
                level = len(stack) - 1
                if level == MAX_DEPTH - 1 and len(el):
                    _flatten(el)
                    walker.skip_subtree()
                    flattened += 1
                i = len(elements)
                tag = el.tag
                add_el(el)
                add_tag(tag)
                add_depth(level)
                add_parent(stack[-1])
                n_tn = len(text_nodes)
                add_first(n_tn)
                add_end(n_tn)
                add_desc(0)
                push(i)
                if (
                    hidden_depth
                    or tag == "style"
                    or el.get("hidden") is not None
                    or ((style := el.get("style")) and hidden_style(style))
                ):
                    hidden_depth += 1
                    add_hidden(True)
                    add_len(0)
                else:
                    add_hidden(False)
                    text = el.text
                    # collapse(), inlined; most texts and tails are whitespace between tags, which
                    # collapse to "" exactly when isspace() (one C scan, no list and join)
                    if text and not text.isspace():
                        t = " ".join(text.split())
                        add_tn(new_tn(TextNode, (el, t, False, n_tn, el)))
                        add_owner(i)
                        add_len(len(t))
                    else:
                        add_len(0)
                add_link(0)
                continue
            i = pop()
            end_tn[i] = len(text_nodes)
            desc[i] = len(elements) - i - 1  # descendants are exactly elements i+1 .. i+desc
            hid = hidden_flag[i]
            if hid:
                hidden_depth -= 1
            if tags[i] == "a":
                link_len[i] = text_len[i]
            p = stack[-1]
            if p >= 0:
                if not hid:
                    text_len[p] += text_len[i]
                    link_len[p] += link_len[i]
                if not hidden_flag[p]:
                    tail = el.tail
                    if tail and not tail.isspace():
                        t = " ".join(tail.split())
                        n_tn = len(text_nodes)
                        add_tn(new_tn(TextNode, (el, t, True, n_tn, elements[p])))
                        add_owner(i)
                        text_len[p] += len(t)
        if flattened:
            self.warnings.append(f"{flattened} subtrees deeper than {MAX_DEPTH} flattened into text")
        self.elements = elements
        self._index = dict(zip(elements, range(len(elements))))
        self._text_len = text_len
        self._link_len = link_len
        self._desc = desc
        self._depth = depth
        self._parent = parent
        self._first_tn = first_tn
        self._end_tn = end_tn
        self._prefix: dict[str, list[int]] = {}
        self._totals: Counter[Any] | None = None  # tag -> elements with it, for counts over the whole body
        self._tags = tags  # element tags in document order, for tag_count and array passes
        self._hidden = hidden_flag
        self.text_nodes = text_nodes
        self._owner = owner

    # --- measures -------------------------------------------------------------------------------
    def index(self, el: Any) -> int:
        return self._index[el]

    def has(self, el: Any) -> bool:
        return el in self._index

    def text_len(self, el: Any) -> int:
        return self._text_len[self._index[el]]

    def link_text_len(self, el: Any) -> int:
        return self._link_len[self._index[el]]

    def link_density(self, el: Any) -> float:
        i = self._index[el]
        n = self._text_len[i]
        return self._link_len[i] / n if n else 0.0

    def descendants(self, el: Any) -> int:
        return self._desc[self._index[el]]

    def tag_count(self, el: Any, tag: str) -> int:
        """Descendants of ``el`` with this tag (a prefix sum over document order, built once per tag)."""
        i = self._index[el]
        prefix = self._prefix.get(tag)
        if prefix is None:
            total = self.tag_totals().get(tag, 0)
            if i == 0:  # the body: the page's count, from one Counter for all tags
                return total - (self._tags[0] == tag)
            if not total:  # a tag the page lacks (h5, cite, ...): no prefix list
                return 0
            prefix = self._prefix[tag] = list(accumulate(map(operator.eq, self.tags(), repeat(tag)), initial=0))
        return prefix[i + 1 + self._desc[i]] - prefix[i + 1]

    def tag_totals(self) -> Counter[Any]:
        """Elements of the body (itself included) by tag, counted once: what ``body.iter(tag)`` yields."""
        if self._totals is None:
            self._totals = Counter(self._tags)
        return self._totals

    def with_tags(self, *names: str) -> list[Any]:
        """The body's elements (itself included) with one of these tags, in document order: what
        ``body.iter(*names)`` yields, from the tag list instead of a walk over the tree."""
        wanted = frozenset(names)
        if wanted.isdisjoint(self.tag_totals()):
            return []
        return list(compress(self.elements, map(wanted.__contains__, self._tags)))

    def depth(self, el: Any) -> int:
        return self._depth[self._index[el]]

    def tags(self) -> list[Any]:
        """Tag of every element, by index."""
        return self._tags

    def structure(self) -> tuple[list[int], list[int], list[int]]:
        """(parent index, depth, descendant count) of every element, by index (parent -1 for the
        body), for passes that work on the element list as arrays instead of walking the tree."""
        return self._parent, self._depth, self._desc

    def measures(self) -> tuple[list[int], list[int], list[int], list[int]]:
        """(text length, link text length, first text node, end of text nodes) of every element,
        by index: :meth:`text_len`, :meth:`link_text_len` and :meth:`text_range` as arrays."""
        return self._text_len, self._link_len, self._first_tn, self._end_tn

    def text_owners(self) -> list[int]:
        """Index of the element each text node belongs to (its ``.text``, or its ``.tail``)."""
        return self._owner

    def elements_above(self, nodes: Iterable[int], top: int = 0) -> list[int]:
        """Indices of the descendants of element ``top`` (the body: 0) that hold one of the text
        nodes ``nodes`` (their containers and the containers' ancestors), each once, nearest first
        per node: a climb that stops where an earlier node's climb has been, instead of a walk over
        all of ``top``'s descendants."""
        parent, owner, tns = self._parent, self._owner, self.text_nodes
        last = top + self._desc[top]  # top's descendants are the elements top + 1 .. last
        seen: set[int] = set()
        out: list[int] = []
        for k in nodes:
            el = parent[owner[k]] if tns[k].is_tail else owner[k]  # the node's container
            while top < el <= last and el not in seen:
                seen.add(el)
                out.append(el)
                el = parent[el]
        return out

    @functools.cached_property
    def text_containers(self) -> list[int]:
        """Index of each text node's ``container`` (its owner, or the owner's parent for a tail): climbs
        from text nodes through the parent indices instead of lxml's ``getparent``."""
        parent = self._parent
        return [parent[o] if tail else o for o, tail in zip(self._owner, map(_IS_TAIL, self.text_nodes))]

    @functools.cached_property
    def above_body(self) -> list[Any]:
        """The body's ancestors, nearest first (``<html>``, or none when the body is the root): where a
        climb by parent index leaves the element list."""
        out = []
        node = self.body.getparent()
        while node is not None:
            out.append(node)
            node = node.getparent()
        return out

    def hidden_flags(self) -> list[bool]:
        """:meth:`is_hidden` of every element, by index (its text and tails are no text nodes)."""
        return self._hidden

    def text_range(self, el: Any) -> range:
        """Indices of the text nodes inside ``el`` (its own tail excluded)."""
        i = self._index[el]
        return range(self._first_tn[i], self._end_tn[i])

    def text(self, el: Any, sep: str = " ") -> str:
        i = self._index[el]
        return sep.join(map(_TEXT, self.text_nodes[self._first_tn[i] : self._end_tn[i]]))

    @functools.cached_property
    def text_offsets(self) -> list[int]:
        """Characters of the text nodes before each index (``len(text_nodes) + 1`` entries), summed
        once: NCE, the body cut and the page classifier's shares read lengths of node runs."""
        return list(accumulate(map(len, map(_TEXT, self.text_nodes)), initial=0))

    def split_chars(self, nodes: Sequence[int], at: int) -> tuple[int, int]:
        """(characters of the text nodes ``nodes`` before index ``at``, characters of all of them);
        ``nodes`` ascending, so those before ``at`` are a prefix. How far into a text a node sits:
        the body's title cut and NCE's comment cut."""
        offsets = self.text_offsets
        lengths = [offsets[k + 1] - offsets[k] for k in nodes]
        return sum(lengths[: bisect_left(nodes, at)]), sum(lengths)

    @functools.cached_property
    def body_text(self) -> str:
        """``text(body)``, joined once: the page classifier's features and its language gate both read it."""
        return self.text(self.body)

    def is_hidden(self, el: Any) -> bool:
        return self._hidden[self._index[el]]

    def is_boilerplate(self, el: Any) -> bool:
        """id/class names that say navigation, sidebar, share, related, cookie, comments, ..."""
        return boilerplate_named(self.names(el))

    @functools.cached_property
    def _roles(self) -> list[tuple[Any, str]]:
        """(element, its ARIA role's first word, lower-cased) for the body's elements with a role, in
        document order: the body is searched once a page for every role question."""
        return [
            (el, next(iter((el.get("role") or "").split()), "").lower())
            for el in self.body.xpath(_WITH_ROLE)
            if self.has(el)
        ]

    def with_role(self, *roles: str) -> list[Any]:
        """The body's elements whose role is one of ``roles``, in document order: a role says what an
        element is whatever its tag."""
        return [el for el, role in self._roles if role in roles]

    @functools.cached_property
    def open_dialogs(self) -> frozenset[Any]:
        """The body's elements with ``role="dialog"`` or ``"alertdialog"`` that ``aria-hidden`` does not
        hide: a consent banner or a sign-in prompt on screen over the page."""
        return frozenset(el for el in self.with_role("dialog", "alertdialog") if el.get("aria-hidden") != "true")

    @functools.cached_property
    def chrome_roles(self) -> frozenset[Any]:
        """The body's elements whose role is one of :data:`CHROME_ROLES` (``role="navigation"`` on a
        ``<div>``, ``role="complementary"`` on a ``<section>``)."""
        return frozenset(self.with_role(*CHROME_ROLES))

    @functools.cached_property
    def labelled_pictures(self) -> frozenset[Any]:
        """The graphics of the body: elements holding an ``<img>`` and at least :data:`LABELS_MIN` boxes
        that their inline style places by ``top`` and ``left`` (a chart's axis labels and values over
        its image, words that only make sense on the picture), each widened to the
        module around it while that adds under :data:`PLAYER_MAX_CHARS` characters and no heading
        (the chart's own title line and source note)."""
        pictures, seen = [], set()
        for picture in self.body.iter("img"):  # <svg> and <canvas> are gone with _DROP_TAGS
            el = picture.getparent()
            if el is None or el in seen:
                continue
            seen.add(el)
            boxes = sum(1 for child in el if isinstance(child.tag, str) and _placed(child.get("style")))
            if boxes >= LABELS_MIN and self.has(el):
                pictures.append(el)
        labels = [(self.index(el), self.text_len(el)) for el in pictures]
        widened = ((el, self._widest_around(el, labels)) for el in pictures)
        return frozenset(el if graphic is None else graphic for el, graphic in widened)

    @functools.cached_property
    def media_players(self) -> frozenset[Any]:
        """For each ``<video>``, ``<audio>`` and ``<iframe>`` of the body (removed as unseen: their
        parents are marked :data:`MEDIA_MARK`), the widest element around it with under
        :data:`PLAYER_MAX_CHARS` characters of text and no heading: the player and what it shows
        around the media (the next clip's title, "Your video will play in 00:25", its caption)."""
        players = (self._widest_around(holder) for holder in self.body.xpath(f"descendant-or-self::*[@{MEDIA_MARK}]"))
        return frozenset(player for player in players if player is not None and self.text_len(player))

    def _widest_around(self, el: Any, discounted: Sequence[tuple[int, int]] = ()) -> Any | None:
        """The widest of ``el`` and its ancestors below the body with under :data:`PLAYER_MAX_CHARS`
        characters of text and no heading (a heading over a clip or a chart is the text's own);
        None when ``el`` itself has more. ``discounted`` (element index, text length) pairs are text
        not counted where it lies inside (a chart's labels)."""
        widest, node = None, el
        while node is not None and node is not self.body and self.has(node):
            start, end = self.index(node), self.index(node) + self.descendants(node)
            own = self.text_len(node) - sum(n for i, n in discounted if start <= i <= end)
            if own >= PLAYER_MAX_CHARS or next(node.iter(*_HEADINGS), None) is not None:
                break
            widest, node = node, node.getparent()
        return widest

    def names(self, el: Any) -> str:
        """``el``'s id and class as "id class", read once a page: NCE's climbs ask the same ancestors
        again from every candidate (~250 reads a page). Live commentary's names read as such, not as
        a comment section (:func:`live_text_names`)."""
        names = self._names.get(el)
        if names is None:
            names = self._names[el] = live_text_names((el.get("id") or "") + " " + (el.get("class") or ""))
        return names

    # --- styles (on demand) -----------------------------------------------------------------------
    def style(self, el: Any) -> Any:
        """Computed style of ``el`` (newscrawl.css when available, user-agent defaults otherwise)."""
        cached = self._styles.get(el)
        if cached is not None:
            return cached
        if self._resolver is False:
            try:
                self._resolver = _style_resolver(self.root, self._stylesheets, self.url, self.style_elements)
            except Exception as exc:  # a broken stylesheet must not stop extraction
                self.warnings.append(f"stylesheets ignored: {exc.__class__.__name__}: {exc}")
                self._resolver = None
        style = None
        if self._resolver is not None:
            try:
                style = self._resolver.style(el)
            except Exception as exc:
                self.warnings.append(f"style resolution failed: {exc.__class__.__name__}")
                self._resolver = None
        if style is None:
            style = _fallback_style(el)
        self._styles[el] = style
        return style

    def visible(self, el: Any) -> bool:
        return not self.is_hidden(el) and bool(getattr(self.style(el), "visible", True))


_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")
# lxml refuses a str that starts with an XML declaration naming an encoding (XHTML pages); the
# text is already decoded and browsers ignore the declaration in HTML, so it is dropped
_XML_DECLARATION = re.compile(r"\A[\ufeff\s]*<\?xml[^>]*>")
# Every element an lxml.html.HtmlElement, chosen by lxml's C default lookup: lxml.html's own
# lookup is a Python call for each element proxy made (~850 a page), only to give form controls
# subclasses that nothing here uses (docs/decisions.md, "Extraction speed, round 6").
_CLASS_LOOKUP = etree.ElementDefaultClassLookup(
    element=lxml_html.HtmlElement,
    comment=lxml_html.HtmlComment,
    pi=lxml_html.HtmlProcessingInstruction,
    entity=lxml_html.HtmlEntity,
)


def _looks_binary(text: str) -> bool:
    """More than 5% control characters in the first 4 KB: an image, PDF or archive, not HTML."""
    head = text[:4096]
    return bool(head) and len(_CONTROL.findall(head)) > 0.05 * len(head)


def _parse(text: str, warnings: list[str]) -> Any:
    parser = lxml_html.HTMLParser(
        huge_tree=True, recover=True, remove_comments=True, remove_pis=True, default_doctype=False
    )
    parser.set_element_class_lookup(_CLASS_LOOKUP)
    root = None
    text = _XML_DECLARATION.sub("", text, count=1)
    if text.strip():
        try:
            root = lxml_html.document_fromstring(text, parser=parser)
        except (etree.ParserError, ValueError) as exc:
            warnings.append(f"unparsable document: {exc}")
        if root is not None:
            _adopt_stray(root)
        if any("Excessive depth" in e.message for e in parser.error_log):
            # libxml2 stops building at depth 2048 (like browsers it caps nesting); the rest is lost
            warnings.append("nesting deeper than the parser limit: content after it was not parsed")
    else:
        warnings.append("empty document")
    if root is None:
        root = lxml_html.document_fromstring("<html><head></head><body></body></html>", parser=parser)
    return root


def _adopt_stray(root: Any) -> None:
    """Move into ``<body>`` what libxml2 leaves outside it: content after ``</body>`` becomes the
    body's following siblings, content after ``</html>`` the children of a second ``<html>`` beside
    the root. Browsers put both into the body (HTML's "after body" modes); templates that close the
    page after its header and then print the article lost their whole text (the Page reads only the
    body). Two sibling lookups on the usual page."""
    body = root.find("body")
    if body is None:
        return
    stray = list(body.itersiblings())
    for extra in root.itersiblings():
        if isinstance(extra.tag, str):
            stray.extend(extra)
    for el in stray:
        if el.tag == "body":  # a second <body> start tag: its content joins the first
            body.extend(list(el))
        elif el.tag != "head":
            body.append(el)


def _first(root: Any, tag: str, *, with_root: bool) -> Any | None:
    """The first element with ``tag`` in document order among ``root``'s descendants (and ``root``
    itself ``with_root``): what ``root.xpath("//tag")[0]`` and ``root.find(".//tag")`` give. Both walk
    the whole tree (lxml's iterator looks one match ahead; ~0.15 ms a page each); searching the
    root's children in turn (head, body) stops in the one that holds it."""
    if with_root and root.tag == tag:
        return root
    for child in root:
        if child.tag == tag:
            return child
        found = child.find(".//" + tag) if isinstance(child.tag, str) else None
        if found is not None:
            return found
    return None


# React's streaming server rendering (Next.js and others) sends a Suspense boundary's content
# after the page shell, as <div hidden id="S:n">, and a script moves it into place: $RC("B:m",
# "S:n") to the boundary marked by <template id="B:m"> (replacing its fallback), $RS("S:n", "P:n")
# to the placeholder <template id="P:n">. Without scripts the text stays hidden and at the end:
# the article of such pages was lost (docs/decisions.md, "React streamed segments"). The moves
# are done here. The fallback (a loading skeleton) stays: the <!--/$--> comment that ends it is
# gone with the parser's comments. A segment without a target is shown where it is.
_STREAMED_MARK = 'id="S:'
_STREAMED_CALL = re.compile(r'\$RC\(\s*"(B:[0-9A-Za-z_]+)"\s*,\s*"(S:[0-9A-Za-z_]+)"')
_STREAMED_SEGMENT = re.compile(r"S:[0-9A-Za-z_]+")


def _place_streamed(root: Any, text: str) -> None:
    """Move (or show) React's streamed segments as their scripts would (see above)."""
    segments = [
        el
        for el in root.iter("div")
        if el.get("hidden") is not None and _STREAMED_SEGMENT.fullmatch(el.get("id") or "")
    ]
    if not segments:
        return
    templates: dict[str, Any] = {}
    for el in root.iter("template"):
        templates.setdefault(el.get("id") or "", el)
    boundary = {segment: bnd for bnd, segment in _STREAMED_CALL.findall(text)}
    for segment in segments:
        ident = segment.get("id")
        del segment.attrib["hidden"]
        # the completing call names the boundary; saved pages often lack the scripts, and React
        # numbers a boundary and its content segment alike (B:n, S:n) as they stream
        target = templates.get("P:" + ident[2:])
        if target is None:
            target = templates.get(boundary.get(ident) or "B:" + ident[2:])
        if target is None or segment in target.iterancestors():
            continue
        _remove_keep_tail(segment)  # its tail text stays where it was
        segment.tail = target.tail
        target.tail = None
        target.getparent().replace(target, segment)


def _strip_unseen(root: Any) -> tuple[list[str], list[str]]:
    """Keep JSON-LD and CSS texts, then remove elements that are never rendered as text."""
    json_ld: list[str] = []
    css_texts: list[str] = []
    # comments and PIs the parser kept (e.g. inside broken markup) are gathered by the same walk
    unseen: list[Any] = []
    # a <button> holding paragraphs, links or lists was left open by the parser (libxml2 ignores
    # </button> while an inner <div> is unclosed; browsers close it there) and holds the rest of the page
    swallowed: list[Any] = []
    for el in root.iter("script", "style", "button", etree.Comment, etree.ProcessingInstruction):
        tag = el.tag
        if not isinstance(tag, str):
            unseen.append(el)
        elif tag == "button":
            if next(el.iter(*_NOT_IN_BUTTONS), None) is not None and len(el.text_content()) >= SWALLOWED_CHARS:
                swallowed.append(el)
        elif tag == "script":
            if "ld+json" in (el.get("type") or "").lower() and el.text:
                json_ld.append(el.text)
        elif el.text and (el.get("media") or "all").strip().lower() != "print":
            css_texts.append(el.text)
    if swallowed:  # their content stays, unwrapped; the other buttons go with _DROP_TAGS
        for el in swallowed:
            el.tag = _UNWRAP
        etree.strip_tags(root, _UNWRAP)
    for media in root.iter("video", "audio", "iframe"):  # a media player's place, for Page.media_players
        holder = media.getparent()
        if holder is not None:
            holder.set(MEDIA_MARK, "")
    etree.strip_elements(root, *_DROP_TAGS, with_tail=False)
    if _noscript_is_the_page(root):
        etree.strip_tags(root, "noscript")  # unwrapped: its content is the page's text
    else:
        etree.strip_elements(root, "noscript", with_tail=False)
    for node in unseen:  # in document order; those inside removed elements left with them
        if node.getparent() is not None:
            _remove_keep_tail(node)
    return json_ld, css_texts


def _noscript_is_the_page(root: Any) -> bool:
    """Whether the <noscript> blocks hold more text than the rest of the page and the rest is
    under NOSCRIPT_PAGE_CHARS (measured only when the blocks hold that much: most are a pixel)."""
    blocks = list(root.iter("noscript"))
    if not blocks:
        return False
    inside = sum(len(collapse(block.text_content())) for block in blocks)
    if inside < NOSCRIPT_PAGE_CHARS:
        return False
    styles = sum(len(collapse(el.text or "")) for el in root.iter("style"))
    outside = len(collapse(root.text_content())) - inside - styles
    return outside < NOSCRIPT_PAGE_CHARS and inside > outside


def _flatten(el: Any) -> None:
    """Replace ``el``'s subtree by its text (too deep to walk; browsers cap nesting too)."""
    text = "".join(el.itertext())
    for child in list(el):
        el.remove(child)
    el.text = text


def _remove_keep_tail(node: Any) -> None:
    parent = node.getparent()
    tail = node.tail
    if tail:
        prev = node.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(node)


def _limit_tree(root: Any, warnings: list[str], text: str) -> None:
    """Drop elements beyond MAX_ELEMENTS in document order (depth is bounded in _measure).

    ``text`` is what was parsed: libxml2 makes an element of each ``<`` at most, plus a ``<p>`` it
    implies for text outside any element (at most one per ``<`` and one more) and ``<html>``,
    ``<head>``, ``<body>``, so a text with few ``<`` needs no count (an XPath count of the tree
    cost ~0.2 ms a page, counting the ``<`` a third of it)."""
    if len(text) <= (MAX_ELEMENTS - 4) // 2 or 2 * text.count("<") + 4 <= MAX_ELEMENTS:
        return
    if int(root.xpath("count(//*)")) <= MAX_ELEMENTS:
        return
    cut_at = None
    for count, el in enumerate(root.iter()):
        if count >= MAX_ELEMENTS:
            cut_at = el
            break
    if cut_at is None:
        return
    node = cut_at
    while node.getparent() is not None:
        parent = node.getparent()
        for sib in list(node.itersiblings()):
            parent.remove(sib)
        node = parent
    cut_at.getparent().remove(cut_at)
    warnings.append(f"document cut after {MAX_ELEMENTS} elements")
