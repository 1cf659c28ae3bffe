"""Wang et al.'s geometry features and the safe SVM format, on hand-made render rows (no browser needed)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from newscrawl.classify import wang

# parent, tag, left, top, width, height, own text, font size — as the browser script returns them
ROWS = [
    [-1, "body", 0, 0, 1366, 3000, "", 16],
    [0, "div", 0, 0, 1366, 60, "Menu Home News Sport", 14],  # 1: navigation bar
    [0, "h1", 300, 100, 700, 50, "Council approves the new harbour budget", 32],  # 2: title
    [0, "div", 300, 170, 700, 2000, "", 16],  # 3: body
    [3, "p", 300, 170, 700, 100, "The council voted on Tuesday to approve the budget for the harbour.", 16],
    [3, "p", 300, 280, 700, 100, "Work starts in spring and ends next year, officials said.", 16],
    [4, "b", 300, 170, 50, 20, "Tuesday", 16],
    [3, "p", 300, 1700, 700, 100, "This paragraph starts beyond the second screen and is not counted.", 16],
]


def test_layout_counts_subtrees_over_the_first_two_screens():
    nodes = wang.layout(ROWS)
    body = nodes[3]
    assert body.end == 7
    assert body.fmt == 3  # p, p, b (the third p starts below 2 × 768 px)
    assert body.text == len(ROWS[4][6]) + len(ROWS[5][6]) + len("Tuesday")
    assert body.fmt_text == body.text  # all of it inside formatting elements
    assert nodes[0].text == body.text + len(ROWS[1][6]) + len(ROWS[2][6])


def test_body_and_title_features_follow_seed_001():
    nodes = wang.layout(ROWS)
    cands, X = wang.body_candidates(nodes)
    row = X[[c.index for c in cands].index(3)]
    feats = dict(zip(wang.BODY_FEATURES, row))
    assert feats["fmt_share"] == 1.0 and feats["fmt_text_share"] == 1.0
    assert feats["area_share"] == pytest.approx(700 * (1536 - 170) / (1366 * 1536))
    tcands, T = wang.title_candidates(nodes, nodes[3])
    title = dict(zip(wang.TITLE_FEATURES, T[[c.index for c in tcands].index(2)]))
    assert title["v_distance"] == pytest.approx((170 - 150) / 768)  # signed: title bottom to body top
    assert title["h_overlap"] == pytest.approx(700 / 1366)
    assert title["no_full_stop"] == 1.0 and title["words"] == 6 and title["font_ratio"] == 1.0
    para = dict(zip(wang.TITLE_FEATURES, T[[c.index for c in tcands].index(4)]))
    assert para["no_full_stop"] == 0.0 and para["v_distance"] < 0


def _fit():
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC

    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, len(wang.BODY_FEATURES)))
    y = (X[:, 0] + X[:, 1] ** 2 > 0.5).astype(int)
    scaler = StandardScaler().fit(X)
    svc = SVC(kernel="rbf", gamma="scale").fit(scaler.transform(X), y)
    return X, scaler, svc


def test_exported_svm_decides_like_sklearn_and_round_trips(tmp_path):
    X, scaler, svc = _fit()
    body = wang.export_svm(scaler, svc)
    title = dict(body, mean=[0.0] * len(wang.TITLE_FEATURES), scale=[1.0] * len(wang.TITLE_FEATURES),
                 support=[[0.0] * len(wang.TITLE_FEATURES)], dual=[1.0])
    path = tmp_path / "svm.json"
    wang.save_models(body, title, {"note": "test"}, path)
    body_svm, _title_svm, meta = wang.load_models(path)
    np.testing.assert_allclose(body_svm.decision(X), svc.decision_function(scaler.transform(X)), rtol=1e-9, atol=1e-9)
    assert meta == {"note": "test"}


def test_tampered_or_malformed_svm_is_refused(tmp_path):
    X, scaler, svc = _fit()
    body = wang.export_svm(scaler, svc)
    title = dict(body, mean=[0.0] * len(wang.TITLE_FEATURES), scale=[1.0] * len(wang.TITLE_FEATURES),
                 support=[[0.0] * len(wang.TITLE_FEATURES)], dual=[1.0])
    path = tmp_path / "svm.json"
    wang.save_models(body, title, {}, path)
    payload = json.loads(path.read_text())
    payload["body"]["intercept"] += 1
    path.write_text(json.dumps(payload))
    with pytest.raises(wang.ModelError, match="checksum"):
        wang.load_models(path)
    wang.save_models(dict(body, dual=body["dual"][:-1]), title, {}, path)
    with pytest.raises(wang.ModelError, match="support vectors"):
        wang.load_models(path)
    wang.save_models(dict(body, gamma=-1.0), title, {}, path)
    with pytest.raises(wang.ModelError, match="finite"):
        wang.load_models(path)
