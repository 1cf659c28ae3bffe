"""Long crawl: throughput over time and memory of a crawl of a large generated site.

Serves ``build_large_site(--pages)`` (lazy: pages are generated per request) on 127.0.0.1 and runs
``newscrawl crawl`` on it in a subprocess with the full pipeline (CSS, extraction, templates,
page classifier) unless ``--spider-only``. Every ``--every`` pages served it prints one row:
pages, items exported, pages/s over the last window, RSS of the crawl process (MB). Memory must
stop growing once the caches are full: their sizes are settings (``NEWSCRAWL_CSS_CACHE_BYTES``,
``NEWSCRAWL_TEMPLATE_CACHE_SIZE``, the URL classifier's memo); what still grows per page is
Scrapy's seen set (about 100 bytes a URL) and the spider's set of handed-off canonical URLs.
With ``--jobdir`` the frontier is on disk (Scrapy's disk queues) instead of in memory.

    .venv/bin/python benchmarks/long_crawl.py --pages 100000            # the issue's run (hours on 2 busy cores)
    .venv/bin/python benchmarks/long_crawl.py --pages 10000 --every 1000
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from newscrawl.demo.server import serve_site
from newscrawl.demo.site import build_large_site

REPO = Path(__file__).resolve().parents[1]
SPIDER_ONLY = ("NEWSCRAWL_HAND_OFF=all", "NEWSCRAWL_EXPORT_ALL=true", "NEWSCRAWL_EXTRACTION_ENABLED=false",
               "NEWSCRAWL_TEMPLATE_ENABLED=false")


def rss_mb(pid: int) -> float:
    """Resident set size of ``pid`` from /proc (Linux), in MB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except FileNotFoundError:
        pass
    return float("nan")


def count_lines(path: Path) -> int:
    try:
        with path.open("rb") as f:
            return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
    except FileNotFoundError:
        return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=100_000, help="size of the generated site")
    parser.add_argument("--every", type=int, default=10_000, help="print a row every N pages served")
    parser.add_argument("--spider-only", action="store_true", help="no extraction/templates (crawl machinery only)")
    parser.add_argument("--jobdir", action="store_true", help="crawl with a JOBDIR (disk queues, journal)")
    parser.add_argument("--json", type=Path, help="also write the rows as JSON here")
    parser.add_argument("-s", dest="settings", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()

    site = build_large_site(args.pages)
    html_paths = site.truth
    rows: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory(prefix="long-crawl-") as tmp, serve_site(site) as server:
        out = Path(tmp) / "items.jsonl"
        cmd = [sys.executable, "-m", "newscrawl", "crawl", server.base_url + "/", "-o", str(out), "--local",
               "--stats", str(Path(tmp) / "stats.json")]
        settings = ["NEWSCRAWL_MAX_PAGES_PER_DOMAIN=0", "DEPTH_LIMIT=0", f"NEWSCRAWL_MAX_PAGINATION={args.pages}",
                    "LOG_LEVEL=INFO", "NEWSCRAWL_PROGRESS_INTERVAL=60"]
        if args.spider_only:
            settings += SPIDER_ONLY
        if args.jobdir:
            settings.append(f"JOBDIR={Path(tmp) / 'job'}")
        for setting in (*settings, *args.settings):
            cmd += ["-s", setting]
        log = (Path(tmp) / "crawl.log").open("wb")
        started = time.monotonic()
        proc = subprocess.Popen(cmd, cwd=REPO, stdout=log, stderr=subprocess.STDOUT)
        print(f"{args.pages}-page site, {'spider only' if args.spider_only else 'full pipeline'}"
              f"{', JOBDIR' if args.jobdir else ''}; a row every {args.every} pages", flush=True)
        print(f"{'pages':>8} {'items':>8} {'min':>7} {'pages/s':>8} {'RSS MB':>8}", flush=True)
        last_pages, last_time, next_mark, peak = 0, started, args.every, 0.0
        while proc.poll() is None:
            time.sleep(0.5)
            peak = max(peak, rss_mb(proc.pid))
            pages = sum(n for target, n in list(server.hits.items()) if target.split("?")[0] in html_paths)
            if pages >= next_mark:
                now = time.monotonic()
                row = {"pages": pages, "items": count_lines(out), "minutes": round((now - started) / 60, 2),
                       "pages_per_s": round((pages - last_pages) / (now - last_time), 1), "rss_mb": round(rss_mb(proc.pid), 1)}
                rows.append(row)
                print(f"{row['pages']:>8} {row['items']:>8} {row['minutes']:>7} {row['pages_per_s']:>8} {row['rss_mb']:>8}", flush=True)
                last_pages, last_time = pages, now
                next_mark = (pages // args.every + 1) * args.every
        total = time.monotonic() - started
        stats = json.loads((Path(tmp) / "stats.json").read_text()) if (Path(tmp) / "stats.json").exists() else {}
        pages = sum(n for target, n in server.hits.items() if target.split("?")[0] in html_paths)
        print(f"\ndone (exit {proc.returncode}, {stats.get('finish_reason')}): {pages} of {args.pages} pages, "
              f"{count_lines(out)} items in {total / 60:.1f} min ({pages / total:.1f} pages/s), peak RSS {peak:.0f} MB")
        if args.json:
            args.json.write_text(json.dumps({"pages": args.pages, "rows": rows, "peak_rss_mb": peak,
                                             "seconds": total, "finish_reason": stats.get("finish_reason")}, indent=1))
        if proc.returncode:
            print((Path(tmp) / "crawl.log").read_text(errors="replace")[-3000:])
    return proc.returncode or 0


if __name__ == "__main__":
    raise SystemExit(main())
