"""Publication dates of news pages on generated pages: the URL's full day over contradicting
metadata, text datelines near the headline (docs/decisions/dates-news.md)."""

from __future__ import annotations

import pytest

from newscrawl.extract import extract, titledate
from newscrawl.extract.dates import cued_date, is_copyright, padded_url_date
from newscrawl.page import Page
from newscrawl.safeurl import join_url

PARAS = [
    "The regional parliament approved the new water management plan after a long debate on Thursday.",
    "Farmers in the southern valleys had asked for clearer rules on irrigation during dry summers.",
    "The plan sets limits for each district and creates a fund for repairing old canals and pipes.",
    "Environmental groups welcomed the decision but said that the limits should be reviewed every year.",
]
TITLE = "Parliament approves water plan for dry valleys"


def news_page(head: str = "", byline: str = "By Mara Stein") -> str:
    body = "".join(f"<p>{p}</p>" for p in PARAS)
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{TITLE} | Valley Times</title>
{head}</head><body><header><nav><a href="/a">News</a> <a href="/b">Sport</a></nav></header>
<main><article><h1>{TITLE}</h1><div class="byline">{byline}</div>{body}</article></main>
<footer><p>Copyright 2024 Valley Times.</p></footer></body></html>"""


def _jsonld(published: str) -> str:
    return f'<script type="application/ld+json">{{"@type":"NewsArticle","datePublished":"{published}"}}</script>'


URL = "https://valley.example/news/2019/10/22/water-plan/"


def test_the_urls_full_day_outranks_metadata_years_away():
    art = extract(news_page(_jsonld("2016-05-01T10:00:00Z")), URL)
    assert art.published == "2019-10-22"
    assert art.provenance["published"]["method"] == "url-over-metadata"
    # a <time> years away as well
    art = extract(news_page(byline='By Mara Stein <time datetime="2012-01-05">x</time>'), URL)
    assert art.published == "2019-10-22"


def test_metadata_stands_when_near_the_url_or_backed_by_the_pages_dateline():
    assert extract(news_page(_jsonld("2019-10-24T10:00:00Z")), URL).published.startswith("2019-10-24")
    shown = news_page(_jsonld("2016-05-01T10:00:00Z"), byline="By Mara Stein · 1 May 2016")
    art = extract(shown, URL)
    assert art.published.startswith("2016-05-01")
    assert art.provenance["published"]["method"] == "metadata:jsonld"
    # a URL date that is a version number in a slug, not a full day, never outranks metadata
    slug = "https://forum.example/t/2024-4-4-to-2024-5-0-upgrade-stuck/12"
    assert extract(news_page(_jsonld("2024-05-03T10:00:00Z")), slug).published.startswith("2024-05-03")


@pytest.mark.parametrize("url, day", [
    ("https://x.example/2019/10/22/slug/", "2019-10-22"),
    ("https://x.example/2019/3/5/slug", "2019-03-05"),
    ("https://x.example/news/20191022-slug", "2019-10-22"),
    ("https://x.example/news/slug-2019-10-22.html", "2019-10-22"),
    ("https://x.example/2023/october/03/slug", "2023-10-03"),
    ("https://x.example/t/2024-4-4-2024-5-0-issue", None),
    ("https://x.example/news/2019/10/slug", None),
])
def test_a_url_date_is_full_only_when_written_in_full(url: str, day: str | None):
    assert padded_url_date(url) == day


DATELINES = [
    ("en", "Posted on March 12, 2019 by admin"),
    ("en", "March 12th, 2019"),
    ("de", "veröffentlicht am 12. März 2019"),
    ("fr", "publié le 12 mars 2019"),
    ("es", "publicado el 12 de marzo de 2019"),
    ("it", "pubblicato il 12 marzo 2019"),
    ("pt", "publicado em 12 de março de 2019"),
    ("nl", "gepubliceerd op 12 maart 2019"),
    ("pl", "opublikowano dnia 12 marca 2019"),
]


def _page_with_lines(lines: list[str]) -> tuple[Page, int]:
    html = "<html><body><h1>" + TITLE + "</h1>" + "".join(f"<p>{line}</p>" for line in lines) + "</body></html>"
    page = Page.from_html(html)
    return page, next(k for k, tn in enumerate(page.text_nodes) if tn.text == TITLE)


@pytest.mark.parametrize("language, line", DATELINES)
def test_a_text_dateline_after_the_headline_in_each_language(language: str, line: str):
    page, title = _page_with_lines(["Mara Stein", "Share", line, PARAS[0]])
    assert titledate.dateline(page, title) == "2019-03-12"


def test_a_long_node_dates_the_page_only_through_a_published_word_or_a_byline():
    cued = "Von Hans Müller, veröffentlicht am 12. März 2019, 10:45 Uhr. " + PARAS[0]
    page, title = _page_with_lines([cued])
    assert titledate.dateline(page, title) == "2019-03-12T10:45:00"
    prose = "Die Anhörung am 3. April 2019 dauerte bis in die Nacht. " + PARAS[1]
    page, title = _page_with_lines([prose])
    assert titledate.dateline(page, title) is None
    assert cued_date("By Jane Doe on March 12, 2019 " + PARAS[2]) == "2019-03-12"
    assert cued_date("Par Jean Dupont le 1er mars 2021 " + PARAS[2]) == "2021-03-01"


def test_the_nearest_dateline_wins_and_a_date_above_the_headline_counts_farther():
    html = ("<html><body><p>Monday, 1 April 2019</p><h1>" + TITLE + "</h1><p>Mara Stein</p><p>Share</p>"
            "<p>2 April 2019</p></body></html>")
    page = Page.from_html(html)
    title = next(k for k, tn in enumerate(page.text_nodes) if tn.text == TITLE)
    assert titledate.dateline(page, title) == "2019-04-02"  # 3 after it against 1 + 2 before it
    assert titledate.dateline(page, None) is None


def test_never_a_copyright_line_a_comment_or_the_headline_itself():
    page, title = _page_with_lines(["© 12.03.2019 Valley Media", PARAS[0]])
    assert titledate.dateline(page, title) is None
    assert is_copyright("Copyright 2019 Valley Times") and not is_copyright("March 12, 2019")
    page, title = _page_with_lines([PARAS[0], "Comments", "reader1 on 14 March 2019"])
    assert titledate.dateline(page, title) == "2019-03-14"
    assert titledate.dateline(page, title, comment_cut=title + 2) is None
    html = "<html><body><h1>Results of 12 March 2019</h1><p>" + PARAS[0] + "</p></body></html>"
    assert titledate.dateline(Page.from_html(html), 0) is None
    far = [PARAS[i % len(PARAS)] for i in range(titledate.DATELINE_AFTER)] + ["12 March 2019"]
    page, title = _page_with_lines(far)
    assert titledate.dateline(page, title) is None  # beyond the window: a teaser's date, not the page's


def test_a_page_dated_only_by_its_dateline_gets_it():
    # the byline row holds the date; the page declares none and its URL has none
    html = news_page(byline="<span>Mara Stein</span> <span>veröffentlicht am 12. März 2019</span>").replace(
        'lang="en"', 'lang="de"')
    art = extract(html, "https://valley.example/news/water-plan")
    assert art.published is not None and art.published.startswith("2019-03-12")


def test_without_a_title_node_the_first_h1_anchors_the_dateline():
    from newscrawl.extract.api import _headline_node

    html = ("<html><body><p>Menu</p><h1><span></span>" + TITLE + "</h1><p>Mara Stein</p><p>12 March 2019</p>"
            "<h1>Second heading</h1></body></html>")
    page = Page.from_html(html)
    td = titledate.TitleDate(None, None, 0.0, None, None, [], 0.0)
    anchor = _headline_node(page, td)
    assert anchor is not None and page.text_nodes[anchor].text == TITLE
    assert titledate.dateline(page, anchor) == "2019-03-12"
    assert _headline_node(page, titledate.TitleDate(TITLE, 0, 0.9, None, None, [], 0.0)) == 0
    assert _headline_node(Page.from_html("<html><body><p>No heading</p></body></html>"), td) is None


def test_of_several_time_elements_the_one_nearest_the_headline_dates_the_page():
    teaser = '<aside><p>Most read</p><p><time datetime="2021-01-05">Jan 5</time> Another story</p></aside>'
    html = news_page(byline='By Mara Stein <time datetime="2019-03-12T09:00:00Z">Tuesday</time>').replace(
        "<main>", teaser + "<main>").replace(
        "</article>", '</article><section class="comments"><p>reader <time datetime="2019-03-14">x</time></p>'
                      "<p>Comment text here.</p></section>")
    art = extract(html, "https://valley.example/news/water-plan")
    assert art.published.startswith("2019-03-12")
    assert art.provenance["published"]["method"] == "metadata:time"
    page = Page.from_html(html)
    title = next(k for k, tn in enumerate(page.text_nodes) if tn.text == TITLE)
    comments = next(k for k, tn in enumerate(page.text_nodes) if tn.text.startswith("reader"))
    from newscrawl.extract.api import _nearest_time

    assert _nearest_time(page, title, None)[0].startswith("2019-03-12")
    assert _nearest_time(page, comments, None)[0] == "2019-03-14"
    assert _nearest_time(page, comments, comment_cut=comments)[0].startswith("2019-03-12")  # a comment's: never
    assert _nearest_time(page, None, None) is None


URL_NO_DAY = "https://valley.example/news/water-plan"


@pytest.mark.parametrize("updated", [
    '<time class="updated" datetime="2021-06-30T08:00:00Z">June 30, 2021</time>',  # hAtom's class
    'Last updated <time datetime="2021-06-30T08:00:00Z">June 30, 2021</time>',  # its line's label
    '<span>Aktualisiert:</span> <time datetime="2021-06-30T08:00:00Z">30.06.2021</time>',  # in its line
    '<dl><dt>Updated:</dt><dd><time datetime="2021-06-30T08:00:00Z">June 30, 2021</time></dd></dl>',  # a label block
])
def test_an_edits_time_gives_way_to_the_publication_time(updated: str) -> None:
    # the edit's <time> sits nearer the headline than the publication's: the publication's dates the page
    byline = f'{updated} · By Mara Stein · <time datetime="2019-03-12T09:00:00Z">March 12, 2019</time>'
    art = extract(news_page(byline=byline), URL_NO_DAY)
    assert art.published.startswith("2019-03-12")
    assert art.provenance["published"]["method"] == "metadata:time"


def test_an_edits_time_alone_still_dates_the_page() -> None:
    # nothing else declares a day: the edit's is the page's best (a documentation page's "Last updated")
    art = extract(news_page(byline='Last updated <time datetime="2021-06-30T08:00:00Z">June 30, 2021</time>'),
                  URL_NO_DAY)
    assert art.published.startswith("2021-06-30")


def test_a_quoted_posts_time_never_dates_the_page() -> None:
    # an embedded Instagram post's <time> is the only dated one; the story's shown date is the page's
    embed = ('<blockquote class="instagram-media"><p>A post shared by Ann (@ann) on '
             '<time datetime="2016-12-05T17:10:10+00:00">Dec 5, 2016 at 9:10am PST</time></p></blockquote>')
    html = news_page(byline="By Mara Stein · December 7, 2016").replace("</article>", embed + "</article>")
    art = extract(html, URL_NO_DAY)
    assert art.published == "2016-12-07"
    page = Page.from_html(html)
    from newscrawl.extract.api import _nearest_time

    title = next(k for k, tn in enumerate(page.text_nodes) if tn.text == TITLE)
    assert _nearest_time(page, title, None) == (None, None)


NO_DATE_URL = "https://valley.example/news/water-plan/"


def test_of_two_declared_days_the_one_the_page_shows_wins():
    og = '<meta property="article:published_time" content="2022-12-15T09:13:00+01:00">'
    head = _jsonld("2021-12-06T14:36:00") + og
    art = extract(news_page(head, byline="By Mara Stein · 15.12.2022"), NO_DATE_URL)
    assert art.published.startswith("2022-12-15")
    assert art.provenance["published"]["method"] == "metadata-as-shown"
    # the page shows neither, or the first one: the first declaration stands
    assert extract(news_page(head), NO_DATE_URL).published.startswith("2021-12-06")
    assert extract(news_page(head, byline="By Mara Stein · 6.12.2021"), NO_DATE_URL).published.startswith("2021-12-06")
    # a day declared by a page's many dated parts (a thread's microdata) is no second declaration
    parts = "".join(f'<div itemscope itemtype="https://schema.org/Comment"><meta itemprop="datePublished" '
                    f'content="2022-12-{d:02d}"></div>' for d in (14, 15, 16))
    many = news_page(_jsonld("2021-12-06T14:36:00"), byline=f"By Mara Stein · 15.12.2022{parts}")
    assert extract(many, NO_DATE_URL).published.startswith("2021-12-06")


@pytest.mark.parametrize("text, day", [
    ("(21. November 2022) Energieverbraucher erhalten eine Preiserhöhung nach der nächsten, sagen die Verbände.",
     "2022-11-21"),
    ("BERLIN, 3. März 2021 – Die Bundesregierung hat am Mittwoch neue Regeln für die Bahn beschlossen.",
     "2021-03-03"),
    ("WASHINGTON, March 3, 2021 - The Senate voted on Tuesday to pass the bill after a long debate.", "2021-03-03"),
    ("On 12 March 2019 the council met and decided that the bicycle lanes would be expanded next spring.", None),
    ("12 March 2019 was the day the council met and decided that the bicycle lanes would be expanded.", None),
])
def test_a_text_that_opens_with_its_date_set_off_is_a_dateline(text, day):
    assert cued_date(text, dayfirst=True) == day


def test_a_page_showing_no_date_takes_the_one_its_own_listing_entry_shows():
    own = "https://valley.example/news/water-plan"
    rail = (
        '<aside><ul class="latest">'
        '<li><a href="/news/bridge-repairs">Bridge repairs start</a> <span>29.11.2022</span></li>'
        '<li><a href="/news/water-plan/">Parliament approves water plan</a> <span>21.11.2022</span></li>'
        "</ul></aside>"
    )
    more = "".join(f"<p>{p} And more.</p>" for p in PARAS * 3)  # the rail is past the dateline's reach
    page = news_page().replace("</article>", f"{more}</article>").replace("</main>", f"</main>{rail}")
    art = extract(page, own)
    assert art.published == "2022-11-21"
    assert art.provenance["published"]["method"] == "listed-entry"
    # the canonical URL counts as the page's own
    canonical = page.replace("<head>", f'<head><link rel="canonical" href="{own}">')
    assert extract(canonical, "https://valley.example/print?id=7").published == "2022-11-21"
    # a comment's permalink (an anchor on the page) dates the comment, not the page
    comment = page.replace('href="/news/water-plan/"', 'href="/news/water-plan#comment-12"')
    assert extract(comment, own).published is None
    # an entry as long as an article is not an entry
    long_entry = page.replace("Parliament approves water plan</a>", "Parliament approves water plan</a>" + PARAS[0] * 5)
    assert extract(long_entry, own).published is None
    # a date the page shows itself comes first
    dated = page.replace("By Mara Stein", "By Mara Stein, 3 March 2022")
    assert extract(dated, own).published == "2022-03-03"


@pytest.mark.parametrize("href", [
    "/news/water-plan", "/news/water-plan/", "water-plan", "https://www.valley.example/news/water-plan",
    "/news/water-plan#", "/news/water-plan?", "/news/wa\nter-plan", "/news/water-plan/.", "/news/water-plan/x/..",
    "//valley.example/news/water-plan",
])
def test_every_href_that_joins_to_the_page_passes_the_listing_prefilter(href):
    base = "https://valley.example/news/water-plan"
    own = {titledate._own_address(base)}
    assert titledate._own_address(join_url(base, href)) in own  # the hrefs really are the page's own
    assert titledate._may_resolve_to(href, own)


@pytest.mark.parametrize("href", ["/news/bridge-repairs", "/news/water-plan#comment-12", "/news/water-plan-2"])
def test_hrefs_that_cannot_join_to_the_page_are_not_joined(href):
    assert not titledate._may_resolve_to(href, {"valley.example/news/water-plan"})


def test_an_rdfa_date_of_the_node_dates_the_page_and_a_comments_does_not():
    # Drupal prints the node's date as RDFa on a <span>, and each comment's inside its own resource
    node = '<span property="dc:date dc:created" content="2012-03-14T09:30:00+01:00" datatype="xsd:dateTime">Mi, 14.03.2012</span>'
    comment = ('<div typeof="sioc:Post sioct:Comment"><span property="dc:date dc:created" '
               'content="2012-04-02T18:00:00+02:00">2 April</span><p>Great read.</p></div>')
    page = news_page(byline=f"By Mara Stein {node}").replace("</article>", f"</article>{comment}")
    art = extract(page.replace("<p>Copyright 2024 Valley Times.</p>", ""), "https://valley.example/node/42")
    assert art.published == "2012-03-14T09:30:00+01:00"
    assert art.provenance["published"]["method"] == "metadata:rdfa"
    only_comment = page.replace(node, "")
    assert extract(only_comment, "https://valley.example/node/42").published != "2012-04-02T18:00:00+02:00"


def test_the_pages_own_url_with_a_fragment_still_finds_its_listing_entry():
    rail = '<aside><ul><li><a href="/news/water-plan">Water plan</a> <span>21.11.2022</span></li></ul></aside>'
    more = "".join(f"<p>{p} And more.</p>" for p in PARAS * 3)
    page = news_page().replace("</article>", f"{more}</article>").replace("</main>", f"</main>{rail}")
    assert extract(page, "https://valley.example/news/water-plan#top").published == "2022-11-21"


def _declared(published: str, modified: str) -> str:
    return (f'<script type="application/ld+json">{{"@type":"NewsArticle","datePublished":"{published}",'
            f'"dateModified":"{modified}"}}</script>')


@pytest.mark.parametrize("published", ["2024-04-05", "2024-04-05T00:00:00-04:00"])
def test_a_bare_publication_day_the_page_never_shows_gives_way_to_the_day_it_shows(published):
    head = _declared(published, "2025-12-17T09:00:08-05:00")
    art = extract(news_page(head, byline="By Mara Stein · December 17, 2025"), NO_DATE_URL)
    assert art.published.startswith("2025-12-17")
    assert art.provenance["published"]["method"] == "metadata-as-shown"


@pytest.mark.parametrize("published, byline", [
    # the declared publication has a time of day: a real instant, it stands
    ("2024-04-05T14:12:00-04:00", "By Mara Stein · December 17, 2025"),
    # the page calls the day it shows an update
    ("2024-04-05", "By Mara Stein · Updated: December 17, 2025"),
    # the page shows the declared day as well
    ("2024-04-05", "By Mara Stein · April 5, 2024 · December 17, 2025"),
    # the page shows no date: nothing contradicts the declaration
    ("2024-04-05", "By Mara Stein"),
])
def test_the_declared_publication_day_stands_otherwise(published, byline):
    art = extract(news_page(_declared(published, "2025-12-17T09:00:08-05:00"), byline=byline), NO_DATE_URL)
    assert art.published.startswith("2024-04-05")


def test_shown_days_tell_an_update_line_from_a_dateline():
    page = Page.from_html(news_page(byline="Posted March 3, 2021 <span>Updated:</span> <b>May 9, 2022</b>"))
    assert titledate.shown_days(page) == {"2021-03-03": False, "2022-05-09": True}


@pytest.mark.parametrize("label", ["Published:", "Last Updated:", "Date Last Reviewed:", "Aktualisiert am"])
@pytest.mark.parametrize("meta", [
    "<p>By <a href='/a/mara'>Mara Stein</a></p> <p>{label} <strong>March 3, 2021</strong></p>",
    "<span>{label}</span><time>March 3, 2021</time>",
])
def test_a_date_label_leaves_the_body_with_its_date(label, meta):
    body = "".join(f"<p>{p}</p>" for p in PARAS)
    page = f"""<html><head><title>{TITLE} | Valley Times</title></head><body><nav><a href="/a">News</a></nav>
<main><article><h1>{TITLE}</h1><div><div>{meta.format(label=label)}</div></div>{body}</article></main></body></html>"""
    art = extract(page, NO_DATE_URL)
    assert art.published == "2021-03-03"
    assert art.body.startswith(PARAS[0])


def test_date_labels_are_only_labels():
    from newscrawl.extract.dates import is_date_label

    assert is_date_label("Last updated on") and is_date_label("Veröffentlicht am:") and is_date_label("PUBLISHED")
    assert not is_date_label("Updated guidance for schools") and not is_date_label("Published by Penguin Books")


@pytest.mark.parametrize("title, day", [
    ("Gobierno acusa a la empresa de aliarse con el sindicato - Información - 11/05/2022 - El Diario", "2022-05-11"),
    ("Tite diz que errou ao levar a taça ao presidente - 21/12/2018 - Esporte - Folha", "2018-12-21"),
    ("Der Stadtrat beschließt den neuen Wasserplan für das Tal | Mittwoch, 11. Mai 2022", "2022-05-11"),
    # a date inside the headline is what the story is about, not its stamp
    ("How to request the longer chain after 08/02/2024? - Help - Community", None),
    ("Lemmy Development Update 2024-10-04 - Lemmy", None),
    ("Almost Timely News: Using AI for Analytics (2025-09-21)", None),
    ("Final standings of the season - Season 2022 - League", None),
    ("11/05/2022", None),
    # only the opening of a hostile, megabytes-long <title> is split
    ("Council approves harbour plan " * 20 + "- 11/05/2022 - Paper", None),
])
def test_a_title_segment_that_is_only_a_date_is_the_pages_stamp(title: str, day: str | None):
    assert titledate.title_stamp(title, dayfirst=True) == day


def _stamped(head: str, title: str) -> str:
    """The test page in Spanish (day-first dates) under ``title``."""
    page = news_page(head).replace(f"<title>{TITLE} | Valley Times</title>", f"<title>{title}</title>")
    return page.replace('lang="en"', 'lang="es"')


def test_the_titles_stamped_day_is_the_local_day_of_a_declared_time_without_zone():
    declared = _jsonld("2022-05-10T23:35:55")
    stamped = _stamped(declared, f"{TITLE} - Sociedad - 11/05/2022 - Valley Times")
    assert extract(stamped, "https://valley.example/sociedad/water-plan.html").published == "2022-05-11"
    plain = _stamped(declared, f"{TITLE} - Sociedad - Valley Times")
    assert extract(plain, "https://valley.example/sociedad/water-plan.html").published.startswith("2022-05-10")
    # a declared instant with its zone is not moved by the stamp
    zoned = _stamped(_jsonld("2022-05-10T23:35:55+00:00"), f"{TITLE} - Sociedad - 12/05/2022 - Valley Times")
    assert extract(zoned, "https://valley.example/sociedad/water-plan.html").published.startswith("2022-05-10")


def test_a_page_dated_only_by_its_titles_stamp_gets_it():
    art = extract(_stamped("", f"{TITLE} - 21/12/2018 - Valley Times"), "https://valley.example/water-plan.html")
    assert art.published == "2018-12-21"
    assert art.provenance["published"]["method"] == "title-stamp"


def _railed_page(dateline: str, rail_items: int = 6) -> str:
    """A headline, then a "latest" rail of dated teasers, then the byline row and the story."""
    rail = "".join(
        f'<li><a href="/n/{i}">Other story number {i} about the valley</a><span>Ana Ruiz</span>'
        f"<span>{i + 2} minutes ago</span></li>"
        for i in range(rail_items)
    )
    body = "".join(f"<p>{p}</p>" for p in PARAS)
    return f"""<!doctype html><html lang="es"><head><meta charset="utf-8"><title>{TITLE}</title></head><body>
<main><h1>{TITLE}</h1><aside><h2>Latest</h2><ul>{rail}</ul></aside>
<article><p class="lead">{PARAS[1]}</p><div class="meta"><a href="/autor/mara">Mara Stein</a>
<strong>{dateline}</strong> <time>07:59</time></div>{body}</article></main></body></html>"""


def test_past_a_rail_under_the_headline_the_dateline_by_the_storys_first_lines_counts():
    html = _railed_page("miércoles, 4 de mayo de 2022")
    page = Page.from_html(html)
    title = next(k for k, tn in enumerate(page.text_nodes) if tn.text == TITLE)
    date_node = next(k for k, tn in enumerate(page.text_nodes) if "mayo" in tn.text)
    assert date_node > title + titledate.DATELINE_AFTER  # out of the headline's reach
    assert titledate.dateline(page, title) is None
    story = next(k for k, tn in enumerate(page.text_nodes) if tn.text == PARAS[1])
    assert titledate.dateline(page, title, story=story) == "2022-05-04"
    art = extract(html, "https://valley.example/news/water-plan")
    assert art.published == "2022-05-04"
    assert art.provenance["published"]["method"] == "dateline"


def test_the_storys_own_window_reaches_only_its_first_lines():
    # a date deep inside the story is no dateline, rail or not
    lines = "".join(f"<p>{PARAS[i % len(PARAS)]}</p>" for i in range(8))
    html = _railed_page("Mara Stein").replace("</article>", f"{lines}<p>12 March 2019</p></article>")
    page = Page.from_html(html)
    title = next(k for k, tn in enumerate(page.text_nodes) if tn.text == TITLE)
    story = next(k for k, tn in enumerate(page.text_nodes) if tn.text == PARAS[1])
    assert titledate.dateline(page, title, story=story) is None
