"""CI quality gate: run newscrawl's extraction on every development dataset and fail (exit 1)
when a score drops below its floor in ``benchmarks/quality_floors.json``.

Floors are per dataset and metric (``body_f1``, ``snippet_f1``, ``title``, ``published``,
``is_article_f1``, or one of them on a labelled page type, e.g. ``body_f1@article``; ``max_errors`` pages whose extraction reported a failure, default 0), set a little under values measured on the same pages. The
catastrophic-miss shares are ceilings instead (``body_miss_share``: article pages under body F1 0.2;
``snippet_miss_share``: article pages with no ``with`` snippet found; the build fails above them), set
a little over the measured share (see the floors
file's ``_measured`` block for what was measured and when). All pages of each dataset are used
unless the floors file gives a ``sample`` (every k-th page, deterministic), so the gate is
reproducible; pages are spread over ``--workers`` processes (default 2).

Usage: .venv/bin/python benchmarks/quality_gate.py [--workers N] [--datasets a,b]
       .venv/bin/python benchmarks/quality_gate.py --record   # print floors for measured values
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from newscrawl.commands.evaluate import predict
from newscrawl.evaluate import Record, format_table, load_dataset, score
from newscrawl.paths import datasets_dir

FLOORS = Path(__file__).with_name("quality_floors.json")
METRICS: dict[str, tuple[str, str]] = {  # floor name -> (score block, key)
    "body_f1": ("body", "f1"),
    "snippet_f1": ("snippets", "f1"),
    "title": ("title", "accuracy"),
    "published": ("published", "accuracy"),
    "is_article_f1": ("is_article", "f1"),
}
CEILINGS: dict[str, tuple[str, str]] = {  # ceiling name -> (score block, key): fail when measured is above
    "body_miss_share": ("body_misses", "share"),
    "snippet_miss_share": ("snippet_misses", "share"),
}
RECORD_MARGIN = 0.02  # floors are written this far under the measured value
CEILING_MARGIN = 0.01  # ceilings this far over it (a share of pages: 0.01 is one page in a hundred)


def sample(records: list[Record], every: int) -> list[Record]:
    return records if every <= 1 else records[::every]


def measure(folder: Path, every: int, workers: int) -> tuple[dict[str, Any], float]:
    records = sample([r for r in load_dataset(folder) if r.path is not None], every)
    start = time.perf_counter()
    predictions, _ = predict(records, workers=workers)  # `newscrawl evaluate`'s own extraction loop
    return score(records, predictions), time.perf_counter() - start


def metrics(scores: dict[str, Any]) -> list[str]:
    """The floor names ``scores`` can be gated on: each of METRICS, and for a dataset labelling page
    types each of them on one type alone (``body_f1@article``: news articles inside wcxb-dev's mix)."""
    names = list(METRICS) + list(CEILINGS)
    return names + [f"{metric}@{kind}" for kind in scores.get("by_page_type", {}) for metric in names]


def value(scores: dict[str, Any], metric: str) -> float | None:
    name, _, kind = metric.partition("@")
    if kind:
        scores = scores.get("by_page_type", {}).get(kind) or {}
    block, key = METRICS[name] if name in METRICS else CEILINGS[name]
    return scores[block][key] if scores.get(block) else None


def recorded_value(metric: str, measured: float) -> float:
    """The floor (measured - RECORD_MARGIN) or ceiling (measured + CEILING_MARGIN) to write."""
    if metric.partition("@")[0] in CEILINGS:
        return round(min(1.0, measured + CEILING_MARGIN), 3)
    return round(max(0.0, measured - RECORD_MARGIN), 3)


def below(metric: str, measured: float, bound: float) -> bool:
    """Whether ``measured`` fails its floor (or, for a ceiling, goes over it)."""
    return measured > bound if metric.partition("@")[0] in CEILINGS else measured < bound


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--datasets", help="comma-separated subset of the floors file's datasets")
    parser.add_argument("--floors", type=Path, default=FLOORS)
    parser.add_argument("--record", action="store_true",
                        help=f"print a floors file for the measured values minus {RECORD_MARGIN} "
                             f"(ceilings plus {CEILING_MARGIN}; does not gate)")
    args = parser.parse_args(argv)
    config = json.loads(args.floors.read_text(encoding="utf-8"))
    floors: dict[str, dict[str, Any]] = {k: v for k, v in config.items() if not k.startswith("_")}
    names = args.datasets.split(",") if args.datasets else list(floors)
    failures: list[str] = []
    table: dict[str, dict[str, Any]] = {}
    recorded: dict[str, dict[str, Any]] = {}
    for name in names:
        folder = datasets_dir() / name
        if not (folder / "truth.jsonl").is_file():
            failures.append(f"{name}: dataset not found at {folder}")
            continue
        every = int(floors.get(name, {}).get("sample", 1))
        scores, seconds = measure(folder, every, args.workers)
        label = name if every <= 1 else f"{name} (1/{every})"
        table[label] = scores
        print(f"{label}: {scores['pages']} pages in {seconds:.1f}s", file=sys.stderr)
        recorded[name] = {"sample": every} if every > 1 else {}
        allowed = int(floors.get(name, {}).get("max_errors", 0))
        if scores["errors"] > allowed:
            failures.append(f"{name}: {scores['errors']} pages failed to extract (allowed {allowed})")
        gated = metrics(scores)
        gated += [k for k in floors.get(name, {}) if k not in gated and k not in ("sample", "max_errors")]
        for metric in gated:
            if metric.partition("@")[0] not in METRICS and metric.partition("@")[0] not in CEILINGS:
                failures.append(f"{name}: unknown metric {metric!r} in {args.floors.name}")
                continue
            measured = value(scores, metric)
            floor = floors.get(name, {}).get(metric)
            if measured is None:
                if floor is not None:
                    failures.append(f"{name}: {metric} has a floor but could not be measured")
                continue
            if "@" not in metric or floor is not None:  # per-type floors are recorded where one is set
                recorded[name][metric] = recorded_value(metric, measured)
            if floor is not None and below(metric, measured, floor):
                sign, kind = (">", "ceiling") if metric.partition("@")[0] in CEILINGS else ("<", "floor")
                failures.append(f"{name}: {metric} {measured:.3f} {sign} {kind} {floor:.3f}")
    rows: dict[str, dict[str, Any]] = {}
    for label, scores in table.items():
        rows[label] = scores
        rows.update({f"  {kind}": by_kind for kind, by_kind in scores.get("by_page_type", {}).items()})
    print(format_table(rows))
    if args.record:
        print(json.dumps(recorded, indent=2))
        return 0
    if failures:
        print("\nQUALITY GATE FAILED:\n  " + "\n  ".join(failures))
        return 1
    print("\nquality gate passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
