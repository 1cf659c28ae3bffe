"""Metric functions on hand-computed examples, and score() on a generated dataset folder."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from newscrawl.evaluate import (
    body_scores, class_scores, date_match, load_dataset, page_precision, page_recall, read_page, score,
    shingle_counts, shingles, snippet_counts, snippet_scores, title_match,
)


def test_shingles_basic() -> None:
    assert shingles("a b c d e") == {("a", "b", "c", "d"): 1, ("b", "c", "d", "e"): 1}
    assert shingles("one two") == {("one", "two"): 1}  # 1-3 tokens: one shingle
    assert shingles("  ,;  ") == {}
    assert shingles(None) == {}
    # \w+ tokens, Unicode, case kept, punctuation dropped
    assert shingles("Über-Straße, ÜBER") == {("Über", "Straße", "ÜBER"): 1}


def test_shingles_are_multisets() -> None:
    assert shingles("a b c d a b c d") == {("a", "b", "c", "d"): 2, ("b", "c", "d", "a"): 1,
                                           ("c", "d", "a", "b"): 1, ("d", "a", "b", "c"): 1}


def test_shingle_counts_hand_computed() -> None:
    # truth shingles: abcd, bcde ; prediction: abcd, bcdx -> tp 1, fp 1, fn 1 -> each 1/3
    tp, fp, fn = shingle_counts("a b c d e", "a b c d x")
    assert (tp, fp, fn) == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    # duplicated text in the prediction is a false positive for the extra copies
    tp, fp, fn = shingle_counts("a b c d", "a b c d a b c d")
    # truth {abcd:1}; pred {abcd:2, bcda, cdab, dabc} -> tp 1, fp 4, fn 0
    assert (tp, fp, fn) == pytest.approx((1 / 5, 4 / 5, 0.0))


def test_page_precision_recall_rules() -> None:
    assert page_precision(0, 0, 0) == 1.0 and page_recall(0, 0, 0) == 1.0
    assert page_precision(0, 0, 1) == 0.0  # nothing predicted
    assert page_recall(0, 1, 0) == 0.0  # nothing to find, something predicted
    assert page_precision(0.5, 0.25, 0.25) == pytest.approx(2 / 3)
    assert page_recall(0.5, 0.0, 0.5) == pytest.approx(0.5)


def test_body_scores_edge_cases() -> None:
    # page 1: perfect; page 2: empty prediction (recall 0, not in precision);
    # page 3: empty truth with a prediction (precision 0, not in recall); page 4: both empty (in neither)
    result = body_scores([
        ("a b c d e", "a b c d e"),
        ("a b c d e", None),
        ("", "x y z w"),
        ("", ""),
    ])
    assert result["pages"] == 4
    assert result["pages_predicted"] == 2 and result["pages_with_truth"] == 2
    assert result["precision"] == pytest.approx(0.5)  # mean(1, 0)
    assert result["recall"] == pytest.approx(0.5)  # mean(1, 0)
    assert result["f1"] == pytest.approx(0.5)


def test_body_scores_f1_of_means() -> None:
    # page A: tp=fp=fn=1/3 -> P = R = 0.5 ; page B: perfect -> 1
    result = body_scores([("a b c d e", "a b c d x"), ("p q r s", "p q r s")])
    assert result["precision"] == pytest.approx(0.75)
    assert result["recall"] == pytest.approx(0.75)
    assert result["f1"] == pytest.approx(0.75)
    # F1 of the means, not the mean of per-page F1s
    skewed = body_scores([("a b c d e f g", "a b c d"), ("p q r s", "x y z w v")])
    p, r = skewed["precision"], skewed["recall"]
    assert skewed["f1"] == pytest.approx(2 * p * r / (p + r))


def test_snippet_counts_follow_trafilatura() -> None:
    body = "First   paragraph here.\nSecond one\twith tabs."
    assert snippet_counts(["paragraph here. Second", "missing"], ["with tabs", "absent"], body) == (1, 1, 1, 1)
    # no body: every "with" is a false negative, every "without" a true negative
    assert snippet_counts(["a", "b"], ["c"], None) == (0, 0, 2, 1)
    # empty string body is a body: it finds nothing either
    assert snippet_counts(["a"], [], "") == (0, 0, 1, 0)


def test_snippet_scores_micro_average() -> None:
    result = snippet_scores([(1, 1, 1, 1), (2, 0, 0, 2)])
    assert result["tp"] == 3 and result["fp"] == 1 and result["fn"] == 1 and result["tn"] == 3
    assert result["precision"] == pytest.approx(0.75)
    assert result["recall"] == pytest.approx(0.75)
    assert result["f1"] == pytest.approx(0.75)
    assert result["accuracy"] == pytest.approx(6 / 8)
    assert snippet_scores([])["f1"] == 0.0


def test_title_match_normalisation() -> None:
    assert title_match("Ｈｅｌｌｏ  World", "hello world")  # NFKC full-width, casefold, spaces
    assert title_match("Straße", "STRASSE")  # casefold
    assert not title_match("Hello World", "Hello World | Site")
    assert not title_match("Hello", None)


def test_date_match_rules() -> None:
    assert date_match("2021-03-04", "2021-03-04T23:59:00-05:00")
    assert not date_match("2021-03-04", "2021-03-05")
    assert not date_match("2021-03-04", None)
    assert date_match(None, None)
    assert not date_match(None, "2021-03-04")


def test_class_scores() -> None:
    result = class_scores([(True, True), (True, False), (False, True), (False, False)])
    assert result["precision"] == 0.5 and result["recall"] == 0.5 and result["f1"] == 0.5
    assert class_scores([(False, False)])["f1"] == 0.0


def make_dataset(tmp_path: Path) -> Path:
    pages = tmp_path / "pages"
    pages.mkdir()
    rows = [
        {"id": "p1", "path": "pages/p1.html.gz", "url": "https://ex.com/1", "title": "One", "published": "2021-01-02",
         "body": "alpha beta gamma delta epsilon", "with": ["beta gamma"], "without": ["menu"], "is_article": True},
        {"id": "p2", "path": "pages/p2.html.gz", "url": None, "published": None, "body": "",
         "is_article": False},
        {"id": "p3", "path": "pages/p3.html.gz", "url": None, "title": "Three", "with": ["x"], "without": []},
    ]
    for row in rows:
        (tmp_path / row["path"]).write_bytes(gzip.compress(b"<html><body><p>page</p></body></html>"))
    (tmp_path / "truth.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return tmp_path


def test_load_dataset_and_read_page(tmp_path: Path) -> None:
    folder = make_dataset(tmp_path)
    records = load_dataset(folder)
    assert [r.id for r in records] == ["p1", "p2", "p3"]
    assert records[0].path == folder / "pages/p1.html.gz"
    assert read_page(records[0].path).startswith(b"<html>")
    assert len(load_dataset(folder, limit=2)) == 2


def test_score_on_generated_dataset(tmp_path: Path) -> None:
    folder = make_dataset(tmp_path)
    predictions = {
        "p1": {"title": "one", "published": "2021-01-02T10:00:00", "body": "alpha beta gamma delta epsilon",
               "is_article": True},
        "p2": {"title": "x", "published": None, "body": None, "is_article": True},
        # p3 has no prediction: scored as empty
    }
    result = score(folder, predictions)
    assert result["pages"] == 3
    assert result["body"]["f1"] == pytest.approx(1.0)  # p2: neither side has shingles
    assert result["snippets"]["tp"] == 1 and result["snippets"]["fn"] == 1 and result["snippets"]["tn"] == 1
    assert result["title"] == {"accuracy": 0.5, "correct": 1, "pages": 2}
    assert result["published"]["accuracy"] == 1.0  # p2 gold null matched by null
    assert result["is_article"]["precision"] == 0.5 and result["is_article"]["recall"] == 1.0


def test_prediction_marks_reported_failures() -> None:
    from types import SimpleNamespace

    from newscrawl.evaluate import prediction

    ok = SimpleNamespace(title="T", published=None, body="b", is_article=True, probability=0.9,
                         warnings=["too little relevant text"])
    assert prediction(ok) == {"title": "T", "published": None, "body": "b", "is_article": True, "probability": 0.9}
    failed = SimpleNamespace(title=None, published=None, body=None, is_article=False, probability=0.0,
                             warnings=["extraction failed: KeyError: 'x'"])
    assert prediction(failed)["error"].startswith("extraction failed")


def test_page_details(tmp_path: Path) -> None:
    from newscrawl.evaluate import page_details

    folder = make_dataset(tmp_path)
    rows = page_details(load_dataset(folder), {"p1": {"title": "One", "published": "2021-01-03",
                                                      "body": "alpha beta gamma delta", "is_article": True}})
    assert rows[0]["title_ok"] is True and rows[0]["published_ok"] is False
    assert rows[0]["body_precision"] == 1.0 and rows[0]["body_recall"] == pytest.approx(0.5)
    assert rows[0]["snippets"] == (1, 0, 0, 1)
    assert rows[1]["published_ok"] is True and rows[1]["body_precision"] is None  # nothing on either side
    assert rows[2]["title_ok"] is False and "body_precision" not in rows[2]


def test_score_by_page_type(tmp_path: Path) -> None:
    rows = [{"id": f"p{i}", "path": None, "url": None, "page_type": kind, "body": body}
            for i, (kind, body) in enumerate([("article", "one two three four five"), ("article", "six seven"),
                                              ("listing", "eight nine ten eleven")])]
    (tmp_path / "truth.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    predictions = {"p0": {"body": "one two three four five"}, "p1": {"body": "six seven"}, "p2": {"body": "menu"}}
    result = score(tmp_path, predictions)
    assert sorted(result["by_page_type"]) == ["article", "listing"]
    assert result["by_page_type"]["article"]["pages"] == 2
    assert result["by_page_type"]["article"]["body"]["f1"] == pytest.approx(1.0)
    assert result["by_page_type"]["listing"]["body"]["f1"] == pytest.approx(0.0)
    assert 0.0 < result["body"]["f1"] < 1.0
    (tmp_path / "plain").mkdir()
    assert "by_page_type" not in score(make_dataset(tmp_path / "plain"), {})  # no page_type labels, no breakdown


def test_table_leaves_article_f1_blank_without_gold_articles() -> None:
    from newscrawl.evaluate import format_table

    def row(pairs: list[tuple[bool, bool]]) -> dict[str, object]:
        return {"pages": len(pairs), "body": None, "snippets": None, "title": None, "published": None,
                "is_article": class_scores(pairs), "errors": 0}

    lines = format_table({"listing": row([(False, False), (False, True)]),
                          "article": row([(True, True), (True, False)])}).splitlines()
    assert lines[2].split()[-4] == "-"  # no gold article in the group: F1 undefined, not 0.000
    assert lines[3].split()[-4] == "0.667"


def test_page_f1_rules() -> None:
    from newscrawl.evaluate import page_f1

    assert page_f1("one two three four five", "one two three four five") == pytest.approx(1.0)
    assert page_f1("one two three four five", None) == 0.0  # nothing returned
    assert page_f1("one two three four five", "sidebar about me box text") == 0.0  # the wrong block
    assert page_f1("", "") is None  # neither side has words: not scored
    # tp 1 of 2 truth shingles and 1 of 3 predicted: P 1/3, R 1/2
    assert page_f1("a b c d e", "a b c d x y") == pytest.approx(2 * (1 / 3) * (1 / 2) / (1 / 3 + 1 / 2))


def test_catastrophic_miss_shares(tmp_path: Path) -> None:
    """Article pages under body F1 0.2 (and with no `with` snippet found) are counted per dataset and
    page type; non-article pages, and unlabelled pages of a set that labels articles, are not."""
    from newscrawl.evaluate import page_details

    text = "the council said on tuesday that the new bridge will open in spring"
    rows = [
        {"id": "hit", "page_type": "article", "is_article": True, "body": text, "with": ["the council said"]},
        {"id": "wrong", "page_type": "article", "is_article": True, "body": text, "with": ["new bridge will"]},
        {"id": "empty", "page_type": "article", "is_article": True, "body": text},
        {"id": "listing", "page_type": "listing", "is_article": False, "body": text},
        {"id": "lyrics", "body": text, "with": ["the council said"]},  # the set labels articles, not this
    ]
    (tmp_path / "truth.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    predictions = {"hit": {"body": text}, "wrong": {"body": "about me: I love cats and long walks"},
                   "listing": {"body": "menu"}, "lyrics": {"body": "menu"}}
    result = score(tmp_path, predictions)
    misses = result["body_misses"]
    assert (misses["missed"], misses["pages"]) == (2, 3) and misses["share"] == pytest.approx(2 / 3)
    assert misses["ids"] == ["wrong", "empty"] and misses["threshold"] == 0.2
    assert result["snippet_misses"]["ids"] == ["wrong"] and result["snippet_misses"]["pages"] == 2
    by_type = result["by_page_type"]
    assert by_type["article"]["body_misses"]["share"] == pytest.approx(2 / 3)
    assert by_type["listing"]["body_misses"] is None  # no article pages there
    details = {row["id"]: row for row in page_details(load_dataset(tmp_path), predictions)}
    assert details["wrong"]["body_miss"] is True and details["hit"]["body_miss"] is False
    assert details["wrong"]["body_f1"] == 0.0 and "body_miss" not in details["listing"]
    assert details["wrong"]["snippet_miss"] is True and "snippet_miss" not in details["lyrics"]


def test_miss_shares_without_article_labels(tmp_path: Path) -> None:
    """A set that labels no page type counts the pages whose gold body has words (or with snippets)."""
    text = "the council said on tuesday that the new bridge will open in spring"
    rows = [{"id": "short", "body": text}, {"id": "blank", "body": ""}, {"id": "snips", "with": ["opening words"]}]
    (tmp_path / "truth.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    result = score(tmp_path, {"short": {"body": text[:30]}, "blank": {"body": "x"},
                              "snips": {"body": "the opening words and more"}})
    assert result["body_misses"]["pages"] == 1 and result["body_misses"]["ids"] == []  # F1 .57: no miss
    assert result["snippet_misses"]["pages"] == 1 and result["snippet_misses"]["missed"] == 0


def test_evaluate_command_prints_and_lists_misses(tmp_path: Path) -> None:
    import argparse
    import io

    from newscrawl.commands import evaluate as command

    (tmp_path / "set").mkdir()
    folder = make_dataset(tmp_path / "set")
    (tmp_path / "pred.jsonl").write_text("\n".join(json.dumps(r) for r in [
        {"id": "p1", "body": "zeta eta theta iota"}, {"id": "p3", "body": "x"}]) + "\n", encoding="utf-8")
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    out = io.StringIO()
    args = parser.parse_args([str(folder), "--predictions", str(tmp_path / "pred.jsonl"),
                              "--details", str(tmp_path / "details.jsonl")])
    assert command.run(args, out) == 0
    text = out.getvalue()
    assert "article pages under body F1 0.2: 1 of 1 (100.0%)" in text
    assert "\n  p1\n" in text  # listed with --details
    assert "with no `with` snippet found: 1 of 1 (100.0%)" in text  # p1; p3 has no is_article label
    quiet = io.StringIO()
    command.run(parser.parse_args([str(folder), "--predictions", str(tmp_path / "pred.jsonl")]), quiet)
    assert "1 of 1" in quiet.getvalue() and "\n  p1\n" not in quiet.getvalue()
