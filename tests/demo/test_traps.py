"""Crawler traps (``build_demo_site(traps=True)``): each behaves as specified and stays bounded."""

from __future__ import annotations

import http.client
import time
from collections.abc import Iterator
from urllib.parse import urljoin, urlsplit

import lxml.html
import pytest

from newscrawl.demo import Served, build_demo_site, serve_site
from newscrawl.demo.site import DemoSite

OVERSIZE = 3 * 1024 * 1024 + 17
SLOW = 0.6


@pytest.fixture(scope="module")
def trap_site() -> DemoSite:
    return build_demo_site(traps=True, oversize_bytes=OVERSIZE, slow_seconds=SLOW)


@pytest.fixture(scope="module")
def trap_served(trap_site: DemoSite) -> Iterator[Served]:
    with serve_site(trap_site) as srv:
        yield srv


def get(srv: Served, target: str) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection(urlsplit(srv.base_url).hostname, urlsplit(srv.base_url).port,
                                      timeout=30)
    try:
        conn.request("GET", target)
        resp = conn.getresponse()
        return resp.status, dict(resp.getheaders()), resp.read()
    finally:
        conn.close()


def hrefs(body: bytes, page: str) -> list[str]:
    doc = lxml.html.fromstring(body)
    out = []
    for a in doc.iter("a"):
        url = urljoin("http://h" + page, a.get("href"))
        parts = urlsplit(url)
        out.append(parts.path + (f"?{parts.query}" if parts.query else ""))
    return out


def trap_links(site: DemoSite) -> list[str]:
    page = lxml.html.fromstring(site.resolve("/").body)
    return [a.get("href") for a in page.cssselect("footer .archive-tools a")]


def test_traps_are_linked_from_the_footer_only_when_enabled(trap_site: DemoSite, site: DemoSite) -> None:
    links = trap_links(trap_site)
    assert len(links) == 9
    statuses = [trap_site.resolve(link).status for link in links]
    assert statuses.count(200) == 7 and 302 in statuses and 414 in statuses
    assert trap_links(site) == []
    assert site.resolve("/calendar/?month=2025-03").status == 404
    article = lxml.html.fromstring(trap_site.resolve(trap_site.article_paths()[0]).body)
    assert len(article.cssselect("footer .archive-tools a")) == 9
    assert set(trap_site.truth) == set(site.truth)  # traps are not part of the truth


def test_calendar_links_months_forever(trap_served: Served) -> None:
    target, seen = "/calendar/?month=2025-03", set()
    for _ in range(40):
        status, _, body = get(trap_served, target)
        assert status == 200
        seen.add(target)
        target = next(h for h in hrefs(body, "/calendar/") if h.startswith("/calendar/") and h not in seen)
    assert len(seen) == 40
    _, _, body = get(trap_served, "/calendar/?month=2025-12")
    assert "/calendar/?month=2026-01" in hrefs(body, "/calendar/")
    assert "/calendar/?month=2025-11" in hrefs(body, "/calendar/")


def test_endless_pagination(trap_served: Served) -> None:
    for n in (1, 2, 999, 123456):
        status, _, body = get(trap_served, f"/archive/page/{n}/")
        assert status == 200 and f"/archive/page/{n + 1}/" in hrefs(body, f"/archive/page/{n}/")


def test_session_ids_never_repeat(trap_served: Served) -> None:
    target, seen = trap_links(build_demo_site(traps=True))[2], set()
    assert "sid=" in target
    for _ in range(20):
        seen.add(target)
        _, _, body = get(trap_served, target)
        new = [h for h in hrefs(body, "/session/") if "sid=" in h and h not in seen]
        assert len(new) >= 2
        target = new[0]
    assert len({urlsplit(t).query for t in seen}) == 20


def test_redirect_loop(trap_served: Served) -> None:
    status, headers, _ = get(trap_served, "/loop/a")
    assert status == 302 and headers["Location"] == "/loop/b"
    assert get(trap_served, "/loop/b")[1]["Location"] == "/loop/a"


def test_binary_body_served_as_html(trap_served: Served) -> None:
    status, headers, body = get(trap_served, "/trap/binary.html")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert b"\x00" in body and len(body) == 64 * 1024
    with pytest.raises(UnicodeDecodeError):
        body.decode("utf-8")


def test_oversize_page_is_streamed_at_the_configured_size(trap_served: Served) -> None:
    status, headers, body = get(trap_served, "/trap/oversize/")
    assert status == 200 and int(headers["Content-Length"]) == OVERSIZE == len(body)
    assert body.startswith(b"<!DOCTYPE html>") and body.endswith(b"</html>")


def test_slow_page_trickles_and_finishes(trap_served: Served) -> None:
    start = time.monotonic()
    status, headers, body = get(trap_served, "/trap/slow/")
    elapsed = time.monotonic() - start
    assert status == 200 and len(body) == int(headers["Content-Length"])
    assert body.endswith(b"</html>")
    assert elapsed >= SLOW * 0.8  # paced, not sent at once


def test_hundred_kilobyte_url(trap_site: DemoSite, trap_served: Served) -> None:
    long = next(h for h in trap_links(trap_site) if len(h) > 1000)
    assert len(long) >= 100_000
    assert trap_site.resolve(long).status == 414
    assert get(trap_served, long)[0] == 414


def test_relative_link_trap_grows_the_path(trap_served: Served) -> None:
    target = "/a/b/"
    for depth in range(1, 8):
        status, _, body = get(trap_served, target)
        assert status == 200
        (deeper,) = [h for h in hrefs(body, target) if h.startswith("/a/")]
        assert deeper == "/" + "a/b/" * (depth + 1)
        target = deeper
