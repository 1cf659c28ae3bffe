"""``newscrawl train title-date``: fit the title and date tree ensembles (seed 000 §3.3).

Data: the pages of ``datasets/{wcxb-dev, readability, trafilatura-eval}`` that have a gold title
(and, for dates, a gold ``published`` day). Each page goes through the same steps as extraction
(Page, NCE, evaluated subset, the 9 features); then the gold labels are matched to text nodes:

- title: the node whose text (or its block's text, when inline markup splits the headline)
  equals the gold title after NFKC, casefold and whitespace collapse; else the closest one with
  a rapidfuzz ratio >= 95. Pages with no such node are *reported and left out*, never guessed.
- date: nodes that :func:`newscrawl.extract.dates.parse_date` reads as the gold day, alone or
  joined with the next one or two nodes (dates split by markup). Nodes without digits never
  carry the date label (§3.3). Pages without a matching node are reported and left out of the
  date model.

Attribute 8 (distance to the title) is computed from the matched gold title node in training and
from the detected title at extraction time. Scores are page-level accuracies from 5-fold
cross-validation grouped by site (a site is never on both sides), with the extraction's own
post-processing, so they estimate quality on unseen sites.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
from rapidfuzz import fuzz

from newscrawl.extract.dates import parse_date
from newscrawl.extract.features import (
    DATE_FEATURES,
    FEATURES,
    PAPER_TITLE_FEATURES,
    TITLE_FEATURES,
    columns,
    node_features,
    with_title_distance,
)
from newscrawl.extract.metadata import read_metadata, strip_site_suffix
from newscrawl.extract.nce import relevant_content
from newscrawl.extract.titledate import (
    MAX_DATE_LEN,
    date_candidates,
    dayfirst_for,
    evaluated_subset,
    node_title_text,
    pick_date,
    pick_title,
    title_candidates,
    title_tag_title,
)
from newscrawl.modelio import export_trees, save_model
from newscrawl.page import Page, fold
from newscrawl.paths import datasets_dir, models_dir

HELP = "train the title and date classifiers from gold titles/dates in ../shared/datasets"

DATASETS = ("wcxb-dev", "readability", "trafilatura-eval")
SEED = 20110919
FOLDS = 5
RULES = ("first", "best")
FOREST = {"n_estimators": 40, "min_samples_leaf": 3, "max_depth": 12, "max_features": "sqrt"}


@dataclass
class PageRows:
    """One page's evaluated text nodes, features and labels."""

    key: str
    site: str
    page: Any  # text nodes only (``.text_nodes[k].text``): whole trees would not fit in memory
    title_texts: dict[int, str]  # node_title_text of rows short enough to be a title
    nodes: list[int]
    X: np.ndarray
    title: str
    gold_title: str | None
    gold_date: str | None
    title_rows: list[int]
    date_rows: list[int]
    site_name: str | None = None  # declared site name, for the site-suffix strip the extraction applies
    url: str | None = None
    language: str | None = None  # declared language: how slash dates read (dayfirst_for)


def _title_rows(page: Page, nodes: list[int], gold: str) -> list[int]:
    target = fold(gold)
    exact, fuzzy = [], []
    for row, k in enumerate(nodes):
        own = fold(page.text_nodes[k].text)
        if own == target or fold(node_title_text(page, k)) == target:
            exact.append(row)
        elif abs(len(own) - len(target)) <= 0.1 * len(target) + 2 and fuzz.ratio(own, target) >= 95:
            fuzzy.append(row)
    return exact or fuzzy


def _date_rows(page: Page, nodes: list[int], X: np.ndarray, gold: str) -> list[int]:
    rows = []
    tns = page.text_nodes
    digits = FEATURES.index("digits")
    for row, k in enumerate(nodes):
        if X[row, digits] == 0 or X[row, 0] > MAX_DATE_LEN:
            continue
        for span in (1, 2, 3):
            text = " ".join(tns[j].text for j in range(k, min(k + span, len(tns))))
            value = parse_date(text)
            if value and value[:10] == gold:
                rows.append(row)
                break
    return rows


def load_pages(root: Path, log: Any) -> tuple[list[PageRows], dict[str, int]]:
    pages: list[PageRows] = []
    report = {"pages": 0, "title_unmatched": 0, "date_unmatched": 0, "dates": 0}
    for name in DATASETS:
        truth = root / name / "truth.jsonl"
        if not truth.is_file():
            log(f"missing dataset {truth}, skipped")
            continue
        for line in truth.read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            if not rec.get("title") and not rec.get("published"):
                continue
            raw = gzip.decompress((root / name / rec["path"]).read_bytes())
            page = Page.from_html(raw, rec.get("url"))
            nodes = evaluated_subset(page, relevant_content(page).nodes)
            if not nodes:
                continue
            meta = read_metadata(page)
            X = node_features(page, nodes, meta.title)
            gold_title = rec.get("title")
            title_rows = _title_rows(page, nodes, gold_title) if gold_title else []
            gold_date = rec.get("published")
            date_rows = _date_rows(page, nodes, X, gold_date) if gold_date else []
            report["pages"] += 1
            if gold_title and not title_rows:
                report["title_unmatched"] += 1
            if gold_date:
                report["dates"] += 1
                if not date_rows:
                    report["date_unmatched"] += 1
            site = rec.get("site") or rec.get("url") or f"{name}/{rec['id']}"
            lite = SimpleNamespace(text_nodes=[SimpleNamespace(text=tn.text) for tn in page.text_nodes])
            titles = {row: node_title_text(page, k, meta.title) for row, k in enumerate(nodes) if X[row, 0] <= 400}
            pages.append(
                PageRows(
                    f"{name}/{rec['id']}",
                    f"{name}:{site}",
                    lite,
                    titles,
                    nodes,
                    X,
                    page.title_text,
                    gold_title,
                    gold_date,
                    title_rows,
                    date_rows,
                    meta.site_name,
                    rec.get("url"),
                    meta.language,
                )
            )
    return pages, report


def _forest(**extra: Any) -> Any:
    from sklearn.ensemble import RandomForestClassifier

    return RandomForestClassifier(random_state=SEED, n_jobs=2, **FOREST, **extra)


def _title_set(pages: list[PageRows], features: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Candidate rows (as at extraction) of pages whose gold title was matched."""
    Xs, ys = [], []
    for p in pages:
        if p.title_rows:
            rows = title_candidates(p.X)
            Xs.append(columns(p.X[rows], features))
            ys.append(np.isin(rows, p.title_rows))
    return np.vstack(Xs), np.concatenate(ys)


def _date_X(p: PageRows, title_node: int | None) -> tuple[np.ndarray, np.ndarray]:
    rows = date_candidates(p.X)
    return rows, columns(with_title_distance(p.X[rows], [p.nodes[r] for r in rows], title_node), DATE_FEATURES)


def _date_set(pages: list[PageRows]) -> tuple[np.ndarray, np.ndarray]:
    """Candidate rows of pages with a matched date and title; distance to the gold title node."""
    Xs, ys = [], []
    for p in pages:
        if p.date_rows and p.title_rows:
            rows, X = _date_X(p, p.nodes[p.title_rows[0]])
            Xs.append(X)
            ys.append(np.isin(rows, p.date_rows))
    return np.vstack(Xs), np.concatenate(ys)


def _page_title(p: PageRows, proba: np.ndarray, rule: str) -> tuple[str | None, int | None]:
    row = pick_title(proba, rule)
    if row is None:
        return title_tag_title(p.title, p.site_name, p.url) or None, None
    text = p.title_texts.get(row, p.page.text_nodes[p.nodes[row]].text)
    return strip_site_suffix(text, p.site_name, p.url), p.nodes[row]


def cross_validate(pages: list[PageRows], log: Any) -> dict[str, Any]:
    """Group-by-site CV with the extraction's post-processing; page-level accuracies, for the
    paper's title attributes and for them plus meta_title_edit."""
    from sklearn.model_selection import GroupKFold

    sites = np.array([p.site for p in pages])
    variants = {"paper": PAPER_TITLE_FEATURES, "meta": TITLE_FEATURES}
    counts = {f"title_{v}_{rule}": 0 for v in variants for rule in RULES}
    counts.update({"title_n": 0, "date": 0, "date_n": 0, "date_matched": 0, "date_matched_n": 0})
    for k_fold, (train_idx, test_idx) in enumerate(GroupKFold(n_splits=FOLDS).split(pages, groups=sites)):
        train = [pages[i] for i in train_idx]
        title_models = {v: _forest().fit(*_title_set(train, f)) for v, f in variants.items()}
        date_model = _forest().fit(*_date_set(train))
        for i in test_idx:
            p = pages[i]
            rows = title_candidates(p.X)
            title_node = None
            for v, features in variants.items():
                pt = np.zeros(len(p.nodes))
                if len(rows):
                    pt[rows] = title_models[v].predict_proba(columns(p.X[rows], features))[:, 1]
                for rule in RULES:
                    title, node = _page_title(p, pt, rule)
                    if p.gold_title:
                        counts[f"title_{v}_{rule}"] += fold(title) == fold(p.gold_title)
                    if v == "meta" and rule == "best":
                        title_node = node
            counts["title_n"] += bool(p.gold_title)
            if p.gold_date:
                rows_d, Xd = _date_X(p, title_node)
                pd = np.zeros(len(p.nodes))
                if len(rows_d):
                    pd[rows_d] = date_model.predict_proba(Xd)[:, 1]
                _, _, published, _ = pick_date(p.page, p.nodes, p.X, pd, title_node, dayfirst_for(p.language))
                ok = (published or "")[:10] == p.gold_date
                counts["date_n"] += 1
                counts["date"] += ok
                if p.date_rows:
                    counts["date_matched_n"] += 1
                    counts["date_matched"] += ok
        log(f"fold {k_fold + 1}/{FOLDS} done")
    n = max(counts["title_n"], 1)
    out: dict[str, Any] = {
        f"title_accuracy_{v}_{rule}": round(counts[f"title_{v}_{rule}"] / n, 4) for v in variants for rule in RULES
    }
    out.update(
        {
            "title_pages": counts["title_n"],
            "date_accuracy_visible_only": round(counts["date"] / max(counts["date_n"], 1), 4),
            "date_pages": counts["date_n"],
            "date_accuracy_where_visible_date_matched": round(
                counts["date_matched"] / max(counts["date_matched_n"], 1), 4
            ),
            "date_pages_matched": counts["date_matched_n"],
        }
    )
    return out


def _card(
    name: str,
    what: str,
    features: tuple[str, ...],
    X: np.ndarray,
    y: np.ndarray,
    report: dict[str, int],
    cv: dict[str, Any],
    command: str,
) -> str:
    lines = [
        f"# {name}",
        "",
        f"{what} Random forest ({', '.join(f'{k}={v}' for k, v in FOREST.items())}, seed {SEED}),",
        "saved with newscrawl.modelio (JSON trees + SHA-256).",
        "",
        "## Data",
        "",
        f"Datasets: {', '.join(DATASETS)} (../shared/datasets). Pages used: {report['pages']}; gold title "
        f"not found among the evaluated text nodes: {report['title_unmatched']} (left out); gold dates: "
        f"{report['dates']}, no text node reads as the gold day: {report['date_unmatched']} (left out).",
        f"Training rows: {len(y)} text nodes, {int(y.sum())} positive.",
        "",
        "## Features",
        "",
        ", ".join(features) + " (newscrawl/extract/features.py; seed 000 §3.2).",
        "",
        "## Cross-validated scores (5 folds grouped by site, page level, with post-processing)",
        "",
    ]
    lines += [f"- {k}: {v}" for k, v in cv.items()]
    lines += ["", "## Command", "", f"`{command}`", ""]
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--datasets", type=Path, default=None, help="datasets folder (default ../shared/datasets)")
    parser.add_argument("--out", type=Path, default=None, help="output folder (default models/)")
    parser.add_argument("--no-cv", action="store_true", help="skip cross-validation (cards then say so)")


def run(args: argparse.Namespace) -> int:
    started = time.time()

    def log(msg: str) -> None:
        print(f"[{time.time() - started:6.1f}s] {msg}", file=sys.stderr, flush=True)

    root = args.datasets or datasets_dir()
    out = args.out or models_dir()
    out.mkdir(parents=True, exist_ok=True)
    pages, report = load_pages(root, log)
    log(f"{len(pages)} pages; report {report}")
    cv = {"cross_validation": "skipped (--no-cv)"} if args.no_cv else cross_validate(pages, log)
    log(f"cv {cv}")
    command = "newscrawl train title-date" + (" --datasets " + shlex.quote(str(args.datasets)) if args.datasets else "")
    # ship meta_title_edit only when the grouped CV says it helps (and always without CV)
    with_meta = args.no_cv or cv["title_accuracy_meta_best"] >= cv["title_accuracy_paper_best"]
    title_features = TITLE_FEATURES if with_meta else PAPER_TITLE_FEATURES
    Xt, yt = _title_set(pages, title_features)
    title_model = _forest().fit(Xt, yt)
    save_model(
        export_trees(title_model, title_features, {"report": report, "cv": cv, "seed": SEED}), out / "title_model.json"
    )
    (out / "title_model.md").write_text(
        _card(
            "title_model.json",
            "Binary classifier: is this text node the article title?",
            title_features,
            Xt,
            yt,
            report,
            cv,
            command,
        ),
        encoding="utf-8",
    )
    Xd, yd = _date_set(pages)
    date_model = _forest().fit(Xd, yd)
    save_model(
        export_trees(date_model, DATE_FEATURES, {"report": report, "cv": cv, "seed": SEED}), out / "date_model.json"
    )
    (out / "date_model.md").write_text(
        _card(
            "date_model.json",
            "Binary classifier: is this text node (part of) the publication date?",
            DATE_FEATURES,
            Xd,
            yd,
            report,
            cv,
            command,
        ),
        encoding="utf-8",
    )
    log(f"models written to {out}")
    return 0
