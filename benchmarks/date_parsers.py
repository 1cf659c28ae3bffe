"""Which parser for visible date strings: newscrawl.extract.dates vs dateparser vs htmldate.

The extractor parses many short candidate text nodes per page, so speed matters as much as
coverage. Candidates: every text run (element text or tail) of 6..80 characters with a digit,
from every page with a gold ``published`` date in the development datasets, in document order.
Per parser we print:
- strings/s over all candidates;
- coverage: share of pages where some candidate parses to the gold day;
- first-date accuracy: share of pages where the first candidate that parses at all gives the gold
  day (a crude page rule, but it punishes parsers that read dates into non-dates);
- parsed: share of candidates that gave any date (over-eager parsers score high here).
All parsers get the same validity window (1990-01-01 .. today + 1 day).

dateparser is not a project dependency; install it to include it (``.venv/bin/pip install dateparser``).
Usage: .venv/bin/python benchmarks/date_parsers.py [--limit N]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from datetime import date, datetime, timedelta

import lxml.html

from newscrawl.encoding import decode_html
from newscrawl.evaluate import load_dataset, read_page
from newscrawl.extract.dates import parse_date
from newscrawl.paths import datasets_dir

DATASETS = ("wcxb-dev", "trafilatura-eval", "readability")
MIN_DAY = date(1990, 1, 1)


def candidates(html: bytes) -> list[str]:
    text, _ = decode_html(html)
    try:
        root = lxml.html.document_fromstring(text)
    except Exception:
        return []
    out = []
    for element in root.iter():
        if element.tag in ("script", "style") or not isinstance(element.tag, str):
            runs = [element.tail]
        else:
            runs = [element.text, element.tail]
        for run in runs:
            if run:
                run = " ".join(run.split())
                if 6 <= len(run) <= 80 and any(ch.isdigit() for ch in run):
                    out.append(run)
    return out


def parsers() -> dict[str, Callable[[str], str | None]]:
    today = date.today()
    found: dict[str, Callable[[str], str | None]] = {"newscrawl": lambda s: parse_date(s)}
    try:
        from htmldate.extractors import try_date_expr

        low, high = datetime(1990, 1, 1), datetime.now() + timedelta(days=1)
        found["htmldate"] = lambda s: try_date_expr(s, "%Y-%m-%d", True, low, high)
    except ImportError:
        print("htmldate not installed: skipped", file=sys.stderr)
    try:
        import dateparser

        settings = {"STRICT_PARSING": True, "RETURN_AS_TIMEZONE_AWARE": False}

        def with_dateparser(s: str) -> str | None:
            value = dateparser.parse(s, settings=settings)
            if value is None or not MIN_DAY <= value.date() <= today + timedelta(days=1):
                return None
            return value.date().isoformat()

        found["dateparser"] = with_dateparser
    except ImportError:
        print("dateparser not installed: skipped", file=sys.stderr)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, help="pages per dataset")
    args = parser.parse_args(argv)
    pages: list[tuple[str, list[str]]] = []
    for name in DATASETS:
        for record in load_dataset(datasets_dir() / name):
            if record.path is None or not record.truth.get("published"):
                continue
            pages.append((record.truth["published"], candidates(read_page(record.path))))
            if args.limit and len(pages) >= args.limit * (DATASETS.index(name) + 1):
                break
    total = sum(len(c) for _, c in pages)
    print(f"{len(pages)} pages with a gold date, {total} candidate strings")
    print(f"{'parser':<12} {'strings/s':>10} {'coverage':>9} {'first ok':>9} {'parsed':>7}")
    for name, parse in parsers().items():
        covered = first_ok = parsed = 0
        seconds = 0.0
        for gold, strings in pages:
            start = time.perf_counter()
            results = [parse(s) for s in strings]
            seconds += time.perf_counter() - start
            days = [r[:10] for r in results if r]
            parsed += len(days)
            covered += gold in days
            first_ok += bool(days) and days[0] == gold
        print(f"{name:<12} {total / seconds:>10.0f} {covered / len(pages):>9.3f} {first_ok / len(pages):>9.3f} "
              f"{parsed / max(1, total):>7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
