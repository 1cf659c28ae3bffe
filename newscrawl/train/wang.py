"""``python -m newscrawl.train.wang``: Wang et al.'s title and body SVMs (seed 001 §4.2), and their measurement.

Optional extra (needs Chromium and websocket-client: ``python -m newscrawl.browser setup``).
Renders wcxb-dev article pages, labels each page's body node (the candidate whose text best
matches the gold body, word-level F1 over the first-two-screens text) and title node (own text
equal to the gold title, or the closest match), trains two RBF SVMs on the first ``--train``
pages — Wang et al. learnt from 40 pages — and measures the following ``--test`` pages: body
F1 with the shingle metric of the datasets' README, title exact-match rate, and seconds per
page for rendering + prediction next to MSS, CoreEx and NewsFeed on the same parsed pages.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from newscrawl.classify import body_extractor, wang
from newscrawl.page import Page, fold
from newscrawl.paths import datasets_dir, models_dir

HELP = "train Wang et al.'s SVMs (models/wang_svm.json); needs the optional browser extra"
_TOKEN = re.compile(r"\w+")
NEGATIVES_PER_PAGE = 25
SVM_PARAMS = {"kernel": "rbf", "C": 1.0, "gamma": "scale", "class_weight": "balanced"}


def _tokens(text: str | None) -> list[str]:
    return _TOKEN.findall((text or "").lower())


def shingle_prf(predicted: str | None, gold: str | None) -> tuple[float, float]:
    """Per-page precision and recall of 4-token shingles (the datasets' README body metric)."""

    def shingles(text: str | None) -> set[tuple[str, ...]]:
        toks = _tokens(text)
        return {tuple(toks[i : i + 4]) for i in range(max(1, len(toks) - 3))} if toks else set()

    p_set, g_set = shingles(predicted), shingles(gold)
    if not g_set:
        return (1.0, 1.0) if not p_set else (0.0, 1.0)
    if not p_set:
        return 1.0, 0.0
    hit = len(p_set & g_set)
    return hit / len(p_set), hit / len(g_set)


def label_body(nodes: list[wang.Node], cands: list[wang.Node], gold: str) -> int | None:
    """Index in ``cands`` of the node whose first-two-screens words best match the gold body (F1 >= 0.5).

    Recall is over the gold words visible in those screens (the features see no further); counts
    come from prefix sums over the document-ordered nodes, each subtree being a contiguous range.
    """
    gold_words = set(_tokens(gold))
    if not gold_words:
        return None
    total = np.zeros(len(nodes) + 1)
    matched = np.zeros(len(nodes) + 1)
    for n in nodes:
        toks = _tokens(n.own_text) if n.top < 2.0 * wang.HEIGHT else []
        total[n.index + 1] = len(toks)
        matched[n.index + 1] = sum(t in gold_words for t in toks)
    total, matched = np.cumsum(total), np.cumsum(matched)
    reachable = matched[-1]  # gold words visible in the first two screens: the best recall possible
    best, best_f1 = None, 0.5
    for i, n in enumerate(cands):
        t = total[n.end + 1] - total[n.index]
        m = matched[n.end + 1] - matched[n.index]
        if t <= 0 or m <= 0:
            continue
        p, r = m / t, m / reachable
        f1 = 2 * p * r / (p + r)
        if f1 > best_f1:
            best, best_f1 = i, f1
    return best


def label_title(cands: list[wang.Node], gold: str) -> int | None:
    target = fold(gold)
    for i, n in enumerate(cands):
        if fold(n.own_text) == target:
            return i
    gold_words = set(_tokens(gold))
    best, best_f1 = None, 0.8
    for i, n in enumerate(cands):
        words = set(_tokens(n.own_text))
        common = len(words & gold_words)
        if common:
            f1 = 2 * common / (len(words) + len(gold_words))
            if f1 > best_f1:
                best, best_f1 = i, f1
    return best


def _sample(rng: np.random.Generator, n: int, positive: int) -> list[int]:
    others = [i for i in range(n) if i != positive]
    if len(others) > NEGATIVES_PER_PAGE:
        others = sorted(rng.choice(others, NEGATIVES_PER_PAGE, replace=False).tolist())
    return others


def article_rows(limit: int) -> list[dict]:
    with open(datasets_dir() / "wcxb-dev" / "truth.jsonl", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    rows = [r for r in rows if r.get("is_article") and r.get("body") and r.get("title")]
    return rows[:limit]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--train", type=int, default=60, help="pages to train on (Wang et al. used 40)")
    parser.add_argument("--test", type=int, default=150, help="following pages to measure on")
    parser.add_argument("--out", type=Path, default=None, help="model path (default: models/wang_svm.json)")


def run(args: argparse.Namespace) -> int:
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC

    rows = article_rows(args.train + args.test)
    rng = np.random.default_rng(0)
    tab = wang.browser()
    pages = []
    for row in rows:
        with gzip.open(datasets_dir() / "wcxb-dev" / row["path"], "rb") as fh:
            pages.append((row, Page.from_html(fh.read(), row.get("url"))))
    train, test = pages[: args.train], pages[args.train :]

    bx: list[Any] = []
    by: list[int] = []
    tx: list[Any] = []
    ty: list[int] = []
    labelled = 0
    for row, page in train:
        nodes = wang.layout(tab.render(wang.page_html(page)))
        cands, X = wang.body_candidates(nodes)
        pos = label_body(nodes, cands, row["body"])
        if pos is None:
            continue
        labelled += 1
        keep = [pos] + _sample(rng, len(cands), pos)
        bx.extend(X[keep])
        by.extend([1] + [0] * (len(keep) - 1))
        tcands, T = wang.title_candidates(nodes, cands[pos])
        tpos = label_title(tcands, row["title"])
        if tpos is not None:
            keep = [tpos] + _sample(rng, len(tcands), tpos)
            tx.extend(T[keep])
            ty.extend([1] + [0] * (len(keep) - 1))
    models = []
    for X, y in ((np.asarray(bx), np.asarray(by)), (np.asarray(tx), np.asarray(ty))):
        scaler = StandardScaler().fit(X)
        svc = SVC(**SVM_PARAMS).fit(scaler.transform(X), y)
        models.append(wang.export_svm(scaler, svc))
    loaded = (wang._svm(models[0], len(wang.BODY_FEATURES)), wang._svm(models[1], len(wang.TITLE_FEATURES)))

    # measurement on the held-out pages, our extractors on the same parsed pages
    ours = {m: body_extractor(m) for m in ("mss", "coreex", "newsfeed")}
    scores: dict[str, list[tuple[float, float]]] = {m: [] for m in ("wang", *ours)}
    seconds: dict[str, float] = {m: 0.0 for m in scores}
    titles = 0
    for row, page in test:
        started = time.perf_counter()
        result = wang.wang(page, loaded)
        seconds["wang"] += time.perf_counter() - started
        scores["wang"].append(shingle_prf(result.body, row["body"]))
        titles += fold(result.title) == fold(row["title"])
        for name, fn in ours.items():
            started = time.perf_counter()
            found = fn(page)
            seconds[name] += time.perf_counter() - started
            scores[name].append(shingle_prf(found.body, row["body"]))
    n = max(len(test), 1)
    report = {}
    print(
        f"trained on {labelled} of {len(train)} pages ({len(by)} body, {len(ty)} title examples); "
        f"measured on {len(test)}"
    )
    print("| method | body P | body R | body F1 | ms/page |")
    print("|---|---|---|---|---|")
    for name, values in scores.items():
        arr = np.asarray(values) if values else np.zeros((1, 2))
        p, r = arr.mean(axis=0)
        f = 2 * p * r / (p + r) if p + r else 0.0
        report[name] = {
            "precision": round(float(p), 4),
            "recall": round(float(r), 4),
            "f1": round(float(f), 4),
            "ms_per_page": round(1000 * seconds[name] / n, 1),
        }
        print(f"| {name} | {p:.3f} | {r:.3f} | {f:.3f} | {1000 * seconds[name] / n:.0f} |")
    print(f"wang title exact match: {titles}/{len(test)} = {titles / n:.3f}")
    meta = {
        "trained_on": "wcxb-dev articles",
        "train_pages": len(train),
        "labelled_pages": labelled,
        "test_pages": len(test),
        "svm": SVM_PARAMS,
        "viewport": [wang.WIDTH, wang.HEIGHT],
        "body_features": list(wang.BODY_FEATURES),
        "title_features": list(wang.TITLE_FEATURES),
        "measured": report,
        "title_exact_match": round(titles / n, 4),
    }
    out = args.out or models_dir() / wang.MODEL_FILE
    wang.save_models(models[0], models[1], meta, out)
    _write_card(out.with_suffix(".md"), meta)
    print(f"saved {out}")
    return 0


def _write_card(path: Path, meta: dict) -> None:
    lines = [
        "# wang_svm.json — Wang et al. (2009) title and body SVMs",
        "",
        'Used by `newscrawl.extract(..., method="wang")` (optional extra: Chromium + websocket-client,',
        "`python -m newscrawl.browser setup`). Safe format `newscrawl-svm/1`: scaler, support vectors,",
        "dual coefficients, intercept and gamma as JSON with a SHA-256, validated on load.",
        "",
        f"- **Data**: the first {meta['train_pages']} wcxb-dev article pages ({meta['labelled_pages']} with a body "
        f"node matching the gold body); measured on the next {meta['test_pages']}.",
        f"- **Model**: StandardScaler + SVC `{json.dumps(meta['svm'], sort_keys=True)}`, one for body nodes "
        f"({', '.join(meta['body_features'])}), one for title nodes ({', '.join(meta['title_features'])}).",
        f"- **Rendering**: headless Chromium at {meta['viewport'][0]}x{meta['viewport'][1]}, scripts disabled, "
        "inline `<style>` only (the datasets carry no external CSS).",
        f"- **Title exact match** on the test pages: {meta['title_exact_match']:.3f}.",
        "",
        "| method (same test pages) | body P | body R | body F1 | ms/page |",
        "|---|---|---|---|---|",
    ]
    for name, r in meta["measured"].items():
        lines.append(f"| {name} | {r['precision']:.3f} | {r['recall']:.3f} | {r['f1']:.3f} | {r['ms_per_page']:.0f} |")
    lines += [
        "",
        "Wang's time includes rendering; ours is on an already parsed Page (CSS cascade included for MSS).",
        "",
        "- **Rebuild**: `python -m newscrawl.train.wang` (a few minutes).",
        "",
    ]
    path.write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m newscrawl.train.wang", description=HELP)
    add_arguments(parser)
    sys.exit(run(parser.parse_args()))
