"""Crawl throughput, CPU and memory: the ``news`` spider against a bare Scrapy spider, in one run.

    python benchmarks/crawl.py [--pages 2000] [--site-dir ../shared/sites/wyofile] [--workers N] [--rounds 3]
                               [-s NAME=VALUE ...]

Serves a generated site (``newscrawl.demo.site.build_large_site``) and, with ``--site-dir``, a saved
site (a folder of pages) on 127.0.0.1, and crawls each in fresh subprocesses with the same local
settings (no throttling, robots.txt obeyed):

* a bare spider that only follows same-site links (``benchmarks/bare_spider.py``);
* ``news`` with extraction off (the spider alone);
* ``news`` with the full pipeline, extraction in the crawl's process (``NEWSCRAWL_EXTRACTION_WORKERS=0``);
* ``news`` with the full pipeline and N extraction worker processes (default: cores minus one).

Printed per crawl: pages fetched, seconds, pages/s, CPU seconds of all its processes (the crawl and
its workers, from the kernel's accounting of reaped children), the CPU seconds of the crawl's own
process (all of it, less what the workers' pages took: the part that cannot run in parallel), the
CPU seconds of the site's server (this process, on the same cores), peak memory of all its processes
(the sum of their RSS, sampled every 50 ms with psutil), and the ratios to the bare spider. The two
full-pipeline crawls share one template cache (the first learns each template, the second reads it,
so that both apply the same one), and their items are compared field by field (those of the first
round). The four crawls run in turn, ``--rounds`` times; each row is the crawl's median round by
pages/s, so that a burst of the machine's other load, which shows in every figure, moves no ratio
alone. Requires the bench extra (psutil).
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


def measure(cmd: list[str]) -> tuple[float, float, float, float]:
    """Wall time (s), CPU time (s) and peak summed RSS (MiB) of a command and its descendants, and the
    CPU time this process took meanwhile (the site's server, which shares the cores)."""
    own = time.process_time()
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
    return seconds, cpu, peak / 2**20, time.process_time() - own


def read_items(path: Path) -> dict[str, dict[str, Any]]:
    """Items by path, without what depends on arrival order: when they were fetched, and how much of
    the site the site-level article decision knew when it decided the page (which evidence decided,
    and the share it gave as the page's probability). Every other field, the verdict (the page is
    exported or not) included, is compared."""
    items = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        item = {k: v for k, v in json.loads(line).items() if k not in VOLATILE and k != "probability"}
        if isinstance(item.get("extraction", {}).get("is_article"), dict):
            item["extraction"]["is_article"] = "compared by the export"
        items[item["url"].split("/", 3)[-1]] = item
    return items


Row = tuple[str, int, float, float, float, float, float]  # name, pages, seconds, CPU s, main CPU s, MiB, server CPU s


def crawl_site(label: str, start: str, work: Path, workers: int, settings: list[str], rounds: int) -> list[Row]:
    local = [f"{k}={json.dumps(v) if not isinstance(v, str) else v}" for k, v in LOCAL.items() if k != "LOG_LEVEL"]
    templates = work / "templates"
    runs = (("bare Scrapy spider", None),
            ("news (spider only)", ["NEWSCRAWL_EXTRACTION_ENABLED=false", "NEWSCRAWL_EXPORT_ALL=true"]),
            ("news, full, 0 workers", ["NEWSCRAWL_EXTRACTION_WORKERS=0", f"NEWSCRAWL_TEMPLATE_CACHE_DIR={templates}"]),
            (f"news, full, {workers} worker{'s' if workers > 1 else ''}",
             [f"NEWSCRAWL_EXTRACTION_WORKERS={workers}", f"NEWSCRAWL_TEMPLATE_CACHE_DIR={templates}"]))
    measured: list[list[Row]] = [[] for _ in runs]
    for round_ in range(rounds):
        for index, (name, extra) in enumerate(runs):
            out, stats = work / f"crawl{index}-{round_}.jsonl", work / f"stats{index}-{round_}.json"
            if extra is None:
                cmd = [sys.executable, "-m", "scrapy", "runspider", str(REPO / "benchmarks" / "bare_spider.py"),
                       "-a", f"start={start}", "-O", str(out), "-s", "LOG_LEVEL=WARNING", "-s", "DEPTH_LIMIT=0",
                       "-s", "TELNETCONSOLE_ENABLED=false"]
                for setting in local:
                    cmd += ["-s", setting]
                seconds, cpu, rss, server = measure(cmd)
                measured[index].append((name, sum(1 for _ in out.open()), seconds, cpu, cpu, rss, server))
                continue
            cmd = [sys.executable, "-m", "newscrawl", "crawl", start, "-o", str(out), "--stats", str(stats), "--local",
                   "-s", "LOG_LEVEL=WARNING", "-s", "DEPTH_LIMIT=0", "-s", "TELNETCONSOLE_ENABLED=false"]
            for setting in [*extra, *settings]:
                cmd += ["-s", setting]
            seconds, cpu, rss, server = measure(cmd)
            numbers = json.loads(stats.read_text())
            main_cpu = cpu - numbers.get("newscrawl/workers/cpu_seconds", 0.0)  # what the workers' pages did not take
            measured[index].append((name, numbers["newscrawl/pages/fetched"], seconds, cpu, main_cpu, rss, server))
    rows = [sorted(runs_of, key=lambda row: row[1] / row[2])[len(runs_of) // 2] for runs_of in measured]
    print(f"{label} (median of {rounds} round{'s' if rounds > 1 else ''})")
    base_rate, base_rss = rows[0][1] / rows[0][2], rows[0][5]
    print(f"{'crawler':<24}{'pages':>7}{'seconds':>9}{'pages/s':>9}{'CPU s':>8}{'main CPU s':>12}{'server CPU s':>14}"
          f"{'peak MiB':>10}{'speed ratio':>13}{'memory ratio':>14}")
    for name, pages, seconds, cpu, main_cpu, rss, server in rows:
        rate = pages / seconds
        print(f"{name:<24}{pages:>7}{seconds:>9.1f}{rate:>9.1f}{cpu:>8.1f}{main_cpu:>12.1f}{server:>14.1f}"
              f"{rss:>10.0f}{rate / base_rate:>13.2f}{rss / base_rss:>14.2f}")
    reactor, pooled = read_items(work / "crawl2-0.jsonl"), read_items(work / "crawl3-0.jsonl")
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
    parser.add_argument("--rounds", type=int, default=3, help="times each crawl runs (its median is printed)")
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
            crawl_site(label, server.base_url + "/", work, args.workers, args.settings, max(1, args.rounds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
