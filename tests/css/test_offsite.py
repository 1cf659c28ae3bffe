"""Stylesheets on other registrable domains are fetched only with NEWSCRAWL_CSS_OFFSITE."""

from __future__ import annotations

from scrapy.http import HtmlResponse
from scrapy.utils.test import get_crawler

from newscrawl.css.middleware import StylesheetMiddleware
from newscrawl.defaults import DEFAULTS
from newscrawl.profiles import LOCAL

PAGE = b"""<html><head>
<link rel="stylesheet" href="/static/site.css">
<link rel="stylesheet" href="https://cdn.example.org/theme.css">
<link rel="stylesheet" href="https://static.news.example.com/x.css">
<style>@import url(https://fonts.example.net/f.css); @import url(/static/more.css);</style>
</head><body><p>x</p></body></html>"""


def sources(offsite: bool) -> tuple[list, int]:
    crawler = get_crawler(settings_dict={**DEFAULTS, "NEWSCRAWL_CSS_OFFSITE": offsite})
    crawler.stats.open_spider()
    middleware = StylesheetMiddleware(crawler)
    response = HtmlResponse("https://www.example.com/a/", body=PAGE)
    found = middleware._sources(response)
    links = [value for kind, value in found if kind == "link"]
    imports = [imp.url for kind, value in found if kind == "style" for imp in value]
    return links + imports, crawler.stats.get_value("newscrawl/css/skipped_offsite", 0)


def test_offsite_sheets_are_skipped_and_counted_when_off():
    urls, skipped = sources(offsite=False)
    assert urls == ["https://www.example.com/static/site.css", "https://static.news.example.com/x.css",
                    "https://www.example.com/static/more.css"]
    assert skipped == 2


def test_offsite_sheets_are_fetched_by_default_but_not_in_the_local_profile():
    urls, skipped = sources(offsite=DEFAULTS["NEWSCRAWL_CSS_OFFSITE"])
    assert "https://cdn.example.org/theme.css" in urls and "https://fonts.example.net/f.css" in urls
    assert skipped == 0
    assert LOCAL["NEWSCRAWL_CSS_OFFSITE"] is False
