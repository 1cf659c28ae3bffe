"""``newscrawl train urls``: fit the link-target (URL) classifier and write its model and card.

Data: every labelled URL in ``datasets/wcxb-dev`` (``is_article`` of each page) and
``datasets/newspaper-urls``, de-duplicated (the gold set). Those labels cover the page types of the
whole web (products, forums, docs) but hardly the non-article links of a news site (tag, category,
author, home pages), so training also reads the links inside the wcxb-dev pages whose markup says
what they point to: ``rel="tag"``, ``"category"``, ``"author"``, ``"home"``, ``"privacy-policy"``
(not an article) and ``rel="bookmark"`` (a post's permalink: an article). These weak labels come
from the HTML, not from the URL, so they teach the URL features without circularity; they are
only ever training data, never scored. Model: a decision tree grown like C4.5 (entropy gain)
and pruned by ``min_samples_leaf`` / ``ccp_alpha``, compared with random-forest and extra-trees
ensembles; the candidate with the better cross-validated F1 of the article class is shipped.

Scores are nested cross-validation: 10 outer stratified folds, grouped by site so that pages of one
site never sit on both sides, and the hyper-parameters re-chosen inside each outer training part
by 5 inner folds. The reported numbers therefore never saw the data they score.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import re
import shlex
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np

from newscrawl.links.features import FEATURE_NAMES, RESERVED_WORDS, feature_vector
from newscrawl.links.urls import registrable_domain
from newscrawl.modelio import export_trees, save_model
from newscrawl.paths import datasets_dir, models_dir
from newscrawl.safeurl import join_url

HELP = "train the URL (link-target) classifier from labelled URLs in ../shared/datasets"

SEED_FEATURES = FEATURE_NAMES[:5]
OUTER_FOLDS = 10
INNER_FOLDS = 5
N_ESTIMATORS = 100
TREE_GRID = {"min_samples_leaf": (1, 2, 5, 10, 20, 40), "ccp_alpha": (0.0, 0.0005, 0.001, 0.002, 0.005, 0.01)}
FOREST_GRID = {"kind": ("random_forest", "extra_trees"), "min_samples_leaf": (1, 3, 8), "max_features": ("sqrt", None)}


NOT_ARTICLE_RELS = frozenset(("tag", "category", "author", "home", "privacy-policy"))
ARTICLE_RELS = frozenset(("bookmark",))
MAX_LINKS_PER_SITE_REL = 5  # so that one tag-cloud site does not outweigh the rest
_A_TAG_RE = re.compile(rb"<a\s[^>]*>", re.I)
_REL_RE = re.compile(rb"""\srel\s*=\s*["']?([^"'>]+)""", re.I)
_HREF_RE = re.compile(rb"""\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.I)


@dataclass(frozen=True)
class LabelledUrl:
    url: str
    is_article: bool
    dataset: str
    site: str


def _site(url: str) -> str:
    """A grouping key for cross-validation: the last two host labels (good enough for folds)."""
    host = urlsplit(url).hostname or url
    return ".".join(host.split(".")[-2:])


def load_labelled_urls(root: Path | None = None) -> tuple[list[LabelledUrl], dict[str, int]]:
    """The labelled URLs, de-duplicated (URLs labelled both ways are dropped), and counts."""
    root = root or datasets_dir()
    seen: dict[str, LabelledUrl] = {}
    conflicts: set[str] = set()
    counts: dict[str, int] = {}
    for dataset in ("wcxb-dev", "newspaper-urls"):
        path = root / dataset / "truth.jsonl"
        n = 0
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                row = json.loads(line)
                url, label = row.get("url"), row.get("is_article")
                if not url or label is None:
                    continue
                n += 1
                item = LabelledUrl(url.strip(), bool(label), dataset, row.get("site") or _site(url.strip()))
                key = item.url.split("#", 1)[0]
                if key in seen and seen[key].is_article != item.is_article:
                    conflicts.add(key)
                seen.setdefault(key, item)
        counts[dataset] = n
    rows = [item for key, item in seen.items() if key not in conflicts]
    counts["unique"] = len(seen)
    counts["conflicting"] = len(conflicts)
    counts["used"] = len(rows)
    counts["articles"] = sum(r.is_article for r in rows)
    return rows, counts


def load_rel_labelled_links(root: Path | None = None, exclude: set[str] | None = None) -> list[LabelledUrl]:
    """Same-site links in the wcxb-dev pages labelled by their ``rel`` (see the module docstring).

    At most :data:`MAX_LINKS_PER_SITE_REL` distinct URLs per site and rel; URLs labelled both ways,
    or present in ``exclude`` (the gold set), are left out.
    """
    root = root or datasets_dir()
    folder = root / "wcxb-dev"
    labels: dict[str, set[bool]] = {}
    site_of: dict[str, str] = {}
    taken: dict[tuple[str, str], int] = {}
    with (folder / "truth.jsonl").open(encoding="utf-8") as fh:
        pages = [json.loads(line) for line in fh]
    for page in pages:
        base = page.get("url")
        if not base or not page.get("path"):
            continue
        site = registrable_domain(base)
        html = gzip.decompress((folder / page["path"]).read_bytes())
        for tag in _A_TAG_RE.findall(html):
            rel_match, href_match = _REL_RE.search(tag), _HREF_RE.search(tag)
            if not rel_match or not href_match:
                continue
            rels = set(rel_match.group(1).decode("ascii", "replace").lower().split())
            is_article = bool(rels & ARTICLE_RELS)
            if is_article == bool(rels & NOT_ARTICLE_RELS):
                continue  # neither, or both
            href = next(g for g in href_match.groups() if g is not None).decode("utf-8", "replace").strip()
            joined = join_url(base, href.replace("&amp;", "&"))
            if joined is None:  # malformed href: not a labelled link
                continue
            url = joined.split("#", 1)[0]
            if not url.startswith(("http://", "https://")) or registrable_domain(url) != site:
                continue
            if exclude and url in exclude:
                continue
            key = (site, min(rels & (ARTICLE_RELS | NOT_ARTICLE_RELS)))
            if url not in labels:
                if taken.get(key, 0) >= MAX_LINKS_PER_SITE_REL:
                    continue
                taken[key] = taken.get(key, 0) + 1
                labels[url] = set()
                site_of[url] = site
            labels[url].add(is_article)
    return [
        LabelledUrl(url, next(iter(found)), "wcxb-dev links (rel)", site_of[url])
        for url, found in labels.items()
        if len(found) == 1
    ]


def feature_matrix(urls: Sequence[str], reserved_words: Sequence[str] = RESERVED_WORDS) -> np.ndarray:
    return np.asarray([feature_vector(u, reserved_words) for u in urls], dtype=np.float64)


def _grid(spec: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    return [dict(zip(spec, values)) for values in itertools.product(*spec.values())]


def make_estimator(family: str, params: dict[str, Any], seed: int) -> Any:
    """A fresh estimator of ``family`` ("tree" or "forest") with ``params``."""
    from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier
    from sklearn.tree import DecisionTreeClassifier

    if family == "tree":
        return DecisionTreeClassifier(criterion="entropy", random_state=seed, **params)
    params = dict(params)
    cls = RandomForestClassifier if params.pop("kind") == "random_forest" else ExtraTreesClassifier
    return cls(n_estimators=N_ESTIMATORS, criterion="entropy", random_state=seed, n_jobs=1, **params)


def _folds(n_splits: int, seed: int) -> Any:
    from sklearn.model_selection import StratifiedGroupKFold

    return StratifiedGroupKFold(n_splits=n_splits, shuffle=True, random_state=seed)


def f1_of(y: np.ndarray, proba: np.ndarray, threshold: float = 0.5) -> float:
    pred = proba >= threshold
    tp = float(np.sum(pred & y))
    return 0.0 if tp == 0 else 2 * tp / (np.sum(pred) + np.sum(y))


def prf(y: Sequence[bool] | np.ndarray, pred: Sequence[bool] | np.ndarray) -> tuple[float, float, float]:
    """Precision, recall and F1 of the positive (article) class."""
    y_arr, p_arr = np.asarray(y, dtype=bool), np.asarray(pred, dtype=bool)
    tp = float(np.sum(y_arr & p_arr))
    precision = tp / max(1, int(np.sum(p_arr)))
    recall = tp / max(1, int(np.sum(y_arr)))
    f1 = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
    return precision, recall, f1


Extra = tuple[np.ndarray, np.ndarray, np.ndarray]  # X, y, groups of training-only rows


def _training_rows(
    X: np.ndarray, y: np.ndarray, train: np.ndarray, held_out_sites: np.ndarray, extra: Extra | None
) -> tuple[np.ndarray, np.ndarray]:
    """Gold training rows plus the training-only rows of sites not in the held-out part."""
    if extra is None:
        return X[train], y[train]
    keep = ~np.isin(extra[2], held_out_sites)
    return np.vstack([X[train], extra[0][keep]]), np.concatenate([y[train], extra[1][keep]])


def select(
    family: str, X: np.ndarray, y: np.ndarray, groups: np.ndarray, seed: int, extra: Extra | None = None
) -> tuple[dict[str, Any], float]:
    """The hyper-parameters of ``family`` with the best mean F1 over inner folds (gold rows only).

    Ties go to the simplest tree (larger leaves, stronger pruning), listed last in the grid.
    """
    candidates = _grid(TREE_GRID if family == "tree" else FOREST_GRID)
    splits = [
        (_training_rows(X, y, train, groups[test], extra), test)
        for train, test in _folds(INNER_FOLDS, seed).split(X, y, groups)
    ]
    best: tuple[float, int] = (-1.0, -1)
    for index, params in enumerate(candidates):
        scores = []
        for (X_train, y_train), test in splits:
            est = make_estimator(family, params, seed).fit(X_train, y_train)
            scores.append(f1_of(y[test], est.predict_proba(X[test])[:, 1]))
        score = float(np.mean(scores))
        if score >= best[0] - 1e-12:
            best = (score, index)
    return candidates[best[1]], best[0]


def nested_cv_proba(
    family: str, X: np.ndarray, y: np.ndarray, groups: np.ndarray, seed: int, extra: Extra | None = None
) -> np.ndarray:
    """Held-out article probabilities of the gold rows: each outer fold is scored by a model
    selected and fitted without it (and without the training-only rows of its sites)."""
    proba = np.zeros(len(y))
    for train, test in _folds(OUTER_FOLDS, seed).split(X, y, groups):
        inner_extra = None
        if extra is not None:
            keep = ~np.isin(extra[2], groups[test])
            inner_extra = (extra[0][keep], extra[1][keep], extra[2][keep])
        params, _ = select(family, X[train], y[train], groups[train], seed, inner_extra)
        X_train, y_train = _training_rows(X, y, train, groups[test], extra)
        est = make_estimator(family, params, seed).fit(X_train, y_train)
        proba[test] = est.predict_proba(X[test])[:, 1]
    return proba


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, default=None, help="model path (default models/url_classifier.json)")
    parser.add_argument("--seed", type=int, default=0, help="random seed for folds and ensembles")


@dataclass
class TrainingData:
    gold: list[LabelledUrl]
    counts: dict[str, int]
    X: np.ndarray
    y: np.ndarray
    groups: np.ndarray
    extra: Extra  # the rel-labelled links: training only


def training_data(root: Path | None = None) -> TrainingData:
    """The gold URLs as arrays, and the rel-labelled links as training-only rows."""
    gold, counts = load_labelled_urls(root)
    rel = load_rel_labelled_links(root, exclude={r.url for r in gold})
    counts["rel_links"] = len(rel)
    counts["rel_articles"] = sum(r.is_article for r in rel)
    counts["rel_sites"] = len({r.site for r in rel})
    extra = (
        feature_matrix([r.url for r in rel]),
        np.asarray([r.is_article for r in rel], dtype=bool),
        np.asarray([r.site for r in rel]),
    )
    return TrainingData(
        gold,
        counts,
        feature_matrix([r.url for r in gold]),
        np.asarray([r.is_article for r in gold], dtype=bool),
        np.asarray([r.site for r in gold]),
        extra,
    )


def run(args: argparse.Namespace) -> int:
    import sklearn

    started = time.time()
    out: Path = args.out or models_dir() / "url_classifier.json"
    data = training_data()
    X, y, groups, extra, counts = data.X, data.y, data.groups, data.extra, data.counts
    print(f"labelled URLs: {counts}", flush=True)

    results: dict[str, dict[str, Any]] = {}
    seed_cols = [FEATURE_NAMES.index(f) for f in SEED_FEATURES]
    seed_extra = (extra[0][:, seed_cols], extra[1], extra[2])
    contenders = {"tree": "tree (entropy, pruned)", "forest": "forest (RandomForest / ExtraTrees)"}
    for name, family, cols, rows in (
        ("tree, seed-002 five features only", "tree", seed_cols, seed_extra),
        ("tree, without the rel-labelled links", "tree", None, None),
        (contenders["tree"], "tree", None, extra),
        (contenders["forest"], "forest", None, extra),
    ):
        X_used = X if cols is None else X[:, cols]
        proba = nested_cv_proba(family, X_used, y, groups, args.seed, rows)
        p, r, f = prf(y, proba >= 0.5)
        results[name] = {"family": family, "precision": p, "recall": r, "f1": f}
        print(f"{name:40s} nested {OUTER_FOLDS}-fold CV: P={p:.3f} R={r:.3f} F1={f:.3f}", flush=True)

    chosen = max(contenders, key=lambda family: (results[contenders[family]]["f1"], family == "tree"))
    params, inner_f1 = select(chosen, X, y, groups, args.seed, extra)
    model = make_estimator(chosen, params, args.seed).fit(np.vstack([X, extra[0]]), np.concatenate([y, extra[1]]))
    estimators = getattr(model, "estimators_", [model])
    shape = {
        "max_depth": max(int(e.get_depth()) for e in estimators),
        "leaves": int(sum(e.get_n_leaves() for e in estimators)),
        "trees": len(estimators),
    }
    command = "newscrawl train urls" + (f" --seed {args.seed}" if args.seed else "")
    if args.out:
        command += f" --out {shlex.quote(str(args.out))}"
    meta = {
        "target": "is_article",
        "positive": True,
        "family": chosen,
        "params": params,
        "reserved_words": list(RESERVED_WORDS),
        "cv": results,
        "counts": counts,
        "seed": args.seed,
        "sklearn": sklearn.__version__,
        "command": command,
        **shape,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    save_model(export_trees(model, FEATURE_NAMES, meta), out)
    out.with_suffix(".md").write_text(_card(meta, inner_f1, model, contenders[chosen]), encoding="utf-8")
    print(f"shipped {chosen} {params} ({shape}) -> {out} in {time.time() - started:.0f}s")
    return 0


def _card(meta: dict[str, Any], inner_f1: float, model: Any, shipped_row: str) -> str:
    from sklearn.tree import export_text

    counts = meta["counts"]
    importances = sorted(zip(FEATURE_NAMES, model.feature_importances_), key=lambda t: -t[1])
    lines = [
        "# URL (link-target) classifier",
        "",
        "Article probability of a link from its URL alone (seed 002, link-target identification).",
        "Used by the `news` spider to prioritise and route links; `newscrawl.links.classifier.UrlClassifier`.",
        "",
        "## Data",
        f"- `wcxb-dev`: {counts['wcxb-dev']} page URLs with `is_article` (page_type == article).",
        f"- `newspaper-urls`: {counts['newspaper-urls']} hand-labelled URLs (newspaper4k's `valid_url` test list).",
        f"- De-duplicated: {counts['unique']} unique, {counts['conflicting']} labelled both ways and dropped,"
        f" {counts['used']} used ({counts['articles']} articles, {counts['used'] - counts['articles']} other).",
        f"- Training only (never scored): {counts['rel_links']} same-site links inside the wcxb-dev pages labelled by"
        f" their markup, from {counts['rel_sites']} sites: `rel=bookmark` = article ({counts['rel_articles']}),"
        f" `rel=tag|category|author|home|privacy-policy` = not ({counts['rel_links'] - counts['rel_articles']});"
        f" at most {MAX_LINKS_PER_SITE_REL} per site and rel. They add the tag/category/author/home links of"
        " news and blog sites that the gold labels hardly contain.",
        "- No saved site (e.g. `sites/wyofile`) and no demo-site URL is used for training or tuning.",
        "",
        "## Features (`newscrawl.links.features.FEATURE_NAMES`, in order)",
        *[f"- `{name}`" + (" (seed 002)" if name in SEED_FEATURES else "") for name in FEATURE_NAMES],
        f"- Reserved words ({len(RESERVED_WORDS)}): " + ", ".join(RESERVED_WORDS) + "; plus `page/N` and `?page=N`.",
        "",
        "## Model",
        f"- Shipped: **{meta['family']}** {json.dumps(meta['params'])}, criterion entropy (C4.5's gain),"
        f" {meta['trees']} tree(s), max depth {meta['max_depth']}, {meta['leaves']} leaves in total.",
        f"- Hyper-parameters chosen by {INNER_FOLDS}-fold grouped stratified CV on all data"
        f" (mean F1 {inner_f1:.3f}). Tree grid: {json.dumps(TREE_GRID)}. Ensemble grid ({N_ESTIMATORS} trees):"
        f" {json.dumps(FOREST_GRID)}.",
        "- Feature importances: " + ", ".join(f"{n} {v:.2f}" for n, v in importances) + ".",
        "",
        f"## Cross-validated scores (article class, threshold 0.5; nested: {OUTER_FOLDS} outer stratified folds"
        f" grouped by site, hyper-parameters re-chosen by {INNER_FOLDS} inner folds; scored on the gold URLs only,"
        " rel-labelled links of a held-out fold's sites left out of its training)",
        "",
        "| model | precision | recall | F1 |",
        "|---|---|---|---|",
        *[
            f"| {name}{' **(shipped)**' if name == shipped_row else ''} | {r['precision']:.3f} | {r['recall']:.3f}"
            f" | {r['f1']:.3f} |"
            for name, r in meta["cv"].items()
        ],
        "",
        "All rows but the first use the six features; all but the second add the rel-labelled links to training.",
        "",
        "Comparison with newspaper4k's `valid_url` and courlan, and a held-out saved site:"
        " `python benchmarks/url_classifier.py`.",
        "",
        *(
            [
                "## The shipped tree (training rows at each leaf: [not article, article])",
                "",
                "```",
                export_text(model, feature_names=list(FEATURE_NAMES), show_weights=True, decimals=2).rstrip(),
                "```",
                "",
            ]
            if meta["trees"] == 1
            else []
        ),
        "## Limitations",
        "- An article URL whose only evidence is a numeric id with a short slug (`/story?id=62025268`,"
        " `/news/business-21302969`) scores low: in the gold data such URLs are mostly product pages and forum"
        " threads. It still ranks above tag/category/about/home links, but hand-off on id-only sites needs"
        " page-level evidence.",
        "- Static pages with headline-like slugs (`/dying-in-jail/`, a project landing page) look like articles.",
        "",
        "## Reproduce",
        f"- `{meta['command']}` (scikit-learn {meta['sklearn']}, Python {sys.version.split()[0]}, "
        f"seed {meta['seed']}).",
        "- Format: `newscrawl.modelio` JSON trees with a SHA-256 checksum; loading never runs code.",
        "",
    ]
    return "\n".join(lines)
