"""tinycss2's own reading of a stylesheet, the reference the scanner must equal.

``stylesheet.parse_stylesheet`` never tokenises most of a sheet: ``scan.split_rules`` finds the
rules in the text and only the relevant ones reach tinycss2. This module reads the same CSS the
slow, obvious way (``tinycss2.parse_stylesheet`` on the whole text, then the same walk through
@media/@supports/@import/... over its tree) and reports the first place where the two differ:
in the rules ``split_rules`` finds (keyword, prelude and block, compared as tinycss2 tokens
without comments), or in the whole parse (kept rules with their selectors, declarations, order
and media conditions, and the imports). Used by ``tests/css/test_differential.py`` (generated
CSS) and ``benchmarks/css_differential.py`` (every stylesheet of the saved sites).
"""

from __future__ import annotations

from typing import Any

import tinycss2

from newscrawl.css import stylesheet as sheet_module
from newscrawl.css.media import media_matches, supports_matches
from newscrawl.css.scan import split_rules
from newscrawl.css.selectors import Selector, compile_selector_list

# At-rules whose blocks hold rules the parser reads (split_rules is applied to those blocks).
NESTED = frozenset({"media"}) | sheet_module._GROUPING_AT_RULES
_WHITESPACE = " \t\n\r\f"


def dump(tokens: list[Any] | None) -> tuple[Any, ...] | None:
    """Comparable form of component values (iterative: hostile CSS nests thousands deep);
    whitespace at both ends dropped, comments never present (parsed with skip_comments)."""
    if tokens is None:
        return None
    start, end = 0, len(tokens)
    while start < end and tokens[start].type == "whitespace":
        start += 1
    while end > start and tokens[end - 1].type == "whitespace":
        end -= 1
    out: list[Any] = []
    stack = [iter(tokens[start:end])]
    while stack:
        token = next(stack[-1], None)
        if token is None:
            stack.pop()
            out.append(")")
            continue
        kind = token.type
        if kind == "function":
            out.append(("function", token.lower_name))
            stack.append(iter(token.arguments))
        elif kind in ("() block", "[] block", "{} block"):
            out.append((kind,))
            stack.append(iter(token.content))
        elif kind == "whitespace":
            out.append(" ")
        elif kind == "error":
            out.append(("error", token.kind))
        else:
            out.append((kind, token.serialize()))
    return tuple(out)


def _tokens(text: str) -> list[Any]:
    return tinycss2.parse_component_value_list(text, True)


# --- split_rules against tinycss2's rule lists --------------------------------------------------
def scanned_tree(text: str, depth: int = 0) -> list[tuple[Any, ...]]:
    """split_rules' reading of ``text``, nested blocks read again (as deep as the parser reads
    them; deeper ones are compared as tokens), as comparable tuples."""
    out: list[tuple[Any, ...]] = []
    for keyword, prelude, block in split_rules(text, depth == 0):
        if keyword is None:
            out.append(("rule", dump(_tokens(prelude)), dump(_tokens(block or ""))))
        elif keyword in NESTED and block is not None and depth < sheet_module.MAX_NESTING:
            out.append(("at", keyword, dump(_tokens(prelude)), scanned_tree(block, depth + 1)))
        else:
            out.append(("at", keyword, dump(_tokens(prelude)), None if block is None else dump(_tokens(block))))
    return out


def reference_tree(text: str) -> list[tuple[Any, ...]]:
    """The same from tinycss2.parse_stylesheet (parse_rule_list inside at-rules)."""
    return _tree(tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True))


def _tree(nodes: list[Any], depth: int = 0) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for node in nodes:
        if node.type == "qualified-rule":
            out.append(("rule", dump(node.prelude), dump(node.content)))
        elif node.type == "at-rule":
            keyword = node.lower_at_keyword
            if keyword in NESTED and node.content is not None and depth < sheet_module.MAX_NESTING:
                inner = tinycss2.parse_rule_list(node.content, skip_comments=True, skip_whitespace=True)
                out.append(("at", keyword, dump(node.prelude), _tree(inner, depth + 1)))
            else:
                out.append(("at", keyword, dump(node.prelude), dump(node.content)))
    return out


# --- parse_stylesheet against a walk of tinycss2's tree -------------------------------------------
def reference_stylesheet(
    css: str | bytes,
    url: str | None = None,
    max_bytes: int = sheet_module.DEFAULT_MAX_BYTES,
    max_rules: int = sheet_module.DEFAULT_MAX_RULES,
) -> tuple[list[tuple[Any, ...]], list[tuple[str, str | None]]]:
    """(rules, imports) as parse_stylesheet should give them, from tinycss2's tree: each kept
    rule as (selectors, declarations, order, media conditions) in comparable form."""
    stats: dict[str, int] = dict.fromkeys(sheet_module._STATS, 0)
    text = sheet_module._decode(css, max_bytes, stats)
    rules: list[tuple[Any, ...]] = []
    imports: list[tuple[str, str | None]] = []
    imports_allowed = True
    ordinal = 0
    stack: list[tuple[Any, tuple[Any, ...], int]] = [
        (iter(tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True)), (), 0)
    ]
    while stack:
        nodes, media, depth = stack[-1]
        node = next(nodes, None)
        if node is None:
            stack.pop()
            continue
        if node.type == "qualified-rule":
            imports_allowed = False
            ordinal += 1
            if len(rules) >= max_rules:
                continue
            declarations = sheet_module._tinycss2_declarations(node.content, stats)
            if not declarations:
                continue
            try:
                selectors, _dropped = compile_selector_list(node.prelude)
            except ValueError:
                continue
            if selectors:
                rules.append((tuple(map(selector_key, selectors)), repr(declarations), ordinal, media))
            continue
        if node.type != "at-rule":
            continue
        keyword = node.lower_at_keyword
        if keyword == "import":
            if imports_allowed and depth == 0:
                found = sheet_module._import(node.prelude, url)
                if found is not None:
                    imports.append((found.url, found.media))
            continue
        if keyword == "charset" or (keyword == "layer" and node.content is None):
            continue
        imports_allowed = False
        if node.content is None or depth + 1 > sheet_module.MAX_NESTING:
            continue
        if keyword == "supports" and not supports_matches(node.prelude):
            continue
        if keyword == "media" or keyword in sheet_module._GROUPING_AT_RULES:
            inner = tinycss2.parse_rule_list(node.content, skip_comments=True, skip_whitespace=True)
            condition = (_condition(node.prelude),) if keyword == "media" else ()
            stack.append((iter(inner), media + condition, depth + 1))
    return rules, imports


def _condition(tokens: list[Any]) -> tuple[Any, ...]:
    """A media condition, comparable: its tokens without whitespace, and whether it matches."""
    key = tuple(token for token in dump(tokens) or () if token != " ")
    try:
        matches = media_matches(tinycss2.serialize(tokens).strip(_WHITESPACE))
    except RecursionError:
        matches = None
    return key, matches


def selector_key(selector: Selector) -> tuple[Any, ...]:
    """What distinguishes compiled selectors (their tests are closures, compared by what they
    were built from)."""
    return (
        selector.specificity,
        selector.key,
        selector.own,
        selector.parent_own,
        selector.required,
        selector.implied,
        selector.plain,
        selector.presence,
        selector.keys,
        tuple(name for name, _test in selector.synthetic),
        selector.residual is None,
        tuple(combinator for _test, combinator in selector.parts),
    )


def parsed_stylesheet(
    css: str | bytes,
    url: str | None = None,
    max_bytes: int = sheet_module.DEFAULT_MAX_BYTES,
    max_rules: int = sheet_module.DEFAULT_MAX_RULES,
) -> tuple[list[tuple[Any, ...]], list[tuple[str, str | None]]]:
    """parse_stylesheet's result in reference_stylesheet's form."""
    sheet = sheet_module.parse_stylesheet(css, url=url, max_bytes=max_bytes, max_rules=max_rules, cached=False)
    rules = []
    for rule in sheet.rules:
        media = tuple(_condition(_tokens(condition)) for condition in rule.media)
        rules.append((tuple(map(selector_key, rule.selectors)), repr(list(rule.declarations)), rule.order, media))
    return rules, [(found.url, found.media) for found in sheet.imports]


def first_difference(
    css: str | bytes, url: str | None = None, max_bytes: int = sheet_module.DEFAULT_MAX_BYTES
) -> str | None:
    """None when split_rules and parse_stylesheet read ``css`` as tinycss2 does, else a
    description of the first difference."""
    stats: dict[str, int] = dict.fromkeys(sheet_module._STATS, 0)
    text = sheet_module._decode(css, max_bytes, stats)
    ours, theirs = scanned_tree(text), reference_tree(text)
    found = _first_mismatch(ours, theirs, "rules")
    if found is not None:
        return "split_rules: " + found
    ours_sheet = parsed_stylesheet(css, url, max_bytes)
    theirs_sheet = reference_stylesheet(css, url, max_bytes)
    found = _first_mismatch(ours_sheet[1], theirs_sheet[1], "imports")
    if found is not None:
        return "parse_stylesheet: " + found
    found = _first_mismatch(ours_sheet[0], theirs_sheet[0], "kept rules")
    return None if found is None else "parse_stylesheet: " + found


def _first_mismatch(ours: list[Any], theirs: list[Any], what: str) -> str | None:
    """The first differing item of two lists (depth first into nested rule lists)."""
    for index, (mine, reference) in enumerate(zip(ours, theirs)):
        if mine == reference:
            continue
        if (
            isinstance(mine, tuple)
            and isinstance(reference, tuple)
            and len(mine) == 4
            and isinstance(mine[3], list)
            and isinstance(reference[3], list)
            and mine[:3] == reference[:3]
        ):
            inner = _first_mismatch(mine[3], reference[3], f"{what}[{index}] block")
            if inner is not None:
                return inner
        return f"{what}[{index}]: ours {_short(mine)}\n  tinycss2 {_short(reference)}"
    if len(ours) != len(theirs):
        return (
            f"{what}: ours has {len(ours)}, tinycss2 {len(theirs)}; first extra: "
            f"{_short((ours if len(ours) > len(theirs) else theirs)[min(len(ours), len(theirs))])}"
        )
    return None


def _short(value: Any, limit: int = 600) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."
