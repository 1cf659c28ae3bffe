"""The shipped URL classifier: loads safely, ranks article links first, both code paths agree."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from newscrawl.links.classifier import UrlClassifier, default_classifier
from newscrawl.links.features import FEATURE_NAMES
from newscrawl.modelio import ModelError, save_model
from newscrawl.paths import models_dir

ARTICLES = [
    "https://news.example.com/2024/03/12/city-council-approves-new-budget-for-schools/",
    "https://www.example.co.uk/news/world-europe-68234512",
    "https://example.com/politics/2023-11-05/governor-signs-water-rights-bill.html",
    "https://example.com/ranchers-and-regulators-clash-over-grazing-leases-in-the-red-desert/",
]
# An id alone, with no slug or date, looks like the product and forum URLs of the training data:
# it only has to rank above navigation, not pass the threshold (see models/url_classifier.md).
ID_ONLY_ARTICLE = "https://example.org/story?id=62025268"
NON_ARTICLES = [
    "https://news.example.com/",
    "https://news.example.com/tag/elections/",
    "https://news.example.com/category/politics/",
    "https://news.example.com/about/",
    "https://news.example.com/author/jane-doe/",
    "https://news.example.com/politics/page/2/",
    "https://news.example.com/contact/",
]


@pytest.fixture(scope="module")
def classifier() -> UrlClassifier:
    return UrlClassifier.load()


def test_shipped_model_ranks_articles_above_navigation(classifier: UrlClassifier) -> None:
    article_scores = [classifier.probability(u) for u in ARTICLES]
    other_scores = [classifier.probability(u) for u in NON_ARTICLES]
    assert all(0.0 <= p <= 1.0 for p in article_scores + other_scores)
    assert min(article_scores) >= 0.5 > max(other_scores), (article_scores, other_scores)
    assert classifier.probability(ID_ONLY_ARTICLE) > max(other_scores)


def test_vectorised_equals_scalar() -> None:
    urls = ARTICLES + NON_ARTICLES + [ID_ONLY_ARTICLE, "javascript:void(0)", "https://example.com/a/b/c/d/e/f/g/h/" + "x" * 300]
    # separate instances, so neither answer comes from the other's memo
    batch = UrlClassifier.load().probabilities(urls + urls[:3])
    scalar = [UrlClassifier.load().probability(u) for u in urls]
    assert batch == scalar + scalar[:3]
    assert UrlClassifier.load().probabilities([]) == []


def test_memo_is_bounded_and_consistent() -> None:
    small = UrlClassifier(UrlClassifier.load().model, cache_size=4)
    fresh = UrlClassifier.load()
    urls = ARTICLES + NON_ARTICLES
    assert small.probabilities(urls) == fresh.probabilities(urls)
    assert [small.probability(u) for u in reversed(urls)] == [fresh.probability(u) for u in reversed(urls)]
    assert len(small._cache) <= 4


def test_extra_reserved_words() -> None:
    plain = UrlClassifier.load()
    extended = UrlClassifier.load(extra_reserved_words=["Dossier"])
    url = "https://news.example.com/dossier/elections/"
    same_shape = "https://news.example.com/section/elections/"  # "section" is a built-in reserved word
    index = FEATURE_NAMES.index("has_reserved_word")
    assert plain.features(url)[index] == 0.0
    assert extended.features(url)[index] == 1.0
    assert extended.probability(url) == plain.probability(same_shape)


def test_default_classifier_is_loaded_once() -> None:
    assert default_classifier() is default_classifier()
    assert default_classifier().probability(ARTICLES[0]) == UrlClassifier.load().probability(ARTICLES[0])


def _shipped() -> dict:
    return json.loads((models_dir() / "url_classifier.json").read_text(encoding="utf-8"))


def test_tampered_model_refused(tmp_path: Path) -> None:
    body = _shipped()
    body["trees"][0]["threshold"][0] += 1.0  # edited after training, checksum kept
    path = tmp_path / "url_classifier.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    with pytest.raises(ModelError, match="checksum"):
        UrlClassifier.load(path)


def test_model_for_other_features_refused(tmp_path: Path) -> None:
    body = _shipped()
    body["features"] = list(reversed(body["features"]))
    path = tmp_path / "url_classifier.json"
    save_model(body, path)  # a valid checksum, but not our feature order
    with pytest.raises(ModelError, match="features"):
        UrlClassifier.load(path)


def test_missing_model_refused(tmp_path: Path) -> None:
    with pytest.raises(ModelError):
        UrlClassifier.load(tmp_path / "absent.json")
