"""Parse a stylesheet once into the few rules the cascade needs, indexed by rightmost selector.

A :class:`Stylesheet` is immutable after parsing and safe to share between pages and resolvers
(the crawl parses each stylesheet URL once). Only declarations of the properties in
:data:`newscrawl.css.values.PROPERTIES` (plus the ``font`` shorthand and custom properties,
which those may reference through ``var()``) survive; ``stats`` says how much was discarded.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any

import tinycss2
from tinycss2.bytes import decode_stylesheet_bytes

from newscrawl.css.declarations import split_declarations
from newscrawl.css.media import supports_matches
from newscrawl.css.scan import (
    count_declarations,
    relevant,
    selector_key_tuples,
    split_rules,
    strip_comments,
)
from newscrawl.css.selectors import Selector, compile_selector_text
from newscrawl.css.values import PROPERTIES, expand_font, has_var, parse_value, significant
from newscrawl.safeurl import join_url
from newscrawl.textcache import memorable, text_cache

# Bounds on hostile input (a stylesheet is cut at max_bytes; style rules beyond max_rules and
# at-rule nesting beyond MAX_NESTING are ignored); all are counted in ``stats``.
DEFAULT_MAX_BYTES = 2 * 1024 * 1024
DEFAULT_MAX_RULES = 10_000
MAX_NESTING = 16
MAX_CUSTOM_VALUE = 2048
MAX_CACHED_PIECE = 512  # declarations up to this length are parsed once per process
CACHED_TEXT_CHARS = 128 * 1024
CACHED_TEXTS = 32  # parsed texts held by parse_stylesheet (<style> blocks: cascade.BlockCache)
# At-rules whose blocks hold style rules that apply unconditionally for our screen (@supports is
# evaluated; container queries, layers and scopes are assumed to apply).
_GROUPING_AT_RULES = frozenset({"supports", "layer", "container", "scope", "document", "-moz-document"})

_WHITESPACE = " \t\n\r\f"  # CSS whitespace: str.strip() would also take U+00A0, a name character
_COMPLETE: frozenset[str] = frozenset()  # Stylesheet.absent of complete sheets
# A declaration: (property, value, important, pending). ``pending`` is the raw text when the
# value uses var() and can only be parsed per element; ``value`` is then None.
Declaration = tuple


@dataclass(frozen=True, slots=True)
class Rule:
    """A style rule reduced to what matters: its selectors, kept declarations, conditions."""

    selectors: tuple[Selector, ...]
    declarations: tuple[Declaration, ...]
    order: int  # position among the sheet's style rules (kept or not), from 1
    media: tuple[str, ...]  # enclosing @media conditions, all of which must match


@dataclass(frozen=True, slots=True)
class Import:
    url: str
    media: str | None


@dataclass(frozen=True, eq=False)  # identity equality and hash: sheets key shared caches
class Stylesheet:
    url: str | None
    media: str | None
    rules: tuple[Rule, ...]
    imports: tuple[Import, ...]
    stats: Mapping[str, int]
    # No per-sheet index of its own: the resolver indexes rules by each selector's ``key`` per
    # cascade (a second copy would be more objects for every full garbage collection to walk).
    size: int = 0
    # Empty for a complete sheet. A partial one (parsed for one document, see parse_stylesheet's
    # ``present``) left out rules each of whose selectors names an id or class from this set:
    # it gives the complete sheet's styles to every document that has none of these keys.
    # ``skipped``: the orders of the rules left out (complete_stylesheet parses those).
    absent: frozenset[str] = _COMPLETE
    skipped: tuple[int, ...] = ()


def _decode(css: str | bytes, max_bytes: int, stats: dict[str, int]) -> str:
    if len(css) > max_bytes:
        stats["truncated"] = 1
        css = css[:max_bytes]
    if isinstance(css, bytes):
        # BOM, then @charset, then UTF-8; invalid bytes become U+FFFD (never an exception).
        return decode_stylesheet_bytes(css)[0]
    return css


_STAT_NAMES = (
    "declarations_total",
    "declarations_kept",
    "declarations_invalid",
    "custom_properties",
    "nested_rules_ignored",
)


def _declarations(content: list[Any] | str, stats: dict[str, int]) -> list[Declaration]:
    """Kept declarations of a block. Text blocks are split first: only the declarations of
    kept properties are tokenised (each parsed once per process, see _parsed_piece)."""
    pieces = split_declarations(content) if isinstance(content, str) else None
    if pieces is None:
        return _tinycss2_declarations(content, stats)
    kept: list[Declaration] = []
    for name, text in pieces:
        if name is not None and name != "font" and name not in PROPERTIES and not name.startswith("--"):
            stats["declarations_total"] += 1  # ``ident :`` without braces: a declaration
            continue
        if name is not None and name.startswith("--"):
            plain = _plain_custom(text)
            if plain is not None:  # as tinycss2 would give it, without tokenising
                kept.append(plain)
                stats["declarations_total"] += 1
                stats["declarations_kept"] += 1
                stats["custom_properties"] += 1
                continue
        # tinycss2 skips the leading whitespace: pieces indented differently share an entry
        text = text.lstrip(" \t\n\r\f")
        if len(text) > MAX_CACHED_PIECE:
            kept.extend(_tinycss2_declarations(text, stats))
            continue
        declarations, counts = _parsed_piece(text)
        kept.extend(declarations)
        for stat, count in counts:
            stats[stat] += count
    return kept


# A custom property whose value is only these characters (idents, numbers, dimensions, hashes,
# commas, operators, balanced parentheses, spaces) is kept as written: tinycss2 would serialise
# its tokens back to the same text. Strings, escapes, comments, url(), !important, newlines and
# non-ASCII go through tinycss2 (tests/css/test_declarations.py compares both).
_PLAIN_CUSTOM = re.compile(r"[ \t]*(--[A-Za-z0-9_-]+)[ \t]*:([A-Za-z0-9#%.,+*/() \t_-]*)")


# tinycss2 reads "u+0025-00ff" as a unicode-range token and serialises it as "U+25-FF".
_UNICODE_RANGE = re.compile(r"[uU]\+[0-9A-Fa-f?]")


def _plain_custom(text: str) -> Declaration | None:
    match = _PLAIN_CUSTOM.fullmatch(text)
    if match is None:
        return None
    value = match.group(2).strip()
    if (
        "/*" in value
        or len(value) > MAX_CUSTOM_VALUE
        or not _balanced(value)
        or ("+" in value and _UNICODE_RANGE.search(value) is not None)
    ):
        return None
    return (match.group(1), None, False, value)


def _balanced(value: str) -> bool:
    """Parentheses closed in order (tinycss2 closes an open block when serialising)."""
    if "(" not in value and ")" not in value:
        return True
    depth = 0
    for char in value:
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


@text_cache(16384)
def _parsed_piece(text: str) -> tuple[tuple[Declaration, ...], tuple[tuple[str, int], ...]]:
    """One declaration's text parsed by tinycss2 (values repeat across rules and sites), and
    its non-zero statistics (most pieces count two: one declaration, kept)."""
    hex_color = _HEX_COLOR.fullmatch(text)
    if hex_color is not None:
        return ((("color", _hex_color(hex_color.group(1)), hex_color.group(2) is not None, None),), _ONE_KEPT)
    stats = dict.fromkeys(_STAT_NAMES, 0)
    kept = _tinycss2_declarations(text, stats)
    return tuple(kept), tuple([(name, stats[name]) for name in _STAT_NAMES if stats[name]])


# "color: #hex", the commonest piece a page's own rules bring (a quarter of the pieces tinycss2
# parsed on first visits, ~30 us each), read here: the declaration and counts tinycss2 and
# values.parse_color give (3, 4, 6 or 8 hex digits, then optional !important; any other text
# goes to tinycss2; tests/css/test_declarations.py compares both).
_HEX_COLOR = re.compile(
    r"color[ \t\n\r\f]*:[ \t\n\r\f]*#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})"
    r"[ \t\n\r\f]*(![ \t\n\r\f]*important[ \t\n\r\f]*)?",
    re.ASCII | re.IGNORECASE,
)  # ASCII: "\u0130mportant" is not important
_ONE_KEPT = (("declarations_total", 1), ("declarations_kept", 1))


def _hex_color(digits: str) -> str:
    """parse_color's text for a hash colour: lower case, short forms doubled, an opaque alpha
    left out."""
    digits = digits.lower()
    if len(digits) <= 4:
        digits = "".join([digit + digit for digit in digits])
    return "#" + (digits[:6] if digits[6:] == "ff" else digits)


def _tinycss2_declarations(content: list[Any] | str, stats: dict[str, int]) -> list[Declaration]:
    kept: list[Declaration] = []
    for item in tinycss2.parse_blocks_contents(content, skip_comments=True, skip_whitespace=True):
        if item.type != "declaration":
            if item.type in ("qualified-rule", "at-rule"):
                stats["nested_rules_ignored"] += 1
            continue
        stats["declarations_total"] += 1
        name = item.name if item.name.startswith("--") else item.lower_name
        if name.startswith("--"):
            text = _serialized(item.value)
            if text is None:
                stats["declarations_invalid"] += 1
            elif len(text) <= MAX_CUSTOM_VALUE:
                kept.append((name, None, item.important, text))
                stats["declarations_kept"] += 1
                stats["custom_properties"] += 1
            continue
        if name != "font" and name not in PROPERTIES:
            continue
        if has_var(item.value):
            text = _serialized(item.value)
            if text is None:
                stats["declarations_invalid"] += 1
                continue
            kept.append((name, None, item.important, text))
            stats["declarations_kept"] += 1
            continue
        if name == "font":
            expanded = expand_font(item.value)
            if expanded is None:
                stats["declarations_invalid"] += 1
                continue
            kept.extend((prop, value, item.important, None) for prop, value in expanded)
            stats["declarations_kept"] += 1
            continue
        value = parse_value(name, item.value)
        if value is None:
            stats["declarations_invalid"] += 1
            continue
        kept.append((name, value, item.important, None))
        stats["declarations_kept"] += 1
    return kept


def _serialized(tokens: list[Any]) -> str | None:
    """``tinycss2.serialize`` (stripped), or None for tokens nested too deeply for its recursive
    serializer: hostile CSS such as ``--x: f(f(f(…`` a thousand levels deep raised RecursionError,
    and the page lost all its stylesheets (docs/decisions.md, "Malformed URLs and deeply nested
    CSS values")."""
    try:
        return tinycss2.serialize(tokens).strip()
    except RecursionError:
        return None


def parse_declarations(text: str) -> tuple[Declaration, ...]:
    """Kept declarations of a ``style`` attribute (same filtering as in stylesheets)."""
    stats: dict[str, int] = {
        "declarations_total": 0,
        "declarations_kept": 0,
        "declarations_invalid": 0,
        "custom_properties": 0,
        "nested_rules_ignored": 0,
    }
    return tuple(_declarations(text, stats))


def _import(prelude: list[Any], base: str | None) -> Import | None:
    toks = significant(prelude)
    if not toks:
        return None
    first = toks[0]
    if first.type in ("string", "url"):
        href = first.value
    elif first.type == "function" and first.lower_name == "url":
        args = significant(first.arguments)
        if len(args) != 1 or args[0].type != "string":
            return None
        href = args[0].value
    else:
        return None
    rest = prelude[prelude.index(first) + 1 :]
    media = _serialized(rest) or None  # too deeply nested to serialize: imported unconditionally
    if media and (media.lower().startswith("layer") or media.lower().startswith("supports")):
        media = None  # layer(...)/supports(...) before the media list: treated as unconditional
    url = join_url(base, href.strip())
    if url is None:  # malformed: imports nothing
        return None
    return Import(url.split("#", 1)[0], media)


def parse_stylesheet(
    css: str | bytes,
    *,
    url: str | None = None,
    media: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_rules: int = DEFAULT_MAX_RULES,
    cached: bool = True,
    present: frozenset[str] | None = None,
) -> Stylesheet:
    """Parse ``css`` into a shareable :class:`Stylesheet`.

    ``url`` is the sheet's own address (base of its @import URLs, key for matching it to a
    document's ``<link>``); ``media`` a media query list applying to the whole sheet.
    Texts up to CACHED_TEXT_CHARS are parsed once per process (LRU of CACHED_TEXTS): the same
    text gives the same object, so pages share resolver caches. ``cached=False`` is for callers
    with a cache of their own (``<style>`` blocks: cascade.BlockCache), so that a sheet is not
    held by two caches.

    ``present``, the ids ("#x") and classes (".x") of one document, makes a partial sheet for
    that document: rules each of whose selectors names a key not in it can match none of its
    elements and are neither compiled nor their declarations parsed (most rules of a page's own
    ``<style>`` blocks style other pages' markup). ``Stylesheet.absent`` says which documents
    the result serves; ``stats["rules_skipped"]`` counts the rules left out (their declarations
    are not counted). Partial sheets are not cached here.
    """
    if present is not None:
        return _parse(css, url, media, max_bytes, max_rules, present)
    if (
        cached
        and isinstance(css, str)
        and len(css) <= CACHED_TEXT_CHARS
        and max_bytes == DEFAULT_MAX_BYTES
        and max_rules == DEFAULT_MAX_RULES
    ):
        return _parse_cached(css, url, media)
    return _parse(css, url, media, max_bytes, max_rules)


@lru_cache(maxsize=CACHED_TEXTS)
def _parse_cached(css: str, url: str | None, media: str | None) -> Stylesheet:
    return _parse(css, url, media, DEFAULT_MAX_BYTES, DEFAULT_MAX_RULES)


_STATS = (
    "bytes",
    "truncated",
    "rules_total",
    "rules_kept",
    "declarations_total",
    "declarations_kept",
    "declarations_invalid",
    "custom_properties",
    "selectors_dropped",
    "rules_invalid_selector",
    "rules_over_limit",
    "at_rules_ignored",
    "nested_rules_ignored",
    "rules_skipped",
)


def _parse(
    css: str | bytes,
    url: str | None,
    media: str | None,
    max_bytes: int,
    max_rules: int,
    present: frozenset[str] | None = None,
) -> Stylesheet:
    stats: dict[str, int] = dict.fromkeys(_STATS, 0)
    stats["bytes"] = len(css)
    rules: list[Rule] = []
    imports: list[Import] = []
    absent: set[str] = set()  # per skipped selector, one key the document lacks
    skipped: list[int] = []
    for ordinal, prelude, block, media_stack in _style_rules(_decode(css, max_bytes, stats), url, stats, imports):
        if len(rules) >= max_rules:
            stats["rules_over_limit"] += 1
            continue
        if not relevant(block):
            stats["declarations_total"] += count_declarations(block)
            continue
        if present is not None:
            missing = _missing_keys(prelude, present)
            if missing is not None:
                absent.update(missing)
                skipped.append(ordinal)
                stats["rules_skipped"] += 1
                continue
        rule = _rule(prelude, block, ordinal, media_stack, stats)
        if rule is not None:
            rules.append(rule)
    if absent and stats["rules_total"] > max_rules:
        # the limit counts kept rules: skipping some would keep others a complete parse drops
        return _parse(css, url, media, max_bytes, max_rules)
    return Stylesheet(
        url=url,
        media=media,
        rules=tuple(rules),
        imports=tuple(imports),
        stats=MappingProxyType(stats),
        size=stats["bytes"],
        absent=frozenset(absent) if absent else _COMPLETE,
        skipped=tuple(skipped),
    )


def complete_stylesheet(sheet: Stylesheet, css: str | bytes) -> Stylesheet:
    """The complete sheet of a partial one, ``css`` being the text it was parsed from (with
    the default max_bytes): the rules it skipped are parsed now, the others are its own Rule
    objects (memos keyed by rules carry over). Equal to a complete parse, stats included."""
    if not sheet.absent:
        return sheet
    stats = dict(sheet.stats)
    stats["rules_skipped"] = 0
    scratch = dict.fromkeys(_STATS, 0)  # what the walk counts again: counted in the sheet's
    todo = set(sheet.skipped)
    added = []
    for ordinal, prelude, block, media_stack in _style_rules(
        _decode(css, DEFAULT_MAX_BYTES, scratch), sheet.url, scratch, []
    ):
        if ordinal in todo:
            rule = _rule(prelude, block, ordinal, media_stack, stats)
            if rule is not None:
                added.append(rule)
    rules = sorted([*sheet.rules, *added], key=_order_of) if added else sheet.rules
    return Stylesheet(
        url=sheet.url,
        media=sheet.media,
        rules=tuple(rules),
        imports=sheet.imports,
        stats=MappingProxyType(stats),
        size=sheet.size,
    )


def _order_of(rule: Rule) -> int:
    return rule.order


def _style_rules(
    text: str, url: str | None, stats: dict[str, int], imports: list[Import]
) -> Iterator[tuple[int, str, str, tuple[str, ...]]]:
    """(ordinal, prelude, block, enclosing @media conditions) of each style rule in source order,
    through the @media/@supports/... blocks that apply; collects @imports and counts at-rules
    and rules in ``stats``. The ordinal is a rule's ``order``: the same in partial and
    complete parses of a text."""
    imports_allowed = True
    # (raw rules, enclosing media conditions, nesting depth): iterative, for deep nesting. A
    # level's rules are read by a for loop (cheaper than next() a rule), left for a nested
    # block and resumed where it stopped once that block is done.
    stack: list[tuple[Any, tuple[str, ...], int]] = [(iter(split_rules(text)), (), 0)]
    while stack:
        raw_rules, media_stack, depth = stack[-1]
        for keyword, prelude, block in raw_rules:
            if keyword is None:
                imports_allowed = False
                stats["rules_total"] += 1
                yield stats["rules_total"], prelude, block or "", media_stack
                continue
            if keyword == "import":
                if imports_allowed and depth == 0:
                    found = _import(tinycss2.parse_component_value_list(prelude, True), url)
                    if found is not None:
                        imports.append(found)
                continue
            if keyword == "charset" or (keyword == "layer" and block is None):
                continue
            imports_allowed = False
            if block is None or depth + 1 > MAX_NESTING:
                stats["at_rules_ignored"] += 1
                continue
            if keyword == "media":
                condition = strip_comments(prelude).strip(_WHITESPACE)
                stack.append((iter(split_rules(block, False)), media_stack + (condition,), depth + 1))
                break
            if keyword in _GROUPING_AT_RULES:
                if keyword == "supports" and not supports_matches(tinycss2.parse_component_value_list(prelude, True)):
                    stats["at_rules_ignored"] += 1
                    continue
                stack.append((iter(split_rules(block, False)), media_stack, depth + 1))
                break
            stats["at_rules_ignored"] += 1  # @font-face, @keyframes, @page, ...
        else:
            stack.pop()


def _rule(prelude: str, block: str, ordinal: int, media_stack: tuple[str, ...], stats: dict[str, int]) -> Rule | None:
    """The Rule of a relevant style rule, or None when nothing of it is kept."""
    declarations = _declarations(block, stats)
    if not declarations:
        return None
    compiled = compile_selector_text(prelude)  # stripped by split_rules
    if compiled is None:
        stats["rules_invalid_selector"] += 1
        return None
    selectors, dropped = compiled
    stats["selectors_dropped"] += dropped
    if not selectors:
        return None
    stats["rules_kept"] += 1
    return Rule(tuple(selectors), tuple(declarations), ordinal, media_stack)


# Tuples of strings, not frozensets: the garbage collector stops tracking a tuple of strings at
# its first pass, a frozenset it walks at every pass (docs/decisions.md, "Extraction speed,
# round 8 (CSS)").
_SELECTOR_KEYS: dict[str, tuple[tuple[str, ...], ...] | None] = {}
SELECTOR_KEYS = 4096  # preludes whose keys are kept (they repeat in @media blocks and on pages)


def _missing_keys(prelude: str, present: frozenset[str]) -> list[str] | None:
    """Per selector of the prelude a key it needs that ``present`` lacks, or None when some
    selector may match (or the prelude is not read by scan.selector_key_tuples)."""
    if not memorable(prelude):  # read each time, never held
        keys = selector_key_tuples(prelude)
    else:
        keys = _SELECTOR_KEYS.get(prelude, _UNREAD)
    if keys is _UNREAD:
        if len(_SELECTOR_KEYS) >= SELECTOR_KEYS:
            _SELECTOR_KEYS.clear()
        keys = _SELECTOR_KEYS[prelude] = selector_key_tuples(prelude)
    if keys is None:
        return None
    missing: list[str] = []
    for needed in keys:  # a plain loop: a comprehension and min() per selector cost 40% more
        lacking = None  # the least key of the selector that the document lacks
        for key in needed:
            if key not in present and (lacking is None or key < lacking):
                lacking = key
        if lacking is None:  # also a selector naming no id or class
            return None
        missing.append(lacking)
    return missing


_UNREAD: Any = object()
