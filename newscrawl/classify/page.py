"""Is this page an article? The shipped page classifier, as the extract core and pipelines call it.

Two models, trained by ``newscrawl train page`` and loaded once each through :mod:`newscrawl.modelio`
(which refuses files edited after training): ``models/page_classifier.json`` for pages with a URL
(every crawled page) and ``models/page_classifier_nourl.json`` for pages parsed without one
(``extract(html)``), whose URL and link features mean something else. Each model's feature list must
equal :data:`newscrawl.classify.features.FEATURE_NAMES`, so a model from another version of the
features is refused rather than silently misread.
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path
from typing import Any

from newscrawl import modelio
from newscrawl.classify.features import FEATURE_NAMES, feature_vector
from newscrawl.extract.api import Evidence
from newscrawl.page import Page
from newscrawl.paths import models_dir

MODEL_FILE = "page_classifier.json"
NO_URL_MODEL_FILE = "page_classifier_nourl.json"
logger = logging.getLogger(__name__)
THRESHOLD = 0.5


def load(path: str | None = None) -> modelio.TreeModel:
    """The page model at ``path`` (default: the shipped one), validated and cached."""
    model = _load_once(path)
    if isinstance(model, modelio.ModelError):
        raise model
    return model


@functools.lru_cache(maxsize=4)
def _load_once(path: str | None) -> modelio.TreeModel | modelio.ModelError:
    """A refused model is remembered too: ``extract()`` falls back to its rule on every page, and
    the file must not be read (and the error logged) again for each of them."""
    try:
        model = modelio.load_model(Path(path) if path else models_dir() / MODEL_FILE)
        if model.features != FEATURE_NAMES:
            raise modelio.ModelError(f"page model {path or MODEL_FILE} was trained on other features; "
                                     "retrain it with `newscrawl train page`")
    except modelio.ModelError as exc:
        logger.error("page classifier unavailable, is_article falls back to a rule: %s", exc)
        return exc
    return model


def probability(page: Page, metadata: Any = None, model_path: str | None = None, *,
                article: Any = None, evidence: Evidence | None = None) -> float:
    """Probability that ``page`` is a single article (0..1); ``model_path`` overrides both models."""
    if model_path is None and not page.url:
        model_path = str(models_dir() / NO_URL_MODEL_FILE)
    model = load(model_path)
    return float(model.positive_proba([feature_vector(page, metadata, article, evidence)], positive=True)[0])


def classify(page: Page, article: Any = None, *, metadata: Any = None, evidence: Evidence | None = None,
             model_path: str | None = None, threshold: float = THRESHOLD) -> tuple[bool, float]:
    """``(is_article, probability)`` for a parsed page. ``extract()`` passes its Article, metadata and
    :class:`Evidence`; without them the extraction pipeline is run here first (same features)."""
    p = probability(page, metadata, model_path, article=article, evidence=evidence)
    return p >= threshold, p
