"""The news spider on the demo site: discovery, scope, robots.txt, duplicates, hand-off."""

from __future__ import annotations

import pytest

from newscrawl.demo.server import serve_site
from newscrawl.demo.site import build_demo_site

# the spider's own candidate rule (NEWSCRAWL_HAND_OFF="articles"; the default hands every page on)
SPIDER_ONLY = ("NEWSCRAWL_EXPORT_ALL=true", "NEWSCRAWL_EXTRACTION_ENABLED=false", "NEWSCRAWL_TEMPLATE_ENABLED=false",
               "NEWSCRAWL_HAND_OFF=articles")


@pytest.fixture(scope="module")
def demo_crawl(crawl, tmp_path_factory):
    # another loopback address is another site: links to it must never be fetched
    with serve_site(build_demo_site(), host="127.0.0.2") as offsite:
        site = build_demo_site(offsite_base=offsite.base_url)
        with serve_site(site) as server:
            result = crawl(tmp_path_factory.mktemp("demo"), [server.base_url + "/"], *SPIDER_ONLY)
        return site, server, offsite, result


def test_crawl_finishes_cleanly(demo_crawl):
    _, _, _, result = demo_crawl
    assert result.returncode == 0, result.log[-3000:]
    assert "Traceback" not in result.log
    assert result.stats["newscrawl/pages/fetched"] > 40


def test_every_article_is_handed_off_including_sitemap_and_feed_only(demo_crawl):
    site, server, _, result = demo_crawl
    handed = result.by_path(server.base_url)
    articles = site.article_paths()
    assert len(articles) >= 40
    missing = [p for p in articles if p not in handed]
    assert missing == []
    only_sitemap = [p for p in articles if site.article(p).only_in == "sitemap"]
    only_feed = [p for p in articles if site.article(p).only_in == "feed"]
    assert only_sitemap and only_feed
    assert {handed[p]["discovered_by"] for p in only_sitemap} == {"sitemap"}
    assert {handed[p]["discovered_by"] for p in only_feed} == {"feed"}


def test_hand_off_precision(demo_crawl):
    site, server, _, result = demo_crawl
    kinds = {path: truth.kind for path, truth in site.truth.items()}
    handed = result.by_path(server.base_url)
    wrong = [p for p in handed if kinds.get(p) != "article"]
    assert len(wrong) / len(handed) <= 0.10, wrong
    assert result.stats.get("newscrawl/pages/not_candidate", 0) > 0


def test_robots_disallowed_and_offsite_pages_are_never_fetched(demo_crawl):
    site, server, offsite, result = demo_crawl
    private = [p for p, t in site.truth.items() if t.kind == "private"]
    assert private
    assert not any(target.startswith("/private/") for target in server.hits)
    assert sum(offsite.hits.values()) == 0
    assert result.stats.get("newscrawl/links/offsite", 0) > 0


def test_each_page_fetched_once_despite_duplicate_links(demo_crawl):
    site, server, _, result = demo_crawl
    html_hits = {t: n for t, n in server.hits.items() if t.split("?")[0] in site.truth}
    assert html_hits and max(html_hits.values()) == 1, {t: n for t, n in html_hits.items() if n > 1}
    assert not any(t.endswith("index.html") or "utm_" in t for t in server.hits)


def test_item_fields(demo_crawl):
    site, server, _, result = demo_crawl
    item = result.by_path(server.base_url)[site.article_paths()[0]]
    assert item["url"].startswith(server.base_url)
    assert item["canonical_url"] == item["url"]
    assert item["domain"] == server.base_url.split("//")[1]
    assert item["status"] == 200 and isinstance(item["depth"], int)
    assert 0.0 <= item["url_probability"] <= 1.0
    assert item["fetched_at"].endswith("+00:00")
    assert item["outlinks"] and all(link.startswith(server.base_url) for link in item["outlinks"])
    assert "html" not in item


def test_start_file_and_several_start_urls(crawl, tmp_path):
    site = build_demo_site()
    with serve_site(site) as one, serve_site(site) as two:
        start_file = tmp_path / "starts.txt"
        start_file.write_text(f"# two sites\n{one.base_url}/\n{two.base_url}/politics/\n")
        result = crawl(tmp_path, [], *SPIDER_ONLY, "DEPTH_LIMIT=1", args=("--start-file", str(start_file)))
    domains = {item["domain"] for item in result.items}
    assert domains == {one.base_url.split("//")[1], two.base_url.split("//")[1]}
    assert max(item["depth"] for item in result.items) <= 1


def test_declared_page_type_decides_before_the_url():
    from lxml import html

    from newscrawl.spiders.news import declared_article

    def page(head: str) -> object:
        return html.fromstring(f"<html><head>{head}</head><body><p>x</p></body></html>")

    jsonld = '<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebPage"},{"@type":"%s"}]}</script>'
    assert declared_article(page(jsonld % "NewsArticle")) is True
    assert declared_article(page(jsonld % "Person")) is False
    og = '<meta property="og:type" content="article">'
    assert declared_article(page(og)) is True
    assert declared_article(page(og + jsonld % "Person")) is False  # structured data wins over og:type
    assert declared_article(page("")) is None


def test_pages_are_decoded_as_browsers_do(crawl, tmp_path):
    """A page whose bytes are windows-1252 but whose server says UTF-8 (a common misconfiguration)
    reaches the pipelines readable: the spider decodes with newscrawl.encoding, not the header."""
    from newscrawl.demo.base import Site
    from newscrawl.demo.model import PageTruth
    from newscrawl.demo.response import ok

    class Cp1252Site(Site):
        truth = {"/": PageTruth("/", "home"), "/news/2025/01/02/cafe-story/": PageTruth("/news/2025/01/02/cafe-story/", "article")}

        def resolve(self, path_and_query, base_url="http://127.0.0.1"):
            if path_and_query == "/":
                return ok('<html><body><a href="/news/2025/01/02/cafe-story/">story</a></body></html>')
            if path_and_query.startswith("/news/"):
                body = "<html><head><title>Caf\u00e9</title></head><body><p>Na\u00efve caf\u00e9 cr\u00e8me \u2014 \u201cquoted\u201d</p></body></html>"
                return ok(body.encode("cp1252"), "text/html; charset=utf-8")
            return ok("", "text/plain")

    with serve_site(Cp1252Site()) as server:
        result = crawl(tmp_path, [server.base_url + "/"], *SPIDER_ONLY, "NEWSCRAWL_KEEP_HTML=true")
    page = result.by_path(server.base_url)["/news/2025/01/02/cafe-story/"]
    assert "Na\u00efve caf\u00e9 cr\u00e8me \u2014 \u201cquoted\u201d" in page["html"]


def test_malformed_urls_cost_only_themselves(crawl, tmp_path):
    """hrefs urllib cannot read (``http://[x/``: an unclosed IPv6 bracket) in every place the spider
    and the CSS middleware resolve URLs: a feed link on the start page, a robots.txt Sitemap line, a
    sitemap entry, a canonical link, a page's <base>, a stylesheet link. Each is skipped and counted;
    everything else on those pages goes through (before, each raised: the start page lost its links
    and items, a sitemap all its entries, an article its item, a <base> page all its links)."""
    from newscrawl.demo.base import Site
    from newscrawl.demo.model import PageTruth
    from newscrawl.demo.response import not_found, ok

    bad = "http://[bad/"
    text = "<p>" + "The council met on Tuesday to discuss the new bridge over the river. " * 30 + "</p>"

    def article(title: str, head: str = "", body: str = "") -> str:
        return (f'<html><head><title>{title}</title>{head}<meta property="og:type" content="article"></head>'
                f"<body><h1>{title}</h1>{text}{body}</body></html>")

    articles = {"/news/2025/01/02/canonical-story/", "/news/2025/01/03/base-story/", "/news/2025/01/04/linked-story/",
                "/news/2025/01/05/sitemap-story/"}

    class BadUrlSite(Site):
        truth = {"/": PageTruth("/", "home"), **{p: PageTruth(p, "article") for p in articles}}

        def resolve(self, path_and_query, base_url="http://127.0.0.1"):
            path = path_and_query.split("?")[0]
            if path == "/":
                return ok(f'<html><head><link rel="alternate" type="application/rss+xml" href="{bad}feed">'
                          f'</head><body><a href="{bad}x">broken</a> <a href="/news/2025/01/02/canonical-story/">one</a>'
                          ' <a href="/news/2025/01/03/base-story/">two</a></body></html>')
            if path == "/robots.txt":
                return ok(f"User-agent: *\nSitemap: {bad}sitemap.xml\nSitemap: {base_url}/sitemap.xml\n", "text/plain")
            if path == "/sitemap.xml":
                return ok('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
                          f"<url><loc>{bad}lost</loc></url><url><loc>{base_url}/news/2025/01/05/sitemap-story/</loc></url>"
                          "</urlset>", "application/xml")
            if path == "/news/2025/01/02/canonical-story/":
                return ok(article("Canonical story", f'<link rel="canonical" href="{bad}c"><link rel="stylesheet" href="{bad}s.css">'))
            if path == "/news/2025/01/03/base-story/":
                return ok(article("Base story", f'<base href="{bad}">', '<a href="/news/2025/01/04/linked-story/">next</a>'))
            if path in articles:
                return ok(article(path.split("/")[-2].replace("-", " ").capitalize()))
            return not_found()

    with serve_site(BadUrlSite()) as server:
        result = crawl(tmp_path, [server.base_url + "/"], "NEWSCRAWL_HAND_OFF=all", "NEWSCRAWL_EXPORT_ALL=true",
                       "NEWSCRAWL_TEMPLATE_ENABLED=false")
    assert result.returncode == 0 and "Traceback" not in result.log, result.log[-3000:]
    items = result.by_path(server.base_url)
    assert articles <= set(items), (sorted(items), result.log[-3000:])
    story = items["/news/2025/01/02/canonical-story/"]
    assert story["canonical_url"] == server.base_url + "/news/2025/01/02/canonical-story/"
    assert story["title"] == "Canonical story" and story["body"]
    # start-page link and feed, robots Sitemap line, sitemap entry, canonical (og:url absent)
    assert result.stats["newscrawl/links/invalid"] >= 5, result.stats
    assert result.stats["newscrawl/css/skipped_malformed_url"] == 1


def test_a_malformed_start_url_is_skipped_and_the_others_are_crawled(crawl, tmp_path):
    """One bad line in a start file (``http://[x/``, which urllib refuses) used to stop the whole
    crawl at spider_opened; now it is skipped with an error line and a counter."""
    site = build_demo_site()
    with serve_site(site) as server:
        starts = tmp_path / "starts.txt"
        starts.write_text(f"http://[bad/\n{server.base_url}/\n", encoding="utf-8")
        result = crawl(tmp_path, [], *SPIDER_ONLY, "DEPTH_LIMIT=1", args=("--start-file", str(starts)))
    assert result.returncode == 0, result.log[-3000:]
    assert result.stats["newscrawl/start/invalid"] == 1
    assert "Start URL 'http://[bad/' skipped: malformed" in result.log
    assert result.items and all(item["url"].startswith(server.base_url) for item in result.items)


def test_the_page_limit_bounds_what_a_large_sitemap_queues(crawl, tmp_path):
    """NEWSCRAWL_MAX_PAGES_PER_DOMAIN counts page requests as the scheduler accepts them. It used
    to count fetched pages: a sitemap read when one page had been fetched queued all its entries
    (here 600, limit 100), and a real sitemap index queues millions."""
    from newscrawl.demo.base import Site
    from newscrawl.demo.model import PageTruth
    from newscrawl.demo.response import not_found, ok

    paths = [f"/news/2025/01/{1 + k % 28:02d}/story-{k}/" for k in range(600)]

    class BigSitemapSite(Site):
        truth = {"/": PageTruth("/", "home"), **{p: PageTruth(p, "article") for p in paths}}

        def resolve(self, path_and_query, base_url="http://127.0.0.1"):
            path = path_and_query.split("?")[0]
            if path == "/":
                return ok("<html><body><p>home</p></body></html>")
            if path == "/sitemap.xml":
                locs = "".join(f"<url><loc>{base_url}{p}</loc></url>" for p in paths)
                return ok(f'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{locs}</urlset>',
                          "application/xml")
            if path in self.truth:
                return ok(f"<html><head><title>{path}</title></head><body><p>story</p></body></html>")
            return not_found()

    with serve_site(BigSitemapSite()) as server:
        result = crawl(tmp_path, [server.base_url + "/"], *SPIDER_ONLY, "NEWSCRAWL_MAX_PAGES_PER_DOMAIN=100",
                       "CONCURRENT_ITEMS=10", "DOWNLOAD_DELAY=0")
        stories = [t for t in server.hits if t.startswith("/news/")]
    assert result.returncode == 0, result.log[-3000:]
    assert result.stats["newscrawl/sitemaps/urls"] == 600
    assert 100 <= len(stories) <= 100 + 2 * 10, len(stories)  # the limit, plus Scrapy's item buffer
    assert result.stats["newscrawl/skipped/domain_page_limit"] >= 600 - len(stories)


def test_hrefs_resolved_once_per_crawl_resolve_as_on_each_page():
    """Absolute hrefs are resolved once per crawl (by the base's scheme); every page still gets what
    urljoin against its own base and the canonicaliser give, and each malformed href is counted."""
    from urllib.parse import urljoin

    from scrapy.http import HtmlResponse
    from scrapy.utils.test import get_crawler

    from newscrawl.links.urls import canonicalize
    from newscrawl.responses import selector
    from newscrawl.spiders.news import NewsSpider

    crawler = get_crawler(NewsSpider, {"NEWSCRAWL_LOCAL": True})
    crawler.stats.open_spider()
    spider = NewsSpider.from_crawler(crawler, start_urls=["https://a.example/"])
    spider._configure()
    hrefs = ["https://a.example/p/../q?utm_source=x", "http://a.example/r", "HTTPS://A.example/s#top", "/t", "u",
             "https:///v", "http://[bad/", "https://b.example/w"]
    anchors = "".join(f'<a href="{h}">x</a>' for h in hrefs)
    pages = [("https://a.example/one/", ""), ("http://a.example/two/", ""), ("https://a.example/three/four",
             '<base href="https://a.example/base/">'), ("https://a.example/five/", "")]
    for url, head in pages:
        response = HtmlResponse(url, body=f"<html><head>{head}</head><body>{anchors}</body></html>".encode(),
                                encoding="utf-8")
        base = "https://a.example/base/" if head else url
        expected = []
        for href in hrefs:
            try:
                link = canonicalize(urljoin(base, href))
            except ValueError:
                continue
            if link in spider.scope and link not in expected:
                expected.append(link)
        invalid = crawler.stats.get_value("newscrawl/links/invalid", 0)
        assert spider._outlinks(response, selector(response)) == expected
        assert crawler.stats.get_value("newscrawl/links/invalid") == invalid + 1  # http://[bad/, on every page
    assert ("https", "https://a.example/p/../q?utm_source=x") in spider.href_links  # resolved once, kept
