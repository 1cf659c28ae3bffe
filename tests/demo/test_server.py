"""The local server: serves the demo site on 127.0.0.1, every internal link resolves, request log,
concurrency, saved-folder serving and the command line."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

from newscrawl.demo import DemoSite, Served, build_demo_site, serve_directory, serve_site

FE56 = "\ufe56"


def fetch(url: str, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    """One request without following redirects."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        conn.request(method, parts.path + (f"?{parts.query}" if parts.query else ""))
        resp = conn.getresponse()
        return resp.status, dict(resp.getheaders()), resp.read()
    finally:
        conn.close()


def test_serves_on_localhost_with_real_base_url(site: DemoSite, served: Served) -> None:
    assert served.base_url.startswith("http://127.0.0.1:")
    status, headers, body = fetch(served.url("/"))
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert f'<link rel="canonical" href="{served.base_url}/">'.encode() in body
    status, _, robots = fetch(served.url("/robots.txt"))
    assert status == 200 and f"Sitemap: {served.base_url}/sitemap.xml".encode() in robots


def test_every_internal_link_resolves(site: DemoSite, served: Served, links, to_target) -> None:
    """Breadth-first over every same-host link of every page, through HTTP."""
    host = urlsplit(served.base_url).netloc
    seen = {"/"}
    queue = ["/"]
    html_pages = set()
    bad = []
    while queue:
        tgt = queue.pop()
        status, headers, body = fetch(served.url(tgt))
        if status in (301, 302):
            location = headers["Location"]
            assert location.rstrip("/") + "/" == location and location in site.truth, (tgt, location)
            continue
        if status != 200:
            bad.append((tgt, status))
            continue
        if not headers["Content-Type"].startswith("text/html"):
            continue
        html_pages.add(urlsplit(tgt).path.removesuffix("index.html"))
        for url in links(body, served.url(tgt)):
            if urlsplit(url).netloc == host and (t := to_target(url)) not in seen:
                seen.add(t)
                queue.append(t)
    assert bad == []
    assert html_pages == set(site.linked_paths())
    hidden = {p for p in site.article_paths() if site.article(p).only_in}
    assert len(hidden) == 6 and not hidden & {urlsplit(u).path for u in seen}
    assert "/private/staff/" in html_pages  # linked although robots.txt disallows it


def test_request_log_counts_targets(served: Served) -> None:
    served.reset()
    for _ in range(3):
        fetch(served.url("/politics/?utm_source=x"))
    fetch(served.url("/nope/"), "HEAD")
    assert served.hits["/politics/?utm_source=x"] == 3
    assert served.requests[-1].method == "HEAD" and served.requests[-1].status == 404
    assert sum(served.hits.values()) == len(served.requests) == 4


def test_sixteen_concurrent_clients(site: DemoSite, served: Served) -> None:
    served.reset()
    paths = list(site.truth) * 2
    with ThreadPoolExecutor(16) as pool:
        statuses = list(pool.map(lambda p: urllib.request.urlopen(served.url(p), timeout=30).status, paths))
    assert statuses == [200] * len(paths)
    assert sum(served.hits.values()) == len(paths)


def test_serve_directory(tmp_path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "index.html").write_text("<html><body>home</body></html>")
    (tmp_path / "sub" / "index.html").write_text("<html><body>sub</body></html>")
    (tmp_path / f"style{FE56}ver=2.css").write_text("p { color: red }")
    (tmp_path / f"xmlrpc.php{FE56}rsd.xml").write_text("<rsd/>")
    (tmp_path / "feed.rss").write_text("<rss/>")
    (tmp_path / "robots.txt").write_text("User-agent: *\n")
    (tmp_path.parent / "secret.txt").write_text("outside")
    with serve_directory(tmp_path) as srv:
        assert fetch(srv.url("/"))[2] == b"<html><body>home</body></html>"
        status, headers, body = fetch(srv.url("/sub/"))
        assert (status, headers["Content-Type"], body) == (
            200, "text/html; charset=utf-8", b"<html><body>sub</body></html>")
        assert fetch(srv.url("/sub/index.html"))[2] == body
        assert fetch(srv.url("/sub/?utm_source=x"))[2] == body
        status, headers, _ = fetch(srv.url("/sub"))
        assert status == 301 and headers["Location"] == "/sub/"
        status, headers, body = fetch(srv.url("/style.css?ver=2"))
        assert headers["Content-Type"].startswith("text/css") and body == b"p { color: red }"
        assert fetch(srv.url("/style%EF%B9%96ver=2.css"))[2] == b"p { color: red }"
        status, headers, body = fetch(srv.url("/xmlrpc.php?rsd"))
        assert headers["Content-Type"].startswith("application/xml") and body == b"<rsd/>"
        assert fetch(srv.url("/feed.rss"))[1]["Content-Type"].startswith("application/rss+xml")
        assert fetch(srv.url("/robots.txt"))[1]["Content-Type"].startswith("text/plain")
        assert fetch(srv.url("/../secret.txt"))[0] == 404
        assert fetch(srv.url("/%2e%2e/secret.txt"))[0] == 404
        assert fetch(srv.url("/sub/index.html?" + "q" * 400))[0] == 200  # name too long for the OS
        assert fetch(srv.url("/" + "x" * 300 + "/"))[0] == 404
        assert fetch(srv.url("/a%00b"))[0] == 404
        assert srv.hits["/style.css?ver=2"] == 1


def test_command_line_serves_in_the_foreground(tmp_path) -> None:
    truth = tmp_path / "truth.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "newscrawl.demo.server", "--port", "0", "--traps",
                             "--truth", str(truth)], stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        base = line.split("Serving on ", 1)[1].split("/ ", 1)[0]
        status, _, body = fetch(base + "/")
        assert status == 200 and b"archive-tools" in body
        records = [json.loads(x) for x in truth.read_text().splitlines()]
        demo = build_demo_site()
        assert [r["path"] for r in records] == list(demo.truth)
        assert sum(r["kind"] == "article" for r in records) == len(demo.article_paths())
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        proc.stdout.close()


def test_client_hanging_up_mid_stream_does_not_hurt_the_server() -> None:
    site = build_demo_site(traps=True, oversize_bytes=8 * 1024 * 1024)
    with serve_site(site) as srv:
        parts = urlsplit(srv.base_url)
        for _ in range(3):
            conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
            conn.request("GET", "/trap/oversize/")
            assert len(conn.getresponse().read(1000)) == 1000
            conn.close()
        assert fetch(srv.url("/"))[0] == 200
        assert srv.hits["/trap/oversize/"] == 3


def test_pdf_link_is_not_html(site: DemoSite, served: Served) -> None:
    about = fetch(served.url("/about/"))[2]
    assert b'href="/static/docs/annual-report-2024.pdf"' in about
    status, headers, body = fetch(served.url("/static/docs/annual-report-2024.pdf"))
    assert status == 200 and headers["Content-Type"] == "application/pdf" and body.startswith(b"%PDF")


def test_offsite_server_on_another_loopback_host(links) -> None:
    with serve_site(build_demo_site(seed=8), host="127.0.0.2") as other:
        site = build_demo_site(offsite_base=other.base_url)
        with serve_site(site, log=False) as srv:
            home = fetch(srv.url("/"))[2]
            offsite = [u for u in links(home, srv.url("/")) if u.startswith(other.base_url)]
            assert offsite and srv.requests == []
            assert urlsplit(other.base_url).hostname == "127.0.0.2"
            fetch(offsite[0])
            assert sum(other.hits.values()) == 1 and srv.site is site
