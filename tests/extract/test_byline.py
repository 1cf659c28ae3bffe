"""Authors from the byline a page shows, when its metadata declares none."""

from __future__ import annotations

import pytest

from newscrawl.extract import extract
from newscrawl.extract.byline import _name

URL = "https://citytimes.example/news/2024/03/05/harbour-plan"
TITLE = "Ferry service to add two routes to the islands"
STORY = "".join(
    f"<p>{p}</p>"
    for p in [
        "The regional ferry company said on Monday that it will add two routes to the outer islands from "
        "September, the first new lines in more than ten years.",
        "Island councils had asked for a morning crossing that reaches the mainland before the schools and "
        "the hospital open, and for a late boat on weekends.",
        "The company expects the new routes to carry forty thousand passengers in their first year and will "
        "lease a second vessel until its own is built.",
    ]
)
RAIL = (
    '<aside><h2>More stories</h2><ul><li><a href="/news/ferry">Ferry adds two routes</a> '
    '<a rel="author" href="/author/john-smith">John Smith</a></li><li><a href="/news/bridge">Bridge repairs '
    'start</a> <a href="/author/ann-lee">Ann Lee</a></li></ul></aside>'
)


def page(byline: str, head: str = "", after: str = RAIL) -> str:
    return (
        f"<html><head><title>{TITLE} | City Times</title>{head}</head><body><main><article><h1>{TITLE}</h1>"
        f'<div class="byline">{byline} · <time datetime="2024-03-05">March 5, 2024</time></div>{STORY}'
        f"</article>{after}</main></body></html>"
    )


def test_the_byline_link_to_an_author_page_names_the_author():
    for link in ('<a rel="author" href="/profile?id=7">Mara Stein</a>', '<a href="/author/mara-stein/">Mara Stein</a>'):
        art = extract(page(f"By {link}"), URL)
        assert art.authors == ["Mara Stein"], link
        assert art.provenance["authors"]["method"] == "byline"


def test_co_authors_in_one_byline_and_no_one_from_the_rail():
    byline = (
        '<span>By <a href="/author/mara-stein">Mara Stein</a> and <a href="/author/tom-berg">Tom Berg</a></span>'
    )
    art = extract(page(byline), URL)
    assert art.authors == ["Mara Stein", "Tom Berg"]  # not John Smith or Ann Lee of the "more stories" rail


def test_links_that_are_no_author_of_the_story_are_left_out():
    byline = (
        '<a href="/author/mara-stein">Mara Stein</a> <a href="/author/mara-stein">Full bio</a> '
        'Reviewed by <a href="/author/dr-lee">Dr. Anna Lee</a>'
    )
    assert extract(page(byline), URL).authors == ["Mara Stein"]
    # a link to an author page that is not near the headline (the rail) names no author of this page
    assert extract(page("By the City Times staff"), URL).authors == []


def test_declared_authors_come_first():
    declared = '<script type="application/ld+json">{"@type": "NewsArticle", "author": {"name": "M. Stein"}}</script>'
    art = extract(page('By <a rel="author" href="/author/mara-stein">Mara Stein</a>', head=declared), URL)
    assert art.authors == ["M. Stein"]
    assert art.provenance["authors"]["method"] == "metadata:jsonld"


def test_a_commenters_profile_link_is_no_author():
    comments = (
        '<section id="comments"><h3>2 comments</h3><div class="comment"><a rel="author" href="/author/bob">Bob '
        "Jones</a><p>Great news for the harbour, finally some new homes for families.</p></div></section>"
    )
    short = f"<html><head><title>{TITLE}</title></head><body><article><h1>{TITLE}</h1>{STORY}</article>{comments}"
    assert extract(short + "</body></html>", URL).authors == []


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("By Mara Stein", "Mara Stein"),
        ("Von Mara Stein", "Mara Stein"),
        ("von der Leyen", "von der Leyen"),
        ("De Vries", "De Vries"),
        ("Scritto da Paolo Rossi", "Paolo Rossi"),
        ("Author: Mara Stein", "Mara Stein"),
        ("著者：後藤大地", "後藤大地"),
        ("文在寅", "文在寅"),
        ("Associated Press", "Associated Press"),
        ("Full bio", None),
        ("View author page", None),
        ("Fact Checked", None),
        ("Mara Stein, 5 March 2024", None),
        ("mara@citytimes.example", None),
        ("By", None),
    ],
)
def test_a_link_text_reads_as_a_name_or_not(text, name):
    assert _name(text) == name


def test_a_byline_written_as_text_names_its_authors():
    assert extract(page("By Mara Stein and Tom Berg"), URL).authors == ["Mara Stein", "Tom Berg"]
    assert extract(page("Von Anna Weber, Berlin"), URL).authors == ["Anna Weber"]
    assert extract(page("<span>By</span> <span>Mara Stein</span>"), URL).authors == ["Mara Stein"]
    art = extract(page("Por: Juan Diego Rojas"), URL)
    assert art.authors == ["Juan Diego Rojas"] and art.provenance["authors"]["method"] == "byline"


def test_text_that_only_starts_like_a_byline_names_no_one():
    for text in ("By the City Times staff", "By Course or Type", "von der Leyen lobt den Plan",
                 "By logging in, you agree to our terms"):
        assert extract(page(text), URL).authors == [], text
    # two different "By" lines in reach: a product list's makers, no byline of the page
    two = "<div>By Ebern Designs</div><div>By Charlton Home</div>"
    assert extract(page(two), URL).authors == []


def test_a_declared_author_that_is_only_the_site_gives_way_to_the_byline():
    for declared_name in ("City Times", "citytimes.example", "citytimes"):
        declared = (
            '<meta property="og:site_name" content="City Times"><script type="application/ld+json">'
            f'{{"@type": "NewsArticle", "author": {{"name": "{declared_name}"}}}}</script>'
        )
        art = extract(page('By <a rel="author" href="/author/mara-stein">Mara Stein</a>', head=declared), URL)
        assert art.authors == ["Mara Stein"], declared_name
    # ... and stays when the page shows no byline
    declared = '<script type="application/ld+json">{"@type": "NewsArticle", "author": {"name": "City Times"}}</script>'
    assert extract(page("", head=declared), URL).authors == ["City Times"]


def test_the_byline_under_a_picture_and_an_author_class_link_count():
    picture = (
        '<figure><img src="/ferry.jpg"><figcaption>The new ferry at the pier on Monday morning, before its '
        "first crossing to the outer islands.</figcaption></figure>"
    )
    html = page(f'{picture}<a class="c-byline__author" href="/mara-stein-profile">Mara Stein</a>')
    assert extract(html, URL).authors == ["Mara Stein"]
    # "authorized" is no author class
    dealer = page('<a class="authorized-dealer" href="/dealers/bergs-boats">Bergs Boats</a>')
    assert extract(dealer, URL).authors == []


def test_a_byline_under_the_headline_wins_over_author_links_in_a_menu_above_it():
    menu = (
        '<ul class="columnists"><li><a href="/author/walt-moss">Walt Moss</a></li>'
        '<li><a href="/author/ina-frie">Ina Frie</a></li></ul>'
    )
    html = page("By Mara Stein").replace("<main><article>", f"<main>{menu}<article>")
    assert extract(html, URL).authors == ["Mara Stein"]
