"""Is this page an article? The shipped page classifier, as the extract core and pipelines call it.

Models trained by ``newscrawl train page`` and loaded once each through :mod:`newscrawl.modelio`
(which refuses files edited after training): ``models/page_classifier.json`` for pages with a URL
(every crawled page) and ``models/page_classifier_nourl.json`` for pages parsed without one
(``extract(html)``), whose URL and link features mean something else. Neither reads what the page
says. ``models/page_classifier_words.json``, the default for pages with a URL, also reads two text
models' probabilities (hashed word n-grams, :mod:`newscrawl.classify.text`): F1 0.951 on wcxb-dev by
cross-validation against 0.934 without them. Its words are those of mostly English training pages, so
it is applied only where they are valid (:func:`probability`): pages whose text is not English get the
plain model's probability, and on a dated page (:func:`dated`: a date shown near the headline, or one
in the URL) the text models may raise that probability but lower it only part of the way.
``NEWSCRAWL_PAGE_MODEL = "plain"`` (``extract(..., page_model="plain")``) uses the plain model everywhere
(docs/decisions.md, page classifier round 6 and the lead's decision).
Under the default a first pass comes before the words model: ``models/page_classifier_fast.json`` reads
only the features that cost little once the extraction has run, and decides alone where it is sure
(its probability at most ``decide_below`` or at least ``decide_above``, thresholds chosen by training
so that the cascade keeps the words model's F1); ``"words"`` skips it (docs/decisions.md, round 7). Pages
without a URL get their own first pass, ``models/page_classifier_nourl_fast.json``, trained on the same
pages parsed without URLs and validated against the URL-less model it stands in for (round 8).
Each model's feature list must be :data:`FEATURE_NAMES` and then some of :data:`TEXT_FEATURES` in
that order, so a model from another version of the features is refused rather than silently
misread. A model that reads text models names them (files next to it) with their checksums: a text
model retrained without its trees, whose probabilities the trees never learnt to read, is refused too.
"""

from __future__ import annotations

import functools
import logging
import re
from pathlib import Path
from typing import Any, NamedTuple, cast

import numpy as np

from newscrawl import modelio
from newscrawl.classify.features import FAST_FEATURES, FEATURE_NAMES, PageFeatures
from newscrawl.classify.text import ENGLISH_SHARE, TEXT_FEATURES, english_share, text_inputs, text_probabilities
from newscrawl.extract.article import Evidence
from newscrawl.page import Page
from newscrawl.paths import models_dir

MODEL_FILE = "page_classifier.json"
NO_URL_MODEL_FILE = "page_classifier_nourl.json"
WORDS_MODEL_FILE = "page_classifier_words.json"  # the default for pages with a URL: also reads the text models
FAST_MODEL_FILE = "page_classifier_fast.json"  # the default's first pass (pages with a URL)
NO_URL_FAST_MODEL_FILE = "page_classifier_nourl_fast.json"  # the default's first pass for pages without a URL
logger = logging.getLogger(__name__)
THRESHOLD = 0.5
MODEL_FEATURES = FEATURE_NAMES + TEXT_FEATURES  # what the words model reads
# on a dated page, the share of the way from the plain model's probability down to the words model's
# that is taken: below 0.5, a dated page the plain model is sure of stays an article (docs/decisions.md, round 6)
DATED_WEIGHT = 0.4
# a page is dated when it shows a date near its headline or its URL holds one (seed 002's strongest
# link-target sign of an article): dated news reports are where the text models' doubts, learnt on
# wcxb-dev's guides and services, are mostly wrong (docs/decisions.md, "Dated pages: the URL's date too")
DATED_FEATURES = ("visible_date", "url_date")
_DATED = [FEATURE_NAMES.index(name) for name in DATED_FEATURES]
_FILE_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*\.json")


def text_model_file(model_file: str | Path, feature: str) -> str:
    """The name of the text model for ``feature`` that ``newscrawl train page`` writes next to the page
    model that reads it (``model_file``: the words model)."""
    return f"{Path(model_file).stem}_{feature.removesuffix('_model')}.json"


def load(path: str | None = None) -> tuple[modelio.TreeModel, dict[str, modelio.LinearModel]]:
    """The page model at ``path`` (default: the shipped one) and its text models by feature, validated
    and cached."""
    models = _load_once(path)
    if isinstance(models, modelio.ModelError):
        raise models
    return models


@functools.lru_cache(maxsize=4)
def _load_once(path: str | None) -> tuple[modelio.TreeModel, dict[str, modelio.LinearModel]] | modelio.ModelError:
    """A refused model is remembered too: ``extract()`` falls back to its rule on every page, and
    the file must not be read (and the error logged) again for each of them."""
    file = Path(path) if path else models_dir() / MODEL_FILE
    try:
        model = modelio.load_model(file)
        used = model.features[len(FEATURE_NAMES) :]  # the text features it reads, in TEXT_FEATURES order
        if model.features[: len(FEATURE_NAMES)] != FEATURE_NAMES or used != tuple(
            f for f in TEXT_FEATURES if f in used
        ):
            raise modelio.ModelError(
                f"page model {file.name} was trained on other features; retrain it with `newscrawl train page`"
            )
        texts = {}
        listed = model.meta.get("text_models")
        for feature in used:
            named = listed.get(feature) if isinstance(listed, dict) else None
            name = named.get("file") if isinstance(named, dict) else None
            if not isinstance(name, str) or not _FILE_NAME.fullmatch(name):  # a name in the same folder, no path
                raise modelio.ModelError(f"page model {file.name} names no valid text model file for {feature}")
            texts[feature] = modelio.load_linear(file.with_name(name))
            if texts[feature].digest != cast(dict, named).get("sha256"):
                raise modelio.ModelError(
                    f"the text model {name} of {file.name} is not the one it was trained with; "
                    "retrain both with `newscrawl train page`"
                )
    except modelio.ModelError as exc:
        logger.error("page classifier unavailable, is_article falls back to a rule: %s", exc)
        return exc
    return model, texts


def page_model_file(name: str | None, page: Page | None = None) -> str | None:
    """The page model file for a ``NEWSCRAWL_PAGE_MODEL`` / ``extract(page_model=)`` value: None, "default" or
    "words" the words model as :func:`probability` applies it (pages with a URL; URL-less pages keep theirs),
    "plain" the model that reads no words (None: :func:`probability`'s own choice), anything else a path."""
    if name == "plain" or (page is not None and not page.url):
        return None
    if name in (None, "", "default", "words"):
        return str(models_dir() / WORDS_MODEL_FILE)
    return str(name)


def first_pass_file(name: str | None, page: Page | None = None) -> str | None:
    """The first-pass model for the same value: under the default (None, "" or "default") the shipped one
    for a page with a URL, or the one trained without URLs for a page without one (it stands in for the
    URL-less model); None (no first pass) for "words", "plain" or a path."""
    if name in (None, "", "default"):
        return str(models_dir() / (FAST_MODEL_FILE if page is None or page.url else NO_URL_FAST_MODEL_FILE))
    return None


class FirstPass(NamedTuple):
    """The first-pass trees and the probabilities at or beyond which they decide alone."""

    model: modelio.TreeModel
    below: float
    above: float


@functools.lru_cache(maxsize=4)
def load_first_pass(path: str) -> FirstPass | None:
    """The first-pass model at ``path``, validated and cached; None (logged once) when it is missing or
    refused: the page then goes to the full model, which decides every page alone anyway."""
    try:
        model = modelio.load_model(path)
        if model.features != FAST_FEATURES:
            raise modelio.ModelError(
                f"first-pass model {Path(path).name} was trained on other features; "
                "retrain it with `newscrawl train page --first-pass-only`"
            )
        below, above = model.meta.get("decide_below"), model.meta.get("decide_above")
        if not (isinstance(below, float | int) and isinstance(above, float | int) and 0 <= below < 0.5 < above <= 1):
            raise modelio.ModelError(f"first-pass model {Path(path).name} has no valid decide_below/decide_above")
    except modelio.ModelError as exc:
        logger.error("page classifier's first pass unavailable, every page goes to the full model: %s", exc)
        return None
    return FirstPass(model, float(below), float(above))


def probability(
    page: Page,
    metadata: Any = None,
    model_path: str | None = None,
    *,
    article: Any,
    evidence: Evidence,
    first_pass: str | None = None,
) -> float:
    """Probability that ``page`` is a single article (0..1). ``model_path`` None: the plain model (or the
    URL-less one for a page without a URL); ``extract()`` passes :func:`page_model_file`'s choice. A model
    that reads text models (the words model) reads them only where they are valid: on English text, and on
    a :func:`dated` page lowering the plain model's probability by :data:`DATED_WEIGHT` of the gap only.
    ``first_pass`` (:func:`first_pass_file`): a first-pass model whose sure probability is the answer."""
    plain = None if page.url else str(models_dir() / NO_URL_MODEL_FILE)  # the model without text models
    model, texts = load(model_path or plain)
    features = PageFeatures(page, metadata, article, evidence)
    fast = load_first_pass(first_pass) if first_pass else None
    if fast is not None:
        sure = float(fast.model.positive_proba([features.fast_row()], positive=True)[0])
        if sure <= fast.below or sure >= fast.above:
            return sure
    article = features.article
    row = features.row()
    if not texts:
        return float(model.positive_proba([row], positive=True)[0])
    without = float(load(plain)[0].positive_proba([row], positive=True)[0])
    inputs = text_inputs(page, article.title)
    if english_share(inputs["text_model"]) < ENGLISH_SHARE:
        return without  # the text models know English words only: elsewhere they call most articles non-articles
    words = float(model.positive_proba([row + text_probabilities(texts, inputs)], positive=True)[0])
    return float(applied(without, words, True, bool(dated(np.asarray([row]))[0])))


def dated(X: np.ndarray) -> np.ndarray:
    """Per row of page features (FEATURE_NAMES order, extra columns allowed): is the page dated
    (:data:`DATED_FEATURES`)? One rule for :func:`probability`, training and the benchmark."""
    return np.asarray((X[:, _DATED] > 0).any(axis=1))


def applied(plain: Any, words: Any, english: Any, dated_page: Any) -> np.ndarray:
    """The words model's probability as :func:`probability` applies it, from the plain model's and the
    words model's (floats, or arrays: the benchmark's out-of-fold columns): the plain one where the
    text is not English; on a dated page (:func:`dated`), lowered only DATED_WEIGHT of the way to the words
    model's (dated news articles unlike wcxb-dev's guides: the text models' doubts, mostly wrong
    there, move less); the words model's elsewhere."""
    lowered = np.logical_and(dated_page, words < plain)
    return np.where(english, np.where(lowered, plain + DATED_WEIGHT * (words - plain), words), plain)


def classify(
    page: Page,
    article: Any,
    *,
    metadata: Any = None,
    evidence: Evidence,
    model_path: str | None = None,
    threshold: float = THRESHOLD,
    first_pass: str | None = None,
) -> tuple[bool, float]:
    """``(is_article, probability)`` for a parsed page. ``extract()`` passes its Article, metadata and
    :class:`Evidence`; for a bare Page, :func:`newscrawl.extract.api.extraction_evidence` gives the
    Article and Evidence the pipeline would (same features)."""
    p = probability(page, metadata, model_path, article=article, evidence=evidence, first_pass=first_pass)
    return p >= threshold, p
