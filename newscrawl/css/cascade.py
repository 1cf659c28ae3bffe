"""The simplified cascade: computed font size, weight, style, colour, family, display, visibility.

``StyleResolver(root, stylesheets)`` orders the author stylesheets as the document does, puts the
user-agent defaults underneath and answers ``style(element)`` on demand: matching uses the
stylesheets' selector indexes, results are memoised per element, and inheritance walks the
ancestors iteratively (top-down from the nearest memoised one).
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import islice
from typing import Any
from weakref import WeakKeyDictionary

import tinycss2
from cssselect2.compiler import split_whitespace
from lxml import etree

from newscrawl.css.media import DEFAULT_VIEWPORT, media_matches
from newscrawl.css.selectors import ROOT_KEY, NodeRegistry, keys_of, split_key_tests
from newscrawl.css.stylesheet import (
    Rule,
    Stylesheet,
    complete_stylesheet,
    parse_declarations,
    parse_stylesheet,
)
from newscrawl.css.values import (
    FONT_SIZE_KEYWORDS,
    eval_length,
    family_category,
    parse_value_text,
)
from newscrawl.safeurl import join_url
from newscrawl.textcache import memorable, text_cache

MAX_IMPORT_DEPTH = 8
MAX_VAR_DEPTH = 16
# Bounds of the process-wide caches (docs/decisions.md, "CSS caches and garbage collection"):
# every object they hold is walked by each full garbage collection, so a crawl across many
# sites must reach a small steady state; a site's own working set (WyoFile, 30 pages: 39 blocks
# of 177 k characters, 10 indexes, 1,510 states, 230 merged declarations) fits in them.
BLOCK_CHARS = 2 * 1024 * 1024  # parsed <style> texts seen again (BlockCache), summed length
BLOCK_PROBATION_CHARS = 256 * 1024  # parsed <style> texts seen once
# A page's <style> blocks are parsed for its ids and classes only (rules needing others are
# skipped) when its blocks not yet cached hold at least this many rules ("{"): below, reading
# the document's keys (~0.5-1 ms) costs more than it saves (break-even ~100-200 on wcxb-dev).
PARTIAL_MIN_RULES = 200
INDEXES = 8  # combined indexes (one per combination of sheets)
MEMO_ENTRIES = 8192  # per memo table of an index and of a key space
SHARED_ENTRIES = 4096  # per shared memo (merged declarations, states, custom properties, var())
# Outcomes of chain-decided selectors per key space: entries of ints and bools, which the
# collector does not track; a descendant walk memoises one per ancestor, so this bounds the
# depth up to which deep documents stay linear (tests/css: 20,000 levels).
CHAIN_OUTCOMES = 200_000
_MEDIUM = 16.0
_MONOSPACE_MEDIUM = 13.0  # browsers' default size for the generic monospace family
# A computed font size above this is an overflow (calc(1e308px * 1e308), a thousand nested 2em
# headings in a damaged page), not type anyone reads: sizes are clamped to it, so every size and
# every ratio of sizes the extractor takes stays finite.
MAX_FONT_SIZE = 10_000.0
# An index entry's cascade key is one int (fewer objects for the garbage collector to walk):
# source order across sheets (sheet position << 32 plus the rule's order in its sheet), plus
# _AUTHOR for author rules (origin sorts first).
_AUTHOR = 1 << 60
# How an index entry is decided: implied by the key tests, by the key chain, or per element.
_IMPLIED, _PLAIN, _RESIDUAL, _TESTED = "implied", "plain", "residual", "tested"
_KEY_PREFIXES = {"id": "#", "class": ".", "tag": ""}  # index key kind -> element key prefix

# Chrome's html.css, reduced to the properties we compute.
UA_CSS = """
html, address, blockquote, body, center, dialog, div, figure, figcaption, footer, form, header,
hr, legend, listing, main, p, plaintext, pre, search, xmp, article, aside, h1, h2, h3, h4, h5, h6,
hgroup, nav, section, dir, dd, dl, dt, menu, ol, ul, fieldset, details, summary, optgroup, option,
frameset, frame, address, center { display: block }
li { display: list-item }
details > summary:first-of-type { display: list-item }
head, link, meta, script, style, title, base, template, area, datalist, noembed, noframes,
param, rp, noscript, [hidden], input[type=hidden i], dialog:not([open]) { display: none }
embed[hidden] { display: inline }
table { display: table }
caption { display: table-caption }
colgroup { display: table-column-group }
col { display: table-column }
thead { display: table-header-group }
tbody { display: table-row-group }
tfoot { display: table-footer-group }
tr { display: table-row }
td, th { display: table-cell }
th { font-weight: bold }
ruby { display: ruby }
rt { display: ruby-text }
input, button, select, textarea, meter, progress, marquee { display: inline-block }
input, button, select, textarea { font-size: 13.333333px; font-weight: normal;
  font-style: normal; color: #000; font-family: sans-serif }
textarea { font-family: monospace }
b, strong { font-weight: bolder }
optgroup { font-weight: bolder }
h1 { font-size: 2em; font-weight: bold }
h2 { font-size: 1.5em; font-weight: bold }
h3 { font-size: 1.17em; font-weight: bold }
h4 { font-size: 1em; font-weight: bold }
h5 { font-size: .83em; font-weight: bold }
h6 { font-size: .67em; font-weight: bold }
i, cite, em, var, dfn, address { font-style: italic }
code, kbd, samp, pre, tt, listing, xmp, plaintext { font-family: monospace }
small, sub, sup { font-size: smaller }
big { font-size: larger }
a:link { color: #0000ee }
mark { color: #000 }
"""
# Quirks mode: tables do not inherit font properties (Chrome's quirks.css).
QUIRKS_UA_CSS = "table { font-weight: normal; font-size: medium; font-style: normal }"

_BLOCKIFY = {
    "inline": "block",
    "inline-block": "block",
    "inline-flex": "flex",
    "inline-grid": "grid",
    "inline-table": "table",
    "table-row": "block",
    "table-cell": "block",
    "table-row-group": "block",
    "table-header-group": "block",
    "table-footer-group": "block",
    "table-column": "block",
    "table-column-group": "block",
    "table-caption": "block",
    "run-in": "block",
    "ruby": "block",
    "ruby-text": "block",
    "contents": "contents",
    "inline-list-item": "list-item",
}
_NO_KEYS: frozenset[str] = frozenset()
_ROOT_KEYS = frozenset({ROOT_KEY})
_FLEX_OR_GRID = frozenset({"flex", "inline-flex", "grid", "inline-grid"})
_QUIRKY_DOCTYPES = (
    "-//w3c//dtd html 4.01 transitional//",
    "-//w3c//dtd html 4.01 frameset//",
    "-//w3c//dtd html 4.0 transitional//",
    "-//w3c//dtd html 4.0 frameset//",
    "-//w3c//dtd html 3",
    "-//w3c//dtd html 2",
    "-//ietf//",
    "-//w3o//",
    "-//netscape comm. corp.//",
    "-//microsoft//",
    "-//softquad",
    "-//sun microsystems corp.//",
    "-//webtechs//",
    "-//spyglass//",
    "-//o'reilly and associates//",
    "-//metrius//",
    "-//as//dtd html 3",
    "-//advasoft ltd//",
)


@dataclass(frozen=True, slots=True)
class ComputedStyle:
    """What a stage needs to know about how an element looks."""

    font_size: float  # px
    font_weight: int  # 100..900, rounded to the hundred
    bold: bool  # font_weight >= 600
    italic: bool
    color: str  # "#rrggbb", or "#rrggbbaa" when not opaque
    font_family: str  # "serif" | "sans-serif" | "monospace" | "other"
    display: str
    visible: bool  # not display:none here or above, not visibility:hidden/collapse


@dataclass(slots=True, eq=False)  # identity: states are interned, and memo keys
class _State:
    font_size: float
    keyword_size: bool  # size derives from a keyword (drives the monospace size quirk)
    weight: float
    italic: bool
    color: str
    families: tuple[str, ...]
    display: str
    box_display: str  # display of the nearest ancestor-or-self that generates a box
    visibility: str
    hidden: bool
    customs: Mapping[str, str]
    style: ComputedStyle | None = None


_INITIAL = _State(
    font_size=_MEDIUM,
    keyword_size=True,
    weight=400.0,
    italic=False,
    color="#000000",
    families=("serif",),
    display="block",
    box_display="block",
    visibility="visible",
    hidden=False,
    customs={},
)


@lru_cache(maxsize=2)
def _ua_sheet(quirks: bool) -> tuple[Stylesheet, ...]:
    sheets = [parse_stylesheet(UA_CSS)]
    if quirks:
        sheets.append(parse_stylesheet(QUIRKS_UA_CSS))
    return tuple(sheets)


class DocumentKeys:
    """The ids ("#x") and classes (".x") of one document, read on first use: what a partial
    parse of its ``<style>`` blocks is filtered by (parse_stylesheet's ``present``)."""

    __slots__ = ("root", "_keys")

    def __init__(self, root: Any) -> None:
        self.root = root
        self._keys: frozenset[str] | None = None

    def keys(self) -> frozenset[str]:
        if self._keys is None:
            # the whole document: style() walks an element's ancestors up to its root
            ids = set(_IDS(self.root))
            # each distinct class attribute split once (pages repeat them: menu items, cards)
            classes = set(split_whitespace(" ".join(set(_CLASSES(self.root)))))  # as element_keys
            self._keys = frozenset(["#" + i for i in ids] + ["." + c for c in classes])
        return self._keys

    def served_by(self, sheet: Stylesheet) -> bool:
        """Whether ``sheet`` gives this document the complete sheet's styles."""
        return not sheet.absent or sheet.absent.isdisjoint(self.keys())


_IDS = etree.XPath("//@id", smart_strings=False)
_CLASSES = etree.XPath("//@class", smart_strings=False)


class BlockCache:
    """Parsed ``<style>`` texts by content, in two segments, each least recently used out
    first and bounded by the summed length of its texts: blocks seen once (``probation``,
    small) and blocks seen again (``max_chars``).

    Pages of a site repeat most of their blocks, and a crawl interleaves many sites: a block
    seen again gets the same :class:`Stylesheet` object, so its page also finds the site's
    selector index and memos (they are keyed by the identity of the sheets). Most blocks of a
    crawl across many sites are seen once (a page's own styles); they only pass through the
    small segment, so they do not fill the cache with objects that every full garbage
    collection walks.

    A block first seen with its document is parsed partially, for that document's ids and
    classes (most of a page's own rules style other pages' markup). The partial sheet serves
    every later document that lacks the keys it left out; the first one that has one of them
    gets a complete parse, which replaces it (``completed`` counts those)."""

    def __init__(
        self, max_chars: int = BLOCK_CHARS, max_text: int = 1024 * 1024, probation: int = BLOCK_PROBATION_CHARS
    ) -> None:
        self.max_chars = max_chars
        self.max_text = max_text  # longer texts are parsed every time, not held
        self.probation = probation
        self._sheets: OrderedDict[tuple[str, str | None], Stylesheet] = OrderedDict()
        self._once: OrderedDict[tuple[str, str | None], Stylesheet] = OrderedDict()
        self.chars = 0  # held in both segments
        self._once_chars = 0
        self.hits = 0
        self.misses = 0
        self.completed = 0
        self._lock = threading.Lock()

    def get(self, text: str, url: str | None, document: DocumentKeys | None = None) -> Stylesheet:
        """The block's sheet for ``document`` (partial or complete), or complete without one."""
        key = (text, url)
        with self._lock:  # resolvers may run in threads; the LRU update is several steps
            sheet = self._lookup(key)
            if sheet is None:
                self.misses += 1
        if sheet is not None:
            if not sheet.absent or (document is not None and document.served_by(sheet)):
                return sheet
            sheet = complete_stylesheet(sheet, text)  # for this document (or any)
        else:
            sheet = parse_stylesheet(
                text, url=url, cached=False, present=document.keys() if document is not None else None
            )
        if len(text) <= self.max_text:
            with self._lock:
                held = self._sheets.get(key) or self._once.get(key)
                if held is not None:
                    if not held.absent:  # completed meanwhile: keep one object
                        return held
                    if sheet.absent:  # both partial (another thread's document): keep it
                        return sheet
                    # the held partial sheet is replaced by the complete one
                    (self._sheets if key in self._sheets else self._once)[key] = sheet
                    self.completed += 1
                    return sheet
                self._once[key] = sheet
                self.chars += len(text)
                self._once_chars += len(text)
                while self._once_chars > self.probation:
                    (evicted, _url), _sheet = self._once.popitem(last=False)
                    self.chars -= len(evicted)
                    self._once_chars -= len(evicted)
        return sheet

    def holds(self, text: str, url: str | None) -> bool:
        key = (text, url)
        return key in self._sheets or key in self._once  # one lookup each: no lock needed

    def _lookup(self, key: tuple[str, str | None]) -> Stylesheet | None:
        """The held sheet (a second sighting moves it to the main segment); lock held."""
        sheet = self._sheets.get(key)
        if sheet is not None:
            self.hits += 1
            self._sheets.move_to_end(key)
            return sheet
        sheet = self._once.pop(key, None)
        if sheet is not None:  # seen again: into the main segment
            self.hits += 1
            self._once_chars -= len(key[0])
            self._sheets[key] = sheet
            while self.chars - self._once_chars > self.max_chars:
                (evicted, _url), _sheet = self._sheets.popitem(last=False)
                self.chars -= len(evicted)
        return sheet

    def clear(self) -> None:
        with self._lock:
            self._sheets.clear()
            self._once.clear()
            self.chars = self._once_chars = 0


_BLOCKS = BlockCache()
_IMPORT = re.compile("@import", re.I)


def parse_style_block(text: str, base_url: str | None = None, document: Any = None) -> Stylesheet:
    """A ``<style>`` element's text, parsed once per process while it stays in the block cache
    (:class:`BlockCache`, bounded). The page URL matters only to resolve
    ``@import``s, so other blocks are cached without it: the same block on every page of a
    site is one Stylesheet object, and the pages share the site's index and memos.
    With ``document`` (its lxml tree or root), the sheet may be partial: complete for that
    document (``Stylesheet.absent``)."""
    return _BLOCKS.get(text, _block_url(text, base_url), None if document is None else DocumentKeys(document))


def _block_url(text: str, base_url: str | None) -> str | None:
    """The URL a block is cached under: the page's only when the block imports."""
    return base_url if _IMPORT.search(text) else None


def _partial_parse_for(root: Any, blocks: list[tuple[str, str | None]]) -> DocumentKeys | None:
    """The document's keys, for partial parses of its <style> ``blocks`` (text, cache URL),
    when those not in the block cache hold at least PARTIAL_MIN_RULES rules: below that,
    reading the ids and classes of the whole document costs more than the rules it lets the
    parse skip (docs/decisions.md, "CSS: lazy rules for page-specific style blocks")."""
    found = 0
    for text, url in blocks:
        if not _BLOCKS.holds(text, url):
            found += text.count("{")
            if found >= PARTIAL_MIN_RULES:
                return DocumentKeys(root)
    return None


@text_cache(4096)
def _inline_declarations(text: str) -> tuple:
    return parse_declarations(text)


class _KeySpace:
    """How elements are described: the keys some rule looks at (ids, classes, tags and
    synthetic keys, see selectors.synthetic_key) and the attribute names that decide rules,
    with the memos that depend on nothing else: own keys per (tag, id, class), interned key
    chains, and the outcome of chain-decided selectors per chain.

    Indexes of one site (its pages combine their <style> blocks differently) share one key
    space covering all their keys, so a page whose blocks make a new index still finds its
    elements' chains and selector outcomes; only the candidate rules per chain are the
    index's own. A key space describing more keys than an index needs only makes chains
    finer: candidates are found by set inclusion, which extra keys do not change."""

    MAX_MEMO = MEMO_ENTRIES
    MAX_OUTCOMES = CHAIN_OUTCOMES

    def __init__(
        self, relevant: frozenset[str], synthetic: tuple[tuple[str, Any], ...], attr_names: frozenset[str]
    ) -> None:
        self.relevant = relevant
        self.synthetic = synthetic
        self.synthetic_keys = frozenset(key for key, _test in synthetic)
        # Whether an element's id and class attribute can change its description: not where no
        # key is an id or class and no synthetic test reads them (the user-agent sheet alone, the
        # cascade of a page given without stylesheets); there elements that differ only by them
        # share their memo entries (StyleResolver._state).
        self.reads_names = bool(synthetic) or any(key[:1] in ("#", ".") for key in relevant)
        self._absent, self._present, self._other = split_key_tests(synthetic)
        self.attr_names = attr_names
        # Key sets are interned (equal sets are one object): (tag, id, class) -> own keys,
        # (parent chain, own keys) -> chain. Signatures hash and compare by identity.
        self._interned: dict[frozenset[str], frozenset[str]] = {}
        self._own_memo: dict[tuple, frozenset[str]] = {}
        self._chains: dict[tuple, _Chain] = {}
        self._chain_memo: dict[tuple, bool] = {}  # (plain selector, compound, chain) -> match
        self._selectors: dict[int, Any] = {}  # those the chain memo names
        self._unions: dict[tuple, frozenset[str]] = {}

    def covers(self, relevant: frozenset[str], synthetic: frozenset[str], attr_names: frozenset[str]) -> bool:
        return relevant <= self.relevant and synthetic <= self.synthetic_keys and attr_names <= self.attr_names

    def own_keys(self, tag: Any, element_id: str | None, classes: str | None) -> frozenset[str]:
        """The keys some rule looks at of an element with this tag, id and class attribute
        (interned; memoised per tag/id/class)."""
        key = (tag, element_id, classes)
        found = self._own_memo.get(key)
        if found is None:
            held = memorable(element_id, classes)  # long attributes: never held
            if held and len(self._own_memo) >= self.MAX_MEMO:
                self._own_memo.clear()
            keys = keys_of(tag, element_id, classes)
            own = self.relevant.intersection(keys)
            if self.synthetic:  # decided by tag, id and class: once per memo entry
                matched = [name for name, names in self._absent if names.isdisjoint(keys)]
                matched += [name for name, names in self._present if not names.isdisjoint(keys)]
                matched += [name for name, test in self._other if test(keys, key[1], key[2])]
                if matched:
                    own = own.union(matched)
            found = self._intern(own)
            if held:
                self._own_memo[key] = found
        return found

    def chain(self, parent: _Chain, own: frozenset[str]) -> _Chain:
        """The chain of an element with these own keys under ``parent`` (interned)."""
        if parent is _ROOT_PARENT and ROOT_KEY in self.relevant:
            own = self._intern(own | _ROOT_KEYS)  # the document's root element
        # ids, not the objects: a key of ints is not tracked by the garbage collector; the
        # chain holds its parent and own keys, so the ids stay theirs while the entry lives
        key = (id(parent), id(own))
        found = self._chains.get(key)
        if found is None:
            if len(self._chains) >= self.MAX_MEMO:
                self._chains.clear()
                self._chain_memo.clear()
                self._selectors.clear()
                self._unions.clear()
            ancestors = parent.inclusive
            inclusive = ancestors
            if not own <= ancestors:
                # ids (an untracked key): the chain made below holds both sets, and the two
                # memos are cleared together
                pair = (id(ancestors), id(own))
                union = self._unions.get(pair)
                if union is None:
                    union = self._unions[pair] = self._intern(ancestors | own)
                inclusive = union
            found = self._chains[key] = _Chain(own, parent, ancestors, inclusive)
        return found

    def _intern(self, keys: frozenset[str]) -> frozenset[str]:
        found = self._interned.get(keys)
        if found is None:
            if len(self._interned) >= self.MAX_MEMO:
                self._interned.clear()
            found = self._interned[keys] = keys
        return found

    def chain_matches(self, selector: Any, i: int, chain: _Chain) -> bool:
        """Whether compounds i.. of a plain selector match the element of ``chain`` (and its
        ancestors): set inclusions along the chain, memoised per key space, so across pages
        and indexes."""
        # Keys of ids (not tracked by the garbage collector): chains live in self._chains and
        # selectors in self._selectors as long as the entries naming them.
        key = (id(selector), i, id(chain))
        found = self._chain_memo.get(key)
        if found is None:
            if i == 0 and len(self._chain_memo) >= self.MAX_OUTCOMES:  # not mid-recursion
                self._chain_memo.clear()
                self._selectors.clear()
            self._selectors.setdefault(id(selector), selector)
            found = False
            if selector.keys[i] <= chain.own:
                combinator = selector.parts[i][1]
                parent = chain.parent
                if combinator is None:
                    found = True
                elif combinator == ">":
                    found = parent is not _ROOT_PARENT and self.chain_matches(selector, i + 1, parent)  # type: ignore[arg-type]
                else:  # " ": some ancestor; memo per chain start, so deep trees stay linear
                    path = []
                    while parent is not _ROOT_PARENT:
                        above = (id(selector), i + 1, "a", id(parent))  # it or one above
                        known = self._chain_memo.get(above)
                        if known is not None:
                            found = known
                            break
                        if self.chain_matches(selector, i + 1, parent):  # type: ignore[arg-type]
                            found = self._chain_memo[above] = True
                            break
                        path.append(above)
                        parent = parent.parent  # type: ignore[union-attr]  # _ROOT_PARENT ends the walk
                    for above in path:
                        self._chain_memo[above] = found
            self._chain_memo[key] = found
        return found


class _KeySpaces:
    """The key spaces in use, most recently used last (at most MAX). A new index takes one that
    covers its keys; else it widens the one that holds most of its author sheets' keys (at
    least MIN_OVERLAP of them: the same site; the user-agent keys every index has do not
    count), which then replaces it; else it starts one."""

    MAX = 16
    MIN_OVERLAP = 0.8
    SAMPLE = 64  # author keys looked up per space (a site's sheets hold thousands)
    MAX_GROWTH = 2.0  # a widened space holds at most this many times the index's keys

    def __init__(self) -> None:
        self._spaces: list[_KeySpace] = []
        self._lock = threading.Lock()

    def find(
        self, relevant: frozenset[str], author: frozenset[str], synthetic: dict[str, Any], attr_names: frozenset[str]
    ) -> _KeySpace:
        names = frozenset(synthetic)
        sample = list(islice(author, self.SAMPLE))  # overlap estimated on some author keys
        with self._lock:
            best, overlap = None, 0.0
            for space in reversed(self._spaces):
                if space.covers(relevant, names, attr_names):
                    self._spaces.remove(space)
                    self._spaces.append(space)
                    return space
                known = space.relevant
                shared = sum(1 for key in sample if key in known) / max(1, len(sample))
                if shared > overlap:
                    best, overlap = space, shared
            if (
                best is not None
                and overlap >= self.MIN_OVERLAP
                and len(best.relevant | relevant) <= self.MAX_GROWTH * max(1, len(relevant))
            ):
                self._spaces.remove(best)
                merged = dict(best.synthetic)
                for key, test in synthetic.items():
                    if len(merged) >= _CombinedIndex.MAX_SYNTHETIC:
                        break
                    merged.setdefault(key, test)
                space = _KeySpace(best.relevant | relevant, tuple(merged.items()), best.attr_names | attr_names)
            else:
                space = _KeySpace(relevant, tuple(synthetic.items())[: _CombinedIndex.MAX_SYNTHETIC], attr_names)
            self._spaces.append(space)
            if len(self._spaces) > self.MAX:
                del self._spaces[0]
            return space

    def clear(self) -> None:
        with self._lock:
            self._spaces.clear()


_SPACES = _KeySpaces()


class _CombinedIndex:
    """All sheets of a cascade in one index (rules whose @media fails already left out), and a
    memo of the candidate rules per element signature. Pages of a site share their sheets, so
    one index serves many pages; indexes of a site share a key space (_KeySpace)."""

    MAX_MEMO = MEMO_ENTRIES
    MAX_SYNTHETIC = 256

    def __init__(self, sheets: tuple[Stylesheet, ...], ua_count: int, viewport: tuple[int, int]) -> None:
        prepared = [_prepared(sheet, viewport) for sheet in sheets]
        relevant: set[str] = set()
        author: set[str] = set()
        attr_names: set[str] = set()
        wanted: dict[str, Any] = {}
        for position, sheet_prepared in enumerate(prepared):
            relevant |= sheet_prepared.relevant
            if position >= ua_count:
                author |= sheet_prepared.relevant
            attr_names |= sheet_prepared.attr_names
            for key, test in sheet_prepared.synthetic.items():
                wanted.setdefault(key, test)
        # Keys some rule looks at. Elements are described by these only (post-123, the page's
        # own ids...), so signatures repeat across the pages of a site and memos carry over.
        # Synthetic keys are evaluated per (tag, id, class), at most MAX_SYNTHETIC of them (a
        # hostile sheet cannot make each new element cost thousands of tests); selectors with
        # others are tested per element.
        wanted = dict(list(wanted.items())[: self.MAX_SYNTHETIC])
        self.space = _SPACES.find(frozenset(relevant), frozenset(author), wanted, frozenset(attr_names))
        evaluated = self.space.synthetic_keys
        # Attribute names in signatures: those rules are indexed by, and those whose presence
        # decides a selector (see Selector.presence).
        self.attr_names = self.space.attr_names
        # Entries (selector, rule, cascade key, own, parent_own, required, mode) by the element
        # key of their rightmost compound ("#id", ".class", "tag", synthetic), by attribute
        # name, or neither. mode: _IMPLIED, _PLAIN (decided per chain), _RESIDUAL (chain and
        # an element test) or _TESTED (per element). by_key: key -> (entries needing nothing
        # of the ancestors, {a key some ancestor must have: entries}).
        self.by_key: dict[str, tuple[list, dict[str, list]]] = {}
        self.by_attr: dict[str, list] = {}
        self.universal: list = []
        owned: set[str] = set()  # keys whose lists this index made (the others are shared)
        for position, sheet_prepared in enumerate(prepared):
            base = (position << 32) + (_AUTHOR if position >= ua_count else 0)
            by_key, by_attr, universal = sheet_prepared.entries(base, evaluated)
            for key, pair in by_key.items():
                merged = self.by_key.get(key)
                if merged is None:  # one sheet's (most keys): its cached lists, never changed
                    self.by_key[key] = pair
                    continue
                if key not in owned:  # a second sheet: copy before merging
                    merged = self.by_key[key] = (
                        list(merged[0]),
                        {anchor: list(group) for anchor, group in merged[1].items()},
                    )
                    owned.add(key)
                merged[0].extend(pair[0])
                for anchor, entries in pair[1].items():
                    merged[1].setdefault(anchor, []).extend(entries)
            for name, entries in by_attr.items():
                self.by_attr.setdefault(name, []).extend(entries)
            self.universal += universal
        self._memo: dict[tuple, _Candidates] = {}
        self.elements: dict[tuple, tuple] = {}
        self.layer_memo: dict[tuple[int, ...], tuple] = {}  # see StyleResolver._layers_of

    def remember(
        self,
        key: tuple,
        chain: _Chain,
        candidates: _Candidates,
        state: _State | dict,
        parent_state: _State,
        parent_chain: _Chain,
    ) -> tuple:
        """Memo of (chain, candidates, state, or states by test outcome when per-element
        tests decide) per element description (see StyleResolver._state). The key names the parent state and chain by
        id (a key of ints and strings is not tracked by the garbage collector); the entry
        holds them, so the ids stay theirs while it lives."""
        if len(self.elements) >= self.MAX_MEMO:
            self.elements.clear()
        found = self.elements[key] = (chain, candidates, state, parent_state, parent_chain)
        return found

    def candidates(self, chain: _Chain, attributes: tuple[str, ...]) -> _Candidates:
        """Rules that can match an element of this chain with these of the indexed attribute
        names: by index key, then by the keys the element, its parent and its ancestors must
        have (cached per signature). Selectors of tags, ids, classes and ancestor combinators
        only are decided here, once per chain: their outcome depends on nothing else."""
        signature = (id(chain), attributes)  # the candidates hold the chain (see chain())
        found = self._memo.get(signature)
        if found is not None:
            return found
        own_keys, parent_keys, ancestor_keys = chain.own, chain.parent_own, chain.ancestors
        present = frozenset(attributes)
        entries: list[tuple] = []
        by_key = self.by_key
        for key in own_keys:
            found_entries = by_key.get(key)
            if found_entries is not None:
                free, anchored = found_entries
                entries += free
                if len(anchored) <= len(ancestor_keys):
                    for anchor, group in anchored.items():
                        if anchor in ancestor_keys:
                            entries += group
                else:
                    for anchor in ancestor_keys:
                        group = anchored.get(anchor)  # type: ignore[assignment]
                        if group is not None:
                            entries += group
        for name in attributes:
            entries += self.by_attr.get(name, ())
        entries += self.universal
        implied: list[tuple] = []
        tested: list[tuple] = []
        residual: list[Any] = []  # per tested entry: its element test, or None: matches()
        space = self.space
        for e in [e for e in entries if e[3] <= own_keys and e[4] <= parent_keys and e[5] <= ancestor_keys]:
            mode = e[6]
            if mode is _IMPLIED:
                implied.append(e)
            elif mode is _PLAIN:
                selector = e[0]
                if selector.presence <= present and space.chain_matches(selector, 0, chain):
                    implied.append(e)
            elif mode is _RESIDUAL:  # the chain decides all but the residual element test
                if space.chain_matches(e[0], 0, chain):
                    tested.append(e)
                    residual.append(e[0].residual)
            else:
                tested.append(e)
                residual.append(None)
        found = _Candidates(chain, implied, tested, residual)
        if len(self._memo) >= self.MAX_MEMO:
            self._memo.clear()
        self._memo[signature] = found
        return found


class _Chain:
    """An element's relevant keys, its parent's, and its ancestors' (union): what decides
    selectors made of tags, ids, classes and ancestor combinators. Interned per index, so
    identical chains (every page of a site repeats its templates) are one object."""

    __slots__ = ("own", "parent", "parent_own", "ancestors", "inclusive")

    def __init__(
        self, own: frozenset[str], parent: _Chain | None, ancestors: frozenset[str], inclusive: frozenset[str]
    ) -> None:
        self.own = own
        self.parent = parent  # _ROOT_PARENT above the root element
        self.parent_own = parent.own if parent is not None else _NO_KEYS
        self.ancestors = ancestors
        self.inclusive = inclusive  # ancestors | own


_ROOT_PARENT = _Chain(_NO_KEYS, None, _NO_KEYS, _NO_KEYS)


class _Candidates:
    """Rules that may match elements of one signature (key chain, attribute names): those
    the signature proves match, and those left to test per element (``:empty``,
    ``:first-child``, sibling combinators...). The merged declarations are cached per outcome
    of the tests (``layers``: a dict by outcome, or without tests the merged declarations
    themselves), so most elements cost a few dict lookups."""

    __slots__ = ("chain", "implied", "tested", "selectors", "layers")

    def __init__(self, chain: _Chain, implied: list[tuple], tested: list[tuple], residual: list[Any]) -> None:
        self.chain = chain  # keeps the id in the memo key its own
        # tuples: the empty one is shared and not tracked by the garbage collector
        self.implied = tuple(implied)
        self.tested = tuple(tested)
        self.selectors = tuple([(test, entry[0]) for test, entry in zip(residual, tested)])
        self.layers: Any = {} if tested else None  # dict by outcome, or the merged tuple (see above)


_PREPARED: WeakKeyDictionary[Stylesheet, dict[tuple[int, int], _Prepared]] = WeakKeyDictionary()


class _Prepared:
    """What an index needs of one sheet for one viewport (see _prepared)."""

    __slots__ = ("rules", "relevant", "synthetic", "attr_names", "_entries")

    def __init__(
        self, rules: tuple[Rule, ...], relevant: set[str], synthetic: dict[str, Any], attr_names: set[str]
    ) -> None:
        self.rules = rules  # those whose @media matches (the sheet's own tuple if all do)
        self.relevant = relevant  # keys its selectors look at (index keys included)
        self.synthetic = synthetic  # synthetic key -> test
        self.attr_names = attr_names  # attribute names it indexes by or tests presence of
        self._entries: dict[tuple, tuple] = {}

    def entries(self, base: int, evaluated: frozenset[str]) -> tuple[dict, dict, list]:
        """The sheet's index entries (selector, rule, cascade key, own, parent_own, required,
        mode) by element key, by attribute name and universal, for a sheet at cascade
        position ``base`` in an index whose key space evaluates these synthetic keys. Pages of
        a site put their sheets at the same positions, so their indexes share these (fewer
        objects to build and for the garbage collector to walk)."""
        # only the sheet's own synthetic keys matter: spaces widened by other sheets reuse these
        evaluated = evaluated.intersection(self.synthetic) if self.synthetic else _NO_KEYS
        key = (base, evaluated)
        found = self._entries.get(key)
        if found is None:
            if len(self._entries) >= 8:
                self._entries.clear()
            found = self._entries[key] = self._build_entries(base, evaluated)
        return found

    def _build_entries(self, base: int, evaluated: frozenset[str]) -> tuple[dict, dict, list]:
        by_key: dict[str, tuple[list, dict[str, list]]] = {}
        by_attr: dict[str, list] = {}
        universal: list = []
        for rule in self.rules:
            for selector in rule.selectors:
                kind, value = selector.key
                own, parent_own, required = selector.own, selector.parent_own, selector.required
                mode = (
                    _IMPLIED
                    if selector.implied
                    else _PLAIN
                    if selector.plain
                    else _RESIDUAL
                    if selector.residual is not None
                    else _TESTED
                )
                if selector.synthetic:
                    missing = [k for k, _test in selector.synthetic if k not in evaluated]
                    if missing:  # keys this index does not give elements: test per element
                        own, parent_own, required = (keys.difference(missing) for keys in (own, parent_own, required))
                        mode = _TESTED
                    elif kind in ("attr", "*"):  # "[class*=x]", ":not(.a)": by that key
                        keyed = sorted(k for k in own if k[:1] == "~")
                        if keyed:
                            kind, value = "key", keyed[0]
                # cascade key: origin and source order; the key sets unpacked for candidates()
                entry = (selector, rule, base + rule.order, own, parent_own, required, mode)
                if kind == "*":
                    universal.append(entry)
                elif kind == "attr":
                    by_attr.setdefault(value, []).append(entry)
                else:
                    key = value if kind == "key" else _KEY_PREFIXES[kind] + value
                    free, anchored = by_key.setdefault(key, ([], {}))
                    anchors = parent_own | required  # keys some ancestor must have
                    if anchors:  # filed under the most selective: looked at only when present
                        anchor = min(anchors, key=_anchor_rank)
                        anchored.setdefault(anchor, []).append(entry)
                    else:
                        free.append(entry)
        return by_key, by_attr, universal


def _anchor_rank(key: str) -> tuple[int, str]:
    """Ids before classes before synthetic keys before tags (``div`` is above most elements)."""
    return _ANCHOR_RANKS.get(key[:1], 3), key


_ANCHOR_RANKS = {"#": 0, ".": 1, "~": 2}


def _prepared(sheet: Stylesheet, viewport: tuple[int, int]) -> _Prepared:
    """A sheet's entries, keys and attribute names for one viewport, computed once (indexes
    are rebuilt per new combination of a page's <style> blocks, so this part is shared)."""
    per_viewport = _PREPARED.setdefault(sheet, {})
    found = per_viewport.get(viewport)
    if found is None:
        rules = tuple(
            [rule for rule in sheet.rules if not rule.media or all(media_matches(m, viewport) for m in rule.media)]
        )
        relevant: set[str] = set()
        synthetic: dict[str, Any] = {}
        attr_names: set[str] = set()
        for rule in rules:
            for selector in rule.selectors:
                kind, value = selector.key
                relevant.update(selector.own, selector.parent_own, selector.required)
                if kind in _KEY_PREFIXES:
                    relevant.add(_KEY_PREFIXES[kind] + value)
                elif kind == "attr":
                    attr_names.add(value)
                attr_names.update(selector.presence)
                for key, test in selector.synthetic:
                    synthetic.setdefault(key, test)
        found = per_viewport[viewport] = _Prepared(
            sheet.rules if len(rules) == len(sheet.rules) else rules, relevant, synthetic, attr_names
        )
    return found


@lru_cache(maxsize=INDEXES)
def _combined_index(
    ua: tuple[Stylesheet, ...], author: tuple[Stylesheet, ...], viewport: tuple[int, int]
) -> _CombinedIndex:
    return _CombinedIndex(ua + author, len(ua), viewport)


class _Shared:
    """Memos that hold for any index, so pages share them across combinations of sheets (a
    site whose pages mix their <style> blocks differently): merged declarations per
    cascade-ordered rule list, computed states per (parent state, merged declarations, inline
    style), interned custom-property maps and var() substitutions. Entries hold the objects
    whose ids their keys use, so an id never names another object while its entry lives."""

    MAX = SHARED_ENTRIES

    def __init__(self) -> None:
        self.merged: dict[tuple, tuple] = {}
        self.states: dict[tuple, tuple] = {}
        self.customs: dict[tuple, tuple] = {}
        self.vars: dict[tuple, tuple] = {}

    def clear(self) -> None:
        for memo in (self.merged, self.states, self.customs, self.vars):
            memo.clear()

    def intern_customs(self, parent: Mapping[str, str], own: dict[str, str]) -> dict[str, str]:
        """``{**parent, **own}``, one dict per (parent map, declarations): var() results are
        then memoised per map identity."""
        key = (id(parent), tuple(own.items()))
        found = self.customs.get(key)
        if found is None:
            if len(self.customs) >= self.MAX:
                self.customs.clear()
                self.vars.clear()
            found = self.customs[key] = ({**parent, **own}, parent)
        return found[0]


_SHARED = _Shared()


def _norm_url(url: str) -> str:
    return url.split("#", 1)[0]


def is_quirks_mode(root: Any) -> bool:
    """Whether browsers would render this document in quirks mode (no or legacy doctype)."""
    try:
        docinfo = root.getroottree().docinfo
    except AttributeError:
        return False
    if not docinfo.doctype:
        return True
    public_id = (docinfo.public_id or "").lower()
    if public_id.startswith(_QUIRKY_DOCTYPES[:2]) and not docinfo.system_url:
        return True
    return public_id.startswith(_QUIRKY_DOCTYPES[2:])


class StyleResolver:
    """Computed styles of one document's elements, on demand.

    ``stylesheets`` are parsed external sheets (``Stylesheet.url`` matched to the document's
    ``<link rel=stylesheet href>`` and to @import URLs); sheets no link or import refers to (or
    without a URL) apply after the document's own, in the order given; a ``str`` is taken as the
    text of a ``<style>`` element (parsed once per process, like the ``<style>`` elements still
    in the tree). ``style_elements=False`` leaves the document's ``<style>`` elements out of the
    cascade (its ``<link>`` elements still order the given sheets): see newscrawl.page.Page.
    """

    def __init__(
        self,
        root: Any,
        stylesheets: Iterable[Stylesheet | str] = (),
        *,
        viewport: tuple[int, int] = DEFAULT_VIEWPORT,
        base_url: str | None = None,
        quirks: bool | None = None,
        style_elements: bool = True,
    ) -> None:
        if hasattr(root, "getroot"):
            root = root.getroot()
        self.root = root
        self.viewport = (int(viewport[0]), int(viewport[1]))
        self.quirks = is_quirks_mode(root) if quirks is None else quirks
        # one walk for <link>, <style> and <base> (each walk of a page costs ~0.05 ms)
        found = list(root.iter("link", "style", "base") if style_elements else root.iter("link", "base"))
        self.base_url = self._base(
            base_url or getattr(root, "base_url", None), next((el for el in found if el.tag == "base"), None)
        )
        self._registry = NodeRegistry()
        self._memo: dict = {}
        self._states: dict[Any, _State] = {}
        self._chains: dict[Any, _Chain] = {}
        self._root_font_size = _MEDIUM
        # <link> elements (None), and <style> elements with their text and cache URL (read
        # once: lxml makes a new string at every read, and the URL takes a search of the text)
        elements = [(el, None if el.tag == "link" else self._block(el.text or "")) for el in found if el.tag != "base"]
        given = [self._block(s) if isinstance(s, str) else s for s in stylesheets]
        document = _partial_parse_for(
            root, [block for _el, block in elements if block is not None] + [s for s in given if isinstance(s, tuple)]
        )
        sheets = [_BLOCKS.get(*s, document) if isinstance(s, tuple) else s for s in given]
        self._index = _combined_index(
            _ua_sheet(self.quirks), tuple(self._order(sheets, elements, document)), self.viewport
        )

    # --- stylesheet order ------------------------------------------------------------------------
    def _block(self, text: str) -> tuple[str, str | None]:
        return text, _block_url(text, self.base_url)

    @staticmethod
    def _base(url: str | None, base: Any) -> str | None:
        """The document's base URL: the first <base>'s href, if it has one."""
        href = base.get("href") if base is not None else None
        if href:
            return join_url(url, href.strip()) or url  # a malformed <base> is ignored
        return url

    def _order(
        self,
        provided: list[Stylesheet],
        elements: list[tuple[Any, tuple[str, str | None] | None]],
        document: DocumentKeys | None,
    ) -> list[Stylesheet]:
        by_url: dict[str, Stylesheet] = {}
        imported: set[str] = set()  # URLs imported or linked: not "unlinked" sheets
        for sheet in provided:
            if sheet.url:
                by_url.setdefault(_norm_url(sheet.url), sheet)
            imported.update(_norm_url(i.url) for i in sheet.imports)
        ordered: list[Stylesheet] = []
        seen: set[int] = set()
        add = partial(self._add_sheet, by_url=by_url, seen=seen, ordered=ordered)

        other_links: list[str] = []  # hrefs of other links, resolved only if needed below
        for el, block in elements:
            if block is None:  # a <link>
                if not provided:  # no sheet for it to name (resolving its URL is the cost)
                    continue
                href = (el.get("href") or "").strip()
                if not href:
                    continue
                rel = (el.get("rel") or "").lower().split()
                if "stylesheet" not in rel or "alternate" in rel:
                    other_links.append(href)
                    continue
                joined = join_url(self.base_url, href)
                if joined is None:  # malformed: names no sheet
                    continue
                url = _norm_url(joined)
                imported.add(url)  # linked: never appended as an unlinked sheet
            media = el.get("media")
            if media is not None and not media_matches(media, self.viewport):
                continue
            if block is None:
                sheet = by_url.get(url)  # type: ignore[assignment]
                if sheet is None or id(sheet) in seen:
                    continue
            else:
                kind = (el.get("type") or "text/css").strip().lower()
                if kind not in ("text/css", ""):
                    continue
                sheet = _BLOCKS.get(*block, document)
                if id(sheet) in seen:
                    continue
            add(sheet)
        unlinked = [sheet for sheet in provided if id(sheet) not in seen]
        if unlinked and other_links:  # a sheet any link names is not "unlinked" either
            imported.update(_norm_url(url) for url in (join_url(self.base_url, href) for href in other_links) if url)
        for sheet in unlinked:
            if id(sheet) not in seen and not (sheet.url and _norm_url(sheet.url) in imported):
                add(sheet)
        return ordered

    def _add_sheet(
        self, sheet: Stylesheet, *, by_url: dict[str, Stylesheet], seen: set[int], ordered: list[Stylesheet]
    ) -> None:
        """Append ``sheet`` to ``ordered`` after the sheets it imports (depth-first, iterative;
        not a recursive closure: that would be a reference cycle holding the resolver)."""
        seen.add(id(sheet))
        if not media_matches(sheet.media, self.viewport):
            return
        stack = [(sheet, 0, iter(sheet.imports))]
        while stack:
            current, depth, imports = stack[-1]
            child = None
            if depth < MAX_IMPORT_DEPTH:
                for imp in imports:
                    found = by_url.get(_norm_url(imp.url))
                    if found is not None and id(found) not in seen and media_matches(imp.media, self.viewport):
                        seen.add(id(found))
                        if media_matches(found.media, self.viewport):
                            child = found
                            break
            if child is None:
                stack.pop()
                ordered.append(current)
            else:
                stack.append((child, depth + 1, iter(child.imports)))

    # --- public ----------------------------------------------------------------------------------
    def style(self, element: Any) -> ComputedStyle:
        """The computed style of ``element`` (memoised)."""
        state = self._state(element)
        if state.style is None:
            weight = int(min(900, max(100, round(state.weight / 100.0) * 100)))
            state.style = ComputedStyle(
                font_size=state.font_size,
                font_weight=weight,
                bold=weight >= 600,
                italic=state.italic,
                color=state.color,
                font_family=family_category(state.families),
                display=state.display,
                visible=not state.hidden and state.visibility == "visible",
            )
        return state.style

    # --- computation -----------------------------------------------------------------------------
    def _state(self, element: Any) -> _State:
        states = self._states
        state: Any = states.get(element)
        if state is not None:
            return state
        missing = []
        current = element
        parent_state, parent_chain = _INITIAL, _ROOT_PARENT
        while current is not None:
            known = states.get(current)
            if known is not None:
                parent_state, parent_chain = known, self._chains[current]
                break
            missing.append(current)
            current = current.getparent()
        is_root = current is None  # the top of the chain is the document's root
        index = self._index
        seen = index.elements
        attr_names = index.attr_names
        reads_names = index.space.reads_names
        chains = self._chains
        for el in reversed(missing):
            tag = el.tag
            if isinstance(tag, str):  # not a comment or processing instruction
                attributes: tuple[str, ...] = ()
                if attr_names:
                    names = el.keys()
                    if not attr_names.isdisjoint(names):
                        attributes = tuple([name for name in names if name in attr_names])
                inline_text = el.get("style")
                element_id, classes = (el.get("id"), el.get("class")) if reads_names else (None, None)
                # Everything an element's chain and state depend on, but per-element selector
                # tests: elements repeating their parent's state and their own tag, id, class,
                # attribute names and inline style (list items, every page's header and
                # menus) cost one lookup.
                key = (id(parent_state), id(parent_chain), tag, element_id, classes, attributes, inline_text, is_root)
                found = seen.get(key)
                if found is None:
                    space = index.space
                    chain = space.chain(parent_chain, space.own_keys(tag, element_id, classes))
                    candidates = index.candidates(chain, attributes)
                    # without per-element tests the state; with them, states by outcome
                    state = {}
                    if not candidates.selectors:
                        state = self._compute(el, parent_state, candidates, (), inline_text, is_root)
                    if memorable(inline_text, element_id, classes):
                        found = index.remember(key, chain, candidates, state, parent_state, parent_chain)
                    else:  # long attributes: computed for this element, never held (textcache)
                        found = (chain, candidates, state, parent_state, parent_chain)
                parent_chain, candidates, state, _parent_state, _parent_chain = found
                if type(state) is dict:  # decided by per-element selector tests
                    outcome = self._outcome(el, candidates)
                    by_outcome = state
                    state = by_outcome.get(outcome)
                    if state is None:
                        state = by_outcome[outcome] = self._compute(
                            el, parent_state, candidates, outcome, inline_text, is_root
                        )
                parent_state = state
                if is_root:
                    self._root_font_size = state.font_size  # rem lengths below refer to it
            is_root = False
            states[el] = parent_state
            chains[el] = parent_chain
        return parent_state

    def _compute(
        self,
        element: Any,
        parent: _State,
        candidates: _Candidates,
        outcome: tuple[bool, ...],
        inline_text: str | None,
        is_root: bool,
    ) -> _State:
        """The element's state; elements with the same parent state, matching rules and
        inline style (list items, repeated teasers) share one."""
        layers = self._layers_for(candidates, outcome)
        # A state depends on nothing else (the root's font size, for rem, is the root state's;
        # quirks and viewport are the resolver's), so pages share states, across indexes too.
        key = (id(parent), id(layers), inline_text, is_root, self.quirks, self.viewport)
        states = _SHARED.states
        found = states.get(key)
        if found is None:
            if len(states) >= _SHARED.MAX:
                states.clear()
            state = self._compute_state(layers, inline_text, parent, is_root)
            found = states[key] = (state, parent, layers)
        return found[0]

    def _outcome(self, element: Any, candidates: _Candidates) -> tuple[bool, ...]:
        """Results of the candidates' per-element selector tests on ``element``."""
        node = None
        results = []
        for test, selector in candidates.selectors:
            if test is not None:
                results.append(test(element))
            else:
                if node is None:
                    node = self._registry.node(element)
                results.append(selector.matches(node, self._memo))
        return tuple(results)

    def _layers_for(self, candidates: _Candidates, outcome: tuple[bool, ...]) -> tuple:
        """Merged declarations of the candidates that match (cached per test outcome)."""
        if not candidates.selectors:
            layers = candidates.layers
            if layers is None:
                layers = candidates.layers = self._layers_of(list(candidates.implied))
            return layers
        by_outcome = candidates.layers
        layers = by_outcome.get(outcome)
        if layers is None:
            matching = [*candidates.implied, *[e for e, ok in zip(candidates.tested, outcome) if ok]]
            layers = by_outcome[outcome] = self._layers_of(matching)
        return layers

    def _layers_of(self, entries: list[tuple]) -> tuple:
        """_layers, memoised per index by the entries' identities (chains of a site match the
        same few rule lists: 252 distinct among 2,253 on 30 WyoFile pages). The index holds
        its entries, so their ids stay theirs while the memo lives."""
        memo = self._index.layer_memo
        key = tuple([id(entry) for entry in entries])
        found = memo.get(key)
        if found is None:
            if len(memo) >= _CombinedIndex.MAX_MEMO:
                memo.clear()
            found = memo[key] = self._layers(entries)
        return found

    def _declared(self, layers: tuple, inline_text: str | None) -> tuple[dict[str, Any], dict[str, str]]:
        """Declared values: matching rules, then inline style, then the !important ones."""
        normal, normal_customs, important, important_customs = layers
        if not inline_text and not important and not important_customs:
            return normal, normal_customs  # shared, read-only
        declared, customs = dict(normal), dict(normal_customs)
        inline = _inline_declarations(inline_text) if inline_text else ()
        for declaration in inline:
            if not declaration[2]:
                self._put(declared, customs, declaration)
        declared.update(important)
        customs.update(important_customs)
        for declaration in inline:
            if declaration[2]:
                self._put(declared, customs, declaration)
        return declared, customs

    def _layers(self, entries: list[tuple]) -> tuple:
        """Declared values (and custom properties) of matching rules, normal and !important
        apart, in cascade order: origin, specificity, source order."""
        best: dict[int, tuple] = {}
        for entry in entries:  # (selector, rule, cascade key, ...): no starred unpacking
            selector, rule, sheet_key = entry[0], entry[1], entry[2]
            spec = selector.specificity
            previous = best.get(sheet_key)
            if previous is None or previous[0] < spec:
                best[sheet_key] = (spec, rule)
        # keys are unique, so sorting never compares rules
        matched = sorted((key >= _AUTHOR, spec, key, rule) for key, (spec, rule) in best.items())
        # Elements of any signature and index matching the same rules in the same order (and
        # origins) get one layers object, so they share computed states too. What is merged is
        # the rules' declarations (and origins): the key names those tuples by id and the entry
        # pins them, not the rules, whose selectors (compiled tests, key sets: ~14 tracked
        # objects a rule) would otherwise stay for every garbage collection to walk long after
        # their sheets left the caches; declarations hold strings and numbers (untracked).
        declarations = tuple([m[3].declarations for m in matched])
        merged_key = (self.quirks, tuple([(id(d), m[0]) for d, m in zip(declarations, matched)]))
        found = _SHARED.merged.get(merged_key)
        if found is None:
            if len(_SHARED.merged) >= _SHARED.MAX:
                _SHARED.merged.clear()
            found = _SHARED.merged[merged_key] = (self._merge(matched, declarations), declarations)
        return found[0]

    def _merge(self, matched: list[tuple], declarations: tuple[tuple, ...]) -> tuple:
        layers: list[dict] = []
        for important in (False, True):
            declared: dict[str, Any] = {}
            customs: dict[str, str] = {}
            for (author, _spec, _order, _rule), rule_declarations in zip(matched, declarations):
                if important and not author:
                    continue
                for declaration in rule_declarations:
                    if declaration[2] == important:
                        self._put(declared, customs, declaration)
            layers += [declared, customs]
        return tuple(layers)

    def _put(self, declared: dict, customs: dict, declaration: tuple) -> None:
        prop, value, _important, pending = declaration
        if prop.startswith("--"):
            customs[prop] = pending
        elif pending is not None:
            if prop == "font":
                for longhand in ("font-style", "font-weight", "font-size", "font-family"):
                    declared[longhand] = ("pending", "font", pending)
            else:
                declared[prop] = ("pending", prop, pending)
        elif isinstance(value, tuple) and value and value[0] == "quirk" and not self.quirks:
            return  # a unitless length: browsers drop it in standards mode
        else:
            declared[prop] = value

    def _resolve(self, prop: str, value: Any, customs: Mapping[str, str]) -> Any:
        """Substitute var() in a pending value and parse it (memoised per interned map)."""
        key = (prop, value, id(customs), self.quirks)
        memo = _SHARED.vars
        found = memo.get(key)
        if found is None:
            if len(memo) >= _SHARED.MAX:
                memo.clear()
            found = memo[key] = (self._resolve_uncached(prop, value, customs), customs)
        return found[0]

    def _resolve_uncached(self, prop: str, value: Any, customs: Mapping[str, str]) -> Any:
        """Substitute var() in a pending value and parse it; invalid -> 'unset'."""
        _, source_prop, text = value
        substituted = _substitute(text, customs, 0)
        if substituted is None:
            return ("wide", "unset")
        parsed = parse_value_text(source_prop, substituted)
        if source_prop == "font":
            parsed = dict(parsed).get(prop) if parsed else None
        if parsed is None or (isinstance(parsed, tuple) and parsed and parsed[0] == "quirk" and not self.quirks):
            return ("wide", "unset")
        return parsed

    def _compute_state(self, layers: tuple, inline_text: str | None, parent: _State, is_root: bool) -> _State:
        declared, own_customs = self._declared(layers, inline_text)
        customs = parent.customs
        if own_customs:
            customs = _SHARED.intern_customs(parent.customs, own_customs)
        pending = [
            (prop, value)
            for prop, value in declared.items()
            if type(value) is tuple and value and value[0] == "pending"
        ]
        if pending:
            declared = dict(declared)
            for prop, value in pending:
                declared[prop] = self._resolve(prop, value, customs)

        families = _inherited(declared.get("font-family"), parent.families, ("serif",))
        size_value = declared.get("font-size")
        font_size, keyword_size = self._font_size(size_value, parent, is_root)
        mono, parent_mono = families == ("monospace",), parent.families == ("monospace",)
        if keyword_size and mono != parent_mono:
            font_size *= (_MONOSPACE_MEDIUM / _MEDIUM) if mono else (_MEDIUM / _MONOSPACE_MEDIUM)
        font_size = min(font_size, MAX_FONT_SIZE)

        weight = self._weight(declared.get("font-weight"), parent.weight)
        italic = _inherited(declared.get("font-style"), parent.italic, False)
        color = declared.get("color")
        if color == "currentcolor":
            color = parent.color
        color = _inherited(color, parent.color, "#000000")
        visibility = _inherited(declared.get("visibility"), parent.visibility, "visible")

        display = _not_inherited(declared.get("display"), parent.display, "inline")
        floating = _not_inherited(declared.get("float"), "none", "none")
        position = _not_inherited(declared.get("position"), "static", "static")
        if is_root or floating != "none" or position in ("absolute", "fixed") or parent.box_display in _FLEX_OR_GRID:
            display = _BLOCKIFY.get(display, display)
            if is_root and display == "contents":
                display = "block"
        box_display = parent.box_display if display == "contents" else display
        return _State(
            font_size=font_size,
            keyword_size=keyword_size,
            weight=weight,
            italic=italic,
            color=color,
            families=families,
            display=display,
            box_display=box_display,
            visibility=visibility,
            hidden=parent.hidden or display == "none",
            customs=customs,
        )

    def _font_size(self, value: Any, parent: _State, is_root: bool) -> tuple[float, bool]:
        parent_size = parent.font_size
        if value is None:
            return parent_size, parent.keyword_size
        kind = value[0]
        if kind == "wide":
            if value[1] == "initial":
                return _MEDIUM, True
            return parent_size, parent.keyword_size
        if kind == "kw":
            return FONT_SIZE_KEYWORDS[value[1]], True
        if kind == "larger":
            return parent_size * 1.2, parent.keyword_size
        if kind == "smaller":
            return parent_size / 1.2, parent.keyword_size
        root_size = _MEDIUM if is_root else self._root_font_size
        size = eval_length(value, parent_size, root_size, self.viewport)
        relative = kind == "lin" and not any(value[1][i] for i in (0, 2, 3, 4))
        return max(0.0, size), relative and parent.keyword_size

    @staticmethod
    def _weight(value: Any, parent: float) -> float:
        if (
            value is None
            or value == ("wide", "inherit")
            or value == ("wide", "unset")
            or value == ("wide", "revert")
            or value == ("wide", "revert-layer")
        ):
            return parent
        if value == ("wide", "initial"):
            return 400.0
        if value == "bolder":
            return 400.0 if parent < 350 else 700.0 if parent < 550 else max(parent, 900.0)
        if value == "lighter":
            return parent if parent < 100 else 100.0 if parent < 550 else 400.0 if parent < 750 else 700.0
        return float(value)


def _inherited(value: Any, parent: Any, initial: Any) -> Any:
    if value is None:
        return parent
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "wide":
        return initial if value[1] == "initial" else parent
    return value


def _not_inherited(value: Any, parent: Any, initial: Any) -> Any:
    if value is None:
        return initial
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "wide":
        return parent if value[1] == "inherit" else initial
    return value


def _substitute(text: str, customs: Mapping[str, str], depth: int) -> str | None:
    """Replace var() references in ``text``; None if one is missing without fallback."""
    if depth > MAX_VAR_DEPTH:
        return None
    tokens = tinycss2.parse_component_value_list(text)
    out = _substitute_tokens(tokens, customs, depth)
    return out


def _substitute_tokens(tokens: list[Any], customs: Mapping[str, str], depth: int) -> str | None:
    if depth > MAX_VAR_DEPTH:
        return None
    parts: list[str] = []
    for token in tokens:
        if token.type == "function" and token.lower_name == "var":
            args = token.arguments
            comma = next((i for i, t in enumerate(args) if t.type == "literal" and t.value == ","), None)
            name_tokens = [
                t for t in (args if comma is None else args[:comma]) if t.type not in ("whitespace", "comment")
            ]
            if len(name_tokens) != 1 or name_tokens[0].type != "ident":
                return None
            value = customs.get(name_tokens[0].value)
            replacement = None
            if value is not None:
                replacement = _substitute(value, customs, depth + 1)
            if replacement is None and comma is not None:
                replacement = _substitute_tokens(args[comma + 1 :], customs, depth + 1)
            if replacement is None:
                return None
            parts.append(" " + replacement + " ")
        elif token.type == "function":
            inner = _substitute_tokens(token.arguments, customs, depth + 1)
            if inner is None:
                return None
            parts.append(f"{tinycss2.serialize([_ident(token.name)])}({inner})")
        elif token.type == "() block":
            inner = _substitute_tokens(token.content, customs, depth + 1)
            if inner is None:
                return None
            parts.append(f"({inner})")
        else:
            parts.append(token.serialize())
    return "".join(parts)


def _ident(name: str) -> Any:
    return tinycss2.ast.IdentToken(0, 0, name)
