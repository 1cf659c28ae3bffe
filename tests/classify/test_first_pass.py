"""The page classifier's first pass: cheap features, a model that decides alone only where it is sure."""

from __future__ import annotations

import json
import logging
import random

import numpy as np
import pytest

from newscrawl import modelio
from newscrawl.classify import page as page_classifier
from newscrawl.classify.features import FAST_FEATURES, FEATURE_NAMES, PageFeatures
from newscrawl.classify.page import (FAST_MODEL_FILE, NO_URL_FAST_MODEL_FILE, NO_URL_MODEL_FILE, first_pass_file,
                                     load_first_pass, page_model_file, probability)
from newscrawl.extract import extract
from newscrawl.extract.api import extraction_evidence
from newscrawl.page import Page
from newscrawl.paths import models_dir
from tests.classify.test_page_classifier import article_page, listing_page

ARTICLE_URL = "https://example.com/2025/03/04/story-{}.html"
LISTING_URL = "https://example.com/section/news/"


def _pages() -> list[Page]:
    return ([Page.from_html(article_page(seed), ARTICLE_URL.format(seed)) for seed in range(3)]
            + [Page.from_html(listing_page(seed), LISTING_URL) for seed in range(3)])


def _first_pass_copy(tmp_path, name: str, **changes) -> str:
    """The shipped first-pass model, re-saved with ``changes`` to its payload's meta (or, with
    ``features``, its feature list): a valid file of another training."""
    body = json.loads((models_dir() / FAST_MODEL_FILE).read_text(encoding="utf-8"))
    body.pop("sha256")
    if "features" in changes:
        body["features"] = changes.pop("features")
    body["meta"].update(changes)
    path = tmp_path / name
    modelio.save_model(body, path)
    return str(path)


def test_first_pass_only_under_the_default_and_its_own_for_pages_without_a_url():
    with_url, without = _pages()[0], Page.from_html(article_page(0), None)
    for name in (None, "", "default"):
        assert first_pass_file(name, with_url) == str(models_dir() / FAST_MODEL_FILE)
        assert first_pass_file(name, without) == str(models_dir() / NO_URL_FAST_MODEL_FILE)
    for name in ("words", "plain", "/some/model.json"):
        assert first_pass_file(name, with_url) is None and first_pass_file(name, without) is None
    # "words" still names the words model: the full model without the first pass
    assert page_model_file("words", with_url) == page_model_file("default", with_url)


@pytest.mark.parametrize("name, urls", [(FAST_MODEL_FILE, True), (NO_URL_FAST_MODEL_FILE, False)])
def test_shipped_first_passes_read_the_fast_features_and_their_cards_give_the_measurement(name, urls):
    fast = load_first_pass(str(models_dir() / name))
    assert fast is not None and fast.model.features == FAST_FEATURES and fast.model.meta["urls"] is urls
    assert 0 < fast.below < 0.5 < fast.above < 1 and fast.below == pytest.approx(1 - fast.above)
    assert set(FAST_FEATURES) < set(FEATURE_NAMES) and len(set(FAST_FEATURES)) == len(FAST_FEATURES)
    # the costly groups are what the first pass leaves out
    assert not {"links", "coreex_score", "teaser_blocks", "brand_per_k", "region_external"} & set(FAST_FEATURES)
    card = (models_dir() / name).with_suffix(".md").read_text(encoding="utf-8")
    assert "newscrawl train page --first-pass-only" in card and "(shipped)" in card and "cascade F1" in card
    assert ("pages with a URL" in card) is urls and ("pages without a URL" in card) is not urls


def test_fast_features_are_the_full_features_values():
    for page in _pages():
        art, evidence = extraction_evidence(page)
        staged = PageFeatures(page, None, art, evidence)
        fast = dict(staged.fast())
        full = PageFeatures(page, None, art, evidence).all()  # computed without the first stage's cache
        assert fast == {name: full[name] for name in FAST_FEATURES}
        assert staged.all() == full and staged.row() == [full[name] for name in FEATURE_NAMES]
        assert staged.fast_row() == [full[name] for name in FAST_FEATURES]


def test_a_sure_first_pass_decides_without_the_costly_features(tmp_path, monkeypatch):
    always = _first_pass_copy(tmp_path, "always.json", decide_below=0.4999, decide_above=0.5001)
    never = _first_pass_copy(tmp_path, "never.json", decide_below=0.0, decide_above=1.0)
    words = page_model_file("default", _pages()[0])
    for page in _pages():
        art, evidence = extraction_evidence(page)
        full = probability(page, None, words, article=art, evidence=evidence)
        assert probability(page, None, words, article=art, evidence=evidence, first_pass=never) == full
        fast = load_first_pass(always)
        expected = float(fast.model.positive_proba([PageFeatures(page, None, art, evidence).fast_row()])[0])
        with monkeypatch.context() as patched:
            patched.setattr(PageFeatures, "all", lambda self: pytest.fail("the full features were computed"))
            assert probability(page, None, words, article=art, evidence=evidence, first_pass=always) == expected
        assert (expected >= 0.5) == (full >= 0.5)  # these pages are plain: both models agree


def test_pages_without_a_url_get_their_first_pass_where_it_is_sure_and_the_url_less_model_elsewhere(tmp_path,
                                                                                                    monkeypatch):
    always = _first_pass_copy(tmp_path, "always.json", decide_below=0.4999, decide_above=0.5001)
    never = _first_pass_copy(tmp_path, "never.json", decide_below=0.0, decide_above=1.0)
    for html in [article_page(seed) for seed in range(2)] + [listing_page(seed) for seed in range(2)]:
        page = Page.from_html(html, None)
        art, evidence = extraction_evidence(page)
        full = probability(page, None, None, article=art, evidence=evidence)  # the URL-less model
        assert probability(page, None, None, article=art, evidence=evidence, first_pass=never) == full
        with monkeypatch.context() as patched:
            patched.setattr(PageFeatures, "all", lambda self: pytest.fail("the full features were computed"))
            sure = probability(page, None, None, article=art, evidence=evidence, first_pass=always)
        fast_row = PageFeatures(page, None, art, evidence).fast_row()
        assert sure == float(load_first_pass(always).model.positive_proba([fast_row])[0])
    # extract() without a URL: the shipped URL-less first pass, or the URL-less model where it is unsure
    shipped = load_first_pass(str(models_dir() / NO_URL_FAST_MODEL_FILE))
    for html in (article_page(5), listing_page(5)):
        default = extract(html)
        full = extract(html, page_model="words")  # no first pass: the URL-less model
        assert default.is_article == full.is_article
        assert default.probability <= shipped.below or default.probability >= shipped.above or \
            default.probability == full.probability
    assert page_model_file("default", Page.from_html(article_page(5), None)) is None  # None: NO_URL_MODEL_FILE
    assert (models_dir() / NO_URL_MODEL_FILE).is_file()


def test_shipped_default_decides_generated_pages_like_the_words_model():
    for seed in range(4):
        html, url = article_page(seed), ARTICLE_URL.format(seed)
        default, words = extract(html, url), extract(html, url, page_model="words")
        assert default.is_article and words.is_article
        listing, words_listing = extract(listing_page(seed), LISTING_URL), extract(listing_page(seed), LISTING_URL,
                                                                                   page_model="words")
        assert not listing.is_article and not words_listing.is_article
    # a sure page gets the first pass's probability, beyond its threshold
    fast = load_first_pass(str(models_dir() / FAST_MODEL_FILE))
    assert default.probability >= fast.above or default.probability <= fast.below or \
        default.probability == words.probability


def test_a_refused_first_pass_is_logged_once_and_the_full_model_decides(tmp_path, caplog):
    other = _first_pass_copy(tmp_path, "other.json", features=list(FAST_FEATURES[:-1]) + ["something_else"])
    no_threshold = _first_pass_copy(tmp_path, "nothreshold.json", decide_below="0.1")
    page = _pages()[3]
    art, evidence = extraction_evidence(page)
    words = page_model_file("default", page)
    full = probability(page, None, words, article=art, evidence=evidence)
    caplog.set_level(logging.ERROR, logger=page_classifier.__name__)
    for bad, reason in ((other, "other features"), (no_threshold, "decide_below")):
        for _ in range(3):
            assert probability(page, None, words, article=art, evidence=evidence, first_pass=bad) == full
        assert sum(reason in r.getMessage() for r in caplog.records) == 1


def _separable_table(seed: int, pages: int):
    """A labelled feature table whose articles differ from the other pages in body share and links
    (and in the words the text models read): what a first pass can learn from a few rows."""
    from newscrawl.train import page as train

    rng = random.Random(seed)
    table = train.FeatureTable()
    for k in range(pages):
        is_article = k % 2 == 0
        row = [rng.random() for _ in FEATURE_NAMES]
        row[FEATURE_NAMES.index("body_share")] = (0.6 if is_article else 0.1) + 0.3 * rng.random()
        row[FEATURE_NAMES.index("links")] = (20 if is_article else 60) + 30 * rng.random()
        table.X.append(row)
        table.y.append(is_article)
        words = "the council said that it will fund the wall" if is_article else "home news sport shop login"
        table.texts.append((f"{words} {k}", f"title {k}"))
    return table


def test_training_keeps_the_widest_threshold_within_the_tolerance(tmp_path):
    """train_first_pass on a small labelled table: the threshold it ships is the largest candidate whose
    cascade F1 is within FAST_TOLERANCE of the full default's, and the files it writes load."""
    from newscrawl.train import page as train

    table = _separable_table(seed=3, pages=80)
    out = tmp_path / "page_classifier_fast.json"
    meta = train.train_first_pass(out, table, "boosted", "boosted", repeats=1)
    scores = meta["cv"]
    kept = [float(t) for t, r in scores["thresholds"].items() if r["f1"] >= scores["full_f1"] - train.FAST_TOLERANCE]
    assert meta["decide_below"] == max(kept, default=0.0) and meta["decide_above"] == 1 - meta["decide_below"]
    assert set(scores["thresholds"]) == {str(t) for t in train.FAST_THRESHOLDS}
    assert all(0 <= r["decided"] <= 1 for r in scores["thresholds"].values())
    fast = load_first_pass(str(out))
    assert fast is not None and fast.model.features == FAST_FEATURES
    assert "cascade F1" in out.with_suffix(".md").read_text(encoding="utf-8")
    X = np.asarray(table.X)[:, [FEATURE_NAMES.index(n) for n in FAST_FEATURES]]
    assert ((fast.model.positive_proba(X) >= 0.5) == np.asarray(table.y)).mean() > 0.9  # it learnt the split


def test_the_url_less_first_pass_is_validated_against_the_url_less_model_alone(tmp_path, monkeypatch):
    """words_kind None: no text model is fitted, the cascade is compared with the plain model's out-of-fold
    probabilities, and the card says which pages the model serves."""
    from newscrawl.train import page as train

    table = _separable_table(seed=5, pages=60)
    monkeypatch.setattr(train, "text_columns", lambda *a, **k: pytest.fail("a text model was fitted"))
    out = tmp_path / "page_classifier_nourl_fast.json"
    meta = train.train_first_pass(out, table, "tree", None, repeats=1)
    assert meta["urls"] is False and meta["validated_against"] == "page_classifier_nourl.json (tree)"
    card = out.with_suffix(".md").read_text(encoding="utf-8")
    assert "pages without a URL" in card and "page_classifier_nourl.json" in card
    assert load_first_pass(str(out)) is not None
