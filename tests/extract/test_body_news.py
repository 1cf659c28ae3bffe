"""Body rules for news pages on generated pages: the headline anchors the article, the headline's own
``<article>`` among teaser cards, and the declared ``articleBody`` only when the page agrees."""

from __future__ import annotations

from newscrawl.extract import extract
from newscrawl.extract.declared import declared_verdict
from newscrawl.extract.anchor import without_sidebars
from newscrawl.extract.site_matter import _without_excerpts
from newscrawl.page import Page

ABOUT = ("I am a retired teacher who writes about gardening, birds and the small towns of the valley. "
         "Before this blog I taught chemistry for thirty years and raised three children with my husband. ") * 3
POST = ("<p>We walked down to the water this morning with the dog.</p>"
        "<p>Three nests on the far shore, near the old pier. Photos soon!</p>")
URL = "https://ann.example.com/2012/05/herons.html"


def blog_post(side_class: str = "sidebar", title: str = "Herons are back at the lake", post: str = "post") -> str:
    """A short post (a picture and two short lines) beside a long "about me" box."""
    return f"""<html><head><title>{title} - My Garden Diary</title></head><body>
<div id="wrap"><div class="main"><div class="{post}"><h2 class="post-title">{title}</h2>
<div class="post-body"><img src="h.jpg">{POST}</div>
<div class="post-footer">Posted by Ann at 9:14</div></div></div>
<div class="{side_class}"><h3>About me</h3><p>{ABOUT}</p><p>{ABOUT}</p></div></div>
<div class="footer">Powered by Blogger</div></body></html>"""


def test_a_short_post_is_the_text_under_its_headline_not_the_sidebar() -> None:
    art = extract(blog_post(), URL)
    assert art.provenance["body"]["method"] == "nce-under-headline"
    assert art.body == ("We walked down to the water this morning with the dog.\n"
                        "Three nests on the far shore, near the old pier. Photos soon!")
    assert "retired teacher" not in art.body and "Posted by" not in art.body


def test_the_sidebar_stays_when_it_is_no_sidebar_or_shares_the_headline() -> None:
    # the same long box, named as nothing beside the article, nor the post's element as a post:
    # NCE's choice stands
    plain = extract(blog_post(side_class="box", post="item"), URL)
    assert plain.provenance["body"]["method"] == "nce" and "retired teacher" in plain.body
    for side in ("side-image", "inside"):  # "side" only as a whole name
        assert "retired teacher" in extract(blog_post(side_class=side, post="item"), URL).body, side
    # ... but the post's element named as one ("post", "hentry", "entry") says where the story is
    named = extract(blog_post(side_class="box"), URL)
    assert named.provenance["body"]["method"] == "nce-under-headline" and "retired teacher" not in named.body
    # a headline whose words the chosen text has: the choice is about the story, it stands
    shared = extract(blog_post(title="Gardening notes from a retired teacher"), URL)
    assert shared.provenance["body"]["method"] == "nce" and "retired teacher" in shared.body
    # ... in another inflection: words compare by their stems ("retiring teachers", "retired teacher")
    inflected = extract(blog_post(title="Notes of two retiring teachers"), URL)
    assert inflected.provenance["body"]["method"] == "nce" and "retired teacher" in inflected.body


def test_a_short_post_under_a_long_comment_thread_or_a_notice_over_the_page_is_the_body() -> None:
    comment = ("<li class='comment'><p>What a lovely walk, thank you for sharing it. We saw two of them last "
               "spring from the bridge, and my daughter still talks about it every time we go past.</p></li>")
    thread = f'<div id="comments"><h4>5 comments:</h4><ol>{comment * 5}</ol></div>'
    short = blog_post().replace(f"<p>{ABOUT}</p><p>{ABOUT}</p>", "<p>Ann, 64.</p>")
    commented = extract(short.replace("at 9:14</div></div>", "at 9:14</div></div>" + thread), URL)
    assert commented.provenance["body"]["method"] == "nce-under-headline"
    assert commented.body.startswith("We walked down to the water") and "lovely walk" not in commented.body
    # a long notice above the header, named as nothing: the headline (an <h2> that reads as the
    # page's title, which the title model, reading only up to NCE's choice, never saw) is below it
    notice = "".join(f"<p>Our offices are closed on public holidays and orders placed then ship on the next "
                     f"working day. Notice {i}.</p>" for i in range(4))
    noticed = extract(short.replace('<div id="wrap">', f'<div class="notice">{notice}</div><div id="wrap">'), URL)
    assert noticed.provenance["body"]["method"] == "nce-under-headline"
    assert noticed.body.startswith("We walked down to the water") and "offices" not in noticed.body


SEA_POST = ["We walked down to the harbour this morning and the fog was just lifting off the water.",
            "Here is the view from the old pier, taken with my little camera."]
SEA_ABOUT = ("I am a retired teacher living by the sea with my husband and two cats. I write about walks, "
             "gardens, old boats and the small pleasures of everyday life. Thank you for visiting my blog.")
UPGRADE = "You are using an outdated browser. Please upgrade your browser to improve your experience."


def small_blog(notice: str = "", side: str = 'id="sidebar"', post_class: str = "item") -> str:
    """A short post on a page so small that NCE's choice is the whole page: the blog's banner, the
    post under its headline, a sidebar with an "about me" box."""
    post = "".join(f"<p>{line}</p>" for line in SEA_POST)
    return f"""<html><head><title>Sea Notes: Morning fog at the harbour</title></head><body>{notice}
<div id="header"><h1><a href="/">Sea Notes</a></h1><p>Walks by the sea</p></div>
<div id="main"><div class="{post_class}"><h3 class="post-title">Morning fog at the harbour</h3>
<div class="post-body"><img src="/pier.jpg">{post}</div></div></div>
<div {side}><div class="box"><h2>About Me</h2><p>{SEA_ABOUT}</p></div></div></body></html>"""


def test_a_short_post_over_a_comment_thread_in_its_own_column_is_the_body() -> None:
    comments = "".join(
        f'<dt class="comment-author">Anne said...</dt><dd class="comment-body"><p>What a lovely picture, the light '
        f"is wonderful. I wish I could walk there every morning like you do, number {i}.</p></dd>"
        for i in range(10)
    )
    post = "".join(f"<p>{line}</p>" for line in SEA_POST)
    html = f"""<html><head><title>Sea Notes: Morning fog at the harbour</title></head><body><table><tr>
<td><h3>Morning fog at the harbour</h3>{post}<div id="comments"><h4>10 comments:</h4>
<dl id="comments-block">{comments}</dl></div></td><td>Mary, 64.</td></tr></table></body></html>"""
    art = extract(html, "https://seanotes.example/2012/03/morning-fog.html")
    assert art.provenance["body"]["method"] == "nce-under-headline"
    assert art.body == "\n".join(SEA_POST)


def table_post(side: str) -> str:
    """A 2000s table layout: the post in one cell, the "about me" box, longer than the post, in the next."""
    return f"""<html><head><title>Herons are back at the lake - My Garden Diary</title></head><body>
<table width="900"><tr><td colspan="2"><h1><a href="/">My Garden Diary</a></h1></td></tr><tr>
<td width="650" valign="top"><h3><a href="/2012/05/herons.html">Herons are back at the lake</a></h3>
<p class="date">May 3, 2012</p>{POST}</td>
<td width="250" valign="top" {side}><b>About me</b><br>{ABOUT}<br><b>Links</b><br><a href="/a">Friends</a></td>
</tr></table></body></html>"""


def test_a_short_post_beside_a_table_cell_named_side_is_the_body() -> None:
    # a cell whose whole class or id is "side" is a sidebar (as "sidebar" is): the post is the body
    for side in ('class="side"', 'id="side"', 'class="blog-side side"'):
        art = extract(table_post(side), URL)
        assert art.body == ("We walked down to the water this morning with the dog.\n"
                            "Three nests on the far shore, near the old pier. Photos soon!"), side
    # "side" inside a longer name ("side-image", "inside") names no sidebar by name, but a cell beside
    # the post's in its row is a column beside it all the same
    for side in ('class="side-image"', 'class="inside"', ""):
        assert "retired teacher" not in extract(table_post(side), URL).body, side


def test_the_story_in_the_cell_next_to_its_headline_stays() -> None:
    # a row whose first cell holds only the headline and a date, the story in the next cell
    story = "".join(f"<p>{p}</p>" for p in PARAS)
    html = f"""<html><head><title>{TITLE}</title></head><body><table><tr>
<td width="200"><h1>{TITLE}</h1><p>March 14, 2024</p></td><td width="600">{story}</td></tr></table></body></html>"""
    art = extract(html, "https://valley.example/2024/03/14/water-plan")
    assert all(p in art.body for p in PARAS)
    # ... also when NCE's choice is the whole table: a headline cell holding less than a story
    # after its headline does not make the next cell a side column
    page = Page.from_html(html, "https://valley.example/2024/03/14/water-plan")
    everything = list(range(len(page.text_nodes)))
    headline = next(k for k, node in enumerate(page.text_nodes) if node.text == TITLE)
    table = page.root.find(".//table")
    kept = without_sidebars(page, everything, headline, table, 100)
    assert all(any(page.text_nodes[k].text == p for k in kept) for p in PARAS)


def test_a_short_post_spanning_the_page_leaves_out_the_sidebar_and_what_is_over_its_headline() -> None:
    url = "https://seanotes.example/2012/03/morning-fog.html"
    for notice in ("", f'<p class="chromeframe">{UPGRADE}</p>'):
        art = extract(small_blog(notice), url)
        assert art.title == "Morning fog at the harbour"
        assert art.body == "\n".join(SEA_POST)
    # a box named only by a utility class ("text-secondary") or with "secondary" in a longer id is no sidebar
    for side in ('class="text-secondary"', 'id="secondary-text"'):
        assert SEA_ABOUT in extract(small_blog(side=side), url).body
    # a box named as nothing, after the post's own element named as a post: the post ends the story
    assert extract(small_blog(side='class="box"', post_class="post hentry"), url).body == "\n".join(SEA_POST)
    assert SEA_ABOUT in extract(small_blog(side='class="box"', post_class="post-header"), url).body
    # more text over the headline than a notice holds: the story may open there, it stays
    opening = "".join(f"<p>{SEA_ABOUT} {i}</p>" for i in range(3))
    assert SEA_ABOUT + " 0" in extract(small_blog(f"<div>{opening}</div>"), url).body


PARAS = [
    "The regional parliament approved the new water management plan after a long debate on Thursday.",
    "Farmers in the southern valleys had asked for clearer rules on irrigation during dry summers.",
    "The plan sets limits for each district and creates a fund for repairing old canals and pipes.",
    "Environmental groups welcomed the decision but said that the limits should be reviewed every year.",
]
TITLE = "Parliament approves water plan for dry valleys"


def test_the_article_holding_the_headline_among_teaser_articles() -> None:
    # the story holds most of the text (LANDMARK_SHARE), the cards the rest
    teaser = ("<article class=\"card\"><h3>Another story {i}</h3><p>A summary of another story number {i}, "
              "long enough to read as a paragraph of prose.</p></article>")
    teasers = "".join(teaser.format(i=i) for i in range(3))
    html = f"""<html><head><title>{TITLE}</title></head><body><div id="content">
<article><h1>{TITLE}</h1>{"".join(f"<p>{p}</p>" for p in PARAS)}</article>
{teasers}</div></body></html>"""
    art = extract(html, "https://valley.example/2024/03/14/water-plan")
    assert all(p in art.body for p in PARAS)
    assert "Another story" not in art.body and "summary of another story" not in art.body


DECLARED = " ".join(PARAS)


def test_declared_text_on_a_page_that_shows_none_is_used() -> None:
    assert declared_verdict(DECLARED, "Home News Sport Weather Sign in", lambda: None) == "use"
    # a paywall shows the opening only: it agrees
    assert declared_verdict(DECLARED, PARAS[0] + " Subscribe to read the rest.", lambda: PARAS[0]) == "use"


def test_declared_text_that_the_page_contradicts_or_that_teases_a_longer_story_is_not_used() -> None:
    other = ("The city council voted to close the old market hall for repairs until next spring, "
             "and traders will move to a temporary site by the river. ") * 4
    assert declared_verdict(DECLARED, other, lambda: other) == "disagrees"
    longer = DECLARED + " " + other
    assert declared_verdict(PARAS[0] + " " + PARAS[1], longer, lambda: longer) == "teaser"
    assert declared_verdict("", longer, lambda: longer) == "disagrees"


def test_an_image_credit_inside_the_article_is_not_body() -> None:
    figure = ('<figure><img src="dam.jpg"><figcaption>The old dam above the valley. '
              '<span class="image-credit">Photo: Jane Doe/Valley Press</span></figcaption></figure>')
    html = (f"<html><head><title>{TITLE}</title></head><body><article><h1>{TITLE}</h1><p>{PARAS[0]}</p>"
            f"{figure}{''.join(f'<p>{p}</p>' for p in PARAS[1:])}</article></body></html>")
    body = extract(html, "https://valley.example/2024/03/14/water-plan").body
    assert all(p in body for p in PARAS) and "Jane Doe" not in body
    assert "Jane Doe" in extract(html.replace("image-credit", "note"), "https://valley.example/2024/03/14/water-plan").body


def test_teaser_cards_after_the_story_are_not_body() -> None:
    card = ('<div class="story-block pos-{i}"><h4><a href="/opinion/column-{i}">Another column {i}</a></h4>'
            "<p>A columnist's summary of another column, a sentence long, number {i} of the list.</p></div>")
    cards = "".join(card.format(i=i) for i in range(4))
    story = "".join(f"<p>{p}</p>" for p in PARAS * 2)
    declared = '<meta property="og:type" content="article">'
    html = (f"<html><head><title>{TITLE}</title>{declared}</head><body><div id=\"page\"><h1>{TITLE}</h1>{story}"
            f"<div class=\"group\"><h2>Other columns</h2>{cards}</div></div></body></html>")
    body = extract(html, "https://valley.example/2024/03/14/water-plan").body
    assert all(p in body for p in PARAS)
    assert "Another column" not in body and "columnist's summary" not in body
    # two cards are no run of teasers; cards that are most of the text are the page's content (a listing)
    two = html.replace(card.format(i=2), "").replace(card.format(i=3), "")
    assert "columnist's summary" in extract(two, "https://valley.example/2024/03/14/water-plan").body
    listing = html.replace(story, f"<p>{PARAS[0]}</p>")
    assert "columnist's summary" in extract(listing, "https://valley.example/opinion/").body
    # cards the story's own text follows are items of the text; cards linking other sites are a roundup's
    inside = html.replace("</div></div></body>", f"</div><p>{PARAS[0]} Again.</p></div></body>")
    assert "columnist's summary" in extract(inside, "https://valley.example/2024/03/14/water-plan").body
    offsite = html.replace('href="/opinion/', 'href="https://shop.example/item/')
    assert "columnist's summary" in extract(offsite, "https://valley.example/2024/03/14/water-plan").body
    undeclared = html.replace(declared, "")  # a page that declares no article keeps them (forums, listings)
    assert "columnist's summary" in extract(undeclared, "https://valley.example/2024/03/14/water-plan").body
    broken = html.replace('href="/opinion/column-0"', 'href="http://[broken"')
    assert PARAS[0] in extract(broken, "https://valley.example/2024/03/14/water-plan").body


def test_lines_the_date_cluster_sweeps_in_stay_in_the_body() -> None:
    # spec lines with years and numbers right under the dateline: the date model's cluster takes
    # them with the date, and only what reads as a date leaves the body (short values too: "12,000 BTU")
    paras = "".join(f"<p>{t}</p>" for t in [
        "When it comes to playful powder skis, the designer is one of the most influential figures today.",
        "The newest ski that he has been working on is the Outline, the widest freestyle ski of the brand.",
        "The Outline replaces two older models, and like the other new skis it uses a lighter core."] * 2)
    html = f"""<html><head><title>2021-2022 Line Outline | Blister</title></head><body><article>
<h1>2021-2022 Line Outline</h1>
<div class="meta"><span>December 10, 2021</span> <span>April 9, 2019</span> by <a href="/a">Luke Koppa</a></div>
<div class="text"><p>12,000 BTU</p><p>14 lbs. 12.8 oz.</p><p>Ski: 2021-2022 Line Outline, 186 cm</p>
<p>Available Lengths: 178, 186 cm</p><p>Stated Weight per Ski: 2030 grams</p>{paras}</div></article></body></html>"""
    art = extract(html, "https://blister.example/gear-reviews/line-outline")
    assert art.published == "2021-12-10"
    assert art.body.startswith("12,000 BTU\n14 lbs. 12.8 oz.\nSki: 2021-2022 Line Outline, 186 cm\nAvailable")
    assert "December 10, 2021" not in art.body and "April 9, 2019" not in art.body


def test_the_label_element_of_a_removed_date_leaves_the_body_in_any_language() -> None:
    paras = "".join(f"<p>{t}</p>" for t in [
        "The city council voted on Tuesday to expand the bicycle lane network across the northern districts.",
        "The plan adds forty kilometres of protected lanes over the next three years, the council said.",
        "Shop owners on the main avenue had asked for more parking instead, but the vote was clear."] * 2)

    def page(meta: str) -> str:
        return f"""<html><head><title>Council expands bike lanes</title></head><body><article>
<h1>Council expands bike lanes</h1><div class="meta">{meta}</div>{paras}</article></body></html>"""

    # a label of its own element beside the date, in a language no date word list has
    greek = extract(page('<span class="label">Δημοσίευση</span> <span class="value">25/03/2017 - 13:16</span>'),
                    "https://news.example/council-bike-lanes")
    assert greek.published.startswith("2017-03-25")
    assert greek.body.startswith("The city council voted") and "Δημοσίευση" not in greek.body
    # words of the sentence around a date are no label: a text run, not an element of its own
    run = extract(page('Reported from the council <span class="value">25/03/2017 - 13:16</span>'),
                  "https://news.example/council-bike-lanes")
    assert run.body.startswith("Reported from the council")


def test_the_themes_excerpt_of_the_story_over_it_is_not_body() -> None:
    first = "Every year, hundreds and hundreds of students leave their home country for a year abroad."
    second = "Most of them choose an agency, which finds a host family and a school in the new country."
    rest = "".join(f"<p>{t}</p>" for t in [
        "The agencies ask for the application in the autumn, so it is wise to start the research early.",
        "Grants from the region cover part of the cost for families with a low income, the school said."] * 2)

    def page(excerpt: str) -> str:
        return f"""<html><head><title>How to become an exchange student</title></head><body>
<div class="articleheader"><h1>How to become an exchange student</h1><p class="text-muted">{excerpt}</p></div>
<article class="article-post"><p>{first}</p><p>{second}</p>{rest}</article></body></html>"""

    url = "https://school.example/2021/03/12/exchange-student/"
    # the excerpt runs the paragraphs together and is cut with an ellipsis
    cut = extract(page(first + second[:40] + "..."), url)
    assert cut.body.startswith(first + "\n" + second) and "..." not in cut.body
    # a line ending "..." that the text after it does not open, or one that goes on after its
    # ellipsis, is the author's
    lines = [([0], "Students who spent a year abroad tell what they wish they had known before..."),
             ([1], f"{first[:50]}... and then they came home"), ([2], first)]
    assert _without_excerpts(lines) == lines
    assert _without_excerpts([([0], first[:60] + "…"), ([1], first)]) == [([1], first)]


def test_blocks_kept_from_search_snippets_are_not_body() -> None:
    bio = ("Anna is an experienced journalist who has covered technology for ten years, with a focus on "
           "phones and laptops. She has written for many sites and loves trying the newest gadgets.")
    paras = "".join(f"<p>{t}</p>" for t in [
        "Every morning, once the coffee is sorted, I open my laptop and go through the same set of tasks.",
        "When everything opens at once, I slip into a reactive mode before deciding what to work on first.",
        "So I wrote a single script that opens what I need, in the order I need it, and nothing else."] * 2)

    def page(header_bio: str, inner_bio: str) -> str:
        return f"""<html><head><title>One script for my morning | Tech Site</title></head><body><article>
<h1>One script for my morning</h1><div class="header-data"><div class="author">By Anna Lee</div>{header_bio}</div>
<div class="article-body">{paras}{inner_bio}{paras}</div></article></body></html>"""

    url = "https://tech.example/one-script-morning"
    marked = extract(page(f'<div class="excerpt" data-nosnippet>{bio}</div>',
                          f'<div class="card" data-nosnippet><p>{bio.replace("Anna", "Ben")}</p></div>'), url)
    assert "experienced journalist" not in marked.body and "same set of tasks" in marked.body
    # unmarked, the header box is a lead and the inner box is text
    plain = extract(page(f'<div class="excerpt">{bio}</div>', f'<div class="card"><p>{bio.replace("Anna", "Ben")}</p></div>'), url)
    assert "Anna is an experienced journalist" in plain.body and "Ben is an experienced journalist" in plain.body


def test_a_nosnippet_block_holding_most_of_the_text_stays() -> None:
    paras = "".join(f"<p>{PARA}</p>" for PARA in [
        "The council approved the new water plan after a long debate that lasted until late on Thursday.",
        "Farmers in the valleys had asked for clear rules on irrigation in the dry summer months."] * 3)
    html = (f"<html><body><h1>Council approves water plan</h1><div class='story'><p>Short intro line of the story "
            f"that comes before the rest.</p><div data-nosnippet>{paras}</div></div></body></html>")
    assert "late on Thursday" in extract(html, "https://news.example/water-plan").body


def test_the_sites_promotion_closing_the_article_is_not_body() -> None:
    story = "".join(f"<p>{t}</p>" for t in PARAS * 2)
    promos = ("<p>Subscribe to our newsletter for the week's best stories.</p>"
              "<p>Follow us on Instagram and Facebook.</p>")

    def page(inner: str) -> str:
        return f"""<html><head><title>{TITLE} | Valley Times</title></head><body><article><h1>{TITLE}</h1>
<div class="text">{inner}</div></article></body></html>"""

    art = extract(page(story + promos), "https://valley.example/2024/03/14/water-plan")
    assert art.body.endswith(PARAS[3]) and "newsletter" not in art.body and "Instagram" not in art.body
    # other languages: a Spanish Telegram pitch, a German subscription line
    for line in ["¿Ya sabías que tenemos canal de Telegram? Únete desde tu celular.",
                 "Jetzt abonnieren und keinen Artikel mehr verpassen!",
                 "Follow The Valley Times on Twitter and Instagram @ValleyTimes.",
                 "© 2024 Valley Times. All rights reserved."]:
        assert line not in extract(page(story + f"<p>{line}</p>"), "https://valley.example/a").body
    # inside the text, or as long as a paragraph of the author's own, it stays
    # a reprint note that names its copyright is the story's
    note = "The above is an excerpt from A Guide to Canals, Copyright 2013. It is reprinted here with permission."
    assert note in extract(page(story + f"<p>{note}</p>"), "https://valley.example/a").body
    # the author's bio asking to follow the author is not the site's promotion
    bio = "Ann Lee covers water and farming for the paper. Follow her on Twitter @annlee."
    assert bio in extract(page(story + f"<p>{bio}</p>"), "https://valley.example/a").body
    inside = extract(page(promos + story), "https://valley.example/a").body
    assert "Follow us on Instagram" in inside
    closing = "Subscribe, said the mayor, " + PARAS[0] * 3
    assert closing in extract(page(story + f"<p>{closing}</p>"), "https://valley.example/a").body
    # a body that is mostly such lines is not cut to nothing
    signup = "".join(f"<p>Sign up for our newsletter number {i} and get the news first every day.</p>" for i in range(6))
    assert "number 5" in extract(page(f"<p>{PARAS[0]}</p>" + signup), "https://valley.example/a").body
    # a paywall's offer: the plans and prices after its pitch go with it; short lines before it stay
    offer = ("<p>Notes: 4 parts</p><p>Unlock this article and get our newsletters and news alerts.</p>"
             "<div>Monthly</div><div>$39</div><div>$39/month Get Started</div><div>Annual</div>"
             "<div>$399/year Get Started</div>")
    paywalled = extract(page(story + offer), "https://valley.example/a").body
    assert paywalled.endswith("Notes: 4 parts") and "Unlock" not in paywalled and "$39" not in paywalled


def chart_page(style: str = "top:10%;left:5%;") -> str:
    """An article with a chart: its picture and the labels that ai2html-like exporters place on it."""
    labels = "".join(f'<div class="label" style="{style}"><p>{v}</p></div>' for v in ("$915", "600", "300", "’17", "’28"))
    prose = "".join(f"<p>The deficit is expected to keep growing next year, paragraph {i}, as interest payments "
                    f"on the debt climb faster than any other part of the budget.</p>" for i in range(6))
    return f"""<html><head><title>Interest on the debt - The Daily</title></head><body><article>
<h1>Interest on the debt</h1>{prose[:len(prose) // 2]}
<h2>What the debt costs</h2><div class="graphic"><p>Interest payments are expected to triple.</p>
<div class="artboard"><img src="chart.png">{labels}</div><p>Source: Budget Office</p></div>
{prose[len(prose) // 2:]}</article></body></html>"""


def test_a_charts_labels_placed_on_its_picture_are_not_body_text() -> None:
    art = extract(chart_page(), "https://daily.example.com/2018/09/25/debt.html")
    assert "paragraph 5" in art.body and "paragraph 0" in art.body
    assert "$915" not in art.body and "’28" not in art.body
    # the chart's own lines go with it, the heading over it stays
    assert "expected to triple" not in art.body and "Source:" not in art.body and "What the debt costs" in art.body
    # the same boxes without coordinates are a list of short lines in the text: they stay
    plain = extract(chart_page(style="color:red"), "https://daily.example.com/2018/09/25/debt.html")
    assert "$915" in plain.body


def teaser_over_story() -> str:
    """A declared article: its headline, then a "You may also like" card (a long linked headline),
    then the story."""
    ld = ('<script type="application/ld+json">{"@type": "NewsArticle", "headline": "The lost city of the '
          'Chozo"}</script>')
    card = ('<div class="reel"><h2>You may also like</h2><a href="/other-story"><div><h4>Officials shocked to '
            'learn the masks were sold overseas after the order was never signed</h4></div></a></div>')
    prose = "".join(f"<p>On an unknown planet, part {i}, a race of avian humanoids evolved with great strength, "
                    f"agility and intelligence.</p>" for i in range(6))
    return f"""<html><head><title>The lost city of the Chozo</title>{ld}</head><body><main>
<h1>The lost city of the Chozo</h1>{card}<div class="post-content">{prose}</div></main></body></html>"""


def test_a_linked_card_between_headline_and_story_is_no_lead_in_a_declared_article() -> None:
    art = extract(teaser_over_story(), "https://games.example.com/the-lost-city-of-the-chozo-1842")
    assert art.body.startswith("On an unknown planet, part 0") and "masks were sold" not in art.body


def test_a_video_players_text_is_not_body_text_in_a_declared_article() -> None:
    ld = '<script type="application/ld+json">{"@type": "NewsArticle", "headline": "Taxes on the rich"}</script>'
    player = ('<div class="player"><div class="media"><video src="clip.mp4" controls></video></div>'
              '<div class="caption-row"><div>The priest saving gang members</div><div>Your video will play in 00:25</div>'
              '</div></div>')
    prose = "".join(f"<p>The richest households paid more in federal taxes last year, part {i}, than at any time "
                    f"since the rules changed.</p>" for i in range(6))
    html = (f"<html><head><title>Taxes on the rich</title>{ld}</head><body><article><h1>Taxes on the rich</h1>"
            f"{player}{prose}</article></body></html>")
    art = extract(html, "https://money.example.com/2015/01/12/news/taxes-rich/")
    assert "part 0" in art.body and "part 5" in art.body
    assert "video will play" not in art.body and "priest" not in art.body
    # an embedded player (an <iframe>) with its caption: the caption goes, a heading over it stays
    embed = ('<h2>What the president said</h2><figure><div class="wrap"><iframe src="https://player.example/1">'
             '</iframe></div><figcaption>Media caption The president on gun control</figcaption></figure>')
    art = extract(html.replace(player, embed), "https://money.example.com/2015/01/12/news/taxes-rich/")
    assert "gun control" not in art.body and "What the president said" in art.body and "part 5" in art.body


def story_with_more_stories(heading: str, teasers: int = 3) -> str:
    """An article, then a heading over other stories of the site with their unlinked summaries."""
    story = "".join(f"<p>{t}</p>" for t in PARAS * 2)
    more = "".join(f"<h4>Another story number {i} from the valley</h4><p>A summary of another story number {i}, "
                   f"long enough to read as a paragraph of prose about the valley.</p>" for i in range(teasers))
    return f"""<html><head><title>{TITLE} | Valley Times</title></head><body><article><h1>{TITLE}</h1>
<div class="text">{story}<h3>{heading}</h3>{more}</div></article></body></html>"""


def test_a_heading_over_other_stories_ends_the_article() -> None:
    url = "https://valley.example/2024/03/14/water-plan"
    headings = ("Related articles", "Zum Weiterlesen:", "NOTAS RELACIONADAS", "More from Valley Times", "Kontakt:",
                "You might like", "About the author", "More in this region", "Weitere Informationen:")
    for heading in headings:
        body = extract(story_with_more_stories(heading), url).body
        assert body.endswith(PARAS[3]) and "Another story" not in body and heading not in body
    # a heading of the story's own ("More on the canals", "Comments" on a thread), a longer line: they stay
    long_line = "Related articles about the canals were published in the spring edition of the paper"
    for heading in ("More on the canals", "Comments", long_line):
        assert "Another story number 2" in extract(story_with_more_stories(heading), url).body
    # when the stories after it hold half of the text, nothing is cut
    assert "Another story number 7" in extract(story_with_more_stories("Related articles", teasers=8), url).body


def cited_tools_page(head: str) -> str:
    """A post whose list links the tools it cites on other sites, each item mostly its link."""
    tools = "".join(f'<li><a href="https://tools{i}.example.org/">The data tool number {i} for maps</a> (free)</li>'
                    for i in range(5))
    prose = "".join(f"<p>{t}</p>" for t in PARAS)
    return f"""<html><head><title>Five tools for maps</title>{head}</head><body><article><h1>Five tools for maps</h1>
{prose}<ul>{tools}</ul>{prose}</article><ul class="menu">{'<li><a href="/a">Home</a></li>' * 5}</ul></body></html>"""


def test_a_page_given_without_its_url_takes_the_address_it_declares() -> None:
    # with its URL, the list of off-site tools is the text's; given without, the declared address stands in
    declared = '<link rel="canonical" href="https://blog.example.com/2024/05/tools.html">'
    assert "data tool number 4" in extract(cited_tools_page(""), "https://blog.example.com/2024/05/tools.html").body
    assert "data tool number 4" in extract(cited_tools_page(declared), None).body
    # no declared address (or a relative one): nothing to weigh the links against, the list goes as links
    assert "data tool number 4" not in extract(cited_tools_page(""), None).body
    relative = '<link rel="canonical" href="/2024/05/tools.html">'
    assert "data tool number 4" not in extract(cited_tools_page(relative), None).body


def test_a_prose_item_of_a_link_dense_list_stays() -> None:
    bugs = "".join(f'<li><a href="/bug/{i}">Bug {i} - the window opens on top of another one</a></li>' for i in range(6))
    item = "We have the green light for another round of students hacking on the player next semester, mentored by two."
    html = f"""<html><head><title>These weeks in the browser</title></head><body><article>
<h1>These weeks in the browser</h1>{''.join(f'<p>{t}</p>' for t in PARAS)}<h4>Player</h4>
<ul><li>{item}</li><li>In progress:<ul>{bugs}</ul></li></ul>{''.join(f'<p>{t}</p>' for t in PARAS)}</article>
</body></html>"""
    body = extract(html, "https://blog.example.com/2020/12/18/issue-85").body
    assert item in body and "Bug 3" not in body and body.endswith(PARAS[3])


def test_list_items_that_link_their_predicate_are_sentences() -> None:
    people = ("Ann", "Ben", "Cleo", "Dev", "Eli")
    fixes = "".join(f'<li>{name} <a href="/bug/{i}">fixed an issue with the window that opened twice</a></li>'
                    for i, name in enumerate(people))
    titles = "".join(f'<li><a href="/story/{i}">Another story number {i} about windows</a></li>' for i in range(5))
    prose = "".join(f"<p>{t}</p>" for t in PARAS)
    html = f"""<html><head><title>These weeks in the browser</title></head><body><article>
<h1>These weeks in the browser</h1>{prose}<h4>New contributors</h4><ul>{fixes}</ul>{prose}<ul>{titles}</ul>
</article></body></html>"""
    body = extract(html, "https://blog.example.com/2020/12/18/issue-85").body
    assert "Eli fixed an issue with the window" in body and "Ann fixed an issue" in body
    # a list of linked titles (a capital after nothing of the item's own) is a link list still
    assert "Another story number" not in body


def test_labels_of_the_pages_chrome_are_not_body_text() -> None:
    first, second = "".join(f"<p>{t}</p>" for t in PARAS[:2]), "".join(f"<p>{t}</p>" for t in PARAS[2:])
    labels = ("Advertisement", "- Anzeige -", "CONTINUA DEPOIS DA PUBLICIDADE", "5 min read", "Lesezeit: 4 Minuten",
              "Edited by", "Table of Contents", "Share this article", "drukuj",
              "Jump to navigation Jump to search", "Tags: water, farming, canals",
              # the category line in the development sets' languages (and Greek)
              "Categoría: Política", "Catégorie : Société", "Kategorien: Politik", "Categorie: Nieuws",
              "Trefwoorden: water, boeren", "Kategoria: Sport", "Κατηγορία: Κοινωνία",
              "Tags: water, farming, canals")
    for label in labels:
        html = f"""<html><head><title>{TITLE}</title></head><body><article><h1>{TITLE}</h1>
{first}<div class="slot">{label}</div>{second}</article></body></html>"""
        body = extract(html, "https://valley.example/2024/03/14/water-plan").body
        assert label not in body and body.splitlines() == PARAS
    # code that reads like a tag line stays
    code = '{ category: "Fruits", price: "$1" }'
    assert code in extract(html.replace(labels[-1], code), "https://valley.example/2024/03/14/water-plan").body
    # a sentence about advertising stays, and so does a recipe's time
    assert "4 min" in extract(html.replace(labels[-1], "4 min"), "https://valley.example/2024/03/14/water-plan").body
    line = "<p>Advertising on buses will pay for the new canals, the council said on Thursday.</p>"
    html = f"<html><body><article><h1>{TITLE}</h1>{first}{line}{second}</article></body></html>"
    assert "Advertising on buses" in extract(html, "https://valley.example/2024/03/14/water-plan").body


def test_a_subscribers_gift_article_offer_is_no_body_text() -> None:
    first, second = "".join(f"<p>{t}</p>" for t in PARAS[:2]), "".join(f"<p>{t}</p>" for t in PARAS[2:])
    offers = ("Gift this article", "As a subscriber, you have 10 gift articles to give each month. Anyone can read "
              "what you share.", "Artikel verschenken", "Offrir l'article", "Regala este artículo",
              "Podaruj artykuł")
    url = "https://valley.example/2024/03/14/water-plan"
    for offer in offers:
        html = f"""<html><head><title>{TITLE}</title></head><body><article><h1>{TITLE}</h1>
<div class="tools"><button>Share</button><p>{offer}</p></div>{first}{second}</article></body></html>"""
        body = extract(html, url).body
        assert offer not in body and body.splitlines() == PARAS, offer
    # a story about gifts, and sentences that mention a gifted story, stay
    for line in ("Farmers gave the council a gift: the water rights of the old canal, worth millions.",
                 "The neighbours gifted the story of the canal to the town archive.",
                 "The mayor said the neighbours had gifted the story of the canal to the town archive decades "
                 "ago, and that the archive would now put every page of it online for the first time this spring."):
        html = f"<html><body><article><h1>{TITLE}</h1>{first}<p>{line}</p>{second}</article></body></html>"
        assert line in extract(html, url).body


def test_a_paywalled_articles_one_paragraph_beside_the_next_story_links_stays() -> None:
    # the story's one paragraph shares a wrapper with tags and linked headlines of other stories: the
    # wrapper goes for its links, the paragraph is prose and no teaser's summary
    lead = ("A senior prison official has said in a sworn affidavit that anyone with sufficient determination "
            "to escape from the prison could do so.")
    others = "".join(f'<div class="card"><h3><a href="/2022/05/0{i}/story-{i}">Another story number {i} about the '
                     f"island and its prison service</a></h3></div>" for i in range(1, 7))
    topics = "".join(f'<li><a href="/tag/{t}">{t} and more</a></li>' for t in ("Prison", "Governor", "Courts"))
    caption = ("The prison is considered a Category C facility, yet more than half the inmates are classed as "
               "Category B. Photo: A. Serey")
    html = f"""<html><head><title>Prison official: anyone could escape</title></head><body><article>
<div class="post-header"><ul class="crumbs"><li><a href="/">Home</a></li><li><a href="/issues">Issues</a></li></ul>
<h1>Prison official: anyone could escape</h1><figure><img src="p.jpg"><figcaption>{caption}</figcaption></figure></div>
<div class="container"><div class="main"><div class="post-content"><p>{lead}</p></div>
<div class="tags"><ul>{topics}</ul></div><div class="more">{others}</div></div></div></article></body></html>"""
    body = extract(html, "https://island.example/2022/05/04/prison-official").body
    assert lead in body and "Another story number" not in body


def _story_with_cards(cards: str, closing: str = "Rock on! 🤘", og_type: str = "article") -> str:
    body = "".join(f"<p>{p}</p>" for p in PARAS)
    return f"""<html><head><title>{TITLE}</title><meta property="og:type" content="{og_type}"></head><body>
<main><article><h1>{TITLE}</h1><div class="text">{body}<p>{closing}</p>{cards}</div></article></main></body></html>"""


def _card(n: int) -> str:
    href = f"/news/2024/03/0{n}/other-story-{n}/"
    return (f'<div class="card"><div class="pic"><a href="{href}"><img src="t{n}.jpg"></a></div>'
            f'<div class="card-content"><a class="card-title" href="{href}">Other story number {n} about the '
            f"valley</a><p>The summary of story {n}, a line or two.</p></div><span>Read it</span></div>")


URL_2024 = "https://valley.example/news/2024/03/14/water-plan/"


def test_a_lone_teaser_card_after_the_story_leaves_the_body_and_the_closing_line_stays() -> None:
    body = extract(_story_with_cards(_card(1)), URL_2024).body
    assert "Other story number 1" not in body and "The summary of story 1" not in body
    assert body.splitlines() == [*PARAS, "Rock on! 🤘"]  # the story's own closing line is no label
    # without a declared article the card is left alone (as the runs of cards are)
    assert "Other story number 1" in extract(_story_with_cards(_card(1), og_type="website"), URL_2024).body


def test_several_pictured_cards_and_the_storys_own_linked_picture_stay() -> None:
    # several such cards are a listing's items, not a teaser after a story
    body = extract(_story_with_cards(_card(1) + _card(2)), URL_2024).body
    assert "Other story number 1" in body and "Other story number 2" in body
    # a picture and a caption linking to the page itself are no other story's card
    from newscrawl.extract.anchor import _pictured_cards

    own = ('<div class="figure"><a href="/news/2024/03/14/water-plan/"><img src="w.jpg"></a>'
           '<a href="/news/2024/03/14/water-plan/">The plan in pictures</a></div>')
    page = Page.from_html(_story_with_cards(own + _card(3)), URL_2024)
    found = _pictured_cards(page, page.body, "valley.example")
    assert [page.text(card)[:20] for card in found] == ["Other story number 3"]
