"""The extraction worker's per-page path on saved sites: its CPU a page, and proof that a change keeps every output.

    python benchmarks/worker_path.py crawl --work DIR [--sites ../shared/sites] [--only wyofile,...]
    python benchmarks/worker_path.py run --work DIR [--dump FILE] [--rounds 3] [--only ...]
    python benchmarks/worker_path.py compare A B    # two crawl work dirs, or two dumps

``crawl`` serves each saved site on 127.0.0.1 (``--port``) and crawls it with the full pipeline in the crawl's own
process (``NEWSCRAWL_EXTRACTION_WORKERS=0``, every page exported), learning its templates into
``DIR/<site>/templates``; it then reads every exported page (HTML and stylesheets) back from the server
into ``DIR/<site>/pages.jsonl.gz``. ``run`` replays those pages through what one extraction worker does
with a page (``newscrawl.extract_pool._Worker.run``: parse, extraction, site layout, the domain's and
the section's template), with the templates the crawl learned, and prints the CPU (process time) a page
of the whole path and of the template matches, the minimum over ``--rounds``; ``--dump`` writes every
page's result. ``compare`` compares two crawls' items field by field (without what depends on arrival
order: ``fetched_at``, ``depth``, ``discovered_by`` and the site-level article decision's evidence) or
two dumps, and exits 1 when anything differs (in a crawl, beyond the site-level article verdict of
pages decided from the site's layouts: that depends on the pages that arrived before). Run
``crawl``/``run --dump`` with the tree before a change
and after it (the after ``run`` on the before ``crawl``'s pages and templates), then ``compare`` both.
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

SITES = ("wyofile", "pressenger", "wsvn7news", "opstime", "newmetal")
VOLATILE = ("fetched_at", "depth", "discovered_by")


def _fetch(url: str) -> tuple[bytes, str, str | None]:
    with urllib.request.urlopen(url, timeout=30) as response:  # 127.0.0.1 only: the served site
        return response.read(), response.geturl(), response.headers.get("Content-Type")


def crawl(site_dir: Path, work: Path, port: int = 0) -> None:
    """Crawl ``site_dir`` (0 workers, every page exported) into ``work``, then save its pages. Two
    crawls to compare must use the same ``port``: the URLs' digits are features of the classifiers."""
    from newscrawl.demo.server import serve_directory
    from newscrawl.encoding import decode_html

    work.mkdir(parents=True, exist_ok=True)
    with serve_directory(site_dir, port=port, log=False) as server:
        started = time.perf_counter()
        cmd = [sys.executable, "-m", "newscrawl", "crawl", server.base_url + "/", "-o", str(work / "items.jsonl"),
               "--local", "-s", "LOG_LEVEL=WARNING", "-s", "DEPTH_LIMIT=0", "-s", "TELNETCONSOLE_ENABLED=false",
               "-s", "NEWSCRAWL_EXTRACTION_WORKERS=0", "-s", "NEWSCRAWL_EXPORT_ALL=true",
               "-s", f"NEWSCRAWL_TEMPLATE_CACHE_DIR={work / 'templates'}"]
        (work / "items.jsonl").unlink(missing_ok=True)
        subprocess.run(cmd, cwd=REPO, check=True, stdout=subprocess.DEVNULL)
        items = [json.loads(line) for line in (work / "items.jsonl").open(encoding="utf-8") if line.strip()]
        print(f"{site_dir.name}: {len(items)} items in {time.perf_counter() - started:.1f} s", flush=True)
        sheets: dict[str, tuple[str, str]] = {}
        with gzip.open(work / "pages.jsonl.gz", "wt", encoding="utf-8") as out:
            for item in items:
                data, _final, content_type = _fetch(item["url"])
                html, _encoding = decode_html(data, content_type)
                for url in item.get("stylesheets") or ():
                    if url not in sheets:
                        source, final, _ = _fetch(url)
                        sheets[url] = (final, source.decode("latin-1"))
                page = {"url": item["url"], "html": html, "stylesheets": item.get("stylesheets") or []}
                out.write(json.dumps(page, ensure_ascii=False) + "\n")
        (work / "sheets.json").write_text(json.dumps(sheets), encoding="utf-8")


def run(work: Path, rounds: int, limit: int | None = None) -> tuple[dict[str, Any], float, float, int]:
    """Every saved page of ``work`` through one worker's path: (results by URL, best CPU s of the path,
    of the template matches, pages)."""
    from newscrawl.extract_pool import Options, _Worker
    from newscrawl.template.cache import TemplateCache, cache_key
    from newscrawl.template.model import Template

    pages = [json.loads(line) for line in gzip.open(work / "pages.jsonl.gz", "rt", encoding="utf-8")][:limit]
    sheets = {url: (final, source.encode("latin-1"))
              for url, (final, source) in json.loads((work / "sheets.json").read_text(encoding="utf-8")).items()}
    cache = TemplateCache(10_000, work / "templates")
    match_cpu = [0.0]
    original = Template.match

    def timed_match(self: Template, *args: Any) -> Any:
        started = time.process_time()
        try:
            return original(self, *args)
        finally:
            match_cpu[0] += time.process_time() - started

    Template.match = timed_match  # type: ignore[method-assign,assignment]
    best, best_match = float("inf"), float("inf")
    results: dict[str, Any] = {}
    try:
        for _ in range(rounds):
            worker = _Worker(Options(site_layout=True))  # a fresh worker: cold stylesheet and template caches
            messages, sent = [], set[str]()  # what the pool sends a worker once (its caches hold them all here)
            for page in pages:
                key, section = cache_key(page["url"]), cache_key(page["url"], section=True)
                template, section_template = cache.get(key), cache.get(section) if section != key else None
                refs = {t.id: t.to_dict() for t in (template, section_template) if t is not None and t.id not in sent}
                new_sheets = {url: sheets[url] for url in page["stylesheets"] if url not in sent}
                sent.update(refs, new_sheets)
                messages.append({
                    "html": page["html"], "url": page["url"], "sheet_urls": page["stylesheets"],
                    "sheets": new_sheets,
                    "template": (key, template.id) if template else None,
                    "section": (section, section_template.id) if section_template else None,
                    "templates": refs, "has_section": section != key,
                })
            match_cpu[0] = 0.0
            started = time.process_time()
            results = {}
            for message in messages:
                result = worker.run(message)
                result.pop("cpu", None)
                results[message["url"]] = result
            best = min(best, time.process_time() - started)
            best_match = min(best_match, match_cpu[0])
    finally:
        Template.match = original  # type: ignore[method-assign]
    return results, best, best_match, len(pages)


def read_items(path: Path) -> dict[str, dict[str, Any]]:
    """A crawl's items by path, without what depends on arrival order (as benchmarks/crawl.py)."""
    items = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        item = {k: v for k, v in json.loads(line).items() if k not in VOLATILE}
        verdict = item.get("extraction", {}).get("is_article")
        if isinstance(verdict, dict):
            item["extraction"]["is_article"] = {"method": verdict.get("method")}
        items[item["url"].split("/", 3)[-1]] = item
    return items


def differences(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """Keys of one side only, then keys whose values differ (with the first differing field)."""
    out = [f"only in first: {k}" for k in sorted(set(a) - set(b))]
    out += [f"only in second: {k}" for k in sorted(set(b) - set(a))]
    for key in sorted(set(a) & set(b)):
        if a[key] != b[key]:
            fields = sorted(f for f in set(a[key]) | set(b[key]) if a[key].get(f) != b[key].get(f))
            out.append(f"differs: {key} ({', '.join(fields)})")
    return out


def compare(first: Path, second: Path, only: list[str]) -> int:
    if first.is_file():
        pairs = [("dump", json.loads(first.read_text()), json.loads(second.read_text()))]
    else:
        pairs = [(site, read_items(first / site / "items.jsonl"), read_items(second / site / "items.jsonl"))
                 for site in only if (first / site / "items.jsonl").exists()]
    bad = 0
    for name, a, b in pairs:
        if name == "dump":
            for site in sorted(set(a) | set(b)):
                diff = differences(a.get(site, {}), b.get(site, {}))
                print(f"{site}: {len(a.get(site, {}))} vs {len(b.get(site, {}))} pages, {len(diff)} differ")
                for line in diff[:20]:
                    print("  " + line)
                bad += len(diff)
            continue
        diff = differences(a, b)
        verdicts = [line for line in diff if _verdict_only(line, a, b)]
        print(f"{name}: {len(a)} vs {len(b)} items, {len(diff)} differ, of which {len(verdicts)} only in the "
              "site-level article verdict (its probability and method depend on the evidence that arrived before)")
        for line in [line for line in diff if line not in verdicts][:20]:
            print("  " + line)
        bad += len(diff) - len(verdicts)
    return 1 if bad else 0


def _verdict_only(line: str, a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two items differ only in what SiteArticlePipeline decides from the site's evidence so far."""
    if not line.startswith("differs: "):
        return False
    key = line.removeprefix("differs: ").rsplit(" (", 1)[0]
    x, y = dict(a[key]), dict(b[key])
    methods = {item.get("extraction", {}).get("is_article", {}).get("method") for item in (x, y)}
    if not methods & {"site-layout", "listing-layout"}:
        return False
    for item in (x, y):
        item.pop("probability", None)
        item.pop("is_article", None)
        item["extraction"] = {k: v for k, v in item.get("extraction", {}).items() if k != "is_article"}
    return x == y


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("crawl", "run"):
        command = sub.add_parser(name)
        command.add_argument("--work", type=Path, required=True)
        command.add_argument("--sites", type=Path, default=REPO.parent / "shared" / "sites")
        command.add_argument("--only", default=",".join(SITES))
    sub.choices["crawl"].add_argument("--port", type=int, default=0, help="serve on this port (0: any free one)")
    sub.choices["run"].add_argument("--dump", type=Path)
    sub.choices["run"].add_argument("--rounds", type=int, default=1)
    sub.choices["run"].add_argument("--limit", type=int, help="the first N pages of each site")
    cmp = sub.add_parser("compare")
    cmp.add_argument("first", type=Path)
    cmp.add_argument("second", type=Path)
    cmp.add_argument("--only", default=",".join(SITES))
    args = parser.parse_args()
    only = args.only.split(",")
    if args.command == "compare":
        return compare(args.first, args.second, only)
    if args.command == "crawl":
        for site in only:
            crawl(args.sites / site, args.work / site, args.port)
        return 0
    dump: dict[str, Any] = {}
    print(f"{'site':<12}{'pages':>7}{'CPU ms a page':>15}{'of it template match':>22}")
    for site in only:
        results, cpu, match, pages = run(args.work / site, max(1, args.rounds), args.limit)
        dump[site] = results
        print(f"{site:<12}{pages:>7}{1000 * cpu / pages:>15.2f}{1000 * match / pages:>22.2f}", flush=True)
    if args.dump:
        args.dump.write_text(json.dumps(dump, sort_keys=True), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
