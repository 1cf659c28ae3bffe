"""ExtractionPipeline: the styles of a crawled page come from the sheets the CSS middleware fetched
and, beside them, the page's own <style> elements."""

from __future__ import annotations

from scrapy.utils.test import get_crawler

from newscrawl.css import parse_stylesheet
from newscrawl.css.store import stylesheet_store
from newscrawl.items import NewsArticle
from newscrawl.pipelines import ExtractionPipeline

from .test_extraction_timeout import ARTICLE


def test_a_crawled_page_with_its_fetched_sheets_keeps_its_style_elements() -> None:
    # beside the sheets the CSS middleware fetched, a page's <style> elements join its cascade;
    # without them (none listed, or none fetched) the page is styled like a page given alone
    narrow = "A second telling of the river story, laid out for narrow screens only, says the same."
    html = ARTICLE.replace("</title>", "</title><link rel=stylesheet href=/site.css>"
                           "<style>.narrow { display: none }</style>").replace(
        "</article>", f'<p class="narrow">{narrow}</p></article>')
    crawler = get_crawler(settings_dict={"NEWSCRAWL_TEMPLATE_ENABLED": False})
    sheet_url = "https://news.example/site.css"
    stylesheet_store(crawler).put(sheet_url, parse_stylesheet("h1 { font-size: 40px }", url=sheet_url))
    pipeline = ExtractionPipeline(crawler)

    def body(sheets: list[str]) -> str:
        item = NewsArticle(url="https://news.example/2024/05/river-plan/", html=html, stylesheets=sheets)
        return pipeline.process_item(item)["body"]

    assert narrow not in body([sheet_url]) and "riverside flood defences" in body([sheet_url])
    assert narrow in body([]) and narrow in body(["https://news.example/never-fetched.css"])
