"""The JSON tree format: averaged and boosted ensembles predict exactly as scikit-learn does, and
malformed or edited files are refused."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn.ensemble import ExtraTreesClassifier, HistGradientBoostingClassifier

from newscrawl.modelio import ModelError, export_trees, load_model, save_model

NAMES = [f"f{i}" for i in range(6)]


def _data(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(400, len(NAMES)))
    y = (X[:, 0] + 0.5 * X[:, 1] * X[:, 2] + rng.normal(scale=0.3, size=len(X))) > 0
    return X, y


def test_boosted_model_predicts_as_sklearn_including_missing_values(tmp_path):
    X, y = _data()
    X[::9, 1] = np.nan  # trained with gaps, so nodes learn where a missing value goes
    model = HistGradientBoostingClassifier(max_iter=60, random_state=0).fit(X, y)
    path = tmp_path / "boosted.json"
    save_model(export_trees(model, NAMES, {"note": "test"}), path)
    loaded = load_model(path)
    assert loaded.boosted and loaded.kind == "HistGradientBoostingClassifier" and len(loaded.trees) == 60
    test, _ = _data(1)
    test[::4, 1] = np.nan
    test[::5, 2] = np.nan
    np.testing.assert_allclose(loaded.predict_proba(test), model.predict_proba(test), rtol=0, atol=1e-12)
    assert loaded.positive_proba(test).shape == (len(test),)


def test_averaged_model_is_not_boosted_and_still_matches(tmp_path):
    X, y = _data()
    model = ExtraTreesClassifier(n_estimators=20, random_state=0).fit(X, y)
    path = tmp_path / "extra.json"
    save_model(export_trees(model, NAMES), path)
    loaded = load_model(path)
    assert not loaded.boosted
    np.testing.assert_allclose(loaded.predict_proba(X), model.predict_proba(X), atol=1e-6)


@pytest.mark.parametrize("damage", ["baseline", "missing_left", "value_columns"])
def test_malformed_boosted_files_are_refused(tmp_path, damage):
    X, y = _data()
    body = export_trees(HistGradientBoostingClassifier(max_iter=5, random_state=0).fit(X, y), NAMES)
    if damage == "baseline":
        body["baseline"] = "nan"
        expected = "baseline"
    elif damage == "missing_left":
        body["trees"][0]["missing_left"] = body["trees"][0]["missing_left"][:-1]
        expected = "inconsistent lengths"
    else:
        body["trees"][0]["value"] = [[v[0], 0.0] for v in body["trees"][0]["value"]]
        expected = "wrong shape"
    path = tmp_path / "bad.json"
    save_model(body, path)  # a valid checksum: the contents themselves must be checked
    with pytest.raises(ModelError, match=expected):
        load_model(path)


def test_edited_boosted_file_fails_its_checksum(tmp_path):
    X, y = _data()
    path = tmp_path / "boosted.json"
    save_model(export_trees(HistGradientBoostingClassifier(max_iter=5, random_state=0).fit(X, y), NAMES), path)
    body = json.loads(path.read_text())
    body["baseline"] += 1.0
    path.write_text(json.dumps(body))
    with pytest.raises(ModelError, match="checksum"):
        load_model(path)


def test_url_model_refuses_a_boosted_file(tmp_path):
    from newscrawl.links.classifier import UrlClassifier
    from newscrawl.links.features import FEATURE_NAMES as URL_FEATURES

    rng = np.random.default_rng(0)
    X = rng.random((200, len(URL_FEATURES)))
    y = X[:, 0] > 0.5
    path = tmp_path / "boosted_urls.json"
    save_model(export_trees(HistGradientBoostingClassifier(max_iter=5, random_state=0).fit(X, y), URL_FEATURES), path)
    model = load_model(path)
    with pytest.raises(ModelError, match="averaged tree ensemble"):
        UrlClassifier(model)
