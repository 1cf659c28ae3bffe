"""Author bios the page declares in JSON-LD leave the body with the box that shows them."""

from __future__ import annotations

import json

from newscrawl.extract import extract
from newscrawl.extract.bios import MAX_BIO_CHARS
from newscrawl.extract.metadata import read_metadata
from newscrawl.page import Page

URL = "https://mag.example.com/home/a1234/ten-ideas-for-small-gardens/"
BIO = (
    "Dana Reyes is a freelance writer living in Portland. Over the past ten years she has covered "
    "gardening, design and travel for several magazines."
)
STORY = "".join(
    f"<p>Idea {n}: planting along the fence in layers gives a small garden depth, and tall grasses "
    f"hide the neighbours' shed while letting the light through in the afternoon.</p>"
    for n in range(1, 9)
)


def page(bio_html: str = f"<p>{BIO}</p>", declared: str | None = BIO, story: str = STORY, role: str = "author") -> str:
    person = {"@type": "Person", "name": "Dana Reyes"} | ({"description": declared} if declared else {})
    ld = {"@context": "https://schema.org", "@type": "Article", "headline": "Ten ideas for small gardens",
          role: person}
    return f"""<html><head><title>Ten ideas for small gardens</title>
<script type="application/ld+json">{json.dumps(ld)}</script></head><body>
<div class="css-a1"><h1>Ten ideas for small gardens</h1><div class="css-b2">{story}
<div class="css-c3"><img src="dana.jpg" alt="Headshot of Dana Reyes"><div class="css-d4">
<a href="/author/dana-reyes/">Dana Reyes</a><div class="css-e5">Contributing Writer</div></div>
<div class="css-f6">{bio_html}</div></div></div></div>
<div class="footer">About us · Contact</div></body></html>"""


def test_the_declared_bio_and_its_box_leave_the_body() -> None:
    body = extract(page(), URL).body
    assert body is not None and body.startswith("Idea 1: planting") and body.count("Idea ") == 8
    assert "freelance writer" not in body
    assert "Contributing Writer" not in body and "Dana Reyes" not in body  # the box's name and role too


def test_the_bio_stays_when_the_page_declares_none_or_another() -> None:
    assert "freelance writer" in extract(page(declared=None), URL).body
    other = "Sam Ortiz edits the design desk and writes about architecture, cities and public housing."
    assert "freelance writer" in extract(page(declared=other), URL).body


def test_only_the_authors_descriptions_count_inline_or_by_reference() -> None:
    # the person the story is about, described in the same words as its paragraph: that is the story
    assert "freelance writer" in extract(page(role="about"), URL).body
    # ... and an author named by reference to a node of the graph is still the author
    graph = {"@context": "https://schema.org", "@graph": [
        {"@type": "Article", "headline": "Ten ideas for small gardens", "author": {"@id": "#dana", "name": "Dana Reyes"}},
        {"@type": "Person", "@id": "#dana", "name": "Dana Reyes", "description": BIO}]}
    html = page(declared=None).replace("</title>", f'</title><script type="application/ld+json">{json.dumps(graph)}</script>')
    assert read_metadata(Page.from_html(html, URL), URL).author_bios == (BIO,)
    assert "freelance writer" not in extract(html, URL).body


def test_a_declared_bio_shown_cut_short_or_with_markup_still_leaves() -> None:
    shown = f"<p>{BIO[:90]}… <a href='/author/dana-reyes/'>Read more</a></p>"
    body = extract(page(bio_html=shown, declared=f"<p>{BIO}</p>"), URL).body
    assert "freelance writer" not in body and body.count("Idea ") == 8


def test_on_a_profile_page_the_bio_is_the_content() -> None:
    # the bio as most of the text: the page is about the person, it stays
    latest = "Dana's latest stories, on gardens, design and travel, are listed below, newest first, with her columns."
    profile = page(story=f"<p>{latest}</p>")
    body = extract(profile, URL).body
    assert body is not None and body.startswith(latest) and "freelance writer" in body


def test_a_paragraph_sharing_only_some_words_with_the_bio_stays() -> None:
    story = STORY + "<p>Dana Reyes is a freelance writer, and she grew these grasses herself in 2019.</p>"
    body = extract(page(story=story), URL).body
    assert "she grew these grasses herself" in body and "Over the past ten years" not in body


def test_metadata_reads_the_bios_of_declared_people() -> None:
    meta = read_metadata(Page.from_html(page(declared=f"<p>{BIO}</p>"), URL), URL)
    assert meta.author_bios == (BIO,)
    assert read_metadata(Page.from_html(page(declared=None), URL), URL).author_bios == ()


def test_a_description_too_long_for_a_box_is_no_bio() -> None:
    long_bio = (BIO + " ") * (2 * MAX_BIO_CHARS // len(BIO))  # over the cap in letters and digits too
    body = extract(page(declared=long_bio), URL).body
    assert "freelance writer" in body and body.count("Idea ") == 8
