"""Extraction quality on the generated demo site, whose answers are known (ArticleTruth)."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

import pytest

from newscrawl.demo.site import STYLESHEETS, build_demo_site
from newscrawl.extract import extract


def _shingles(text: str) -> Counter:
    toks = re.findall(r"\w+", text or "")
    if len(toks) < 4:
        return Counter([tuple(toks)]) if toks else Counter()
    return Counter(tuple(toks[i:i + 4]) for i in range(len(toks) - 3))


def _f1(pred: str | None, gold: str) -> float:
    p, g = _shingles(pred or ""), _shingles(gold)
    tp = sum((p & g).values())
    if not tp:
        return 0.0
    precision, recall = tp / sum(p.values()), tp / sum(g.values())
    return 2 * precision * recall / (precision + recall)


def _norm(text: str | None) -> str:
    return " ".join(unicodedata.normalize("NFKC", text or "").casefold().split())


@pytest.fixture(scope="module")
def results():
    site = build_demo_site()
    css = [body.decode("utf-8") if isinstance(body, bytes) else body for body in STYLESHEETS.values()]
    out = []
    for path, truth in sorted(site.truth.items()):
        if truth.article is None or truth.article.only_in:
            continue
        response = site.resolve(path)
        art = extract(response.body, "http://127.0.0.1" + path, css)
        out.append((truth.article, art))
    assert len(out) >= 30
    return out


def test_titles(results):
    hits = sum(_norm(art.title) == _norm(gold.title) for gold, art in results)
    assert hits >= 0.95 * len(results)


def test_dates(results):
    hits = sum((art.published or "")[:10] == gold.published for gold, art in results)
    assert hits >= 0.95 * len(results)


def test_bodies(results):
    scores = [_f1(art.body, "\n".join(gold.paragraphs)) for gold, art in results]
    assert sum(scores) / len(scores) >= 0.9
    assert min(scores) >= 0.5
