"""The page classifier's extraction and structure features on small hand-built pages whose answers are known."""

from __future__ import annotations

import random

import pytest

from newscrawl.classify.features import (
    FEATURE_GROUPS, Anchor, _date_line, page_anchors)
from newscrawl.extract import extract
from newscrawl.extract.api import extraction_evidence
from newscrawl.page import Page
from tests.classify.bare import classify, page_features

WORDS = "river school market storm health transport festival court museum harbour library weather".split()


def _sentence(rng: random.Random, n: int = 14) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def _page(inner: str, url: str, head: str = "", title: str = "Example") -> Page:
    html = f"<html><head><title>{title}</title>{head}</head><body>{inner}</body></html>"
    return Page.from_html(html, url)


def article(seed: int = 0) -> str:
    rng = random.Random(seed)
    paragraphs = "".join(f"<p>{_sentence(rng)} {_sentence(rng)} {_sentence(rng)}</p>" for _ in range(8))
    return (f"<main><article><h1>Harbour museum reopens after storm</h1><p>4 March 2025</p>{paragraphs}"
            "</article></main>")


def forum(seed: int = 0) -> str:
    rng = random.Random(seed)
    posts = "".join(
        f"<div class='post'><div class='head'><a href='/u/{i}'>user{i}</a> <span>2025-03-{i + 1:02d}</span></div>"
        f"<p>{_sentence(rng)} {_sentence(rng)}</p></div>" for i in range(8))
    return f"<main><h1>Which storm shelter?</h1>{posts}</main>"


def listing(seed: int = 0) -> str:
    rng = random.Random(seed)
    teasers = "".join(
        f"<div class='teaser'><h2><a href='/2025/03/{d:02d}/story-{d}.html'>{_sentence(rng, 7)}</a></h2>"
        f"<p>{_sentence(rng, 8)}</p></div>" for d in range(1, 13))
    return f"<main><h1>News</h1>{teasers}</main>"


def test_every_new_feature_is_computed():
    values = page_features(_page(article(), "https://example.com/2025/03/04/harbour-museum"))
    for group in ("extraction", "structure", "shape"):
        assert all(name in values for name in FEATURE_GROUPS[group])


def test_visible_date_next_to_the_title_heading():
    values = page_features(_page(article(), "https://example.com/2025/03/04/harbour-museum",
                                 title="Harbour museum reopens after storm | Daily"))
    assert values["visible_date"] == 1.0
    assert values["date_title_distance"] == 1.0  # the date is the text node right after the <h1>
    assert values["title_heading"] == 1.0 and values["h1_count"] == 1.0
    assert values["title_position"] < 0.05  # nothing but the title before it
    assert values["title_similarity"] > 0.7  # <title> is the headline plus the site name
    assert values["body_sentence_end"] > 0.95 and values["body_long_share"] > 0.95


def test_page_without_a_date_has_none_near_the_title():
    values = page_features(_page(article().replace("<p>4 March 2025</p>", ""), "https://example.com/a/harbour"))
    assert values["visible_date"] == 0.0 and values["date_title_distance"] == 100.0


def test_forum_posts_and_listing_teasers_are_counted_apart():
    posts = page_features(_page(forum(), "https://example.com/forum/t/123"))
    teasers = page_features(_page(listing(), "https://example.com/news/"))
    story = page_features(_page(article(), "https://example.com/2025/03/04/harbour-museum"))
    assert posts["post_blocks"] == 8 and posts["teaser_blocks"] == 0
    assert teasers["teaser_blocks"] == 12 and teasers["post_blocks"] == 0
    assert teasers["max_repeat"] == 12 and story["max_repeat"] == 8  # the article's 8 paragraphs
    assert story["teaser_blocks"] == 0 and story["post_blocks"] == 0
    assert posts["date_like_per_k"] > story["date_like_per_k"]


def test_service_page_contact_links_forms_and_brand():
    rng = random.Random(3)
    inner = (f"<h1>Acmeplumb repairs</h1><p>Acmeplumb fixes pipes. {_sentence(rng)} Call Acmeplumb today.</p>"
             f"<p>{_sentence(rng)} {_sentence(rng)}</p>"
             "<form><input name='n'><input name='e'><input type='submit'></form>"
             "<a href='tel:+15550100'>Call</a> <a href='mailto:hi@acmeplumb.com'>Mail</a>"
             "<a href='https://elsewhere.org/x'>Partner</a> <a href='/about'>About</a>")
    values = page_features(_page(inner, "https://www.acmeplumb.com/services/repairs?city=x",
                                 head="<meta property='og:site_name' content='Acmeplumb'>"))
    assert values["tel_links"] == 1.0 and values["mailto_links"] == 1.0
    assert values["external_share"] == 0.5  # elsewhere.org of two web links
    assert values["inputs_per_k"] > 0 and values["brand_per_k"] > 0
    assert values["path_depth"] == 2.0 and values["has_query"] == 1.0 and values["url_root"] == 0.0


def test_text_shares_by_container():
    rows = "".join(f"<tr><td>cell {i} with some words</td><td>{i}</td></tr>" for i in range(10))
    values = page_features(_page(f"<h1>Sizes</h1><table>{rows}</table><pre>code sample here</pre>",
                                 "https://example.com/"))
    assert values["share_table"] > 0.7 and values["share_code"] > 0 and values["share_p"] == 0.0
    assert values["url_root"] == 1.0 and values["path_depth"] == 0.0


def test_declared_types_and_open_graph_article_properties():
    head = ("<meta property='article:published_time' content='2025-03-04'><meta property='article:section' "
            "content='x'><meta name='twitter:card' content='summary_large_image'><script type='application/ld+json'>"
            "{\"@graph\": [{\"@type\": \"BreadcrumbList\"}, {\"@type\": \"WebPage\"}, {\"@type\": \"Organization\"}]}"
            "</script>")
    values = page_features(_page(article(), "https://example.com/a/b", head=head))
    assert values["meta_published_time"] == values["meta_section"] == values["twitter_large_image"] == 1.0
    assert values["meta_tag"] == 0.0
    assert values["schema_breadcrumb"] == values["schema_webpage"] == values["schema_org"] == 1.0


def test_comment_section_cut_by_nce_is_a_feature():
    comments = "".join(
        f"<li class='item'><div class='who'>reader{i} says 12 March 2024 at 10:{i:02d}</div>"
        f"<div class='txt'>I think opinion {i} is {'very ' * (i % 4)}interesting and worth a long reply here.</div></li>"
        for i in range(12))
    url = "https://example.com/2025/03/04/harbour"
    # named "discussion" (a comment-section name for the cut, not one NCE prunes by name first, as it
    # does "comments" blocks under half of the content since extraction round 6)
    page = _page(article().replace("</article>", f"<div class='discussion'><ol>{comments}</ol></div></article>"), url)
    _, evidence = extraction_evidence(page)
    values = page_features(page)
    assert evidence.comment_cut is not None
    assert values["comment_cut"] == 1.0 and 0.2 < values["comment_share"] < 0.8
    plain = page_features(_page(article(), url))
    assert plain["comment_cut"] == 0.0 and plain["comment_share"] == 0.0


def test_extract_hands_its_evidence_to_the_classifier():
    """Inside extract() the classifier reuses the pipeline's evidence; computed from the Page alone it is the same."""
    html = f"<html><head><title>Harbour</title></head><body>{article(7)}</body></html>"
    url = "https://example.com/2025/03/04/harbour-museum"
    art = extract(html, url)
    _, p = classify(Page.from_html(html, url))
    assert art.provenance["is_article"]["method"] == "page-classifier"
    assert abs(art.probability - p) < 1e-9


def test_headline_and_slug_agree_on_an_article_url():
    url = "https://example.com/2025/03/04/harbour-museum-reopens-after-storm.html"
    values = page_features(_page(article(), url, title="Harbour museum reopens after storm | Daily"))
    assert values["title_words"] == 5.0 and values["h1_words"] == 5.0
    assert values["slug_title_similarity"] == 1.0  # the slug repeats the headline (".html" and the date left out)
    assert 0.6 < values["h1_title_similarity"] < 1.0  # <title> adds the site name
    other = page_features(_page(article(), "https://example.com/services/plumbing"))
    assert other["slug_title_similarity"] == 0.0


def test_forum_date_lines_and_clock_times():
    rng = random.Random(5)
    posts = "".join(f"<div class='post'><p>user{i} · 0{i + 1}/03/2026 19:{i + 10}</p>"
                    f"<p>{_sentence(rng)} {_sentence(rng)} {_sentence(rng)}</p></div>" for i in range(6))
    thread = page_features(_page(f"<main><h1>Cheap family meals?</h1>{posts}</main>", "https://example.com/talk/1"))
    story = page_features(_page(article(), "https://example.com/2025/03/04/harbour-museum"))
    assert thread["clock_times"] == 6.0 and story["clock_times"] == 0.0
    assert thread["distinct_dates"] == 6.0 and story["distinct_dates"] == 1.0
    assert story["body_date_lines"] == 0.0  # the date under the headline is not body text
    assert _date_line("keepingsanity · 03/03/2026 19:49") and _date_line("19:49")
    assert not _date_line("In 2025 the harbour museum " + "reopened after the storm and " * 3)  # long prose


def test_prose_paragraphs_inline_links_and_fragments():
    rng = random.Random(9)
    prose = "".join(f"<p>{_sentence(rng)} See <a href='/ref/{i}'>the report</a>, {_sentence(rng)} {_sentence(rng)}</p>"
                    for i in range(6))
    menu = "<ul>" + "".join(f"<li><a href='/s/{i}'>Section {i}</a></li>" for i in range(10)) + "</ul>"
    story = page_features(_page(f"{menu}<article><h1>Harbour museum reopens</h1>{prose}</article>",
                                "https://example.com/a/harbour-museum"))
    bullets = "".join(f"<h3>Feature {i}</h3><p>Fast setup</p><p>Free support</p>" for i in range(6))
    service = page_features(_page(f"{menu}<main><h1>Plans</h1>{bullets}</main>", "https://example.com/plans"))
    assert story["inline_links_per_k"] > 0 and service["inline_links_per_k"] == 0.0  # menu links are not inline
    assert story["p_long"] == 6.0 and service["p_long"] == 0.0
    assert story["p_mean_len"] > 5 * service["p_mean_len"]
    assert story["body_fragment_lines"] < 0.3 < service["body_fragment_lines"]
    assert story["commas_per_sentence"] > service["commas_per_sentence"] == 0.0
    assert story["body_mean_line"] > service["body_mean_line"]


def test_page_anchors_resolve_hrefs_as_urljoin_does():
    """Plain absolute and root-relative hrefs skip urljoin; every target must still be urljoin's."""
    from html import escape
    from urllib.parse import urljoin

    hrefs = ["https://x.org/a/b?c=1#d", "http://x.org", "/a/b/", "/", "/a//b", "/a/./b", "/a/../b", "/.hidden",
             "/a?", "/a#", "/a;p", "HTTP://X.org/A", "//cdn.x.org/i", "a/b", "../c", "?q=1", "/a b", "/é",
             "https://x.org/a;p?q", "http://[::1]/", "/a?b#c", "mailto:a@x.org", "/a\tb"]
    rng = random.Random(5)
    alphabet = ["/", "a", ".", "..", "?", "#", ";", "=", "%20", "http://", "https://", "x.org", ":"]
    hrefs += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 7))) for _ in range(400)]
    for base in ("https://x.org/dir/page.html?z=1", "http://u@x.org:8080/d/", "https://x.org"):
        links = "".join(f'<a href="{escape(h)}">l</a>' for h in hrefs)
        page = _page(links, base)
        for a, anchor in page_anchors(page).items():
            href = a.get("href").strip()
            expected = urljoin(base, href) if href and not href.startswith("#") else ""
            expected = expected if expected.startswith(("http://", "https://")) else ""
            assert anchor.target == expected, (base, href)
            # built by tuple.__new__: the NamedTuple its constructor makes, fields and all
            assert type(anchor) is Anchor and anchor == Anchor(anchor.href, anchor.target, anchor.external)
            assert anchor.href == href and anchor._fields == ("href", "target", "external")


def test_date_nodes_find_what_a_search_per_text_node_finds():
    """date_nodes scans the short texts joined by NUL: the same nodes as the regexes node by node."""
    import re

    from newscrawl.classify.features import date_nodes

    date_like = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)|\d[./-]\d\d?[./-]\d\d")  # the plain spellings
    clock = re.compile(r"(?<!\d)\d{1,2}:\d\d(?!\d)")
    rng = random.Random(7)
    pieces = ["2025", "12:30", "1999", "31.12.24", "120:30", "20255", "x2020", "3/4/25", "9:05", "at", " ", "7"]
    for seed in range(40):
        cells = "".join(f"<span>{''.join(rng.choice(pieces) for _ in range(rng.randint(1, 12)))}</span>"
                        for _ in range(30))
        page = _page(f"<div>{cells}</div>", "https://example.org/a")
        texts = [tn.text for tn in page.text_nodes]
        found = date_nodes(page)
        assert found.short == [k for k, t in enumerate(texts) if len(t) <= 40 and date_like.search(t)]
        assert found.lines == [k for k, t in enumerate(texts) if _date_line(t)]
        assert found.clocks == sum(1 for t in texts if len(t) <= 80 and clock.search(t))
        assert found.short or found.lines  # the pieces make dates on every page


def test_tag_lists_and_counts_match_the_tree():
    """Page.with_tags / tag_totals / tag_count on the body answer what walking the tree answers;
    _metas yields root.iter('meta') in document order."""
    from newscrawl.classify.features import _metas

    page = _page("<meta name='a' content='1'><!-- c --><div><p>x<meta property='b'></p><a href='/'>y</a>"
                 "<pre><code>z</code></pre><time>t</time></div><p>w</p>",
                 "https://example.org/", head="<meta name='h' content='2'>")
    body = page.body
    for names in (("p",), ("a", "p"), ("meta",), ("h1",), ("pre", "code", "time")):
        assert page.with_tags(*names) == list(body.iter(*names))
    for tag in ("p", "a", "meta", "pre", "code", "time", "h1", "body"):
        assert page.tag_count(body, tag) == sum(1 for el in body.iter(tag) if el is not body)
        assert page.tag_totals()[tag] == sum(1 for _ in body.iter(tag))
    assert list(_metas(page)) == list(page.root.iter("meta"))
    assert [m.get("name") or m.get("property") for m in _metas(page)] == ["h", "a", "b"]


def test_brand_share_counts_the_words_a_regex_scan_finds():
    """_brand_per_k finds words on code points and reads only those that may name the site; it must
    count what a scan of every \\w+ word counts, with case changes that alter a word's length or
    letters (İ, the Kelvin sign, long s), digits and "_" inside words."""
    import random
    import re
    from collections import Counter
    from types import SimpleNamespace

    from newscrawl.classify.features import _brand_per_k

    def reference(text: str, meta, site: str) -> float:
        label = site.split(".")[0] if site else ""
        brand = {w.lower() for w in re.findall(r"\w+", meta.site_name or "") if len(w) >= 4}
        if len(label) >= 4:
            brand.add(label)
        if not brand:
            return 0.0
        words = Counter(re.findall(r"\w+", text[:200_000]))
        hits = sum(n for w, n in words.items() if w.lower() in brand or (len(w) >= 5 and label.startswith(w.lower())))
        return 1000 * hits / max(words.total(), 1)

    rng = random.Random(6)
    pool = ["Daily", "daily", "DAILY", "dail", "news", "İstanbul", "istanbul", "ǅemal", "\u212aelvin", "kelvin",
            "straße", "ſtrasse", "_", "1", "dailynews", "Dailyn", "é", "\ud800", "’", " ", ", "]
    for _ in range(3000):
        text = "".join(rng.choice(pool) + rng.choice([" ", "", "-"]) for _ in range(rng.randint(0, 30)))
        site = rng.choice(["dailynews.com", "istanbul.gov.tr", "kelvin.org", "strasse.de", "", "abc.com"])
        meta = SimpleNamespace(site_name=rng.choice([None, "", "Daily News", "İstanbul Haber", "Kelvin Times", "ǅemal"]))
        assert _brand_per_k(text, meta, site) == reference(text, meta, site), (text, site, meta.site_name)


def test_sentence_end_and_comma_counts_equal_the_regexes_they_replace():
    import re

    from newscrawl.classify.features import _COMMAS, _ends_sentence

    sentence_end = re.compile(r"[.!?\u3002\uff01\uff1f\u2026\u061f\u0964:;\"'\u201d\u2019\u00bb)]\s*$")
    comma = re.compile(r"[,\uff0c\u3001]")
    rng = random.Random(9)
    alphabet = list("ab .!?:;\"')(,\t\r\x0b\x0c\x1c\x1f") + ["\u3002", "\uff0c", "\u3001", "\u00a0", "\u2003", "\u2019",
                                                           "\u00bb", "\u2026", "\u200b", "\u3000", "\x85", "x"]
    for _ in range(10000):
        line = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        assert _ends_sentence(line) == (sentence_end.search(line) is not None), repr(line)
        assert sum(map(line.count, _COMMAS)) == len(comma.findall(line))


def test_price_count_equals_the_regex_over_the_whole_text():
    from newscrawl.classify.features import _PRICE, _price_count

    rng = random.Random(4)
    alphabet = list("$€£¥₹0123456789.,  \tabxUuSsDdEeRrGgBbPp_-") + [
        "\u017f", "\u0660", "\u00a0", "\u0130", "usd", "EUR", "gbp", "u\u017fd", "\u00e9", "\u2003", "\n"]
    for _ in range(10000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        assert _price_count(text) == len(_PRICE.findall(text)), repr(text)
    prose = "Tickets cost $12.50 (or 10 EUR, 9,99€) from 2021; the 2,000 usdollar fund, \u20b9 500 and 3 gbp."
    # 4 a copy: "9,99€)" has no word boundary after the sign, "usdollar" none after "usd"
    assert _price_count(prose * 3) == len(_PRICE.findall(prose * 3)) == 12


def test_price_and_sentence_patterns_count_as_their_backtracking_forms():
    # the lookbehinds make the scans linear; the counts must stay those of the plain patterns
    import re

    from newscrawl.classify.features import _PRICE, _SENTENCE_BREAK

    plain_price = re.compile(r"(?:[$€£¥₹]\s?\d[\d.,]*|\d[\d.,]*\s?(?:[$€£¥₹]|usd|eur|gbp)\b)", re.IGNORECASE)
    plain_break = re.compile(r"[.!?\u3002\uff01\uff1f]+(?:\s|$)")
    rng = random.Random(11)
    alphabet = list("$€0123456789.,.,  \tabx!?\n") + ["eur", "USD", "gbp", "\u0660", "\u3002", "\u00a0", "e"]
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24)))
        assert len(_PRICE.findall(text)) == len(plain_price.findall(text)), repr(text)
        assert _SENTENCE_BREAK.findall(text) == plain_break.findall(text), repr(text)


@pytest.mark.timeout(60)
def test_long_runs_of_digits_and_marks_cost_linear_time():
    # 200k digits after a currency word and 200k dots before a letter: quadratic scans took minutes
    for text in ("eur" + "1" * 200_000, "." * 200_000 + "x", "?" * 200_000 + "!x", "1," * 100_000 + "x eur"):
        art = extract(f"<html><body><article><h1>Headline</h1><p>{text}</p></article></body></html>",
                      "http://example.com/2024/01/02/story")
        assert art.body is not None and len(art.body) >= 200_000


def _region_by_tree_walk(page: Page, relevant, anchors) -> tuple[int, int, int, int, int]:
    """The relevant region's (headings, external links, links, list text, text) climbing with getparent,
    the form the parent-index climb of extraction_features replaces."""
    from newscrawl.classify.features import HEADINGS, MAX_CLIMB

    links, headings, in_list, region = set(), set(), 0, 0
    for k in relevant:
        node, steps, listed = page.text_nodes[k].container, 0, False
        while node is not None and steps < MAX_CLIMB:
            if node.tag == "a":
                links.add(node)
            elif node.tag in HEADINGS:
                headings.add(node)
            elif node.tag == "li":
                listed = True
            node, steps = node.getparent(), steps + 1
        region += len(page.text_nodes[k].text)
        in_list += len(page.text_nodes[k].text) if listed else 0
    external = sum(1 for a in links if a in anchors and anchors[a].external)
    return len(headings), external, len(links), in_list, region


def test_region_and_inline_links_by_index_equal_the_tree_walks(random_tag_soup):
    """extraction_features' region measures and shape_features' inline links and paragraph lengths, read
    through parent indices and the Page's arrays, equal the getparent walks they replace on random pages
    (nested links, lists, headings, hidden subtrees, tails) and random relevant runs and scattered nodes
    (the region climb stops where an earlier one went on with as many steps left); the text nodes'
    containers by index are their container elements."""
    import dataclasses

    from newscrawl.classify.features import (
        INLINE_P, LONG_P, PageFeatures, date_nodes, extraction_features, shape_features)

    rng = random.Random(5)
    tags = ["div", "p", "ul", "li", "a", "span", "h2", "h3", "em", "section", "p", "a"]
    checked = 0
    for n in range(40):
        def opening(tag: str) -> str:
            attrs = " hidden" if rng.random() < 0.04 else ""
            attrs += f' href="{rng.choice(["/x", "https://other.example/y", "#z"])}"' if tag == "a" else ""
            return f"<{tag}{attrs}>{_sentence(rng, rng.choice([1, 3, 30]))}"

        html = random_tag_soup(rng, tags, rng.randint(20, 120), opening, lambda: _sentence(rng, 2),
                               head="<html><head><title>T</title></head><body>")
        page = Page.from_html(html, "http://127.0.0.1/p")
        assert [page.elements[i] for i in page.text_containers] == [t.container for t in page.text_nodes]
        assert page.above_body == [page.root]
        anchors = page_anchors(page)
        art, evidence = extraction_evidence(page)
        count = len(page.text_nodes)
        for run in range(8 if count else 0):
            start = rng.randrange(count)
            relevant = tuple(range(start, min(count, start + rng.randint(1, 60))))
            if run % 2:  # scattered nodes: climbs that meet the earlier ones higher up, or not at all
                relevant = tuple(sorted(rng.sample(range(count), rng.randint(1, count))))
            ev = dataclasses.replace(evidence, relevant=relevant)
            got, _ = extraction_features(page, art, ev, page.text_len(page.body))
            got["region_external"] = PageFeatures(page, None, art, ev).all()["region_external"]
            headings, external, links, in_list, region = _region_by_tree_walk(page, relevant, anchors)
            per_k = 1000 / max(region, 1)
            assert (got["region_headings"], got["region_external"], got["region_links"], got["region_list_share"]) == (
                headings * per_k, external * per_k, links * per_k, in_list / max(region, 1))
            shape = shape_features(page, art, ev, date_nodes(page))
            inline = 0
            for a in anchors:
                parent = a.getparent()
                if parent is not None and parent.tag == "p" and page.text_len(parent) >= INLINE_P:
                    span = page.text_range(parent)
                    inline += span.start in relevant or (span.stop - 1) in relevant
            assert shape["inline_links_per_k"] == 1000 * inline / max(len(art.body or ""), 1)
            lengths = [m for m in (page.text_len(p) for p in page.body.iter("p")) if m > 0]
            assert shape["p_long"] == sum(1 for m in lengths if m >= LONG_P)
            assert shape["p_mean_len"] == (sum(lengths) / len(lengths) if lengths else 0.0)
            checked += bool(links) + bool(inline)
    assert checked > 50


def _sibling_groups_by_children(page: Page) -> list[list[int]]:
    """_sibling_groups as it grouped before: every element with text under a parent of MIN_REPEAT+
    children read its class."""
    from collections import Counter, defaultdict

    from newscrawl.classify.features import MIN_REPEAT

    parent = page.structure()[0]
    text_len = page.measures()[0]
    tags, elements = page.tags(), page.elements
    children = Counter(parent)
    groups = defaultdict(list)
    for j in [j for j, n in enumerate(text_len) if n >= 20]:
        p = parent[j]
        if p >= 0 and children[p] >= MIN_REPEAT and isinstance(tags[j], str):
            groups[(p, tags[j], (elements[j].get("class") or "").strip())].append(j)
    return [members for members in groups.values() if len(members) >= MIN_REPEAT]


def test_repeated_blocks_group_as_the_children_count_did():
    """Grouping the texted elements by (parent, tag) first and reading classes only in groups of
    MIN_REPEAT+ finds the teasers, posts and largest group the per-element grouping found, on random
    pages of repeated siblings (shared and mixed classes and tags, links, dates, short texts)."""
    from itertools import accumulate

    from newscrawl.classify.features import _repeated_blocks, _score_groups, _sibling_groups, date_nodes

    rng = random.Random(9)
    found = 0
    for _ in range(60):
        blocks = []
        for _ in range(rng.randint(1, 6)):
            tag = rng.choice(["div", "li", "article", "section"])
            items = []
            for i in range(rng.randint(1, 8)):
                cls = rng.choice(["teaser", "teaser ", "post", "", "card x"])
                inner = rng.choice([f"<h3><a href='/s/{i}'>{_sentence(rng, 6)}</a></h3>",
                                    f"<span>2025-03-{i + 1:02d}</span> {_sentence(rng, 20)}",
                                    _sentence(rng, 2), f"<a href='/x'>{_sentence(rng, 5)}</a> {_sentence(rng, 3)}"])
                item_tag = tag if rng.random() < 0.8 else "p"
                items.append(f"<{item_tag} class='{cls}'>{inner}</{item_tag}>")
            blocks.append(f"<{tag}>{''.join(items)}</{tag}>")
        page = _page("".join(blocks), "https://example.org/")
        flags = [0] * len(page.text_nodes)
        for k in date_nodes(page).short:
            flags[k] = 1
        date_like = list(accumulate(flags, initial=0))
        groups = _sibling_groups_by_children(page)
        assert sorted(_sibling_groups(page)) == sorted(groups)
        expected = _score_groups(page, groups, date_like)
        assert _repeated_blocks(page, date_like) == expected
        found += expected[0] > 0 and expected[1] > 0
    assert found > 5
