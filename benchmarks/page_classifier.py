"""Seed 002's hypothesis and the page classifier against baselines, on the labelled datasets.

Seed 002: "Adding the five features from link-target identification will improve overall
performance of identifying news articles than just using the two article extraction algorithms
(MSS and CoreEx)", tested with C4.5 trees, 10-fold cross-validation repeated 20 times, F1.
We run exactly that block design on wcxb-dev (paired: both feature sets see the same folds),
then the shipped feature set with the single tree and the ensembles, and compare on the same
pages with news-please's page rule (og:type=article and linked-headline ratios <= 0.65 / 0.56)
and a text-length threshold (a one-split tree on the body's text length, cross-validated).
Ablations on the same folds: the previous model's features (before the extraction/structure
groups, with MSS), the shipped model type without the text models (round 5) and without the round-4
shape group, each text model alone, and the shipped set plus MSS (the expensive feature the shipped
set leaves out). The text models' probabilities are nested in each fold (out of inner folds for
the training part), as `newscrawl train page` does. The shipped model type is also cross-validated with folds grouped by site (stricter: no
site in both train and test), its misses are counted by page type, and the features' CPU cost
is split by part. The words model is also scored as ``page_model="words"`` applies it (English text only,
dated pages lowered part of the way: round 6), and as the default applies it, after the first pass that
decides alone where it is sure (round 7: the shipped threshold, a model refitted in each fold), and the shipped models' out-of-domain
recall is counted: the pages each calls articles on trafilatura-eval by ``<html lang>`` and on
cleanportaleval (nearly all articles; neither has page labels). readability is an out-of-domain check:
models trained on all of wcxb-dev, tested there (its pages have no URL, so the models for it are
trained on wcxb-dev parsed without URLs, as the shipped URL-less model is).

    .venv/bin/python benchmarks/page_classifier.py [--repeats 20] [--limit N] [--cost-pages 200] [--shipped-only]

Reads ../shared/datasets; prints tables only (no network).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import newscrawl.classify.features as page_features  # noqa: E402
from newscrawl.classify.features import COREEX_TAGS, FAST_FEATURES, FEATURE_GROUPS, FEATURE_NAMES  # noqa: E402
from newscrawl.classify.mss import mss  # noqa: E402
from newscrawl.classify.text import ENGLISH_SHARE, TEXT_FEATURES, english_share, text_inputs, text_probabilities  # noqa: E402
from newscrawl import modelio  # noqa: E402
from newscrawl.classify.page import (FAST_MODEL_FILE, MODEL_FILE, THRESHOLD, WORDS_MODEL_FILE, applied,  # noqa: E402
                                     dated, first_pass_file, load, load_first_pass,
                                     page_model_file, probability)
from newscrawl.extract.api import extract_page  # noqa: E402
from newscrawl.page import Page  # noqa: E402
from newscrawl.paths import datasets_dir, models_dir  # noqa: E402
from newscrawl.train.page import (LABELLED_DATASETS, MODELS, labelled_pages, load_features,  # noqa: E402
                                  make_text_model, make_tree, one_openmp_thread, text_columns, text_matrices)

SEED_LINKS = ("links_number", "links_date", "links_slash", "links_reserved", "links_short")
MSS = "mss_score"  # seed 002's MSS score: measured here, not in the shipped features
SEED_CONTENT = (MSS, "coreex_score") + tuple(
    f"{prefix}_{t}" for prefix in ("coreex_tag", "coreex_s_tag") for t in COREEX_TAGS + ("other",)
)


def _prf(y: np.ndarray, pred: np.ndarray) -> tuple[float, float, float]:
    tp = float(np.sum(y & pred))
    p = tp / max(float(pred.sum()), 1.0)
    r = tp / max(float(y.sum()), 1.0)
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


ALL_NAMES = FEATURE_NAMES + (MSS, "mss_share")  # columns of _with_mss


def _columns(names: tuple[str, ...]) -> list[int]:
    return [ALL_NAMES.index(n) for n in names]


def _text_length_stump():
    from sklearn.tree import DecisionTreeClassifier

    return DecisionTreeClassifier(max_depth=1, criterion="entropy", random_state=0)


@dataclass
class WordsMode:
    """The words model as ``newscrawl.classify.page.probability`` applies it: the no-text model's probability
    on pages whose text is not English, lowered only DATED_WEIGHT of the way to the words model's on pages
    showing a date, the words model's elsewhere."""

    name: str
    words: str  # the config with the text models
    plain: str  # the config without them
    english: np.ndarray  # per page: english_share(page text) >= ENGLISH_SHARE
    dated: np.ndarray  # per page: newscrawl.classify.page.dated

    first_pass: str | None = None  # the config of the first pass (FAST_FEATURES), if scored
    below: float = 0.0  # the first pass decides where its probability is <= below or >= 1 - below
    cascade_name: str = ""

    def combine(self, probs: dict[str, np.ndarray], rows: np.ndarray) -> np.ndarray:
        return applied(probs[self.plain], probs[self.words], self.english[rows], self.dated[rows])

    def cascade(self, probs: dict[str, np.ndarray], rows: np.ndarray) -> np.ndarray:
        """The shipped default: the first pass where it is sure, the words model as applied elsewhere."""
        fast = probs[self.first_pass]
        return np.where((fast <= self.below) | (fast >= 1 - self.below), fast, self.combine(probs, rows))


def repeated_cv(X: np.ndarray, y: np.ndarray, configs: dict, repeats: int, groups: list[str] | None = None,
                misses: dict[str, Counter] | None = None, texts=None, words_mode: WordsMode | None = None
                ) -> dict[str, np.ndarray]:
    """Per-fold (P, R, F1) for every config ``(factory, columns, with_text)``, all configs on the same
    folds (paired); with ``groups`` the folds keep each group (site) on one side. ``with_text``
    appends the text model's probability (``texts``: the hashed pages), nested in the fold: out of
    inner folds for the training part, from a model fitted on the training part for the test part;
    a config without a factory is the text model of column ``columns[0]`` alone. ``words_mode`` adds
    the row of the words model as ``probability()`` applies it, from two configs' probabilities in
    the same fold. ``misses[config]`` counts each page's errors."""
    from sklearn.model_selection import RepeatedStratifiedKFold, StratifiedGroupKFold

    out: dict[str, list] = {name: [] for name in configs}
    if words_mode is not None:
        out[words_mode.name] = []
        if words_mode.first_pass in configs:
            out[words_mode.cascade_name] = []
    if groups is None:
        splits = list(RepeatedStratifiedKFold(n_splits=10, n_repeats=repeats, random_state=20).split(X, y))
    else:
        splits = [s for r in range(repeats)
                  for s in StratifiedGroupKFold(n_splits=10, shuffle=True, random_state=20 + r).split(X, y, groups)]
    needs_text = any(with_text for _, _, with_text in configs.values())
    for k, (train, test) in enumerate(splits):
        text_train, text_test = text_columns(texts, y, train, test, seed=k) if needs_text else (None, None)
        probs = {}
        for name, (factory, cols, with_text) in configs.items():
            if factory is None:  # cols: the text model's column
                pred = text_test[:, cols[0]] >= THRESHOLD
            else:
                X_train, X_test = X[train][:, cols], X[test][:, cols]
                if with_text:
                    X_train, X_test = np.column_stack([X_train, text_train]), np.column_stack([X_test, text_test])
                model = factory().fit(X_train, y[train])
                pred = model.predict(X_test).astype(bool)
                probs[name] = model.predict_proba(X_test)[:, 1]
            out[name].append(_prf(y[test], pred))
            if misses is not None and name in misses:
                misses[name].update(int(i) for i in test[pred != y[test]])
        if words_mode is not None:
            out[words_mode.name].append(_prf(y[test], words_mode.combine(probs, test) >= THRESHOLD))
            if words_mode.first_pass in configs:
                out[words_mode.cascade_name].append(_prf(y[test], words_mode.cascade(probs, test) >= THRESHOLD))
    return {name: np.asarray(v) for name, v in out.items()}


def _print_rows(folds: dict[str, np.ndarray]) -> None:
    print("| classifier | precision | recall | F1 (mean ± sd over folds) |")
    print("|---|---|---|---|")
    for name, arr in folds.items():
        p, r, f = arr.mean(axis=0)
        print(f"| {name} | {p:.3f} | {r:.3f} | {f:.3f} ± {arr[:, 2].std():.3f} |")


def feature_cost(n_pages: int) -> None:
    """CPU time per page of the extraction itself and of the classifier's feature parts (CoreEx,
    the rest), on the first ``n_pages`` wcxb-dev pages, and what MSS costs on top (after the
    features, so it finds the cascade built); CoreEx is timed by wrapping the function the
    feature module calls."""
    spent = Counter()

    def timed(name, fn):
        def wrapper(page, **kwargs):
            t = time.process_time()
            try:
                return fn(page, **kwargs)
            finally:
                spent[name] += time.process_time() - t
        return wrapper

    original = page_features.coreex
    page_features.coreex = timed("coreex", original)
    try:
        pages = 0
        for _, raw, url, _ in labelled_pages("wcxb-dev", n_pages):
            t = time.process_time()
            page = Page.from_html(raw, url)
            spent["parse"] += time.process_time() - t

            def features(page, art, meta, evidence):
                t = time.process_time()
                page_features.feature_vector(page, meta, art, evidence)
                spent["features"] += time.process_time() - t
                t = time.process_time()
                text_matrices([tuple(text_inputs(page, art.title).values())])
                spent["text"] += time.process_time() - t
                return False, 0.0

            t = time.process_time()
            extract_page(page, classifier=features)
            spent["extract+features"] += time.process_time() - t
            t = time.process_time()
            mss(page)
            spent["mss"] += time.process_time() - t
            pages += 1
    finally:
        page_features.coreex = original
    ms = {k: 1000 * v / max(pages, 1) for k, v in spent.items()}
    rest = ms["features"] - ms["coreex"]
    total = ms["parse"] + ms["extract+features"]  # the text model's hashing is timed inside it
    print(f"## Feature cost: CPU ms per page, first {pages} wcxb-dev pages (one process; machine shared)\n")
    print("| part | CPU ms/page | share of parse + extraction + features |")
    print("|---|---|---|")
    for name, value in (("parse (Page)", ms["parse"]), ("extraction without classifier", ms["extract+features"] - ms["features"] - ms["text"]),
                        ("classifier features: CoreEx", ms["coreex"]),
                        ("classifier features: the rest (shipped)", rest),
                        ("text models: page text and headline, hashed n-grams (opt-in words model)", ms["text"]),
                        ("MSS on top (the previous model's features; not shipped)", ms["mss"])):
        print(f"| {name} | {value:.1f} | {value / total:.0%} |")
    print()


def _with_mss(table) -> tuple[np.ndarray, np.ndarray]:
    """The shipped features, then MSS score and MSS score / text length (the previous model had both)."""
    X, y = table.arrays()
    score = np.asarray(table.mss, dtype=np.float64).reshape(-1, 1)
    text_len = X[:, FEATURE_NAMES.index("text_len")].reshape(-1, 1)
    share = np.divide(score, text_len, out=np.zeros_like(score), where=text_len > 0)
    return np.hstack([X, score, share]), y


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--limit", type=int, default=None, help="pages per dataset (quick runs)")
    parser.add_argument("--cost-pages", type=int, default=200, help="pages timed for the feature cost table (0: skip)")
    parser.add_argument("--shipped-only", action="store_true",
                        help="only the shipped model type, the same without the text models, and each text model "
                             "alone, plain and grouped by site, on wcxb-dev (the issue's number; a fraction of the "
                             "full run's CPU, for a loaded machine)")
    args = parser.parse_args()
    one_openmp_thread()

    if args.cost_pages:
        feature_cost(args.cost_pages)
    start = time.perf_counter()
    table = load_features(("wcxb-dev",) if args.shipped_only else LABELLED_DATASETS, args.limit, with_mss=True)
    n_pages = len(table.y)
    print(f"extraction + features of {n_pages} pages in {time.perf_counter() - start:.0f} s wall, "
          f"{table.cpu_seconds:.0f} s CPU ({1000 * table.cpu_seconds / max(n_pages, 1):.0f} ms CPU/page)\n")
    dev = table.subset("wcxb-dev")
    X, y = _with_mss(dev)
    everything = list(range(len(FEATURE_NAMES)))
    text_len = _columns(("text_len",))
    added = set(FEATURE_GROUPS["extraction"] + FEATURE_GROUPS["structure"] + FEATURE_GROUPS["shape"])
    # the first model's 77 features: these minus the extraction, structure and shape groups, plus MSS score and its share
    before = [i for i, n in enumerate(FEATURE_NAMES) if n not in added] + _columns((MSS, "mss_share"))
    round3 = [i for i, n in enumerate(FEATURE_NAMES) if n not in FEATURE_GROUPS["shape"]]  # before round 4
    # the model type `newscrawl train page` shipped (read from its file without checking its feature
    # list, so the benchmark of new features runs before the retrain)
    shipped_model = modelio.load_model(models_dir() / MODEL_FILE)
    kind = shipped_model.meta["chosen"]
    reads_text = bool(set(shipped_model.features) & set(TEXT_FEATURES))  # the default reads none (round 5)
    mark = {k: " (shipped)" if k == kind and reads_text else "" for k in MODELS}
    stacked = {"tree": "C4.5 tree", "forest": "random forest", "extra-trees": "extra trees",
               "boosted": "gradient-boosted trees"}[kind] + f": all features + the text models{mark[kind]}"
    base = stacked.split(":")[0]
    plain_mark = "" if reads_text else ' (shipped as page_model="plain")'
    no_text = f"{base}: all features, no text models{plain_mark}"
    shipped = stacked if reads_text else no_text
    text_alone = "text model alone (hashed word n-grams of headline + <title> + body, logistic)"
    headline_alone = "headline model alone (hashed word n-grams of headline + <title>, logistic)"
    configs = {  # (factory, columns, with the text model's probability)
        "C4.5 tree: MSS + CoreEx (seed, without links)": (make_tree, _columns(SEED_CONTENT), False),
        "C4.5 tree: + five link-target features (seed, with)": (make_tree, _columns(SEED_CONTENT + SEED_LINKS), False),
        f"C4.5 tree: all features + the text models{mark['tree']}": (make_tree, everything, True),
        f"random forest: all features + the text models{mark['forest']}": (MODELS["forest"], everything, True),
        f"extra trees: all features + the text models{mark['extra-trees']}": (MODELS["extra-trees"], everything, True),
        f"gradient-boosted trees: all features + the text models{mark['boosted']}": (MODELS["boosted"], everything, True),
        "extra trees: without the extraction and structure groups (previous model's features)":
            (MODELS["extra-trees"], before, False),
        no_text: (MODELS[kind], everything, False),
        f"{base}: without the shape group": (MODELS[kind], round3, True),
        f"{base}: all features + the text models + MSS score": (MODELS[kind], everything + _columns((MSS,)), True),
        text_alone: (None, [TEXT_FEATURES.index("text_model")], True),
        headline_alone: (None, [TEXT_FEATURES.index("headline_model")], True),
        "text-length threshold (1 split)": (_text_length_stump, text_len, False),
    }
    fast = load_first_pass(str(models_dir() / FAST_MODEL_FILE))
    first_pass = "first pass alone: gradient-boosted trees on the fast features"
    configs[first_pass] = (MODELS["boosted"], _columns(FAST_FEATURES), False)
    if args.shipped_only:
        configs = {name: configs[name] for name in (stacked, no_text, text_alone, headline_alone, first_pass)}
    texts = text_matrices(dev.texts)
    below = fast.below if fast is not None else 0.0
    words_mode = WordsMode(f"{base}: the text models as applied (English text only, dated pages lowered part "
                           'of the way; page_model="words")', stacked, no_text,
                           np.asarray([english_share(row[TEXT_FEATURES.index("text_model")]) >= ENGLISH_SHARE
                                       for row in dev.texts]),
                           dated(X), first_pass, below,
                           f"shipped default: the first pass where <= {below:g} or >= {1 - below:g}, "
                           "else the words model as applied")
    t0 = time.perf_counter()
    misses = {shipped: Counter()}
    folds = repeated_cv(X, y, configs, args.repeats, misses=misses, texts=texts, words_mode=words_mode)
    print(f"## wcxb-dev: {len(y)} pages ({int(y.sum())} articles), stratified 10-fold x {args.repeats} "
          f"({time.perf_counter() - t0:.0f} s)\n")
    _print_rows(folds)
    rule = np.asarray(dev.newsplease, dtype=bool)
    p, r, f = _prf(y, rule)
    print(f"| news-please rule (no training, all pages) | {p:.3f} | {r:.3f} | {f:.3f} |")
    if not args.shipped_only:
        seed_hypothesis(X, y, folds, args.repeats)
    print()

    truth = {}
    with open(datasets_dir() / "wcxb-dev" / "truth.jsonl", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            truth[row["id"]] = row
    kinds = [truth[i].get("page_type", "?") for i in dev.ids]
    print(f"## Misses of {shipped} by page type (mean per repeat over {args.repeats} repeats)\n")
    print("| page type | pages | misclassified | share |")
    print("|---|---|---|---|")
    per_kind = Counter()
    for i, count in misses[shipped].items():
        per_kind[kinds[i]] += count / args.repeats
    for kind, n in Counter(kinds).most_common():
        print(f"| {kind} | {n} | {per_kind[kind]:.1f} | {per_kind[kind] / n:.1%} |")
    print()

    sites = [truth[i].get("site") or i for i in dev.ids]
    grouped_configs = {name: configs[name] for name in (stacked, no_text, text_alone, headline_alone, first_pass,
                                                        "extra trees: without the "
                                                        "extraction and structure groups (previous model's features)")
                       if name in configs}
    grouped = repeated_cv(X, y, grouped_configs, args.repeats, groups=sites, texts=texts, words_mode=words_mode)
    print(f"## Stricter: 10-fold grouped by site x {args.repeats} ({len(set(sites))} sites)\n")
    _print_rows(grouped)
    print()
    articles_called(args.limit)
    if args.shipped_only:
        return 0

    # the URL-less model: the same pages parsed without their URLs (as extract(html) sees them)
    bare = load_features(("wcxb-dev",), args.limit, with_mss=True, with_urls=False)
    Xb, yb = _with_mss(bare)
    bare_texts = text_matrices(bare.texts)
    bare_configs = {f"{base}, pages parsed without URLs, no text models (the URL-less model)": configs[no_text],
                    f"{base}, pages parsed without URLs, with the text models (not shipped)": configs[stacked]}
    print(f"## wcxb-dev parsed without URLs, stratified 10-fold x {args.repeats}\n")
    _print_rows(repeated_cv(Xb, yb, bare_configs, args.repeats, texts=bare_texts))
    print()
    out_of_domain(table, (X, y, texts), (Xb, yb, bare_texts), configs)
    return 0


def articles_called(limit: int | None) -> None:
    """Out-of-domain recall of the shipped models: the pages each calls articles on trafilatura-eval (news
    and blog pages, nearly all articles, no page labels) by declared language (``<html lang>``) and on
    cleanportaleval (all articles), with the CPU time of the classifier alone per page. Pages without a
    URL (trafilatura-eval has 35) get the URL-less model in every column, as in ``extract()``."""
    words_model, texts = load(str(models_dir() / WORDS_MODEL_FILE))
    modes = ('page_model="plain"', "words model alone", 'page_model="words" (as applied)',
             "default (first pass, then the words model as applied)")
    choice = {'page_model="plain"': "plain", 'page_model="words" (as applied)': "words",
              "default (first pass, then the words model as applied)": "default"}
    called: dict[tuple[str, str], Counter] = {}
    cpu = Counter()
    for name in ("trafilatura-eval", "cleanportaleval"):
        with open(datasets_dir() / name / "truth.jsonl", encoding="utf-8") as fh:
            rows = [json.loads(line) for line in fh if line.strip()][:limit]
        for row in rows:
            with gzip.open(datasets_dir() / name / row["path"], "rb") as fh:
                page = Page.from_html(fh.read(), row.get("url"))
            lang = (page.root.get("lang") or "?").strip().lower()[:2] if name == "trafilatura-eval" else "all"

            def record(page, art, meta, evidence):
                page_features.feature_vector(page, meta, art, evidence)  # what a first call caches is timed in none
                for mode in modes:
                    t = time.process_time()
                    if mode == "words model alone" and page.url:
                        values = page_features.feature_vector(page, meta, art, evidence)
                        p = words_model.positive_proba([values + text_probabilities(texts, text_inputs(page, art.title))])[0]
                    else:  # as extract() does: a page without a URL gets the URL-less model in every mode
                        setting = choice.get(mode, "words")
                        p = probability(page, meta, page_model_file(setting, page), article=art, evidence=evidence,
                                        first_pass=first_pass_file(setting, page))
                    cpu[mode] += time.process_time() - t
                    called.setdefault((name, lang), Counter())[mode] += p >= THRESHOLD
                called[(name, lang)]["pages"] += 1
                return False, 0.0

            extract_page(page, classifier=record)
    pages = sum(c["pages"] for c in called.values())
    print("## Out of domain: pages called articles by the shipped models (nearly all are articles)\n")
    print("| dataset | `<html lang>` | pages | " + " | ".join(modes) + " |")
    print("|---|---|---|" + "---|" * len(modes))
    for (name, lang), c in sorted(called.items(), key=lambda kv: (kv[0][0], -kv[1]["pages"])):
        print(f"| {name} | {lang} | {c['pages']} | " + " | ".join(f"{c[m]} ({c[m] / c['pages']:.0%})" for m in modes) + " |")
    print("\nClassifier CPU ms per page (features + models; the extraction excluded): "
          + ", ".join(f"{m} {1000 * cpu[m] / max(pages, 1):.1f}" for m in modes) + "\n")


def seed_hypothesis(X: np.ndarray, y: np.ndarray, folds: dict[str, np.ndarray], repeats: int) -> None:
    """Seed 002's test: the C4.5 tree with and without the five link-target features, same folds."""
    without = folds["C4.5 tree: MSS + CoreEx (seed, without links)"][:, 2]
    with_links = folds["C4.5 tree: + five link-target features (seed, with)"][:, 2]
    diff = with_links - without
    per_repeat = diff.reshape(repeats, 10).mean(axis=1)
    from scipy.stats import ttest_rel

    stat = ttest_rel(with_links, without)
    print(f"\nSeed 002 hypothesis: F1 with link-target features {with_links.mean():.3f} vs without "
          f"{without.mean():.3f} (difference {diff.mean():+.3f}; better in {int((per_repeat > 0).sum())} of "
          f"{repeats} repeats; paired t over {len(diff)} folds: t={stat.statistic:.2f}, p={stat.pvalue:.2g}; "
          "folds overlap, so p is optimistic).")

    tree = make_tree().fit(X, y)
    print(f"C4.5 tree on all wcxb-dev pages: depth {tree.get_depth()}, {tree.get_n_leaves()} leaves.\n")


def out_of_domain(table, dev: tuple, bare: tuple, configs: dict) -> None:
    """Models trained on all of wcxb-dev (``dev``; ``bare``: parsed without URLs), each as
    ``(X, y, hashed texts)``, scored on the other labelled datasets. The trees learn from the text
    models' out-of-fold probabilities; the other datasets get those of text models fitted on all
    of wcxb-dev."""
    other = [d for d in dict.fromkeys(table.dataset) if d != "wcxb-dev"]
    if not other:
        return
    print("## Out of domain: trained on all of wcxb-dev, tested on other labelled datasets (datasets whose pages")
    print("have no URL are scored by models trained on wcxb-dev parsed without URLs, as `extract()` does)\n")
    print("| dataset | pages (articles) | classifier | precision | recall | F1 |")
    print("|---|---|---|---|---|---|")
    fitted = {}
    for variant, (X, y, texts) in (("urls", dev), ("bare", bare)):
        inner, _ = text_columns(texts, y, np.arange(len(y)))
        text_models = [make_text_model().fit(M, y) for M in texts]
        models = {}
        for name, (factory, cols, with_text) in configs.items():
            if factory is not None:
                models[name] = factory().fit(np.column_stack([X[:, cols], inner]) if with_text else X[:, cols], y)
        fitted[variant] = (text_models, models)
    for name in other:
        has_urls = any(url for _, _, url, _ in labelled_pages(name, 20))
        sub = table.subset(name)
        Xo, yo = _with_mss(sub)
        text_models, models = fitted["urls" if has_urls else "bare"]
        p_text = np.column_stack([m.predict_proba(M)[:, 1] for m, M in zip(text_models, text_matrices(sub.texts))])
        for cname, (factory, cols, with_text) in configs.items():
            if factory is None:
                pred = p_text[:, cols[0]] >= THRESHOLD
            else:
                pred = models[cname].predict(np.column_stack([Xo[:, cols], p_text]) if with_text else Xo[:, cols])
            p, r, f = _prf(yo, np.asarray(pred, dtype=bool))
            print(f"| {name} | {len(yo)} ({int(yo.sum())}) | {cname} | {p:.3f} | {r:.3f} | {f:.3f} |")
        p, r, f = _prf(yo, np.asarray(sub.newsplease, dtype=bool))
        print(f"| {name} | {len(yo)} ({int(yo.sum())}) | news-please rule | {p:.3f} | {r:.3f} | {f:.3f} |")


if __name__ == "__main__":
    sys.exit(main())
