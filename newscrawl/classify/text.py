"""What the page says: a hashed n-gram text model whose probability is one feature of the page model.

Markup, punctuation and URL features cannot tell an undated evergreen guide (an article in
wcxb-dev's labels) from a service page written as prose, or a forum thread marked up as an
article (docs/decisions.md, "Page classifier, round 4"); the words can. The extracted headline,
the page's ``<title>`` and its visible body text are hashed into word n-gram counts (scikit-learn's HashingVectorizer: stateless,
no vocabulary to store or to drift), log-scaled and L2-normalised, and a logistic model reads
them. Its settings and weights are data in a checked JSON file (:func:`newscrawl.modelio.load_linear`).

``newscrawl train page`` fits it and feeds its *out-of-fold* probability to the boosted trees as
the feature :data:`TEXT_FEATURE`, so the trees learn how far to trust it on pages it has not seen.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np

from newscrawl import modelio
from newscrawl.page import Page

TEXT_FEATURE = "text_model"
MAX_CHARS = 20_000  # bounded hashing work on very long pages; the start of a page says what it is


def page_text(page: Page, headline: str | None) -> str:
    """The text the model reads: the extracted headline, the ``<title>`` and the body's text runs."""
    title = page.root.find(".//title")
    head = title.text_content() if title is not None else ""
    return "\n".join((headline or "", head or "", page.text(page.body)))[:MAX_CHARS]


@functools.lru_cache(maxsize=8)
def vectorizer(analyzer: str, ngram_range: tuple[int, int], n_features: int, lowercase: bool) -> Any:
    """The hashing vectorizer a model names (counts; scaling is :func:`vectorize`'s)."""
    from sklearn.feature_extraction.text import HashingVectorizer

    return HashingVectorizer(analyzer=analyzer, ngram_range=ngram_range, n_features=n_features,
                             lowercase=lowercase, alternate_sign=False, norm=None, dtype=np.float64)


def vectorize(texts: list[str], settings: dict[str, Any]) -> Any:
    """Rows of log(1 + count), L2-normalised: long pages and repeated words do not dominate."""
    from sklearn.preprocessing import normalize

    matrix = vectorizer(settings["analyzer"], tuple(settings["ngram_range"]), settings["n_features"],
                        settings["lowercase"]).transform(texts).tocsr()
    matrix.data = np.log1p(matrix.data)
    return normalize(matrix)


def load(path: str | Path) -> modelio.LinearModel:
    """The text model at ``path``, validated (cached by the page classifier's loader)."""
    return modelio.load_linear(path)


def text_probability(model: modelio.LinearModel, page: Page, headline: str | None) -> float:
    """P(article) from the page's words alone."""
    return float(model.positive_proba(vectorize([page_text(page, headline)], model.vectorizer))[0])
