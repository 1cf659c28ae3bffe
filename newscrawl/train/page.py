"""``newscrawl train page``: the article/non-article page classifier (seed 002).

Reads wcxb-dev (page types, under ``../shared/datasets``) and the generated demo news site, computes
:mod:`newscrawl.classify.features` for each, compares a C4.5-like decision tree (entropy
criterion) with a random forest, extra trees and gradient-boosted trees by repeated stratified
10-fold cross-validation, and ships the best as ``models/page_classifier.json`` (safe JSON trees
via :mod:`newscrawl.modelio`) with its card. A second model, ``models/page_classifier_nourl.json``,
is trained the same way on features computed as if the pages had no URL: ``extract(html)``
without a URL is a supported call, and a model that never saw such rows misreads their URL and
link features (docs/decisions.md, "Page classifier, round 3"). A third model, the default for pages with a URL,
``models/page_classifier_words.json``, also reads two text models (written next to it) stacked
out-of-fold: more F1 on wcxb-dev, fewer articles found in other languages (round 5), hence
applied to English text only (round 6, :func:`newscrawl.classify.page.probability`). A fourth,
``models/page_classifier_fast.json``, is the default's first pass: boosted trees on the cheap features
that decide alone where they are sure, with the threshold chosen here so that the cascade keeps the words
model's out-of-fold F1 (round 7); ``page_classifier_nourl_fast.json`` does the same for pages without a
URL, standing in for the URL-less model (round 8). ``--first-pass-only`` trains the two first passes alone.
``benchmarks/page_classifier.py`` reuses :func:`load_features` for the full experiment.
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import numpy as np

from newscrawl import modelio
from newscrawl.classify.features import FAST_FEATURES, FEATURE_NAMES, feature_vector, newsplease_rule
from newscrawl.classify.mss import mss
from newscrawl.classify.page import (
    FAST_MODEL_FILE,
    MODEL_FILE,
    NO_URL_MODEL_FILE,
    WORDS_MODEL_FILE,
    applied,
    dated,
    text_model_file,
)
from newscrawl.classify.text import ENGLISH_SHARE, MAX_CHARS, TEXT_FEATURES, english_share, text_inputs, vectorize
from newscrawl.extract.api import Article, Evidence, extract_page
from newscrawl.extract.metadata import read_metadata
from newscrawl.page import Page
from newscrawl.paths import datasets_dir, models_dir

HELP = "train the article/non-article page classifier (models/page_classifier.json) on wcxb-dev and the demo site"

# "demo" is the generated news site (newscrawl.demo): its section, tag, author, gallery and video
# pages are the news listings wcxb-dev has few of.
TRAIN_DATASETS = ("wcxb-dev", "demo")
LABELLED_DATASETS = ("wcxb-dev", "demo", "readability")
DEMO_BASE = "https://www.prairie-ledger.example"
TREE_PARAMS = {"criterion": "entropy", "min_samples_leaf": 3, "random_state": 0}
FOREST_PARAMS = {
    "criterion": "entropy",
    "n_estimators": 100,
    "min_samples_leaf": 2,
    "max_features": "sqrt",
    "random_state": 0,
    "n_jobs": 1,
}
EXTRA_PARAMS = dict(FOREST_PARAMS)
BOOSTED_PARAMS = {"learning_rate": 0.1, "max_iter": 200, "random_state": 0}
# The text models (newscrawl.classify.text): logistic loss by SGD (a fit takes ~0.1 s where liblinear
# takes ~1.5 s, so the nested cross-validation stays affordable); docs/decisions.md, round 5.
TEXT_PARAMS = {"loss": "log_loss", "alpha": 1e-5, "random_state": 0}
TEXT_VECTORIZER: dict[str, Any] = {"analyzer": "word", "ngram_range": [1, 2], "n_features": 2**18, "lowercase": True}
TEXT_FOLDS = 5  # inner folds for the text models' out-of-fold probabilities
# the text models the default and the URL-less trees read: none. With them trafilatura-eval's
# multilingual articles are mostly called non-articles, and readability's minimal URL-less fixtures
# (the quality gate's is_article) lose half their recall (docs/decisions.md, round 5)
NO_TEXT_FEATURES: tuple[str, ...] = ()
# The first pass (models/page_classifier_fast.json): boosted trees on FAST_FEATURES that decide a page
# alone where their probability is at most t or at least 1 - t. t is the largest of these whose
# decisions, out of fold, keep the F1 of the model they stand in for (the words model as applied)
# within FAST_TOLERANCE on average over the repeats (docs/decisions.md, "Page classifier, round 7").
FAST_THRESHOLDS = (0.001, 0.002, 0.005, 0.01, 0.02)
FAST_TOLERANCE = 0.0005


@dataclass
class FeatureTable:
    """Feature rows of labelled pages, with what the baselines need alongside."""

    ids: list[str] = field(default_factory=list)
    dataset: list[str] = field(default_factory=list)
    X: list[list[float]] = field(default_factory=list)
    y: list[bool] = field(default_factory=list)
    newsplease: list[bool] = field(default_factory=list)
    mss: list[float] = field(default_factory=list)  # seed 002's MSS score, only with load_features(with_mss=True)
    texts: list[tuple[str, ...]] = field(default_factory=list)  # what each text model reads, in TEXT_FEATURES order
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        return np.asarray(self.X, dtype=np.float64), np.asarray(self.y, dtype=bool)

    def subset(self, name: str) -> FeatureTable:
        keep = [i for i, d in enumerate(self.dataset) if d == name]
        return FeatureTable(
            [self.ids[i] for i in keep],
            [name] * len(keep),
            [self.X[i] for i in keep],
            [self.y[i] for i in keep],
            [self.newsplease[i] for i in keep],
            [self.mss[i] for i in keep] if self.mss else [],
            [self.texts[i] for i in keep],
            self.seconds,
            self.cpu_seconds,
        )


def demo_pages(limit: int | None = None):
    """(path, raw bytes, url, is_article) for every page of the demo site's truth."""
    from newscrawl.demo import build_demo_site

    site = build_demo_site()
    paths = sorted(site.truth)
    for path in paths[:limit] if limit else paths:
        response = site.resolve(path, DEMO_BASE)
        if response.status == 200 and "html" in response.content_type:
            yield path, response.body, DEMO_BASE + path, site.truth[path].kind == "article"


def labelled_pages(name: str, limit: int | None = None):
    """(id, raw bytes, url, is_article) for a dataset's pages with an is_article label."""
    if name == "demo":
        yield from demo_pages(limit)
        return
    folder = datasets_dir() / name
    with open(folder / "truth.jsonl", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    rows = [r for r in rows if isinstance(r.get("is_article"), bool)]
    for row in rows[:limit] if limit else rows:
        with gzip.open(folder / row["path"], "rb") as fh:
            yield row["id"], fh.read(), row.get("url"), row["is_article"]


def load_features(
    names: tuple[str, ...] = LABELLED_DATASETS,
    limit: int | None = None,
    *,
    with_mss: bool = False,
    with_urls: bool = True,
) -> FeatureTable:
    """Parse every labelled page once, run the extraction pipeline on it with a classifier that
    records the feature vector (the features see exactly what they see inside ``extract()``), and
    keep the news-please verdict (and, ``with_mss``, seed 002's MSS score for the benchmark).
    ``with_urls=False`` parses each page without its URL, as ``extract(html)`` sees it."""
    table = FeatureTable()
    start = time.perf_counter()
    cpu = time.process_time()
    for name in names:
        for page_id, raw, url, is_article in labelled_pages(name, limit):
            page = Page.from_html(raw, url if with_urls else None)

            def record(page: Page, art: Article, meta: Any, evidence: Evidence) -> tuple[bool, float]:
                meta = meta if meta is not None else read_metadata(page, page.url)
                table.X.append(feature_vector(page, meta, art, evidence))
                table.newsplease.append(newsplease_rule(page, meta))
                table.texts.append(tuple(text_inputs(page, art.title).values()))
                if with_mss:
                    table.mss.append(mss(page).score)
                return False, 0.0

            extract_page(page, classifier=record)
            table.ids.append(page_id)
            table.dataset.append(name)
            table.y.append(is_article)
    table.seconds = time.perf_counter() - start
    table.cpu_seconds = time.process_time() - cpu
    return table


def make_tree():
    from sklearn.tree import DecisionTreeClassifier

    return DecisionTreeClassifier(**TREE_PARAMS)


def make_forest():
    from sklearn.ensemble import RandomForestClassifier

    return RandomForestClassifier(**FOREST_PARAMS)


def make_extra_trees():
    from sklearn.ensemble import ExtraTreesClassifier

    return ExtraTreesClassifier(**EXTRA_PARAMS)


def make_boosted():
    from sklearn.ensemble import HistGradientBoostingClassifier

    return HistGradientBoostingClassifier(**BOOSTED_PARAMS)


MODELS = {"tree": make_tree, "forest": make_forest, "extra-trees": make_extra_trees, "boosted": make_boosted}
# models within TIE of the best F1 are equal at this CV's resolution: the tree is preferred
# (smaller, readable), then extra trees (better out of domain than the forest), then the forest,
# then boosting (the least readable)
PREFERENCE = ("tree", "extra-trees", "forest", "boosted")
TIE = 0.002  # F1; the fold-to-fold sd is ~0.02, so 10-fold x 5 cannot separate smaller differences
PARAMS = {"tree": TREE_PARAMS, "forest": FOREST_PARAMS, "extra-trees": EXTRA_PARAMS, "boosted": BOOSTED_PARAMS}


def make_text_model():
    from sklearn.linear_model import SGDClassifier

    return SGDClassifier(**TEXT_PARAMS)


def text_matrices(texts: list[tuple[str, ...]]) -> list[Any]:
    """Every page's hashed n-grams, once per text model: hashing needs no fitting, so this leaks nothing."""
    return [vectorize([row[k] for row in texts], TEXT_VECTORIZER) for k in range(len(TEXT_FEATURES))]


def text_columns(
    matrices: list[Any], y: np.ndarray, train: np.ndarray, test: np.ndarray | None = None, seed: int = 0
) -> tuple[np.ndarray, Any]:
    """The text models' probabilities as features, one column each: out-of-fold over TEXT_FOLDS inner
    folds for the ``train`` rows (as the trees will see them on unseen pages), and for the ``test``
    rows from models fitted on all ``train`` rows. No page's own label reaches its own features."""
    from sklearn.model_selection import StratifiedKFold

    inner = np.zeros((len(train), len(matrices)))
    outer = None if test is None else np.zeros((len(test), len(matrices)))
    for a, b in StratifiedKFold(TEXT_FOLDS, shuffle=True, random_state=seed).split(train, y[train]):
        for k, M in enumerate(matrices):
            inner[b, k] = make_text_model().fit(M[train[a]], y[train[a]]).predict_proba(M[train[b]])[:, 1]
    if outer is not None:
        for k, M in enumerate(matrices):
            outer[:, k] = make_text_model().fit(M[train], y[train]).predict_proba(M[test])[:, 1]
    return inner, outer


def cross_validate(
    factories: dict[str, Any],
    X: np.ndarray,
    y: np.ndarray,
    repeats: int,
    seed: int = 0,
    texts: list[Any] | None = None,
    text_names: tuple[str, ...] = TEXT_FEATURES,
) -> dict[str, dict[str, float]]:
    """Precision, recall and F1 of the article class per model, pooled per fold then averaged over
    folds (every model on the same folds). With ``texts`` (:func:`text_matrices`) the text models'
    probabilities are appended as the last columns, nested inside each fold (:func:`text_columns`),
    and each text model alone is scored too."""
    from sklearn.metrics import precision_recall_fscore_support
    from sklearn.model_selection import RepeatedStratifiedKFold

    scores: dict[str, list] = {name: [] for name in factories}
    folds = RepeatedStratifiedKFold(n_splits=10, n_repeats=repeats, random_state=seed)
    for k, (train, test) in enumerate(folds.split(X, y)):
        X_train, X_test = X[train], X[test]
        if texts is not None:
            inner, outer = text_columns(texts, y, train, test, seed=k)
            X_train, X_test = np.column_stack([X_train, inner]), np.column_stack([X_test, outer])
            for j, name in enumerate(text_names):
                p, r, f, _ = precision_recall_fscore_support(
                    y[test], outer[:, j] >= 0.5, average="binary", zero_division=0
                )
                scores.setdefault(f"{name} alone", []).append((p, r, f))
        for name, factory in factories.items():
            model = factory().fit(X_train, y[train])
            p, r, f, _ = precision_recall_fscore_support(
                y[test], model.predict(X_test), average="binary", zero_division=0
            )
            scores[name].append((p, r, f))
    out = {}
    for name, rows in scores.items():
        arr = np.asarray(rows)
        out[name] = {
            "precision": float(arr[:, 0].mean()),
            "recall": float(arr[:, 1].mean()),
            "f1": float(arr[:, 2].mean()),
            "f1_std": float(arr[:, 2].std()),
        }
    return out


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help=f"model path (default: models/{MODEL_FILE}; the words and URL-less models are written "
        f"next to it "
        f"as <name>_words.json (with its text models) and <name>_nourl.json)",
    )
    parser.add_argument("--repeats", type=int, default=5, help="repeats of 10-fold cross-validation for the choice")
    parser.add_argument("--limit", type=int, default=None, help="pages per dataset (quick runs)")
    parser.add_argument(
        "--first-pass-only",
        action="store_true",
        help=f"train only the first-pass models ({FAST_MODEL_FILE} and the URL-less one next to "
        "--out), validated against the model types of the plain, words and URL-less models "
        "already there (an extraction pass with and one without URLs, a few minutes)",
    )


def no_url_path(path: Path) -> Path:
    return path.with_name(path.stem + "_nourl" + path.suffix)


def one_openmp_thread() -> None:
    """One OpenMP thread for the boosted trees: on a shared 2-core machine their threads thrash
    (one fit: 1.3 s CPU with one thread, 9.9 s with the default on a loaded machine); same results."""
    import sklearn.ensemble  # noqa: F401  (loads the OpenMP runtime, which the limit only reaches once loaded)
    from threadpoolctl import threadpool_limits

    threadpool_limits(1)


def run(args: argparse.Namespace) -> int:
    one_openmp_thread()
    out = args.out or models_dir() / MODEL_FILE
    words = words_path(out)
    text_files = {name: words.with_name(text_model_file(words, name)) for name in TEXT_FEATURES}
    table = load_features(TRAIN_DATASETS, args.limit, with_urls=True)  # the extraction runs once per URL mode
    bare_out = no_url_path(out)
    if not args.first_pass_only:
        plain = train_one(out, table, True, NO_TEXT_FEATURES, args.repeats, text_files)
        # the words model's "without the text models" row is the default's boosted row (same pages and folds)
        train_one(words, table, True, TEXT_FEATURES, args.repeats, text_files, without_text=plain["boosted"])
    train_first_pass(fast_path(out), table, _chosen(out), _chosen(words), args.repeats)
    bare = load_features(TRAIN_DATASETS, args.limit, with_urls=False)
    if not args.first_pass_only:
        train_one(bare_out, bare, False, NO_TEXT_FEATURES, args.repeats, text_files)
    train_first_pass(fast_path(bare_out), bare, _chosen(bare_out), None, args.repeats)
    return 0


def fast_path(path: Path) -> Path:
    """The first-pass model next to the page model at ``path`` (``page_classifier_fast.json``, and
    ``page_classifier_nourl_fast.json`` for the URL-less model)."""
    return path.with_name(path.stem + "_fast" + path.suffix)


def _chosen(path: Path) -> str:
    """The model type of the page model at ``path`` (the first pass is validated against the plain and
    words models' types)."""
    try:
        kind = modelio.load_model(path).meta.get("chosen")
    except modelio.ModelError as exc:
        raise SystemExit(f"newscrawl train page: cannot read the page model {path}: {exc}") from None
    if kind not in MODELS:
        raise SystemExit(f"newscrawl train page: the page model {path} names no known model type ({kind!r})")
    return kind


def first_pass_scores(table: FeatureTable, plain_kind: str, words_kind: str | None, repeats: int) -> dict[str, Any]:
    """Out-of-fold probabilities, per repeat of shuffled stratified 10-fold: the first pass's (boosted trees
    on FAST_FEATURES) and the full default's (the plain model of type ``plain_kind`` and the words model of
    type ``words_kind`` as :func:`newscrawl.classify.page.probability` applies them, text models nested in
    the fold; ``words_kind`` None: the plain model alone, as pages without a URL get it). For each
    threshold t of FAST_THRESHOLDS: the pooled F1 of the cascade (the first pass where its probability is
    <= t or >= 1 - t, the full default elsewhere), the share of pages it decides and how often it
    disagrees with the full default, each the mean over the repeats."""
    from sklearn.metrics import f1_score
    from sklearn.model_selection import StratifiedKFold

    X, y = table.arrays()
    fast_cols = [FEATURE_NAMES.index(name) for name in FAST_FEATURES]
    with_words = words_kind is not None
    matrices = text_matrices(table.texts) if with_words else []
    english = (
        np.asarray([english_share(row[TEXT_FEATURES.index("text_model")]) >= ENGLISH_SHARE for row in table.texts])
        if with_words
        else None
    )
    full_f1, fast_f1 = [], []
    per_t: dict[float, list[tuple[float, float, float]]] = {t: [] for t in FAST_THRESHOLDS}
    for rep in range(repeats):
        plain, words, fast = (np.zeros(len(y)) for _ in range(3))
        for k, (train, test) in enumerate(StratifiedKFold(10, shuffle=True, random_state=rep).split(X, y)):
            plain[test] = MODELS[plain_kind]().fit(X[train], y[train]).predict_proba(X[test])[:, 1]
            if with_words:
                inner, outer = text_columns(matrices, y, train, test, seed=k)
                model = MODELS[cast(str, words_kind)]().fit(np.column_stack([X[train], inner]), y[train])
                words[test] = model.predict_proba(np.column_stack([X[test], outer]))[:, 1]
            fast[test] = make_boosted().fit(X[train][:, fast_cols], y[train]).predict_proba(X[test][:, fast_cols])[:, 1]
        full = applied(plain, words, english, dated(X)) if with_words else plain
        full_f1.append(f1_score(y, full >= 0.5))
        fast_f1.append(f1_score(y, fast >= 0.5))
        for t in FAST_THRESHOLDS:
            early = (fast <= t) | (fast >= 1 - t)
            cascade = np.where(early, fast, full)
            per_t[t].append((f1_score(y, cascade >= 0.5), early.mean(), ((cascade >= 0.5) != (full >= 0.5)).mean()))
    return {
        "full_f1": float(np.mean(full_f1)),
        "first_pass_f1": float(np.mean(fast_f1)),
        "repeats": repeats,
        "thresholds": {
            str(t): {
                "f1": float(np.mean([r[0] for r in rows])),
                "decided": float(np.mean([r[1] for r in rows])),
                "disagree": float(np.mean([r[2] for r in rows])),
            }
            for t, rows in per_t.items()
        },
    }


def train_first_pass(
    out: Path, table: FeatureTable, plain_kind: str, words_kind: str | None, repeats: int
) -> dict[str, Any]:
    """Fit and write the first-pass model with its threshold (:func:`first_pass_scores`) and card;
    ``words_kind`` None: the URL-less first pass (``table`` parsed without URLs), validated against the
    URL-less model alone."""
    scores = first_pass_scores(table, plain_kind, words_kind, repeats)
    keep = [float(t) for t, r in scores["thresholds"].items() if r["f1"] >= scores["full_f1"] - FAST_TOLERANCE]
    threshold = max(keep, default=0.0)  # 0: the first pass decides nothing
    X, y = table.arrays()
    model = make_boosted().fit(X[:, [FEATURE_NAMES.index(name) for name in FAST_FEATURES]], y)
    against = (
        f"{WORDS_MODEL_FILE} ({words_kind}) as applied"
        if words_kind is not None
        else f"{NO_URL_MODEL_FILE} ({plain_kind})"
    )
    meta = {
        "trained_on": list(TRAIN_DATASETS),
        "urls": words_kind is not None,
        "pages": int(len(y)),
        "articles": int(y.sum()),
        "chosen": "boosted",
        "params": BOOSTED_PARAMS,
        "decide_below": threshold,
        "decide_above": 1 - threshold,
        "validated_against": against,
        "tolerance": FAST_TOLERANCE,
        "cv_design": f"stratified 10-fold, shuffled, x {repeats}; F1 of all out-of-fold predictions per repeat",
        "cv": scores,
    }
    modelio.save_model(modelio.export_trees(model, FAST_FEATURES, meta), out)
    _write_fast_card(out.with_suffix(".md"), out.name, meta)
    print(
        f"{out.name}: {len(y)} pages; full default F1 {scores['full_f1']:.4f}, first pass alone "
        f"{scores['first_pass_f1']:.4f}"
    )
    for t, r in scores["thresholds"].items():
        print(
            f"  decides at <= {t} or >= {1 - float(t):g}: {r['decided']:.1%} of pages, F1 {r['f1']:.4f}, "
            f"disagrees on {r['disagree']:.2%}"
        )
    print(f"saved {out}; decides below {threshold:g} and above {1 - threshold:g}")
    return meta


def words_path(path: Path) -> Path:
    """The default page model (pages with a URL) that also reads the text models (``page_classifier_words.json``)."""
    return path.with_name(path.stem + "_words" + path.suffix)


WITHOUT_TEXT = "boosted without the text models"


def train_one(
    out: Path,
    table: FeatureTable,
    with_urls: bool,
    names: tuple[str, ...],
    repeats: int,
    text_files: dict[str, Path],
    without_text: dict[str, float] | None = None,
) -> dict[str, dict[str, float]]:
    """Choose a model type by cross-validation (the text models' probabilities, if ``names`` lists
    any, nested in every fold), fit the chosen trees on every page and write them with their card;
    with text models, fit and write those too (``text_files``), and report ``without_text`` (the
    boosted trees' scores without them) beside them. Returns the cross-validated scores."""
    X, y = table.arrays()
    all_texts = text_matrices(table.texts) if names else []
    texts = [all_texts[TEXT_FEATURES.index(name)] for name in names]
    pages = "with their URLs" if with_urls else "without URLs"
    print(f"{out.name}: {len(y)} pages {pages} ({int(y.sum())} articles), features in {table.seconds:.0f} s")
    results = cross_validate(MODELS, X, y, repeats, texts=texts or None, text_names=names)
    if texts:
        results[WITHOUT_TEXT] = without_text or cross_validate({"boosted": make_boosted}, X, y, repeats)["boosted"]
    for name, r in results.items():
        print(f"{name:12s} P {r['precision']:.3f} R {r['recall']:.3f} F1 {r['f1']:.4f} ± {r['f1_std']:.3f}")
    best = max(results[k]["f1"] for k in MODELS)
    chosen = next(k for k in PREFERENCE if results[k]["f1"] >= best - TIE)
    # the trees learn from out-of-fold text probabilities, as they will meet them on unseen pages
    X_all = np.column_stack([X, text_columns(texts, y, np.arange(len(y)))[0]]) if texts else X
    tree = make_tree().fit(X_all, y)
    model = tree if chosen == "tree" else MODELS[chosen]().fit(X_all, y)
    if texts:
        for name, M in zip(TEXT_FEATURES, all_texts):
            text_meta = {
                "trained_on": list(TRAIN_DATASETS),
                "pages": int(len(y)),
                "articles": int(y.sum()),
                "feature": name,
                "params": TEXT_PARAMS,
                "cv": {m: round(v, 4) for m, v in results[f"{name} alone"].items()},
                "cv_design": f"stratified 10-fold x {repeats}",
            }
            modelio.save_model(
                modelio.export_linear(make_text_model().fit(M, y), TEXT_VECTORIZER, text_meta), text_files[name]
            )
            _write_text_card(text_files[name].with_suffix(".md"), text_files[name].name, text_meta)
    meta = {
        "trained_on": list(TRAIN_DATASETS),
        "urls": with_urls,
        "pages": int(len(y)),
        "articles": int(y.sum()),
        "chosen": chosen,
        "cv": {k: {m: round(v, 4) for m, v in r.items()} for k, r in results.items()},
        "cv_design": f"stratified 10-fold x {repeats}",
        "tree_depth": int(tree.get_depth()),
        "tree_leaves": int(tree.get_n_leaves()),
        "params": PARAMS[chosen],
        "text_models": {
            name: {"file": text_files[name].name, "sha256": modelio.load_linear(text_files[name]).digest}
            for name in names
        },
    }
    modelio.save_model(modelio.export_trees(model, FEATURE_NAMES + names, meta), out)
    _write_card(out.with_suffix(".md"), out.name, meta)
    print(f"saved {out} ({chosen}); tree depth {meta['tree_depth']}, leaves {meta['tree_leaves']}")
    return results


def _write_card(path: Path, name: str, meta: dict) -> None:
    cv = meta["cv"]
    use = (
        'pages with a URL when `NEWSCRAWL_PAGE_MODEL = "plain"`, and inside the default words model for pages '
        "whose text is not English"
        if meta["urls"]
        else "pages without a URL (`extract(html)` with no `url`; under the default, for the pages its first pass "
        "`page_classifier_nourl_fast.json` is not sure of); trained on the same pages parsed without their URLs"
    )
    if meta["text_models"]:
        use = (
            'pages with a URL (`NEWSCRAWL_PAGE_MODEL = "words"`, and under the default, "default", for the '
            "pages its first pass `page_classifier_fast.json` is not sure of). "
            "It knows the words of its mostly English training pages, so "
            "it is applied only where they are valid: pages whose text is not English (a share of common English "
            "words under `ENGLISH_SHARE`) get the plain model's probability, and on a dated page (a date shown "
            "near the headline, or one in the URL: `dated`) it lowers the plain model's probability only "
            "`DATED_WEIGHT` of the way (`newscrawl.classify.page`). "
            "It calls a few English news pages of trafilatura-eval articles fewer than the plain model "
            "(docs/decisions.md, page classifier round 6 and the lead's decision); the scores below are of the "
            "model alone, `benchmarks/page_classifier.py` also scores it as applied"
        )
        files = [m["file"] for m in meta["text_models"].values()]
        text_use = (
            f"the probabilities of the text models `{files[0]}` (hashed word n-grams of the headline, "
            "`<title>` "
            f"and body text) and `{files[1]}` (of the headline and `<title>` alone); logistic; out-of-fold for "
            "the training rows, see their cards"
        )
        cv_note = (
            "; the tree types read the text models' probabilities, out-of-fold over inner folds of each "
            "training "
            "part, from text models fitted on the training part for the test part; the last rows are each text "
            "model alone and boosted trees without them"
        )
    else:
        text_use = (
            "no text model (the default `page_classifier_words.json` reads two on English text: they gain "
            "F1 on "
            "wcxb-dev but lose most multilingual articles when read everywhere, and half the recall on "
            "readability's URL-less fixtures; docs/decisions.md, page classifier rounds 5 and 6)"
        )
        cv_note = ""
    lines = [
        f"# {name} — is this page an article?",
        "",
        f"Used by `newscrawl.classify.page.classify` to set `is_article` and `probability` for {use}.",
        "",
        f"- **Model**: {meta['chosen']} (`tree` is the C4.5-like single decision tree, entropy criterion; `boosted` is "
        "scikit-learn's HistGradientBoostingClassifier), chosen by cross-validated F1 (types within 0.002 count as "
        f"equal: tree, then extra trees, forest, boosted); params `{json.dumps(meta['params'], sort_keys=True)}`.",
        f"- **Data**: wcxb-dev page types (article vs service, forum, listing, product, collection, "
        "documentation) and the generated demo news site (articles vs home, section, tag, author, gallery, "
        f"video, static pages): {meta['pages']} pages, {meta['articles']} articles.",
        f"- **Features** ({len(FEATURE_NAMES) + len(meta['text_models'])}): {text_use}, seed 002's five link-target "
        "features counted over the page's links "
        "(and as shares), the page URL's own link-target features, CoreEx score, main-node tag and most frequent tag "
        "in S (one-hot), og:type, schema.org types, a declared date, articleBody markup, text length, link density, "
        "paragraphs and news-please's linked-headline ratios; what extraction found (a visible date and its distance "
        "to the detected title, the title's heading level, position and similarity to `<title>`, the body's share, "
        "lines, sentence-final punctuation, long lines, a cut comment section, headings/links/list text in the "
        "relevant region); page structure (repeated teaser and post blocks, inputs, text in lists/tables/paragraphs/"
        "headings/code, tel:/mailto: links, external link share, the site naming itself, URL path depth/query/root, "
        "breadcrumb/WebPage/Organization types, OpenGraph article properties); the headline and body as text "
        "(headline and `<h1>` words, URL slug vs headline, mean/median body line, fragment and question lines, commas "
        "per sentence, paragraph length, long paragraphs, links inside prose paragraphs, distinct dates, date lines "
        "in the body and after it, clock times). Seed 002's MSS score is not among "
        "them: it adds no measurable F1 next to these and costs 17–25% of the extraction's CPU time (feature cost "
        "table of the benchmark). "
        "See `newscrawl/classify/features.py`.",
        f"- **Cross-validated** ({meta['cv_design']}, article class{cv_note}):",
        "",
        "| model | precision | recall | F1 |",
        "|---|---|---|---|",
    ]
    for kind in cv:
        r = cv[kind]
        shipped = " (shipped)" if kind == meta["chosen"] else ""
        lines.append(
            f"| {kind}{shipped} | {r['precision']:.3f} | {r['recall']:.3f} | {r['f1']:.3f} ± {r['f1_std']:.3f} |"
        )
    lines += [
        "",
        f"- **Single tree on all data**: depth {meta['tree_depth']}, {meta['tree_leaves']} leaves.",
        "- **Full experiment** (with/without link-target features, news-please rule, text-length baseline, "
        "20 repeats): `python benchmarks/page_classifier.py`.",
        "- **Rebuild**: `newscrawl train page` (reads `../shared/datasets`; runs the extraction on every page twice, "
        "with and without URLs, 10–30 minutes; it writes the five page models (plain, words, URL-less and the two "
        "first passes) and the text models). Retrain when the extraction pipeline changes: the features read its "
        "title, date and body.",
        "- **Caveats**: wcxb-dev is a modern (2025) multi-site sample, mostly one page per site; news section and "
        "tag pages are a small part of its non-articles (service, product, forum, documentation pages are the "
        "rest), hence the demo site's listings. The cross-validation above pools both sources; "
        "`benchmarks/page_classifier.py` reports wcxb-dev alone.",
        "",
    ]
    path.write_text("\n".join(lines), encoding="utf-8")


def _write_fast_card(path: Path, name: str, meta: dict) -> None:
    cv = meta["cv"]
    if meta["urls"]:
        pages, full, model = "pages with a URL", f"`{WORDS_MODEL_FILE}` as applied", MODEL_FILE
        skipped = "link targets, CoreEx, the repeated-block and container scans and the text models"
        where = '(docs/decisions.md, "Page classifier, round 7")'
    else:
        pages, full, model = "pages without a URL (`extract(html)`)", f"`{NO_URL_MODEL_FILE}`", NO_URL_MODEL_FILE
        skipped = "link targets, CoreEx and the repeated-block and container scans"
        where = '(docs/decisions.md, "Page classifier, round 8"); its rows are computed without the pages\' URLs'
    lines = [
        f"# {name} — the page classifier's first pass",
        "",
        f"Used by `newscrawl.classify.page.probability` for {pages} under the default "
        '(`NEWSCRAWL_PAGE_MODEL = "default"`): where its probability is at most '
        f"{meta['decide_below']:g} or at least {meta['decide_above']:g} it sets `is_article` and `probability` "
        f"alone; elsewhere the page goes to {full}. It reads only the features that "
        "cost little once the extraction has run (`FAST_FEATURES` in `newscrawl/classify/features.py`: the "
        "URL's link-target features, declared types and dates, text and tag measures, headline links, what "
        "the extraction found, the headline and body as text, the URL's shape), so a decided page skips the "
        f"{skipped} {where}.",
        "",
        f"- **Model**: boosted (scikit-learn's HistGradientBoostingClassifier), params "
        f"`{json.dumps(meta['params'], sort_keys=True)}`, {len(FAST_FEATURES)} features.",
        f"- **Data**: the pages of `{model}`: {meta['pages']} pages, {meta['articles']} articles.",
        f"- **Threshold**: the largest of {', '.join(map(str, FAST_THRESHOLDS))} whose cascade keeps the F1 of "
        f"the full model within {meta['tolerance']} ({meta['cv_design'].split(';')[0]}, "
        f"against {meta['validated_against']}{', text models nested in each fold' if meta['urls'] else ''}).",
        f"- **Cross-validated** ({meta['cv_design']}): full model F1 {cv['full_f1']:.4f}; the first pass alone "
        f"{cv['first_pass_f1']:.4f}.",
        "",
        "| decides at | pages it decides | cascade F1 | disagrees with the full model |",
        "|---|---|---|---|",
    ]
    for t, r in cv["thresholds"].items():
        mark = " (shipped)" if float(t) == meta["decide_below"] else ""
        lines.append(
            f"| <= {t} or >= {1 - float(t):g}{mark} | {r['decided']:.1%} | {r['f1']:.4f} | {r['disagree']:.2%} |"
        )
    lines += [
        "",
        "- **Rebuild**: `newscrawl train page` writes it after the other page models; `newscrawl train page "
        "--first-pass-only` writes both first passes alone, validated against the types of the models already "
        "in `models/`.",
        "- **Caveats**: the threshold is chosen on the training pages (wcxb-dev and the demo site); "
        '`benchmarks/page_classifier.py` scores the cascade on wcxb-dev alone. `NEWSCRAWL_PAGE_MODEL = "words"` '
        "skips the first pass.",
        "",
    ]
    path.write_text("\n".join(lines), encoding="utf-8")


def _write_text_card(path: Path, name: str, meta: dict) -> None:
    cv = meta["cv"]
    vec = TEXT_VECTORIZER
    reads = (
        "the extracted headline, the page's `<title>` and the visible text of its `<body>`"
        if meta["feature"] == "text_model"
        else "the extracted headline and the page's `<title>`"
    )
    lines = [
        f"# {name} — what the page says",
        "",
        "A text model of the words page model (`newscrawl.classify.text`), the default on English pages: its "
        "probability is its feature "
        f"`{meta['feature']}`. Safe format `{modelio.LINEAR_FORMAT}` (vectorizer settings and one weight per hash "
        "bucket, checked JSON via `newscrawl.modelio.load_linear`); each page model names this file with its SHA-256.",
        "",
        f"- **Input**: {reads} (first {MAX_CHARS} characters together), hashed by scikit-learn's HashingVectorizer "
        f"(`{vec['analyzer']}` n-grams {vec['ngram_range'][0]}–{vec['ngram_range'][1]}, lowercased, "
        f"{vec['n_features']} buckets), log(1 + count), L2-normalised. No vocabulary is stored: hashing is stateless.",
        f"- **Model**: SGDClassifier, logistic loss, params `{json.dumps(meta['params'], sort_keys=True)}`.",
        f"- **Data**: wcxb-dev page types and the generated demo site, {meta['pages']} pages, {meta['articles']} "
        "articles (the pages of `page_classifier.json`; the URL-less model's pages have the same text).",
        f"- **Cross-validated alone** ({meta['cv_design']}, article class, threshold 0.5): precision "
        f"{cv['precision']:.3f}, recall {cv['recall']:.3f}, F1 {cv['f1']:.3f} ± {cv['f1_std']:.3f}. It is not used "
        "alone: stacked into the trees it adds what markup cannot say (the page model's card).",
        "- **Rebuild**: `newscrawl train page` (writes it with the page models).",
        "- **Caveats**: it reads words, so it knows the languages of its training pages: wcxb-dev is ~94% English "
        "(by function words). On other languages its probability says less and the trees lean on the other "
        "features; the cross-validation grouped by site (no site on both sides) is in docs/decisions.md.",
        "",
    ]
    path.write_text("\n".join(lines), encoding="utf-8")
