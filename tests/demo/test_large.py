"""The lazily generated large site: exact page count, every page reachable by links, no memory
up front, stable bytes."""

from __future__ import annotations

import re
import tracemalloc
from collections import Counter
from urllib.parse import urljoin, urlsplit

import lxml.html

from newscrawl.demo import DEFAULT_BASE, build_large_site
from newscrawl.demo.large import LargeSite

DATED = re.compile(r"^/[a-z]+/\d{4}/\d{2}/\d{2}/[a-z0-9-]+/$")
STORY = re.compile(r"^/story/\d{6}/[a-z0-9-]+/$")


def crawl(site: LargeSite) -> set[str]:
    """HTML pages reached by following same-site <a> links from the home page."""
    seen, queue, pages = {"/"}, ["/"], set()
    while queue:
        path = queue.pop()
        resp = site.resolve(path)
        assert resp.status == 200, path
        if not resp.content_type.startswith("text/html"):
            continue
        pages.add(path.removesuffix("index.html"))
        for a in lxml.html.fromstring(resp.body).iter("a"):
            url = urljoin(DEFAULT_BASE + path, a.get("href"))
            parts = urlsplit(url)
            if parts.netloc == urlsplit(DEFAULT_BASE).netloc and parts.path not in seen:
                seen.add(parts.path)
                queue.append(parts.path)
    return pages


def test_exact_page_count_all_reachable() -> None:
    for n in (10, 11, 137, 600):
        site = build_large_site(n)
        paths = list(site.truth)
        assert len(paths) == len(set(paths)) == len(site.truth) == n
        assert crawl(site) == set(paths)


def test_kinds_url_shapes_and_truth() -> None:
    site = build_large_site(2000)
    kinds = Counter(site.truth[p].kind for p in site.truth)
    assert kinds["article"] > 1800 and kinds["home"] == 1 and kinds["section"] >= 5
    shapes = Counter("dated" if DATED.match(p) else "story" if STORY.match(p) else "other"
                     for p in site.article_paths())
    assert shapes["other"] == 0 and shapes["dated"] > shapes["story"] > 0
    for path in site.article_paths()[::97]:
        art = site.article(path)
        page = lxml.html.fromstring(site.resolve(path).body)
        assert page.cssselect("h1.headline")[0].text_content() == art.title
        assert [p.text_content() for p in page.cssselect("div.article-body > p")] == list(art.paragraphs)
        assert page.cssselect("footer.site-footer") and page.cssselect("nav.main-menu")
        related = page.cssselect(".related a")
        assert related and all(site.truth[a.get("href")].kind == "article" for a in related)
    assert site.resolve("/politics/page/1/").status == 404
    assert site.resolve("/politics/2025/03/28/no-such-story/").status == 404
    assert site.resolve("/story/100000/whatever/").status == 404


def test_hundred_thousand_pages_cost_no_memory_up_front() -> None:
    tracemalloc.start()
    try:
        site = build_large_site(100_000)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000
    last = site.path(site.n_articles - 1)
    assert site.resolve(last).status == 200
    assert site.index_of(last) == site.n_articles - 1
    sections = [p for p in site.section_page_paths()]
    assert site.resolve(sections[-1]).status == 200
    assert len(site.truth) == 100_000


def test_same_path_same_bytes() -> None:
    a, b = build_large_site(3000, seed=3), build_large_site(3000, seed=3)
    paths = list(a.truth)[::150]
    assert [a.resolve(p).body for p in paths] == [b.resolve(p).body for p in paths]
    assert list(build_large_site(3000, seed=4).truth) != list(a.truth)
