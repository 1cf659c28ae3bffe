"""Speed work without output drift: dump ``extract(...).to_dict()`` for a fixed sample of dev pages,
then diff two dumps.

A speed change must leave every output alone unless a quality change is measured on purpose
(benchmarks/extraction.py). The sample is fixed (every k-th page of each dataset with pages:
150 wcxb-dev, 75 trafilatura-eval, 45 readability, 30 cleanportaleval by default), so dumps made
before and after a change compare page by page. ``dump`` also prints the CPU time of the
extraction calls (process time; the shared machine makes wall time drift), and ``--profile FILE``
writes a cProfile of them for ``python -m pstats``.

Usage:
  .venv/bin/python benchmarks/extraction_snapshot.py dump before.jsonl [--scale 1.0] [--profile prof.out]
  .venv/bin/python benchmarks/extraction_snapshot.py diff before.jsonl after.jsonl
"""

from __future__ import annotations

import argparse
import cProfile
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

from newscrawl.evaluate import load_dataset, read_page
from newscrawl.paths import datasets_dir

PLAN = {"wcxb-dev": 150, "trafilatura-eval": 75, "readability": 45, "cleanportaleval": 30}
CORE = ("title", "published", "body", "is_article")  # the outputs the quality metrics read


def sample(scale: float = 1.0) -> list[tuple[str, Any]]:
    """(dataset, record) pairs: evenly spaced pages of each dataset in PLAN."""
    out = []
    for name, n in PLAN.items():
        records = [r for r in load_dataset(datasets_dir() / name) if r.path is not None]
        n = max(1, round(n * scale))
        step = max(1, len(records) // n)
        out += [(name, r) for r in records[::step][:n]]
    return out


def dump(dest: Path, scale: float, profile: Path | None) -> int:
    from newscrawl.extract import extract

    logging.getLogger("newscrawl").setLevel(logging.CRITICAL)
    pages = [(name, r.id, r.url, read_page(r.path)) for name, r in sample(scale)]
    extract(b"<html><title>w</title><body><p>warm up</p></body></html>", "http://127.0.0.1/")
    profiler = cProfile.Profile() if profile else None
    cpu = wall = 0.0
    with open(dest, "w", encoding="utf-8") as handle:
        for name, page_id, url, data in pages:
            start, start_cpu = time.perf_counter(), time.process_time()
            if profiler:
                profiler.enable()
            article = extract(data, url)
            if profiler:
                profiler.disable()
            cpu += time.process_time() - start_cpu
            wall += time.perf_counter() - start
            row = {"dataset": name, "id": page_id, **article.to_dict()}
            handle.write(json.dumps(row, sort_keys=True, ensure_ascii=False) + "\n")
    if profiler:
        profiler.dump_stats(str(profile))
    print(f"{len(pages)} pages: {cpu:.2f} s CPU ({len(pages) / cpu:.1f} pages/s), {wall:.2f} s wall")
    return 0


def diff(a: Path, b: Path) -> int:
    left = [json.loads(line) for line in a.read_text(encoding="utf-8").splitlines()]
    right = [json.loads(line) for line in b.read_text(encoding="utf-8").splitlines()]
    if [(r["dataset"], r["id"]) for r in left] != [(r["dataset"], r["id"]) for r in right]:
        print("the dumps hold different pages")
        return 2
    core = sum(any(x[k] != y[k] for k in CORE) for x, y in zip(left, right))
    fields: dict[str, int] = {}
    for x, y in zip(left, right):
        for key in x.keys() | y.keys():
            if x.get(key) != y.get(key):
                fields[key] = fields.get(key, 0) + 1
    print(f"{len(left)} pages; differing in {'/'.join(CORE)}: {core}; differing fields: {fields or 'none'}")
    return 1 if core else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump", help="extract the sample and write one JSON line per page")
    d.add_argument("out", type=Path)
    d.add_argument("--scale", type=float, default=1.0, help="multiply the per-dataset page counts")
    d.add_argument("--profile", type=Path, help="also write a cProfile of the extract() calls here")
    c = sub.add_parser("diff", help="compare two dumps; exit 1 when a scored output differs")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    args = parser.parse_args(argv)
    if args.command == "dump":
        return dump(args.out, args.scale, args.profile)
    return diff(args.a, args.b)


if __name__ == "__main__":
    sys.exit(main())
