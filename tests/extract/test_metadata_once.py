"""read_metadata reads a Page once: the same answer as a fresh read, for the URL it was asked with."""

from __future__ import annotations

import json

from newscrawl.extract.metadata import read_metadata
from newscrawl.page import Page

HTML = """<html lang="en"><head><title>Rain - The Ledger</title>
<link rel="canonical" href="/news/rain/"><meta property="og:type" content="article">
<script type="application/ld+json">{}</script></head><body><h1>Rain</h1><p>It rained.</p></body></html>"""


def test_a_page_is_read_once_per_url() -> None:
    ld = json.dumps({"@type": "NewsArticle", "headline": "Rain", "author": {"name": "A. Writer"}})
    page = Page.from_html(HTML.replace("{}", ld), "https://example.com/news/rain/")
    first = read_metadata(page)
    assert read_metadata(page) is first
    assert first.title == "Rain" and first.authors == ["A. Writer"] and first.canonical_url == "/news/rain/"
    resolved = read_metadata(page, page.url)  # another url: read again, and resolved against it
    assert resolved is not first and resolved.canonical_url == "https://example.com/news/rain/"
    other = Page.from_html(HTML, "https://example.com/news/rain/")  # another page: its own answer
    assert read_metadata(other) is not first and read_metadata(other).authors == []
