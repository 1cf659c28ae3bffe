"""Turn a page's raw bytes into text the way a browser would, and never fail doing it.

Order (WHATWG "determine the character encoding"): byte-order mark, then the HTTP charset, then
the ``<meta charset>`` / ``<meta http-equiv=content-type>`` / XML-declaration prescan of the first
4 KiB, then a fallback: UTF-8 when the bytes are UTF-8, else windows-1252. Labels go through
w3lib's WHATWG alias table (``latin1``/``iso-8859-1``/``ascii`` mean windows-1252, ``gb2312``
means gb18030, ...); a meta tag naming UTF-16/32 means UTF-8, as in browsers, because a document
whose meta tag could be read as ASCII cannot be UTF-16.

One deliberate step away from browsers: a declared legacy encoding is overridden when the bytes
are strictly valid UTF-8 and contain multi-byte sequences. Legacy-encoded text is practically
never valid UTF-8 by accident, while "charset=iso-8859-1" on UTF-8 pages is a common server
default; a browser shows mojibake there, an extractor should not. Likewise, bytes declared (or
guessed) as UTF-8 that contain no valid multi-byte sequence at all but do contain high bytes are
read as windows-1252. Invalid bytes become U+FFFD.

After decoding, :func:`repair_c1` mends text that was already broken when the page was written:
C1 control characters (U+0080-U+009F) are never text, so where they appear they are the bytes of
UTF-8 read once as Latin-1 ("computer\u00e2\u0080\u0099s" for "computer\u2019s") or of
windows-1252 read as Latin-1 ("we\u0092re"), and are read back as such.
"""

from __future__ import annotations

import codecs
import re

from w3lib.encoding import html_body_declared_encoding, http_content_type_encoding, read_bom, resolve_encoding

__all__ = ["decode_html", "repair_c1", "resolve_label"]

_FALLBACK = "cp1252"
_UNICODE_WIDE = frozenset({"utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"})


def resolve_label(label: str | None) -> str | None:
    """Python codec name for a WHATWG encoding label or a whole Content-Type value; None if unknown."""
    if not label:
        return None
    label = label.strip()
    if "=" in label or ";" in label:
        name = http_content_type_encoding(label)
    else:
        name = resolve_encoding(label.strip("\"'"))
    return name


def _is_utf8(name: str) -> bool:
    return codecs.lookup(name).name == "utf-8"


def _utf8_reading(data: bytes) -> tuple[str, str | None]:
    """How the bytes read as UTF-8: ('ascii', None), ('valid', text), ('mostly', text) when valid
    multi-byte characters outnumber invalid sequences, else ('no', None). All work is in C."""
    if data.isascii():
        return "ascii", None
    try:
        return "valid", data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    text = data.decode("utf-8", "replace")
    invalid = text.count("\ufffd")
    multibyte = len(text) - len(text.encode("ascii", "ignore")) - invalid
    return ("mostly", text) if multibyte > invalid else ("no", None)


def _decode(data: bytes, name: str) -> str:
    try:
        return data.decode(name, "replace")
    except (LookupError, ValueError):  # a codec that refuses "replace" or vanished: never raise
        return data.decode(_FALLBACK, "replace")


def decode_html(data: bytes | bytearray | memoryview | str, http_charset: str | None = None) -> tuple[str, str]:
    """Decode a page's bytes; return ``(text, encoding)`` with the Python codec name actually used.

    ``http_charset`` is the HTTP header's label (``"iso-8859-1"``) or the whole Content-Type value
    (``"text/html; charset=iso-8859-1"``). A ``str`` is returned unchanged (encoding ``"unicode"``).
    """
    if isinstance(data, str):
        return data, "unicode"
    data = bytes(data)
    bom_name, bom = read_bom(data)
    if bom_name is not None and bom is not None:
        return _decode(data[len(bom) :], bom_name), bom_name

    declared = resolve_label(http_charset)
    if declared is None:
        declared = resolve_label(html_body_declared_encoding(data))
        if declared in _UNICODE_WIDE:
            declared = "utf-8"

    if declared is not None and codecs.lookup(declared).name in _UNICODE_WIDE:
        return _decode(data, declared), declared

    verdict, utf8_text = _utf8_reading(data)
    if declared is None or _is_utf8(declared):
        name = _FALLBACK if verdict == "no" else "utf-8"
    else:
        name = "utf-8" if verdict == "valid" else declared
    if name == "utf-8" and utf8_text is not None:
        return utf8_text, name
    return _decode(data, name), name


_C1 = re.compile("[\u0080-\u009f]")
# a UTF-8 lead byte read as Latin-1 and its continuation bytes (U+0080-U+00BF), or a lone C1 character
_C1_RUN = re.compile("[\u00c2-\u00f4][\u0080-\u00bf]{1,3}|[\u0080-\u009f]")


def _mend(match: re.Match[str]) -> str:
    run = match.group()
    if len(run) > 1:
        if not _C1.search(run):  # "\u00c3\u00a9" may be mojibake of "\u00e9", or "\u00c3\u00a9": left alone
            return run
        try:
            mended = run.encode("latin-1").decode("utf-8")
            return _C1_RUN.sub(_mend, mended) if _C1.search(mended) else mended  # "\u00c2\u0095": "\u2022"
        except UnicodeDecodeError:
            return run[0] + _C1_RUN.sub(_mend, run[1:])
    # one C1 character: the windows-1252 character of that byte (as HTML does for "&#146;"); the
    # five bytes windows-1252 leaves undefined are dropped
    return bytes([ord(run)]).decode("cp1252", "ignore")


def repair_c1(text: str) -> str:
    """``text`` with its C1 control characters read back as the UTF-8 or windows-1252 bytes they
    were (see the module docstring); unchanged, at the cost of one scan, when it has none."""
    if not _C1.search(text):
        return text
    return _C1_RUN.sub(_mend, text)
