"""robots.txt, the sitemap index, the articles and Google News sitemaps and the RSS feed."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from email.utils import parsedate_to_datetime

import lxml.html

from newscrawl.demo import DemoSite

BASE = "http://127.0.0.1:8123"
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
NEWS = "{http://www.google.com/schemas/sitemap-news/0.9}"


def xml(site: DemoSite, path: str, ctype: str) -> ET.Element:
    resp = site.resolve(path, BASE)
    assert resp.status == 200 and resp.content_type.startswith(ctype), path
    return ET.fromstring(resp.body)


def test_robots_txt(site: DemoSite) -> None:
    resp = site.resolve("/robots.txt", BASE)
    assert resp.content_type.startswith("text/plain")
    lines = resp.text().splitlines()
    assert "User-agent: *" in lines and "Disallow: /private/" in lines
    assert f"Sitemap: {BASE}/sitemap.xml" in lines


def test_sitemap_index_lists_articles_and_news_sitemaps(site: DemoSite) -> None:
    root = xml(site, "/sitemap.xml", "application/xml")
    assert root.tag == f"{SM}sitemapindex"
    locs = [e.text for e in root.iter(f"{SM}loc")]
    assert locs == [f"{BASE}/sitemaps/articles.xml", f"{BASE}/sitemaps/news.xml"]


def test_articles_sitemap_has_every_article_except_feed_only(site: DemoSite) -> None:
    root = xml(site, "/sitemaps/articles.xml", "application/xml")
    assert root.tag == f"{SM}urlset"
    locs = [e.text for e in root.iter(f"{SM}loc")]
    expected = [p for p in site.article_paths() if site.article(p).only_in != "feed"]
    assert sorted(locs) == sorted(BASE + p for p in expected)
    assert all(u.find(f"{SM}lastmod") is not None for u in root.iter(f"{SM}url"))


def test_news_sitemap_uses_the_news_namespace(site: DemoSite) -> None:
    root = xml(site, "/sitemaps/news.xml", "application/xml")
    urls = list(root.iter(f"{SM}url"))
    assert 5 <= len(urls) <= 1000
    for url in urls:
        path = url.find(f"{SM}loc").text.removeprefix(BASE)
        art = site.article(path)
        assert art.only_in != "feed"
        news = url.find(f"{NEWS}news")
        assert news.find(f"{NEWS}title").text == art.title
        assert news.find(f"{NEWS}publication_date").text.startswith(art.published)
        assert news.find(f"{NEWS}publication/{NEWS}name").text == "The Prairie Ledger"


def test_rss_feed_lists_recent_and_feed_only_articles(site: DemoSite) -> None:
    root = xml(site, "/feed/", "application/rss+xml")
    assert root.tag == "rss" and root.get("version") == "2.0"
    items = root.findall("channel/item")
    paths = [i.findtext("link").removeprefix(BASE) for i in items]
    only = {p: site.article(p).only_in for p in paths}
    assert sorted(p for p, o in only.items() if o == "feed") == sorted(
        p for p in site.article_paths() if site.article(p).only_in == "feed")
    assert "sitemap" not in only.values()
    for item, path in zip(items, paths):
        art = site.article(path)
        assert item.findtext("title") == art.title
        assert parsedate_to_datetime(item.findtext("pubDate")).date().isoformat() == art.published
    assert len(items) >= 15


def test_sitemap_only_articles_are_in_no_feed_and_feed_only_in_no_sitemap(site: DemoSite) -> None:
    feed = site.resolve("/feed/", BASE).text()
    sitemaps = site.resolve("/sitemaps/articles.xml", BASE).text() + site.resolve("/sitemaps/news.xml", BASE).text()
    for path in site.article_paths():
        where = site.article(path).only_in
        if where == "sitemap":
            assert BASE + path in sitemaps and BASE + path not in feed
        elif where == "feed":
            assert BASE + path in feed and BASE + path not in sitemaps


def test_section_pages_link_an_atom_feed_of_their_newest_stories(site: DemoSite) -> None:
    atom = "{http://www.w3.org/2005/Atom}"
    page = lxml.html.fromstring(site.resolve("/sports/", BASE).body)
    (link,) = page.cssselect('link[rel=alternate][type="application/atom+xml"]')
    assert link.get("href") == f"{BASE}/sports/feed/atom/"
    root = xml(site, "/sports/feed/atom/", "application/atom+xml")
    entries = root.findall(f"{atom}entry")
    paths = [e.find(f"{atom}link").get("href").removeprefix(BASE) for e in entries]
    assert len(paths) == 10
    for entry, path in zip(entries, paths):
        art = site.article(path)
        assert art.section == "sports" and art.only_in is None
        assert entry.findtext(f"{atom}published").startswith(art.published)
    dates = [site.article(p).published_at for p in paths]
    assert dates == sorted(dates, reverse=True)
    assert not lxml.html.fromstring(site.resolve("/", BASE).body).cssselect('link[type="application/atom+xml"]')
    assert site.resolve("/nosuch/feed/atom/", BASE).status == 404
