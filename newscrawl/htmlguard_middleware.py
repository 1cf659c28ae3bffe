"""``HtmlGuardMiddleware``: :func:`newscrawl.htmlguard.guard_html` on every HTML response, before the
spider, the template store or any pipeline parses it (downloader middleware, after decompression).

A page over ``NEWSCRAWL_MAX_ATTRIBUTES_PER_TAG`` or ``NEWSCRAWL_MAX_TAGS_PER_PAGE`` goes on with
its markup capped, logged once at WARNING and counted in ``newscrawl/guard/pages``,
``newscrawl/guard/tags_capped``, ``newscrawl/guard/attributes_dropped`` and ``newscrawl/guard/pages_cut``.
"""

from __future__ import annotations

import logging
from typing import Any

from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Request, Response

from newscrawl.htmlguard import guard_html

logger = logging.getLogger(__name__)


class HtmlGuardMiddleware:
    def __init__(self, crawler: Crawler) -> None:
        s = crawler.settings
        self.max_attributes = s.getint("NEWSCRAWL_MAX_ATTRIBUTES_PER_TAG", 1000)
        self.max_tags = s.getint("NEWSCRAWL_MAX_TAGS_PER_PAGE", 2_000_000)
        if self.max_attributes <= 0 and self.max_tags <= 0:
            raise NotConfigured("no markup caps")
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> HtmlGuardMiddleware:
        return cls(crawler)

    def process_response(self, request: Request, response: Response, spider: Any = None) -> Response:
        if not isinstance(response, HtmlResponse):
            return response
        guarded = guard_html(response.body, self.max_attributes, self.max_tags)
        if not guarded.changed:
            return response
        self.stats.inc_value("newscrawl/guard/pages")
        self.stats.inc_value("newscrawl/guard/tags_capped", guarded.capped_tags)
        self.stats.inc_value("newscrawl/guard/attributes_dropped", guarded.attributes)
        if guarded.cut:
            self.stats.inc_value("newscrawl/guard/pages_cut")
        logger.warning(
            "Markup capped on %s: %d attributes dropped from %d tags%s (NEWSCRAWL_MAX_ATTRIBUTES_PER_TAG,"
            " NEWSCRAWL_MAX_TAGS_PER_PAGE)",
            response.url[:300],
            guarded.attributes,
            guarded.capped_tags,
            ", cut after the tag limit" if guarded.cut else "",
        )
        return response.replace(body=guarded.body)
