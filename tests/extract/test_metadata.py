"""read_metadata on generated pages: JSON-LD shapes (arrays, @graph, nesting, broken JSON), OpenGraph,
named meta dates, microdata and <time>, with the source of each field."""

from __future__ import annotations

import json

import lxml.html
import pytest

from newscrawl.extract.metadata import Metadata, headline_segment, read_metadata


def root_of(head: str, body: str = "<p>text</p>", lang: str = "en") -> object:
    return lxml.html.document_fromstring(
        f'<!doctype html><html lang="{lang}"><head><title>Page</title>{head}</head><body>{body}</body></html>'
    )


def ld(data: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


def test_jsonld_news_article() -> None:
    md = read_metadata(root_of(ld({
        "@context": "https://schema.org", "@type": "NewsArticle", "headline": "Rain in Spain",
        "datePublished": "2021-03-04T10:00:00+01:00", "dateModified": "2021-03-05T08:00:00+01:00",
        "author": [{"@type": "Person", "name": "Ana Díaz"}, {"@type": "Person", "name": "Bo Li"}],
        "publisher": {"@type": "Organization", "name": "Daily Planet"}, "inLanguage": "es",
        "articleBody": "It rained.",
    })))
    assert md.title == "Rain in Spain"
    assert md.published == "2021-03-04T10:00:00+01:00"
    assert md.modified == "2021-03-05T08:00:00+01:00"
    assert md.authors == ["Ana Díaz", "Bo Li"]
    assert md.site_name == "Daily Planet"
    assert md.language == "en"  # <html lang> is read before JSON-LD's inLanguage
    assert md.article_body_text == "It rained."
    assert "NewsArticle" in md.schema_types
    assert md.sources["title"] == "jsonld" and md.sources["published"] == "jsonld"


def test_a_declared_article_body_keeps_its_paragraphs_without_markup() -> None:
    # CMSs write articleBody as text with line breaks, or with the article's HTML left in it
    md = read_metadata(root_of(ld({"@type": "NewsArticle", "headline": "Rain",
                                   "articleBody": "<p>It rained &amp; poured.</p><p>Roads <b>closed</b>"
                                                  "<br>at noon.</p>\n\n  Schools   shut. "})))
    assert md.article_body_text == "It rained & poured.\nRoads closed\nat noon.\nSchools shut."
    assert read_metadata(root_of(ld({"@type": "NewsArticle", "articleBody": " \n "}))).article_body_text is None


def test_a_declared_article_body_of_unclosed_tags_is_read_in_linear_time() -> None:
    # each "<p " once started a match that read to the end of the text: minutes for 600 KB
    md = read_metadata(root_of(ld({"@type": "NewsArticle", "articleBody": "<p " * 200_000 + "rain"})))
    assert md.article_body_text.endswith("<p rain")


def test_jsonld_graph_with_id_references() -> None:
    md = read_metadata(root_of(ld({"@context": "https://schema.org", "@graph": [
        {"@type": "WebSite", "@id": "#site", "name": "Blog"},
        {"@type": "Person", "@id": "#me", "name": "Jo Writer"},
        {"@type": ["BlogPosting"], "headline": "Graph post", "datePublished": "2020-02-02",
         "author": {"@id": "#me"}},
    ]})))
    assert md.title == "Graph post"
    assert md.published == "2020-02-02"
    assert md.authors == ["Jo Writer"]
    assert {"WebSite", "Person", "BlogPosting"} <= md.schema_types


def test_jsonld_top_level_array_and_nested_article() -> None:
    md = read_metadata(root_of(ld([
        {"@type": "BreadcrumbList", "itemListElement": []},
        {"@type": "WebPage", "mainEntity": {"@type": "ReportageNewsArticle", "headline": "Nested",
                                             "datePublished": "2019-07-08T09:10:11Z"}},
    ])))
    assert md.title == "Nested"
    assert md.published == "2019-07-08T09:10:11+00:00"


def test_invalid_jsonld_is_skipped_and_others_still_read() -> None:
    head = ('<script type="application/ld+json">{"@type": "NewsArticle", "headline": </script>'
            + ld({"@type": "Article", "headline": "Second block"}))
    md = read_metadata(root_of(head))
    assert md.title == "Second block"


def test_jsonld_trailing_comma_and_cdata_are_repaired() -> None:
    head = '<script type="application/ld+json">//<![CDATA[\n{"@type": "Article", "headline": "Repaired",}\n//]]></script>'
    assert read_metadata(root_of(head)).title == "Repaired"


def test_schema_url_types_are_shortened() -> None:
    md = read_metadata(root_of(ld({"@type": "http://schema.org/NewsArticle", "headline": "X"})))
    assert "NewsArticle" in md.schema_types
    assert md.title == "X"


def test_article_type_beats_webpage_for_dates() -> None:
    md = read_metadata(root_of(ld({"@graph": [
        {"@type": "WebPage", "datePublished": "2018-01-01"},
        {"@type": "NewsArticle", "datePublished": "2018-05-06"},
    ]})))
    assert md.published == "2018-05-06"
    assert md.sources["published"] == "jsonld"


def test_opengraph_and_article_times() -> None:
    head = ('<meta property="og:title" content="OG title"><meta property="og:type" content="article">'
            '<meta property="og:site_name" content="Site"><meta property="og:locale" content="de_DE">'
            '<meta property="article:published_time" content="2022-11-07T06:00:00+01:00">'
            '<meta property="article:modified_time" content="2022-11-08">'
            '<meta property="og:url" content="https://example.com/a">')
    md = read_metadata(root_of(head, lang=""))
    assert md.title == "OG title"
    assert md.og_type == "article"
    assert md.site_name == "Site"
    assert md.language == "de-DE"
    assert md.published == "2022-11-07T06:00:00+01:00"
    assert md.modified == "2022-11-08"
    assert md.canonical_url == "https://example.com/a"
    assert md.sources["published"] == "og"


@pytest.mark.parametrize("name", ["date", "pubdate", "publish-date", "dc.date", "DC.date.issued",
                                  "sailthru.date", "parsely-pub-date"])
def test_named_meta_dates(name: str) -> None:
    md = read_metadata(root_of(f'<meta name="{name}" content="2017-09-30">'))
    assert md.published == "2017-09-30"
    assert md.sources["published"] == "meta"


@pytest.mark.parametrize("name", ["published", "w-published-date", "published_at", "og:publication_time",
                                  "article:first_published_time"])
def test_other_publish_named_meta_dates(name: str) -> None:
    md = read_metadata(root_of(f'<meta name="{name}" content="July 17, 2025">'))
    assert md.published == "2025-07-17"


def test_space_separated_rdfa_properties_each_declare_the_content() -> None:
    head = ('<meta property="x:title og:title" content="Shared title">'
            '<meta property="article:modified_time  article:published_time" content="2023-05-06">'
            '<meta property="dc:creator x:other" content="Ann Lee"><meta property="og:type" content="">')
    md = read_metadata(root_of(head))
    assert md.title == "Shared title"
    assert md.published == "2023-05-06" and md.modified == "2023-05-06"
    assert md.authors == ["Ann Lee"]
    assert md.og_type is None  # an empty content declares nothing


@pytest.mark.parametrize("head, field, expected", [
    ('<meta property="dc:title" content="DC title">', "title", "DC title"),
    ('<meta property="dcterms:title" content="Terms title">', "title", "Terms title"),
    ('<meta property="dcterms:issued" content="2019-02-03">', "published", "2019-02-03"),
    ('<meta property="dcterms:created" content="2019-02-04">', "published", "2019-02-04"),
    ('<meta property="dcterms:modified" content="2019-02-05">', "modified", "2019-02-05"),
])
def test_dublin_core_rdfa_prefixes(head: str, field: str, expected: str) -> None:
    assert getattr(read_metadata(root_of(head)), field) == expected


def test_a_vocabularys_plain_date_comes_after_microdata() -> None:
    md = read_metadata(root_of('<meta name="ms.date" content="2025-03-06T00:00:00Z">'))
    assert md.published == "2025-03-06T00:00:00+00:00"
    micro = '<div itemscope itemtype="https://schema.org/Article"><span itemprop="datePublished" content="2024-01-02"></span></div>'
    assert read_metadata(root_of('<meta name="cludo:date" content="2025-03-06">', micro)).published == "2024-01-02"
    for name in ("x.y.date", "event-date", "mydate", "ms.date.x"):
        assert read_metadata(root_of(f'<meta name="{name}" content="2025-03-06">')).published is None, name


def test_publisher_and_listed_names_come_before_other_publish_names() -> None:
    assert read_metadata(root_of('<meta name="article:publisher" content="2017-09-30">')).published is None
    assert read_metadata(root_of('<meta name="cdc:last_published" content="2017-09-30">')).published is None
    md = read_metadata(root_of('<meta name="published" content="2020-01-02"><meta name="pubdate" content="2017-09-30">'))
    assert md.published == "2017-09-30"


def test_meta_date_formats_and_epoch() -> None:
    assert read_metadata(root_of('<meta name="date" content="30.09.2017">')).published == "2017-09-30"
    assert read_metadata(root_of('<meta name="date" content="1506729600">')).published == "2017-09-30T00:00:00+00:00"


def test_future_and_ancient_metadata_dates_are_rejected() -> None:
    md = read_metadata(root_of('<meta name="date" content="2999-01-01"><meta name="pubdate" content="1970-01-01">'
                               '<meta name="dc.date" content="2015-06-01">'))
    assert md.published == "2015-06-01"


def test_microdata_and_article_body_element() -> None:
    body = ('<article itemscope itemtype="https://schema.org/NewsArticle">'
            '<h1 itemprop="headline">Micro headline</h1>'
            '<time itemprop="datePublished" datetime="2016-04-05T12:00">5 April</time>'
            '<span itemprop="author" itemscope><span itemprop="name">Kim Lee</span></span>'
            '<div itemprop="articleBody"><p>Body text.</p></div></article>')
    md = read_metadata(root_of("", body))
    assert md.title == "Micro headline"
    assert md.published == "2016-04-05T12:00:00"
    assert md.authors == ["Kim Lee"]
    assert md.article_body_element is not None
    assert md.article_body_element.text_content() == "Body text."
    assert "NewsArticle" in md.schema_types
    assert md.sources["title"] == "itemprop"


def test_microdata_dates_of_comments_and_answers_are_not_the_pages() -> None:
    comment = ('<div itemprop="comment" itemscope itemtype="https://schema.org/Comment"><p>Nice.</p>'
               '<time itemprop="datePublished" datetime="2019-01-21T21:40:59Z">later</time></div>')
    answer = ('<div itemscope itemtype="https://schema.org/Answer">'
              '<time itemprop="dateCreated" datetime="2014-02-04 13:12:06Z">answered</time>'
              '<time itemprop="dateModified" datetime="2018-05-21T20:37:55Z">edited</time></div>')
    question = ('<div itemscope itemtype="https://schema.org/Question"><h1 itemprop="name">Why?</h1>'
                f'{comment}<time itemprop="dateCreated" datetime="2014-02-04 13:07:43Z">asked</time></div>')
    md = read_metadata(root_of("", f'<main itemscope itemtype="https://schema.org/QAPage">{question}{answer}</main>'))
    assert md.published == "2014-02-04T13:07:43+00:00"  # the question's dateCreated
    assert md.sources["published"] == "itemprop"
    assert md.modified is None  # the answer's edit
    # the question's own datePublished comes before its dateCreated, wherever it stands
    dated = question.replace("</div>", '<time itemprop="datePublished" datetime="2014-02-05">p</time></div>', 2)
    assert read_metadata(root_of("", dated)).published == "2014-02-05"
    # dateCreated of an item that is no question is not read as the publication date
    md = read_metadata(root_of("", '<div itemscope itemtype="https://schema.org/Person">'
                                   '<span itemprop="dateCreated" content="2014-02-04">x</span></div>'))
    assert md.published is None


def test_microdata_dates_looked_at_are_bounded() -> None:
    from newscrawl.extract.metadata import MAX_MICRODATA_DATES

    def page(replies: int) -> object:
        comments = "".join('<div itemscope itemtype="https://schema.org/Comment">'
                           '<span itemprop="datePublished" content="2019-01-21"></span></div>' for _ in range(replies))
        return root_of("", f'{comments}<div itemscope itemtype="https://schema.org/Article">'
                           '<span itemprop="datePublished" content="2014-02-04"></span></div>')
    assert read_metadata(page(MAX_MICRODATA_DATES - 1)).published == "2014-02-04"
    assert read_metadata(page(MAX_MICRODATA_DATES)).published is None  # each climb costs the page's depth


def test_time_element_is_weakest_source() -> None:
    body = '<time datetime="2014-03-02">2 March</time>'
    md = read_metadata(root_of('<meta name="date" content="2014-03-01">', body))
    assert md.published == "2014-03-01"
    md = read_metadata(root_of("", body))
    assert md.published == "2014-03-02"
    assert md.sources["published"] == "time"


def test_authors_from_meta_drop_urls_and_prefixes() -> None:
    head = ('<meta name="author" content="By Jane Roe"><meta property="article:author" '
            'content="https://facebook.com/jane">')
    assert read_metadata(root_of(head)).authors == ["Jane Roe"]


def test_relative_canonical_resolved_against_url() -> None:
    md = read_metadata(root_of('<link rel="canonical" href="/news/a.html">'), url="https://ex.com/x?utm=1")
    assert md.canonical_url == "https://ex.com/news/a.html"


def test_page_like_object_with_json_ld_attribute() -> None:
    class FakePage:
        root = root_of("")  # scripts were removed from the tree, texts kept aside
        json_ld = [json.dumps({"@type": "NewsArticle", "headline": "From page"})]

    assert read_metadata(FakePage()).title == "From page"


def test_empty_page_gives_empty_metadata() -> None:
    md = read_metadata(lxml.html.document_fromstring("<html><body><p>x</p></body></html>"))
    assert md == Metadata()


def test_deeply_nested_jsonld_does_not_raise() -> None:
    deep = '{"@type": "Thing", "child": ' * 100_000 + "{}" + "}" * 100_000
    text = '[{"@type": "Article", "headline": "Shallow"}, ' + deep + "]"
    md = read_metadata(root_of(f'<script type="application/ld+json">{text}</script>'))
    assert isinstance(md, Metadata)  # too deep for json: the block is skipped, not an exception


def test_wide_jsonld_walk_is_bounded() -> None:
    items = [{"@type": "Thing", "name": str(i)} for i in range(50_000)]
    md = read_metadata(root_of(ld([{"@type": "Article", "headline": "First"}] + items)))
    assert md.title == "First"


def test_entities_in_jsonld_are_decoded() -> None:
    md = read_metadata(root_of(ld({"@type": "Article", "headline": "M&#038;A roundup &#8211; Q3 &amp; more"})))
    assert md.title == "M&A roundup – Q3 & more"


@pytest.mark.parametrize(("title", "site", "expected"), [
    ("Rain in Spain | Daily Planet", "Daily Planet", "Rain in Spain"),
    ("Rain in Spain - daily planet", "Daily Planet", "Rain in Spain"),
    ("Daily Planet: Rain in Spain", "Daily Planet", "Rain in Spain"),
    ("Rain in Spain", "Daily Planet", "Rain in Spain"),
    ("Daily Planet", "Daily Planet", "Daily Planet"),
    ("Rain in Spain | Daily Planet", None, "Rain in Spain | Daily Planet"),
    ("Planet news | Planet", "Planet", "Planet news"),
])
def test_strip_site_name(title: str, site: str | None, expected: str) -> None:
    from newscrawl.extract.metadata import strip_site_name

    assert strip_site_name(title, site) == expected


@pytest.mark.parametrize(("title", "site", "url", "expected"), [
    ("A 2024 Discussion - Slashdot", "@slashdot", None, "A 2024 Discussion"),  # a twitter:site handle
    ("Beatrice Tan Rug | Ruggable US", "Ruggable", None, "Beatrice Tan Rug"),  # begins with the name
    ("Vehicle rental news | WRAL", "WRAL.com", None, "Vehicle rental news"),  # the name without .com
    ("Scalable interpretability — LessWrong", None, "https://www.lesswrong.com/posts/1", "Scalable interpretability"),
    ("Rain in Spain|Daily Planet", None, "https://dailyplanet.example/a", "Rain in Spain"),
    ("Rain in Spain | Opinion", "Daily Planet", "https://dailyplanet.example/a", "Rain in Spain | Opinion"),
    ("Todoist | A To-Do List for Work", None, "https://todoist.com/", "Todoist | A To-Do List for Work"),
    ("Why hike heavy? » LiteAF Custom Ultralight Backpacks Shop", "LiteAF", None,
     "Why hike heavy? » LiteAF Custom Ultralight Backpacks Shop"),  # five words: not a site name
    ("Slashdot", None, "https://slashdot.org/", "Slashdot"),
    ("Rain in Spain | Daily Planet News", "Daily Planet", None, "Rain in Spain"),  # name + a word
    ("iPhone review - Apple's best yet", None, "https://www.apple.com/x", "iPhone review - Apple's best yet"),
    ("Storm season | The", None, "https://www.theverge.com/a", "Storm season | The"),
    ("Storm season // » Daily Planet", "Daily Planet", None, "Storm season"),  # no separator left behind
    ("What do people love about Rust? | Rust Blog", "@rustlang", "https://blog.rust-lang.org/2024/x",
     "What do people love about Rust?"),  # its first word is the first half of the name
    ("Rain in Spain | Daily Notes", None, "https://dailyplanet.example/a", "Rain in Spain | Daily Notes"),  # < half
    # a section folder of the URL: "| Opinion" on /opinion/..., also before the site's name
    ("Rain in Spain | Opinion", None, "https://dailyplanet.example/opinion/rain-in-spain", "Rain in Spain"),
    ("Sleep tips | Patient Education | Daily Planet", None,
     "https://dailyplanet.example/children/patient-education/sleep-tips/", "Sleep tips"),
    ("Rain in Spain | Opinion", None, "https://dailyplanet.example/rain-in-spain/opinion", "Rain in Spain | Opinion"),
    ("Best laptops - 2024", None, "https://dailyplanet.example/2024/05/best-laptops", "Best laptops - 2024"),
    ("Opinion", None, "https://dailyplanet.example/opinion/x", "Opinion"),
])
def test_trailing_site_name_in_another_spelling(title: str, site: str | None, url: str | None, expected: str) -> None:
    from newscrawl.extract.metadata import strip_site_suffix

    assert strip_site_suffix(title, site, url) == expected


def test_og_title_loses_declared_site_name() -> None:
    head = '<meta property="og:title" content="Rain in Spain — Daily Planet"><meta property="og:site_name" content="Daily Planet">'
    assert read_metadata(root_of(head)).title == "Rain in Spain"


def test_clean_collapses_blanks_as_the_regex_did():
    """_clean collapses with str.split (speed); the answer must stay re.sub(r"\\s+", " ", v).strip()'s,
    on every Unicode blank and on characters that look blank but are not (zero-width space)."""
    import random
    import re

    from newscrawl.extract.metadata import _clean

    rnd = random.Random(8)
    alphabet = "ab c\t\n\r\x0b\x0c\x1c\x1f\x85\u00a0\u1680\u2003\u2028\u202f\u3000\u200b\ufeffé"
    for _ in range(20000):
        value = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 12)))
        want = re.sub(r"\s+", " ", value).strip() or None
        assert _clean(value) == want, repr(value)


@pytest.mark.parametrize(("title", "headlines", "expected"), [
    ("Ridge Wallet - Royal Black", ["Ridge Wallet"], "Ridge Wallet"),
    ("Jimmy: The Ultimate Device Opener", ["  jimmy "], "Jimmy"),
    ("History of coffee | Origin, Spread, Facts", ["History of Coffee"], "History of coffee"),
    ("Ridge Wallet - Royal Black", ["Ridge Wallet", "Royal Black"], None),  # two segments shown: no pick
    ("Ridge Wallet - Royal Black", ["Ridge Wallet - Royal Black"], None),  # the whole title is the headline
    ("Ridge Wallet", ["Ridge Wallet"], None),  # one segment: nothing to choose
    ("Ridge Wallet - Royal Black", ["Wallets"], None),
    ("Ridge Wallet - Royal Black", [], None),
])
def test_headline_segment(title: str, headlines: list[str], expected: str | None) -> None:
    assert headline_segment(title, headlines) == expected
