"""The page classifier's text model: the safe linear format, its checks, and its place in the page model."""

from __future__ import annotations

import json
import random
import shutil

import numpy as np
import pytest

from newscrawl import modelio
from newscrawl.classify.page import MODEL_FEATURES, WORDS_MODEL_FILE, first_pass_file, load, page_model_file, text_model_file
from newscrawl.classify.text import MAX_CHARS, TEXT_FEATURES, headline_text, page_text, text_inputs, text_probabilities, vectorize
from newscrawl.extract.api import extraction_evidence
from newscrawl.page import Page
from newscrawl.paths import models_dir
from tests.classify.bare import feature_vector, probability

SETTINGS = {"analyzer": "char_wb", "ngram_range": [3, 5], "n_features": 2 ** 12, "lowercase": True}
STORY = "council budget river school market storm court election museum harbour police library".split()
SHOP = "price cart checkout delivery basket discount order returns warranty stock size colour".split()


def _texts(words: list[str], n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choice(words) for _ in range(60)) for _ in range(n)]


def _fitted():
    from sklearn.linear_model import SGDClassifier

    texts = _texts(STORY, 30, 1) + _texts(SHOP, 30, 2)
    y = np.array([True] * 30 + [False] * 30)
    model = SGDClassifier(loss="log_loss", alpha=1e-5, random_state=0).fit(vectorize(texts, SETTINGS), y)
    return model, texts


def test_saved_linear_model_predicts_as_sklearn(tmp_path):
    model, texts = _fitted()
    path = tmp_path / "text.json"
    modelio.save_model(modelio.export_linear(model, SETTINGS, {"note": "test"}), path)
    loaded = modelio.load_linear(path)
    new = _texts(STORY, 5, 3) + _texts(SHOP, 5, 4) + ["", "council checkout river basket"]
    X = vectorize(new, loaded.vectorizer)
    ours, theirs = loaded.positive_proba(X), model.predict_proba(vectorize(new, SETTINGS))[:, 1]
    assert np.abs(ours - theirs).max() < 1e-6
    assert (ours[:5] > 0.5).all() and (ours[5:10] < 0.5).all()
    assert loaded.meta == {"note": "test"} and len(loaded.digest) == 64


def test_tampered_or_malformed_linear_model_is_refused(tmp_path):
    model, _ = _fitted()
    payload = modelio.export_linear(model, SETTINGS)
    path = tmp_path / "text.json"
    modelio.save_model(payload, path)
    body = json.loads(path.read_text(encoding="utf-8"))
    body["weights"][7] += 1.0
    path.write_text(json.dumps(body), encoding="utf-8")
    with pytest.raises(modelio.ModelError, match="checksum"):
        modelio.load_linear(path)
    # checksums intact but contents wrong: validation refuses each
    for key, value in (("vectorizer", dict(SETTINGS, analyzer="os.system")),
                       ("vectorizer", dict(SETTINGS, n_features=2 ** 13)),
                       ("vectorizer", dict(SETTINGS, ngram_range=[5, 3])),
                       ("vectorizer", dict(SETTINGS, preprocessor="x")),
                       ("weights", payload["weights"][:-1] + [float("nan")]),
                       ("intercept", "1; import os")):
        modelio.save_model(dict(payload, **{key: value}), path)
        with pytest.raises(modelio.ModelError):
            modelio.load_linear(path)
    modelio.save_model(modelio.export_trees(_tree(), ["a", "b"]), path)
    with pytest.raises(modelio.ModelError, match="format"):
        modelio.load_linear(path)


def _tree():
    from sklearn.tree import DecisionTreeClassifier

    return DecisionTreeClassifier(random_state=0).fit([[0, 1], [1, 0], [1, 1], [0, 0]], [True, False, True, False])


def test_page_text_reads_headline_title_and_body_and_is_bounded():
    page = Page.from_html("<html><head><title>Winter storms</title></head><body><nav>Home</nav>"
                          f"<p>The river rose.</p><p>{'x ' * MAX_CHARS}</p></body></html>", "https://example.com/a")
    text = page_text(page, "Storms close roads")
    assert text.startswith("Storms close roads\nWinter storms\n") and "The river rose." in text and "Home" in text
    assert len(text) == MAX_CHARS
    assert page_text(page, None).startswith("\nWinter storms\n")
    assert headline_text(page, "Storms close roads") == "Storms close roads\nWinter storms"


def test_words_page_model_reads_its_text_models_last():
    words = page_model_file("words")
    assert words == str(models_dir() / WORDS_MODEL_FILE)
    model, texts = load(words)
    assert model.features == MODEL_FEATURES and model.features[-len(TEXT_FEATURES):] == TEXT_FEATURES
    for name in TEXT_FEATURES:
        assert model.meta["text_models"][name] == {"file": text_model_file(WORDS_MODEL_FILE, name), "sha256": texts[name].digest}
        card = (models_dir() / text_model_file(WORDS_MODEL_FILE, name)).with_suffix(".md").read_text(encoding="utf-8")
        assert "newscrawl train page" in card and "F1" in card
    html = ("<html><head><title>Council approves river budget</title></head><body><article><h1>Council approves "
            "river budget</h1>" + "<p>The council voted on Tuesday to fund flood defences along the river.</p>" * 6
            + "</article></body></html>")
    page = Page.from_html(html, "https://example.com/news/council.html")  # undated: the words model's own answer
    article, _ = extraction_evidence(page)
    p_texts = text_probabilities(texts, text_inputs(page, article.title))
    assert len(p_texts) == len(TEXT_FEATURES) and all(0.0 <= p <= 1.0 for p in p_texts)
    expected = model.positive_proba([feature_vector(page) + p_texts])[0]
    assert probability(page, model_path=words) == pytest.approx(expected)
    assert page_model_file("words", Page.from_html(html)) is None  # URL-less pages keep their model
    assert page_model_file(None) == page_model_file("default") == words  # the words model is the default
    assert page_model_file("plain") is None  # probability()'s own choice: the model that reads no words


def test_page_model_refuses_a_text_model_it_was_not_trained_with(tmp_path):
    names = [WORDS_MODEL_FILE] + [text_model_file(WORDS_MODEL_FILE, name) for name in TEXT_FEATURES]
    good, bad = tmp_path / "good", tmp_path / "bad"  # two folders: load() caches by path
    for folder in (good, bad):
        folder.mkdir()
        for name in names:
            shutil.copy(models_dir() / name, folder / name)
    load(str(good / WORDS_MODEL_FILE))  # the set as shipped loads
    text_file = text_model_file(WORDS_MODEL_FILE, TEXT_FEATURES[0])
    shipped = json.loads((models_dir() / text_file).read_text(encoding="utf-8"))
    shipped.pop("sha256")
    shipped["weights"] = [0.0] * len(shipped["weights"])  # a valid text model, but another one
    modelio.save_model(shipped, bad / text_file)
    with pytest.raises(modelio.ModelError, match="not the one it was trained with"):
        load(str(bad / WORDS_MODEL_FILE))


def test_page_model_naming_a_path_instead_of_a_file_is_refused(tmp_path):
    body = json.loads((models_dir() / WORDS_MODEL_FILE).read_text(encoding="utf-8"))
    body.pop("sha256")
    for k, name in enumerate(("../page_classifier_words_text.json", "/etc/passwd", "..", None)):
        body["meta"]["text_models"] = {feature: {"file": name, "sha256": "0" * 64} for feature in TEXT_FEATURES}
        path = tmp_path / f"model{k}.json"
        modelio.save_model(body, path)
        with pytest.raises(modelio.ModelError, match="names no valid text model"):
            load(str(path))
    body["meta"]["text_models"] = ["not", "a", "mapping"]
    modelio.save_model(body, tmp_path / "listed.json")
    with pytest.raises(modelio.ModelError, match="names no valid text model"):
        load(str(tmp_path / "listed.json"))


def test_page_model_reading_text_features_out_of_order_is_refused(tmp_path):
    body = json.loads((models_dir() / WORDS_MODEL_FILE).read_text(encoding="utf-8"))
    body.pop("sha256")
    for k, texts in enumerate((TEXT_FEATURES[::-1], ("text_model", "text_model"), ("text_model", "other_model"))):
        body["features"] = body["features"][:-len(TEXT_FEATURES)] + list(texts)
        path = tmp_path / f"model{k}.json"
        modelio.save_model(body, path)
        with pytest.raises(modelio.ModelError, match="other features"):
            load(str(path))


def test_extract_and_the_pipeline_setting_pick_the_page_model():
    from scrapy.utils.test import get_crawler

    import newscrawl
    from newscrawl.pipelines import ExtractionPipeline

    html = ("<html><head><title>Council approves river budget</title></head><body><article><h1>Council approves "
            "river budget</h1>" + "<p>The council voted on Tuesday to fund flood defences along the river.</p>" * 6
            + "</article></body></html>")
    url = "https://example.com/2025/03/04/council.html"
    page = Page.from_html(html, url)
    default, plain = newscrawl.extract(html, url), newscrawl.extract(html, url, page_model="plain")
    words = newscrawl.extract(html, url, page_model="words")
    assert plain.probability == pytest.approx(probability(page))
    assert words.probability == pytest.approx(probability(page, model_path=page_model_file("words")))
    assert default.probability == pytest.approx(probability(page, model_path=page_model_file("default"),
                                                            first_pass=first_pass_file("default", page)))
    assert ExtractionPipeline(get_crawler(settings_dict={"NEWSCRAWL_PAGE_MODEL": "plain"})).page_model == "plain"


@pytest.mark.parametrize("settings", [SETTINGS, {"analyzer": "word", "ngram_range": [1, 2], "n_features": 2 ** 18,
                                                 "lowercase": True}])
def test_vectorize_equals_hashing_vectorizer_then_normalize_bit_for_bit(settings):
    """vectorize() skips sklearn's per-call checks; its rows must stay those of HashingVectorizer.transform,
    log1p and sklearn.preprocessing.normalize, to the last bit (the shipped models read them)."""
    from sklearn.feature_extraction.text import HashingVectorizer
    from sklearn.preprocessing import normalize

    rng = random.Random(5)
    alphabet = "ab cdé\nfg1_ÄÖß’ǅ\t.-"
    texts = (_texts(STORY, 5, 6) + ["", " ", "a", "x" * 3000, "Straße ÜBER ǅemal don’t 12 ab_cd"]
             + ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 400))) for _ in range(200)])
    reference = HashingVectorizer(analyzer=settings["analyzer"], ngram_range=tuple(settings["ngram_range"]),
                                  n_features=settings["n_features"], lowercase=settings["lowercase"],
                                  alternate_sign=False, norm=None, dtype=np.float64)
    for batch in [texts] + [[t] for t in texts]:
        expected = reference.transform(batch).tocsr()
        expected.data = np.log1p(expected.data)
        expected = normalize(expected)
        ours = vectorize(batch, settings)
        assert type(ours) is type(expected) and ours.shape == expected.shape
        assert np.array_equal(ours.indptr, expected.indptr) and np.array_equal(ours.indices, expected.indices)
        assert ours.data.tobytes() == expected.data.tobytes()
