"""Crawl throughput and memory: the ``news`` spider against a bare Scrapy spider, one run.

    python benchmarks/crawl.py [--pages 2000] [-s NAME=VALUE ...]

Serves a generated site (``newscrawl.demo.site.build_large_site``) on 127.0.0.1 and crawls it
three times in fresh subprocesses with the same local settings (no throttling, robots.txt obeyed):
a bare spider that only follows same-site links, ``news`` with extraction off (spider only), and
``news`` with the full pipeline. Prints pages/s, peak RSS (sampled every 50 ms with psutil) and
the ratios to the bare spider. Requires the bench extra (psutil).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from newscrawl.demo.server import serve_site  # noqa: E402
from newscrawl.demo.site import build_large_site  # noqa: E402
from newscrawl.profiles import LOCAL  # noqa: E402


def measure(cmd: list[str]) -> tuple[float, float]:
    """Wall time (s) and peak RSS (MiB) of a command and its children."""
    started = time.perf_counter()
    proc = psutil.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0
    while proc.poll() is None:
        try:
            rss = proc.memory_info().rss + sum(c.memory_info().rss for c in proc.children(recursive=True))
            peak = max(peak, rss)
        except psutil.Error:
            pass
        time.sleep(0.05)
    if proc.returncode:
        raise SystemExit(f"command failed ({proc.returncode}): {' '.join(cmd)}")
    return time.perf_counter() - started, peak / 2**20


def count(path: Path) -> int:
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("-s", "--set", dest="settings", action="append", default=[], metavar="NAME=VALUE",
                        help="extra setting for the news crawls (e.g. NEWSCRAWL_SITE_ARTICLES=false)")
    args = parser.parse_args()
    settings = [arg for setting in args.settings for arg in ("-s", setting)]
    work = Path(tempfile.mkdtemp(prefix="newscrawl-bench-"))
    local = [f"{k}={json.dumps(v) if not isinstance(v, str) else v}" for k, v in LOCAL.items() if k != "LOG_LEVEL"]
    rows = []
    with serve_site(build_large_site(args.pages)) as server:
        start = server.base_url + "/"
        bare_out = work / "bare.jsonl"
        bare_cmd = [sys.executable, "-m", "scrapy", "runspider", str(REPO / "benchmarks" / "bare_spider.py"),
                    "-a", f"start={start}", "-O", str(bare_out), "-s", "LOG_LEVEL=WARNING", "-s", "DEPTH_LIMIT=0"]
        for setting in local:
            bare_cmd += ["-s", setting]
        seconds, rss = measure(bare_cmd)
        rows.append(("bare Scrapy spider", count(bare_out), seconds, rss))
        for label, extra in (("news (spider only)", ["-s", "NEWSCRAWL_EXTRACTION_ENABLED=false", "-s", "NEWSCRAWL_EXPORT_ALL=true"]),
                             ("news (full pipeline)", [])):
            out, stats = work / "news.jsonl", work / "stats.json"
            seconds, rss = measure([sys.executable, "-m", "newscrawl", "crawl", start, "-o", str(out), "--stats", str(stats),
                                    "--local", "-s", "LOG_LEVEL=WARNING", "-s", "DEPTH_LIMIT=0", *extra, *settings])
            fetched = json.loads(stats.read_text())["newscrawl/pages/fetched"]
            rows.append((label, fetched, seconds, rss))
    base_rate = rows[0][1] / rows[0][2]
    base_rss = rows[0][3]
    print(f"generated site: {args.pages} pages served on 127.0.0.1")
    print(f"{'crawler':<24}{'pages':>7}{'seconds':>9}{'pages/s':>9}{'peak MiB':>10}{'speed ratio':>13}{'memory ratio':>14}")
    for label, pages, seconds, rss in rows:
        rate = pages / seconds
        print(f"{label:<24}{pages:>7}{seconds:>9.1f}{rate:>9.1f}{rss:>10.0f}{rate / base_rate:>13.2f}{rss / base_rss:>14.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
