"""ExtractionPipeline: a page whose extraction runs past NEWSCRAWL_EXTRACTION_TIMEOUT is stopped,
exported with the error and counted; the next page is extracted as usual."""

from __future__ import annotations

import gc

from scrapy.utils.test import get_crawler

from newscrawl.items import NewsArticle
from newscrawl.pipelines import ExtractionPipeline

ARTICLE = ("<html><head><title>Council backs the river plan</title></head><body><article>"
           "<h1>Council backs the river plan</h1>"
           + "<p>The council voted on Tuesday to fund the riverside flood defences and a new footpath.</p>" * 12
           + "</article></body></html>")


def test_a_page_over_the_time_limit_is_stopped_and_the_crawl_goes_on() -> None:
    crawler = get_crawler(settings_dict={"NEWSCRAWL_EXTRACTION_TIMEOUT": 0.0001, "NEWSCRAWL_TEMPLATE_ENABLED": False})
    pipeline = ExtractionPipeline(crawler)
    enabled = gc.isenabled()
    item = pipeline.process_item(NewsArticle(url="https://news.example/2024/05/river-plan/", html=ARTICLE))
    assert "TimeLimitExceeded" in item["extraction"]["error"]
    assert "body" not in item and "title" not in item
    assert crawler.stats.get_value("newscrawl/extraction/timeouts") == 1
    assert gc.isenabled() == enabled  # the collector pause was put back however the stop landed

    pipeline.timeout = 60.0  # the same pipeline, a normal limit: the page goes through
    item = pipeline.process_item(NewsArticle(url="https://news.example/2024/05/river-plan/", html=ARTICLE))
    assert item["title"] == "Council backs the river plan" and "riverside flood defences" in item["body"]
    assert crawler.stats.get_value("newscrawl/extraction/timeouts") == 1
    assert crawler.stats.get_value("newscrawl/extraction/pages") == 1


def test_the_limit_is_a_documented_setting_that_can_be_turned_off() -> None:
    from newscrawl.defaults import DEFAULTS

    assert DEFAULTS["NEWSCRAWL_EXTRACTION_TIMEOUT"] == 120.0
    crawler = get_crawler(settings_dict={"NEWSCRAWL_EXTRACTION_TIMEOUT": 0, "NEWSCRAWL_TEMPLATE_ENABLED": False})
    item = ExtractionPipeline(crawler).process_item(NewsArticle(url="https://news.example/a/", html=ARTICLE))
    assert "error" not in item["extraction"] and item["body"]
