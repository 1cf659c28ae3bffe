"""MSS, Ruzzo–Tompa, CoreEx and NewsFeed on small hand-built trees whose answers are known."""

from __future__ import annotations

import random
import re
import sys
import unicodedata
from functools import cache

from newscrawl.classify.coreex import coreex, count, word_counts, words
from newscrawl.classify.mss import maximal_subsequences, mss, segments
from newscrawl.classify.newsfeed import newsfeed_body, newsfeed_title, strip_site_name
from newscrawl.page import Page


def as_page(html: str, url: str | None = None) -> Page:
    return Page.from_html(html, url)

# Seed 002's MSS example: three segments of 5, 27 and 33 characters; the <br> is a single-tag
# leaf that step 3 removes from the third group.
MSS_EXAMPLE = (
    "<html><body><div>Note:</div>"
    "<p>A paragraph<a href='/x'>with a link</a>in it</p>"
    "<p>Some<em>emphatic words</em>here<br>More words!</p></body></html>"
)


def test_mss_grouping_follows_seed_002():
    page = as_page(MSS_EXAMPLE)
    segs = segments(page)
    assert [[leaf.text for leaf in s.leaves] for s in segs] == [
        ["Note:"],
        ["A paragraph", "with a link", "in it"],
        ["Some", "emphatic words", "here", "More words!"],
    ]
    assert [s.node.tag for s in segs] == ["div", "p", "p"]


def test_mss_scores_and_body_follow_seed_002():
    result = mss(as_page(MSS_EXAMPLE))
    assert [s.score for s in result.segments] == [5, 27, 33]
    linked = sum(len(leaf.text) for leaf in result.segments[1].leaves if leaf.in_link)
    assert linked == 11
    assert result.maximal == [(0, 3, 65)]
    assert result.score == 65
    assert result.body.startswith("Note:") and result.body.endswith("More words!")


def test_ruzzo_tompa_seed_example_and_paper_example():
    assert maximal_subsequences([5, 27, 33]) == [(0, 3, 65)]
    # Ruzzo & Tompa's own example: maximal subsequences (4), (3) and (1, 2, -2, 2, -2, 1, 5).
    scores = [4, -5, 3, -3, 1, 2, -2, 2, -2, 1, 5]
    assert maximal_subsequences(scores) == [(0, 1, 4), (2, 3, 3), (4, 11, 7)]


def _kadane(values):
    best = cur = 0
    for v in values:
        cur = max(0, cur + v)
        best = max(best, cur)
    return best


def test_ruzzo_tompa_matches_brute_force_on_random_sequences():
    rng = random.Random(7)
    for _ in range(300):
        values = [rng.randint(-9, 9) for _ in range(rng.randint(0, 25))]
        found = maximal_subsequences(values)
        assert max((s for _, _, s in found), default=0) == _kadane(values)
        previous_end = 0
        for start, end, score in found:
            assert previous_end <= start < end
            assert score == sum(values[start:end]) > 0
            # a maximal subsequence has no proper prefix or suffix with a non-positive sum
            assert all(sum(values[start:k]) > 0 for k in range(start + 1, end + 1))
            assert all(sum(values[k:end]) > 0 for k in range(start, end))
            previous_end = end


def test_mss_negative_segments_split_the_body():
    html = (
        "<body><p>" + "Article text goes on and on. " * 4 + "</p>"
        "<div><a href='/1'>Link one here</a> <a href='/2'>Link two here</a> <a href='/3'>three three</a></div>"
        "<h2>Big different text that is long enough to matter a lot here and more</h2>"
        "<p>Short tail</p></body>"
    )
    result = mss(as_page(html))
    assert [s.score > 0 for s in result.segments] == [True, False, False, True]
    assert result.body == ("Article text goes on and on. " * 4).strip()


# Seed 002's CoreEx example: body(1) > [div(2): 4 words + ul(6) of 2 links, div(4) > [div(8): 2 words
# + p(12): 2 words, p(9): 2 words]]; 12 words in the page.
COREEX_EXAMPLE = (
    "<html><body>"
    "<div id='n2'>four words right here<ul id='n6'><li><a href='/a'>x</a></li><li><a href='/b'>y</a></li></ul></div>"
    "<div id='n4'><div id='n8'>two words<p id='n12'>two more</p></div><p id='n9'>last two</p></div>"
    "</body></html>"
)


def test_coreex_counts_and_scores_follow_seed_002():
    page = as_page(COREEX_EXAMPLE)
    counts = count(page)
    by_id = {el.get("id"): page.index(el) for el in page.elements if el.get("id")}
    assert counts.text[0] == 12 and counts.set_text[0] == 6
    n2, n6, n4, n8, n9, n12 = (by_id[k] for k in ("n2", "n6", "n4", "n8", "n9", "n12"))
    assert (counts.text[n2], counts.links[n2], counts.set_text[n2]) == (6, 2, 4)
    assert counts.set_text[n6] == 0
    assert (counts.set_text[n4], counts.set_text[n8], counts.set_text[n9]) == (6, 4, 2)
    assert counts.in_set[n4] and not counts.in_set[n2] and counts.in_set[n12]

    def score(i):
        return 0.99 * (counts.set_text[i] - counts.set_links[i]) / counts.set_text[i] + 0.01 * counts.set_text[i] / 12

    assert round(score(n2), 4) == 0.9933
    assert round(score(n12), 4) == 0.9917  # the seed truncates to .9916
    assert round(score(n4), 4) == 0.995


def test_coreex_breaks_the_tie_towards_the_higher_node_and_keeps_only_s():
    result = coreex(as_page(COREEX_EXAMPLE))
    assert result.tag == "body"  # ties with div#n4 at 0.995; body is higher in the tree
    assert round(result.score, 4) == 0.995
    assert result.subset_tag == "div"
    assert [el.get("id") for el in result.subset] == ["n4"]
    assert result.text == "two words two more last two"


def test_coreex_tie_between_siblings_goes_to_the_first():
    html = "<body><nav><a href='/'>h</a><a href='/'>h</a><a href='/'>h</a></nav><div id='a'><p>one two</p></div>" \
           "<div id='b'><p>three four</p></div><ul><li><a href='/'>z</a></li></ul></body>"
    result = coreex(as_page(html))
    # body: S = {div a, div b}, 4 words of 9: 0.99 + 0.01·4/9; divs: 0.99 + 0.01·2/9 each
    assert result.tag == "body"
    page = as_page(html)
    inner = count(page)
    a, b = page.index(page.body[1]), page.index(page.body[2])
    assert (inner.set_text[a], inner.set_links[a]) == (inner.set_text[b], inner.set_links[b]) == (2, 0)
    assert (inner.text[0], inner.links[0], inner.set_text[0]) == (8, 4, 4)
    html2 = "<body><section><div id='a'><p>one two</p></div><div id='b'><p>three four</p></div><a href='/'>x</a></section>" \
            "<a href='/'>y</a><a href='/'>w</a></body>"
    result2 = coreex(as_page(html2))
    assert result2.tag == "section"


def test_coreex_skips_images_but_keeps_their_tails():
    html = "<body><div><img src='/x.png'>tail words here<a href='/'>link</a></div></body>"
    page = as_page(html)
    counts = count(page)
    div = page.index(page.body[0])
    assert (counts.text[div], counts.links[div], counts.set_text[div]) == (4, 1, 3)
    assert not counts.counted[page.index(page.body[0][0])]  # the img itself


def test_coreex_words_fold_accents_like_the_reference():
    # NFKD, then combining marks dropped, then \w+ runs (the reference's counting)
    assert words("café crème") == 2
    assert words("e\u0301x") == 1 and words("\u0301x") == 1 and words("x \u0301y") == 2
    assert words("\u0301 \u0301") == 0
    assert words("½") == 2  # NFKD: 1⁄2
    assert words("a\U0001D165b") == 1  # a combining mark beyond the BMP
    assert words("plain ascii_words, 42!") == 3
    assert words(None) == 0 and words("") == 0


def _paragraph(i: int, words: int = 14) -> str:
    return "<p>" + " ".join(f"word{i}x{j}" for j in range(words)) + ".</p>"


def test_newsfeed_picks_first_element_with_enough_content_paragraphs():
    paragraphs = "".join(_paragraph(i) for i in range(5))
    html = (
        "<body><div class='sidebar'>" + "".join(_paragraph(90 + i) for i in range(8)) + "</div>"
        "<div id='story'>" + paragraphs + "<p>short</p>" + _paragraph(7) + "</div>"
        "<div id='more'>" + _paragraph(50) + "</div></body>"
    )
    body = newsfeed_body(as_page(html))
    lines = body.split("\n")
    assert lines[0].startswith("word0x0") and lines[-1].startswith("word7x0")
    assert "short" in lines  # surrounded by two content-bearing paragraphs
    assert "word90x0" not in body  # the sidebar is cleaned away first


def test_newsfeed_paragraph_with_heavy_markup_is_not_content_bearing():
    heavy = "<p>" + "".join(f"<a href='/{i}'>ab</a>" for i in range(30)) + "</p>"
    html = "<body><div>" + heavy * 12 + "</div></body>"
    assert newsfeed_body(as_page(html)) is None


def test_newsfeed_prefers_article_body_markup():
    html = "<body><div>" + "".join(_paragraph(i) for i in range(9)) + "</div>" \
           "<div itemprop='articleBody'>The <b>real</b> story.</div></body>"
    assert newsfeed_body(as_page(html)) == "The real story."


def test_newsfeed_div_fallback_and_none():
    text = "Lorem ipsum dolor sit amet consectetur " * 12
    assert newsfeed_body(as_page(f"<body><div><div>{text}<br>{text}</div></div></body>")).startswith("Lorem")
    links = "".join(f"<a href='/{i}'>headline number {i} is here</a>" for i in range(40))
    assert newsfeed_body(as_page(f"<body><div>{links}</div></body>")) is None


def test_newsfeed_title_strips_site_name():
    html = ("<html><head><title>First medal for Tanzania in Sochi | BBC Sport</title>"
            "<meta property='og:site_name' content='BBC Sport'></head><body><h1>A</h1><h1>B</h1></body></html>")
    assert newsfeed_title(as_page(html, url="https://www.bbc.co.uk/sport/1")) == "First medal for Tanzania in Sochi"
    single = "<html><head><title>x</title></head><body><h1>Only heading</h1></body></html>"
    assert newsfeed_title(as_page(single)) == "Only heading"
    assert strip_site_name("Example News - Budget passes after long night", ["example"]) == "Budget passes after long night"


@cache
def _folded_word() -> re.Pattern[str]:
    """An independent reading of the reference's count, as a regex: a \\w, then any run of \\w and
    combining marks (non-zero combining class) of the NFKD text."""
    marks = "".join(f"\\U{cp:08x}" for cp in range(sys.maxunicode + 1) if unicodedata.combining(chr(cp)))
    return re.compile(rf"\w(?:\w|[{marks}])*")


def _reference_words(text: str) -> int:
    return len(_folded_word().findall(unicodedata.normalize("NFKD", text)))


def test_word_counts_equal_words_text_by_text():
    """The batched count (ASCII texts joined and counted in one pass, the others by code-point classes
    in another) gives an independent regex count of each text, also with marks leading a word or
    standing alone, and words() of one text the same."""
    rng = random.Random(7)
    pieces = ["river", "Ünïcode", "e\u0301t\u00e9", "snake_case", "42", " ", "\n\t", "--", "’", "\u00a0",
              "日本語", "x\u0308", "\U0001d400bc", ".", "", "\u0301", "\u0345a", "ﬁ", "½", "\u094d", "…", "™",
              "²", "㎏", "\u2044", "Ⅻ"]
    for _ in range(300):
        texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 8))) for _ in range(rng.randint(0, 12))]
        assert word_counts(texts).tolist() == [_reference_words(t) for t in texts] == [words(t) for t in texts]


def test_word_counts_skip_nfkd_only_where_it_keeps_the_words():
    """Texts are counted without NFKD when each character has the words of its own NFKD: every code
    point of the Latin, Greek, Cyrillic, punctuation, symbol, letterlike, number-form, CJK-compatibility
    and presentation-form blocks, alone, between letters and next to a letter or a mark, counts as the
    NFKD regex counts (fractions, ligatures, superscripts, squared units, spacing marks)."""
    ranges = [(0x80, 0x600), (0x1E00, 0x2200), (0x2460, 0x2500), (0x3300, 0x3400), (0xFB00, 0xFB50),
              (0xFE30, 0xFF00), (0xFF00, 0xFFF0)]
    texts = []
    for lo, hi in ranges:
        for cp in range(lo, hi):
            c = chr(cp)
            texts += [c, f"a{c}b", f"{c}x", f"x {c}", f"\u0301{c}", f"{c}\u0301"]
    for start in range(0, len(texts), 600):
        batch = texts[start:start + 600]
        assert word_counts(batch).tolist() == [_reference_words(t) for t in batch]


def test_coreex_counts_hidden_text_and_tails_under_hidden_parents():
    """CoreEx counts what the reference counts, also where the Page made no text node (hidden
    subtrees): the hidden div's text, its child's text and tail, and the tail after it."""
    page = Page.from_html("<html><body><div id='a'><p>one two</p><div style='display:none'>three four"
                          "<span>five</span> six</div> seven<p hidden>eight</p></div></body></html>")
    counts = count(page)
    div = page.elements.index(page.root.get_element_by_id("a"))
    assert counts.text[div] == 8
    assert counts.text[0] == 8
