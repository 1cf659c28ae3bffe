"""The JSON tree format: averaged and boosted ensembles predict exactly as scikit-learn does, and
malformed or edited files are refused."""

from __future__ import annotations

import json
import warnings

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


def _reference_walk(model, row) -> float:
    """P(positive) by walking each tree node by node: left when x <= threshold, or when x is NaN and
    the node sends missing values left (the definition the vectorised walk must keep)."""
    raw = model.baseline
    for tree in model.trees:
        node = 0
        while tree.left[node] >= 0:
            x = row[tree.feature[node]]
            go_left = x <= tree.threshold[node] or (np.isnan(x) and bool(tree.missing_left[node]))
            node = tree.left[node] if go_left else tree.right[node]
        raw += tree.value[node, 0]
    return 1.0 / (1.0 + np.exp(-raw))


def test_boosted_walk_follows_missing_values_and_odd_thresholds_node_by_node(tmp_path):
    """NaN, infinite and ordinary thresholds, missing values sent left or right, and rows holding
    NaN and infinities: one row at a time and all rows at once, as the node-by-node definition."""
    rng = np.random.default_rng(3)
    specials = [np.nan, np.inf, -np.inf, 0.0, 0.5]
    trees = []
    for _ in range(12):  # complete trees of depth 3: internal nodes 0-6, leaves 7-14, children after parents
        left = [2 * i + 1 if i < 7 else -1 for i in range(15)]
        right = [2 * i + 2 if i < 7 else -1 for i in range(15)]
        threshold = [float(rng.choice(specials)) if rng.random() < 0.5 else float(rng.normal()) for _ in range(15)]
        trees.append({"left": left, "right": right,
                      "feature": [int(rng.integers(0, len(NAMES))) if i < 7 else -1 for i in range(15)],
                      "threshold": threshold, "value": [[float(rng.normal())] for _ in range(15)],
                      "missing_left": [bool(rng.random() < 0.5) for _ in range(15)]})
    body = {"format": "newscrawl-trees/1", "kind": "HistGradientBoostingClassifier", "features": NAMES,
            "classes": [False, True], "trees": trees, "baseline": 0.25, "meta": {}}
    path = tmp_path / "odd.json"
    save_model(body, path)
    loaded = load_model(path)
    X = rng.normal(size=(300, len(NAMES)))
    X[rng.random(X.shape) < 0.2] = np.nan
    X[rng.random(X.shape) < 0.1] = np.inf
    X[rng.random(X.shape) < 0.1] = -np.inf
    X[rng.random(X.shape) < 0.1] = 0.0
    expected = [_reference_walk(loaded, row) for row in X]
    np.testing.assert_allclose(loaded.positive_proba(X), expected, rtol=1e-12, atol=0)  # sums in another order
    np.testing.assert_allclose([loaded.positive_proba(row)[0] for row in X], expected, rtol=1e-12, atol=0)


def _reference_averaged(model, row) -> float:
    """P(positive) of an averaged ensemble node by node, as sklearn reads it: the feature as float32,
    compared in double precision with the double threshold."""
    with np.errstate(over="ignore"):  # 1e300 is inf as float32
        x = np.asarray(row, dtype=np.float32).astype(np.float64)
    leaves = []
    for tree in model.trees:
        node = 0
        while tree.left[node] >= 0:
            node = tree.left[node] if x[tree.feature[node]] <= tree.threshold[node] else tree.right[node]
        leaves.append(tree.value[node, 1])
    return float(np.mean(leaves))  # summed as the walk sums


def test_averaged_walk_compares_as_sklearn_at_float32_boundaries(tmp_path):
    """The walk compares float32 features with thresholds rounded down to float32; the answers must be
    those of float32 features against the double thresholds, also for thresholds between two adjacent
    float32 values (sklearn's midpoints), on a float32 value, beyond float32's range, infinite or NaN,
    and for rows holding those neighbours, NaN and infinities."""
    rng = np.random.default_rng(5)
    base = rng.normal(size=4).astype(np.float32)  # few, so rows often meet the thresholds beside them
    up = np.nextafter(base, np.float32(np.inf))
    midpoints = (base.astype(np.float64) + up.astype(np.float64)) / 2  # not float32 values
    specials = [np.nan, np.inf, -np.inf, 1e300, -1e300, 3.5e38, float(np.finfo(np.float32).max)]
    pool = list(midpoints) + list(base.astype(np.float64)) + specials
    trees = []
    for _ in range(15):  # complete trees of depth 3
        left = [2 * i + 1 if i < 7 else -1 for i in range(15)]
        right = [2 * i + 2 if i < 7 else -1 for i in range(15)]
        p = rng.random(15)
        trees.append({"left": left, "right": right,
                      "feature": [int(rng.integers(0, len(NAMES))) if i < 7 else -1 for i in range(15)],
                      "threshold": [float(rng.choice(pool)) for _ in range(15)],
                      "value": [[1.0 - float(v), float(v)] for v in p]})
    body = {"format": "newscrawl-trees/1", "kind": "RandomForestClassifier", "features": NAMES,
            "classes": [False, True], "trees": trees, "meta": {}}
    path = tmp_path / "boundaries.json"
    save_model(body, path)
    loaded = load_model(path)
    values = np.concatenate([base, up, np.nextafter(base, np.float32(-np.inf))]).astype(np.float64)
    values = np.concatenate([values, midpoints, [np.nan, np.inf, -np.inf, 1e300, -1e300, 3.5e38]])
    X = rng.choice(values, size=(400, len(NAMES)))
    with warnings.catch_warnings():  # values past float32's range (a damaged page's sizes) are
        warnings.simplefilter("error")  # ±inf without a RuntimeWarning in the crawl's log
        predicted = loaded.positive_proba(X)
        one_by_one = [loaded.positive_proba(row)[0] for row in X[:100]]
    expected = [_reference_averaged(loaded, row) for row in X]
    assert np.array_equal(predicted, expected)
    assert np.array_equal(one_by_one, expected[:100])


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


def test_a_reformatted_but_unedited_file_still_passes_its_checksum(tmp_path):
    """An unedited file is checked from its text; the same payload written another way (indented, keys
    in another order) is checked from its canonical form: both load, and predict the same."""
    X, y = _data()
    path = tmp_path / "boosted.json"
    save_model(export_trees(HistGradientBoostingClassifier(max_iter=5, random_state=0).fit(X, y), NAMES), path)
    expected = load_model(path).predict_proba(X)
    body = json.loads(path.read_text())
    path.write_text(json.dumps(dict(reversed(list(body.items()))), indent=2))
    assert np.array_equal(load_model(path).predict_proba(X), expected)
    body.pop("sha256")
    path.write_text(json.dumps(body, sort_keys=True, separators=(",", ":")))
    with pytest.raises(ModelError, match="checksum"):
        load_model(path)
