"""ROUGE-LSum (newscrawl/rouge.py): hand-computed cases, and the vectorised LCS union against a plain
reference implementation of rouge-score's summary-level algorithm on random texts."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from newscrawl.evaluate import Record, page_details, score
from newscrawl.rouge import rouge_lsum, sentences, tokens


def _reference(truth: list[list[str]], prediction: list[list[str]]) -> tuple[float, float]:
    """rouge-score's rougeLsum written the plain way: one LCS table per sentence pair, the path
    back (a match, else up when up is larger, else left), the union per gold sentence, each token
    hit at most as often as it occurs in either text."""

    def lcs_positions(ref: list[str], cand: list[str]) -> set[int]:
        table = [[0] * (len(cand) + 1) for _ in range(len(ref) + 1)]
        for i in range(1, len(ref) + 1):
            for j in range(1, len(cand) + 1):
                if ref[i - 1] == cand[j - 1]:
                    table[i][j] = table[i - 1][j - 1] + 1
                else:
                    table[i][j] = max(table[i - 1][j], table[i][j - 1])
        found, i, j = set(), len(ref), len(cand)
        while i > 0 and j > 0:
            if ref[i - 1] == cand[j - 1]:
                found.add(i - 1)
                i, j = i - 1, j - 1
            elif table[i - 1][j] > table[i][j - 1]:
                i -= 1
            else:
                j -= 1
        return found

    gold_left = Counter(t for s in truth for t in s)
    pred_left = Counter(t for s in prediction for t in s)
    hits = 0
    for ref in truth:
        union: set[int] = set()
        for cand in prediction:
            union |= lcs_positions(ref, cand)
        for i in sorted(union):
            if gold_left[ref[i]] > 0 and pred_left[ref[i]] > 0:
                hits += 1
                gold_left[ref[i]] -= 1
                pred_left[ref[i]] -= 1
    return hits / sum(map(len, prediction)), hits / sum(map(len, truth))


def test_a_hand_computed_case():
    # gold "the cat sat" takes the, cat (from "the cat") and sat; "on the mat" then finds on and mat,
    # its "the" is spent: the prediction has only one. 5 hits of 6 tokens each way
    result = rouge_lsum("the cat sat\non the mat", "the cat\nsat on a mat")
    assert result is not None
    assert result.precision == pytest.approx(5 / 6) and result.recall == pytest.approx(5 / 6)
    assert result.f1 == pytest.approx(5 / 6)


def test_edges():
    assert rouge_lsum("", "anything") is None and rouge_lsum("...", "x") is None
    assert rouge_lsum("Some words here.", None) == (0.0, 0.0, 0.0)
    assert rouge_lsum("Some words here.", "Nothing alike.") == (0.0, 0.0, 0.0)
    text = "The council met on Tuesday. It voted 5-2!\nResidents were divided."
    assert rouge_lsum(text, text).f1 == pytest.approx(1.0)
    # order inside a sentence matters, sentence order does not
    assert rouge_lsum("a b c d", "d c b a").f1 == pytest.approx(0.25)
    assert rouge_lsum("a b.\nc d.", "c d.\na b.").f1 == pytest.approx(1.0)


def test_tokens_and_sentences_as_rouge_score_makes_them():
    assert tokens("It's 5-2, Über-cool!") == ["it", "s", "5", "2", "ber", "cool"]
    assert sentences("First one. Second one? third stays.\n\n“Quoted.” Next") == [
        ["first", "one"],
        ["second", "one", "third", "stays"],
        ["quoted"],
        ["next"],
    ]
    # not after an initial or a title, as Punkt's English model does not
    assert sentences("Mr. Smith met J. R. Doe on Jan. 5. He left.") == [
        ["mr", "smith", "met", "j", "r", "doe", "on", "jan", "5"],
        ["he", "left"],
    ]


@pytest.mark.parametrize("seed", range(40))
def test_the_vectorised_union_equals_the_plain_algorithm(seed):
    rng = random.Random(seed)
    vocabulary = [f"w{i}" for i in range(rng.choice([3, 6, 12, 30]))]

    def text() -> list[list[str]]:
        return [[rng.choice(vocabulary) for _ in range(rng.randint(1, 14))] for _ in range(rng.randint(1, 9))]

    truth, prediction = text(), text()
    expected_p, expected_r = _reference(truth, prediction)
    got = rouge_lsum("\n".join(map(" ".join, truth)), "\n".join(map(" ".join, prediction)))
    assert got is not None
    assert got.precision == pytest.approx(expected_p) and got.recall == pytest.approx(expected_r)


def test_score_adds_the_mean_over_article_pages_only_when_asked():
    records = [
        Record("a", None, None, {"body": "the cat sat\non the mat", "is_article": True}),
        Record("b", None, None, {"body": "a b c d", "is_article": True}),
        Record("c", None, None, {"body": "not an article page", "is_article": False}),
    ]
    predictions = {"a": {"body": "the cat\nsat on a mat"}, "b": {"body": "d c b a"}, "c": {"body": ""}}
    assert score(records, predictions)["rouge_lsum"] is None
    result = score(records, predictions, rouge=True)["rouge_lsum"]
    assert result["pages"] == 2 and result["f1"] == pytest.approx((5 / 6 + 0.25) / 2)


def test_details_give_each_gold_bodied_pages_rouge_when_asked():
    records = [Record("a", None, None, {"body": "a b c d"}), Record("b", None, None, {"title": "T"})]
    predictions = {"a": {"body": "d c b a"}, "b": {"title": "T"}}
    assert all("rouge_lsum" not in row for row in page_details(records, predictions))
    rows = page_details(records, predictions, rouge=True)
    assert rows[0]["rouge_lsum"] == pytest.approx(0.25) and "rouge_lsum" not in rows[1]


def test_an_overlong_gold_sentence_is_scored_in_pieces(monkeypatch):
    from newscrawl import rouge

    words = " ".join(f"w{i}" for i in range(2500))  # one "sentence": a table flattened into a line
    seen: list[int] = []
    union = rouge._union_lcs
    monkeypatch.setattr(rouge, "_union_lcs", lambda ref, *rest: seen.append(len(ref)) or union(ref, *rest))
    assert rouge.rouge_lsum(words, words).f1 == pytest.approx(1.0)
    assert seen == [1000, 1000, 500]  # the LCS table stays bounded
    monkeypatch.undo()
    assert rouge.sentences(words)[0][:2] == ["w0", "w1"] and rouge.MAX_SENTENCE_TOKENS < 2500
    half = " ".join(f"w{i}" for i in range(1250))
    assert rouge.rouge_lsum(words, half).recall == pytest.approx(0.5)
