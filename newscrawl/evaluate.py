"""Scores of an extraction against a dataset's labels (format: ../shared/datasets/README.md).

Metrics, as issue 4 specifies them:

- **body**: the article-extraction-benchmark shingle metric (scrapinghub/article-extraction-benchmark
  ``evaluate.py``). Tokens are ``\\w+`` matches (Unicode, case kept); a text's shingles are the
  multiset of its 4-token windows (a text of 1-3 tokens is one shingle, no token no shingle).
  Per page tp = sum of min counts, fp/fn the excess counts, all three divided by tp+fp+fn. Page
  precision is 1 if fp = fn = 0, 0 if tp = fp = 0, else tp/(tp+fp); recall likewise with fn.
  Precision is the mean over pages whose prediction has shingles, recall the mean over pages whose
  truth has shingles, F1 = 2PR/(P+R) of those means. Only pages with a ``body`` label count.
- **snippets** (with/without), counted as trafilatura's evaluation does (adbar/trafilatura
  ``tests/eval_common.py``: ``count_item`` and ``ConfusionMatrix``): both the body and each
  snippet are whitespace-normalised (``\\s+`` -> one space, stripped); per page, a ``with``
  snippet found in the body is a true positive and one not found a false negative; a
  ``without`` snippet found is a false positive and one not found a true negative; a missing
  body finds nothing. Counts are summed over all pages (micro average): precision =
  tp/(tp+fp), recall = tp/(tp+fn), accuracy = (tp+tn)/all, F1 = 2tp/(2tp+fp+fn).
- **title**: exact match after Unicode NFKC, casefold and whitespace collapse, over pages with a
  ``title`` label; a missing prediction is a miss.
- **published**: same calendar day (the first 10 characters of the ISO value, no time-zone
  conversion, as the labels were written); a gold ``null`` is matched only by no date.
- **is_article**: precision/recall/F1 of the article class over pages with an ``is_article`` label.
- **catastrophic misses** (``body_misses``): the share of article pages whose own body F1 (2PR/(P+R)
  of the page's precision and recall above; a page with no predicted shingles has F1 0) is under
  MISS_F1 = 0.2, i.e. the wrong block or nothing was returned. The mean F1 hides them: a set can
  score .95 with 5% of its articles lost. Article pages are those labelled ``is_article`` true; a
  set without that label (cleanportaleval) counts every page whose gold body has words. On sets
  without gold bodies (trafilatura-eval, mercury) ``snippet_misses`` is the nearest measure: the
  share of article pages (the same rule, over pages with ``with`` snippets) where no ``with``
  snippet is found.
- **ROUGE-LSum** (``rouge_lsum``, only when asked: ``score(..., rouge=True)``): the Fundus benchmark's
  body metric (:mod:`newscrawl.rouge`), the mean F1 over the article pages with a gold body.
"""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from newscrawl.page import fold
from newscrawl.rouge import rouge_lsum

__all__ = [
    "shingles",
    "shingle_counts",
    "page_precision",
    "page_recall",
    "body_scores",
    "snippet_counts",
    "snippet_scores",
    "normalize_title",
    "title_match",
    "date_match",
    "class_scores",
    "load_dataset",
    "read_page",
    "score",
    "prediction",
    "page_details",
    "page_f1",
    "page_rouge",
    "is_article_page",
    "MISS_F1",
]

SHINGLE_SIZE = 4
MISS_F1 = 0.2  # an article page whose own body F1 is under this is a catastrophic miss
_TOKEN = re.compile(r"\w+")
_WS = re.compile(r"\s+")


# --- body -------------------------------------------------------------------------------------
def shingles(text: str | None, n: int = SHINGLE_SIZE) -> Counter[tuple[str, ...]]:
    """Multiset of n-token shingles; a text of 1..n-1 tokens is one shingle, no token none."""
    tokens = _TOKEN.findall(text or "")
    if not tokens:
        return Counter()
    if len(tokens) < n:
        return Counter([tuple(tokens)])
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def shingle_counts(truth: str | None, prediction: str | None) -> tuple[float, float, float]:
    """(tp, fp, fn) of one page, normalised to sum to 1 (all 0 when neither text has shingles)."""
    true_sh = shingles(truth)
    pred_sh = shingles(prediction)
    tp = sum((true_sh & pred_sh).values())
    fp = sum((pred_sh - true_sh).values())
    fn = sum((true_sh - pred_sh).values())
    total = tp + fp + fn
    if total == 0:
        return 0.0, 0.0, 0.0
    return tp / total, fp / total, fn / total


def page_precision(tp: float, fp: float, fn: float) -> float:
    if fp == 0 and fn == 0:
        return 1.0
    if tp == 0 and fp == 0:
        return 0.0
    return tp / (tp + fp)


def page_recall(tp: float, fp: float, fn: float) -> float:
    if fp == 0 and fn == 0:
        return 1.0
    if tp == 0 and fn == 0:
        return 0.0
    return tp / (tp + fn)


def body_scores(pairs: Iterable[tuple[str | None, str | None]]) -> dict[str, float | int]:
    """Benchmark precision/recall/F1 over (truth, prediction) body pairs."""
    precisions: list[float] = []
    recalls: list[float] = []
    pages = 0
    for truth, prediction in pairs:
        pages += 1
        tp, fp, fn = shingle_counts(truth, prediction)
        if tp + fp > 0:
            precisions.append(page_precision(tp, fp, fn))
        if tp + fn > 0:
            recalls.append(page_recall(tp, fp, fn))
    precision = sum(precisions) / len(precisions) if precisions else 0.0
    recall = sum(recalls) / len(recalls) if recalls else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "pages": pages,
        "pages_predicted": len(precisions),
        "pages_with_truth": len(recalls),
    }


def page_f1(truth: str | None, prediction: str | None) -> float | None:
    """One page's body F1 (the harmonic mean of its page precision and recall); None when neither
    text has shingles, 0 when the prediction has none (or shares none) and the truth has some."""
    tp, fp, fn = shingle_counts(truth, prediction)
    if tp + fp + fn == 0:
        return None
    if tp == 0:
        return 0.0
    precision, recall = page_precision(tp, fp, fn), page_recall(tp, fp, fn)
    return 2 * precision * recall / (precision + recall)


def is_article_page(truth: Mapping[str, Any], labels_class: bool = False) -> bool:
    """Whether a labelled page counts as an article for the miss shares: its ``is_article`` label;
    on a set that labels some pages (``labels_class``: mercury leaves the label out on its non-articles)
    an unlabelled page is none; on a set that labels none, a gold body with words, or ``with`` snippets."""
    if "is_article" in truth:
        return bool(truth["is_article"])
    if labels_class:
        return False
    if "body" in truth:
        return bool(_TOKEN.search(truth["body"] or ""))
    return bool(truth.get("with"))


def _labels_class(records: Sequence[Record]) -> bool:
    return any("is_article" in record.truth for record in records)


def _share(missed: list[str], pages: int) -> dict[str, Any] | None:
    if not pages:
        return None
    return {"share": len(missed) / pages, "missed": len(missed), "pages": pages, "threshold": MISS_F1, "ids": missed}


# --- with/without snippets ----------------------------------------------------------------------
def _norm_ws(text: str) -> str:
    return _WS.sub(" ", text).strip()


def snippet_counts(with_: Sequence[str], without: Sequence[str], body: str | None) -> tuple[int, int, int, int]:
    """(tp, fp, fn, tn) of one page, exactly as trafilatura's ``count_item``."""
    if isinstance(body, str):
        text = _norm_ws(body)
        tp = sum(1 for s in with_ if _norm_ws(s) in text)
        fp = sum(1 for s in without if _norm_ws(s) in text)
    else:
        tp = fp = 0
    return tp, fp, len(with_) - tp, len(without) - fp


def snippet_scores(counts: Iterable[tuple[int, int, int, int]]) -> dict[str, float | int]:
    """Micro-averaged precision/recall/F1/accuracy of summed (tp, fp, fn, tn)."""
    tp = fp = fn = tn = pages = 0
    for a, b, c, d in counts:
        tp, fp, fn, tn, pages = tp + a, fp + b, fn + c, tn + d, pages + 1
    total = tp + fp + fn + tn
    return {
        "precision": tp / (tp + fp) if tp + fp else 0.0,
        "recall": tp / (tp + fn) if tp + fn else 0.0,
        "f1": 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 0.0,
        "accuracy": (tp + tn) / total if total else 0.0,
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "tn": tn,
        "pages": pages,
    }


# --- title, date, class ---------------------------------------------------------------------------
def normalize_title(text: str | None) -> str:
    return fold(text)


def title_match(gold: str | None, prediction: str | None) -> bool:
    return bool(prediction) and normalize_title(gold) == normalize_title(prediction)


def date_match(gold: str | None, prediction: str | None) -> bool:
    """Same calendar day as written; a null gold is matched only by a missing date."""
    if gold is None:
        return not prediction
    return bool(prediction) and str(prediction)[:10] == gold[:10]


def class_scores(pairs: Iterable[tuple[bool, bool]]) -> dict[str, float | int]:
    """Precision/recall/F1 of the positive class over (gold, predicted) pairs."""
    tp = fp = fn = tn = 0
    for gold, predicted in pairs:
        if predicted and gold:
            tp += 1
        elif predicted:
            fp += 1
        elif gold:
            fn += 1
        else:
            tn += 1
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "accuracy": (tp + tn) / max(1, tp + fp + fn + tn),
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "tn": tn,
        "pages": tp + fp + fn + tn,
    }


# --- datasets -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Record:
    """One labelled page: ``truth`` is the truth.jsonl object as written."""

    id: str
    url: str | None
    path: Path | None
    truth: dict[str, Any]


def load_dataset(dataset_dir: str | Path, limit: int | None = None) -> list[Record]:
    """Records of ``truth.jsonl`` in file order (``path`` resolved against the folder; None for URL-only sets).
    A line that is not a JSON object raises ValueError naming the file and line."""
    folder = Path(dataset_dir)
    records: list[Record] = []
    for truth in json_objects(folder / "truth.jsonl"):
        path = truth.get("path")
        records.append(
            Record(str(truth.get("id", len(records))), truth.get("url"), folder / path if path else None, truth)
        )
        if limit is not None and len(records) >= limit:
            break
    return records


def json_objects(path: Path) -> Iterator[dict[str, Any]]:
    """The JSON objects of a JSON Lines file, blank lines skipped; a line that is not a JSON object
    raises ValueError naming the file and the line (a traceback from json says neither)."""
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path} line {number}: not JSON ({exc})") from None
            if not isinstance(value, dict):
                raise ValueError(f"{path} line {number}: not a JSON object")
            yield value


def read_page(path: str | Path) -> bytes:
    """Raw bytes of a ``.html`` or ``.html.gz`` page."""
    data = Path(path).read_bytes()
    if str(path).endswith(".gz") or data[:2] == b"\x1f\x8b":
        return gzip.decompress(data)
    return data


# Warnings with which newscrawl.extract reports a page it could not process (it never raises).
FAILURE_WARNINGS = ("extraction failed", "page could not be parsed")


def prediction(article: Any) -> dict[str, Any]:
    """The scored fields of an Article; ``error`` when the core reported a failure in its warnings."""
    out = {name: getattr(article, name, None) for name in ("title", "published", "body", "is_article", "probability")}
    failures = [w for w in getattr(article, "warnings", None) or () if str(w).startswith(FAILURE_WARNINGS)]
    if failures:
        out["error"] = failures[0]
    return out


def _field(prediction: Any, name: str) -> Any:
    if prediction is None:
        return None
    if isinstance(prediction, Mapping):
        return prediction.get(name)
    return getattr(prediction, name, None)


def score(
    dataset: str | Path | Sequence[Record],
    predictions: Mapping[str, Any],
    rouge: bool | Mapping[str, float] = False,
) -> dict[str, Any]:
    """All metrics for ``predictions`` (id -> Article, or dict with title/published/body/is_article).

    ``dataset`` is a dataset folder or already loaded records. A page without a prediction counts
    as an empty one. Metrics whose labels the dataset lacks are None. A dataset that labels a
    ``page_type`` (wcxb-dev) also gets the same metrics per type under ``by_page_type``: "body F1 on
    news articles" is a different number from the F1 over listings, forums and product pages.
    ``rouge`` adds ROUGE-LSum (``rouge_lsum``; ~50 ms a page, so not by default): True, or the
    pages' F1 already computed by :func:`page_rouge`.
    """
    records = load_dataset(dataset) if isinstance(dataset, (str, Path)) else list(dataset)
    labels_class = _labels_class(records)
    if rouge is True:  # once per page, shared by the page-type groups
        rouge = page_rouge([r for r in records if is_article_page(r.truth, labels_class)], predictions)
    result = _scores(records, predictions, labels_class, rouge or {})
    groups: dict[str, list[Record]] = {}
    for record in records:
        if "page_type" in record.truth:
            groups.setdefault(str(record.truth["page_type"]), []).append(record)
    if groups:
        result["by_page_type"] = {
            kind: _scores(group, predictions, labels_class, rouge or {}) for kind, group in sorted(groups.items())
        }
    return result


def page_rouge(records: Sequence[Record], predictions: Mapping[str, Any]) -> dict[str, float]:
    """ROUGE-LSum F1 by page id, of the records with a gold body that has words."""
    out: dict[str, float] = {}
    for record in records:
        if "body" in record.truth:
            scored = rouge_lsum(record.truth["body"], _field(predictions.get(record.id), "body"))
            if scored is not None:
                out[record.id] = scored.f1
    return out


def _scores(
    records: Sequence[Record], predictions: Mapping[str, Any], labels_class: bool, rouge: Mapping[str, float]
) -> dict[str, Any]:
    body_pairs: list[tuple[str | None, str | None]] = []
    snippet_rows: list[tuple[int, int, int, int]] = []
    title_hits: list[bool] = []
    date_hits: list[bool] = []
    class_pairs: list[tuple[bool, bool]] = []
    body_missed: list[str] = []
    snippet_missed: list[str] = []
    body_articles = snippet_articles = 0
    rouge_f1: list[float] = []
    errors = 0
    for record in records:
        truth = record.truth
        prediction = predictions.get(record.id)
        if _field(prediction, "error"):
            errors += 1
        body = _field(prediction, "body")
        article = is_article_page(truth, labels_class)
        if "body" in truth:
            body_pairs.append((truth["body"], body))
            f1 = page_f1(truth["body"], body) if article else None
            if f1 is not None:
                body_articles += 1
                if f1 < MISS_F1:
                    body_missed.append(record.id)
            if article and record.id in rouge:
                rouge_f1.append(rouge[record.id])
        if "with" in truth or "without" in truth:
            counts = snippet_counts(truth.get("with", []), truth.get("without", []), body)
            snippet_rows.append(counts)
            if article and truth.get("with"):
                snippet_articles += 1
                if counts[0] == 0:
                    snippet_missed.append(record.id)
        if "title" in truth:
            title_hits.append(title_match(truth["title"], _field(prediction, "title")))
        if "published" in truth:
            date_hits.append(date_match(truth["published"], _field(prediction, "published")))
        if "is_article" in truth:
            class_pairs.append((bool(truth["is_article"]), bool(_field(prediction, "is_article"))))

    def accuracy(hits: list[bool]) -> dict[str, Any] | None:
        if not hits:
            return None
        return {"accuracy": sum(hits) / len(hits), "correct": sum(hits), "pages": len(hits)}

    return {
        "pages": len(records),
        "errors": errors,
        "body": body_scores(body_pairs) if body_pairs else None,
        "snippets": snippet_scores(snippet_rows) if snippet_rows else None,
        "title": accuracy(title_hits),
        "published": accuracy(date_hits),
        "is_article": class_scores(class_pairs) if class_pairs else None,
        "body_misses": _share(body_missed, body_articles),
        "snippet_misses": _share(snippet_missed, snippet_articles),
        "rouge_lsum": {"f1": sum(rouge_f1) / len(rouge_f1), "pages": len(rouge_f1)} if rouge_f1 else None,
    }


def page_details(
    records: Sequence[Record], predictions: Mapping[str, Any], rouge: bool | Mapping[str, float] = False
) -> list[dict[str, Any]]:
    """Per-page outcomes (for finding where an extractor goes wrong); keys absent where unlabelled.
    ``rouge`` adds each gold-bodied page's ROUGE-LSum F1 (``rouge_lsum``): True, or the F1 already
    computed by :func:`page_rouge`."""
    if rouge is True:
        rouge = page_rouge(records, predictions)
    rows: list[dict[str, Any]] = []
    labels_class = _labels_class(records)
    for record in records:
        truth, predicted = record.truth, predictions.get(record.id)
        row: dict[str, Any] = {"id": record.id, "url": record.url}
        if _field(predicted, "error"):
            row["error"] = _field(predicted, "error")
        body = _field(predicted, "body")
        if "body" in truth:
            tp, fp, fn = shingle_counts(truth["body"], body)
            row["body_precision"] = page_precision(tp, fp, fn) if tp + fp else None
            row["body_recall"] = page_recall(tp, fp, fn) if tp + fn else None
            row["body_f1"] = page_f1(truth["body"], body)
            if is_article_page(truth, labels_class) and row["body_f1"] is not None:
                row["body_miss"] = row["body_f1"] < MISS_F1
            if rouge and record.id in rouge:
                row["rouge_lsum"] = rouge[record.id]
        if "with" in truth or "without" in truth:
            row["snippets"] = snippet_counts(truth.get("with", []), truth.get("without", []), body)
            if is_article_page(truth, labels_class) and truth.get("with"):
                row["snippet_miss"] = row["snippets"][0] == 0
        if "title" in truth:
            row["title_ok"] = title_match(truth["title"], _field(predicted, "title"))
            row["title"] = [truth["title"], _field(predicted, "title")]
        if "published" in truth:
            row["published_ok"] = date_match(truth["published"], _field(predicted, "published"))
            row["published"] = [truth["published"], _field(predicted, "published")]
        if "is_article" in truth:
            row["is_article"] = [bool(truth["is_article"]), bool(_field(predicted, "is_article"))]
        rows.append(row)
    return rows


def format_table(results: Mapping[str, Mapping[str, Any]]) -> str:
    """A readable table: one row per (dataset or system) name. ``F1<.2`` is the share of article
    pages under body F1 MISS_F1, ``no-with`` the share of article pages where no ``with`` snippet is
    found (the catastrophic misses of sets with and without gold bodies)."""
    header = (
        f"{'':<22} {'pages':>5} {'body P':>7} {'body R':>7} {'body F1':>7} {'snip F1':>7} "
        f"{'title':>6} {'date':>6} {'art F1':>6} {'F1<.2':>6} {'no-with':>7} {'err':>4}"
    )
    lines = [header, "-" * len(header)]

    def cell(value: Any, key: str) -> str:
        if not value or value.get("tp", 1) + value.get("fn", 1) == 0:  # no gold article: class F1 undefined
            return "-"
        return f"{value[key]:.3f}"

    def share(value: Any) -> str:
        return f"{100 * value['share']:.1f}%" if value else "-"

    for name, s in results.items():
        lines.append(
            f"{name[:22]:<22} {s['pages']:>5} {cell(s['body'], 'precision'):>7} {cell(s['body'], 'recall'):>7} "
            f"{cell(s['body'], 'f1'):>7} {cell(s['snippets'], 'f1'):>7} {cell(s['title'], 'accuracy'):>6} "
            f"{cell(s['published'], 'accuracy'):>6} {cell(s['is_article'], 'f1'):>6} "
            f"{share(s.get('body_misses')):>6} {share(s.get('snippet_misses')):>7} {s['errors']:>4}"
        )
    return "\n".join(lines)
