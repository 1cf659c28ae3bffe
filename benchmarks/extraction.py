"""newscrawl vs trafilatura, readability-lxml and newspaper4k on the same pages, in one process.

For each development dataset under ../shared/datasets (those with pages) and each system, prints
body precision/recall/F1 (article-extraction-benchmark shingles), with/without snippet F1
(trafilatura's counting), title and date accuracy, the catastrophic misses (the share of article pages
under body F1 0.2, ``F1<.2``, and on sets without gold bodies the share with no ``with`` snippet found,
``no-with``; newscrawl/evaluate.py says which pages count as articles), ROUGE-LSum F1 on the article
pages with a gold body (the Fundus benchmark's metric, newscrawl/rouge.py), pages/s, and the pages/s of lxml
parsing alone,
plus the ratios the issue sets goals on: our speed / trafilatura's (goal >= 2) and our time per
page / lxml's parse time (goal <= 8), each in wall time and in CPU time (process time of the one
call; on the shared 2-core machine the CPU figures are the steadier ones). Metric definitions:
newscrawl/evaluate.py.

Fairness: pages are read and gunzipped outside the timers. newscrawl gets the raw bytes (its
browser-like decoding is inside its timer); the peers get the text decoded once by
newscrawl.encoding (so no peer loses points to a charset mistake), and their timers cover only
their own call. Systems run interleaved page by page, so machine load drifts hit all alike. Before
any timing, each system runs once on a warm-up page with a URL and once without (imports, models and
caches load there, not in the first timed page that needs them). newscrawl runs with its defaults: the
datasets hold no external stylesheets, so a page is styled by its inline styles and the user-agent
defaults, not by its own ``<style>`` elements (README, "The core without Scrapy"); ``--style-elements``
times it with them, as every run before session 20 did.
The lxml baseline is ``lxml.html.document_fromstring`` of the decoded text (the input the peers
get), in the same interleaved loop; lxml refuses a str that declares its encoding in an XML
declaration (2 trafilatura-eval pages), and those pages are parsed from their bytes instead of
counting a refusal's microseconds as their parse. Parsing the raw bytes instead took 5-15% less time, and
parsing one page after another with nothing in between (warm caches) ~40% less (trafilatura-eval,
1.3 against 2.2 ms a page), so the ratio to the parse is a measure of this loop, not a constant.
Each peer uses its best documented settings:
- trafilatura: ``bare_extraction(text, url, with_metadata=True, include_comments=False,
  include_tables=True)`` (its evaluation's canonical options, default precision/recall balance,
  fallback extractors on); body ``.text``, title ``.title``, date ``.date``.
- readability-lxml: ``Document(text, url=url)``; body = text of ``summary()`` with block
  elements on their own lines; title ``short_title()`` (its public site-name-stripping variant of
  ``title()``; measured on the dev titles: readability 0.72 vs 0.47, trafilatura-eval 0.57 vs
  0.13, wcxb-dev 0.62 vs 0.19); it has no date.
- newspaper4k: ``Article(url, fetch_images=False)``, ``download(input_html=text)``, ``parse()``;
  body ``.text``, title ``.title``, date ``.publish_date``. The HTML is passed in: it never
  downloads anything.
The process refuses every network connection except to 127.0.0.1 (socket.connect is guarded),
so a peer that tries to fetch something fails loudly instead of leaving the machine.

Usage: .venv/bin/python benchmarks/extraction.py [--limit N] [--datasets a,b] [--systems x,y] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import socket
import sys
import time
import warnings

warnings.filterwarnings("ignore", module="dateutil")  # peers' timezone-name chatter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import lxml.html

from newscrawl.encoding import decode_html
from newscrawl.evaluate import load_dataset, prediction, read_page, score
from newscrawl.paths import datasets_dir

PAGE_TIMEOUT = 60  # seconds; a call that takes longer counts as an error for that page


def guard_network() -> None:
    """Refuse connections to anything but the loopback address."""
    original = socket.socket.connect

    def connect(self: socket.socket, address: Any) -> Any:
        host = address[0] if isinstance(address, tuple) else address
        if host not in ("127.0.0.1", "::1", "localhost") and self.family != socket.AF_UNIX:
            raise ConnectionRefusedError(f"benchmark: network access to {host!r} refused")
        return original(self, address)

    socket.socket.connect = connect  # type: ignore[method-assign]


class PageTimeout(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise PageTimeout(f"no result within {PAGE_TIMEOUT}s")


_BLOCK_TAGS = {"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "blockquote", "pre", "tr", "br",
               "section", "article", "td", "th", "dd", "dt", "figcaption", "ul", "ol", "table"}


def html_to_text(fragment: str) -> str:
    """Plain text of an HTML fragment with block elements on their own lines (iterative)."""
    if not fragment or not fragment.strip():
        return ""
    root = lxml.html.fromstring(fragment)
    parts: list[str] = []
    for event, element in lxml.html.etree.iterwalk(root, events=("start", "end")):
        tag = element.tag if isinstance(element.tag, str) else ""
        if event == "start":
            if tag in _BLOCK_TAGS:
                parts.append("\n")
            if element.text and tag not in ("script", "style"):
                parts.append(element.text)
        else:
            if tag in _BLOCK_TAGS:
                parts.append("\n")
            if element.tail and element is not root:
                parts.append(element.tail)
    lines = (" ".join(line.split()) for line in "".join(parts).split("\n"))
    return "\n".join(line for line in lines if line)


# --- systems: each takes (raw bytes, decoded text, url) and returns a prediction dict ----------------
# English prose, so that newscrawl's page classifier also loads the text models it reads on English
# pages only; a model loaded by the first page of the first dataset would be timed as that page's cost
WARMUP = (b"<html><head><title>Warm up</title></head><body><article><h1>Warm up</h1><p>"
          + b"The council said on Tuesday that the new bridge will be open to the public in the spring. " * 20
          + b"</p></article></body></html>")


def newscrawl_system(style_elements: bool | None = None) -> Callable[[bytes, str, str | None], dict[str, Any]]:
    from newscrawl.extract import extract

    logging.getLogger("newscrawl").setLevel(logging.CRITICAL)  # failures show in the err column
    # every page classifier a dataset's pages can take loads here, not in the first timed page of the
    # first dataset that needs it: the default's first pass (pages with a URL), the words model with
    # its text models and scikit-learn's hashing (the pages the first pass is unsure of), and the
    # URL-less model with its own first pass (pages without a URL: all of readability's; probability()
    # loads both before the first pass decides)
    for url, page_model in (("http://127.0.0.1/warmup", None), ("http://127.0.0.1/warmup", "words"), (None, None)):
        extract(WARMUP, url, page_model=page_model, style_elements=style_elements)

    def run(data: bytes, text: str, url: str | None) -> dict[str, Any]:
        return prediction(extract(data, url, style_elements=style_elements))

    return run


def trafilatura_system() -> Callable[[bytes, str, str | None], dict[str, Any]]:
    from trafilatura import bare_extraction

    def run(data: bytes, text: str, url: str | None) -> dict[str, Any]:
        doc = bare_extraction(text, url=url, with_metadata=True, include_comments=False, include_tables=True)
        if doc is None:
            return {"title": None, "published": None, "body": None}
        return {"title": doc.title, "published": doc.date, "body": doc.text}

    return run


def readability_system() -> Callable[[bytes, str, str | None], dict[str, Any]]:
    from readability import Document

    def run(data: bytes, text: str, url: str | None) -> dict[str, Any]:
        doc = Document(text, url=url)
        return {"title": doc.short_title(), "published": None, "body": html_to_text(doc.summary())}

    return run


def newspaper_system() -> Callable[[bytes, str, str | None], dict[str, Any]]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from newspaper import Article

    def run(data: bytes, text: str, url: str | None) -> dict[str, Any]:
        article = Article(url or "http://fakehost/test/page.html", fetch_images=False)
        article.download(input_html=text)
        article.parse()
        date = article.publish_date
        return {"title": article.title or None,
                "published": date.isoformat() if date is not None else None,
                "body": article.text or None}

    return run


SYSTEMS: dict[str, Callable[[], Callable[[bytes, str, str | None], dict[str, Any]]]] = {
    "newscrawl": newscrawl_system,
    "trafilatura": trafilatura_system,
    "readability": readability_system,
    "newspaper4k": newspaper_system,
}
HAS_DATE = {"newscrawl", "trafilatura", "newspaper4k"}
HAS_CLASS = {"newscrawl"}


Run = Callable[[bytes, str, str | None], dict[str, Any]]  # one set-up system: (bytes, text, url) -> fields


def generated_pages_cli(doc: str) -> tuple[argparse.Namespace, dict[str, Run]]:
    """The command line of the generated-page benchmarks (short_posts.py, news_structure.py):
    ``--show N`` and ``--systems``, and the chosen systems set up with this script's settings."""
    parser = argparse.ArgumentParser(description=doc.split("\n", 1)[0])
    parser.add_argument("--show", type=int, default=0, help="print each system's first N failures")
    parser.add_argument(
        "--systems", default="newscrawl", help="comma-separated, of newscrawl,trafilatura,readability (bench extra)"
    )
    args = parser.parse_args()
    warnings.filterwarnings("ignore")
    logging.disable(logging.WARNING)
    names = [name.strip() for name in args.systems.split(",") if name.strip()]
    unknown = [name for name in names if name not in SYSTEMS]
    if unknown:
        raise SystemExit(f"unknown systems: {', '.join(unknown)} (known: {', '.join(SYSTEMS)})")
    return args, {name: SYSTEMS[name]() for name in names}


def page_datasets(names: list[str] | None) -> list[Path]:
    folders = sorted(p for p in datasets_dir().iterdir() if (p / "truth.jsonl").is_file() and (p / "pages").is_dir())
    if names:
        wanted = set(names)
        folders = [p for p in folders if p.name in wanted]
        missing = wanted - {p.name for p in folders}
        if missing:
            raise SystemExit(f"unknown datasets: {', '.join(sorted(missing))}")
    return folders


def _parse_quietly(data: bytes) -> None:
    try:
        lxml.html.document_fromstring(data)
    except Exception:
        pass


def run_dataset(folder: Path, systems: dict[str, Callable[..., dict[str, Any]]], limit: int | None) -> dict[str, Any]:
    records = [r for r in load_dataset(folder, limit=limit) if r.path is not None]
    predictions: dict[str, dict[str, Any]] = {name: {} for name in systems}
    seconds = dict.fromkeys(systems, 0.0)
    cpu = dict.fromkeys(systems, 0.0)
    errors: dict[str, list[str]] = {name: [] for name in systems}
    parse_seconds = parse_cpu = 0.0
    for record in records:
        data = read_page(record.path)  # type: ignore[arg-type]
        text, _ = decode_html(data)
        start, start_cpu = time.perf_counter(), time.process_time()
        try:
            lxml.html.document_fromstring(text)
        except ValueError:  # a str with an XML encoding declaration: lxml parses that page from its bytes
            _parse_quietly(data)
        except Exception:  # lxml refuses some inputs (e.g. empty); parsing time still counts
            pass
        parse_seconds += time.perf_counter() - start
        parse_cpu += time.process_time() - start_cpu
        for name, system in systems.items():
            signal.alarm(PAGE_TIMEOUT)
            start, start_cpu = time.perf_counter(), time.process_time()
            try:
                predictions[name][record.id] = system(data, text, record.url)
            except Exception as exc:  # a crash is scored as an empty result, as trafilatura's eval does
                predictions[name][record.id] = {"error": f"{exc.__class__.__name__}: {exc}"}
            finally:
                seconds[name] += time.perf_counter() - start
                cpu[name] += time.process_time() - start_cpu
                signal.alarm(0)
            if predictions[name][record.id].get("error"):
                errors[name].append(record.id)
    n = len(records)
    result: dict[str, Any] = {"pages": n, "lxml_parse_pages_per_second": n / parse_seconds if parse_seconds else None,
                              "lxml_parse_cpu_pages_per_second": n / parse_cpu if parse_cpu else None,
                              "systems": {}}
    for name in systems:
        scores = score(records, predictions[name], rouge=True)
        if name not in HAS_DATE:
            scores["published"] = None
        if name not in HAS_CLASS:
            scores["is_article"] = None
        scores["seconds"] = seconds[name]
        scores["pages_per_second"] = n / seconds[name] if seconds[name] else None
        scores["cpu_seconds"] = cpu[name]
        scores["cpu_pages_per_second"] = n / cpu[name] if cpu[name] else None
        scores["error_ids"] = errors[name][:20]
        result["systems"][name] = scores
    ours = result["systems"].get("newscrawl")
    traf = result["systems"].get("trafilatura")
    if ours and traf and ours["seconds"]:
        result["speed_vs_trafilatura"] = traf["seconds"] / ours["seconds"]
    if ours and traf and ours["cpu_seconds"]:
        result["cpu_speed_vs_trafilatura"] = traf["cpu_seconds"] / ours["cpu_seconds"]
    if ours and parse_seconds:
        result["time_vs_lxml_parse"] = ours["seconds"] / parse_seconds
    if ours and parse_cpu:
        result["cpu_time_vs_lxml_parse"] = ours["cpu_seconds"] / parse_cpu
    return result


def _cell(block: dict[str, Any] | None, key: str) -> str:
    return f"{block[key]:.3f}" if block else "   -"


def _share(block: dict[str, Any] | None) -> str:
    return f"{100 * block['share']:.1f}%" if block else "-"


def print_dataset(name: str, result: dict[str, Any], out: Any = sys.stdout) -> None:
    out.write(f"\n== {name} ({result['pages']} pages)\n")
    header = (f"{'system':<12} {'body P':>7} {'body R':>7} {'body F1':>7} {'snip F1':>7} {'title':>6} "
              f"{'date':>6} {'art F1':>6} {'F1<.2':>6} {'no-with':>7} {'pages/s':>8} {'cpu p/s':>8} {'err':>4}")
    out.write(header + "\n" + "-" * len(header) + "\n")
    for system, s in result["systems"].items():
        out.write(
            f"{system:<12} {_cell(s['body'], 'precision'):>7} {_cell(s['body'], 'recall'):>7} "
            f"{_cell(s['body'], 'f1'):>7} {_cell(s['snippets'], 'f1'):>7} {_cell(s['title'], 'accuracy'):>6} "
            f"{_cell(s['published'], 'accuracy'):>6} {_cell(s['is_article'], 'f1'):>6} "
            f"{_share(s['body_misses']):>6} {_share(s['snippet_misses']):>7} "
            f"{s['pages_per_second'] or 0:>8.1f} {s['cpu_pages_per_second'] or 0:>8.1f} {s['errors']:>4}\n"
        )
    kinds = next((s["by_page_type"] for s in result["systems"].values() if s.get("by_page_type")), {})
    for kind in kinds:  # labelled page types (wcxb-dev): body F1 of each system on that type alone
        cells = ", ".join(f"{system} {_cell(s['by_page_type'][kind]['body'], 'f1')}"
                          for system, s in result["systems"].items())
        out.write(f"  body F1 on {kind} pages ({kinds[kind]['pages']}): {cells}\n")
        misses = [(system, s["by_page_type"][kind].get("body_misses")) for system, s in result["systems"].items()]
        if all(miss for _, miss in misses):
            cells = ", ".join(f"{system} {_share(miss)}" for system, miss in misses)
            out.write(f"  {kind} pages under body F1 0.2: {cells}\n")
    rouge = [(system, s["rouge_lsum"]) for system, s in result["systems"].items() if s.get("rouge_lsum")]
    if rouge:  # the Fundus benchmark's metric, on this set's gold bodies
        cells = ", ".join(f"{system} {r['f1']:.3f}" for system, r in rouge)
        out.write(f"  ROUGE-LSum F1 on article pages ({rouge[0][1]['pages']}): {cells}\n")
    if result["lxml_parse_pages_per_second"]:
        out.write(f"{'lxml parse':<12} {'':>7} {'':>7} {'':>7} {'':>7} {'':>6} {'':>6} {'':>6} {'':>6} {'':>7} "
                  f"{result['lxml_parse_pages_per_second']:>8.1f} {result['lxml_parse_cpu_pages_per_second'] or 0:>8.1f}\n")
    if "speed_vs_trafilatura" in result:
        out.write(f"newscrawl speed / trafilatura speed: {result['speed_vs_trafilatura']:.2f}x wall, "
                  f"{result.get('cpu_speed_vs_trafilatura', 0):.2f}x CPU (goal >= 2)\n")
    if "time_vs_lxml_parse" in result:
        out.write(f"newscrawl time / lxml parse time: {result['time_vs_lxml_parse']:.2f}x wall, "
                  f"{result.get('cpu_time_vs_lxml_parse', 0):.2f}x CPU (goal <= 8)\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, help="first N pages of each dataset")
    parser.add_argument("--datasets", help="comma-separated dataset names (default: all with pages)")
    parser.add_argument("--systems", default=",".join(SYSTEMS), help="comma-separated systems")
    parser.add_argument("--json", type=Path, help="also write all numbers to this JSON file")
    parser.add_argument("--style-elements", action="store_true",
                        help="newscrawl styles each page with its own <style> elements too (extract(style_elements=True))")
    args = parser.parse_args(argv)
    guard_network()
    signal.signal(signal.SIGALRM, _alarm)
    names = [s.strip() for s in args.systems.split(",") if s.strip()]
    unknown = [n for n in names if n not in SYSTEMS]
    if unknown:
        raise SystemExit(f"unknown systems: {', '.join(unknown)} (choose from {', '.join(SYSTEMS)})")
    systems = {}
    warmup = WARMUP
    for name in names:
        try:
            systems[name] = newscrawl_system(True) if name == "newscrawl" and args.style_elements else SYSTEMS[name]()
        except ImportError as exc:
            raise SystemExit(f"{name} is not installed ({exc}); run .venv/bin/pip install -e '.[bench]'") from None
        for url in ("http://127.0.0.1/warmup", None):  # imports, models, caches; with a URL and without
            systems[name](warmup, warmup.decode(), url)
    results = {}
    for folder in page_datasets(args.datasets.split(",") if args.datasets else None):
        results[folder.name] = run_dataset(folder, systems, args.limit)
        print_dataset(folder.name, results[folder.name])
        sys.stdout.flush()
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
