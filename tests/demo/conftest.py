"""Shared fixtures for the demo-site tests: one built site and one running server per module."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urljoin, urlsplit

import lxml.html
import pytest

from newscrawl.demo import DemoSite, Served, build_demo_site, serve_site


@pytest.fixture(scope="module")
def site() -> DemoSite:
    return build_demo_site()


@pytest.fixture(scope="module")
def served(site: DemoSite) -> Iterator[Served]:
    with serve_site(site) as srv:
        yield srv


def page_links(html: str | bytes, page_url: str) -> list[str]:
    """Absolute URLs of every <a href>, <link href>, <img src> and <video src> of a page."""
    doc = lxml.html.fromstring(html)
    out = []
    for el in doc.iter("a", "link", "img", "video"):
        ref = el.get("href") if el.tag in ("a", "link") else el.get("src")
        if ref:
            out.append(urljoin(page_url, ref.strip()))
    return out


def target(url: str) -> str:
    """The request target (path + query) of an absolute URL."""
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


@pytest.fixture
def links():
    return page_links


@pytest.fixture
def to_target():
    return target
