"""Publication dates read off what the page shows: the dated pages of each development set with every
declared date removed, newscrawl against trafilatura on the same stripped pages.

Removed before extraction: ``<script type="application/ld+json">`` blocks, every ``<meta>`` element,
the attributes of ``<time>`` elements, and ``itemprop="date…"`` names. What is left is the page's
visible text and its URL: the situation of pages whose metadata is missing, or wrong and best
ignored, where the date model, the URL's day and the text datelines decide (docs/dates.md). The
stripping is a few regular expressions over the decoded HTML; it is the same for both systems.
Score: same day as the gold (newscrawl/evaluate.py). The process refuses every network connection
except to 127.0.0.1.

Usage: .venv/bin/python benchmarks/dates_without_metadata.py [--datasets a,b] [--systems newscrawl,trafilatura]
       [--details FILE]   # one JSON line per page: gold, each system's date, newscrawl's method
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from newscrawl.encoding import decode_html
from newscrawl.evaluate import date_match, load_dataset, read_page
from newscrawl.paths import datasets_dir

from extraction import guard_network  # this folder is on sys.path when a script here runs

DATASETS = ("wcxb-dev", "trafilatura-eval", "readability", "mercury")
_JSONLD = re.compile(r"<script[^>]*ld\+json[^>]*>.*?</script>", re.DOTALL | re.IGNORECASE)
_META = re.compile(r"<meta\b[^>]*>", re.IGNORECASE)
_TIME = re.compile(r"<time\b[^>]*>", re.IGNORECASE)
_ITEMPROP = re.compile(r"itemprop\s*=\s*[\"']?date\w*", re.IGNORECASE)


def without_declared_dates(html: str) -> str:
    """``html`` without JSON-LD, ``<meta>`` elements, ``<time>`` attributes and microdata date names."""
    html = _JSONLD.sub("", html)
    html = _META.sub("", html)
    html = _ITEMPROP.sub("", html)
    return _TIME.sub("<time>", html)


def newscrawl_date(html: str, url: str | None) -> tuple[str | None, str | None]:
    import newscrawl

    art = newscrawl.extract(html, url)
    return art.published, art.provenance.get("published", {}).get("method")


def trafilatura_date(html: str, url: str | None) -> str | None:
    import trafilatura

    try:
        doc = trafilatura.bare_extraction(html, url=url, with_metadata=True)
    except Exception:  # noqa: BLE001 - a peer's failure on one page is that page's miss
        return None
    return getattr(doc, "date", None) if doc is not None else None


def run(names: list[str], systems: list[str], details: Any) -> None:
    """Print each dataset's same-day accuracy per system; ``details`` (a file or None) gets page lines."""
    print(f"{'dataset':18s} {'pages':>5s} " + " ".join(f"{s:>12s}" for s in systems))
    for name in names:
        records = [r for r in load_dataset(datasets_dir() / name) if "published" in r.truth]
        hits = dict.fromkeys(systems, 0)
        for record in records:
            if record.path is None:
                continue
            html = without_declared_dates(decode_html(read_page(record.path))[0])
            line: dict[str, Any] = {"dataset": name, "id": record.id, "gold": record.truth["published"]}
            for system in systems:
                if system == "newscrawl":
                    value, line["method"] = newscrawl_date(html, record.url)
                else:
                    value = trafilatura_date(html, record.url)
                line[system] = value
                hits[system] += bool(date_match(record.truth["published"], value))
            if details:
                details.write(json.dumps(line, ensure_ascii=False) + "\n")
        n = len(records) or 1
        print(f"{name:18s} {len(records):5d} " + " ".join(f"{hits[s] / n:12.4f}" for s in systems), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--datasets", default=",".join(DATASETS))
    parser.add_argument("--systems", default="newscrawl,trafilatura")
    parser.add_argument("--details", type=Path, help="write one JSON line per page here")
    args = parser.parse_args(argv)
    guard_network()
    names, systems = args.datasets.split(","), args.systems.split(",")
    if args.details:
        with open(args.details, "w", encoding="utf-8") as details:
            run(names, systems, details)
    else:
        run(names, systems, None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
