"""A crawl with site-level article detection (newscrawl.site_pipeline) on a generated site whose
article URLs carry no date and no id (``/<slug>/``): long stories, short posts in the same layout,
WordPress-style attachment pages, a three-page article and thin tag archives that look like posts.
Every article must be exported once, and nothing else."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from newscrawl.demo import text
from newscrawl.demo.server import serve_directory

SECTION = "politics"


MOST_READ = [(f"most-read-{k}", f"Most read story number {k} of the week") for k in range(6)]


def _page(title: str, main: str, links: str = "", canonical: str | None = None) -> str:
    head = f'<link rel="canonical" href="{canonical}">' if canonical else ""
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{title} - The Ledger</title>{head}"
            "</head><body><div class='site'><header class='top'><a href='/'>The Ledger</a><nav class='menu'>"
            "<a href='/'>Home</a> <a href='/tag/roads/'>Roads</a> <a href='/tag/water/'>Water</a></nav></header>"
            f"<main id='main'>{main}</main><aside class='sidebar'>{links}<div class='most-read'>"
            f"{_teasers(MOST_READ)}</div></aside>"
            "<footer>© The Ledger, 114 Main Street</footer></div></body></html>")


def _post(title: str, day: int, body: str, extra: str = "", kind: str = "post") -> str:
    return (f"<article class='{kind} type-{kind}'><header class='entry-header'><h1 class='entry-title'>{title}</h1>"
            f"<div class='meta'><span class='byline'>By Ann Lee</span> <time>{day} March 2024</time></div></header>"
            f"<div class='entry-content'>{body}</div>{extra}</article>")


def _teasers(items: list[tuple[str, str]], excerpt: str = "") -> str:
    return "".join(f"<article class='teaser'><h2 class='teaser-title'><a href='/{slug}/'>{title}</a></h2>"
                   f"<time>1 March 2024</time>{excerpt}</article>" for slug, title in items)


def _latest(items: list[tuple[str, str]]) -> str:
    """The sidebar's latest stories, on every page (a site's own link block)."""
    return "<h3>Latest</h3><ul>" + "".join(f"<li><a href='/{s}/'>{t}</a></li>" for s, t in items[-12:]) + "</ul>"


def build_site(root: Path) -> dict[str, str]:
    """Writes the site under ``root``; returns {path: kind} (kind: article, attachment, listing)."""
    rng = random.Random(11)
    kinds: dict[str, str] = {}
    stories: list[tuple[str, str]] = []

    def write(path: str, html: str, kind: str) -> None:
        target = root / path.strip("/") / "index.html" if path != "/" else root / "index.html"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(html, encoding="utf-8")
        kinds[path] = kind

    for i in range(30):  # long stories
        title = text.headline(rng, SECTION)
        slug = f"{text.slugify(title)}-{i}"
        body = "".join(f"<p>{p}</p>" for p in text.paragraphs(rng, SECTION, 6))
        photo = f"<figure><a href='/{slug}/attachment/photo-{i}/'><img src='/p{i}.jpg' alt=''></a></figure>"
        stories.append((slug, title))
        write(f"/{slug}/", _page(title, _post(title, 1 + i % 28, photo + body)), "article")
        if i < 4:  # its attachment page: the photo and a title, in the post template
            att = f"photo-{i}"
            write(f"/{slug}/attachment/{att}/", _page(att, _post(att, 1 + i % 28,
                  f"<p class='attachment'><img src='/p{i}.jpg' alt='{att}'></p>", kind="attachment"), _latest(stories)),
                  "attachment")
    for i in range(9):  # short posts in the same layout: a sentence and an embed, show notes, a results table
        title = text.headline(rng, SECTION)
        slug = f"{text.slugify(title)}-short-{i}"
        lead = f"<p>{text.sentence(rng, SECTION)}</p>"
        body = [lead + "<figure class='embed'><iframe src='https://video.example/embed/1'></iframe></figure>",
                lead + "<ul>" + "".join(f"<li><a href='/notes/{k}/'>Episode note {k}</a></li>" for k in range(6)) + "</ul>",
                "<table>" + "".join(f"<tr><td>{k}</td><td>{text.person(rng)}</td></tr>" for k in range(8)) + "</table>",
                ][i % 3]
        stories.append((slug, title))
        write(f"/{slug}/", _page(title, _post(title, 3 + i, body), _latest(stories)), "article")
    title = "The long road north, a three-part reading"  # a multi-page article, self-canonical pages
    for n in (1, 2, 3):
        path = "/the-long-road-north/" + ("" if n == 1 else f"{n}/")
        body = "".join(f"<p>{p}</p>" for p in text.paragraphs(rng, SECTION, 5))
        pages = "".join(f"<a href='/the-long-road-north/{'' if k == 1 else f'{k}/'}'>{k}</a> " for k in (1, 2, 3))
        write(path, _page(title, _post(title, 9, body, f"<nav class='page-links'>{pages}</nav>"),
                          canonical=path), "article")
    stories.append(("the-long-road-north", title))
    for t in range(24):  # tag archives: most list one story (they look like short posts), some many
        name = f"topic-{t}"
        listed = stories[t:t + 1] if t % 6 else stories[t:t + 12]
        excerpt = f"<p class='excerpt'>{text.paragraph(rng, SECTION)}</p>"
        write(f"/tag/{name}/", _page(f"Topic {t}", f"<header class='archive-header'><h1 class='archive-title'>"
                                                  f"Topic {t}</h1></header><div class='list'>"
                                                  f"{_teasers(listed, excerpt)}</div>", _latest(stories)), "listing")
    for tag in ("roads", "water"):
        write(f"/tag/{tag}/", _page(tag, f"<header class='archive-header'><h1 class='archive-title'>{tag}</h1>"
                                        f"</header><div class='list'>{_teasers(stories[:10])}</div>"), "listing")
    tag_links = "".join(f"<a href='/tag/topic-{t}/'>Topic {t}</a> " for t in range(24))
    write("/", _page("The Ledger", f"<div class='list'>{_teasers(stories)}</div>", tag_links), "listing")
    return kinds


@pytest.fixture(scope="module")
def generated(crawl, tmp_path_factory):
    root = tmp_path_factory.mktemp("site")
    kinds = build_site(root)
    with serve_directory(root, log=False) as server:
        default = crawl(tmp_path_factory.mktemp("default"), [server.base_url + "/"])
        # every item waits (the site never has enough sure articles) in a buffer of two, and the crawl
        # is stopped early (the engine then waits for the requests whose items wait)
        waiting = crawl(tmp_path_factory.mktemp("waiting"), [server.base_url + "/"], "NEWSCRAWL_EXPORT_ALL=true",
                        "NEWSCRAWL_SITE_MIN_ARTICLES=100000", "NEWSCRAWL_SITE_BUFFER=2", "CLOSESPIDER_ITEMCOUNT=20",
                        timeout=120)
    return kinds, server.base_url, default, waiting


def _path(url: str, base: str) -> str:
    return url[len(base):]


def test_every_article_once_and_nothing_else(generated):
    kinds, base, result, _ = generated
    assert result.returncode == 0, result.log[-3000:]
    exported = [_path(item["url"], base) for item in result.items]
    assert len(exported) == len(set(exported))  # no duplicates
    articles = {p for p, kind in kinds.items() if kind == "article"}
    assert set(exported) == articles
    assert {"/the-long-road-north/", "/the-long-road-north/2/", "/the-long-road-north/3/"} <= set(exported)
    # the short posts the page model alone calls non-articles are kept by their site's layout
    raised = [p for p, item in zip(exported, result.items) if item["extraction"]["is_article"]["page_model"] < 0.5]
    assert len(raised) >= 3 and all("-short-" in p for p in raised)
    assert all(result.by_path(base)[p]["extraction"]["is_article"]["method"] == "site-layout" for p in raised)


def test_each_decision_says_which_evidence_decided(generated):
    _, _, result, _ = generated
    decided = [item["extraction"]["is_article"] for item in result.items]
    assert all(d["method"] in ("page-model", "site-layout") and "page_model" in d for d in decided)
    layout = [d for d in decided if d["method"] == "site-layout"]
    assert layout and all(d["layout"]["sure_articles"] >= 4 and 0 <= d["layout"]["share"] <= 1 for d in layout)
    assert all("site_layout" not in item for item in result.items)
    stats = result.stats
    assert sum(v for k, v in stats.items() if k.startswith("newscrawl/site/decided/")) == stats["newscrawl/pages/fetched"]


def test_waiting_items_are_all_decided_and_exported(generated):
    kinds, _, _, waiting = generated
    assert waiting.returncode == 0, waiting.log[-3000:]
    assert waiting.stats["finish_reason"] == "closespider_itemcount"
    # export-all: every page handed on comes out, decided although its site never had enough evidence
    assert len(waiting.items) == waiting.stats["newscrawl/pages/handed_off"] >= 20
    assert len({item["url"] for item in waiting.items}) == len(waiting.items) <= len(kinds)
    assert waiting.stats["newscrawl/site/released/buffer_full"] > 0
    assert waiting.stats["newscrawl/site/max_waiting"] <= 3
    assert all("is_article" in item["extraction"] for item in waiting.items)
