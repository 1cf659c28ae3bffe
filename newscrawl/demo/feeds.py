"""robots.txt, sitemaps (index, articles, Google News), the RSS feed and the per-section Atom
feeds of the demo site.

All URLs in them are absolute, built from the requesting server's base URL.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from email.utils import format_datetime
from html import escape

from newscrawl.demo.model import Article

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
NEWS_NS = "http://www.google.com/schemas/sitemap-news/0.9"


def robots(base: str, sitemap: bool = True) -> str:
    lines = ["User-agent: *", "Disallow: /private/", "Disallow: /search/", ""]
    if sitemap:
        lines.append(f"Sitemap: {base}/sitemap.xml")
    return "\n".join(lines) + "\n"


def sitemap_index(base: str, children: Iterable[str]) -> str:
    items = "".join(f"<sitemap><loc>{base}{path}</loc></sitemap>\n" for path in children)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="{SITEMAP_NS}">\n{items}</sitemapindex>\n'


def urlset(base: str, articles: Iterable[Article]) -> str:
    items = "".join(
        f"<url><loc>{base}{a.path}</loc><lastmod>{(a.modified or a.published).isoformat()}</lastmod></url>\n"
        for a in articles
    )
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{SITEMAP_NS}">\n{items}</urlset>\n'


def news_sitemap(base: str, articles: Iterable[Article], site_name: str) -> str:
    items = "".join(
        f"<url><loc>{base}{a.path}</loc><news:news><news:publication>"
        f"<news:name>{escape(site_name)}</news:name><news:language>en</news:language>"
        f"</news:publication><news:publication_date>{a.published.isoformat()}"
        f"</news:publication_date><news:title>{escape(a.title)}</news:title></news:news></url>\n"
        for a in articles
    )
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{SITEMAP_NS}" '
        f'xmlns:news="{NEWS_NS}">\n{items}</urlset>\n'
    )


def rss(base: str, articles: Sequence[Article], site_name: str) -> str:
    items = "".join(
        f"<item><title>{escape(a.title)}</title><link>{base}{a.path}</link>"
        f'<guid isPermaLink="true">{base}{a.path}</guid>'
        f"<pubDate>{format_datetime(a.published)}</pubDate>"
        f"<dc:creator>{escape(', '.join(x.name for x in a.authors))}</dc:creator>"
        f"<category>{escape(a.section)}</category>"
        f"<description>{escape(a.standfirst)}</description></item>\n"
        for a in articles
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" '
        'xmlns:atom="http://www.w3.org/2005/Atom">\n<channel>\n'
        f"<title>{escape(site_name)}</title><link>{base}/</link>"
        f'<atom:link href="{base}/feed/" rel="self" type="application/rss+xml"/>'
        "<description>News from the high plains</description><language>en-us</language>\n"
        f"{items}</channel>\n</rss>\n"
    )


def atom(base: str, path: str, title: str, articles: Sequence[Article]) -> str:
    updated = max((a.modified or a.published) for a in articles).isoformat() if articles else ""
    entries = "".join(
        f"<entry><title>{escape(a.title)}</title>"
        f'<link rel="alternate" type="text/html" href="{base}{a.path}"/>'
        f"<id>{base}{a.path}</id><published>{a.published.isoformat()}</published>"
        f"<updated>{(a.modified or a.published).isoformat()}</updated>"
        + "".join(f"<author><name>{escape(x.name)}</name></author>" for x in a.authors)
        + f"<summary>{escape(a.standfirst)}</summary></entry>\n"
        for a in articles
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n'
        f"<title>{escape(title)}</title><id>{base}{path}</id>"
        f'<link rel="self" href="{base}{path}"/><updated>{updated}</updated>\n{entries}</feed>\n'
    )
