"""The template pipeline's store of recent pages: what the n-CS search reads instead of downloading."""

from __future__ import annotations

from newscrawl.template import pipeline
from newscrawl.template.pipeline import PageStore


def test_links_from_the_item_do_not_pack_the_page_again(monkeypatch):
    packed = []
    real = pipeline._pack
    monkeypatch.setattr(pipeline, "_pack", lambda html: packed.append(html) or real(html))
    store = PageStore(per_domain=2)
    store.add("https://news.example/a/", "<p>downloaded</p>")
    store.add_links("https://news.example/a/", "<p>downloaded</p>", ["https://news.example/b/"])
    assert packed == ["<p>downloaded</p>"]
    held = store._pages["news.example"]["https://news.example/a/"]
    assert held.html == "<p>downloaded</p>" and held.links == ["https://news.example/b/"]


def test_links_of_a_page_no_longer_held_keep_its_html():
    store = PageStore(per_domain=1)
    store.add("https://news.example/a/", "<p>a</p>")
    store.add("https://news.example/b/", "<p>b</p>")  # a is out (one page per domain)
    store.add_links("https://news.example/a/", "<p>a</p>", [])
    assert store._pages["news.example"]["https://news.example/a/"].html == "<p>a</p>"


def test_a_page_downloaded_again_replaces_what_was_kept():
    store = PageStore(per_domain=2)
    store.add("https://news.example/a/", "<p>old</p>")
    store.add("https://news.example/a/", "<p>new</p>")
    assert store._pages["news.example"]["https://news.example/a/"].html == "<p>new</p>"
