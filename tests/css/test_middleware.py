"""StylesheetMiddleware in real Scrapy crawls of sites served on 127.0.0.1.

Each crawl runs in a subprocess (tests/css/_crawl.py: a Twisted reactor cannot restart) and
reports the server's request log, the pages' hand-off lists, the crawl stats and the store.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

import pytest

CRAWL = Path(__file__).with_name("_crawl.py")


def crawl(site: str, port: int = 0, **settings: object) -> dict:
    out = subprocess.run([sys.executable, str(CRAWL), site, json.dumps(settings), str(port)],
                         capture_output=True, text=True, timeout=240)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout)


def path(url: str) -> str:
    return urlparse(url).path


@pytest.fixture(scope="module")
def demo() -> dict:
    return crawl("demo")


def test_each_stylesheet_is_fetched_once_per_crawl(demo: dict) -> None:
    html_pages = [p for p in demo["pages"].values() if p["html"]]
    assert len(html_pages) > 50
    css_hits = {t: n for t, n in demo["hits"].items() if t.endswith(".css")}
    assert css_hits == {"/static/css/main.css": 1, "/static/css/base.css": 1,
                        "/static/css/article.css": 1}  # print.css (media=print) never
    stats = demo["stats"]
    assert stats["newscrawl/css/fetched"] == 3 and stats["newscrawl/css/requests"] == 3
    assert stats["newscrawl/css/cache_hits"] > len(html_pages)
    assert stats["robotstxt/request_count"] == 1  # robots.txt and CSS downloads coexist


def test_pages_hand_off_their_stylesheets_in_cascade_order(demo: dict) -> None:
    lists = {tuple(path(u) for u in p["stylesheets"]) for p in demo["pages"].values()
             if p["html"] and p["stylesheets"]}
    assert lists == {("/static/css/base.css", "/static/css/main.css"),
                     ("/static/css/base.css", "/static/css/main.css", "/static/css/article.css")}
    assert all(demo["parsed"].values()) and len(demo["parsed"]) == 3
    assert all(n > 0 for n in demo["rules"].values())
    # non-HTML responses (feeds, sitemaps) are not processed
    assert any(not p["html"] and p["stylesheets"] is None for p in demo["pages"].values())


@pytest.fixture(scope="module")
def hostile() -> dict:
    return crawl("hostile", NEWSCRAWL_CSS_TIMEOUT=2, NEWSCRAWL_CSS_MAX_BYTES=1_000_000)


def test_broken_stylesheets_never_cost_a_page(hostile: dict) -> None:
    pages = hostile["pages"]
    assert len([u for u in pages if path(u).startswith("/p")]) == 5 and len(pages) == 8
    expected = ["/ok.css", "/cycle-b.css", "/cycle-a.css", "/bad-utf8.css", "/redirect.css",
                "/htmlbody.css"]
    for url, page in pages.items():
        if path(url).startswith("/p"):
            assert [path(u) for u in page["stylesheets"]] == expected
    # the slow sheet would take 10 s: pages waited at most the 2 s timeout
    assert hostile["seconds"] < 9


def test_failures_are_counted_and_each_url_fetched_once(hostile: dict) -> None:
    stats = hostile["stats"]
    assert stats["newscrawl/css/failed/status_404"] == 1  # /missing.css
    assert stats["newscrawl/css/failed/not_css"] == 1  # /html.css served as text/html
    assert stats["newscrawl/css/failed/oversize"] == 1  # /big.css, 3.6 MB > 1 MB
    assert stats["newscrawl/css/failed/timeout"] == 1  # /slow.css
    assert stats["newscrawl/css/timeouts"] >= 1  # the page that was waiting for it
    assert stats["newscrawl/css/import_loops"] >= 5  # cycle-a <-> cycle-b
    assert stats["newscrawl/css/skipped_scheme"] >= 2  # file: and data: are never fetched
    for target, count in hostile["hits"].items():
        if target.endswith(".css") and target != "/style-page.css":
            assert count == 1, target
    assert hostile["rules"]["http://" + urlparse(next(iter(hostile["pages"]))).netloc
                            + "/redirect.css"] == 2  # stored under the linked URL


def test_html_named_css_and_css_labelled_html_pages(hostile: dict) -> None:
    pages = {path(u): p for u, p in hostile["pages"].items()}
    assert pages["/style-page.css"]["html"] and pages["/style-page.css"]["stylesheets"] == []
    assert not pages["/html-as-css"]["html"] and pages["/html-as-css"]["stylesheets"] is None


def test_limits_per_page_and_import_depth() -> None:
    report = crawl("demo", DEPTH_LIMIT=1, NEWSCRAWL_CSS_MAX_PER_PAGE=1,
                   NEWSCRAWL_CSS_IMPORT_DEPTH=0)
    lists = {tuple(path(u) for u in p["stylesheets"]) for p in report["pages"].values()
             if p["html"] and p["stylesheets"]}
    assert lists == {("/static/css/main.css",)}
    assert "/static/css/base.css" not in report["hits"]
    assert "/static/css/article.css" not in report["hits"]
    assert report["stats"]["newscrawl/css/page_limit"] > 0


def test_disabled() -> None:
    report = crawl("demo", DEPTH_LIMIT=1, NEWSCRAWL_CSS_ENABLED=False)
    assert not any(t.endswith(".css") for t in report["hits"])
    assert all(p["stylesheets"] is None for p in report["pages"].values())


def test_a_later_crawl_reuses_kept_sources_instead_of_downloading(tmp_path: Path) -> None:
    """NEWSCRAWL_CSS_SOURCE_DIR (JOBDIR/newscrawl-css by default) survives the process: a second
    crawl of the same URLs downloads no stylesheet, hands off the same lists, and an unreadable
    kept entry only costs that one download."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings = {"NEWSCRAWL_CSS_SOURCE_DIR": str(tmp_path / "css")}
    first = crawl("demo", port, **settings)
    kept = sorted((tmp_path / "css").glob("*.css"))
    assert len(kept) == first["stats"]["newscrawl/css/fetched"] == 3

    second = crawl("demo", port, **settings)
    assert {t for t in second["hits"] if t.endswith(".css")} == set()
    assert "newscrawl/css/requests" not in second["stats"]
    assert second["stats"]["newscrawl/css/source_cache/hits"] == 3
    lists = lambda report: {u: p["stylesheets"] for u, p in report["pages"].items() if p["html"]}
    assert lists(second) == lists(first)
    assert second["rules"] == first["rules"]

    kept[0].write_bytes(b"garbage without a URL line")
    third = crawl("demo", port, **settings)
    assert sum(n for t, n in third["hits"].items() if t.endswith(".css")) == 1
    assert third["stats"]["newscrawl/css/source_cache/errors"] == 1
    assert third["stats"]["newscrawl/css/source_cache/hits"] == 2
    assert lists(third) == lists(first)
