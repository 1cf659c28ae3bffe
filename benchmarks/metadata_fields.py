"""Authors and language on the development sets and saved sites: how many pages get them, and how.

    python benchmarks/metadata_fields.py [--workers 2]

Extracts every page of the development datasets (../shared/datasets) and every article page of the
saved sites (../shared/sites/*/_check/pages.tsv) and prints:

* language: pages with one, by method (declared metadata or read from the text); on the pages that
  declare one, how often reading the extracted body alone (``text_language``) gives the declared
  primary subtag, gives another, or gives none;
* authors: pages with authors, by method (declared metadata or the byline);
* mercury's asserted authors (its ``gold.jsonl`` ``author``, the author each of Postlight Parser's
  tests expects): pages right (the names, normalized, match or contain each other), wrong,
  missing, and authors given where the test expects none.

Nothing is tuned on these numbers: they show what the declared-metadata, byline and text-language
rules (docs/extraction.md) give on pages of many sites.
"""

from __future__ import annotations

import argparse
import csv
import json
import logging
import re
import sys
import warnings
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from newscrawl.evaluate import load_dataset, read_page
from newscrawl.extract import extract
from newscrawl.extract.language import text_language
from newscrawl.paths import datasets_dir

DATASETS = ("wcxb-dev", "readability", "cleanportaleval", "trafilatura-eval", "mercury")

Job = tuple[str, str, str, str | None]  # (set, page id, path, url)


def jobs() -> list[Job]:
    out: list[Job] = []
    root = datasets_dir()
    for name in DATASETS:
        if (root / name / "truth.jsonl").is_file():
            out += [(name, r.id, str(r.path), r.url) for r in load_dataset(root / name) if r.path is not None]
    sites = root.parent / "sites"
    for site in sorted(p for p in sites.iterdir() if (p / "_check" / "pages.tsv").is_file()) if sites.is_dir() else []:
        with open(site / "_check" / "pages.tsv", encoding="utf-8") as rows:
            for row in csv.DictReader(rows, delimiter="\t"):
                if row["kind"] == "article":
                    out.append(("sites", f"{site.name}/{row['path']}", str(site / row["path"]), None))
    return out


def run(job: Job) -> dict[str, Any]:
    warnings.filterwarnings("ignore")
    logging.disable(logging.WARNING)
    name, page_id, path, url = job
    article = extract(read_page(Path(path)), url)
    method = lambda field: (article.provenance.get(field) or {}).get("method")  # noqa: E731
    return {
        "set": name,
        "id": page_id,
        "language": article.language,
        "language_method": method("language"),
        "body_language": text_language(article.body or ""),
        "authors": article.authors,
        "authors_method": method("authors"),
    }


def _norm(text: str) -> str:
    return " ".join(re.sub(r"\W+", " ", text).casefold().replace(" and ", " ").split())


def mercury_authors(results: list[dict[str, Any]]) -> Counter[str]:
    gold_file = datasets_dir() / "mercury" / "gold.jsonl"
    counts: Counter[str] = Counter()
    if not gold_file.is_file():
        return counts
    with open(gold_file, encoding="utf-8") as lines:
        gold = {g["id"]: g["author"] for g in map(json.loads, lines) if "author" in g}
    for r in results:
        if r["set"] != "mercury" or r["id"] not in gold:
            continue
        expected, got = gold[r["id"]], _norm(", ".join(r["authors"] or []))
        if expected is None:
            counts["expected none, given one" if got else "expected none, none given"] += 1
        elif not got:
            counts["missing"] += 1
        else:
            want = _norm(expected)
            counts["right" if want == got or want in got or got in want else "wrong"] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    todo = jobs()
    if not todo:
        sys.exit(f"no pages under {datasets_dir()}")
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(run, todo, chunksize=8))
    pages = len(results)
    print(f"{pages} pages ({Counter(r['set'] for r in results)})")
    by_language = Counter(r["language_method"] or "none" for r in results)
    print("language: " + ", ".join(f"{m} {n}" for m, n in by_language.most_common()))
    reading: Counter[str] = Counter()
    for r in results:
        if r["language_method"] and r["language_method"].startswith("metadata") and r["language"]:
            declared, read = r["language"].split("-")[0].lower(), r["body_language"]
            reading["agrees" if read == declared else "none" if read is None else "differs"] += 1
    print("  the body read alone, on pages declaring a language: " + ", ".join(f"{k} {v}" for k, v in reading.items()))
    by_authors = Counter(r["authors_method"] if r["authors"] else "none" for r in results)
    print("authors: " + ", ".join(f"{m} {n}" for m, n in by_authors.most_common()))
    asserted = mercury_authors(results)
    if asserted:
        print("mercury's asserted authors: " + ", ".join(f"{k} {v}" for k, v in sorted(asserted.items())))


if __name__ == "__main__":
    main()
