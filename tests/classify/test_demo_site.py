"""The extractors and the page classifier on the generated demo news site (its truth is known)."""

from __future__ import annotations

import pytest

from newscrawl.classify import body_extractor
from tests.classify.bare import classify
from newscrawl.demo import build_demo_site
from newscrawl.page import Page

BASE = "https://news.example.org"


@pytest.fixture(scope="module")
def site():
    return build_demo_site(seed=11)  # not the seed the shipped model saw


def _page(site, path: str) -> Page:
    return Page.from_html(site.resolve(path, BASE).body, BASE + path)


def _paths(site, kind: str, n: int) -> list[str]:
    return [p for p, t in sorted(site.truth.items()) if t.kind == kind][:n]


@pytest.mark.parametrize("method", ["mss", "coreex", "newsfeed"])
def test_each_extractor_finds_every_paragraph_of_demo_articles(site, method):
    for path in _paths(site, "article", 5):
        truth = site.truth[path].article
        body = body_extractor(method)(_page(site, path)).body
        assert body is not None
        assert all(paragraph in body for paragraph in truth.paragraphs), (method, path)


def test_coreex_and_newsfeed_leave_out_the_site_chrome(site):
    for path in _paths(site, "article", 3):
        page = _page(site, path)
        menu = [a.text_content().strip() for a in page.body.iter("a")][:3]
        for method in ("coreex", "newsfeed"):
            body = body_extractor(method)(page).body
            assert not any(line.strip() in menu for line in body.split("\n")), (method, path)


def test_page_classifier_on_demo_articles_and_listings(site):
    articles = [classify(_page(site, p)) for p in _paths(site, "article", 8)]
    listings = [classify(_page(site, p)) for kind in ("section", "tag", "author", "home") for p in _paths(site, kind, 3)]
    assert all(verdict for verdict, _ in articles)
    assert not any(verdict for verdict, _ in listings)
    assert min(p for _, p in articles) > max(p for _, p in listings)
