"""One real crawl (the add-on, the news spider) of a site on 127.0.0.1 whose pages link stylesheets
on a host that refuses connections; prints the stats and the log records as JSON.

Used by test_unreachable.py in a subprocess (a Twisted reactor cannot be restarted in one process).
"""

from __future__ import annotations

import json
import logging
import socket
import sys

from scrapy.crawler import CrawlerProcess

from newscrawl.demo import Site, serve_site
from newscrawl.demo.response import Response, not_found, ok
from newscrawl.runner import crawl_settings
from newscrawl.spiders.news import NewsSpider

SHEETS = ("/a.css", "/b.css", "/c.css")


def closed_port() -> int:
    """A port nothing listens on: bound, then released."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class UnreachableSheets(Site):
    truth: dict = {}

    def __init__(self, dead: str) -> None:
        self.dead = dead

    def resolve(self, path_and_query: str, base_url: str = "") -> Response:
        path = path_and_query.split("?", 1)[0]
        if path == "/robots.txt":
            return ok("User-agent: *\n", "text/plain")
        if path == "/" or path.startswith("/story"):
            links = "".join(f'<link rel="stylesheet" href="{self.dead}{sheet}">' for sheet in SHEETS)
            stories = "".join(f'<a href="/story-{i}">Story {i}</a>' for i in range(4))
            text = "<p>" + "A paragraph of the story with enough words to be read as text. " * 8 + "</p>"
            return ok(f"<!DOCTYPE html><html><head><title>{path}</title>{links}</head>"
                      f"<body><h1>Headline {path}</h1>{text}{stories}</body></html>")
        return not_found()


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[dict] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append({"logger": record.name, "level": record.levelname, "message": record.getMessage(),
                             "traceback": record.exc_info is not None})


def main() -> None:
    dead = f"http://127.0.0.1:{closed_port()}"
    records = Records()
    with serve_site(UnreachableSheets(dead)) as served:
        settings = crawl_settings(None, local=True, overrides={
            "NEWSCRAWL_CSS_OFFSITE": True, "LOG_LEVEL": "INFO", "TELNETCONSOLE_ENABLED": False,
            "NEWSCRAWL_HAND_OFF": "all", "NEWSCRAWL_EXTRACTION_ENABLED": False, "RETRY_TIMES": 1})
        process = CrawlerProcess(settings, install_root_handler=False)
        logging.getLogger().addHandler(records)
        logging.getLogger().setLevel(logging.DEBUG)
        crawler = process.create_crawler(NewsSpider)
        process.crawl(crawler, start=served.url("/"))
        process.start()
    stats = {k: v for k, v in crawler.stats.get_stats().items() if isinstance(k, str) and k.startswith("newscrawl/")}
    print(json.dumps({"dead": dead, "stats": stats, "records": records.records}))


if __name__ == "__main__":
    sys.exit(main())
