"""``newscrawl evaluate DATASET_DIR``: run the extraction over a labelled dataset and print its scores.

Metrics and their exact definitions are in :mod:`newscrawl.evaluate`. ``--predictions`` scores
the JSONL output of ``newscrawl extract --batch`` (or any tool writing the same lines) instead of
running the extraction, so other extractors can be scored by the same code.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from newscrawl.commands.extract import add_style_elements_argument, extractor, start_worker, worker_extract
from newscrawl.evaluate import (
    Record,
    format_table,
    json_objects,
    load_dataset,
    page_details,
    page_rouge,
    prediction,
    read_page,
    score,
)
from newscrawl.parallel import Failed, ordered_map, resolve_workers
from newscrawl.paths import datasets_dir
from newscrawl.timelimit import TimeLimitExceeded

HELP = "score the extraction against a dataset's truth.jsonl (body, snippets, title, date, is_article)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dataset", help="dataset folder with truth.jsonl (or a name under ../shared/datasets)")
    parser.add_argument("--json", action="store_true", help="print the scores as JSON")
    parser.add_argument("--method", default="nce", help="extraction method (default nce)")
    add_style_elements_argument(parser)
    parser.add_argument("--limit", type=int, default=None, help="only the first N pages")
    parser.add_argument("--predictions", metavar="JSONL", help="score these prediction lines instead of extracting")
    parser.add_argument(
        "--details",
        metavar="JSONL",
        help="also write one line of outcomes per page to this file, and list the article pages "
        "under body F1 0.2 (or with no `with` snippet found)",
    )
    parser.add_argument(
        "--rouge",
        action="store_true",
        help="also score ROUGE-LSum F1 on the article pages with a gold body (the Fundus benchmark's metric)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="extract on this many processes (default 1; 0: one per CPU); scores unchanged",
    )


def resolve_dataset(name: str) -> Path:
    path = Path(name)
    if (path / "truth.jsonl").is_file():
        return path
    shared = datasets_dir() / name
    if (shared / "truth.jsonl").is_file():
        return shared
    raise SystemExit(f"newscrawl evaluate: no truth.jsonl in {path} (nor in {shared})")


def _predict_one(job: tuple[str, Path, str | None]) -> tuple[dict[str, Any], float]:
    """One page's prediction (or ``{"error": ...}``) and the seconds its extraction took (reading excluded)."""
    _, path, url = job
    try:
        data = read_page(path)
    except (OSError, EOFError, zlib.error) as exc:  # missing, unreadable, truncated or corrupt gzip
        return {"error": f"{exc.__class__.__name__}: {exc}"}, 0.0
    start = time.perf_counter()
    try:
        found = prediction(worker_extract(data, url))
    except (Exception, TimeLimitExceeded) as exc:  # the core should not raise; if it does, score the page as empty
        found = {"error": f"{exc.__class__.__name__}: {exc}"}
    return found, time.perf_counter() - start


def predict(
    records: Sequence[Record], method: str = "nce", workers: int = 1, style_elements: bool | None = None
) -> tuple[dict[str, Any], float]:
    """Predictions by record id and the seconds spent in extraction, summed over the ``workers``
    processes (page reading excluded)."""
    predictions: dict[str, Any] = {}
    seconds = 0.0
    jobs = ((r.id, r.path, r.url) for r in records if r.path is not None)
    for (record_id, _, _), outcome in ordered_map(
        _predict_one, jobs, workers, initializer=start_worker, initargs=(method, None, 0.0, style_elements)
    ):
        if isinstance(outcome, Failed):  # its worker process died on it
            predictions[record_id] = {"error": outcome.reason}
            continue
        predictions[record_id], spent = outcome
        seconds += spent
    return predictions, seconds


def predict_urls(records: Sequence[Record]) -> dict[str, Any]:
    """is_article of URL-only records (no page) from the shipped URL classifier, when it loads."""
    urls = [r for r in records if r.path is None and r.url]
    if not urls:
        return {}
    try:
        from newscrawl.links.classifier import default_classifier

        classifier = default_classifier()
    except Exception:  # no model shipped in this checkout: URL-only pages stay unpredicted
        return {}
    probabilities = classifier.probabilities([r.url or "" for r in urls])
    return {r.id: {"is_article": p >= 0.5, "probability": p} for r, p in zip(urls, probabilities)}


def _read_predictions(path: Path) -> dict[str, Any]:
    return {str(entry.get("id")): entry for entry in json_objects(path)}


def _write_misses(result: dict[str, Any], stdout: TextIO, listed: bool) -> None:
    """The catastrophic misses: the share of article pages under body F1 0.2 (or, on sets without gold
    bodies, with no ``with`` snippet found), per dataset and labelled page type; their ids when listed."""
    rows = [("", result)] + [(f" (page type {kind})", s) for kind, s in result.get("by_page_type", {}).items()]
    for name, label in (("body_misses", "under body F1"), ("snippet_misses", "with no `with` snippet found")):
        for where, scores in rows:
            miss = scores.get(name)
            if not miss or (where and not miss["pages"]):
                continue
            threshold = f" {miss['threshold']}" if name == "body_misses" else ""
            stdout.write(
                f"article pages{where} {label}{threshold}: {miss['missed']} of {miss['pages']} "
                f"({100 * miss['share']:.1f}%)\n"
            )
            if listed and not where and miss["ids"]:
                stdout.write("  " + " ".join(miss["ids"]) + "\n")


def run(args: argparse.Namespace, stdout: TextIO | None = None) -> int:
    stdout = stdout or sys.stdout
    folder = resolve_dataset(args.dataset)
    try:
        workers = resolve_workers(args.workers)
    except ValueError as exc:
        raise SystemExit(f"newscrawl evaluate: --workers: {exc}") from None
    try:
        records = load_dataset(folder, limit=args.limit)
        if args.predictions:
            predictions, seconds = _read_predictions(Path(args.predictions)), 0.0
    except ValueError as exc:  # a corrupt truth or prediction line: say where, no traceback
        raise SystemExit(f"newscrawl evaluate: {exc}") from None
    if not args.predictions:
        extractor(args.method)  # an unknown method stops here, before any worker starts
        predictions, seconds = predict(records, args.method, workers, args.style_elements)
        predictions.update(predict_urls(records))
    # with --details, every gold-bodied page once, for both; without, the scores' article pages only
    rouge = page_rouge(records, predictions) if args.rouge and args.details else bool(args.rouge)
    result = score(records, predictions, rouge=rouge)
    if args.details:
        with open(args.details, "w", encoding="utf-8") as handle:
            for row in page_details(records, predictions, rouge=rouge):
                handle.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
    result["dataset"] = folder.name
    result["method"] = None if args.predictions else args.method
    extracted = sum(1 for r in records if r.path is not None)
    result["pages_per_second"] = extracted / seconds if seconds > 0 else None
    if args.json:
        stdout.write(json.dumps(result, indent=2) + "\n")
        return 0
    rows = {f"{folder.name} ({result['method'] or 'predictions'})": result}
    rows.update({f"  {kind}": scores for kind, scores in result.get("by_page_type", {}).items()})
    stdout.write(format_table(rows) + "\n")
    _write_misses(result, stdout, listed=bool(args.details))
    if result.get("rouge_lsum"):
        r = result["rouge_lsum"]
        stdout.write(f"ROUGE-LSum F1 on {r['pages']} article pages with a gold body: {r['f1']:.3f}\n")
    if result["snippets"]:
        s = result["snippets"]
        stdout.write(
            f"snippets: precision {s['precision']:.3f} recall {s['recall']:.3f} accuracy {s['accuracy']:.3f} "
            f"(tp {s['tp']} fp {s['fp']} fn {s['fn']} tn {s['tn']})\n"
        )
    unpredicted = sum(1 for r in records if r.id not in predictions)
    if unpredicted:
        stdout.write(
            f"note: {unpredicted} pages have no prediction (URL-only records need the shipped URL model)"
            " and are scored as empty\n"
        )
    if result["pages_per_second"]:
        stdout.write(f"speed: {result['pages_per_second']:.1f} pages/s (extraction only, per process)\n")
    return 0
