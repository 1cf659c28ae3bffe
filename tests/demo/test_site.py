"""The demo site's content and structure, checked through ``Site.resolve`` (no server needed)."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from collections import Counter
from html.parser import HTMLParser

import lxml.html

from newscrawl.demo import DEFAULT_BASE, build_demo_site
from newscrawl.demo.model import SECTIONS
from newscrawl.demo.site import DemoSite

DATED = re.compile(r"^/([a-z]+)/(\d{4})/(\d{2})/(\d{2})/[a-z0-9-]+/$")
STORY = re.compile(r"^/story/\d{6}/[a-z0-9-]+/$")


def doc(site: DemoSite, path: str) -> lxml.html.HtmlElement:
    resp = site.resolve(path)
    assert resp.status == 200, path
    return lxml.html.fromstring(resp.body)


def test_counts_meet_the_issue_minimums(site: DemoSite) -> None:
    kinds = Counter(t.kind for t in site.truth.values())
    assert kinds["article"] >= 40
    for kind in ("home", "section", "tag", "author", "gallery", "video", "static", "private"):
        assert kinds[kind] >= 1, kind
    for path in ("/about/", "/contact/", "/privacy/"):
        assert site.truth[path].kind == "static"
    arts = [site.article(p) for p in site.article_paths()]
    assert len({a for art in arts for a in art.authors}) >= 4
    assert all(re.fullmatch(r"\d{4}-\d{2}-\d{2}", a.published) for a in arts)
    assert Counter(a.only_in for a in arts) == {None: len(arts) - 6, "sitemap": 3, "feed": 3}


def test_home_menu_and_section_pagination(site: DemoSite) -> None:
    home = doc(site, "/")
    menu = [a.get("href") for a in home.cssselect("nav.main-menu a")]
    sections = [f"/{slug}/" for slug, _ in SECTIONS]
    assert set(sections) <= set(menu) and len(sections) >= 4
    for slug, _ in SECTIONS:
        page1 = doc(site, f"/{slug}/")
        assert f"/{slug}/page/2/" in [a.get("href") for a in page1.cssselect("nav.pagination a")]
        assert site.truth[f"/{slug}/page/2/"].kind == "section"
    # every linked article is listed on exactly one section page
    listed = Counter(a.get("href") for p, t in site.truth.items() if t.kind == "section"
                     and not p.startswith(("/video/", "/gallery/"))
                     for a in doc(site, p).cssselect(".story-list h3 a"))
    linked = {p for p in site.article_paths() if site.article(p).only_in is None}
    assert set(listed) == linked and set(listed.values()) == {1}


def test_article_url_shapes_match_their_dates(site: DemoSite) -> None:
    shapes = Counter()
    for path in site.article_paths():
        art = site.article(path)
        if m := DATED.match(path):
            shapes["dated"] += 1
            assert m.group(1) == art.section
            assert "-".join(m.group(2, 3, 4)) == art.published
        else:
            assert STORY.match(path), path
            shapes["story"] += 1
    assert shapes["dated"] > shapes["story"] >= 3


def test_article_pages_show_their_truth(site: DemoSite) -> None:
    for path in site.article_paths():
        art = site.article(path)
        page = doc(site, path)
        assert page.cssselect("h1.headline")[0].text_content() == art.title
        body = [p.text_content() for p in page.cssselect("div.article-body > p")]
        assert body == list(art.paragraphs)
        byline = page.cssselect(".byline")[0].text_content()
        assert all(name in byline for name in art.authors)
        canonical = page.cssselect("link[rel=canonical]")[0].get("href")
        assert canonical == DEFAULT_BASE + path
        assert bool(page.cssselect("li.comment")) == art.has_comments


def test_dates_in_varied_formats_and_metadata_on_some_pages_only(site: DemoSite) -> None:
    formats = Counter()
    sources = Counter()
    for path in site.article_paths():
        art = site.article(path)
        page = doc(site, path)
        shown = page.cssselect(".dateline")[0].text_content()
        formats[re.sub(r"\d", "9", re.sub(r"[A-Z][a-z]+", "W", shown))] += 1
        jsonld = [json.loads(s.text) for s in page.cssselect('script[type="application/ld+json"]')]
        meta = page.cssselect('meta[property="article:published_time"]')
        times = page.cssselect(".dateline time[datetime]")
        assert bool(jsonld) == ("jsonld" in art.date_metadata)
        assert bool(meta) == ("meta" in art.date_metadata)
        assert bool(times) == ("time" in art.date_metadata)
        for value in [d["datePublished"] for d in jsonld] + [m.get("content") for m in meta] + [
                t.get("datetime") for t in times]:
            assert value.startswith(art.published)
        sources.update(art.date_metadata or ("text-only",))
    assert len(formats) >= 4
    n = len(site.article_paths())
    for source in ("jsonld", "meta", "time", "text-only"):
        assert 0 < sources[source] < n, source
    assert any("Updated" in doc(site, p).text_content() for p in site.article_paths())


def test_comments_are_similar_entries_with_user_time_and_text(site: DemoSite) -> None:
    with_comments = [p for p in site.article_paths() if site.article(p).has_comments]
    assert 0 < len(with_comments) < len(site.article_paths())
    for path in with_comments:
        entries = doc(site, path).cssselect("section.comments li.comment")
        assert len(entries) >= 3
        for li in entries:
            assert li.cssselect(".comment-author")[0].text_content()
            assert re.search(r"\d{4} at \d\d:\d\d [AP]M", li.cssselect(".comment-time")[0].text_content())
            assert li.cssselect("p.comment-text")[0].text_content()


def test_every_page_shares_the_site_template(site: DemoSite) -> None:
    for path, truth in site.truth.items():
        page = doc(site, path)
        for sel in ("header.site-header", "nav.main-menu", "footer.site-footer", "#cookie-banner",
                    "aside.sidebar .most-read", "aside.sidebar .newsletter-box",
                    'link[rel=alternate][type="application/rss+xml"]'):
            assert page.cssselect(sel), (path, sel)
        assert bool(page.cssselect("nav.breadcrumbs")) == (truth.kind != "home")
        assert page.cssselect('footer a[href="/private/staff/"]')


def test_css_is_linked_imported_and_styles_headings_by_class(site: DemoSite) -> None:
    article = doc(site, site.article_paths()[0])
    sheets = {el.get("href"): el.get("media") for el in article.cssselect("link[rel=stylesheet]")}
    assert sheets == {"/static/css/main.css": None, "/static/css/article.css": None,
                      "/static/css/print.css": "print"}
    section = doc(site, "/politics/")
    assert "/static/css/article.css" not in {el.get("href") for el in section.cssselect("link[rel=stylesheet]")}
    assert section.cssselect("div.section-title")  # a heading that is not an h-tag
    assert article.cssselect("head style") and article.cssselect("[style]")
    main = site.resolve("/static/css/main.css")
    assert main.content_type.startswith("text/css")
    assert '@import url("/static/css/base.css")' in main.text()
    assert site.resolve("/static/css/base.css").status == 200
    css = "".join(site.resolve(p).text() for p in sheets)
    for prop in ("font-size", "color", "font-weight", "font-family", "display: none"):
        assert prop in css, prop


def test_canonical_duplicates_and_redirects(site: DemoSite) -> None:
    home = doc(site, "/")
    hrefs = [a.get("href") for a in home.cssselect("a")]
    assert any("utm_source=" in h for h in hrefs)
    assert any(h.endswith("/index.html") for h in hrefs)
    path = site.article_paths()[0]
    plain = site.resolve(path).body
    assert site.resolve(path + "index.html").body == plain
    assert site.resolve(path + "?utm_source=newsletter&utm_medium=email").body == plain
    moved = site.resolve("/politics")
    assert moved.status == 301 and moved.location == "/politics/"
    assert site.resolve("/no/such/page/").status == 404


def test_offsite_links_only_when_asked(site: DemoSite) -> None:
    other = build_demo_site(offsite_base="http://127.0.0.2:8111")
    for path in ("/", other.article_paths()[0]):
        assert b"http://127.0.0.2:8111/" in other.resolve(path).body
        assert b"127.0.0.2" not in site.resolve(path).body


def _digest(site: DemoSite) -> str:
    h = hashlib.sha256()
    for path in sorted(site.truth):
        h.update(path.encode() + site.resolve(path).body)
    for path in ("/robots.txt", "/sitemap.xml", "/sitemaps/articles.xml", "/sitemaps/news.xml", "/feed/"):
        h.update(site.resolve(path).body)
    return h.hexdigest()


def test_same_seed_same_bytes_across_processes(site: DemoSite) -> None:
    assert _digest(site) == _digest(build_demo_site(7))
    assert _digest(site) != _digest(build_demo_site(8))
    code = ("import hashlib\nfrom newscrawl.demo import build_demo_site\n"
            "s = build_demo_site(7)\nh = hashlib.sha256()\n"
            "for p in sorted(s.truth): h.update(p.encode() + s.resolve(p).body)\n"
            "for p in ('/robots.txt', '/sitemap.xml', '/sitemaps/articles.xml', '/sitemaps/news.xml', '/feed/'):\n"
            "    h.update(s.resolve(p).body)\nprint(h.hexdigest())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONHASHSEED": "12345", "PATH": ""})
    assert out.stdout.strip() == _digest(site)


def test_structure_holds_for_other_seeds() -> None:
    for seed in range(1, 16):
        other = build_demo_site(seed)
        arts = other.article_paths()
        assert len(arts) == 62 and len({other.article(p).title for p in arts}) == 62
        for slug, _ in SECTIONS:
            assert other.truth[f"/{slug}/page/2/"].kind == "section"
        assert all(other.resolve(p).status == 200 for p in other.truth)


def test_modified_time_matches_the_page(site: DemoSite) -> None:
    modified = [p for p in site.article_paths() if site.article(p).modified_at]
    assert 0 < len(modified) < len(site.article_paths())
    for path in modified:
        art = site.article(path)
        assert art.modified_at > art.published_at
        page = doc(site, path)
        assert page.cssselect(".updated")
        for data in (json.loads(s.text) for s in page.cssselect('script[type="application/ld+json"]')):
            assert data["dateModified"] == art.modified_at


class _Balance(HTMLParser):
    """Records end tags that do not close the innermost open element."""

    VOID = {"meta", "link", "img", "input", "br", "hr", "source", "area", "base", "col", "embed", "wbr"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.errors: list[str] = []

    BLOCK = {"div", "p", "ul", "ol", "section", "article", "aside", "figure", "h1", "h2", "h3",
             "nav", "form", "table", "header", "footer", "main"}

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in self.BLOCK and self.stack and self.stack[-1] == "p":
            self.errors.append(f"<{tag}> in <p>")  # a browser would close the <p> here
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.stack and self.stack[-1] == tag:
            self.stack.pop()
        else:
            self.errors.append(tag)


def test_pages_are_well_nested_so_browsers_and_lxml_build_the_same_tree() -> None:
    demo = build_demo_site(traps=True, offsite_base="http://127.0.0.2:1")
    for path in list(demo.truth) + ["/calendar/?month=2025-01", "/archive/page/3/", "/a/b/a/b/"]:
        checker = _Balance()
        checker.feed(demo.resolve(path).text())
        checker.close()
        assert checker.errors == [] and checker.stack == [], path
