"""``extract --warc`` throughput and fidelity on one WARC built from the development pages.

Builds (in a temporary folder) one WARC/1.1 file holding every page of ../shared/datasets (read
in place, never copied into the repository) as a response record, then in one process:

* reads it alone (records/s; the share of the extraction run this reading takes: goal < 10%);
* extracts it as ``extract --warc`` does (newscrawl: records/s, articles/s);
* runs trafilatura (``bare_extraction`` with metadata) over the same records (goal: newscrawl
  >= 2x trafilatura's records/s);
* runs ``extract --batch`` over the same pages and compares: pages whose fields differ (goal 0)
  and the scores of both per dataset (goal: identical);
* builds a file ``--repeat`` times larger (the same pages under other URLs) and samples the
  process's resident memory along a pass over it (goal: flat).

Usage: .venv/bin/python benchmarks/warc.py [--limit N] [--repeat 10] [--memory-extract]
(``--memory-extract`` extracts the large file too instead of reading it only: --repeat times
longer). Times are wall-clock on whatever else the machine runs.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from newscrawl.evaluate import load_dataset, read_page, score
from newscrawl.paths import datasets_dir

FIELDS = ("title", "published", "modified", "authors", "language", "body", "is_article", "probability", "provenance",
          "warnings")


def rss_mb() -> float:
    with open(f"/proc/{os.getpid()}/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def dev_pages(limit: int | None) -> list[tuple[str, str, str, bytes]]:
    """(dataset, id, url, raw HTML) of every development page, datasets in name order."""
    pages = []
    for folder in sorted(p for p in datasets_dir().iterdir() if (p / "truth.jsonl").exists()):
        for record in load_dataset(folder):
            if record.path is None or not record.path.exists():
                continue
            url = record.url or f"http://{folder.name}.dataset.invalid/{record.id}"
            pages.append((folder.name, record.id, url, read_page(record.path)))
    return pages[:limit] if limit else pages


def write_warc(folder: Path, pages: list[tuple[str, str, str, bytes]], repeat: int = 1) -> str:
    from newscrawl.warc.writer import WarcWriter

    writer = WarcWriter(folder, prefix="bench", max_bytes=1 << 62)
    for copy in range(repeat):
        for _, _, url, html in pages:
            target = url if copy == 0 else f"{url}{'&' if '?' in url else '?'}copy={copy}"
            writer.write_exchange(url=target, method="GET", request_headers=[], request_body=b"", protocol="HTTP/1.1",
                                  status=200, reason="OK", response_headers=[("Content-Type", "text/html")], body=html)
    writer.close()
    return str(writer.files[0])


def read_only(path: str) -> tuple[int, int, float]:
    from newscrawl.warc.reader import Counts, iter_responses

    counts = Counts()
    started = time.perf_counter()
    size = sum(len(r.body) for r in iter_responses(path, counts))
    return counts["records"], size, time.perf_counter() - started


def newscrawl_run(path: str) -> tuple[list[dict[str, Any]], Any, float]:
    from newscrawl.commands.extract import dumps
    from newscrawl.warc.articles import Options, lines
    from newscrawl.warc.reader import Counts

    counts = Counts()
    started = time.perf_counter()
    out = [json.loads(dumps(line)) for line in lines([path], Options(), counts=counts)]
    return out, counts, time.perf_counter() - started


def trafilatura_run(path: str) -> tuple[int, int, float]:
    import logging

    import trafilatura

    from newscrawl.warc.reader import Counts, iter_responses

    logging.getLogger("trafilatura").setLevel(logging.CRITICAL)
    counts = Counts()
    extracted = 0
    started = time.perf_counter()
    for response in iter_responses(path, counts):
        try:
            result = trafilatura.bare_extraction(response.body, url=response.url, with_metadata=True)
        except Exception:  # trafilatura may raise on odd pages: it costs it the page, as ours would
            result = None
        extracted += result is not None
    return counts["records"], extracted, time.perf_counter() - started


def batch_run(folder: Path, pages: list[tuple[str, str, str, bytes]]) -> tuple[list[dict[str, Any]], float]:
    from newscrawl.commands.extract import batch_lines, dumps

    manifest = folder / "manifest.jsonl"
    with manifest.open("w", encoding="utf-8") as handle:
        for number, (_, _, url, html) in enumerate(pages):
            (folder / f"{number}.html").write_bytes(html)
            handle.write(json.dumps({"id": str(number), "url": url, "path": f"{number}.html"}) + "\n")
    started = time.perf_counter()
    out = [json.loads(dumps(line)) for line in batch_lines(manifest)]
    return out, time.perf_counter() - started


def scores_by_dataset(pages: list[tuple[str, str, str, bytes]], lines: list[dict[str, Any]]) -> dict[str, Any]:
    result = {}
    for dataset in sorted({p[0] for p in pages}):
        records = [r for r in load_dataset(datasets_dir() / dataset) if r.path is not None and r.path.exists()]
        predictions = {p[1]: line for p, line in zip(pages, lines, strict=True) if p[0] == dataset}
        records = [r for r in records if r.id in predictions]
        s = score(records, predictions)
        result[dataset] = {"body F1": s["body"] and round(s["body"]["f1"], 4),
                           "title": s["title"] and round(s["title"]["accuracy"], 4),
                           "date": s["published"] and round(s["published"]["accuracy"], 4),
                           "is_article F1": s["is_article"] and round(s["is_article"]["f1"], 4)}
    return result


def memory_pass(path: str, extract: bool, total_records: int) -> list[tuple[int, float]]:
    """(records read, RSS MB) at tenths of the file."""
    from newscrawl.warc.articles import Options, lines
    from newscrawl.warc.reader import Counts, iter_responses

    counts = Counts()
    samples = []
    step = max(1, total_records // 10)
    source = lines([path], Options(), counts=counts) if extract else iter_responses(path, counts)
    for _ in source:
        if counts["records"] // step > len(samples):
            samples.append((counts["records"], rss_mb()))
    samples.append((counts["records"], rss_mb()))
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, help="first N development pages only")
    parser.add_argument("--repeat", type=int, default=10, help="the memory file is this many times larger (default 10)")
    parser.add_argument("--memory-extract", action="store_true", help="extract the large file too (slow)")
    args = parser.parse_args()
    pages = dev_pages(args.limit)
    if not pages:
        print("no development pages under", datasets_dir(), file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="newscrawl-warc-bench-") as tmp:
        folder = Path(tmp)
        path = write_warc(folder / "one", pages)
        size_mb = Path(path).stat().st_size / 2**20
        print(f"WARC of {len(pages)} development pages: {size_mb:.1f} MB gzipped, "
              f"{sum(len(p[3]) for p in pages) / 2**20:.1f} MB of HTML")
        read_only(path)  # warm the page cache; then both extractors load their models on a few pages
        warm = write_warc(folder / "warm", pages[:5])
        newscrawl_run(warm)
        trafilatura_run(warm)
        records, body_bytes, read_seconds = read_only(path)
        lines, counts, ours_seconds = newscrawl_run(path)
        traf_records, traf_extracted, traf_seconds = trafilatura_run(path)
        batch, batch_seconds = batch_run(folder, pages)
        differing = sum(1 for m, b in zip(lines, batch, strict=True) if any(m[k] != b[k] for k in FIELDS))
        n = len(pages)
        print("\n| run | records (pages) | seconds | records/s | pages/s | articles/s |")
        print("|---|---|---|---|---|---|")
        print(f"| read only (newscrawl.warc.reader) | {records} ({n}) | {read_seconds:.2f} | {records / read_seconds:.0f} "
              f"| {n / read_seconds:.0f} | |")
        print(f"| newscrawl extract --warc | {counts['records']} ({n}) | {ours_seconds:.1f} | "
              f"{counts['records'] / ours_seconds:.1f} | {n / ours_seconds:.1f} | {counts['articles'] / ours_seconds:.1f} |")
        print(f"| trafilatura bare_extraction | {traf_records} ({n}) | {traf_seconds:.1f} | "
              f"{traf_records / traf_seconds:.1f} | {n / traf_seconds:.1f} | ({traf_extracted} results) |")
        print(f"| newscrawl extract --batch (same pages) | ({len(batch)}) | {batch_seconds:.1f} | | "
              f"{len(batch) / batch_seconds:.1f} | |")
        print(f"\nnewscrawl / trafilatura records/s: {traf_seconds / ours_seconds:.2f}x (goal >= 2x)")
        print(f"reading share of the extract --warc run: {read_seconds / ours_seconds:.1%} (goal < 10%)")
        print(f"pages whose fields differ from extract --batch: {differing} of {len(lines)} (goal 0)")
        ours, theirs = scores_by_dataset(pages, lines), scores_by_dataset(pages, batch)
        print("\n| dataset | --warc body F1 | --batch body F1 | --warc title | --batch title | --warc date | "
              "--batch date | --warc is_article F1 | --batch is_article F1 |")
        print("|---|---|---|---|---|---|---|---|---|")
        for dataset in ours:
            o, t = ours[dataset], theirs[dataset]
            print(f"| {dataset} | {o['body F1']} | {t['body F1']} | {o['title']} | {t['title']} | {o['date']} | "
                  f"{t['date']} | {o['is_article F1']} | {t['is_article F1']} |")
        del lines, batch
        gc.collect()
        big = write_warc(folder / "big", pages, repeat=args.repeat)
        print(f"\nmemory over a {args.repeat}x file ({Path(big).stat().st_size / 2**20:.0f} MB, "
              f"{'extracted' if args.memory_extract else 'read'}): RSS MB at each tenth")
        samples = memory_pass(big, args.memory_extract, records * args.repeat)
        print(" ".join(f"{n}:{mb:.0f}" for n, mb in samples))
        print(f"growth from the first tenth to the end: {samples[-1][1] - samples[0][1]:+.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
