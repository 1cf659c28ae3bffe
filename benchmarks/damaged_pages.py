"""extract() on development pages damaged on purpose, with every warning raised as an error.

Where `hostile_runs.py` builds small pages around one long run, this script takes real pages from
../shared/datasets and damages them three ways, each in several kinds:

- **mutated**: cut short, random bytes inserted, 5,000 unclosed ``<div>``s, doubled ``<``, closing
  tags opened (``</`` -> ``<``, 100 or all), re-encoded as UTF-16, flipped bits, NUL runs, an opening
  tag (``<textarea>``, ``<plaintext>``, ``<title>``, ``<svg><style>``, ``<!--``, ...) once or 1,000
  times, two parts swapped, ``>`` removed, every ``<p`` made an ``<h1``;
- **inserted**: one hostile construct put into the page (a 200,000-character word, 50,000 ``<br>``,
  20,000 links, ``<h1>``s, ``<meta>`` dates or ``<time>``s, a 20,000-author JSON-LD, 50,000-deep JSON,
  20,000-deep inline nesting, bidi controls, entities, an unclosed ``<title>`` or ``<script>``);
- **stylesheet**: the page given with one hostile external sheet (``var()`` cycles and 2^40
  expansions, 2,000-deep ``calc()``, ``calc(1e308px * 1e308)``, 500-deep ``:is()``, 5,000 ``:not()``,
  20,000 rules over the page's own classes, 300-deep ``@media``, ``:has()`` chains, broken syntax).

Warnings are errors here, so a NumPy overflow or a division by zero inside the page classifier
shows up as a degraded page ("extraction failed: RuntimeWarning: ..."), which a crawl would only log.
Prints, per kind: pages, exceptions that escaped ``extract()``, degraded pages, the slowest page.
Exit status 1 when an exception escaped or a page was degraded.

Run: ``.venv/bin/python benchmarks/damaged_pages.py [--pages 40] [--seed 0] [--ways mutated,inserted,stylesheet]``
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import re
import sys
import time
import warnings
from collections.abc import Callable, Iterator

from newscrawl import extract
from newscrawl.evaluate import load_dataset, read_page
from newscrawl.paths import datasets_dir

DATASETS = ("wcxb-dev", "trafilatura-eval", "readability", "cleanportaleval")
OPENERS = (b"<textarea>", b"<xmp>", b"<plaintext>", b"<noscript>", b"<template>", b"<svg><style>",
           b"<math><mi>", b"<title>", b"<script>", b"<style>", b"<iframe>", b"<select>", b"<table>",
           b"<a href='x'>", b"<h1>", b"<!--", b"<![CDATA[", b"<frameset>", b"</html>")
N = 200_000


def _at(page: bytes, rng: random.Random, piece: bytes) -> bytes:
    i = rng.randrange(len(page) + 1)
    return page[:i] + piece + page[i:]


def _swapped(page: bytes, rng: random.Random) -> bytes:
    a, b = sorted(rng.randrange(len(page) + 1) for _ in range(2))
    return page[:a] + page[b:] + page[a:b]


MUTATIONS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "cut short": lambda p, r: p[: r.randrange(len(p) + 1)],
    "random bytes": lambda p, r: _at(p, r, bytes(r.randrange(256) for _ in range(200))),
    "5,000 open divs": lambda p, r: _at(p, r, b"<div>" * 5000 + b"x"),
    "doubled <": lambda p, r: p.replace(b"<", b"<<", 50),
    "100 closing tags opened": lambda p, r: p.replace(b"</", b"<", 100),
    "all closing tags opened": lambda p, r: p.replace(b"</", b"<"),
    "utf-16": lambda p, r: p.decode("utf-8", "replace").encode("utf-16"),
    "flipped bits": lambda p, r: bytes(x ^ 0x20 if r.random() < 0.01 else x for x in p),
    "NUL run": lambda p, r: _at(p, r, b"\x00" * 100),
    "an opening tag": lambda p, r: _at(p, r, r.choice(OPENERS)),
    "1,000 opening tags": lambda p, r: _at(p, r, r.choice(OPENERS) * 1000),
    "parts swapped": _swapped,
    "> removed": lambda p, r: p.replace(b">", b"", 1000),
    "<p> made <h1>": lambda p, r: p.replace(b"<p", b"<h1", 1000),
}

INSERTIONS: dict[str, Callable[[], str]] = {
    "200,000-character word": lambda: "<p>" + "a" * N + "</p>",
    "200,000 digits": lambda: "<p>" + "1" * N + "</p>",
    "5,000 dates": lambda: "<p>" + " ".join("12.03.2024 10:45 March 3, 2021 2021-01-01" for _ in range(5000)) + "</p>",
    "50,000 <br>": lambda: "<p>" + "x<br>" * 50_000 + "</p>",
    "200,000-character class": lambda: '<div class="' + "c " * N + '">text</div>',
    "20,000 inline declarations": lambda: '<p style="' + "color:red;" * 20_000 + '">styled</p>',
    "20,000 JSON-LD authors": lambda: '<script type="application/ld+json">' + json.dumps(
        {"@type": "NewsArticle", "headline": "H", "articleBody": "w " * N,
         "author": [{"@type": "Person", "name": f"n{i}"} for i in range(20_000)]}) + "</script>",
    "50,000-deep JSON-LD": lambda: '<script type="application/ld+json">' + "[" * 50_000 + "]" * 50_000 + "</script>",
    "unclosed tags in articleBody": lambda: '<script type="application/ld+json">' + json.dumps(
        {"@type": "NewsArticle", "headline": "H", "articleBody": "<p " * (N // 3)}) + "</script>",
    "20,000 ARIA roles": lambda: "".join(f'<div role="{("main", "navigation", "dialog", "complementary")[i % 4]}">'
                                         f"<article>role {i}</article></div>" for i in range(20_000)),
    "20,000 links": lambda: "<ul>" + "".join(f'<li><a href="/x/{i}/{"y" * 100}">link {i}</a></li>'
                                             for i in range(20_000)) + "</ul>",
    "20,000 <h1>": lambda: "".join(f"<h1>Heading number {i}</h1>" for i in range(20_000)),
    "20,000 meta dates": lambda: "".join(f'<meta name="date{i}" content="2021-01-{i % 28 + 1:02d}">'
                                         for i in range(20_000)),
    "20,000 <time>": lambda: "".join(f'<time datetime="2021-01-{i % 28 + 1:02d}">Jan {i % 28 + 1}</time>'
                                     for i in range(20_000)),
    "20,000-deep inline nesting": lambda: "<span>" * 20_000 + "deep" + "</span>" * 20_000,
    "bidi controls": lambda: "<p>" + "\u202e\u200b\ufeff\u0645\u0631\u062d\u0628\u0627 " * 20_000 + "</p>",
    "100,000 entities": lambda: "<p>" + "&amp;&#x41;&nbsp;&lt;" * 25_000 + "</p>",
    "unclosed <title>": lambda: "<title>" + "t " * N,
    "unclosed <script>": lambda: "<script>" + "var a=1;" * 20_000,
}

SHEETS: dict[str, Callable[[list[str], random.Random], str]] = {
    "var() cycles": lambda c, r: ":root{--a:var(--b);--b:var(--a)} body{font-size:var(--a)} " + "".join(
        f".{k}{{--x{i}:var(--x{i + 1});font-size:var(--x0)}}" for i, k in enumerate(c)),
    "var() 2^40 expansion": lambda c, r: ":root{--a0:1px;" + "".join(
        f"--a{i + 1}:var(--a{i}) var(--a{i});" for i in range(40)) + "} p{font-size:var(--a40)}",
    "2,000-deep calc()": lambda c, r: "p{font-size:" + "calc(" * 2000 + "1px" + "*1.01)" * 2000 + "}",
    "overflowing calc()": lambda c, r: "p{font-size:calc(1e308px * 1e308)} h1{font-size:calc(-1e308px)} "
                                       "div{font-size:1e400px} span{font-size:calc(1e308px*1e308 - 1e308px*1e308)}",
    "500-deep :is()": lambda c, r: ":is(" * 500 + "p" + ")" * 500 + "{display:none}",
    "5,000 :not()": lambda c, r: "p" + ":not(.a)" * 5000 + "{color:red}",
    "20,000 rules": lambda c, r: "".join(
        f".{r.choice(c)} .{r.choice(c)} > .{r.choice(c)} ~ p:nth-child({i}n+1){{display:block;font-size:{i % 40}px}}"
        for i in range(20_000)),
    "300-deep @media": lambda c, r: "@media screen{" * 300 + "p{display:none}" + "}" * 300,
    ":has() chains": lambda c, r: "div:has(p:has(span:has(a))) p{display:none} " + "".join(
        f".{k}:has(.{r.choice(c)}){{display:none}}" for k in c),
    "broken syntax": lambda c, r: "p{color:red;;;;}}}}{{{{ @media { p { } ] ) ( /* unclosed " + "a{b:c" * 5000,
    "20,000 font families": lambda c, r: "p{font-family:" + ",".join(f"'F{i}'" for i in range(20_000)) + "}",
}
_CLASS = re.compile(r'class="([\w-]+)')


def dev_pages(count: int, rng: random.Random) -> list[tuple[bytes, str | None]]:
    """``count`` (page bytes, url) drawn from the development datasets."""
    records = [record for name in DATASETS if (datasets_dir() / name / "truth.jsonl").is_file()
               for record in load_dataset(datasets_dir() / name) if record.path is not None]
    if not records:
        sys.exit(f"no datasets under {datasets_dir()}")
    return [(read_page(record.path), record.url) for record in rng.sample(records, min(count, len(records)))]


def cases(way: str, pages: list[tuple[bytes, str | None]], rng: random.Random
          ) -> Iterator[tuple[str, bytes | str, str | None, list[str]]]:
    """(kind, html, url, stylesheets) for every page and every kind of one way of damage."""
    for data, url in pages:
        if way == "mutated":
            for kind, mutate in MUTATIONS.items():
                yield kind, mutate(data, rng), url, []
        elif way == "inserted":
            text = data.decode("utf-8", "replace")
            for kind, piece in INSERTIONS.items():
                at = text.find(rng.choice(["<body", "</body>", "</head>", "<p", "</p>"]))
                at = at if at >= 0 else len(text) // 2
                yield kind, text[:at] + piece() + text[at:], url, []
        else:
            names = list(dict.fromkeys(_CLASS.findall(data.decode("utf-8", "replace"))))[:200] or ["x"]
            for kind, sheet in SHEETS.items():
                yield kind, data, url, [sheet(names, rng)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=40, help="development pages drawn (default 40)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ways", default="mutated,inserted,stylesheet")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    logging.getLogger("newscrawl").setLevel(logging.CRITICAL)  # a degraded page's traceback: counted, not shown
    pages = dev_pages(args.pages, rng)
    extract("<p>warm-up: models and caches</p>")
    failed = False
    for way in args.ways.split(","):
        rows: dict[str, list[float]] = {}
        print(f"== {way} ({len(pages)} pages)\n{'kind':30} {'pages':>5} {'raised':>6} {'degraded':>8} {'slowest s':>9}")
        for kind, html, url, sheets in cases(way, pages, rng):
            row = rows.setdefault(kind, [0, 0, 0, 0.0])
            started = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                try:
                    article = extract(html, url, stylesheets=sheets)
                    article.to_dict()
                    degraded = any("failed" in w or "unavailable" in w for w in article.warnings)
                except Exception as error:  # what the crawl must never see
                    print(f"  raised on {kind}: {type(error).__name__}: {error}", file=sys.stderr)
                    row[1] += 1
                    degraded = False
            row[0] += 1
            row[2] += degraded
            row[3] = max(row[3], time.perf_counter() - started)
        for kind, (count, raised, degraded, slowest) in rows.items():
            print(f"{kind:30} {count:5d} {raised:6d} {degraded:8d} {slowest:9.2f}")
            failed = failed or raised > 0 or degraded > 0
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
