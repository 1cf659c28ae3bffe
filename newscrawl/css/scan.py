"""A fast pre-scan of CSS text into rules, so irrelevant rules are never tokenised.

tinycss2 tokenises every byte in pure Python; most rules of a real stylesheet set nothing we
compute (margins, backgrounds, transitions). The scanner finds rule boundaries with a regular
expression, honouring comments, strings and escapes, and hands only the rules whose block
mentions one of our properties to tinycss2. Its error recovery follows CSS Syntax where it
matters for boundaries: comments and blocks left open run to the end of the text, a string ends
at an unescaped newline, a stray ``}`` at the top level becomes part of the next rule's prelude
(which then fails to parse, as in browsers).
"""

from __future__ import annotations

import re

# The next character that matters for nesting, at the top level and inside blocks.
_TOP = re.compile(r"""[{};"'\\]|/\*""")
# Inside blocks one character class: a "/" is looked at by the caller (a comment when "*"
# follows); the alternation with "/\*" cost a quarter more on @media blocks.
_INNER = re.compile(r"""[{}"'\\/]""")
_STRING_END = {'"': re.compile(r'"|\\.|\\\n|\n', re.S), "'": re.compile(r"'|\\.|\\\n|\n", re.S)}
# relevant() searches ASCII text for the same words without the regex
_RELEVANT = re.compile(r"font|color|display|visib|float|position|--", re.I)
# A qualified rule read in one match, as the loop in split_rules reads it: a prelude without
# braces, ";", "@", strings, escapes or comments, and a block without braces, strings, escapes
# or comments (most rules of real sheets; the others take the loop).
_FLAT_RULE = re.compile(r"""([^{};"'\\/@]*(?:/(?!\*)[^{};"'\\/@]*)*)\{"""
                        r"""([^{}"'\\/]*(?:/(?!\*)[^{}"'\\/]*)*)\}""")
_AT_KEYWORD = re.compile(r"@(-?[A-Za-z_][\w-]*)")


# One rule as text: (keyword, prelude, block); at-rules have a keyword, ``block`` is None for
# statements (;). A plain tuple: a sheet has thousands of rules, and a dataclass instance took
# as long to make as the regex took to find the rule (docs/decisions.md, "Extraction speed,
# round 11 (CSS)").
RawRule = tuple[str | None, str, str | None]


def _skip_string(text: str, pos: int, quote: str) -> int:
    """Position after the string opened at ``pos`` (ends at the quote or a bare newline)."""
    pattern = _STRING_END[quote]
    while True:
        match = pattern.search(text, pos + 1)
        if match is None:
            return len(text)
        if match.group() in (quote, "\n"):
            return match.end()
        pos = match.end() - 1


def _block_end(text: str, start: int) -> tuple[int, int]:
    """(end of block content, position after the closing brace) for a block opened before
    ``start``; an unclosed block runs to the end of the text."""
    depth = 1
    pos = start
    while True:
        match = _INNER.search(text, pos)
        if match is None:
            return len(text), len(text)
        token = match.group()
        pos = match.end()
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
            if depth == 0:
                return match.start(), pos
        elif token == "/":
            if text.startswith("*", pos):  # a comment
                close = text.find("*/", pos + 1)
                pos = len(text) if close < 0 else close + 2
        elif token == "\\":
            pos += 1
        else:
            pos = _skip_string(text, match.start(), token)


def strip_comments(text: str) -> str:
    """The text without comments (strings kept intact)."""
    if "/*" not in text:
        return text
    out: list[str] = []
    pos = 0
    pattern = re.compile(r"""["'\\]|/\*""")
    while True:
        match = pattern.search(text, pos)
        if match is None:
            out.append(text[pos:])
            return "".join(out)
        token = match.group()
        if token == "/*":
            out.append(text[pos:match.start()])
            close = text.find("*/", match.end())
            pos = len(text) if close < 0 else close + 2
            out.append(" ")
        elif token == "\\":
            out.append(text[pos:match.end() + 1])
            pos = match.end() + 1
        else:
            end = _skip_string(text, match.start(), token)
            out.append(text[pos:end])
            pos = end


def split_rules(text: str) -> list[RawRule]:
    """The rules of a rule list (a stylesheet or an at-rule's block), as text."""
    rules: list[RawRule] = []
    pos = 0
    start = 0
    length = len(text)
    flat = _FLAT_RULE.match
    while pos < length:
        if pos == start:
            found = flat(text, pos)
            if found is not None:
                rules.append((None, found.group(1).strip(), found.group(2)))
                start = pos = found.end()
                continue
        match = _TOP.search(text, pos)
        if match is None:
            break
        token = match.group()
        if token == "/*":
            close = text.find("*/", match.end())
            pos = length if close < 0 else close + 2
        elif token == "\\":
            pos = match.end() + 1
        elif token in ('"', "'"):
            pos = _skip_string(text, match.start(), token)
        elif token == ";":
            prelude = text[start:match.start()]
            at = _AT_KEYWORD.match(prelude.lstrip())
            if at is not None:  # a statement at-rule (@import, @charset, @layer a, b;)
                rules.append((at.group(1).lower(), prelude.lstrip()[at.end():], None))
                start = pos = match.end()
            else:  # ';' in a qualified rule's prelude: part of it (the rule fails later)
                pos = match.end()
        elif token == "{":
            content_end, after = _block_end(text, match.end())
            prelude = text[start:match.start()].strip()
            at = _AT_KEYWORD.match(prelude)
            if at is not None:
                rules.append((at.group(1).lower(), prelude[at.end():],
                              text[match.end():content_end]))
            else:
                rules.append((None, prelude, text[match.end():content_end]))
            start = pos = after
        else:  # a stray '}' at this level: it stays in the next rule's prelude
            pos = match.end()
    return rules


def relevant(block: str) -> bool:
    """Whether a declaration block may set a property the cascade computes: _RELEVANT's
    search. ASCII text is lower-cased and searched for each word in C, ~3.5x faster than the
    case-insensitive alternation; other text keeps the regex (its case folding also matches
    "\u017f" to "s", "\u212a" to "k"...)."""
    if not block.isascii():
        return _RELEVANT.search(block) is not None
    low = block.lower()
    return "font" in low or "color" in low or "display" in low or "visib" in low \
        or "float" in low or "position" in low or "--" in low


def count_declarations(block: str) -> int:
    """Approximate declaration count of a block that is not parsed (for statistics)."""
    stripped = block.strip()
    if not stripped:
        return 0
    return stripped.count(";") + (0 if stripped.endswith(";") else 1)


# --- keys a rule's selectors need (lazy parsing of a page's own <style> blocks) ------------------
# Preludes with escapes or NUL are not read here (the rule is compiled).
_KEYS_UNSAFE = re.compile(r"[\\\x00]")
_STRING = re.compile(r""""[^"\n\r\f]*"|'[^'\n\r\f]*'""")
_INNERMOST_GROUP = re.compile(r"\([^()\[\]]*\)|\[[^()\[\]]*\]")
_GROUP = re.compile(r"[()\[\]]")
# An id or class as tinycss2 reads it: "#" or "." and then every name character (ASCII letters,
# digits, "_", "-" and any non-ASCII character); a shorter match could name another class.
# One negated class (the same characters as "[A-Za-z0-9_-]|[^\x00-\x7f]"): 2.5x faster than the
# alternation, and a class reaching U+10FFFF would take ~3 ms to compile at import.
_NAME_CHARS = r"[^\x00-\x2c\x2e\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]"
_ID_OR_CLASS = re.compile(rf"[.#]{_NAME_CHARS}+")


def selector_keys(prelude: str) -> tuple[frozenset[str], ...] | None:
    """Per selector of a rule prelude, the ids ("#x") and classes (".x") its compounds name
    outside strings and ``(...)`` / ``[...]`` groups: an element matching the selector, and the
    ancestors and siblings its combinators reach, have each of them, so a document without one
    of them has no element the selector matches. None when the prelude is not read here (a
    selector without such keys gives an empty set)."""
    if _KEYS_UNSAFE.search(prelude) is not None:
        return None
    text = strip_comments(prelude)  # a block's leading comment is in its first prelude
    if '"' in text or "'" in text:
        text = _STRING.sub(" ", text)  # [type="button"], [data-x='a,b']
        if '"' in text or "'" in text:
            return None  # a string left open runs to the end: it may hold what follows
    while "(" in text or "[" in text:  # groups innermost first: :not(.a), :is(.b, .c), [x]
        text, count = _INNERMOST_GROUP.subn(" ", text)
        if not count:
            return None  # unbalanced
    if _GROUP.search(text) is not None:
        return None  # unbalanced
    return tuple(frozenset(_ID_OR_CLASS.findall(part)) for part in text.split(","))


# A prelude without escapes, NUL, strings, groups or comments (most of them): its keys are read
# by one findall, commas separating the selectors, instead of selector_keys' passes.
_KEY_OR_COMMA = re.compile(rf"[.#]{_NAME_CHARS}+|,")


def selector_key_tuples(prelude: str) -> tuple[tuple[str, ...], ...] | None:
    """selector_keys with a tuple per selector (a key may repeat): tuples of strings are not
    tracked by the garbage collector once it has seen them, frozensets always are."""
    if not ('"' in prelude or "'" in prelude or "(" in prelude or ")" in prelude
            or "[" in prelude or "]" in prelude or "\\" in prelude or "\x00" in prelude
            or "/*" in prelude):  # by str searches: half the time of one regex scan
        selectors: list[tuple[str, ...]] = []
        keys: list[str] = []
        for token in _KEY_OR_COMMA.findall(prelude):
            if token == ",":
                selectors.append(tuple(keys))
                keys = []
            else:
                keys.append(token)
        selectors.append(tuple(keys))
        return tuple(selectors)
    read = selector_keys(prelude)
    return None if read is None else tuple([tuple(needed) for needed in read])
