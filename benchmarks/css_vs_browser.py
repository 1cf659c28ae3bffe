"""newscrawl's simplified cascade vs headless Chromium's getComputedStyle, on real pages.

For every element with direct text (outside head/script/style/noscript/template/svg) it compares
font-size (within 0.5px), font-weight (rounded to the hundred), colour (#rrggbb[aa]) and display,
and prints agreement per property, time per page for both, and how much CSS the parser discards.

Pages: the demo site (``newscrawl.demo``) and the saved site ``../shared/sites/wyofile`` by
default, or any saved site with ``--site-dir DIR`` (repeatable; ``--site-dir shared`` for every
folder of ``../shared/sites``): a seeded sample of its ``_check/pages.tsv`` (else its ``*.html``
files), all served from 127.0.0.1. Chromium only reaches 127.0.0.1 (every other host resolves
to nothing).

Setup (benchmark only; the test suite never needs a browser)::

    .venv/bin/python benchmarks/css_vs_browser.py --setup   # or: python -m newscrawl.browser setup
    (Debian's chromium, needs root, and websocket-client; the driver is newscrawl.browser)

Run: ``.venv/bin/python benchmarks/css_vs_browser.py [--pages 30] [--site demo|wyofile|all]
[--site-dir DIR ...]``
(``--ours-only``: time our side alone, without Chromium and without agreement figures).

Timing: "ours" = lxml parse of the page + StyleResolver (which parses the page's <style> blocks)
+ styles of the compared elements, pages in sequence as in a crawl, each page's first visit (the pass is run --repeat times, each
from cleared caches, each page's best time kept):
external stylesheets parsed once per site (the middleware's crawl-wide store); every in-process
CSS cache is cleared before the first page, so <style> blocks, compiled selectors and the
site-wide index and memos are cached only from earlier pages, never from the page itself. Our
pages are timed in one pass before Chromium loads any page (a browser keeps working after the
load event, which would otherwise overlap our timing).
"cold" = no cache at all: every stylesheet and <style> block parsed for the page alone.
"chromium" = navigate + load + getComputedStyle of the same elements on a warm browser (its memory
cache holds the CSS), best of --repeat loads. CPU columns: our process's CPU time vs the summed
CPU time of all Chromium processes (fairer on a busy machine than wall time). "gc cpu" / "full
gc": the CPU time a page of the garbage collector's passes during our timed pass (part of our
times) and how many of them were full collections (per pass).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

import lxml.html
from lxml import etree

from newscrawl import browser as browser_module
from newscrawl.css import StyleResolver, parse_style_block, parse_stylesheet
from newscrawl.css import cascade as cascade_module
from newscrawl.css import selectors as selectors_module
from newscrawl.css import stylesheet as stylesheet_module
from newscrawl.css.media import media_matches
from newscrawl.demo import build_demo_site, serve_directory, serve_site
from newscrawl.browser import CHROMIUM, VIEWPORT
from newscrawl.paths import shared_dir

SKIP_TAGS = {"head", "script", "style", "noscript", "template", "svg", "math", "title"}
PROPS = ("font_size", "font_weight", "color", "display")

# Walk the DOM in Chromium: elements with direct non-blank text, keyed by their tag/position path.
JS_COLLECT = r"""
(() => {
  // Transitions still running after load (colours fading in) would be caught mid-way.
  for (const a of document.getAnimations()) { try { a.finish(); } catch (e) {} }
  const skip = new Set(%s);
  const out = [];
  const walk = (el, path) => {
    const name = el.localName;
    if (skip.has(name)) return;
    let direct = false;
    for (const n of el.childNodes) {
      if (n.nodeType === 3 && n.nodeValue.trim()) { direct = true; break; }
    }
    if (direct) {
      const cs = getComputedStyle(el);
      out.push([path, cs.fontSize, cs.fontWeight, cs.color, cs.display]);
    }
    const counts = {};
    for (const c of el.children) {
      const t = c.localName;
      counts[t] = (counts[t] || 0) + 1;
      walk(c, path + '/' + t + '[' + counts[t] + ']');
    }
  };
  walk(document.documentElement, 'html[1]');
  return JSON.stringify(out);
})()
""" % json.dumps(sorted(SKIP_TAGS))


class Chromium(browser_module.Chromium):
    """The shared DevTools driver plus what this benchmark times: load + getComputedStyle, and CPU."""

    def cpu_seconds(self) -> float:
        """CPU time of the whole browser (all its processes), to compare on a busy machine."""
        import psutil

        total = 0.0
        try:
            root = psutil.Process(self.proc.pid)
            for proc in [root, *root.children(recursive=True)]:
                try:
                    times = proc.cpu_times()
                    total += times.user + times.system
                except psutil.Error:
                    pass
        except psutil.Error:
            pass
        return total

    def computed(self, url: str) -> tuple[list, float, float]:
        """(elements, wall seconds, browser CPU seconds) for load + getComputedStyle."""
        cpu = self.cpu_seconds()
        started = time.perf_counter()
        self.send("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired")
        # Runtime.evaluate runs in the page even with scripts disabled for the page itself.
        result = self.send("Runtime.evaluate", expression=JS_COLLECT, returnByValue=True)
        elapsed = time.perf_counter() - started
        return json.loads(result["result"]["value"]), elapsed, self.cpu_seconds() - cpu


# --- our side ------------------------------------------------------------------------------------
class SheetFetcher:
    """Fetch and parse each stylesheet URL once (what the middleware does in a crawl)."""

    def __init__(self) -> None:
        self.sheets: dict[str, Any] = {}
        self.texts: dict[str, bytes] = {}
        self.stats: Counter[str] = Counter()

    def get(self, url: str) -> Any:
        if url not in self.sheets:
            try:
                with urllib.request.urlopen(url, timeout=30) as resp:
                    body = resp.read()
                    ok = "css" in (resp.headers.get("Content-Type") or "")
            except Exception:
                body, ok = b"", False
            self.texts[url] = body
            self.sheets[url] = parse_stylesheet(body, url=url) if ok else None
            if ok:
                self.stats.update(self.sheets[url].stats)
        return self.sheets[url]

    def for_page(self, root: Any, base: str, depth: int = 4) -> list[Any]:
        out: list[Any] = []
        seen: set[str] = set()

        def add(url: str, level: int) -> None:
            if url in seen:
                return
            seen.add(url)
            sheet = self.get(url)
            if sheet is None:
                return
            if level < depth:
                for imp in sheet.imports:
                    if media_matches(imp.media, VIEWPORT):
                        add(imp.url, level + 1)
            out.append(sheet)

        for el in root.iter("link", "style"):
            if el.tag == "link":
                rel = (el.get("rel") or "").lower().split()
                href = (el.get("href") or "").strip()
                if "stylesheet" in rel and "alternate" not in rel and href \
                        and media_matches(el.get("media"), VIEWPORT):
                    add(urllib.parse.urljoin(base, href).split("#")[0], 0)
            elif "@import" in (el.text or "").lower():  # other blocks import nothing
                for imp in parse_style_block(el.text or "", base).imports:
                    add(imp.url, 1)
        return out


_WITH_TEXT = etree.XPath("//*[text()[normalize-space()]]")


def text_elements(root: Any) -> list[Any]:
    """Elements with direct non-blank text, outside SKIP_TAGS subtrees, in document order.

    The candidates come from one compiled XPath (lxml's C walk); the exact test (Python's
    ``strip``, which also drops non-breaking spaces that XPath's ``normalize-space`` keeps) runs on
    those few only. A Python walk over every element cost 1.6-1.9 ms of a WyoFile page, a fifth of
    our timed pass, for finding the targets rather than styling them; this gives the same list
    (checked on all 369 WyoFile pages) in 0.9 ms."""
    skipped = set()
    for top in root.iter(*SKIP_TAGS):
        skipped.update(top.iter())
    return [el for el in _WITH_TEXT(root) if el not in skipped
            and ((el.text and el.text.strip()) or any(c.tail and c.tail.strip() for c in el))]


def element_paths(root: Any) -> dict[Any, str]:
    """The tag[n]/... path of every element (the key Chromium's side uses); untimed."""
    paths = {root: "html[1]"}
    stack = [root]
    while stack:
        el = stack.pop()
        counts: dict[str, int] = {}
        for child in el:
            if isinstance(child.tag, str):
                counts[child.tag] = counts.get(child.tag, 0) + 1
                paths[child] = f"{paths[el]}/{child.tag}[{counts[child.tag]}]"
                stack.append(child)
    return paths


def our_styles(html: bytes, url: str, sheets: list[Any]
               ) -> tuple[dict[str, tuple], float, float]:
    """(styles by path, wall seconds, CPU seconds): the timed part is what a crawl pays per
    page: parse, resolver, and the styles of the elements with direct text."""
    started, cpu = time.perf_counter(), time.process_time()
    root = lxml.html.document_fromstring(html, base_url=url)
    resolver = StyleResolver(root, sheets, viewport=VIEWPORT)
    targets = text_elements(root)
    styles = [resolver.style(el) for el in targets]
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    paths = element_paths(root)
    out = {paths[el]: (style.font_size, style.font_weight, style.color, style.display)
           for el, style in zip(targets, styles)}
    return out, elapsed, cpu


def chrome_color(text: str) -> str:
    text = text.strip()
    if text.startswith("rgb"):
        inner = text[text.index("(") + 1:text.rindex(")")].replace("/", ",")
        parts = [p.strip() for p in inner.replace(" ", ",").split(",") if p.strip()]
        r, g, b = (round(float(p)) for p in parts[:3])
        alpha = float(parts[3]) if len(parts) > 3 else 1.0
        out = f"#{r:02x}{g:02x}{b:02x}"
        return out + f"{round(alpha * 255):02x}" if alpha < 1 else out
    return text  # color(srgb ...) etc: compared as-is (counts as disagreement)


def agree(prop: str, ours: Any, theirs: Any) -> bool:
    if prop == "font_size":
        return abs(ours - float(theirs.rstrip("px"))) <= 0.5
    if prop == "font_weight":
        return ours == min(900, max(100, round(float(theirs) / 100) * 100))
    if prop == "color":
        return ours == chrome_color(theirs)
    return ours == theirs


def pages_of(site: str | Path, base: str, limit: int, rng: random.Random) -> list[str]:
    """A seeded sample of the site's pages: the demo's, or a saved site's from its
    ``_check/pages.tsv`` (kind other than "other"), else every ``*.html`` file in it."""
    if site == "demo":
        demo = build_demo_site()
        paths = sorted(demo.html_paths())
    else:
        folder = Path(site)
        tsv = folder / "_check" / "pages.tsv"
        if tsv.is_file():
            rows = [line.split("\t") for line in tsv.read_text().splitlines()[1:]]
            files = [row[0] for row in rows if len(row) > 1 and row[1] != "other"]
        else:
            files = sorted(str(path.relative_to(folder)) for path in folder.rglob("*.html"))
        paths = ["/" + path.removesuffix("index.html") for path in files]
    rng.shuffle(paths)
    return [base + urllib.parse.quote(p) for p in sorted(paths[:limit])]


class GcWatch:
    """CPU time of the garbage collector's passes and the number of full (generation 2) ones
    while the block runs."""

    def __init__(self) -> None:
        self.cpu = 0.0
        self.full = 0
        self._started = 0.0

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.process_time()
        else:
            self.cpu += time.process_time() - self._started
            self.full += info["generation"] == 2

    def __enter__(self) -> GcWatch:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)


def clear_caches() -> None:
    """Forget every in-process CSS cache (parsed <style> texts, declarations, selectors,
    indexes); parsed external sheets are held by the SheetFetcher, as by the crawl's store."""
    stylesheet_module._parse_cached.cache_clear()
    stylesheet_module._parsed_piece.cache_clear()
    stylesheet_module._SELECTOR_KEYS.clear()
    cascade_module._combined_index.cache_clear()
    cascade_module._BLOCKS.clear()
    cascade_module._SHARED.clear()
    cascade_module._SPACES.clear()
    cascade_module._inline_declarations.cache_clear()
    selectors_module.compile_selector_text.cache_clear()
    selectors_module._COMPOUNDS.clear()
    selectors_module._PART_CACHE.clear()
    selectors_module._SIMPLE_CACHE.clear()


def run_site(site: str | Path, served: Any, limit: int, browser: Chromium | None, report: dict,
             repeat: int) -> None:
    rng = random.Random(1)
    fetcher = SheetFetcher()
    counts: Counter[str] = Counter()
    mismatches: Counter[tuple] = Counter()
    ours_t, ours_cold_t, chrome_t, ours_cpu, chrome_cpu = [], [], [], [], []
    matched = total = 0
    pages = []
    for url in pages_of(site, served.base_url, limit, rng):
        html = urllib.request.urlopen(url, timeout=30).read()
        root = lxml.html.document_fromstring(html, base_url=url)
        pages.append((url, html, fetcher.for_page(root, url)))  # external sheets parsed once
    # Crawl order: each page seen once, caches warmed only by the pages before it. Our pass runs
    # before Chromium loads any page, so the browser's work after a load (its processes go on
    # after the load event) does not overlap our timing.
    # The pass is run `repeat` times, each from cleared caches, and each page keeps its best
    # time, as Chromium's loads do (the machine is shared and noisy).
    computed = []
    with GcWatch() as collections:  # the collector's share of our pass (it is in our times)
        for attempt in range(repeat):
            clear_caches()
            for index, (url, html, sheets) in enumerate(pages):
                ours, elapsed, cpu = our_styles(html, url, sheets)
                if attempt == 0:
                    computed.append(ours)
                    ours_t.append(elapsed)
                    ours_cpu.append(cpu)
                else:
                    ours_t[index] = min(ours_t[index], elapsed)
                    ours_cpu[index] = min(ours_cpu[index], cpu)
    for (url, _html, _sheets), ours in zip(pages, computed if browser is not None else ()):
        # Chromium warm (its memory cache holds the CSS), best of `repeat` loads: the machine is
        # shared and noisy.
        chrome_runs = [browser.computed(url) for _ in range(repeat)]
        theirs = chrome_runs[0][0]
        chrome_t.append(min(r[1] for r in chrome_runs))
        chrome_cpu.append(min(r[2] for r in chrome_runs))
        for path, *values in theirs:
            total += 1
            if path not in ours:
                continue
            matched += 1
            for prop, mine, their in zip(PROPS, ours[path], values):
                ok = agree(prop, mine, their)
                counts[prop] += ok
                if not ok:
                    mismatches[(prop, path.rsplit("/", 1)[-1].split("[")[0], str(mine),
                                their)] += 1
    # Cold: no cache at all, every stylesheet and <style> block parsed for the page.
    for url, html, sheets in pages:
        clear_caches()
        started = time.perf_counter()
        fresh = [parse_stylesheet(fetcher.texts[sheet.url], url=sheet.url) for sheet in sheets]
        ours_cold_t.append(time.perf_counter() - started + our_styles(html, url, fresh)[1])
    kept = fetcher.stats
    report["demo" if site == "demo" else Path(site).name] = {
        "pages": len(ours_t), "elements": total, "aligned": matched,
        "agreement": {p: counts[p] / matched if matched else 0.0 for p in PROPS},
        "ours_ms": 1000 * statistics.mean(ours_t), "ours_cold_ms": 1000 * statistics.mean(
            ours_cold_t), "chromium_ms": 1000 * statistics.mean(chrome_t or [0.0]),
        "ours_cpu_ms": 1000 * statistics.mean(ours_cpu),
        "ours_gc_cpu_ms": 1000 * collections.cpu / max(1, len(ours_t) * repeat),
        "ours_full_gcs": collections.full // max(1, repeat),
        "chromium_cpu_ms": 1000 * statistics.mean(chrome_cpu or [0.0]),
        "rules_discarded": 1 - kept["rules_kept"] / max(1, kept["rules_total"]),
        "declarations_discarded": 1 - kept["declarations_kept"] / max(
            1, kept["declarations_total"]),
        "declarations_discarded_excluding_custom": 1 - (
            kept["declarations_kept"] - kept["custom_properties"]) / max(
            1, kept["declarations_total"] - kept["custom_properties"]),
        "top_mismatches": [list(k) + [v] for k, v in mismatches.most_common(12)],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=30, help="pages per site")
    parser.add_argument("--site", choices=("demo", "wyofile", "all", "none"), default=None,
                        help="demo site and/or saved WyoFile (default: all, none with --site-dir)")
    parser.add_argument("--site-dir", action="append", type=Path, default=[], metavar="DIR",
                        help="a saved site's folder (repeatable); 'shared' for every folder of"
                             " ../shared/sites")
    parser.add_argument("--repeat", type=int, default=2, help="timed runs per page (best kept)")
    parser.add_argument("--setup", action="store_true", help="apt-get install chromium first")
    parser.add_argument("--ours-only", action="store_true",
                        help="time our cascade alone (no Chromium, no agreement)")
    parser.add_argument("--json", help="also write the report here")
    args = parser.parse_args(argv)
    if args.setup:
        browser_module.setup()
    if not args.ours_only and not Path(CHROMIUM).exists():
        print("chromium missing: run with --setup (apt-get install -y chromium)", file=sys.stderr)
        return 2
    if args.site is None:
        args.site = "none" if args.site_dir else "all"
    site_dirs: list[Path] = []
    for folder in args.site_dir:
        if str(folder) == "shared":
            site_dirs += sorted(p for p in (shared_dir() / "sites").iterdir() if p.is_dir())
        else:
            site_dirs.append(folder)
    report: dict = {}
    browser = None if args.ours_only else Chromium()
    try:
        if args.site in ("demo", "all"):
            with serve_site(build_demo_site()) as served:
                run_site("demo", served, args.pages, browser, report, args.repeat)
        wyofile = shared_dir() / "sites" / "wyofile"
        if args.site in ("wyofile", "all") and wyofile.is_dir():
            with serve_directory(wyofile) as served:
                run_site(wyofile, served, args.pages, browser, report, args.repeat)
        for folder in site_dirs:
            with serve_directory(folder, log=False) as served:
                run_site(folder, served, args.pages, browser, report, args.repeat)
    finally:
        if browser is not None:
            browser.close()
    if args.ours_only:
        print(f"{'site':10} {'pages':>5}  {'ours ms':>8} {'ours cpu':>8} {'gc cpu':>7}"
              f" {'full gc':>7} {'cold ms':>8}  {'rules disc.':>11} {'decl disc.':>10}")
        for site, r in report.items():
            print(f"{site:10} {r['pages']:5d}  {r['ours_ms']:8.1f} {r['ours_cpu_ms']:8.1f}"
                  f" {r['ours_gc_cpu_ms']:7.2f} {r['ours_full_gcs']:7d}"
                  f" {r['ours_cold_ms']:8.1f}  {100 * r['rules_discarded']:10.1f}%"
                  f" {100 * r['declarations_discarded']:9.1f}%")
        if args.json:
            Path(args.json).write_text(json.dumps(report, indent=1))
        return 0
    print(f"{'site':10} {'pages':>5} {'elems':>6} {'aligned':>7}  "
          + "  ".join(f"{p:>11}" for p in PROPS)
          + f"  {'ours ms':>8} {'cold ms':>8} {'chrome ms':>9} {'speedup':>7}"
          + f"  {'ours cpu':>8} {'chrome cpu':>10} {'cpu speedup':>11}"
          + f"  {'rules disc.':>11} {'decl disc.':>10}")
    for site, r in report.items():
        print(f"{site:10} {r['pages']:5d} {r['elements']:6d} {r['aligned']:7d}  "
              + "  ".join(f"{100 * r['agreement'][p]:10.1f}%" for p in PROPS)
              + f"  {r['ours_ms']:8.1f} {r['ours_cold_ms']:8.1f} {r['chromium_ms']:9.1f}"
              + f" {r['chromium_ms'] / max(r['ours_ms'], 1e-9):6.1f}x"
              + f"  {r['ours_cpu_ms']:8.1f} {r['chromium_cpu_ms']:10.1f}"
              + f" {r['chromium_cpu_ms'] / max(r['ours_cpu_ms'], 1e-9):10.1f}x"
              + f"  {100 * r['rules_discarded']:10.1f}% {100 * r['declarations_discarded']:9.1f}%")
    for site, r in report.items():
        print(f"\n{site}: garbage collection in our pass: {r['ours_gc_cpu_ms']:.2f} ms CPU a page,"
              f" {r['ours_full_gcs']} full collection(s)")
        print(f"{site}: declarations discarded excluding custom properties: "
              f"{100 * r['declarations_discarded_excluding_custom']:.1f}%")
        print(f"{site}: most frequent disagreements (property, tag, ours, chromium, count):")
        for row in r["top_mismatches"]:
            print("   ", row)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
