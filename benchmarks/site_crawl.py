"""Crawl a saved news site served from a local folder and score what the spider found.

    python benchmarks/site_crawl.py [--site ../shared/sites/wyofile] [--keep-output DIR]

The folder must hold ``_check/pages.tsv`` (columns path, kind, ...: kind ``article`` for article
pages) and optionally ``_check/reachable.txt`` (pages reachable from the home page). The site is
served on 127.0.0.1, crawled from its home page with the default limits (only throttling is
relaxed for localhost), and every page the spider hands to the pipelines is exported
(``NEWSCRAWL_EXPORT_ALL``, extraction off, so this measures the crawl alone). Printed:

* recall: reachable article pages that were handed off / reachable article pages (goal >= 95%);
* precision: handed-off pages that are articles / handed-off pages (goal >= 90%);
* pages fetched, errors in the log, time.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from newscrawl.demo.server import serve_directory  # noqa: E402
from newscrawl.paths import shared_dir  # noqa: E402


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=shared_dir() / "sites" / "wyofile")
    parser.add_argument("--keep-output", type=Path, help="folder to keep the crawl's items, stats and log in")
    args = parser.parse_args()
    kinds, reachable = load_labels(args.site)
    articles = {k for k, kind in kinds.items() if kind == "article" and (reachable is None or k in reachable)}

    work = args.keep_output or Path(tempfile.mkdtemp(prefix="newscrawl-site-"))
    work.mkdir(parents=True, exist_ok=True)
    items_file, stats_file, log_file = work / "items.jsonl", work / "stats.json", work / "crawl.log"
    with serve_directory(args.site) as server:
        started = time.perf_counter()
        with log_file.open("w") as log:
            proc = subprocess.run(
                [sys.executable, "-m", "newscrawl", "crawl", server.base_url + "/", "-o", str(items_file),
                 "--stats", str(stats_file), "--local",
                 "-s", "NEWSCRAWL_EXPORT_ALL=true", "-s", "NEWSCRAWL_EXTRACTION_ENABLED=false"],
                stdout=log, stderr=subprocess.STDOUT, cwd=REPO, check=False,
            )
        elapsed = time.perf_counter() - started
    items = [json.loads(line) for line in items_file.read_text(encoding="utf-8").splitlines() if line.strip()]
    handed = {page_key(item["url"]) for item in items}
    stats = json.loads(stats_file.read_text(encoding="utf-8")) if stats_file.exists() else {}
    errors = [line for line in log_file.read_text(encoding="utf-8", errors="replace").splitlines() if " ERROR" in line or "Traceback" in line]

    found = handed & articles
    recall = len(found) / len(articles) if articles else 0.0
    precision = sum(1 for k in handed if kinds.get(k) == "article") / len(handed) if handed else 0.0
    print(f"site: {args.site}")
    print(f"{'metric':<34}{'value':>10}  goal")
    print(f"{'reachable article pages':<34}{len(articles):>10}")
    print(f"{'pages fetched':<34}{stats.get('newscrawl/pages/fetched', 0):>10}")
    print(f"{'pages handed to extraction':<34}{len(handed):>10}")
    print(f"{'article recall':<34}{recall:>10.3f}  >= 0.95")
    print(f"{'hand-off precision':<34}{precision:>10.3f}  >= 0.90")
    print(f"{'errors in log':<34}{len(errors):>10}  0")
    print(f"{'crawl exit code':<34}{proc.returncode:>10}  0")
    print(f"{'time (s)':<34}{elapsed:>10.1f}")
    missed = sorted(articles - handed)[:10]
    if missed:
        print("missed articles (first 10):", *missed, sep="\n  ")
    wrong = sorted(k for k in handed if kinds.get(k) != "article")[:10]
    if wrong:
        print("handed-off non-articles (first 10):", *(f"{k} [{kinds.get(k, 'unlabelled')}]" for k in wrong), sep="\n  ")
    for line in errors[:5]:
        print("log:", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
