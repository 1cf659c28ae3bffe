"""extract() on pages holding one long run of a repeated character pattern, placed in one part of the page.

A regular expression whose match may start at every character of a run, each attempt reading to the
run's end, costs time quadratic in the run: one page of a few hundred KB then holds the extraction for
minutes (docs/decisions.md, "Regular expressions on hostile runs"). This script builds a page per
(place, pattern) pair -- 17 places (body text alone, between a date and a currency word, before a
letter and after a currency word; title, <h1>, og:title, published-time meta, JSON-LD date, author and articleBody,
page URL, href, stylesheet, declaration block, style/class/datetime attributes, a date node) times 43
patterns (digits, dots, commas, dashes, unclosed tags, "1.", "a-", spaces, currency signs, ...) -- and prints each
extraction that takes longer than ``--slow`` seconds, then the slowest of all.
Pages are generated here; no network, no data from ../shared.

``--memory N`` measures the other side of the same inputs instead: N pages in a row, each with 50
elements whose class, style and href hold distinct 20,000-character texts and 10 rules with texts as
long in their selectors, values and media queries, printing the process's peak RSS every 20 pages.
The memos keyed by page text must not hold them (docs/decisions.md, "Memos keyed by page text"), so
the peak levels off after the first pages.

Run: ``.venv/bin/python benchmarks/hostile_runs.py [--chars 200000] [--slow 6]`` or ``--memory 100``.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import signal
import string
import time

from newscrawl import extract

PATTERNS = ("1", ".", ",", "-", "/", ":", "a", "a-", "1.", "1/", "12:", "&#", "%", "@", "#", "|", "»", "a ", "1 ",
            ". ", "- ", "x:", "(", ")", "'", '"', "\\", "é", "\u3002", "eur1", "1eur", "$1", "a.", "-a", "_", "~",
            "+", "=", "!", "?", ";", "<p ", "<br")
PLACES = ("body", "body_prefixed", "word_after", "currency_before", "title", "h1", "og_title", "meta_date",
          "json_ld", "url", "href", "css", "css_block", "style_attr", "class_attr", "time_attr", "date_node")
LIMIT = 120  # seconds a page before it is reported as a time-out


def _escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")


def hostile_page(place: str, run: str) -> tuple[str, str]:
    """(html, url) of a small article whose ``place`` holds ``run``."""
    body = "<p>A short paragraph of ordinary text for the page.</p>"
    head, title, h1 = "", "Title", "Headline"
    url = "http://127.0.0.1/2024/01/02/story"
    text = _escaped(run)
    if place == "body":
        body = f"<p>{text}</p>"
    elif place == "body_prefixed":
        body = f"<p>Published on 2024-01-02 {text} eur</p>"
    elif place == "word_after":  # a run that is not the end of its line
        body = f"<p>{text}x</p>"
    elif place == "currency_before":  # a run the price scan reads, with no currency after it
        body = f"<p>eur {text}x</p>"
    elif place == "title":
        title = text
    elif place == "h1":
        h1 = text
    elif place == "og_title":
        head = f'<meta property="og:title" content="{text}">'
    elif place == "meta_date":
        head = f'<meta property="article:published_time" content="{text}">'
    elif place == "json_ld":
        value = json.dumps(run)
        head = ('<script type="application/ld+json">{"@type": "NewsArticle", "headline": "H", '
                f'"datePublished": {value}, "author": {{"name": {value}}}, "articleBody": {value}}}</script>')
    elif place == "url":
        url = "http://127.0.0.1/" + run.replace(" ", "%20").replace("#", "%23")
    elif place == "href":
        body += f'<a href="/{text}">link</a>'
    elif place == "css":
        head = f"<style>{run}</style>"
    elif place == "css_block":
        head = f"<style>p {{ color: {run} }}</style>"
    elif place == "style_attr":
        body = f'<p style="{text}">Styled paragraph text.</p>'
    elif place == "class_attr":
        body = f'<div class="{text}"><p>Classed paragraph text here.</p></div>'
    elif place == "time_attr":
        body = f'<time datetime="{text}">{_escaped(run[:50])}</time><p>Text.</p>'
    elif place == "date_node":
        body = f"<p>Posted {_escaped(run[:300])}</p>" + body
    else:
        raise ValueError(f"unknown place {place!r}")
    html = f"<html><head><title>{title}</title>{head}</head><body><article><h1>{h1}</h1>{body}</article></body></html>"
    return html, url


def _timed_out(_signum: int, _frame: object) -> None:
    raise TimeoutError


def long_text_page(number: int, rng: random.Random, chars: int = 20_000) -> str:
    """A page whose attributes, selectors, values and media queries hold distinct ``chars``-long texts."""

    def text() -> str:
        return "".join(rng.choice(string.ascii_lowercase) for _ in range(chars // 8)) * 8

    rules = "".join(f".k{number}x{i}{text()} .{text()} {{ color: red; --w: {text()}; font-family: {text()} }} "
                    f"@media (min-width: {text()}) {{ p {{ color: blue }} }}" for i in range(10))
    blocks = "".join(f'<div class="c{number}x{i} {text()}" style="color: red; --v: {text()}">'
                     f'<a href="/{text()}">Link {i}</a> Paragraph text {i} with words.</div>' for i in range(50))
    return f"<html><head><style>{rules}</style></head><body><article><h1>Headline</h1>{blocks}</article></body></html>"


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def memory(pages: int) -> int:
    extract("<html><body><p>warm-up</p></body></html>", "http://127.0.0.1/warm-up")
    print(f"peak RSS after the warm-up: {peak_rss_mib():.0f} MiB")
    rng = random.Random(1)
    for number in range(pages):
        extract(long_text_page(number, rng), f"http://127.0.0.1/2024/01/02/page-{number}")
        if number % 20 == 19 or number == pages - 1:
            print(f"after {number + 1} pages: peak RSS {peak_rss_mib():.0f} MiB", flush=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chars", type=int, default=200_000, help="length of each run (default 200000)")
    parser.add_argument("--slow", type=float, default=6.0, help="report pages slower than this many seconds")
    parser.add_argument("--memory", type=int, metavar="N", help="instead: peak RSS over N pages of long texts")
    args = parser.parse_args()
    if args.memory:
        return memory(args.memory)
    signal.signal(signal.SIGALRM, _timed_out)
    extract("<html><body><p>warm-up</p></body></html>", "http://127.0.0.1/warm-up")  # models load outside the timers
    timings = []
    for place in PLACES:
        for pattern in PATTERNS:
            html, url = hostile_page(place, pattern * (args.chars // len(pattern)))
            signal.alarm(LIMIT)
            start = time.perf_counter()
            try:
                extract(html, url)
                seconds = time.perf_counter() - start
            except TimeoutError:
                seconds = float("inf")
            finally:
                signal.alarm(0)
            timings.append((seconds, place, pattern))
            if seconds > args.slow:
                print(f"SLOW {place} {pattern!r}: {seconds:.2f} s", flush=True)
    timings.sort(reverse=True)
    print(f"{len(timings)} pages with {args.chars:,}-character runs; {sum(t > args.slow for t, _, _ in timings)} "
          f"slower than {args.slow:g} s; slowest:")
    for seconds, place, pattern in timings[:5]:
        print(f"  {seconds:6.2f} s  {place} {pattern!r}")
    return 1 if timings[0][0] > args.slow else 0


if __name__ == "__main__":
    raise SystemExit(main())
