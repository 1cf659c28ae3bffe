"""Crawl saved news sites served from local folders and score what the crawl exported, per article.

    python benchmarks/site_crawl.py                       # every site in ../shared/sites
    python benchmarks/site_crawl.py --site ../shared/sites/wyofile --site ../shared/sites/opstime
    python benchmarks/site_crawl.py --floors benchmarks/site_floors.json   # CI gate: the sites named there
    python benchmarks/site_crawl.py --hand-off            # the spider alone (extraction off)
    python benchmarks/site_crawl.py --speed [--rounds 3]  # also each site's speed against a bare spider

Each folder must hold ``_check/pages.tsv`` (columns path, kind, ...: kind ``article`` for article
pages) and optionally ``_check/reachable.txt`` (pages reachable from the home page). The site is
served on 127.0.0.1 and crawled from its home page by ``newscrawl crawl --local`` with the default
settings (only throttling is relaxed for localhost): what a user gets. With ``--hand-off`` every page
the spider hands to the pipelines is exported with extraction off, which measures the spider alone.

Counting is per article, not per file: a mirroring tool's query variants of one page (HTTrack's
``slug/index1862.html``, ``index﹖x=1.html`` beside ``slug/index.html``) are that page; a WordPress
attachment page is labelled ``attachment``, not ``article``. Printed per site:

* recall: reachable articles exported / reachable articles;
* precision: exported articles (each once) / exported pages (each once);
* exported items, duplicates (items beyond the first of one article or page), pages fetched, time.

``--floors FILE`` (JSON ``{"site": {"recall": r, "precision": p, "max_duplicates": d}}``; keys starting
with ``_`` are notes) crawls the sites it names (unless ``--site`` is given) and exits 1 when one falls
under its floor, its crawl fails or logs an error. ``--details`` lists the missed articles and exported non-articles.
``--speed`` then crawls each site as ``benchmarks/crawl.py --site-dir`` does (the bare spider, the
news spider without extraction, the full pipeline with 0 and N workers: pages/s, CPU, memory).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from newscrawl.demo.server import serve_directory
from newscrawl.paths import shared_dir

# a mirroring tool's file for a query variant of the page in its folder
_VARIANT = re.compile(r"(?:^|/)index[^/]*\.html?$")


def page_key(path: str) -> str:
    """'a/b/index.html', '/a/b/' and 'http://host/a/b/' all become 'a/b'."""
    path = unquote(urlsplit(path).path if "://" in path else path)
    path = path.strip("/")
    for suffix in ("index.html", "index.htm"):
        if path.endswith(suffix):
            path = path[: -len(suffix)].rstrip("/")
    return path


def load_labels(site: Path) -> tuple[dict[str, str], set[str] | None]:
    rows = (site / "_check" / "pages.tsv").read_text(encoding="utf-8").splitlines()
    header = rows[0].split("\t")
    path_col, kind_col = header.index("path"), header.index("kind")
    kinds = {}
    for row in rows[1:]:
        cols = row.split("\t")
        kinds[page_key(cols[path_col])] = cols[kind_col]
    reachable_file = site / "_check" / "reachable.txt"
    reachable = None
    if reachable_file.exists():
        reachable = {page_key(line) for line in reachable_file.read_text(encoding="utf-8").splitlines() if line.strip()}
    return kinds, reachable


def unit(key: str, kinds: dict[str, str]) -> str:
    """The page ``key`` counts as: itself, or for a mirror's query variant of an article, that article."""
    if _VARIANT.search(key):
        parent = key.rsplit("/", 1)[0] if "/" in key else ""
        if kinds.get(parent) == "article" and kinds.get(key) in (None, "article", "other"):
            return parent
    return key


@dataclass
class Result:
    site: str
    articles: int
    recall: float
    precision: float
    exported: int
    duplicates: int
    fetched: int
    seconds: float
    errors: int
    exit_code: int
    missed: list[str]
    wrong: list[str]


def crawl_site(site: Path, work: Path, hand_off: bool, extra: list[str]) -> Result:
    kinds, reachable = load_labels(site)
    articles = {k for k, kind in kinds.items() if kind == "article" and (reachable is None or k in reachable)}
    work.mkdir(parents=True, exist_ok=True)
    items_file, stats_file, log_file = work / "items.jsonl", work / "stats.json", work / "crawl.log"
    settings = ["-s", "NEWSCRAWL_EXPORT_ALL=true", "-s", "NEWSCRAWL_EXTRACTION_ENABLED=false",
                "-s", "NEWSCRAWL_HAND_OFF=articles"] if hand_off else []
    for setting in extra:
        settings += ["-s", setting]
    with serve_directory(site) as server:
        started = time.perf_counter()
        with log_file.open("w") as log:
            proc = subprocess.run(
                [sys.executable, "-m", "newscrawl", "crawl", server.base_url + "/", "-o", str(items_file),
                 "--stats", str(stats_file), "--local", *settings],
                stdout=log, stderr=subprocess.STDOUT, cwd=REPO, check=False,
            )
        elapsed = time.perf_counter() - started
    lines = items_file.read_text(encoding="utf-8").splitlines() if items_file.exists() else []
    items = [json.loads(line) for line in lines if line.strip()]
    counts = Counter(unit(page_key(item["url"]), kinds) for item in items)
    stats = json.loads(stats_file.read_text(encoding="utf-8")) if stats_file.exists() else {}
    errors = [line for line in log_file.read_text(encoding="utf-8", errors="replace").splitlines()
              if " ERROR" in line or "Traceback" in line]
    found = set(counts) & articles
    right = sum(1 for k in counts if kinds.get(k) == "article")
    return Result(
        site=site.name, articles=len(articles),
        recall=len(found) / len(articles) if articles else 0.0,
        precision=right / len(counts) if counts else 0.0,
        exported=len(items), duplicates=sum(n - 1 for n in counts.values()),
        fetched=int(stats.get("newscrawl/pages/fetched", 0)), seconds=elapsed, errors=len(errors),
        exit_code=proc.returncode, missed=sorted(articles - found),
        wrong=sorted(f"{k} [{kinds.get(k, 'unlabelled')}]" for k in counts if kinds.get(k) != "article"),
    )


def sites_in(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if (p / "_check" / "pages.tsv").is_file())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, action="append", help="a saved site (repeatable; default: all)")
    parser.add_argument("--hand-off", action="store_true", help="score the spider's hand-off (extraction off)")
    parser.add_argument("--floors", type=Path, help="JSON floors per site name; exit 1 under one")
    parser.add_argument("--keep-output", type=Path, help="folder to keep each crawl's items, stats and log in")
    parser.add_argument("--details", action="store_true", help="list missed articles and exported non-articles")
    parser.add_argument("-s", "--set", dest="settings", action="append", default=[], metavar="NAME=VALUE",
                        help="extra crawl setting")
    parser.add_argument("--speed", action="store_true", help="also time each site against a bare Scrapy spider")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each --speed crawl (the median is printed)")
    args = parser.parse_args()
    floors = json.loads(args.floors.read_text(encoding="utf-8")) if args.floors else {}
    floors = {name: floor for name, floor in floors.items() if not name.startswith("_")}
    folder = shared_dir() / "sites"
    sites = args.site or ([folder / name for name in floors] if floors else sites_in(folder))
    missing = [site for site in sites if not (site / "_check" / "pages.tsv").is_file()]
    if missing:
        print("no saved site (with _check/pages.tsv) at:", *missing)
        return 1
    base = args.keep_output or Path(tempfile.mkdtemp(prefix="newscrawl-sites-"))
    results = []
    print(f"{'site':<12}{'articles':>9}{'recall':>8}{'precision':>10}{'exported':>9}{'dupes':>6}"
          f"{'fetched':>8}{'time s':>8}{'errors':>7}", flush=True)
    for site in sites:
        r = crawl_site(site, base / site.name, args.hand_off, args.settings)
        results.append(r)
        print(f"{r.site:<12}{r.articles:>9}{r.recall:>8.3f}{r.precision:>10.3f}{r.exported:>9}{r.duplicates:>6}"
              f"{r.fetched:>8}{r.seconds:>8.1f}{r.errors:>7}", flush=True)
    failed = []
    for r in results:
        if args.details or r.site in floors:
            if r.missed:
                print(f"{r.site}: missed articles ({len(r.missed)}):", *r.missed[:30], sep="\n  ")
            if r.wrong:
                print(f"{r.site}: exported non-articles ({len(r.wrong)}):", *r.wrong[:30], sep="\n  ")
        floor = floors.get(r.site)
        if floor is None:
            continue
        if r.exit_code != 0 or r.errors:
            failed.append(f"{r.site}: crawl exit code {r.exit_code}, {r.errors} errors in the log")
        for name in ("recall", "precision"):
            if getattr(r, name) < floor.get(name, 0.0):
                failed.append(f"{r.site}: {name} {getattr(r, name):.3f} < floor {floor[name]}")
        if r.duplicates > floor.get("max_duplicates", 0):
            failed.append(f"{r.site}: {r.duplicates} duplicates > {floor.get('max_duplicates', 0)}")
    if args.speed:
        speed(sites, base, args.settings, max(1, args.rounds))
    for line in failed:
        print("FAIL", line)
    return 1 if failed else 0


def speed(sites: list[Path], base: Path, settings: list[str], rounds: int) -> None:
    """benchmarks/crawl.py's side-by-side crawls, on each saved site."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from crawl import crawl_site as timed_crawl

    from newscrawl.extract_pool import default_workers

    print()
    for site in sites:
        work = base / f"{site.name}-speed"
        work.mkdir(parents=True, exist_ok=True)
        with serve_directory(site, log=False) as server:
            timed_crawl(f"saved site: {site.name}", server.base_url + "/", work, default_workers(), settings, rounds)


if __name__ == "__main__":
    sys.exit(main())
