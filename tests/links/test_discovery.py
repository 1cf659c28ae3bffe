import gzip

from newscrawl.links.discovery import parse_feed, parse_sitemap, sitemaps_from_robots


def test_sitemaps_from_robots_case_and_duplicates():
    text = "User-agent: *\nDisallow: /private/\nSitemap: https://e.com/s1.xml\nsitemap:https://e.com/s2.xml\nSITEMAP: https://e.com/s1.xml\n"
    assert sitemaps_from_robots(text) == ["https://e.com/s1.xml", "https://e.com/s2.xml"]


INDEX = b"""<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>https://e.com/a.xml</loc></sitemap><sitemap><loc>https://e.com/b.xml.gz</loc></sitemap></sitemapindex>"""
NEWS = b"""<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
 xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
<url><loc>https://e.com/2025/01/02/x/</loc><news:news><news:title>X</news:title></news:news></url>
<url><loc> https://e.com/2025/01/03/y/ </loc></url></urlset>"""


def test_parse_sitemap_index_urlset_and_gzip():
    assert parse_sitemap(INDEX).kind == "sitemapindex"
    assert parse_sitemap(INDEX).urls == ["https://e.com/a.xml", "https://e.com/b.xml.gz"]
    news = parse_sitemap(gzip.compress(NEWS))
    assert news.kind == "urlset"
    assert news.urls == ["https://e.com/2025/01/02/x/", "https://e.com/2025/01/03/y/"]


def test_parse_sitemap_rejects_garbage():
    assert parse_sitemap(b"<html><body>not a sitemap</body></html>").kind == ""
    assert parse_sitemap(b"\x1f\x8bbroken gzip").urls == []
    assert parse_sitemap(b"plain text").urls == []


def test_parse_feed_rss_and_atom():
    rss = b"<rss><channel><item><title>a</title><link>https://e.com/a</link></item><item><link> https://e.com/b </link></item></channel></rss>"
    assert parse_feed(rss) == ["https://e.com/a", "https://e.com/b"]
    atom = b"""<feed xmlns="http://www.w3.org/2005/Atom"><entry><link rel="alternate" href="https://e.com/c"/></entry>
    <entry><link rel="enclosure" href="https://e.com/x.mp3"/><link href="https://e.com/d"/></entry></feed>"""
    assert parse_feed(atom) == ["https://e.com/c", "https://e.com/d"]
    assert parse_feed(b"\x00\x01 binary") == []
