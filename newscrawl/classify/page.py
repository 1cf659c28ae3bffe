"""Is this page an article? The shipped page classifier, as the extract core and pipelines call it.

Models trained by ``newscrawl train page`` and loaded once each through :mod:`newscrawl.modelio`
(which refuses files edited after training): ``models/page_classifier.json`` for pages with a URL
(every crawled page) and ``models/page_classifier_nourl.json`` for pages parsed without one
(``extract(html)``), whose URL and link features mean something else. Neither reads what the page
says. ``models/page_classifier_words.json`` also reads two text models' probabilities (hashed word
n-grams, :mod:`newscrawl.classify.text`): more F1 on wcxb-dev by cross-validation (0.951 against
0.934), but its words are those of mostly English training pages, and it calls most multilingual
trafilatura-eval articles non-articles (114 of 374 pages articles, against 278), so it is only used
when asked for (``NEWSCRAWL_PAGE_MODEL = "words"``, ``extract(..., page_model="words")``).
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
from typing import Any

from newscrawl import modelio
from newscrawl.classify.features import FEATURE_NAMES, extraction_evidence, feature_vector
from newscrawl.classify.text import TEXT_FEATURES, text_probabilities
from newscrawl.extract.api import Evidence
from newscrawl.page import Page
from newscrawl.paths import models_dir

MODEL_FILE = "page_classifier.json"
NO_URL_MODEL_FILE = "page_classifier_nourl.json"
WORDS_MODEL_FILE = "page_classifier_words.json"  # opt-in: also reads the text models
logger = logging.getLogger(__name__)
THRESHOLD = 0.5
MODEL_FEATURES = FEATURE_NAMES + TEXT_FEATURES  # what the words model reads
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
        used = model.features[len(FEATURE_NAMES):]  # the text features it reads, in TEXT_FEATURES order
        if model.features[:len(FEATURE_NAMES)] != FEATURE_NAMES or used != tuple(f for f in TEXT_FEATURES if f in used):
            raise modelio.ModelError(f"page model {file.name} was trained on other features; "
                                     "retrain it with `newscrawl train page`")
        texts = {}
        listed = model.meta.get("text_models")
        for feature in used:
            named = listed.get(feature) if isinstance(listed, dict) else None
            name = named.get("file") if isinstance(named, dict) else None
            if not isinstance(name, str) or not _FILE_NAME.fullmatch(name):  # a name in the same folder, no path
                raise modelio.ModelError(f"page model {file.name} names no valid text model file for {feature}")
            texts[feature] = modelio.load_linear(file.with_name(name))
            if texts[feature].digest != named.get("sha256"):
                raise modelio.ModelError(f"the text model {name} of {file.name} is not the one it was trained with; "
                                         "retrain both with `newscrawl train page`")
    except modelio.ModelError as exc:
        logger.error("page classifier unavailable, is_article falls back to a rule: %s", exc)
        return exc
    return model, texts


def page_model_file(name: str | None, page: Page | None = None) -> str | None:
    """The page model file for a ``NEWSCRAWL_PAGE_MODEL`` / ``extract(page_model=)`` value: None or
    "default" the shipped default (None), "words" the opt-in model with text models (for pages with a
    URL; URL-less pages keep theirs), anything else a path."""
    if name in (None, "", "default") or (name == "words" and page is not None and not page.url):
        return None
    if name == "words":
        return str(models_dir() / WORDS_MODEL_FILE)
    return str(name)


def probability(page: Page, metadata: Any = None, model_path: str | None = None, *,
                article: Any = None, evidence: Evidence | None = None) -> float:
    """Probability that ``page`` is a single article (0..1); ``model_path`` overrides both models."""
    if model_path is None and not page.url:
        model_path = str(models_dir() / NO_URL_MODEL_FILE)
    model, texts = load(model_path)
    if article is None or evidence is None:
        article, evidence = extraction_evidence(page)
    row = feature_vector(page, metadata, article, evidence) + text_probabilities(texts, page, article.title)
    return float(model.positive_proba([row], positive=True)[0])


def classify(page: Page, article: Any = None, *, metadata: Any = None, evidence: Evidence | None = None,
             model_path: str | None = None, threshold: float = THRESHOLD) -> tuple[bool, float]:
    """``(is_article, probability)`` for a parsed page. ``extract()`` passes its Article, metadata and
    :class:`Evidence`; without them the extraction pipeline is run here first (same features)."""
    p = probability(page, metadata, model_path, article=article, evidence=evidence)
    return p >= threshold, p
