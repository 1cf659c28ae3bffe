"""Article probability of a link from its URL alone, with the shipped tree model.

The spider scores every link it extracts, and the same menu, tag and author links recur on every
page of a site, so scores are memoised (a bounded dict, emptied when full). A single new URL is
scored by a plain-Python walk of the trees, which for one row is far faster than numpy's batch
path; :meth:`probabilities` sends the new URLs of a page through the batch path at once. Both give
the same numbers.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from newscrawl.links.features import FEATURE_NAMES, RESERVED_WORDS, feature_vector
from newscrawl.modelio import ModelError, TreeModel, load_model
from newscrawl.paths import models_dir

MODEL_NAME = "url_classifier.json"


class UrlClassifier:
    """Scores URLs with a :class:`~newscrawl.modelio.TreeModel` trained by ``newscrawl train urls``."""

    def __init__(self, model: TreeModel, extra_reserved_words: Iterable[str] = (), cache_size: int = 65536) -> None:
        if tuple(model.features) != FEATURE_NAMES:
            raise ModelError(
                f"URL model features {list(model.features)} do not match this newscrawl's {list(FEATURE_NAMES)};"
                " retrain with `newscrawl train urls`"
            )
        if True not in model.classes:
            raise ModelError("URL model has no article (true) class")
        if model.boosted:
            raise ModelError("URL model must be an averaged tree ensemble; retrain with `newscrawl train urls`")
        self.model = model
        # Score with the reserved words the model was trained with, plus the caller's additions.
        base = model.meta.get("reserved_words") or RESERVED_WORDS
        self.reserved_words = frozenset(str(w).lower() for w in base) | frozenset(
            w.lower() for w in extra_reserved_words
        )
        column = model.classes.index(True)
        self._trees = [
            (t.left.tolist(), t.right.tolist(), t.feature.tolist(), t.threshold.tolist(), t.value[:, column].tolist())
            for t in model.trees
        ]
        self._cache: dict[str, float] = {}
        self._cache_size = cache_size

    @classmethod
    def load(cls, path: str | Path | None = None, extra_reserved_words: Iterable[str] = ()) -> UrlClassifier:
        """Load the model at ``path`` (default: the shipped ``models/url_classifier.json``)."""
        return cls(load_model(path or models_dir() / MODEL_NAME), extra_reserved_words)

    def features(self, url: str) -> list[float]:
        return feature_vector(url, self.reserved_words)

    def probability(self, url: str) -> float:
        """Probability that ``url`` points to a single news article."""
        score = self._cache.get(url)
        if score is None:
            score = self._remember(url, self._score(url))
        return score

    def probabilities(self, urls: Sequence[str]) -> list[float]:
        """:meth:`probability` for many URLs; the ones not seen before go through one vectorised pass."""
        known = {u: self._cache[u] for u in urls if u in self._cache}
        new = [u for u in dict.fromkeys(urls) if u not in known]
        if new:
            X = np.asarray([self.features(u) for u in new], dtype=np.float64)
            for url, score in zip(new, self.model.positive_proba(X, True).tolist()):
                known[url] = self._remember(url, score)
        return [known[u] for u in urls]

    def _remember(self, url: str, score: float) -> float:
        if len(self._cache) >= self._cache_size:
            self._cache.clear()
        self._cache[url] = score
        return score

    def _score(self, url: str) -> float:
        # float32 rounding as in TreeModel.predict_proba (sklearn splits on float32 features)
        x = [float(v) for v in np.asarray(self.features(url), dtype=np.float32)]
        total = 0.0
        for left, right, feature, threshold, value in self._trees:
            node = 0
            while left[node] >= 0:
                node = left[node] if x[feature[node]] <= threshold[node] else right[node]
            total += value[node]
        return total / len(self._trees)


@functools.cache
def default_classifier() -> UrlClassifier:
    """The shipped model, loaded once per process."""
    return UrlClassifier.load()
