"""newscrawl.extract(): the Article API on generated pages, and bad input of every kind."""

from __future__ import annotations

import json
import time

import pytest

import newscrawl
from newscrawl.extract import Article, extract

PARAS = [
    "The regional parliament approved the new water management plan after a long debate on Thursday.",
    "Farmers in the southern valleys had asked for clearer rules on irrigation during dry summers.",
    "The plan sets limits for each district and creates a fund for repairing old canals and pipes.",
    "Environmental groups welcomed the decision but said that the limits should be reviewed every year.",
    "The minister said the first payments from the fund would be made before the end of the year.",
]
TITLE = "Parliament approves water plan for dry valleys"


def article_html(comments: bool = True) -> str:
    nav = "".join(f'<li><a href="/section/{i}">Section {i}</a></li>' for i in range(10))
    related = "".join(f'<li><a href="/story/{i}">Another story headline number {i}</a></li>' for i in range(6))
    comm = "".join(f'<li class="comment"><b>reader{i}</b> <span>2 days ago</span><p>Comment text {i}.</p></li>'
                   for i in range(8)) if comments else ""
    body = "".join(f"<p>{p}</p>" for p in PARAS)
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>{TITLE} | The Valley Times</title>
<style>h1 {{ font-size: 34px; font-weight: bold }} .byline {{ font-size: 13px; color: #666 }}</style>
</head><body><header><nav><ul>{nav}</ul></nav></header>
<main><article><h1>{TITLE}</h1><div class="byline">By Mara Stein · <time>14 March 2024</time></div>
{body}<p>Read <a href="/more">more about <i>water</i></a> in our dossier.</p></article>
<aside class="related"><ul>{related}</ul></aside>
<section class="comments"><ul>{comm}</ul></section></main>
<footer><p>Copyright 2024 The Valley Times. All rights reserved.</p></footer></body></html>"""


def test_article_fields_from_a_generated_page():
    art = extract(article_html(), "https://valley.example/news/water-plan")
    assert isinstance(art, Article)
    assert art.title == TITLE
    assert art.published == "2024-03-14"
    assert art.body is not None
    lines = art.body.split("\n")
    for p in PARAS:
        assert p in lines  # one paragraph per line
    assert "Read more about water in our dossier." in lines  # inline markup joined, spaces kept
    for noise in ("Section 3", "Another story", "reader2", "Copyright", TITLE):
        assert noise not in art.body
    assert art.provenance["title"]["method"] and "score" in art.provenance["body"]
    assert art.language == "en"


def test_style_elements_hide_text_beside_external_sheets_or_when_asked():
    # a page given alone: inline styles and user-agent defaults; its <style> elements join the
    # cascade beside the stylesheets a crawl fetched, or when asked
    aside = "A second telling of the closing paragraph, laid out for narrow screens only."
    html = article_html(comments=False).replace("</style>", " .narrow { display: none }</style>").replace(
        "</article>", f'<p class="narrow">{aside}</p></article>')
    url = "https://valley.example/news/water-plan"
    assert aside in extract(html, url).body
    assert aside not in extract(html, url, style_elements=True).body
    assert aside not in extract(html, url, stylesheets=[".byline { color: #333 }"]).body
    assert aside in extract(html, url, stylesheets=[".byline { color: #333 }"], style_elements=False).body
    assert PARAS[-1] in extract(html, url, style_elements=True).body


def test_structured_metadata_is_used_for_the_date():
    html = article_html().replace(
        "</head>", '<script type="application/ld+json">{"@type":"NewsArticle","headline":"x",'
                   '"datePublished":"2024-03-15T08:00:00Z"}</script></head>')
    art = extract(html)
    assert art.published.startswith("2024-03-15")
    assert art.provenance["published"]["method"].startswith("metadata")


def test_an_open_day_month_order_in_metadata_follows_the_visible_date():
    # "03-09-2026" reads day-first (3 September); the page shows 9 March, the other reading
    html = article_html().replace("<time>14 March 2024</time>", "<time>Published March 9, 2024</time>").replace(
        "</head>", '<meta property="article:published_time" content="03-09-2024"></head>')
    art = extract(html)
    assert art.published == "2024-03-09"
    assert art.provenance["published"]["method"] == "metadata:og"
    # a visible date that is neither reading leaves the declared one as it is
    other = html.replace("Published March 9, 2024", "Published March 12, 2024")
    assert extract(other).published == "2024-09-03"


def _declared(published: str, modified: str | None) -> str:
    dates = f'"datePublished":"{published}"' + (f',"dateModified":"{modified}"' if modified else "")
    return article_html().replace(  # the page shows 14 March 2024
        "</head>", f'<script type="application/ld+json">{{"@type":"NewsArticle",{dates}}}</script></head>')


def test_a_declared_date_stamped_on_edit_gives_way_to_the_shown_date():
    # datePublished rewritten to the modification day on a save, months after the shown date
    art = extract(_declared("2024-08-02T10:00:00Z", "2024-08-02T10:00:00Z"))
    assert art.published == "2024-03-14"
    assert art.provenance["published"]["method"] == "nce-date-model-over-edit-stamp"
    # published after the last modification: a stamp as well
    assert extract(_declared("2024-08-02T10:00:00Z", "2024-08-01T10:00:00Z")).published == "2024-03-14"
    # a declared date before the modification, or near the shown one, or the URL's day, stands
    assert extract(_declared("2024-08-02T10:00:00Z", "2024-09-01T10:00:00Z")).published.startswith("2024-08-02")
    assert extract(_declared("2024-08-02T10:00:00Z", None)).published.startswith("2024-08-02")
    assert extract(_declared("2024-04-20", "2024-04-20")).published == "2024-04-20"
    assert extract(_declared("2024-08-02", "2024-08-02"),
                   "https://valley.example/2024/08/02/water-plan").published == "2024-08-02"


def _declaring(schema_type: str, template: str) -> tuple[str, str]:
    """``template`` (a page with ``{}`` in its <head>) with a JSON-LD node of ``schema_type``, and without."""
    node = f'<script type="application/ld+json">{{"@type": "{schema_type}", "name": "x"}}</script>'
    return template.format(node), template.format("")


def test_a_declared_forum_thread_keeps_its_replies():
    posts = "".join(f'<div class="comment" id="comment-{i}"><div class="who">user{i} replied</div>'
                    f"<p>Reply {i}: {PARAS[i % len(PARAS)]}</p></div>" for i in range(10))
    thread, plain = _declaring("DiscussionForumPosting", (
        f'<html><head>{{}}</head><body><h1>{TITLE}</h1><div class="comments">'
        f'<div class="comment op"><p>{PARAS[0]} {PARAS[1]}</p></div>{posts}</div></body></html>'))
    kept = extract(thread, "https://forum.example/t/water-plan/12").body
    assert "Reply 0" in kept and "Reply 9" in kept
    assert "Reply 9" not in (extract(plain, "https://forum.example/t/water-plan/12").body or "")


def test_a_declared_qa_page_loses_its_post_chrome():
    answers = "".join(f'<div class="answer"><div class="user-card">user{i} 1,204 reputation</div>'
                      f"<p>Answer {i}: {PARAS[i % len(PARAS)]}</p></div>" for i in range(6))
    qa, plain = _declaring("QAPage", (
        f'<html><head>{{}}</head><body><h1>{TITLE}</h1><div class="question"><p>{PARAS[0]} {PARAS[1]}</p>'
        f"</div>{answers}</body></html>"))
    body = extract(qa, "https://qa.example/questions/12/water-plan").body
    assert "Answer 5" in body and "reputation" not in body
    assert "reputation" in extract(plain, "https://qa.example/questions/12/water-plan").body


def test_a_page_whose_text_scripts_write_gets_its_declared_article_body():
    # the shown page is an empty application shell; the JSON-LD carries the article's text
    declared = "\n".join(PARAS)
    node = ('<script type="application/ld+json">' + json.dumps(
        {"@type": "NewsArticle", "headline": TITLE, "articleBody": declared}) + "</script>")
    shell = f'<html><head><title>{TITLE}</title>{node}</head><body><div id="root"></div></body></html>'
    art = extract(shell, "https://valley.example/2024/03/14/water-plan")
    assert art.body == declared
    assert art.provenance["body"]["method"] == "jsonld-articleBody"
    # where the shown text gives a body, the declared text does not replace it
    shown = article_html().replace("</head>", node.replace(PARAS[0], "Declared only.") + "</head>")
    body = extract(shown, "https://valley.example/2024/03/14/water-plan").body
    assert PARAS[1] in body and "Declared only." not in body
    # a declared text under MIN_BODY_CHARS is no body either
    assert extract(shell.replace(json.dumps(declared)[1:-1], "Short."), None).body is None


def test_an_open_day_month_order_on_the_page_follows_the_url():
    html = article_html().replace("<time>14 March 2024</time>", "<time>03/10/2023</time>")
    # slashes read month-first on an English page: 10 March, unless the URL's day is the other reading
    assert extract(html, "https://valley.example/news/water-plan").published == "2023-03-10"
    assert extract(html, "https://valley.example/blog/2023/october/03/water-plan").published == "2023-10-03"
    assert extract(html, "https://valley.example/2023/10/04/water-plan").published == "2023-03-10"


def test_a_date_beside_a_published_label_where_nothing_else_dates_the_page():
    # no metadata and no byline date near the title: the date sits in a side box, after its label
    side = '<aside class="meta"><p class="label">Published</p><p class="date">Feb 2, 2023</p></aside>'
    html = article_html().replace('<div class="byline">By Mara Stein · <time>14 March 2024</time></div>', "").replace(
        "</main>", side + "</main>").replace("</head>", '<meta property="og:type" content="article"></head>')
    art = extract(html)
    assert art.is_article
    assert art.published == "2023-02-02"
    assert art.provenance["published"]["method"] == "published-label"
    # a date after any other label is not the page's
    assert extract(html.replace(">Published<", ">Event<")).published is None


def test_a_declared_title_is_cut_to_the_segment_the_h1_shows_when_no_title_node_is_found(monkeypatch):
    # no title node (as on product pages whose short <h1> the title model passes over): here the
    # model is away and no text is near <title>, so the declared og:title is the title
    import newscrawl.extract.titledate as titledate

    real_load = titledate.load
    monkeypatch.setattr(titledate, "load", lambda name: None if name == "title_model" else real_load(name))
    html = ("<html><head><title>x</title>"
            '<meta property="og:title" content="Ridge Wallet - Royal Black"></head><body>'
            "<h1>Ridge Wallet</h1><p>" + "Slim aluminium wallet with a cash strap and RFID blocking. " * 6 + "</p>"
            "</body></html>")
    art = extract(html, "https://shop.example/products/ridge-wallet")
    assert art.provenance["title"]["method"] == "metadata:og"
    assert art.title == "Ridge Wallet"
    assert extract(html.replace("<h1>Ridge Wallet</h1>", "<h2>Ridge</h2>"),
                   "https://shop.example/products/ridge-wallet").title == "Ridge Wallet - Royal Black"
    # the same for a <title> fallback: no declared title
    plain = html.replace('<meta property="og:title" content="Ridge Wallet - Royal Black">', "").replace(
        "<title>x</title>", "<title>Ridge Wallet | The Slimmest Wallet Ever Made by Anyone Anywhere</title>")
    art = extract(plain, "https://shop.example/products/ridge-wallet")
    assert art.provenance["title"]["method"] == "title-tag"
    assert art.title == "Ridge Wallet"


def test_to_dict_and_callable_package():
    art = newscrawl.extract(article_html().encode("utf-8"))
    d = art.to_dict()
    assert set(d) >= {"title", "published", "body", "is_article", "probability", "provenance", "warnings"}
    assert d["title"] == TITLE
    assert newscrawl.Article is Article


def test_unknown_method_is_a_clear_error():
    with pytest.raises(ValueError):
        extract("<p>x</p>", method="magic")


def test_no_convincing_content_gives_no_body():
    # a video page: menus, a player, a one-line caption and a footer; no article text
    nav = "".join(f'<li><a href="/section/{i}">Section number {i}</a></li>' for i in range(30))
    foot = "".join(f'<a href="/legal/{i}">Legal page {i}</a> ' for i in range(12))
    art = extract(f"<html><head><title>Video: sunset over the bay | TV</title></head><body><nav><ul>{nav}</ul></nav>"
                  f"<div class=player>Watch: the sun sets over the bay</div><footer>{foot}</footer></body></html>")
    assert art.body is None
    assert art.title == "Video: sunset over the bay"
    assert not art.is_article


def test_a_listing_page_keeps_its_links_as_the_body():
    # a section front: NCE's separator is the list of stories, all links, which its link-density
    # pruning removes; the page is no article, and its content is that list
    nav = "".join(f'<li><a href="/section/{i}">Section {i}</a></li>' for i in range(12))
    items = "".join(f'<li><a href="/news/2024/05/{i:02d}/story-{i}">Council votes on the riverside housing plan, '
                    f'part {i} of the series</a></li>' for i in range(20))
    foot = "".join(f'<a href="/legal/{i}">Legal page {i}</a> ' for i in range(8))
    art = extract(f"<html><head><title>Latest news | Valley Times</title></head><body><nav><ul>{nav}</ul></nav>"
                  f"<main><h1>Latest news</h1><ul class=stories>{items}</ul></main><footer>{foot}</footer></body></html>",
                  "https://valley.example/latest/")
    assert not art.is_article
    assert art.provenance["body"]["method"] == "nce-links-kept"
    lines = art.body.split("\n")
    assert lines[0] == "Council votes on the riverside housing plan, part 0 of the series" and len(lines) == 20
    assert "Section 3" not in art.body and "Legal page" not in art.body


@pytest.mark.parametrize("is_article", [True, False])
def test_an_article_where_nce_finds_nothing_gets_coreex_main_node(is_article: bool):
    from newscrawl.extract.api import extract_page
    from newscrawl.extract.nce import NCEParams
    from newscrawl.page import Page

    page = Page.from_html(article_html(comments=False), "https://valley.example/news/water-plan")
    nothing = NCEParams(beta2=10**9, retry_beta3=0)  # no subtree can be the separator
    art = extract_page(page, nothing, classifier=lambda *args: (is_article, 0.9 if is_article else 0.1))
    if not is_article:  # a listing or a video page keeps no body
        assert art.body is None and art.provenance["body"]["method"] == "nce-whole-page"
        return
    assert art.provenance["body"]["method"] == "coreex-fallback"
    assert all(p in art.body for p in PARAS)
    assert "Section 3" not in art.body and "Copyright" not in art.body


def test_a_tiny_page_without_separator_is_its_own_content():
    art = extract("<html><body><div><p>Lorem ipsum dolor sit amet.</p><p>Second line here.</p></div></body></html>")
    assert art.body == "Lorem ipsum dolor sit amet.\nSecond line here."
    assert art.provenance["body"]["method"] == "nce-whole-page"


def _bounded(html, seconds: float = 60.0) -> Article:
    started = time.perf_counter()
    art = extract(html)
    assert time.perf_counter() - started < seconds
    assert isinstance(art, Article)
    return art


def test_empty_documents():
    for html in ("", b"", "   ", b"\xef\xbb\xbf"):
        art = _bounded(html)
        assert art.body is None and art.warnings


def test_non_html_bytes():
    art = _bounded(bytes(range(256)) * 400)
    assert art.body is None
    art = _bounded(b"%PDF-1.4\n" + b"\x00\x89binary" * 10000)
    assert art.body is None


def test_broken_encodings():
    # declared UTF-8 with invalid bytes, and a lying charset: never an exception
    raw = b'<html><head><meta charset="utf-8"></head><body><p>' + ("caf\xe9 " * 50).encode("latin-1") + b"</p></body></html>"
    art = _bounded(raw)
    assert art.body is None or "caf" in art.body
    _bounded(b'<meta charset="no-such-charset"><p>' + b"text " * 100 + b"</p>")
    _bounded("<p>\ud800 lone surrogate</p>")


def test_fifty_megabyte_page_is_cut_with_a_warning():
    html = "<html><body><div class=story>" + "<p>" + "word " * 100 + "</p>" * 1 + "<p>more words here</p>" * 2_000_000
    assert len(html) > 40_000_000
    art = _bounded(html, 120)
    assert any("cut" in w for w in art.warnings)


def test_ten_thousand_deep_nesting():
    html = "<html><body>" + "<div>" * 10_000 + "deep" + "</div>" * 10_000 + "</body></html>"
    art = _bounded(html)
    assert art.warnings


def test_hundred_thousand_text_nodes():
    html = "<html><body><div>" + "<span>w</span> x " * 100_000 + "</div></body></html>"
    _bounded(html, 120)


def test_frames_only_page():
    art = _bounded('<html><head><title>Frames</title></head><frameset cols="50%,50%">'
                   '<frame src="a.html"><frame src="b.html"></frameset></html>')
    assert art.body is None and any("frame" in w for w in art.warnings)


@pytest.mark.parametrize("url", ["http://127.0.0.1/news/2024/03/14/water-plan", "http://[bad/news/", None, 12])
def test_malformed_urls_in_the_page_or_as_its_url_cost_only_themselves(url):
    """hrefs urllib refuses (an unclosed or non-IP bracketed host) in links, a headline link,
    <base>, the canonical link, a stylesheet link and an @import, or as the page URL itself: each is
    ignored, and the page classifier still reads the page (before, its features raised ValueError
    and it fell back to the rule, with a "page classifier unavailable" warning). A page URL that
    is not a string (a batch manifest's ``"url": 12``) is ignored too, not fatal to the page."""
    bad = '<a href="http://[bad/x">one</a> <a href="http://[ua]/">two</a>'
    html = (article_html()
            .replace("<head>", '<head><base href="http://[bad/"><link rel="canonical" href="http://[x]/c">'
                               '<link rel="stylesheet" href="http://[bad/s.css"><style>@import url(http://[x/a.css);</style>')
            .replace(f"<h1>{TITLE}</h1>", f'<h1><a href="http://[bad">{TITLE}</a></h1>')
            .replace("</article>", f"<p>{bad}</p></article>"))
    art = extract(html.encode(), url=url, style_elements=True)  # the <style>'s @import read too
    assert art.title == TITLE and art.body and PARAS[0] in art.body
    assert art.provenance["is_article"]["method"] == "page-classifier", art.warnings
    assert not [w for w in art.warnings if "unavailable" in w or "Error" in w], art.warnings
    ignored = url is not None and (not isinstance(url, str) or "[" in url)  # malformed, or not a string
    assert ("page URL ignored" in " ".join(art.warnings)) == ignored


@pytest.mark.parametrize("head", ["<title>{}</title>",
                                  '<script type="application/ld+json">{{"@type": "NewsArticle", "headline": "{}"}}</script>'])
def test_a_megabyte_title_is_cut_with_a_warning(head):
    from newscrawl.extract.api import MAX_TITLE_CHARS

    art = _bounded(f"<html><head>{head.format('Word ' * 200_000)}</head><body><p>text</p></body></html>")
    assert art.title and art.title.startswith("Word Word") and len(art.title) <= MAX_TITLE_CHARS
    assert f"title cut to {MAX_TITLE_CHARS} characters" in art.warnings


def test_not_a_string_is_reported_not_raised():
    art = extract(12345)  # type: ignore[arg-type]
    assert art.body is None and art.warnings


def test_item_prop_article_body_is_the_body_when_marked():
    html = article_html(comments=False).replace("<article>", '<article itemscope itemtype="https://schema.org/NewsArticle">').replace(
        f"<p>{PARAS[0]}</p>", f'<div itemprop="articleBody"><p>{PARAS[0]}</p>').replace(
        f"<p>{PARAS[-1]}</p>", f"<p>{PARAS[-1]}</p></div>")
    art = extract(html)
    assert art.provenance["body"]["method"] == "itemprop-articleBody"
    assert art.body.split("\n") == PARAS


def test_text_hidden_by_a_stylesheet_is_not_body_text():
    html = article_html(comments=False).replace(
        f"<p>{PARAS[2]}</p>", f'<p class="note">Subscribe now for only one euro a month, cancel anytime you like.</p><p>{PARAS[2]}</p>')
    shown = extract(html)
    assert "Subscribe now" in shown.body
    hidden = extract(html, stylesheets=[".note { display: none }"])
    assert "Subscribe now" not in hidden.body and PARAS[2] in hidden.body


def test_page_hidden_until_scripts_run_is_still_read():
    # anti-flicker: the whole page is display:none until a script adds a class
    art = extract(article_html(comments=False), stylesheets=["html.no-js body, body { display: none }"])
    assert art.body is not None and PARAS[0] in art.body
    assert any("visibility ignored" in w for w in art.warnings)
