"""Throughput of ``newscrawl extract --batch`` with 1 and with N worker processes on the same pages.

Writes a manifest of a development dataset's pages (under ../shared/datasets, read in place, never
copied), runs the command once per worker count as a user would (a fresh process each, models and
imports included), checks that every run wrote the same lines, and prints pages/s and the speed-up
against one process. The machine's cores bound the speed-up: on the shared 2-core machine, the
other jobs on it take their share.

Usage: .venv/bin/python benchmarks/batch_workers.py [--dataset wcxb-dev] [--limit N] [--workers 1,2]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from newscrawl.evaluate import load_dataset
from newscrawl.paths import datasets_dir


def write_manifest(dataset: str, limit: int | None, folder: Path) -> tuple[Path, int]:
    records = [r for r in load_dataset(datasets_dir() / dataset, limit=limit) if r.path is not None]
    manifest = folder / "manifest.jsonl"
    with open(manifest, "w", encoding="utf-8") as handle:
        for r in records:
            handle.write(json.dumps({"id": r.id, "url": r.url, "path": str(Path(r.path).resolve())}) + "\n")
    return manifest, len(records)


def run(manifest: Path, workers: int) -> tuple[float, str]:
    """Wall seconds of one command run, and a digest of what it wrote."""
    command = [sys.executable, "-m", "newscrawl", "extract", "--batch", str(manifest), "--workers", str(workers)]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, check=True)
    return time.perf_counter() - start, hashlib.sha256(done.stdout).hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="wcxb-dev")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--workers", default=f"1,{os.cpu_count() or 1}")
    args = parser.parse_args(argv)
    counts = [int(w) for w in args.workers.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        manifest, pages = write_manifest(args.dataset, args.limit, Path(tmp))
        results = {w: run(manifest, w) for w in counts}
    base = results[counts[0]][0]
    print(f"{args.dataset}: {pages} pages, {os.cpu_count()} CPUs")
    print(f"{'workers':>8} {'seconds':>8} {'pages/s':>8} {'speed-up':>9}")
    for w, (seconds, _) in results.items():
        print(f"{w:>8} {seconds:8.1f} {pages / seconds:8.1f} {base / seconds:8.2f}x")
    same = len({digest for _, digest in results.values()}) == 1
    print("output identical across worker counts:", "yes" if same else "NO")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
