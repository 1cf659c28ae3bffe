"""Dates of the entries of sitemaps and feeds: which announced URLs changed since the last cycle.

Plain Python over bytes (lxml). ``newscrawl.links.discovery`` reads the URLs; this reads, for the
same documents, each entry's ``lastmod`` (sitemaps, sitemap indexes), ``news:publication_date``
(news sitemaps) or ``updated``/``pubDate``/``dc:date`` (Atom, RSS): the watch re-fetches a known
article when that date changed, and ``--since`` follows only entries dated after it.
"""

from __future__ import annotations

import gzip
import zlib
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

from lxml import etree

MAX_BYTES = 50 * 1024 * 1024
_DATE_TAGS = ("lastmod", "publication_date", "updated", "pubDate", "date", "published", "modified")
_LINK_TAGS = ("loc", "link", "id")


def _decompress(body: bytes) -> bytes:
    if body[:2] != b"\x1f\x8b":
        return body
    try:
        out = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(body, MAX_BYTES)
    except (zlib.error, gzip.BadGzipFile):
        return b""
    return out


def dated_entries(body: bytes) -> dict[str, str]:
    """``{url as written: date text}`` for the entries of a sitemap, sitemap index or feed that
    state a date (the first date tag of the entry in :data:`_DATE_TAGS` order)."""
    body = _decompress(body)
    parser = etree.XMLParser(recover=True, resolve_entities=False, no_network=True, huge_tree=False)
    try:
        root = etree.fromstring(body, parser=parser)
    except (etree.XMLSyntaxError, ValueError):
        return {}
    if root is None:
        return {}
    found: dict[str, str] = {}
    for el in root.iter():
        if not isinstance(el.tag, str) or el.tag.rsplit("}", 1)[-1] not in ("url", "sitemap", "item", "entry"):
            continue
        link, dates = "", dict[str, str]()
        for child in el.iter():
            if not isinstance(child.tag, str) or child is el:
                continue
            local = child.tag.rsplit("}", 1)[-1]
            if local in _LINK_TAGS and not link:
                link = (child.get("href") if local == "link" and child.get("href") else child.text or "").strip()
            elif local in _DATE_TAGS and child.text and child.text.strip():
                dates.setdefault(local, child.text.strip())
        if link and dates:
            found[link] = next(dates[t] for t in _DATE_TAGS if t in dates)
    return found


def parse_date(text: str) -> datetime | None:
    """ISO 8601 (sitemaps, Atom) or RFC 822 (RSS) date, timezone-aware (UTC when unstated)."""
    text = text.strip()
    value: datetime | None
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        try:
            value = parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
    if value is None:
        return None
    return value if value.tzinfo else value.replace(tzinfo=UTC)
