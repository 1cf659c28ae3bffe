"""A fast pre-scan of CSS text into rules, so irrelevant rules are never tokenised.

tinycss2 tokenises every byte in pure Python; most rules of a real stylesheet set nothing we
compute (margins, backgrounds, transitions). The scanner finds rule boundaries with regular
expressions where tinycss2's ``parse_stylesheet`` finds them: whitespace, comments and (at the
top level) ``<!--``/``-->`` between rules are skipped, an at-rule ends at a ``;`` or a ``{}``
block outside ``()``/``[]`` groups (or at the end of the text), a qualified rule at its ``{}``
block; strings (ending at an unescaped newline), escapes, unquoted ``url(...)`` tokens and
nested ``()``/``[]``/``{}`` groups are honoured, a closer that matches no open group is a
plain character, and whatever is left open at the end of the text closes there.
``tests/css/test_differential.py`` and ``benchmarks/css_differential.py`` compare the result
with tinycss2 on generated CSS and every saved site's stylesheets.
"""

from __future__ import annotations

import re

import tinycss2

_WHITESPACE = " \t\n\r\f"  # CSS whitespace (Python's str.strip() also strips U+00A0, a name character)
_SPACES = re.compile(r"[ \t\n\r\f]*")
# The next character that matters in a rule's prelude, and inside a block ("/" is looked at by
# the caller: a comment when "*" follows; one character class is faster than an alternation).
_PRELUDE = re.compile(r"""[{}()\[\];"'\\/]""")
_INNER = re.compile(r"""[{}()\[\]"'\\/]""")
_STRING_END = {'"': re.compile(r'"|\\(?:\r\n|[\s\S])?|[\n\r\f]'), "'": re.compile(r"'|\\(?:\r\n|[\s\S])?|[\n\r\f]")}
_ESCAPE = r"\\(?:[0-9A-Fa-f]{1,6}(?:\r\n|[ \t\n\r\f])?|[^\n\r\f]|\Z)"
_ESCAPE_END = re.compile(_ESCAPE)
_AT_KEYWORD = re.compile(
    rf"@((?:--|-?(?:[A-Za-z_]|[^\x01-\x7f]|{_ESCAPE}))"
    rf"(?:[A-Za-z0-9_-]|[^\x01-\x7f]|{_ESCAPE})*+)"
)
# An unquoted url(...) token: up to the first ")" (escapes honoured until a character that makes
# it a bad url; from there on tinycss2 only skips "\)").
_URL_GOOD = re.compile(
    r"""(?:[^)\\ \t\n\r\f"'(\x00-\x08\x0b\x0e-\x1f\x7f]++|\\(?:[0-9A-Fa-f]{1,6}"""
    r"""(?:\r\n|[ \t\n\r\f])?|[^\n\r\f]|\Z)|\\(?=[\n\r\f]))*+[ \t\n\r\f]*"""
)
_URL_BAD = re.compile(r"(?:[^)\\]++|\\\)|\\)*+\)?")
_NAME_SET = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
# relevant() searches ASCII text for the same words without the regex
_RELEVANT = re.compile(r"font|color|display|visib|float|position|--", re.IGNORECASE)


_PLAIN = r"""[^{}()\[\]"'\\/]"""  # a character of flat text that needs no look
# Strings without escapes or newlines, comments, a "/" that starts none.
_CLOSED = r"""/(?!\*)|"[^"\\\n\r\f]*+"|'[^'\\\n\r\f]*+'|/\*[^*]*+\*++(?:[^/*][^*]*+\*++)*+/"""


def _groups(depth: int) -> str:
    """()/[] groups nested up to ``depth`` deep in flat text (no braces, no strings with escapes
    or newlines, no comment left open), as tinycss2 nests them: inside one kind of group the
    other kind's closer is a plain character. After "url" only a group of plain characters: it
    is then the same whether tinycss2 reads an unquoted url token or a function. (Unrolled
    loops: runs of plain characters between the others, faster in Python's re than an
    alternation per run.)"""
    inner = "|" + _groups(depth - 1) if depth > 1 else ""
    return (
        rf"(?:(?<![uU][rR][lL])\({_PLAIN}*+(?:(?:{_CLOSED}|\]{inner}){_PLAIN}*+)*+\)"
        rf"|(?<=[uU][rR][lL])\({_PLAIN}*+(?:/(?!\*){_PLAIN}*+)*+\)"
        rf"|\[{_PLAIN}*+(?:(?:{_CLOSED}|\){inner}){_PLAIN}*+)*+\])"
    )


_FLAT_TEXT = rf"{_PLAIN}*+(?:(?:{_CLOSED}|[)\]]|{_groups(2)}){_PLAIN}*+)*+"
# A qualified rule read in one match, as the loop in split_rules reads it: leading whitespace,
# then a prelude and a block of flat text: no braces, escapes, strings with newlines or left
# open, and ()/[] groups at most two deep (most rules of real sheets; the others take the
# loop). A rule starting with "@", "/", "<" or "-" (an at-rule, a comment, CDO/CDC) takes the
# loop.
_FLAT_RULE = re.compile(rf"[ \t\n\r\f]*+(?=[^@/<\-])({_FLAT_TEXT})\{{({_FLAT_TEXT})\}}")
_FLAT_RUN = re.compile(rf"(?:[ \t\n\r\f]*+(?=[^@/<\-]){_FLAT_TEXT}\{{{_FLAT_TEXT}\}})*+")
# An at-rule's prelude read in one match, up to its "{" or ";" (flat text without ";" outside
# groups: "@media (min-width: 600px) and (max-width: 900px) {").
_FLAT_AT_PRELUDE = re.compile(
    rf"""[^{{}}()\[\]"'\\/;]*+(?:(?:{_CLOSED}|[)\]]|{_groups(1)})[^{{}}()\[\]"'\\/;]*+)*+(?=[{{;])"""
)


# One rule as text: (keyword, prelude, block); at-rules have a keyword, ``block`` is None for
# statements (;). A plain tuple: a sheet has thousands of rules, and a dataclass instance took
# as long to make as the regex took to find the rule (docs/decisions.md, "Extraction speed,
# round 11 (CSS)").
RawRule = tuple[str | None, str, str | None]


def _past(pattern: re.Pattern[str], text: str, pos: int) -> int:
    """The end of ``pattern``'s match at ``pos`` (a pattern that may match nothing)."""
    match = pattern.match(text, pos)
    return pos if match is None else match.end()


def _skip_string(text: str, pos: int, quote: str) -> int:
    """Position after the string opened at ``pos`` (or of the newline ending a bad string)."""
    pattern = _STRING_END[quote]
    while True:
        match = pattern.search(text, pos + 1)
        if match is None:
            return len(text)
        token = match.group()
        if token == quote:
            return match.end()
        if token in "\n\r\f":
            return match.start()
        pos = match.end() - 1


def _skip_url(text: str, pos: int) -> int:
    """Position after the unquoted url token whose contents start at ``pos``."""
    pos = _past(_URL_GOOD, text, pos)
    if pos >= len(text):
        return pos
    if text[pos] == ")":
        return pos + 1
    return _past(_URL_BAD, text, pos)  # a bad url: skipped up to the next ")"


def _is_url(text: str, paren: int, boundary: int, escaped: int) -> bool:
    """Whether the "(" at ``paren`` starts an unquoted url token (tinycss2's rule: the ident
    before it is "url" and no quote follows). ``boundary`` is a token boundary at or before the
    ident, ``escaped`` where the last escape before ``paren`` ended (-1 if none)."""
    if escaped > boundary and (escaped == paren or _name_char(text[paren - 1])):
        return _tokenized_url(text, boundary, paren)  # an ident with escapes: rare
    if paren - 3 < boundary or text[paren - 3 : paren].lower() != "url":
        return False
    before = paren - 4
    if before >= boundary:
        char = text[before]
        if _name_char(char):
            if before - 3 >= boundary and text.startswith("<!--", before - 3):
                pass  # "<!--" (CDO), then "url("
            elif "+" in text[max(boundary, before - 14) : before]:
                return _tokenized_url(text, boundary, paren)  # after a unicode-range token?
            else:
                return False  # the end of a longer ident, dimension, hash or at-keyword
        elif char == "#" or char == "@":
            return False
    rest = _past(_SPACES, text, paren + 1)
    return rest >= len(text) or text[rest] not in "\"'"


def _name_char(char: str) -> bool:
    """A CSS name character (NUL becomes U+FFFD, a non-ASCII one)."""
    return char in _NAME_SET or char > "\x7f" or char == "\x00"


def _tokenized_url(text: str, boundary: int, paren: int) -> bool:
    """_is_url by tinycss2's tokenizer, from a token boundary (each segment at most once)."""
    tokens = tinycss2.parse_component_value_list(text[boundary:paren] + "(x)")
    return bool(tokens) and tokens[-1].type == "url"


def _scan(text: str, pos: int, stack: list[str], stops: str) -> int:
    """For a prelude (``stack`` empty): the index of the first character of ``stops`` outside
    groups. For a block (``stack`` holds its "}"): the index of its closing brace. len(text) if
    the text ends first."""
    length = len(text)
    boundary = pos  # a token boundary (after the last special token)
    escaped = -1  # where the last escape ended
    block = bool(stack)
    search = _INNER.search if block else _PRELUDE.search
    if block:
        pos = _past(_FLAT_RUN, text, pos)  # whole flat rules in an at-rule's block
    while True:
        match = search(text, pos)
        if match is None:
            return length
        char = match.group()
        index = match.start()
        pos = index + 1
        if char == "\\":
            if pos < length and text[pos] in "\n\r\f":
                continue  # a "\" delim, not an escape
            pos = escaped = _past(_ESCAPE_END, text, index)
        elif char == '"' or char == "'":
            pos = boundary = _skip_string(text, index, char)
        elif char == "/":
            if text.startswith("*", pos):
                close = text.find("*/", pos + 1)
                pos = boundary = length if close < 0 else close + 2
        elif not stack and char in stops:
            return index
        elif char == "(":
            if _is_url(text, index, boundary, escaped):
                pos = _skip_url(text, pos)
            else:
                stack.append(")")
            boundary = pos
        elif char == "[" or char == "{":
            stack.append("]" if char == "[" else "}")
            boundary = pos
        elif char == ";":
            boundary = pos
        else:  # a closer: it closes the innermost group if it matches it, else is plain
            boundary = pos
            if stack and stack[-1] == char:
                stack.pop()
                if block and len(stack) <= 1:
                    if not stack:
                        return index
                    if char == "}":  # a rule of the block ended: read what follows in one match
                        # (each attempt stops before the next brace: the scan stays linear)
                        pos = _past(_FLAT_RUN, text, pos)


def _block_end(text: str, start: int) -> tuple[int, int]:
    """(end of block content, position after the closing brace) for a block opened before
    ``start``; an unclosed block runs to the end of the text."""
    end = _scan(text, start, ["}"], "")
    return end, min(end + 1, len(text))


def _rule_start(text: str, pos: int, top_level: bool) -> int:
    """Position of the next rule: after whitespace, comments and, at the top level of a
    stylesheet, "<!--" and "-->" (tinycss2 and browsers ignore those there)."""
    while True:
        pos = _past(_SPACES, text, pos)
        if text.startswith("/*", pos):
            close = text.find("*/", pos + 2)
            if close < 0:
                return len(text)
            pos = close + 2
        elif top_level and text.startswith("<!--", pos):
            pos += 4
        elif top_level and text.startswith("-->", pos):
            pos += 3
        else:
            return pos


def _rstrip(prelude: str) -> str:
    """The prelude without trailing CSS whitespace, except, after a string or an escape, up to
    the first newline (it ends a bad string) or one character (an escaped one): the prelude
    must tokenise alone as it does in place."""
    stripped = prelude.rstrip(_WHITESPACE)
    if len(stripped) < len(prelude) and ('"' in stripped or "'" in stripped or "\\" in stripped):
        tail = _TO_NEWLINE.match(prelude, len(stripped))
        return prelude[: tail.end() if tail is not None else len(stripped) + 1]
    return stripped


_TO_NEWLINE = re.compile(r"[ \t]*[\n\r\f]")


def _keyword(name: str) -> str:
    """An at-keyword's name as tinycss2 gives it (``lower_at_keyword``): escapes decoded, ASCII
    letters lower-cased."""
    if "\\" in name or "\x00" in name:
        return tinycss2.parse_component_value_list("@" + name)[0].lower_value
    return name.lower() if name.isascii() else name.translate(_ASCII_LOWER)


_ASCII_LOWER = {code: code + 32 for code in range(ord("A"), ord("Z") + 1)}


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
            out.append(text[pos : match.start()])
            close = text.find("*/", match.end())
            pos = len(text) if close < 0 else close + 2
            out.append(" ")
        elif token == "\\":
            out.append(text[pos : match.end() + 1])
            pos = match.end() + 1
        else:
            end = _skip_string(text, match.start(), token)
            out.append(text[pos:end])
            pos = end


def split_rules(text: str, top_level: bool = True) -> list[RawRule]:
    """The rules of a rule list as text, where tinycss2 finds them: of a stylesheet
    (``top_level``) or of an at-rule's block (there "<!--" and "-->" start rules). A qualified
    rule's prelude is stripped of CSS whitespace; an at-rule's is the text after its keyword."""
    rules: list[RawRule] = []
    pos = 0
    length = len(text)
    flat = _FLAT_RULE.match
    while pos < length:
        found = flat(text, pos)
        if found is not None:
            rules.append((None, found.group(1).rstrip(_WHITESPACE), found.group(2)))
            pos = found.end()
            continue
        pos = _rule_start(text, pos, top_level)
        if pos >= length:
            break
        at = _AT_KEYWORD.match(text, pos) if text[pos] == "@" else None
        if at is None:  # a qualified rule: its prelude runs to its block ("@" alone included)
            brace = _scan(text, pos, [], "{")
            if brace >= length:
                break  # no block: not a rule
            end, after = _block_end(text, brace + 1)
            rules.append((None, _rstrip(text[pos:brace]), text[brace + 1 : end]))
            pos = after
            continue
        keyword = _keyword(at.group(1))
        simple = _FLAT_AT_PRELUDE.match(text, at.end())
        stop = simple.end() if simple is not None else _scan(text, at.end(), [], "{;")
        if stop >= length:  # the text ends the at-rule
            rules.append((keyword, text[at.end() :], None))
            break
        if text[stop] == ";":
            rules.append((keyword, text[at.end() : stop], None))
            pos = stop + 1
        else:
            end, after = _block_end(text, stop + 1)
            rules.append((keyword, text[at.end() : stop], text[stop + 1 : end]))
            pos = after
    return rules


def relevant(block: str) -> bool:
    """Whether a declaration block may set a property the cascade computes: _RELEVANT's
    search. ASCII text is lower-cased and searched for each word in C, ~3.5x faster than the
    case-insensitive alternation; other text keeps the regex (its case folding also matches
    "\u017f" to "s", "\u212a" to "k"...)."""
    if not block.isascii() or "\\" in block:  # escapes: c\olor is color
        return "\\" in block or _RELEVANT.search(block) is not None
    low = block.lower()
    return (
        "font" in low
        or "color" in low
        or "display" in low
        or "visib" in low
        or "float" in low
        or "position" in low
        or "--" in low
    )


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
    if not (
        '"' in prelude
        or "'" in prelude
        or "(" in prelude
        or ")" in prelude
        or "[" in prelude
        or "]" in prelude
        or "\\" in prelude
        or "\x00" in prelude
        or "/*" in prelude
    ):  # by str searches: half the time of one regex scan
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
