"""Site-level article detection (newscrawl.classify.site) on generated pages and layouts."""

from __future__ import annotations

from newscrawl.classify.site import SiteLayouts, layout_keys, page_layout
from newscrawl.page import Page

POST = "div.site/main#main/article.post/header.entry-header/h1.entry-title"
DATE = "div.site/main#main/article.post/header.entry-header/div.meta"
ARCHIVE = "div.site/main#main/header.archive-header/h1.archive-title"
ARCHIVE_DATE = "div.site/main#main/div.list/article.teaser/time"


def layout(head: str = POST, date: str | None = DATE, teasers: int = 1, text: int = 2000,
           declared: bool | None = None) -> dict:
    return {"headline": head, "dateline": date, "teasers": teasers, "text": text, "declared": declared}


def site_with_articles(n: int = 30) -> SiteLayouts:
    site = SiteLayouts()
    for i in range(n):
        site.add(f"http://s/story-{i}/", "s", 0.97, layout())
    return site


def test_a_short_post_in_the_article_layout_is_an_article():
    site = site_with_articles()
    short = layout(text=180)
    site.add("http://s/a-short-post/", "s", 0.08, short)
    verdict = site.decide("http://s/a-short-post/", "s", 0.08, short)
    assert verdict.is_article and verdict.method == "site-layout"
    assert verdict.scores["page_model"] == 0.08
    assert verdict.scores["layout"]["sure_articles"] == 30


def test_a_variant_of_the_article_template_shares_its_slots():
    site = site_with_articles()
    wide = layout(head="div.site/main#main/div.full-width/div.row/header.entry-header/h1.entry-title",
                  date="div.site/main#main/div.full-width/div.row/header.entry-header/div.meta", text=400)
    site.add("http://s/puzzle/", "s", 0.02, wide)
    verdict = site.decide("http://s/puzzle/", "s", 0.02, wide)
    assert verdict.is_article and verdict.scores["layout"]["level"] == "element"


def test_an_attachment_page_in_the_post_template_is_not_raised_but_a_textless_post_is():
    site = site_with_articles()
    # an image and its title: WordPress prints the attachment's own post classes
    media = layout(head=POST.replace("article.post", "article.attachment"),
                   date=DATE.replace("article.post", "article.attachment"), text=0)
    site.add("http://s/story-1/attachment/photo/", "s", 0.1, media)
    verdict = site.decide("http://s/story-1/attachment/photo/", "s", 0.1, media)
    assert not verdict.is_article and verdict.scores["layout"]["level"] == "path"
    puzzle = layout(text=0)  # a crossword image in the post's own slots: a post
    site.add("http://s/puzzle-of-the-month/", "s", 0.01, puzzle)
    assert site.decide("http://s/puzzle-of-the-month/", "s", 0.01, puzzle).is_article


def test_a_page_declaring_another_type_is_no_article_whatever_its_layout():
    site = site_with_articles()
    page = layout(declared=False)
    site.add("http://s/about/", "s", 0.9, page)
    verdict = site.decide("http://s/about/", "s", 0.9, page)
    assert not verdict.is_article and verdict.method == "declared-type"


def test_thin_tag_pages_of_the_listing_layout_are_not_articles():
    site = site_with_articles()
    # a tag archive: mostly one story a page (the page model half believes them), some long lists
    for i in range(40):
        teasers, p = (12, 0.05) if i % 8 == 0 else (1, 0.6 + (i % 4) * 0.1)
        site.add(f"http://s/tag/t{i}/", "s", p, layout(ARCHIVE, ARCHIVE_DATE, teasers, 300))
    thin = layout(ARCHIVE, ARCHIVE_DATE, 1, 300)
    verdict = site.decide("http://s/tag/t1/", "s", 0.9, thin)
    assert not verdict.is_article and verdict.method == "listing-layout"
    assert site.decide("http://s/story-3/", "s", 0.97, layout()).is_article


def test_without_evidence_the_page_model_decides():
    site = SiteLayouts()
    page = layout()
    site.add("http://s/only/", "s", 0.3, page)
    verdict = site.decide("http://s/only/", "s", 0.3, page)
    assert not verdict.is_article and verdict.method == "page-model"
    assert site.decide("http://other/x/", "other", 0.7, page).is_article  # another site knows nothing


def test_the_page_itself_is_left_out_of_its_layouts_evidence():
    site = SiteLayouts()
    for i in range(4):
        site.add(f"http://s/{i}/", "s", 0.05, layout())
    # four sure non-articles share the layout; the fifth page's own vote must not count
    site.add("http://s/x/", "s", 0.95, layout())
    verdict = site.decide("http://s/x/", "s", 0.95, layout())
    assert verdict.scores["layout"]["sure_articles"] == 0 and verdict.scores["layout"]["sure_others"] == 4


def test_page_layout_reads_headline_dateline_and_teasers():
    html = """<html><body><div class="site"><nav><a href="/x/">A storm closes the pass for 3 days</a></nav>
    <main id="main"><article class="post post-123"><header><h1 class="entry-title">A storm closes the pass
    for 3 days</h1><div class="meta"><time>12 March 2024</time></div></header>
    <div class="entry-content"><p>The road stayed shut while crews cleared snow from the summit.</p></div>
    </article><aside><h3><a href="/a/">Related one</a></h3><h3><a href="/b/">Related two</a></h3></aside>
    </main></div></body></html>"""
    page = Page.from_html(html, "http://s/a-storm/")
    found = page_layout(page, "A storm closes the pass for 3 days")
    assert found["headline"] == "div.site/main#main/article.post/header/h1.entry-title"  # not the menu's link
    assert found["dateline"].endswith("header/div.meta")
    assert found["teasers"] == 2
    assert found["text"] == len("The road stayed shut while crews cleared snow from the summit.")  # to <h3>
    keys = layout_keys(found)
    assert keys is not None and keys[-1] == "h1.entry-title | div.meta"
