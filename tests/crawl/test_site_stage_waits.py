"""The site stage (newscrawl.site_pipeline) decides a page by its site only on conclusive evidence:
a page whose layout's sure pages are split waits for more of the site instead of being decided by
the page model alone, so the verdict does not depend on the order in which the pages arrived."""

from __future__ import annotations

from types import SimpleNamespace

from itemadapter import ItemAdapter
from scrapy.settings import Settings

from newscrawl.site_pipeline import SiteArticlePipeline

SITE = "news.example"
STORY = {"headline": "html/body/main/article/h1.entry-title", "dateline": "html/body/main/article/time.published",
         "teasers": 0, "text": 900}
ARCHIVE = {"headline": "html/body/div/section/h2.archive-title", "dateline": None, "teasers": 0, "text": 300}


def _pipeline() -> SiteArticlePipeline:
    crawler = SimpleNamespace(settings=Settings(), stats=SimpleNamespace(inc_value=lambda *a, **k: None),
                              signals=SimpleNamespace(connect=lambda *a, **k: None))
    return SiteArticlePipeline(crawler)  # type: ignore[arg-type]


def _item(path: str, probability: float, layout: dict) -> dict:
    return {"url": f"https://{SITE}{path}", "domain": SITE, "probability": probability, "site_layout": dict(layout)}


def test_a_page_of_a_split_layout_waits_then_is_decided_by_its_own_evidence():
    stage = _pipeline()
    for k in range(25):  # the site's stories: enough sure articles for its layouts to decide
        stage.layouts.add(f"https://{SITE}/story-{k}/", SITE, 0.95, STORY)
    for k in range(3):  # the archive layout: three sure articles, three sure non-articles
        stage.layouts.add(f"https://{SITE}/a-{k}/", SITE, 0.95, ARCHIVE)
        stage.layouts.add(f"https://{SITE}/b-{k}/", SITE, 0.05, ARCHIVE)
    story = ItemAdapter(_item("/story-new/", 0.6, STORY))
    verdict = stage._verdict(story)
    assert verdict is not None and verdict.method == "site-layout" and verdict.is_article
    page = ItemAdapter(_item("/tag/roads/", 0.7, ARCHIVE))
    assert stage._verdict(page) is None  # split evidence: more of the site may settle it
    final = stage._verdict(page, final=True)  # the crawl idle, or the buffer full
    assert final is not None and final.method == "page-model" and final.is_article
    for k in range(20):  # the archive layout turns out to hold non-articles
        stage.layouts.add(f"https://{SITE}/c-{k}/", SITE, 0.05, ARCHIVE)
    settled = stage._verdict(page)
    assert settled is not None and settled.method == "site-layout" and not settled.is_article


def test_a_bare_majority_of_its_layout_does_not_raise_a_page_before_the_end():
    stage = _pipeline()
    for k in range(25):
        stage.layouts.add(f"https://{SITE}/story-{k}/", SITE, 0.95, STORY)
    for k in range(7):  # the archive layout: 7 sure articles, 3 sure non-articles (share 8/12)
        stage.layouts.add(f"https://{SITE}/a-{k}/", SITE, 0.95, ARCHIVE)
    for k in range(3):
        stage.layouts.add(f"https://{SITE}/b-{k}/", SITE, 0.05, ARCHIVE)
    page = ItemAdapter(_item("/tag/water/", 0.3, ARCHIVE))
    assert stage._verdict(page) is None
    final = stage._verdict(page, final=True)
    assert final is not None and final.method == "site-layout" and final.is_article


def _engine(active: int, backout: bool) -> SimpleNamespace:
    slot = SimpleNamespace(closing=None, active=set(range(active)), needs_backout=lambda: backout)
    return SimpleNamespace(scraper=SimpleNamespace(slot=slot), _slot=SimpleNamespace(closing=None, scheduler=None),
                           downloader=SimpleNamespace(active=()))


def test_a_full_scraper_releases_waiting_pages_only_once_no_other_page_is_on_its_way():
    from twisted.internet.defer import Deferred

    stage = _pipeline()
    decided = []
    for k in range(4):
        item = _item(f"/p-{k}/", 0.7, ARCHIVE)
        waiter: Deferred = Deferred()
        waiter.addCallback(decided.append)
        stage.waiting[id(item)] = (item, waiter)
    stage.crawler.engine = _engine(active=6, backout=True)  # two responses still in the extraction
    stage._check()
    assert decided == [] and len(stage.waiting) == 4
    stage.crawler.engine = _engine(active=4, backout=True)  # only the waiting pages hold the scraper
    stage._check()
    assert [d["url"] for d in decided] == [f"https://{SITE}/p-0/", f"https://{SITE}/p-1/"]
    assert len(stage.waiting) == 2
