"""Page features, the news-please baseline and the shipped page model on generated article and listing pages."""

from __future__ import annotations

import json
import random

import pytest

from newscrawl import modelio
from newscrawl.classify import apply_method, body_extractor
from newscrawl.classify.features import FEATURE_NAMES, headline_links, newsplease_rule
from newscrawl.classify.page import NO_URL_MODEL_FILE, load
from newscrawl.classify.text import text_inputs, text_probabilities
from newscrawl.extract.api import extraction_evidence
from newscrawl.page import Page
from newscrawl.paths import models_dir
from tests.classify.bare import classify, feature_vector, page_features, probability

WORDS = ("council budget river school market storm health transport festival court election museum "
         "harbour police library weather housing energy").split()


def _sentence(rng: random.Random, n: int = 14) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def _chrome(inner: str, head: str = "") -> str:
    menu = "".join(f"<li><a href='/section/{w}/'>{w}</a></li>" for w in WORDS[:8])
    return (f"<html><head><title>Story | Daily Example</title>{head}</head><body>"
            f"<header><nav><ul>{menu}</ul></nav></header>{inner}"
            "<footer><a href='/about/'>About</a> <a href='/privacy/'>Privacy</a></footer></body></html>")


def article_page(seed: int) -> str:
    rng = random.Random(seed)
    paragraphs = "".join(f"<p>{_sentence(rng)} {_sentence(rng)} {_sentence(rng)}</p>" for _ in range(9))
    related = "".join(f"<li><a href='/2025/03/{d:02d}/story-{d}-{seed}.html'>{_sentence(rng, 6)}</a></li>" for d in range(1, 5))
    head = ("<meta property='og:type' content='article'>"
            "<script type='application/ld+json'>{\"@type\": \"NewsArticle\", \"datePublished\": \"2025-03-04\"}</script>")
    inner = (f"<main><article><h1>{_sentence(rng, 8)}</h1><p class='byline'>By A. Writer, 4 March 2025</p>"
             f"{paragraphs}</article><aside><h2>Related</h2><ul>{related}</ul></aside></main>")
    return _chrome(inner, head)


def listing_page(seed: int) -> str:
    rng = random.Random(seed)
    items = "".join(
        f"<div class='teaser'><h2><a href='/2025/03/{d:02d}/story-{d}-{seed}.html'>{_sentence(rng, 7)}</a></h2>"
        f"<p>{_sentence(rng, 10)}</p></div>" for d in range(1, 21)
    )
    pager = "".join(f"<a href='/section/news/page/{n}/'>{n}</a>" for n in range(2, 6))
    return _chrome(f"<main><h1>News</h1>{items}<div class='pager'>{pager}</div></main>",
                   "<meta property='og:type' content='website'>")


def test_features_cover_every_name_and_count_link_targets():
    page = Page.from_html(listing_page(1), "https://example.com/section/news/")
    values = page_features(page)
    assert set(values) == set(FEATURE_NAMES)
    assert values["links"] == 8 + 20 + 4 + 2
    assert values["links_date"] == 20 and values["links_reserved"] >= 4 + 8  # page/N and /section/
    assert values["url_reserved"] == 1.0 and values["url_slash"] == 1.0
    assert values["og_article"] == 0.0 and values["headlines"] == 21  # the <h1> and 20 teaser <h2>


def test_article_features_differ_from_listing_features():
    art = page_features(Page.from_html(article_page(2), "https://example.com/2025/03/04/council-budget.html"))
    lst = page_features(Page.from_html(listing_page(2), "https://example.com/section/news/"))
    assert art["body_long_share"] > 0.9 > 0.1 > lst["body_long_share"]  # paragraphs vs one-line teasers
    assert art["visible_date"] == 1.0 and lst["teaser_blocks"] >= 20
    assert art["og_article"] == 1.0 and art["schema_news"] == 1.0 and art["has_published"] == 1.0
    assert art["linked_headlines"] < 0.5 < lst["linked_headlines"]
    assert art["url_date"] == 1.0 and lst["url_date"] == 0.0


def test_newsplease_rule_needs_og_article_and_few_linked_headlines():
    art = Page.from_html(article_page(3), "https://example.com/2025/03/04/a.html")
    lst = Page.from_html(listing_page(3).replace("'website'", "'article'"), "https://example.com/news/")
    assert newsplease_rule(art)
    assert headline_links(lst).linked == 20 / 21
    assert not newsplease_rule(lst)  # og:type says article, but 20 of 21 headings are links


def test_shipped_model_separates_generated_articles_from_listings():
    for seed in range(4):
        is_art, p_art = classify(Page.from_html(article_page(seed), f"https://example.com/2025/03/04/story-{seed}.html"))
        is_list, p_list = classify(Page.from_html(listing_page(seed), "https://example.com/section/news/"))
        assert is_art and not is_list
        assert 0.5 <= p_art <= 1.0 and 0.0 <= p_list < 0.5


def test_model_card_and_metadata():
    model, texts = load()
    assert model.features == FEATURE_NAMES and texts == {}  # the default reads no words (round 5)
    assert model.meta["chosen"] in ("tree", "forest", "extra-trees", "boosted")
    assert model.meta["tree_depth"] > 0 and model.meta["tree_leaves"] > 1
    card = (models_dir() / "page_classifier.md").read_text(encoding="utf-8")
    assert "newscrawl train page" in card and "F1" in card


def test_tampered_model_is_refused(tmp_path):
    body = json.loads((models_dir() / "page_classifier.json").read_text(encoding="utf-8"))
    body["trees"][0]["threshold"][0] += 1.0
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(body), encoding="utf-8")
    with pytest.raises(modelio.ModelError, match="checksum"):
        load(str(bad))


def test_model_for_other_features_is_refused(tmp_path):
    body = json.loads((models_dir() / "page_classifier.json").read_text(encoding="utf-8"))
    body.pop("sha256")
    body["features"] = body["features"][:-1] + ["something_else"]
    other = tmp_path / "other.json"
    modelio.save_model(body, other)
    with pytest.raises(modelio.ModelError, match="other features"):
        load(str(other))


def test_a_refused_model_is_read_and_logged_once(tmp_path, monkeypatch, caplog):
    reads = []
    real = modelio.load_model
    monkeypatch.setattr(modelio, "load_model", lambda path: reads.append(path) or real(path))
    missing = str(tmp_path / "missing.json")
    for _ in range(3):  # extract() asks once per page and falls back to its rule each time
        with pytest.raises(modelio.ModelError, match="not found"):
            load(missing)
    assert len(reads) == 1
    assert sum("page classifier unavailable" in r.getMessage() for r in caplog.records) == 1


class _Article:
    def __init__(self) -> None:
        self.title = "nce title"
        self.body = "nce body"
        self.provenance: dict = {}


def test_every_method_is_registered_and_replaces_the_body():
    page = Page.from_html(article_page(5), "https://example.com/2025/03/04/story-5.html")
    for method in ("mss", "coreex", "newsfeed"):
        art = apply_method(_Article(), page, method)
        assert art.body and art.body != "nce body" and "Related" not in art.body.split("\n")[0]
        assert art.provenance["body"]["method"] == method
    assert apply_method(_Article(), page, "newsfeed").title.endswith(".")  # the single <h1>, site name stripped
    with pytest.raises(ValueError, match="unknown body extractor"):
        body_extractor("nope")


def _row(page: Page, texts) -> list[float]:
    article, _ = extraction_evidence(page)
    return feature_vector(page) + text_probabilities(texts, text_inputs(page, article.title))


def test_shipped_models_cover_pages_with_and_without_urls():
    (url_model, texts), (no_url_model, same_texts) = load(), load(str(models_dir() / NO_URL_MODEL_FILE))
    assert url_model.meta["urls"] is True and no_url_model.meta["urls"] is False
    assert no_url_model.features == FEATURE_NAMES == url_model.features and texts == same_texts == {}
    assert "without a URL" in (models_dir() / "page_classifier_nourl.md").read_text(encoding="utf-8")
    for seed in range(3):
        html = article_page(seed)
        bare = Page.from_html(html)
        # a page parsed without a URL is scored by the URL-less model, one with a URL by the other
        assert probability(bare) == pytest.approx(no_url_model.positive_proba([_row(bare, same_texts)])[0])
        with_url = Page.from_html(html, f"https://example.com/2025/03/04/story-{seed}.html")
        assert probability(with_url) == pytest.approx(url_model.positive_proba([_row(with_url, texts)])[0])
        assert classify(bare)[0] and not classify(Page.from_html(listing_page(seed)))[0]
