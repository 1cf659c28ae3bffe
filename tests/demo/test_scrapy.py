"""A bare Scrapy crawl (16 concurrent requests, keep-alive) over the served demo site.

Runs in a subprocess so Twisted's reactor never touches the pytest process.
"""

from __future__ import annotations

import json
import subprocess
import sys

from newscrawl.demo import build_demo_site

SCRIPT = r"""
import json
from urllib.parse import urlsplit

import scrapy
from scrapy.crawler import CrawlerProcess

from newscrawl.demo import build_demo_site, serve_site


class Follow(scrapy.Spider):
    name = "follow"

    async def start(self):
        yield scrapy.Request(self.base + "/")

    def parse(self, response):
        if not response.headers.get(b"Content-Type", b"").startswith(b"text/html"):
            return
        for href in response.css("a::attr(href)").getall():
            url = response.urljoin(href)
            if urlsplit(url).netloc == urlsplit(self.base).netloc:
                yield scrapy.Request(url.split("#")[0])


with serve_site(build_demo_site()) as served:
    process = CrawlerProcess({"CONCURRENT_REQUESTS": 16, "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
                              "ROBOTSTXT_OBEY": False, "LOG_LEVEL": "ERROR",
                              "TELNETCONSOLE_ENABLED": False})
    process.crawl(Follow, base=served.base_url)
    process.start()
    print(json.dumps(dict(served.hits)))
"""


def test_scrapy_crawls_every_linked_page_once_with_16_concurrent_requests() -> None:
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    hits = json.loads(out.stdout.strip().splitlines()[-1])
    site = build_demo_site()
    fetched = {t.split("?")[0].removesuffix("index.html") for t in hits}
    assert set(site.linked_paths()) <= fetched
    assert all(n == 1 for n in hits.values())  # Scrapy's dupefilter: one request per URL
