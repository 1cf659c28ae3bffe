"""The baseline for benchmarks/crawl.py: a bare Scrapy spider that only follows same-site links."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import urlsplit

import scrapy
from scrapy.linkextractors import LinkExtractor


class BareSpider(scrapy.Spider):
    name = "bare"

    def __init__(self, start: str = "", *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.start_url = start
        # Scrapy matches allow_domains against host:port, so use the netloc
        self.links = LinkExtractor(allow_domains=[urlsplit(start).netloc])

    async def start(self) -> AsyncIterator[scrapy.Request]:
        yield scrapy.Request(self.start_url)

    def parse(self, response: scrapy.http.Response) -> Iterator[Any]:
        yield {"url": response.url}
        if isinstance(response, scrapy.http.HtmlResponse):
            for link in self.links.extract_links(response):
                yield response.follow(link.url)
