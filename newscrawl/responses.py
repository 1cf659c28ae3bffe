"""Link resolution on Scrapy responses that malformed markup cannot break.

``response.urljoin`` raises ``ValueError`` for a malformed href and, when the page's ``<base href>``
is malformed, for every href of the page: one bad attribute would cost the page its links, its
canonical URL, its feeds or its stylesheets. Here a malformed ``<base>`` is ignored (the page URL
is the base, as browsers do) and a malformed href resolves to None for the caller to count.
Scrapy's own ``response.selector`` and meta-refresh middleware raise on such a ``<base>`` too:
:func:`selector` and :class:`MetaRefreshMiddleware` stand in for them.
"""

from __future__ import annotations

import logging

from parsel import Selector
from scrapy.downloadermiddlewares.redirect import MetaRefreshMiddleware as ScrapyMetaRefreshMiddleware
from scrapy.http import Request, Response, TextResponse
from scrapy.utils.response import get_base_url

from newscrawl.safeurl import join_url

logger = logging.getLogger(__name__)
SCRAPY_META_REFRESH = "scrapy.downloadermiddlewares.redirect.MetaRefreshMiddleware"


def base_url(response: Response) -> str:
    """The page's ``<base href>`` resolved against its URL, or its URL when that is malformed (or
    the response is not text: a gzipped sitemap)."""
    if not isinstance(response, TextResponse):
        return response.url
    try:
        return get_base_url(response)
    except ValueError:
        return response.url


def selector(response: TextResponse) -> Selector:
    """``response.selector``; Scrapy's raises ``ValueError`` for a page whose ``<base href>`` is
    malformed (it resolves the base first), so such a page gets one with its URL as the base."""
    try:
        return response.selector
    except ValueError:
        return Selector(text=response.text, type="html", base_url=response.url)  # parsel's: no <base> lookup


def resolve(response: Response, href: str) -> str | None:
    """``href`` made absolute against the page's base, or None when it is malformed."""
    return join_url(base_url(response), href.strip())


class MetaRefreshMiddleware(ScrapyMetaRefreshMiddleware):
    """Scrapy's ``<meta http-equiv=refresh>`` redirects, except that a page whose ``<base href>`` or
    refresh URL is malformed goes on as a plain page: Scrapy's middleware raises ``ValueError``
    there and the page is lost (``newscrawl/errors/ValueError``). The add-on puts this class in
    place of Scrapy's, unless a project configured that one itself."""

    def process_response(self, request: Request, response: Response) -> Request | Response:  # type: ignore[override]
        try:
            return super().process_response(request, response)
        except ValueError as exc:
            crawler = getattr(self, "crawler", None)  # set by Scrapy's from_crawler
            if crawler is not None and crawler.stats is not None:
                crawler.stats.inc_value("newscrawl/links/invalid_meta_refresh")
            logger.info("Meta refresh of %s not read (malformed URL: %s); the page goes on", response.url, exc)
            return response
