"""Crawl throughput, CPU and memory: the ``news`` spider against a bare Scrapy spider, in one run.

    python benchmarks/crawl.py [--pages 2000] [--site-dir ../shared/sites/wyofile] [--workers N] [-s NAME=VALUE ...]

Serves a generated site (``newscrawl.demo.site.build_large_site``) and, with ``--site-dir``, a saved
site (a folder of pages) on 127.0.0.1, and crawls each in fresh subprocesses with the same local
settings (no throttling, robots.txt obeyed):

* a bare spider that only follows same-site links (``benchmarks/bare_spider.py``);
* ``news`` with extraction off (the spider alone);
* ``news`` with the full pipeline, extraction in the crawl's process (``NEWSCRAWL_EXTRACTION_WORKERS=0``);
* ``news`` with the full pipeline and N extraction worker processes (default: cores minus one).

Printed per crawl: pages fetched, seconds, pages/s, CPU seconds of all its processes (the crawl and
its workers, from the kernel's accounting of reaped children), the CPU seconds of the crawl's own
process (all of it, less what the workers' pages took: the part that cannot run in parallel), peak memory of all its processes
(the sum of their RSS, sampled every 50 ms with psutil), and the ratios to the bare spider. The two
full-pipeline crawls share one template cache (the first learns each template, the second reads it,
so that both apply the same one), and their items are compared field by field. Requires the bench
extra (psutil). The machine's other load shows in every figure: run it several times.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psutil

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from newscrawl.demo.server import serve_directory, serve_site
from newscrawl.demo.site import build_large_site
from newscrawl.extract_pool import default_workers
from newscrawl.profiles import LOCAL

# what the crawl's timing decides (arrival order), not extraction
VOLATILE = ("fetched_at", "depth", "discovered_by")


def measure(cmd: list[str]) -> tuple[float, float, float]:
    """Wall time (s), CPU time (s) and peak summed RSS (MiB) of a command and its descendants."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
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
    seconds = time.perf_counter() - started
    if proc.returncode:
        raise SystemExit(f"command failed ({proc.returncode}): {' '.join(cmd)}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the crawl and the workers it reaped
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu, peak / 2**20


def read_items(path: Path) -> dict[str, dict[str, Any]]:
    items = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    return {item["url"].split("/", 3)[-1]: {k: v for k, v in item.items() if k not in VOLATILE} for item in items}


def crawl_site(label: str, start: str, work: Path, workers: int, settings: list[str]
               ) -> list[tuple[str, int, float, float, float, float]]:
    local = [f"{k}={json.dumps(v) if not isinstance(v, str) else v}" for k, v in LOCAL.items() if k != "LOG_LEVEL"]
    rows = []
    bare_out = work / "bare.jsonl"
    bare_cmd = [sys.executable, "-m", "scrapy", "runspider", str(REPO / "benchmarks" / "bare_spider.py"),
                "-a", f"start={start}", "-O", str(bare_out), "-s", "LOG_LEVEL=WARNING", "-s", "DEPTH_LIMIT=0",
                "-s", "TELNETCONSOLE_ENABLED=false"]
    for setting in local:
        bare_cmd += ["-s", setting]
    seconds, cpu, rss = measure(bare_cmd)
    rows.append(("bare Scrapy spider", sum(1 for _ in bare_out.open()), seconds, cpu, cpu, rss))
    templates = work / "templates"
    runs = (("news (spider only)", ["NEWSCRAWL_EXTRACTION_ENABLED=false", "NEWSCRAWL_EXPORT_ALL=true"]),
            ("news, full, 0 workers", ["NEWSCRAWL_EXTRACTION_WORKERS=0", f"NEWSCRAWL_TEMPLATE_CACHE_DIR={templates}"]),
            (f"news, full, {workers} worker{'s' if workers > 1 else ''}",
             [f"NEWSCRAWL_EXTRACTION_WORKERS={workers}", f"NEWSCRAWL_TEMPLATE_CACHE_DIR={templates}"]))
    outputs = []
    for name, extra in runs:
        out, stats = work / f"news{len(outputs)}.jsonl", work / f"stats{len(outputs)}.json"
        cmd = [sys.executable, "-m", "newscrawl", "crawl", start, "-o", str(out), "--stats", str(stats), "--local",
               "-s", "LOG_LEVEL=WARNING", "-s", "DEPTH_LIMIT=0", "-s", "TELNETCONSOLE_ENABLED=false"]
        for setting in [*extra, *settings]:
            cmd += ["-s", setting]
        seconds, cpu, rss = measure(cmd)
        outputs.append(out)
        numbers = json.loads(stats.read_text())
        main_cpu = cpu - numbers.get("newscrawl/workers/cpu_seconds", 0.0)  # what the workers' pages did not take
        rows.append((name, numbers["newscrawl/pages/fetched"], seconds, cpu, main_cpu, rss))
    print(label)
    base_rate, base_rss = rows[0][1] / rows[0][2], rows[0][5]
    print(f"{'crawler':<24}{'pages':>7}{'seconds':>9}{'pages/s':>9}{'CPU s':>8}{'main CPU s':>12}{'peak MiB':>10}"
          f"{'speed ratio':>13}{'memory ratio':>14}")
    for name, pages, seconds, cpu, main_cpu, rss in rows:
        rate = pages / seconds
        print(f"{name:<24}{pages:>7}{seconds:>9.1f}{rate:>9.1f}{cpu:>8.1f}{main_cpu:>12.1f}{rss:>10.0f}"
              f"{rate / base_rate:>13.2f}{rss / base_rss:>14.2f}")
    reactor, pooled = read_items(outputs[1]), read_items(outputs[2])
    same = [url for url in reactor if url in pooled and reactor[url] == pooled[url]]
    print(f"items, 0 workers vs {workers}: {len(reactor)} vs {len(pooled)}, identical {len(same)}, "
          f"different {sum(1 for url in reactor if url in pooled) - len(same)}, "
          f"only one side {len(set(reactor) ^ set(pooled))}")
    print()
    return rows


@contextmanager
def served(site_dir: Path | None, pages: int) -> Iterator[Any]:
    if site_dir is None:
        with serve_site(build_large_site(pages), log=False) as server:
            yield server
    else:
        with serve_directory(site_dir, log=False) as server:
            yield server


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=2000, help="pages of the generated site")
    parser.add_argument("--site-dir", type=Path, help="also crawl this saved site (e.g. ../shared/sites/wyofile)")
    parser.add_argument("--workers", type=int, default=default_workers(), help="extraction workers of the last crawl")
    parser.add_argument("-s", "--set", dest="settings", action="append", default=[], metavar="NAME=VALUE",
                        help="extra setting for the news crawls (e.g. NEWSCRAWL_SITE_ARTICLES=false)")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
          "(other processes share the cores)\n")
    sites: list[tuple[str, Path | None]] = [(f"generated site: {args.pages} pages served on 127.0.0.1", None)]
    if args.site_dir is not None:
        sites.append((f"saved site: {args.site_dir} served on 127.0.0.1", args.site_dir))
    for label, site_dir in sites:
        work = Path(tempfile.mkdtemp(prefix="newscrawl-bench-"))
        with served(site_dir, args.pages) as server:
            crawl_site(label, server.base_url + "/", work, args.workers, args.settings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
