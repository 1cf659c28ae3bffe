"""The page classifier's functions on a bare Page: the Article and Evidence they read come from the
extraction pipeline run without classifying (:func:`newscrawl.extract.api.extraction_evidence`), as
``extract()`` hands them over; the classifier itself no longer runs the extraction (layering)."""

from __future__ import annotations

from typing import Any

from newscrawl.classify import features
from newscrawl.classify import page as page_classifier
from newscrawl.extract.api import extraction_evidence
from newscrawl.page import Page


def classify(page: Page, **kwargs: Any) -> tuple[bool, float]:
    article, evidence = extraction_evidence(page)
    return page_classifier.classify(page, article, evidence=evidence, **kwargs)


def probability(page: Page, metadata: Any = None, model_path: str | None = None, **kwargs: Any) -> float:
    article, evidence = extraction_evidence(page)
    return page_classifier.probability(page, metadata, model_path, article=article, evidence=evidence, **kwargs)


def page_features(page: Page, metadata: Any = None) -> dict[str, float]:
    return features.page_features(page, metadata, *extraction_evidence(page))


def feature_vector(page: Page, metadata: Any = None) -> list[float]:
    return features.feature_vector(page, metadata, *extraction_evidence(page))
