"""Title/date post-processing (seed 000 §3.4.3), the flat forest predictor, and the training
command on a generated dataset."""

from __future__ import annotations

import argparse
import gzip
import json
import random
from pathlib import Path

import numpy as np
import pytest

from newscrawl.extract import titledate
from newscrawl.extract.titledate import _nearest_cluster, pick_title, strip_site_name
from newscrawl.modelio import export_trees, load_model, save_model
from newscrawl.page import Page


def test_strip_site_name():
    assert strip_site_name("Storm hits the coast | Daily Paper") == "Storm hits the coast"
    assert strip_site_name("Daily Paper - Storm hits the whole coast") == "Storm hits the whole coast"
    assert strip_site_name("Just a title") == "Just a title"


def test_pick_title_first_detected_or_most_probable():
    p = np.array([0.1, 0.6, 0.2, 0.9])
    assert pick_title(p) == 1
    assert pick_title(p, "best") == 3
    assert pick_title(np.array([0.1, 0.4])) is None


def test_date_clusters_at_most_two_nodes_apart_nearest_title_wins():
    # nodes 3,5 form one cluster (gap 2), 40 another; title at 1 -> first cluster
    assert _nearest_cluster([3, 5, 40], 1) == [3, 5]
    assert _nearest_cluster([3, 5, 40], 38) == [40]
    assert _nearest_cluster([3, 7], 6) == [7]  # 4 apart: two clusters
    assert _nearest_cluster([3, 40], None) == [3, 40]  # no title: no clustering


def test_a_date_above_the_title_counts_as_farther_than_one_below():
    # title at 10: a banner date 3 nodes above loses to a byline date 4 nodes below
    assert _nearest_cluster([7, 14], 10) == [14]
    assert _nearest_cluster([7, 20], 10) == [7]


def test_weak_date_is_the_most_probable_parsable_candidate_above_the_weak_threshold():
    page = Page.from_html("<html><body><p>Issue 4</p><p>Hamburg, 11. November 2021</p>"
                          "<p>Updated 3 March 2022</p><p>12.12.2012</p></body></html>")
    nodes = list(range(len(page.text_nodes)))
    X = np.array([[len(page.text_nodes[k].text)] for k in nodes], dtype=float)
    p = np.array([0.45, 0.3, 0.26, 0.1])
    assert titledate.weak_date(page, nodes, X, p, None) == ("2021-11-11", 0.3)
    assert titledate.weak_date(page, nodes, X, np.array([0.45, 0.1, 0.1, 0.2]), None) == (None, 0.0)


def test_shipped_format_predicts_as_the_forest(tmp_path):
    from sklearn.ensemble import RandomForestClassifier

    rng = np.random.RandomState(0)
    X = rng.rand(300, 4)
    y = (X[:, 0] + X[:, 1] * 0.5 > 0.8)
    model = RandomForestClassifier(n_estimators=7, max_depth=6, random_state=0).fit(X, y)
    save_model(export_trees(model, ["a", "b", "c", "d"]), tmp_path / "m.json")
    loaded = load_model(tmp_path / "m.json")
    Xt = rng.rand(50, 4)
    assert np.allclose(loaded.positive_proba(Xt), model.predict_proba(Xt)[:, 1])
    assert loaded.positive_proba(np.zeros((0, 4))).shape == (0,)


MONTHS = ["January", "February", "March", "April", "May", "June"]


def _page(rng: random.Random, site: int, i: int) -> tuple[str, str, str]:
    title = f"Headline {site}-{i}: " + " ".join(rng.choice(["storm", "vote", "market", "team", "city"]) for _ in range(5))
    day = f"2024-{rng.randint(1, 6):02d}-{rng.randint(10, 28):02d}"
    y, m, d = day.split("-")
    shown = f"{int(d)} {MONTHS[int(m) - 1]} {y}" if site % 2 else f"{d}.{m}.{y}"
    nav = "".join(f'<a href="/{k}">Menu {k}</a> ' for k in range(8))
    paras = "".join(f"<p>{'Some article sentence goes here with words. ' * rng.randint(3, 6)} {k}</p>" for k in range(5))
    size = 24 + 4 * site
    html = (f"<html><head><title>{title} | Site {site}</title><style>.t{site} {{ font-size: {size}px }}</style></head>"
            f"<body><div class=top>{nav}</div><div class=story><h2 class=t{site}>{title}</h2>"
            f"<span class=when>{shown}</span>{paras}</div><div class=foot>Copyright 2024</div></body></html>")
    return html, title, day


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    from newscrawl.train import title_date

    root = tmp_path_factory.mktemp("datasets")
    folder = root / "wcxb-dev"
    (folder / "pages").mkdir(parents=True)
    rng = random.Random(3)
    lines = []
    for site in range(6):
        for i in range(6):
            html, title, day = _page(rng, site, i)
            key = f"{site}-{i}"
            (folder / "pages" / f"{key}.html.gz").write_bytes(gzip.compress(html.encode()))
            lines.append(json.dumps({"id": key, "path": f"pages/{key}.html.gz", "url": None,
                                     "site": f"site{site}", "title": title, "published": day}))
    (folder / "truth.jsonl").write_text("\n".join(lines) + "\n")
    out = tmp_path_factory.mktemp("models")
    args = argparse.Namespace(datasets=root, out=out, no_cv=False)
    assert title_date.run(args) == 0
    return out


def test_training_writes_models_and_cards(trained: Path):
    for name in ("title_model", "date_model"):
        model = load_model(trained / f"{name}.json")
        assert model.meta["cv"]["title_pages"] == 36
        card = (trained / f"{name}.md").read_text()
        assert "Cross-validated" in card and "grouped by site" in card
    assert load_model(trained / "date_model.json").meta["report"]["title_unmatched"] == 0


def test_trained_models_find_title_and_date_on_an_unseen_page(trained: Path, monkeypatch):
    monkeypatch.setenv("NEWSCRAWL_MODELS_DIR", str(trained))
    titledate.load.cache_clear()
    try:
        html, title, day = _page(random.Random(99), 3, 77)
        page = Page.from_html(html)
        td = titledate.detect(page, list(range(len(page.text_nodes))))
        assert td.title == title
        assert td.published == day
    finally:
        titledate.load.cache_clear()


def test_a_trailing_site_name_leaves_the_detected_headline():
    from newscrawl import extract

    paras = "".join(f"<p>Paragraph {i} of the report says the wind was strong and the sea rose fast.</p>"
                    for i in range(8))
    html = ("<html><head><title>Storm hits the whole coast tonight | The Daily Planet</title></head><body>"
            "<h1>Storm hits the whole coast tonight | Daily Planet US</h1>"
            f"<div class=story>{paras}</div></body></html>")
    art = extract(html, "https://www.dailyplanet.example/2024/storm")
    assert art.title == "Storm hits the whole coast tonight"
    assert art.provenance["title"]["method"] == "nce-title-model"


def test_slash_dates_are_day_first_on_pages_not_in_english():
    assert titledate.dayfirst_for("es-AR") is True
    assert titledate.dayfirst_for("pt_BR") is True
    assert titledate.dayfirst_for("en-US") is None
    assert titledate.dayfirst_for(None) is None
    page = Page.from_html("<html><body><h1>Title</h1><p>03/05/2022 22:41</p></body></html>")
    assert titledate._read_date(page, [1], titledate.dayfirst_for("es"))[1] == "2022-05-03T22:41:00"
    assert titledate._read_date(page, [1], titledate.dayfirst_for("en"))[1] == "2022-03-05T22:41:00"


@pytest.mark.parametrize(("declared", "visible", "expected"), [
    # the same instant, the page printing local time (UTC-4): the story's day is the local one
    ("2022-05-04T03:37:37+00:00", "2022-05-03T23:37:00", "2022-05-03T23:37:37-04:00"),
    ("2022-05-05T21:00:00-05:00", "2022-05-06T02:00:00", "2022-05-06T02:00:00+00:00"),
    ("2022-05-04T02:41:00", "2022-05-03T22:41:00", "2022-05-03T22:41:00"),  # no declared offset: as shown
    # not the same minute, a visible day without time, the same day, or more than 14 hours apart
    ("2022-05-04T03:37:37+00:00", "2022-05-03T23:12:00", "2022-05-04T03:37:37+00:00"),
    ("2022-05-04T03:37:37+00:00", "2022-05-03", "2022-05-04T03:37:37+00:00"),
    ("2022-05-04T03:37:37+00:00", "2022-05-04T05:37:00", "2022-05-04T03:37:37+00:00"),
    ("2022-05-04T03:37:37+00:00", "2022-05-02T03:37:00", "2022-05-04T03:37:37+00:00"),
    ("2022-05-04", "2022-05-03T23:37:00", "2022-05-04"),
    ("2022-05-04T03:37:37+00:00", None, "2022-05-04T03:37:37+00:00"),
    # no declared zone: the shown day where some offset gives it, else the declared time
    ("2022-05-04T00:25:56", "2022-05-03", "2022-05-03"),
    ("2025-11-13T09:21:40", "2025-11-12", "2025-11-12"),
    ("2022-05-04T00:25:56", "2022-05-02", "2022-05-04T00:25:56"),
    ("2022-05-04T20:25:56", "2022-05-06", "2022-05-04T20:25:56"),
    # a shown midnight ("04 de mayo 2022, 12:00 A. M.") is a shown day without a time
    ("2022-05-03T13:32:45", "2022-05-04T00:00:00", "2022-05-04"),
    ("2022-05-03T13:32:45", "2022-05-06T00:00:00", "2022-05-03T13:32:45"),
])
def test_a_metadata_timestamp_takes_the_shown_local_day_of_the_same_instant(declared, visible, expected):
    assert titledate.local_published(declared, visible) == expected


@pytest.mark.parametrize(("declared", "url_day", "expected"), [
    ("2025-12-19T02:41:41+00:00", "2025-12-18", "2025-12-18"),  # 02:41 UTC is the 18th west of UTC-3
    ("2022-05-07T13:43:46-05:00", "2022-05-06", "2022-05-07T13:43:46-05:00"),  # 18:43 UTC: the 7th everywhere
    ("2024-05-03T08:45:44+00:00", "2024-04-04", "2024-05-03T08:45:44+00:00"),  # another day: not this instant
    ("2025-12-19", "2025-12-18", "2025-12-19"),  # no time: nothing to place in a zone
    ("2025-12-19T02:41:41+00:00", None, "2025-12-19T02:41:41+00:00"),
])
def test_a_metadata_timestamp_takes_the_urls_day_when_the_instant_falls_on_it(declared, url_day, expected):
    assert titledate.local_published(declared, None, url_day) == expected


def test_title_tag_fallback_drops_the_part_naming_the_site_else_keeps_the_longest_part():
    assert titledate.title_tag_title("Charges | Stripe API Reference", None, "https://docs.stripe.com/api") == "Charges"
    assert titledate.title_tag_title("Dental Care | ONE Health Ohio", "ONE Health Ohio", None) == "Dental Care"
    assert titledate.title_tag_title("Home | Storm hits the whole coast", None, None) == "Storm hits the whole coast"


def _title_text(body: str, run: str, meta_title: str | None = None) -> str:
    """node_title_text of the text run ``run`` in a page whose body starts with ``body``."""
    page = Page.from_html(f"<html><body>{body}<p>{'Some body text of the story. ' * 20}</p></body></html>")
    k = next(i for i, tn in enumerate(page.text_nodes) if tn.text == run)
    return titledate.node_title_text(page, k, meta_title)


def test_a_linked_headline_split_by_inline_markup_is_the_whole_link():
    h1 = '<h1><a href="/story">The Story Of <em>Metroid</em>, One Of Gaming\'s Universes</a></h1>'
    assert _title_text(h1, ", One Of Gaming's Universes") == "The Story Of Metroid, One Of Gaming's Universes"
    # a short run of a long link (a teaser card) stays alone: at most twice the run, plus 10
    assert _title_text(h1, "The Story Of") == "The Story Of"
    # a date link beside a linked headline stays out: the run is the whole link
    dated = '<h1><a href="/day">Dec 18 2025</a> <a href="/s">Preparing a transition</a></h1>'
    assert _title_text(dated, "Preparing a transition") == "Preparing a transition"


def test_breadcrumb_links_keep_the_run_alone_but_permalink_symbols_do_not():
    crumbs = '<p><a href="/">Home</a> » <a href="/blog">Blog</a> » Renting a Car: Key Words</p>'
    assert _title_text(crumbs, "» Renting a Car: Key Words") == "Renting a Car: Key Words"
    sphinx = '<h1><code>functools</code> — Higher-order functions<a class="headerlink" href="#f">¶</a></h1>'
    assert _title_text(sphinx, "— Higher-order functions") == "functools — Higher-order functions"


def test_separator_marks_at_either_end_leave_the_title():
    item = '<ol><li><span>|</span><span>Sustainability in our shop</span></li></ol>'
    assert _title_text(item, "Sustainability in our shop") == "Sustainability in our shop"
    assert _title_text("<h2>» Storm hits the coast ›</h2>", "» Storm hits the coast ›") == "Storm hits the coast"
    frost = "-5 °C tonight: frost warning"
    assert _title_text(f"<h2>{frost}</h2>", frost) == frost
    assert _title_text("<h2>Update:</h2>", "Update:") == "Update:"
    assert _title_text("<h2>|</h2>", "|") == "|"  # nothing but a mark: kept, the title model judges it


def test_runs_are_joined_with_the_page_spacing():
    wiki = "<h1><span>Category</span><span>:</span><span>Programming languages</span></h1>"
    assert _title_text(wiki, "Programming languages") == "Category:Programming languages"
    assert _title_text("<h1><span>Vacuum clean<wbr>er parts set</span></h1>", "er parts set") == "Vacuum cleaner parts set"
    assert _title_text('<h1><span>Info</span><span>&nbsp;</span>Graphics card guide</h1>',
                       "Graphics card guide") == "Info Graphics card guide"
    assert _title_text("<h1>Line one<br>Line two of it</h1>", "Line two of it") == "Line one Line two of it"
    assert _title_text('<h1><b>Big</b> <span style="display:none">x</span>news today</h1>', "news today") == "Big news today"


def test_a_run_that_is_the_structured_headline_drops_its_kicker():
    h1 = "<h1><b>SELECTED:</b> The best coats of the year</h1>"
    assert _title_text(h1, "The best coats of the year") == "SELECTED: The best coats of the year"
    assert _title_text(h1, "The best coats of the year", "The best coats of the year") == "The best coats of the year"


def test_a_byline_date_right_after_the_relevant_content_closes_the_article():
    page = Page.from_html("<html><body><p>First paragraph of the story.</p><p>Second paragraph.</p>"
                          '<p style="display:none">hidden</p><p>Posted on April 13, 2023</p>'
                          "<p>Related: March 2, 2021</p></body></html>")
    shown = [k for k, tn in enumerate(page.text_nodes) if tn.text != "hidden"]
    assert titledate.closing_date(page, [0, 1], None) == "2023-04-13"
    assert titledate.closing_date(page, [0], None) is None  # the next node is story text, not a date
    assert titledate.closing_date(page, [0, 1], comment_cut=shown[2]) is None  # a comment's date
    assert titledate.closing_date(page, [], None) is None
    assert titledate.closing_date(page, [0, 1, shown[2]], None) == "2021-03-02"


def test_distinct_rows_are_walked_once_with_the_answers_of_all_rows():
    """The title model's probabilities over distinct rows, spread back to every row, are those of all
    rows: repeats in any order, NaN, -0.0 next to 0.0, one row, no repeats, no rows."""
    from newscrawl.extract.titledate import distinct_positive_proba, load

    model = load("title_model")
    assert model is not None
    rng = np.random.default_rng(4)
    base = rng.normal(size=(30, len(model.features))) * 50
    base[3, 2] = np.nan
    base[4, 1] = -0.0
    for rows in (rng.integers(0, 30, size=200), np.arange(30), np.array([5]), np.array([4, 4, 3, 3]),
                 np.array([], dtype=int)):
        X = base[rows]
        assert np.array_equal(distinct_positive_proba(model, X), model.positive_proba(X), equal_nan=True)
    zero = base[[4, 4]].copy()
    zero[1, 1] = 0.0  # 0.0 and -0.0 differ as bytes: both rows are walked
    assert np.array_equal(distinct_positive_proba(model, zero), model.positive_proba(zero))


BLOG_PROSE = "".join(
    f"<p>We drove up the mountain road early on Saturday, stop {i}, and the maples along the river had turned "
    "a deep red.</p>"
    for i in range(8)
)


def blog_post(title_tag: str = "Maple season at the camp @ Steven's Home :: Blog Host ::") -> str:
    """A blog post: the blog's name in the banner's <h1>, its description under it, the post's
    headline a linked <h2> over the text."""
    return f"""<html><head><title>{title_tag}</title></head><body>
<div id="header"><div id="banner"><h1><a href="/">Steven's Home</a></h1><h2>Our shared corner of the web:
travel notes, camping, food and the little things of a quiet life in the hills.</h2></div></div>
<div id="main"><div class="article"><h2 class="title"><a href="/post/1">Maple season at the camp</a></h2>
<div class="date">Dec 28 2013</div><div class="body">{BLOG_PROSE}</div></div></div></body></html>"""


def test_the_sites_name_in_the_banner_is_not_the_headline():
    from newscrawl.extract import extract

    art = extract(blog_post(), "https://steven.example.com/blog/post/1")
    assert art.title == "Maple season at the camp"
    # the banner's description is then no standfirst: the body starts with the post
    assert art.body.startswith("We drove up the mountain road") and "shared corner" not in art.body


def test_a_banner_headline_linking_to_the_front_page_is_not_the_headline():
    from newscrawl.extract import extract

    # "Blog: Post" leaves the site's name unsaid in <title>; its <h1> links to the front page
    page = blog_post("Steven's Home: Maple season at the camp").replace('<a href="/">', '<a href="/index.html">')
    assert extract(page, "https://steven.example.com/blog/post/1").title == "Maple season at the camp"
    # a headline linking to its own story, or to another site's front page, is one
    assert titledate._links_home(Page.from_html('<h1><a href="/post/1">A</a></h1>', "https://x.example/p"), 0) is False
    other = Page.from_html('<h1><a href="https://y.example/">A</a></h1>', "https://x.example/p")
    assert titledate._links_home(other, 0) is False
    home = Page.from_html('<h1><a href="https://x.example/">A</a></h1>', "https://x.example/p")
    assert titledate._links_home(home, 0)


def test_site_names_are_the_later_title_segments_but_the_longest_and_the_declared_name():
    names = titledate.site_names("Maple season at the camp @ Steven's Home :: Blog Host ::", None)
    assert names == {"steven's home", "blog host"}
    # the headline after the site's name is the longest segment: not a name
    assert titledate.site_names("Steven's Home - Maple season at the camp", "Steven") == {"steven"}


def test_headings_inside_the_content_are_title_candidates_even_when_nce_drops_them():
    page = Page.from_html(blog_post(), "https://steven.example.com/blog/post/1")
    heading = next(k for k, tn in enumerate(page.text_nodes) if tn.text == "Maple season at the camp")
    prose = [k for k, tn in enumerate(page.text_nodes) if tn.text.startswith("We drove")]
    assert heading in titledate.evaluated_subset(page, [heading - 1, *prose])
