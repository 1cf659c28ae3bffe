"""Seed 002's hypothesis and the page classifier against baselines, on the labelled datasets.

Seed 002: "Adding the five features from link-target identification will improve overall
performance of identifying news articles than just using the two article extraction algorithms
(MSS and CoreEx)", tested with C4.5 trees, 10-fold cross-validation repeated 20 times, F1.
We run exactly that block design on wcxb-dev (paired: both feature sets see the same folds),
then the shipped feature set with the single tree and the ensembles, and compare on the same
pages with news-please's page rule (og:type=article and linked-headline ratios <= 0.65 / 0.56)
and a text-length threshold (a one-split tree on the body's text length, cross-validated).
readability is an out-of-domain check: models trained on all of wcxb-dev, tested there.

    .venv/bin/python benchmarks/page_classifier.py [--repeats 20] [--limit N]

Reads ../shared/datasets; prints tables only (no network).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from newscrawl.classify.features import COREEX_TAGS, FEATURE_NAMES  # noqa: E402
from newscrawl.train.page import MODELS, load_features, make_tree  # noqa: E402

SEED_LINKS = ("links_number", "links_date", "links_slash", "links_reserved", "links_short")
SEED_CONTENT = ("mss_score", "coreex_score") + tuple(
    f"{prefix}_{t}" for prefix in ("coreex_tag", "coreex_s_tag") for t in COREEX_TAGS + ("other",)
)


def _prf(y: np.ndarray, pred: np.ndarray) -> tuple[float, float, float]:
    tp = float(np.sum(y & pred))
    p = tp / max(float(pred.sum()), 1.0)
    r = tp / max(float(y.sum()), 1.0)
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def _columns(names: tuple[str, ...]) -> list[int]:
    return [FEATURE_NAMES.index(n) for n in names]


def _text_length_stump():
    from sklearn.tree import DecisionTreeClassifier

    return DecisionTreeClassifier(max_depth=1, criterion="entropy", random_state=0)


def repeated_cv(X: np.ndarray, y: np.ndarray, configs: dict, repeats: int) -> dict[str, np.ndarray]:
    """Per-fold (P, R, F1) for every config, all configs on the same folds (paired)."""
    from sklearn.model_selection import RepeatedStratifiedKFold

    out: dict[str, list] = {name: [] for name in configs}
    folds = RepeatedStratifiedKFold(n_splits=10, n_repeats=repeats, random_state=20)
    for train, test in folds.split(X, y):
        for name, (factory, cols) in configs.items():
            model = factory().fit(X[train][:, cols], y[train])
            out[name].append(_prf(y[test], model.predict(X[test][:, cols]).astype(bool)))
    return {name: np.asarray(v) for name, v in out.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--limit", type=int, default=None, help="pages per dataset (quick runs)")
    args = parser.parse_args()

    start = time.perf_counter()
    table = load_features(limit=args.limit)
    n_pages = len(table.y)
    print(f"features of {n_pages} pages in {time.perf_counter() - start:.0f} s "
          f"({1000 * table.seconds / max(n_pages, 1):.0f} ms/page: parse, CSS, MSS, CoreEx, metadata)\n")
    dev = table.subset("wcxb-dev")
    X, y = dev.arrays()
    everything = list(range(len(FEATURE_NAMES)))
    text_len = _columns(("text_len",))
    configs = {
        "C4.5 tree: MSS + CoreEx (seed, without links)": (make_tree, _columns(SEED_CONTENT)),
        "C4.5 tree: + five link-target features (seed, with)": (make_tree, _columns(SEED_CONTENT + SEED_LINKS)),
        "C4.5 tree: all shipped features": (make_tree, everything),
        "random forest: all shipped features": (MODELS["forest"], everything),
        "extra trees: all shipped features": (MODELS["extra-trees"], everything),
        "text-length threshold (1 split)": (_text_length_stump, text_len),
    }
    t0 = time.perf_counter()
    folds = repeated_cv(X, y, configs, args.repeats)
    print(f"## wcxb-dev: {len(y)} pages ({int(y.sum())} articles), stratified 10-fold x {args.repeats} "
          f"({time.perf_counter() - t0:.0f} s)\n")
    print("| classifier | precision | recall | F1 (mean ± sd over folds) |")
    print("|---|---|---|---|")
    for name, arr in folds.items():
        p, r, f = arr.mean(axis=0)
        print(f"| {name} | {p:.3f} | {r:.3f} | {f:.3f} ± {arr[:, 2].std():.3f} |")
    rule = np.asarray(dev.newsplease, dtype=bool)
    p, r, f = _prf(y, rule)
    print(f"| news-please rule (no training, all pages) | {p:.3f} | {r:.3f} | {f:.3f} |")

    without = folds["C4.5 tree: MSS + CoreEx (seed, without links)"][:, 2]
    with_links = folds["C4.5 tree: + five link-target features (seed, with)"][:, 2]
    diff = with_links - without
    per_repeat = diff.reshape(args.repeats, 10).mean(axis=1)
    from scipy.stats import ttest_rel

    stat = ttest_rel(with_links, without)
    print(f"\nSeed 002 hypothesis: F1 with link-target features {with_links.mean():.3f} vs without "
          f"{without.mean():.3f} (difference {diff.mean():+.3f}; better in {int((per_repeat > 0).sum())} of "
          f"{args.repeats} repeats; paired t over {len(diff)} folds: t={stat.statistic:.2f}, p={stat.pvalue:.2g}; "
          "folds overlap, so p is optimistic).")

    tree = make_tree().fit(X, y)
    print(f"C4.5 tree on all wcxb-dev pages: depth {tree.get_depth()}, {tree.get_n_leaves()} leaves.\n")

    other = [d for d in dict.fromkeys(table.dataset) if d != "wcxb-dev"]
    if other:
        print("## Out of domain: trained on all of wcxb-dev, tested on other labelled datasets\n")
        print("| dataset | pages (articles) | classifier | precision | recall | F1 |")
        print("|---|---|---|---|---|---|")
        fitted = {name: factory().fit(X[:, cols], y) for name, (factory, cols) in configs.items()}
        for name in other:
            sub = table.subset(name)
            Xo, yo = sub.arrays()
            for cname, model in fitted.items():
                p, r, f = _prf(yo, model.predict(Xo[:, configs[cname][1]]).astype(bool))
                print(f"| {name} | {len(yo)} ({int(yo.sum())}) | {cname} | {p:.3f} | {r:.3f} | {f:.3f} |")
            p, r, f = _prf(yo, np.asarray(sub.newsplease, dtype=bool))
            print(f"| {name} | {len(yo)} ({int(yo.sum())}) | news-please rule | {p:.3f} | {r:.3f} | {f:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
