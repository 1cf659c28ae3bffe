"""TemplatePipeline reuses what the crawl already has: downloaded pages, the spider's outlinks,
and the Page ExtractionPipeline parsed."""

from __future__ import annotations

import asyncio
from typing import Any

from scrapy.http import HtmlResponse

from newscrawl.items import NewsArticle
from newscrawl.pipelines import ExtractionPipeline, shared_page
from newscrawl.template.pipeline import TemplatePipeline

from .test_cli_and_sections import _Crawler, _other_layout
from .test_detect import SECTIONS, page

BASE = "http://www.ledger.com"


def _receive(pipeline: TemplatePipeline, url: str, body: str) -> None:
    """What the response_received signal hands the pipeline during a crawl."""
    response = HtmlResponse(url, status=200, body=body.encode(), encoding="utf-8",
                            headers={"Content-Type": "text/html; charset=utf-8"})
    pipeline.response_received(response, None)


def _site() -> dict[str, str]:
    pages = {f"{BASE}/{s}/": page("section", s, k) for k, s in enumerate(SECTIONS)}
    pages.update({f"{BASE}/video/clip-{k}/": _other_layout("v", k) for k in range(6)})
    return pages


def test_pages_the_crawl_downloaded_are_not_fetched_again() -> None:
    pages = _site()
    crawler = _Crawler(pages)
    pipeline = TemplatePipeline(crawler)
    for url, body in pages.items():  # the crawl has seen every page of the site
        _receive(pipeline, url, body)
    first = asyncio.run(pipeline.process_item({"url": f"{BASE}/politics/story-1/", "body": None,
                                               "html": page("article", "politics", 1)}))
    assert first["extraction"]["template"]["key"] == "ledger.com"
    # a section template after the domain has one: its pages come from the store as well
    video = asyncio.run(pipeline.process_item({"url": f"{BASE}/video/clip-9/", "body": None,
                                               "html": _other_layout("v", 9)}))
    assert video["extraction"]["template"]["key"] == "ledger.com/video"
    assert video["extraction"]["template"]["removed"] > 10
    assert crawler.engine.fetched == []
    assert crawler.stats.get_value("newscrawl/template/pages_from_store") >= 6
    assert crawler.stats.get_value("newscrawl/template/pages_fetched") is None


def test_only_missing_pages_are_fetched() -> None:
    pages = _site()
    crawler = _Crawler(pages)
    pipeline = TemplatePipeline(crawler)
    have = f"{BASE}/{SECTIONS[0]}/"
    _receive(pipeline, have, pages[have])
    asyncio.run(pipeline.process_item({"url": f"{BASE}/politics/story-1/", "body": None,
                                       "html": page("article", "politics", 1)}))
    assert crawler.engine.fetched, "the other CS pages had to be downloaded"
    assert have not in crawler.engine.fetched


def test_the_page_extraction_built_is_shared() -> None:
    pages = _site()
    crawler = _Crawler(pages)
    extraction, templates = ExtractionPipeline(crawler), TemplatePipeline(crawler)
    item = NewsArticle(url=f"{BASE}/politics/story-1/", html=page("article", "politics", 1), outlinks=[])
    extraction.process_item(item)
    built = shared_page(item)
    assert built is not None and built.url == item["url"]
    asyncio.run(templates.process_item(item))
    assert item["extraction"]["template"]["removed"] > 10
    assert crawler.stats.get_value("newscrawl/template/pages_parsed") is None  # no second parse
    assert not built.root.xpath("//footer")  # the template was stripped from that very tree
    # a plain dict item cannot be shared: the template pipeline parses it itself
    plain = {"url": f"{BASE}/sports/story-2/", "html": page("article", "sports", 2), "body": None}
    extraction.process_item(plain)
    asyncio.run(templates.process_item(plain))
    assert crawler.stats.get_value("newscrawl/template/pages_parsed") == 1


def test_store_keeps_links_and_html_across_updates() -> None:
    """An item's outlinks (the spider's) and a response's HTML for the same URL merge, so the
    search can read the links without parsing the page."""
    pages = _site()
    crawler = _Crawler(pages)
    pipeline = TemplatePipeline(crawler)
    url = f"{BASE}/{SECTIONS[1]}/"
    pipeline.store.add(url, pages[url], ["http://www.ledger.com/elsewhere/"])
    stored = pipeline.store.get(url)
    assert stored is not None and stored.links == ["http://www.ledger.com/elsewhere/"]
    pipeline.store.add(url, None)  # a later response without links keeps what is known
    assert pipeline.store.get(url).links == ["http://www.ledger.com/elsewhere/"]
    assert pipeline.store.get(url).html == pages[url]
