"""Fixtures: WARC files generated from the demo site (never third-party files)."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import pytest

from newscrawl.demo.site import build_demo_site

BASE = "http://demo.example"


def write_site_warc(directory: Path, paths: list[str], *, max_bytes: int = 10**9, gzip_every: int = 3,
                    prefix: str = "demo") -> dict[str, Any]:
    """A crawl-like WARC of demo pages (every ``gzip_every``-th body gzip-encoded as a server may
    send it), plus a stylesheet, a 404 and a redirect; returns the files and the pages' raw HTML."""
    from newscrawl.warc.writer import WarcWriter

    site = build_demo_site()
    writer = WarcWriter(directory, prefix=prefix, max_bytes=max_bytes)
    pages: dict[str, bytes] = {}

    def put(url: str, status: int, headers: list[tuple[str, str]], body: bytes) -> None:
        writer.write_exchange(url=url, method="GET", request_headers=[("User-Agent", "test")], request_body=b"",
                              protocol="HTTP/1.1", status=status, reason="", response_headers=headers, body=body)

    for number, path in enumerate(paths):
        response = site.resolve(path, BASE)
        html = response.read()
        headers = [("Content-Type", response.content_type)]
        body = html
        if gzip_every and number % gzip_every == 1:
            body = gzip.compress(html)
            headers.append(("Content-Encoding", "gzip"))
        put(BASE + path, response.status, headers, body)
        if response.status == 200:
            pages[BASE + path] = html
        if number == 2:
            put(BASE + "/static/site.css", 200, [("Content-Type", "text/css")], b"p { color: red }")
            put(BASE + "/missing/", 404, [("Content-Type", "text/html")], b"<html><body>Not found</body></html>")
            put(BASE + "/moved", 301, [("Location", BASE + "/"), ("Content-Type", "text/html")], b"<a href=/>moved</a>")
    writer.close()
    return {"files": [str(p) for p in writer.files], "pages": pages, "site": site}


@pytest.fixture(scope="session")
def demo_pages() -> list[str]:
    site = build_demo_site()
    paths = [p for p in site.html_paths() if site.resolve(p, BASE).status == 200]
    return paths[:40]


@pytest.fixture(scope="session")
def demo_warc(tmp_path_factory: pytest.TempPathFactory, demo_pages: list[str]) -> dict[str, Any]:
    return write_site_warc(tmp_path_factory.mktemp("demo-warc"), demo_pages, max_bytes=60_000)


@pytest.fixture(scope="session")
def warc_tools() -> Any:
    from types import SimpleNamespace

    return SimpleNamespace(write_site_warc=write_site_warc, BASE=BASE)
