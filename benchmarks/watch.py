"""Watch (incremental crawling) benchmark: what each cycle costs and whether every article comes
out exactly once.

``demo`` (default): the publishing demo site (``newscrawl.demo.publishing``) releases a held-back
article every --publish-every seconds (and corrects one after every third release) while
``newscrawl watch --once`` cycles run back to back. Per cycle: requests the server answered, how
many were 304, new and updated articles exported, the delay from publication (or correction) to
export, duplicates and missed articles so far (articles published before the cycle started and
still not exported after it; both must be 0).

``site``: a saved real site (default ``../shared/sites/wyofile``) copied to a temp dir and
served on 127.0.0.1 with ETags, as a static web server would (``--no-etags``: without): cycle 1 crawls it, cycle 2 must
export nothing with at most 10% of cycle 1's requests; then a new article (a copy of a saved one
under a new slug and title) is linked from the home page, and cycle 3 must export exactly it.

    .venv/bin/python benchmarks/watch.py demo --cycles 12 --publish-every 4
    .venv/bin/python benchmarks/watch.py site
"""

from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from newscrawl.demo.publishing import PublishingSite
from newscrawl.demo.server import serve_directory, serve_site
from newscrawl.paths import shared_dir

REPO = Path(__file__).resolve().parents[1]


def cycle(base: str, tmp: Path, every: str, extra: list[str]) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "newscrawl", "watch", base + "/", "--state", str(tmp / "state"), "--once",
           "-o", str(tmp / "out.jsonl"), "--local", "--stats", str(tmp / "stats.json"), "--every", every,
           "-s", "LOG_LEVEL=WARNING", *[x for s in extra for x in ("-s", s)]]
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"cycle failed:\n{proc.stderr[-3000:]}")
    return json.loads((tmp / "stats.json").read_text())


def items(tmp: Path) -> list[dict[str, Any]]:
    path = tmp / "out.jsonl"
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()] if path.exists() else []


def row(*cells: Any) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def demo(args: argparse.Namespace) -> int:
    site = PublishingSite(hold=args.hold, every=args.publish_every, changes=args.changes)
    print(f"publishing demo site: {args.hold} articles held back, one released every {args.publish_every}s, "
          f"{args.changes} corrections; cycles back to back, --every {args.every}")
    print(row("cycle", "kind", "requests", "304", "new", "updated", "delay mean s", "delay max s",
              "duplicates", "missed"))
    print(row(*["---"] * 10))
    with tempfile.TemporaryDirectory(prefix="newscrawl-watch-") as tmpdir, \
            serve_site(site, conditional=True) as served:
        tmp = Path(tmpdir)
        initial = set(site._site.article_paths())
        exported_at: dict[str, float] = {}
        updates_at: dict[str, list[float]] = {}
        bad = 0
        for n in range(1, args.cycles + 1):
            if n == args.cycles:  # the last cycle starts after the last release and correction
                while site.queue or site.changes_left:
                    time.sleep(0.2)
                    site._advance()
            started = time.time()
            site._advance()
            released_before = {p for p, t in site.released.items() if t <= started} | initial
            changed_before = {p for p, ts in site.changed.items() if ts and ts[-1] <= started}
            served.reset()
            before = len(items(tmp))
            stats = cycle(served.base_url, tmp, args.every, [])
            ended = time.time()
            new = updated = 0
            delays = []
            for item in items(tmp)[before:]:
                path = item["canonical_url"][len(served.base_url):]
                if item["updated"]:
                    updated += 1
                    updates_at.setdefault(path, []).append(ended)
                    if site.changed.get(path):  # from the correction it shows
                        shown = max(int(n) for n in re.findall(r"Correction (\d+):", item.get("body") or "") or [1])
                        delays.append(ended - site.changed[path][min(shown, len(site.changed[path])) - 1])
                else:
                    new += 1
                    exported_at.setdefault(path, ended)
                    if path in site.released:
                        delays.append(ended - site.released[path])
            duplicates, latest = 0, dict[str, tuple[Any, Any]]()
            for item in items(tmp):  # a repeat of the new export, or an "update" with the same content
                path = item["canonical_url"][len(served.base_url):]
                content = (item.get("title"), item.get("body"))
                duplicates += (path in latest and not item["updated"]) or latest.get(path) == content
                latest[path] = content
            corrections = {p: sum(t <= started for t in ts) for p, ts in site.changed.items()}
            missed = len(released_before - exported_at.keys()) + sum(
                1 for p in changed_before if f"Correction {corrections[p]}:" not in (latest.get(p, ("", ""))[1] or ""))
            bad += duplicates + missed
            print(row(n, "full" if stats.get("newscrawl/watch/full_cycle") else "incremental", len(served.requests),
                      sum(h.status == 304 for h in served.requests), new, updated,
                      f"{sum(delays) / len(delays):.1f}" if delays else "-", f"{max(delays):.1f}" if delays else "-",
                      duplicates, missed))
            if args.pause:
                time.sleep(args.pause)
        published = set(site.released) | initial
        print(f"\n{len(published)} articles published ({len(site.released)} during the run), "
              f"{len(exported_at.keys() & published)} exported once as new; "
              f"{sum(len(v) for v in site.changed.values())} corrections of {len(site.changed)} articles, "
              f"{sum(len(v) for v in updates_at.values())} exported with updated=true (corrections made before an "
              "article's first export are in that export; two made between cycles come out as one update)")
    return 1 if bad else 0


ARTICLE_HREF = re.compile(r'href="([a-z0-9-]{20,})/index\.html"')


def add_article(root: Path, articles: set[str]) -> str:
    """A new article: a copy of an exported one (a path in ``articles``) under a new slug, headline
    and first paragraph, linked from the home page."""
    home = (root / "index.html").read_text(encoding="utf-8")
    slug = next(s for s in ARTICLE_HREF.findall(home)
                if (root / s / "index.html").is_file() and ({f"/{s}/", f"/{s}/index.html"} & articles))
    new = "watch-benchmark-new-article-on-water-rights"
    page = (root / slug / "index.html").read_text(encoding="utf-8").replace(slug, new)
    headline = re.search(r"<h1[^>]*>(.*?)</h1>", page, re.DOTALL)
    if headline:  # a new headline wherever the old one stands (h1, title, metadata)
        old_title = re.sub(r"<[^>]+>", "", headline.group(1)).strip()
        for form in {old_title, html.escape(old_title), html.unescape(old_title)}:
            page = page.replace(form, "Lawmakers open hearings on water rights in the Bighorn Basin")
    first_paragraph = page.find("<p", headline.end() if headline else 0)
    page = (page[:first_paragraph] + "<p>CHEYENNE — Lawmakers opened three days of hearings on water rights on "
            "Monday, with ranchers, irrigation districts and the state engineer's office set to testify.</p>"
            + page[first_paragraph:])
    (root / new).mkdir()
    (root / new / "index.html").write_text(page, encoding="utf-8")
    (root / "index.html").write_text(home.replace(f'href="{slug}/index.html"',
                                                  f'href="{new}/index.html">New</a> <a href="{slug}/index.html"', 1),
                                     encoding="utf-8")
    return f"/{new}/index.html"


def saved_site(args: argparse.Namespace) -> int:
    source = Path(args.dir) if args.dir else shared_dir() / "sites" / "wyofile"
    print(f"saved site {source.name}: served from a temp copy on 127.0.0.1 "
          f"{'without' if args.no_etags else 'with'} ETags, --every {args.every}")
    print(row("cycle", "what", "requests", "304", "exported", "seconds"))
    print(row(*["---"] * 6))
    with tempfile.TemporaryDirectory(prefix="newscrawl-watch-") as tmpdir:
        tmp = Path(tmpdir)
        root = tmp / "site"
        shutil.copytree(source, root)
        results = []
        with serve_directory(root, conditional=not args.no_etags) as served:
            for n, what in enumerate(("first cycle", "nothing new", "new article linked from the home page"), 1):
                if n == 3:
                    added = add_article(root, {i["url"][len(served.base_url):] for i in items(tmp)})
                served.reset()
                before = len(items(tmp))
                started = time.time()
                cycle(served.base_url, tmp, args.every, [])
                out = items(tmp)[before:]
                results.append((len(served.requests), out))
                print(row(n, what, len(served.requests), sum(h.status == 304 for h in served.requests), len(out),
                          f"{time.time() - started:.0f}"))
        first, second, third = results
        ok_second = not second[1] and second[0] <= 0.1 * first[0]
        urls = [i["url"][len(served.base_url):] for i in third[1]]
        ok_third = urls in ([added], [added.removesuffix("index.html")])
        print(f"\nsecond cycle: {len(second[1])} exported, {second[0] / first[0]:.1%} of the first cycle's requests "
              f"({'ok' if ok_second else 'FAILED'}: nothing exported, <= 10%)")
        print(f"third cycle exported {urls} ({'ok' if ok_third else 'FAILED'}: exactly {added})")
    return 0 if ok_second and ok_third else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="mode")
    d = sub.add_parser("demo", help="the publishing demo site")
    d.add_argument("--cycles", type=int, default=12)
    d.add_argument("--hold", type=int, default=10, help="articles released during the run")
    d.add_argument("--publish-every", type=float, default=4.0, help="seconds between releases")
    d.add_argument("--changes", type=int, default=3, help="corrections during the run")
    d.add_argument("--every", default="0s..0s", help="revisit bounds passed to newscrawl watch")
    d.add_argument("--pause", type=float, default=0.0, help="seconds between cycles")
    s = sub.add_parser("site", help="a saved real site")
    s.add_argument("--dir", help="saved site folder (default ../shared/sites/wyofile)")
    s.add_argument("--every", default="0s..0s")
    s.add_argument("--no-etags", action="store_true", help="serve without ETags (no 304s: every front re-read)")
    args = parser.parse_args()
    return saved_site(args) if args.mode == "site" else demo(args if args.mode else parser.parse_args(["demo"]))


if __name__ == "__main__":
    raise SystemExit(main())
