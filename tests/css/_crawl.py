"""Run one real Scrapy crawl on 127.0.0.1 with the stylesheet middleware and print a JSON report.

Used by test_middleware.py in a subprocess (a Twisted reactor cannot be restarted in one
process). Usage: python _crawl.py demo|hostile '{"NEWSCRAWL_CSS_TIMEOUT": 1}' [PORT]
(a fixed port lets two crawls share stylesheet URLs, for the source cache).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from urllib.parse import urlparse

import scrapy
from scrapy.crawler import CrawlerProcess

from newscrawl.css.middleware import META_KEY
from newscrawl.css.store import stylesheet_store
from newscrawl.demo import Site, build_demo_site, serve_site
from newscrawl.demo.response import CSS, HTML, Response, not_found, ok, redirect

GOOD_CSS = "h1 { font-size: 40px } p { color: #123456 }"


class HostileSite(Site):
    """Pages that all link the same broken, slow, huge, looping and mislabelled stylesheets."""

    truth: dict = {}
    LINKS = ["/ok.css", "/missing.css", "/big.css", "/html.css", "/slow.css", "/cycle-a.css",
             "/bad-utf8.css", "/redirect.css", "/htmlbody.css"]

    def resolve(self, path_and_query: str, base_url: str = "") -> Response:
        path = path_and_query.split("?", 1)[0]
        if path == "/robots.txt":
            return ok("User-agent: *\nDisallow: /private/\n", "text/plain")
        if path == "/" or path.startswith("/p"):
            links = "".join(f'<link rel="stylesheet" href="{u}">' for u in self.LINKS)
            links += ('<link rel="stylesheet" href="file:///etc/hostname">'
                      '<link rel="stylesheet" href="data:text/css,p{color:red}">')
            pages = "".join(f'<a href="/p{i}">p{i}</a>' for i in range(1, 6))
            extra = '<a href="/style-page.css">s</a><a href="/html-as-css">h</a>'
            return ok(f"<!DOCTYPE html><html><head>{links}<style>@import '/ok.css';"
                      f"</style></head><body><h1>{path}</h1>{pages}{extra}</body></html>")
        if path == "/ok.css" or path == "/ok2.css":
            return ok(GOOD_CSS, CSS)
        if path == "/big.css":
            chunk = b"p{color:red}" * 1000
            return Response(200, {"Content-Type": CSS}, stream=lambda: iter([chunk] * 300),
                            length=len(chunk) * 300)
        if path == "/html.css":
            return ok("<!DOCTYPE html><html><body>not css</body></html>", HTML)
        if path == "/slow.css":
            return Response(200, {"Content-Type": CSS}, stream=lambda: iter([b"p{}"] * 40),
                            length=3 * 40, chunk_delay=0.25)
        if path == "/cycle-a.css":
            return ok("@import '/cycle-b.css'; a { color: red }", CSS)
        if path == "/cycle-b.css":
            return ok("@import '/cycle-a.css'; b { color: blue }", CSS)
        if path == "/bad-utf8.css":
            return Response(200, {"Content-Type": CSS},
                            b"p { color: red } \xff\xfe\xc3( h2 { font-size: 9px }")
        if path == "/redirect.css":
            return redirect("/ok2.css")
        if path == "/htmlbody.css":
            return ok("<html><body><p>html served as css</p></body></html>", CSS)
        if path == "/style-page.css":
            return ok("<!DOCTYPE html><html><body><p>a page with a .css name</p></body></html>")
        if path == "/html-as-css":
            return ok("<!DOCTYPE html><html><body><p>html labelled css</p></body></html>", CSS)
        return not_found()


class CollectSpider(scrapy.Spider):
    name = "collect"

    def __init__(self, start: str, report: dict, **kw: object) -> None:
        super().__init__(**kw)
        self.start_urls = [start]
        self.host = urlparse(start).netloc
        self.report = report

    def parse(self, response: scrapy.http.Response) -> Iterator[scrapy.Request]:
        self.report["pages"][response.url] = {
            "stylesheets": response.meta.get(META_KEY),
            "html": isinstance(response, scrapy.http.HtmlResponse),
        }
        if not isinstance(response, scrapy.http.TextResponse):
            return
        if not isinstance(response, scrapy.http.HtmlResponse):
            return
        for href in response.css("a::attr(href)").getall():
            url = response.urljoin(href)
            if urlparse(url).netloc == self.host:
                yield scrapy.Request(url, callback=self.parse)


def main() -> None:
    which, overrides = sys.argv[1], json.loads(sys.argv[2] if len(sys.argv) > 2 else "{}")
    site = build_demo_site() if which == "demo" else HostileSite()
    report: dict = {"pages": {}}
    settings = {
        "DOWNLOADER_MIDDLEWARES": {"newscrawl.css.middleware.StylesheetMiddleware": 650},
        "ROBOTSTXT_OBEY": True, "LOG_LEVEL": "ERROR", "TELNETCONSOLE_ENABLED": False,
        "CLOSESPIDER_PAGECOUNT": 0, "DEPTH_LIMIT": 3, "RETRY_ENABLED": False,
        **overrides,
    }
    port = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    with serve_site(site, port=port) as served:
        process = CrawlerProcess(settings=settings)
        crawler = process.create_crawler(CollectSpider)
        started = time.monotonic()
        process.crawl(crawler, start=served.url("/"), report=report)
        process.start()
        report["seconds"] = time.monotonic() - started
        report["hits"] = dict(served.hits)
    stats = crawler.stats.get_stats()
    report["stats"] = {k: v for k, v in stats.items()
                       if isinstance(k, str) and k.startswith(("newscrawl/", "robotstxt/"))}
    store = stylesheet_store(crawler)
    report["store"] = store.stats()
    urls = {u for page in report["pages"].values() for u in page["stylesheets"] or []}
    report["parsed"] = {u: (store.get(u) is not None) for u in sorted(urls)}
    report["rules"] = {u: len(store.get(u).rules) for u in sorted(urls) if store.get(u)}
    print(json.dumps(report))


if __name__ == "__main__":
    main()
