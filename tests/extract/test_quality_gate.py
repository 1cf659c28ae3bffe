"""The CI quality gate's floor names: plain metrics and metrics on one labelled page type."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "quality_gate", Path(__file__).resolve().parents[2] / "benchmarks" / "quality_gate.py")
assert _spec is not None and _spec.loader is not None
gate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gate)

SCORES = {
    "body": {"f1": 0.8}, "snippets": None, "title": {"accuracy": 0.7}, "published": None, "is_article": None,
    "by_page_type": {"article": {"body": {"f1": 0.95}, "snippets": None, "title": {"accuracy": 0.9},
                                 "published": None, "is_article": None}},
}


def test_floor_names_include_each_page_type() -> None:
    names = gate.metrics(SCORES)
    assert "body_f1" in names and "body_f1@article" in names and "title@article" in names
    assert gate.metrics({k: v for k, v in SCORES.items() if k != "by_page_type"}) == [*gate.METRICS, *gate.CEILINGS]


def test_values_read_the_page_type_block() -> None:
    assert gate.value(SCORES, "body_f1") == pytest.approx(0.8)
    assert gate.value(SCORES, "body_f1@article") == pytest.approx(0.95)
    assert gate.value(SCORES, "title@article") == pytest.approx(0.9)
    assert gate.value(SCORES, "snippet_f1@article") is None  # not labelled: not gated
    assert gate.value(SCORES, "body_f1@listing") is None  # a type the dataset does not have


def test_miss_shares_are_ceilings() -> None:
    scores = {**SCORES, "body_misses": {"share": 0.03}, "snippet_misses": None}
    assert "body_miss_share" in gate.metrics(scores) and "body_miss_share@article" in gate.metrics(scores)
    assert gate.value(scores, "body_miss_share") == pytest.approx(0.03)
    assert gate.value(scores, "snippet_miss_share") is None
    assert gate.below("body_miss_share", 0.03, 0.02)  # more misses than the ceiling: fails
    assert not gate.below("body_miss_share", 0.01, 0.02)
    assert gate.below("body_f1", 0.7, 0.8) and not gate.below("body_f1", 0.9, 0.8)
    assert gate.recorded_value("body_miss_share", 0.03) == pytest.approx(0.04)  # written over the measure
    assert gate.recorded_value("body_f1", 0.9) == pytest.approx(0.88)
