"""Where else a site lists its articles: robots.txt ``Sitemap:`` lines, sitemaps (indexes,
url sets, Google news sitemaps, gzipped or not) and RSS/Atom feeds. Pure functions over bytes."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from lxml import etree
from scrapy.utils.gz import gunzip
from scrapy.utils.sitemap import Sitemap

logger = logging.getLogger(__name__)

FEED_TYPES = ("application/rss+xml", "application/atom+xml", "application/feed+json", "application/rdf+xml")
MAX_SITEMAP_BYTES = 50 * 1024 * 1024  # the sitemaps.org limit for an uncompressed file
MAX_SITEMAP_ENTRIES = 50_000


def sitemaps_from_robots(text: str) -> list[str]:
    """Absolute URLs of the ``Sitemap:`` lines of a robots.txt, in order, without duplicates."""
    found: list[str] = []
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip().lower() == "sitemap":
            url = value.strip()
            if url and url not in found:
                found.append(url)
    return found


@dataclass(frozen=True)
class SitemapEntries:
    kind: str  # "sitemapindex", "urlset" or "" when the body is no sitemap
    urls: list[str]


def parse_sitemap(body: bytes) -> SitemapEntries:
    """Entries of a sitemap or sitemap index; gzip bodies are decompressed up to a size limit."""
    if body[:2] == b"\x1f\x8b":
        try:
            body = gunzip(body, max_size=MAX_SITEMAP_BYTES)
        except (OSError, EOFError, ValueError) as exc:
            logger.info("Unreadable gzipped sitemap: %s", exc)
            return SitemapEntries("", [])
    if not body.lstrip()[:1] == b"<":
        return SitemapEntries("", [])
    try:
        sitemap = Sitemap(body)
        urls: list[str] = []
        for entry in sitemap:
            loc = entry.get("loc")
            if loc:
                urls.append(loc.strip())
            if len(urls) >= MAX_SITEMAP_ENTRIES:
                break
    except (etree.XMLSyntaxError, StopIteration, AttributeError) as exc:
        logger.info("Unreadable sitemap: %s", exc)
        return SitemapEntries("", [])
    return SitemapEntries(sitemap.type if sitemap.type in {"sitemapindex", "urlset"} else "", urls)


_ATOM = "{http://www.w3.org/2005/Atom}"


def parse_feed(body: bytes, limit: int = 10_000) -> list[str]:
    """Item links of an RSS 2.0, RSS 1.0 (RDF) or Atom feed, in feed order."""
    parser = etree.XMLParser(recover=True, resolve_entities=False, no_network=True, huge_tree=False)
    try:
        root = etree.fromstring(body, parser=parser)
    except etree.XMLSyntaxError:
        return []
    if root is None:
        return []
    links: list[str] = []
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        local = el.tag.rsplit("}", 1)[-1]
        if local == "item":  # RSS 2.0 and RDF
            for child in el:
                if isinstance(child.tag, str) and child.tag.rsplit("}", 1)[-1] == "link" and child.text:
                    links.append(child.text.strip())
                    break
        elif el.tag == f"{_ATOM}entry":
            for child in el.iter(f"{_ATOM}link"):
                if child.get("rel", "alternate") == "alternate" and child.get("href"):
                    links.append(child.get("href").strip())
                    break
        if len(links) >= limit:
            break
    return links
