"""The numpy n-gram hashing equals scikit-learn's, to the bit: the shipped text models were trained on
scikit-learn's, and the extraction workers no longer import it."""

from __future__ import annotations

import random

import numpy as np
import pytest
from sklearn.feature_extraction.text import HashingVectorizer
from sklearn.utils import murmurhash3_32 as sk_murmurhash3_32

from newscrawl.classify.hashing import hashed_row, murmurhash3_32, ngrams
from newscrawl.modelio import LinearModel

ALPHABET = "ab cdé\nfg1_ÄÖß’ǅ\t.-ж漢😀\x00"


def _random_texts(count: int, longest: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, longest))) for _ in range(count)]


def test_murmurhash_equals_sklearns_for_every_length_and_script():
    strings = _random_texts(500, 40, 1) + ["", "a", "ab", "abc", "abcd", "abcde", "x" * 1000]
    expected = [sk_murmurhash3_32(s.encode("utf-8"), seed=0) for s in strings]
    assert murmurhash3_32(strings).tolist() == expected  # most hold a NUL: encoded one by one
    plain = [s.replace("\0", "") for s in strings]  # joined and encoded at once
    assert murmurhash3_32(plain).tolist() == [sk_murmurhash3_32(s.encode("utf-8"), seed=0) for s in plain]
    assert murmurhash3_32([]).tolist() == []


@pytest.mark.parametrize("analyzer,ngram_range,lowercase", [
    ("word", (1, 2), True), ("word", (1, 1), False), ("word", (2, 3), True),
    ("char", (1, 3), True), ("char", (2, 4), False), ("char_wb", (3, 5), True), ("char_wb", (1, 2), False),
])
def test_ngrams_are_the_analyzers_own(analyzer, ngram_range, lowercase):
    reference = HashingVectorizer(analyzer=analyzer, ngram_range=ngram_range, lowercase=lowercase).build_analyzer()
    for text in _random_texts(150, 120, 2) + ["", " ", "One two  three\n\nfour", "Straße ÜBER don’t 12 ab_cd"]:
        assert sorted(ngrams(text, analyzer, ngram_range, lowercase)) == sorted(reference(text))


@pytest.mark.parametrize("analyzer,ngram_range,lowercase", [
    ("word", (1, 2), True), ("word", (1, 1), False), ("word", (2, 3), True), ("char_wb", (2, 4), True),
])
def test_rows_equal_sklearns_hashing_on_any_text(analyzer, ngram_range, lowercase):
    """hashed_row's buckets and counts (the word analyzer hashes spans of one buffer, no n-gram
    strings) against HashingVectorizer's on random texts of many scripts."""
    settings = {"analyzer": analyzer, "ngram_range": list(ngram_range), "n_features": 2**10, "lowercase": lowercase}
    reference = HashingVectorizer(analyzer=analyzer, ngram_range=ngram_range, n_features=2**10, lowercase=lowercase,
                                  alternate_sign=False, norm=None, dtype=np.float64)
    for text in _random_texts(200, 300, 6) + ["", "a", "ab", "ab cd", "İstanbul ǅemal"]:
        expected = reference.transform([text]).tocsr()
        indices, values = hashed_row(text, settings)
        assert indices.tolist() == expected.indices.tolist(), text
        counts = np.expm1(values * np.sqrt((np.log1p(expected.data) ** 2).sum())) if len(values) else values
        assert np.allclose(counts, expected.data), text


def test_unknown_analyzer_is_refused():
    with pytest.raises(ValueError, match="analyzer"):
        ngrams("text", "os.system", (1, 1), True)


def test_a_row_and_its_probability_equal_the_sparse_path_bit_for_bit():
    from sklearn.preprocessing import normalize

    settings = {"analyzer": "word", "ngram_range": [1, 2], "n_features": 2**12, "lowercase": True}
    rng = np.random.default_rng(3)
    model = LinearModel("test", settings, rng.normal(size=2**12), -0.3)
    reference = HashingVectorizer(analyzer="word", ngram_range=(1, 2), n_features=2**12, alternate_sign=False,
                                  norm=None, dtype=np.float64)
    words = "the a storm city council vote river police report week".split()
    pyrng = random.Random(4)
    texts = [" ".join(pyrng.choice(words) for _ in range(pyrng.randint(0, 3000))) for _ in range(40)] + [""]
    for text in texts:
        expected = reference.transform([text]).tocsr()
        expected.data = np.log1p(expected.data)
        expected = normalize(expected)
        indices, values = hashed_row(text, settings)
        assert indices.tolist() == expected.indices.tolist()
        assert values.tobytes() == expected.data.tobytes()
        assert model.positive_proba_row(indices, values) == float(model.positive_proba(expected)[0])
    with pytest.raises(Exception, match="column indices"):
        model.positive_proba_row(np.array([2**12]), np.array([1.0]))


def test_extracting_an_english_article_imports_neither_sklearn_nor_scipy():
    """What a worker does with a page that the text models read: no scikit-learn (nor SciPy) in it."""
    import subprocess
    import sys

    code = """
import sys
from newscrawl.extract_pool import Options, _Worker
from newscrawl.classify.text import english_share, page_text
from newscrawl.page import Page
para = "<p>" + "The council of the city said that the river was high and that it would vote on a plan. " * 6 + "</p>"
head = "<html><head><title>Council votes on river plan</title></head>"
html = head + "<body><article><h1>Council votes on river plan</h1>" + para * 8 + "</article></body></html>"
worker = _Worker(Options(site_layout=True))
result = worker.run({"html": html, "url": "http://127.0.0.1/2024/05/01/council-votes/", "sheet_urls": [], "sheets": {},
                     "template": None, "section": None, "templates": {}, "has_section": False})
assert english_share(page_text(Page.from_html(html, "http://127.0.0.1/a"), None)) > 0.12
assert result["article"]["title"] == "Council votes on river plan", result
print(sorted({m.split(".")[0] for m in sys.modules} & {"sklearn", "scipy"}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stderr
