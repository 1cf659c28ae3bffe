"""A model file format that cannot execute code when loaded: tree ensembles as checked JSON.

Two kinds of ensembles: averaged class-probability trees (DecisionTree, RandomForest,
ExtraTrees) and boosted trees (HistGradientBoosting, binary): leaves hold additive log-odds, the
model adds them to a baseline and applies the logistic function.

scikit-learn's own persistence (pickle, joblib) runs arbitrary code on load, and even skops has
had code-execution CVEs. Our models are small trees, so we export their arrays to JSON and predict
with numpy. Loading validates every array (lengths, child indices pointing strictly forward, feature
indices in range) so a crafted file cannot make prediction loop or index out of bounds, and a
SHA-256 over the canonical payload refuses files that were edited after training.

Use :func:`export_trees` after fitting, :func:`save_model` to write, :func:`load_model` to read.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

FORMAT = "newscrawl-trees/1"
_MAX_NODES = 2_000_000


class ModelError(ValueError):
    """A model file is missing, malformed, tampered with, or does not fit the features given."""


def _digest(payload: Mapping[str, Any]) -> str:
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()


@dataclass(frozen=True)
class Tree:
    left: np.ndarray
    right: np.ndarray
    feature: np.ndarray
    threshold: np.ndarray
    value: np.ndarray  # (n_nodes, n_classes) class probabilities, or (n_nodes, 1) log-odds (boosted)
    missing_left: np.ndarray | None = None  # boosted trees: where a NaN feature goes


@dataclass(frozen=True)
class TreeModel:
    """A fitted decision tree or tree ensemble, ready to predict class probabilities.

    ``baseline`` is None for averaged trees; for boosted trees it is the log-odds every
    prediction starts from."""

    kind: str
    features: tuple[str, ...]
    classes: tuple[Any, ...]
    trees: tuple[Tree, ...]
    meta: dict[str, Any] = field(default_factory=dict)
    baseline: float | None = None

    @property
    def boosted(self) -> bool:
        return self.baseline is not None

    @functools.cached_property
    def _walk(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
        """Every tree's arrays concatenated, so one numpy step per level walks all trees at once.
        Node i is numbered 2i: ``children[2i + go_left]`` is 2 x its next node, and ``feature`` and
        ``threshold`` are repeated at 2i and 2i + 1, so a step is four gathers, a comparison and an
        addition (the step count, not the array sizes, is the cost of a page's few rows). Leaves
        point to themselves, so every (row, tree) pair takes the same number of steps (the deepest
        tree's depth), no masks. A boosted tree's NaN goes left where ``missing_left`` says so:
        such a node reads the feature from a copy of the row with NaN as -inf (or, under a NaN
        threshold, from a column that is 0 for NaN only, against 0.5), see :meth:`predict_proba`.
        An averaged tree's thresholds are rounded down to float32: a float32 feature is <= a threshold
        exactly when it is <= the largest float32 not above it, so the walk gathers and compares
        float32 and gives sklearn's answers (float32 features against double thresholds)."""
        n_features = len(self.features)
        roots = np.cumsum([0] + [len(t.left) for t in self.trees][:-1]).astype(np.int64)
        left = np.concatenate([np.where(t.left >= 0, t.left + o, -1) for t, o in zip(self.trees, roots)])
        right = np.concatenate([np.where(t.right >= 0, t.right + o, -1) for t, o in zip(self.trees, roots)])
        leaf = left < 0
        node = np.arange(len(left))
        children = 2 * np.stack([np.where(leaf, node, right), np.where(leaf, node, left)], axis=1).ravel()
        feature = np.concatenate([np.maximum(t.feature, 0) for t in self.trees])
        threshold = np.concatenate([t.threshold for t in self.trees])
        if self.boosted:
            missing_left = np.concatenate([t.missing_left for t in self.trees])
            nan_only = missing_left & np.isnan(threshold)  # only a NaN goes left: x <= NaN never holds
            feature = feature + n_features * missing_left + n_features * nan_only
            threshold = np.where(nan_only, 0.5, threshold)
        else:
            with np.errstate(over="ignore"):  # a threshold beyond float32's range becomes inf, then its maximum
                rounded = threshold.astype(np.float32)
            above = rounded.astype(np.float64) > threshold  # rounded up (or past the range to inf)
            rounded[above] = np.nextafter(rounded[above], np.float32(-np.inf))
            threshold = rounded
        value = np.concatenate([t.value for t in self.trees])
        depth = np.zeros(len(left), dtype=np.int64)
        for i in np.flatnonzero(~leaf):  # children come after their parent (validated on load)
            depth[left[i]] = depth[right[i]] = depth[i] + 1
        return 2 * roots, children, np.repeat(feature, 2), np.repeat(threshold, 2), value, int(depth.max())

    def predict_proba(self, X: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
        arr = np.asarray(X, dtype=np.float64)
        if arr.ndim == 1:
            arr = arr.reshape(1, -1)
        if arr.shape[1] != len(self.features):
            raise ModelError(f"model expects {len(self.features)} features, got {arr.shape[1]}")
        if self.boosted:  # the row, the row with NaN as -inf, 0 where NaN else 1 (see _walk)
            nan = np.isnan(arr)
            table = np.concatenate([arr, np.where(nan, -np.inf, arr), (~nan).astype(np.float64)], axis=1)
        else:  # sklearn's trees compare float32 features (against the thresholds rounded in _walk)
            with np.errstate(over="ignore"):  # a value past float32's range is ±inf, as it compares
                table = arr.astype(np.float32)
        roots, children, feature, threshold, value, depth = self._walk
        n, t = arr.shape[0], len(roots)
        at = np.tile(roots, n)  # row r, tree j at position r * t + j
        flat = table.ravel()
        # ndarray.take rather than indexing: the same gathers with less work a call (12-14 steps a call)
        if n == 1:
            for _ in range(depth):  # a leaf goes to itself either way
                at = children.take(at + (flat.take(feature.take(at)) <= threshold.take(at)))
        else:
            width = table.shape[1]
            offset = np.repeat(np.arange(0, n * width, width), t)  # where each pair's row starts in flat
            for _ in range(depth):
                at = children.take(at + (flat.take(offset + feature.take(at)) <= threshold.take(at)))
        at >>= 1
        if self.boosted:
            raw = np.full(n, self.baseline) + value[at, 0].reshape(n, t).sum(axis=1)
            positive = 1.0 / (1.0 + np.exp(-raw))
            return np.column_stack([1.0 - positive, positive])
        return np.column_stack([value[at, c].reshape(n, t).mean(axis=1) for c in range(len(self.classes))])

    def positive_proba(self, X: Sequence[Sequence[float]] | np.ndarray, positive: Any = True) -> np.ndarray:
        """Probability of the ``positive`` class for each row."""
        try:
            column = self.classes.index(positive)
        except ValueError:
            column = len(self.classes) - 1
        return self.predict_proba(X)[:, column]


def _export_boosted(estimator: Any) -> tuple[list[dict[str, Any]], float]:
    """The trees and baseline of a fitted binary HistGradientBoostingClassifier. Its predictor
    arrays are in pre-order (children after their parent), leaves have child 0 (-1 here), and
    the leaf values already include the learning rate."""
    if getattr(estimator, "n_trees_per_iteration_", 1) != 1 or len(estimator.classes_) != 2:
        raise ModelError("only binary gradient boosting models can be exported")
    if getattr(estimator, "is_categorical_", None) is not None and np.any(estimator.is_categorical_):
        raise ModelError("categorical splits cannot be exported")
    trees = []
    for (predictor,) in estimator._predictors:
        nodes = predictor.nodes
        leaf = nodes["is_leaf"].astype(bool)
        trees.append(
            {
                "left": np.where(leaf, -1, nodes["left"].astype(np.int64)).tolist(),
                "right": np.where(leaf, -1, nodes["right"].astype(np.int64)).tolist(),
                "feature": np.where(leaf, -1, nodes["feature_idx"]).tolist(),
                "threshold": [float(x) for x in nodes["num_threshold"]],
                "value": [[float(v)] for v in nodes["value"]],
                "missing_left": nodes["missing_go_to_left"].astype(bool).tolist(),
            }
        )
    return trees, float(np.ravel(estimator._baseline_prediction)[0])


def export_trees(estimator: Any, features: Sequence[str], meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Turn a fitted sklearn DecisionTreeClassifier / RandomForest / ExtraTrees /
    HistGradientBoostingClassifier (binary) into a payload."""
    classes = [c.item() if hasattr(c, "item") else c for c in estimator.classes_]
    if hasattr(estimator, "_predictors"):
        trees, baseline = _export_boosted(estimator)
        return {
            "format": FORMAT,
            "kind": type(estimator).__name__,
            "features": list(features),
            "classes": classes,
            "trees": trees,
            "baseline": baseline,
            "meta": dict(meta or {}),
        }
    estimators = getattr(estimator, "estimators_", None) or [estimator]
    trees = []
    for est in estimators:
        t = est.tree_
        value = t.value[:, 0, :].astype(np.float64)
        sums = value.sum(axis=1, keepdims=True)
        sums[sums == 0] = 1.0
        value = value / sums
        trees.append(
            {
                "left": t.children_left.tolist(),
                "right": t.children_right.tolist(),
                "feature": [int(f) if f >= 0 else -1 for f in t.feature],
                "threshold": [float(x) for x in t.threshold],
                "value": [[round(float(v), 6) for v in row] for row in value],
            }
        )
    return {
        "format": FORMAT,
        "kind": type(estimator).__name__,
        "features": list(features),
        "classes": classes,
        "trees": trees,
        "meta": dict(meta or {}),
    }


def write_checked(payload: Mapping[str, Any], path: str | Path) -> None:
    """Write a JSON payload with a SHA-256 of its canonical form (what :func:`read_checked` verifies)."""
    body = dict(payload)
    body.pop("sha256", None)
    body["sha256"] = _digest(body)
    Path(path).write_text(json.dumps(body, sort_keys=True, separators=(",", ":")) + "\n", encoding="utf-8")


def read_checked(path: str | Path, fmt: str) -> dict[str, Any]:
    """The payload of a file written by :func:`write_checked` in format ``fmt``; refuses files
    that are missing, not JSON, of another format, or modified since they were written."""
    return _read_checked(path, fmt)[0]


def _read_checked(path: str | Path, fmt: str) -> tuple[dict[str, Any], str]:
    """:func:`read_checked`'s payload and its verified SHA-256."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
        body = json.loads(text)
    except FileNotFoundError:
        raise ModelError(f"model file not found: {path}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelError(f"model file {path} is not valid JSON: {exc}") from None
    if not isinstance(body, dict) or body.get("format") != fmt:
        raise ModelError(f"model file {path} is not in format {fmt}")
    claimed = body.pop("sha256", None)
    if not isinstance(claimed, str) or (claimed != _written_digest(text, claimed) and claimed != _digest(body)):
        raise ModelError(f"model file {path} fails its checksum: it was modified after training; retrain it")
    return body, claimed


def _written_digest(text: str, claimed: str) -> str:
    """The SHA-256 of a file's text as :func:`write_checked` wrote it, without its own checksum entry:
    the canonical form itself, so an unedited file is checked without re-encoding its payload (which
    cost a worker's start a third of a second); any other text falls back to :func:`_digest`."""
    entry = f'"sha256":"{claimed}"'
    text = text.removesuffix("\n")
    stripped = text.replace("," + entry, "", 1) if "," + entry in text else text.replace(entry + ",", "", 1)
    return hashlib.sha256(stripped.encode("ascii", "replace")).hexdigest()


def save_model(payload: Mapping[str, Any], path: str | Path) -> None:
    write_checked(payload, path)


def _validate_tree(raw: Any, n_features: int, n_values: int, boosted: bool = False) -> Tree:
    if not isinstance(raw, dict):
        raise ModelError("tree is not an object")
    try:
        left = np.asarray(raw["left"], dtype=np.int64)
        right = np.asarray(raw["right"], dtype=np.int64)
        feature = np.asarray(raw["feature"], dtype=np.int64)
        threshold = np.asarray(raw["threshold"], dtype=np.float64)
        value = np.asarray(raw["value"], dtype=np.float64)
        missing_left = np.asarray(raw["missing_left"], dtype=bool) if boosted else None
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelError(f"tree arrays malformed: {exc}") from None
    n = left.shape[0]
    arrays = (right, feature, threshold, value) + ((missing_left,) if missing_left is not None else ())
    if not 0 < n <= _MAX_NODES or any(a.shape[0] != n for a in arrays):
        raise ModelError("tree arrays have inconsistent lengths")
    if left.ndim != 1 or value.ndim != 2 or value.shape[1] != n_values:
        raise ModelError("tree arrays have the wrong shape")
    idx = np.arange(n)
    internal = left >= 0
    if ((left[internal] <= idx[internal]) | (left[internal] >= n)).any():
        raise ModelError("tree child index out of order or out of range")
    if ((right[internal] <= idx[internal]) | (right[internal] >= n)).any():
        raise ModelError("tree child index out of order or out of range")
    if (right[~internal] >= 0).any():
        raise ModelError("tree leaf has a right child")
    if ((feature[internal] < 0) | (feature[internal] >= n_features)).any():
        raise ModelError("tree feature index out of range")
    if not np.isfinite(value).all():
        raise ModelError("tree values are not finite")
    return Tree(left, right, feature, threshold, value, missing_left)


def load_model(path: str | Path) -> TreeModel:
    """Read and validate a model written by :func:`save_model`; never executes code."""
    body = read_checked(path, FORMAT)
    features, classes, trees = body.get("features"), body.get("classes"), body.get("trees")
    if not isinstance(features, list) or not isinstance(classes, list) or not isinstance(trees, list) or not trees:
        raise ModelError(f"model file {path} lacks features, classes or trees")
    baseline = body.get("baseline")
    if baseline is not None:
        if not isinstance(baseline, (int, float)) or not np.isfinite(baseline) or len(classes) != 2:
            raise ModelError(f"model file {path} has a malformed boosting baseline")
        baseline = float(baseline)
    boosted = baseline is not None
    parsed = tuple(_validate_tree(t, len(features), 1 if boosted else len(classes), boosted) for t in trees)
    return TreeModel(
        kind=str(body.get("kind")),
        features=tuple(str(f) for f in features),
        classes=tuple(classes),
        trees=parsed,
        meta=body.get("meta") or {},
        baseline=baseline,
    )


LINEAR_FORMAT = "newscrawl-linear/1"
_MAX_WEIGHTS = 1 << 22
# The hashed-n-gram vectorizers a linear model may name (scikit-learn's HashingVectorizer arguments):
# an allow-list, so a model file chooses among known settings and never names code.
_ANALYZERS = ("word", "char", "char_wb")


@dataclass(frozen=True)
class LinearModel:
    """A binary logistic model over hashed n-gram counts: the vectorizer's settings are data
    (analyzer, n-gram range, number of hash buckets), the weights one dense vector."""

    kind: str
    vectorizer: dict[str, Any]
    weights: np.ndarray
    intercept: float
    meta: dict[str, Any] = field(default_factory=dict)
    digest: str = ""  # the file's verified SHA-256: a model that uses this one's output names it by this

    def positive_proba(self, X: Any) -> np.ndarray:
        """P(positive class) for rows of a (sparse) matrix with ``len(weights)`` columns."""
        if X.shape[1] != len(self.weights):
            raise ModelError(f"linear model expects {len(self.weights)} columns, got {X.shape[1]}")
        raw = np.asarray(X @ self.weights, dtype=np.float64).ravel() + self.intercept
        return 1.0 / (1.0 + np.exp(-raw))

    def positive_proba_row(self, indices: np.ndarray, values: np.ndarray) -> float:
        """P(positive class) for one sparse row given as column indices and values; the dot product
        sums in order, as SciPy's sparse product does, so it equals :meth:`positive_proba` to the bit."""
        if len(indices) and not 0 <= int(indices.min()) <= int(indices.max()) < len(self.weights):
            raise ModelError(f"linear model expects column indices below {len(self.weights)}")
        dot = np.cumsum(values * self.weights[indices])[-1] if len(indices) else 0.0
        return float((1.0 / (1.0 + np.exp(-(np.asarray([dot], dtype=np.float64) + self.intercept))))[0])


def export_linear(
    estimator: Any, vectorizer: Mapping[str, Any], meta: Mapping[str, Any] | None = None, digits: int = 7
) -> dict[str, Any]:
    """A fitted binary LogisticRegression (or SGD with log loss) as a payload; weights rounded to
    ``digits`` significant digits (probabilities move by < 1e-6) so the file stays small."""
    coef = np.asarray(estimator.coef_, dtype=np.float64)
    if coef.ndim != 2 or coef.shape[0] != 1 or len(estimator.classes_) != 2:
        raise ModelError("only binary linear models can be exported")
    classes = [c.item() if hasattr(c, "item") else c for c in estimator.classes_]
    return {
        "format": LINEAR_FORMAT,
        "kind": type(estimator).__name__,
        "classes": classes,
        "vectorizer": dict(vectorizer),
        "weights": [float(f"{w:.{digits}g}") for w in coef[0]],
        "intercept": float(np.ravel(estimator.intercept_)[0]),
        "meta": dict(meta or {}),
    }


def _validate_vectorizer(raw: Any, n_weights: int) -> dict[str, Any]:
    if not isinstance(raw, dict) or set(raw) != {"analyzer", "ngram_range", "n_features", "lowercase"}:
        raise ModelError("linear model: vectorizer settings malformed")
    ngrams = raw["ngram_range"]
    if raw["analyzer"] not in _ANALYZERS or not isinstance(raw["lowercase"], bool):
        raise ModelError("linear model: unknown analyzer")
    if (
        not isinstance(ngrams, list)
        or len(ngrams) != 2
        or not all(isinstance(n, int) for n in ngrams)
        or not 1 <= ngrams[0] <= ngrams[1] <= 8
    ):
        raise ModelError("linear model: n-gram range malformed")
    if raw["n_features"] != n_weights:
        raise ModelError("linear model: weights do not match the number of hash buckets")
    return {
        "analyzer": raw["analyzer"],
        "ngram_range": (ngrams[0], ngrams[1]),
        "n_features": n_weights,
        "lowercase": raw["lowercase"],
    }


def load_linear(path: str | Path) -> LinearModel:
    """Read and validate a model written by :func:`save_model` from :func:`export_linear`."""
    body, digest = _read_checked(path, LINEAR_FORMAT)
    try:
        weights = np.asarray(body["weights"], dtype=np.float64)
        intercept = float(body["intercept"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelError(f"linear model {path} malformed: {exc}") from None
    if weights.ndim != 1 or not 0 < len(weights) <= _MAX_WEIGHTS or not np.isfinite(weights).all():
        raise ModelError(f"linear model {path} has malformed weights")
    if not np.isfinite(intercept) or body.get("classes") != [False, True]:
        raise ModelError(f"linear model {path} has a malformed intercept or classes")
    return LinearModel(
        kind=str(body.get("kind")),
        vectorizer=_validate_vectorizer(body.get("vectorizer"), len(weights)),
        weights=weights,
        intercept=intercept,
        meta=body.get("meta") or {},
        digest=digest,
    )
