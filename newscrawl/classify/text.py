"""What the page says: hashed n-gram text models whose probabilities are features of the page model.

Markup, punctuation and URL features cannot tell an undated evergreen guide (an article in
wcxb-dev's labels) from a service page written as prose, or a forum thread marked up as an
article (docs/decisions.md, "Page classifier, round 4"); the words can. The extracted headline,
the page's ``<title>`` and its visible body text are hashed into word n-gram counts (scikit-learn's
HashingVectorizer, computed in numpy by :mod:`newscrawl.classify.hashing`: stateless, no vocabulary
to store or to drift), log-scaled and L2-normalised, and a logistic model reads them. Its settings
and weights are data in a checked JSON file (:func:`newscrawl.modelio.load_linear`).

A second model of the same kind reads the headline and ``<title>`` alone (:func:`headline_text`).
``newscrawl train page`` fits both and feeds their *out-of-fold* probabilities to the boosted trees
as the features :data:`TEXT_FEATURES`, so the trees learn how far to trust them on unseen pages.

The models know the words of their (mostly English) training pages only: :func:`english_share` is the
cheap language signal that decides which pages they may read (docs/decisions.md, page classifier round 6).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from newscrawl import modelio
from newscrawl.classify.codepoints import CodePointClasses, code_points, runs
from newscrawl.classify.hashing import hashed_row
from newscrawl.page import Page

MAX_CHARS = 20_000  # bounded hashing work on very long pages; the start of a page says what it is
# the 50 most frequent English words (function words): about a quarter of English running text,
# a few per cent of German, Spanish, Polish or French text (where only "a", "in", "so"... match)
ENGLISH_WORDS = frozenset(
    "the of and to a in is that for it as was with be by on not he i this are or his from at which but have an "
    "had they you were their one all we can her has there been if more when will would who so no".split()
)
# pages whose text has a lower share are not read by the text models (docs/decisions.md, round 6: wcxb-dev
# English pages' 5th percentile 0.11, median 0.26; trafilatura-eval's non-English pages at most 0.10)
ENGLISH_SHARE = 0.12
_LETTERS = re.compile(r"[^\W\d_]+")
# english_share reads the text as code points, each a letter as _LETTERS reads it (1) or not (0), and
# each English word as a number (its ASCII codes, 8 bits each), so words are counted by array passes
_LETTER_CLASSES = CodePointClasses(lambda char: int(_LETTERS.fullmatch(char) is not None))
_LONGEST = max(map(len, ENGLISH_WORDS))
_ENGLISH_KEYS = np.array(sorted(sum(ord(c) << 8 * k for k, c in enumerate(w)) for w in ENGLISH_WORDS), dtype=np.uint64)
_CUT = np.array([(1 << 8 * n) - 1 for n in range(_LONGEST + 1)], dtype=np.uint64)  # the first n bytes of a key


def page_text(page: Page, headline: str | None) -> str:
    """The text the model reads: the extracted headline, the ``<title>`` and the body's text runs."""
    return "\n".join((headline or "", page.title_text, page.body_text))[:MAX_CHARS]


def english_share(text: str) -> float:
    """Share of the text's words (runs of letters, as ``_LETTERS.findall`` finds them in the lower-cased
    text) that are among :data:`ENGLISH_WORDS`: a dependency-free language signal (0 for a text without
    words). Every page with a URL pays it, so the runs are found on the code points as arrays: a word per
    run start, its key from its first characters (findall and a string per word cost 0.35 ms a page)."""
    data = code_points(text.lower())
    starts, ends = runs(_LETTER_CLASSES(data))
    if not starts.size:
        return 0.0
    lengths = ends - starts
    short = lengths <= _LONGEST
    # the text as bytes (a non-ASCII code point as 0xFF, in no English word), read 8 at a time from
    # each short run's start and cut to its length: the run's key
    ascii = np.concatenate((np.where(data < 128, data, 255).astype(np.uint8), np.zeros(8, dtype=np.uint8)))
    eight = np.ndarray((len(data) + 1,), dtype="<u8", buffer=ascii, strides=(1,))
    key = eight[starts[short]] & _CUT[lengths[short]]
    at = np.minimum(np.searchsorted(_ENGLISH_KEYS, key), len(_ENGLISH_KEYS) - 1)
    return int((_ENGLISH_KEYS[at] == key).sum()) / len(starts)


def headline_text(page: Page, headline: str | None) -> str:
    """The headline and ``<title>`` alone: in the page text they are a few n-grams among thousands;
    a model of their own adds F1, also grouped by site (docs/decisions.md, page classifier round 5)."""
    return "\n".join((headline or "", page.title_text))[:MAX_CHARS]


# the page model's text features, each the probability of one text model reading one input
TEXT_INPUTS: dict[str, Callable[[Page, str | None], str]] = {"text_model": page_text, "headline_model": headline_text}
TEXT_FEATURES = tuple(TEXT_INPUTS)


def vectorize(texts: list[str], settings: dict[str, Any]) -> Any:
    """Rows of log(1 + count), L2-normalised (a SciPy CSR matrix, for training): long pages and repeated
    words do not dominate. Each row is :func:`newscrawl.classify.hashing.hashed_row`'s, which equals
    scikit-learn's HashingVectorizer, log1p and ``sklearn.preprocessing.normalize`` bit for bit."""
    from scipy.sparse import csr_matrix  # type: ignore[import-untyped]  # training only: workers never load SciPy

    rows = [hashed_row(text, settings) for text in texts]
    indptr = np.zeros(len(rows) + 1, dtype=np.int32)
    np.cumsum([len(indices) for indices, _ in rows], out=indptr[1:])
    indices = np.concatenate([r[0] for r in rows]).astype(np.int32) if rows else np.zeros(0, dtype=np.int32)
    data = np.concatenate([r[1] for r in rows]) if rows else np.zeros(0)
    return csr_matrix((data, indices, indptr), shape=(len(rows), settings["n_features"]))


def text_inputs(page: Page, headline: str | None) -> dict[str, str]:
    """Each text model's input of the page, by feature name in :data:`TEXT_FEATURES` order: built once
    for the language gate and the models."""
    return {name: make(page, headline) for name, make in TEXT_INPUTS.items()}


def text_probabilities(models: dict[str, modelio.LinearModel], inputs: Mapping[str, str]) -> list[float]:
    """P(article) from each text model (by feature name, in the dict's order) reading its input
    (:func:`text_inputs`)."""
    return [model.positive_proba_row(*hashed_row(inputs[name], model.vectorizer)) for name, model in models.items()]
