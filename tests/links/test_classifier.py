"""The shipped URL classifier: loads safely, ranks article links first, both code paths agree."""

from __future__ import annotations

import gzip
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


def _fake_datasets(root: Path) -> None:
    """A tiny wcxb-dev / newspaper-urls pair: 30 article sites, 30 other sites, rel-marked links."""
    wcxb = root / "datasets" / "wcxb-dev"
    (wcxb / "pages").mkdir(parents=True)
    rows = []
    for i in range(60):
        article = i % 2 == 0
        site = f"site{i}.example"
        url = (f"https://www.{site}/2024/05/{i % 28 + 1:02d}/council-votes-on-plan-number-{i}/" if article
               else f"https://www.{site}/" + ("category/news/" if i % 4 == 1 else "products/"))
        links = (
            f'<a rel="tag" href="/tag/topic-{i}/">t</a><a href="/tag/x/" rel="category tag">c</a>'
            f'<a rel="bookmark" href="https://www.{site}/another-long-story-about-the-plan/">b</a>'
            f'<a rel="author" href="https://elsewhere.example/author/x/">off-site</a>'
            f'<a rel="bookmark tag" href="/both/">both</a>'
        )
        path = f"pages/{i:04d}.html.gz"
        (wcxb / path).write_bytes(gzip.compress(f"<html><body>{links}</body></html>".encode()))
        rows.append({"id": f"{i:04d}", "path": path, "url": url, "site": site, "is_article": article})
    (wcxb / "truth.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    urls = root / "datasets" / "newspaper-urls"
    urls.mkdir(parents=True)
    (urls / "truth.jsonl").write_text(
        json.dumps({"id": "01", "url": "https://www.site0.example/about/", "is_article": False}) + "\n"
        + json.dumps({"id": "02", "url": rows[0]["url"], "is_article": False}) + "\n",  # conflicts: dropped
        encoding="utf-8",
    )


def test_rel_labelled_links(tmp_path: Path) -> None:
    from newscrawl.train.urls import load_labelled_urls, load_rel_labelled_links

    _fake_datasets(tmp_path)
    gold, counts = load_labelled_urls(tmp_path / "datasets")
    assert counts["conflicting"] == 1 and counts["used"] == 60
    links = {r.url: r.is_article for r in load_rel_labelled_links(tmp_path / "datasets")}
    assert links["https://www.site3.example/tag/topic-3/"] is False
    assert links["https://www.site3.example/tag/x/"] is False
    assert links["https://www.site3.example/another-long-story-about-the-plan/"] is True
    assert not any("elsewhere.example" in u or u.endswith("/both/") for u in links)


def test_train_command_writes_a_loadable_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    import newscrawl.train.urls as train

    _fake_datasets(tmp_path)
    monkeypatch.setenv("NEWSCRAWL_SHARED_DIR", str(tmp_path))
    # a small grid keeps the nested cross-validation quick; the real grids run in `newscrawl train urls`
    monkeypatch.setattr(train, "TREE_GRID", {"min_samples_leaf": (1, 5), "ccp_alpha": (0.0,)})
    monkeypatch.setattr(train, "FOREST_GRID", {"kind": ("extra_trees",), "min_samples_leaf": (1,), "max_features": ("sqrt",)})
    monkeypatch.setattr(train, "N_ESTIMATORS", 5)
    parser = argparse.ArgumentParser()
    train.add_arguments(parser)
    out = tmp_path / "models" / "url_classifier.json"
    assert train.run(parser.parse_args(["--out", str(out), "--seed", "3"])) == 0
    model = UrlClassifier.load(out)
    assert model.model.meta["seed"] == 3 and model.model.meta["counts"]["used"] == 60
    assert model.probability(ARTICLES[0]) > model.probability(NON_ARTICLES[2])
    card = out.with_suffix(".md").read_text(encoding="utf-8")
    assert "--seed 3" in card and "| precision | recall | F1 |" in card
