"""Split a declaration block into declarations without tokenising the ones we drop.

tinycss2 tokenises a whole block in pure Python although most declarations set properties the
cascade ignores (margins, backgrounds). :func:`split_declarations` cuts a block at the ``;``
that tinycss2 would end a declaration at (outside strings, comments, ``url()`` tokens and
parenthesised or bracketed groups) and reads each declaration's name with a regular
expression; only declarations of kept properties are handed to tinycss2, one at a time, which
then sees exactly the tokens it would have seen in the whole block. Blocks the splitter cannot
vouch for (braces: nested rules or ``{}`` values; backslash escapes; an ambiguous ``url(``)
return None and are parsed whole by the caller.
"""

from __future__ import annotations

import re

# What matters for finding the end of a declaration, in text without braces and backslashes.
_SPECIAL = re.compile(r"""[;()\[\]"']|/\*|url\(""", re.I)
_STRING_END = {'"': re.compile(r'["\n\r\f]'), "'": re.compile(r"['\n\r\f]")}
# A declaration starting with a plain ASCII ident and a colon; anything else (comments before
# the colon, escapes, non-ASCII names, at-rules, garbage) goes to tinycss2.
_NAME = re.compile(r"[ \t\n\r\f]*(-?[A-Za-z_][A-Za-z0-9_-]*|--[A-Za-z0-9_-]+)[ \t\n\r\f]*:")
# Characters after which "url(" starts an ident (not "xurl(", "1url(", "#url(", "@url(").
_URL_SAFE_BEFORE = frozenset(" \t\n\r\f:,(;/*+>~!")
_CLOSERS = {"(": ")", "[": "]"}


def split_declarations(block: str) -> list[tuple[str | None, str]] | None:
    """``(lowercased name or None, text)`` per declaration-like piece of ``block``, in order.

    The name is None when the piece does not start with a plain ``ident:``; such pieces (and
    only they) may be something other than a declaration. Empty pieces are left out. Returns
    None when the block needs tinycss2 as a whole.
    """
    # str searches (memchr), a third of the time of a regex scan for these characters
    if "{" in block or "}" in block or "\\" in block:
        return None
    pieces: list[tuple[str | None, str]] = []
    if not (
        '"' in block or "'" in block or "(" in block or ")" in block or "[" in block or "]" in block or "/*" in block
    ):  # no strings, comments or groups: every ';' ends one
        for text in block.split(";"):
            _add(pieces, text)
        return pieces
    stack: list[str] = []  # expected closing characters of open groups
    start = pos = 0
    length = len(block)
    search = _SPECIAL.search
    while pos < length:
        match = search(block, pos)
        if match is None:
            break
        token = match.group()
        pos = match.end()
        if token == ";":
            if not stack:
                _add(pieces, block[start : match.start()])
                start = pos
        elif token in ("(", "["):
            stack.append(_CLOSERS[token])
        elif token in (")", "]"):
            if stack and stack[-1] == token:
                stack.pop()
            # else: a stray closer is a literal token in tinycss2 too
        elif token in ('"', "'"):
            end = _STRING_END[token].search(block, pos)
            if end is None:
                pos = length
            elif end.group() == token:
                pos = end.end()
            else:
                pos = end.start()  # a bad string ends before the newline
        elif token == "/*":
            close = block.find("*/", pos)
            pos = length if close < 0 else close + 2
        else:  # url(
            before = block[match.start() - 1] if match.start() else ";"
            if before not in _URL_SAFE_BEFORE:
                return None
            rest = pos
            while rest < length and block[rest] in " \t\n\r\f":
                rest += 1
            if rest < length and block[rest] in "\"'":
                stack.append(")")  # url("...") is a function: its string is skipped next
            else:  # an unquoted url (valid or bad) token ends at the first ")"
                close = block.find(")", pos)
                pos = length if close < 0 else close + 1
    _add(pieces, block[start:])
    return pieces


def _add(pieces: list[tuple[str | None, str]], text: str) -> None:
    match = _NAME.match(text)  # most pieces: no need to look for an empty one first
    if match is None:
        if text.strip(" \t\n\r\f"):
            pieces.append((None, text))
        return
    name = match.group(1)
    pieces.append((name if name.startswith("--") else name.lower(), text))
