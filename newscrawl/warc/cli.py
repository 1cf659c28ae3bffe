"""``newscrawl extract --warc FILE_OR_GLOB... [-o OUT.jsonl] [--workers N | --dask [ADDRESS]]``.

One JSON line per HTML 200 response of the WARC/ARC files (after the filters), in file and record
order, on standard output or in ``-o``; what was read, skipped and kept is summed up on standard
error at the end, with a progress line while it runs (rewritten in place on a terminal, a log
line every PROGRESS_SECONDS otherwise). A file that cannot be read is reported and the others go
on; the exit status is 1 when any file failed (on Dask: after its retries), else 0.
"""

from __future__ import annotations

import argparse
import glob
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from newscrawl.warc.articles import Options

PROGRESS_SECONDS = 30.0  # between progress lines when standard error is not a terminal
TERMINAL_SECONDS = 0.5


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("WARC input (needs the warc extra; docs/warc.md)")
    group.add_argument(
        "--warc",
        nargs="+",
        metavar="FILE_OR_GLOB",
        help="extract the HTML 200 responses of these WARC/ARC files (.warc, .warc.gz, .arc, "
        ".arc.gz; globs; s3:// or https:// URLs with fsspec), one JSON line each",
    )
    group.add_argument(
        "-o", "--output", type=Path, help="with --warc: write the JSON lines here (default: standard output)"
    )
    group.add_argument(
        "--articles-only", action="store_true", help="with --warc: keep only pages classified as articles"
    )
    group.add_argument(
        "--domain",
        action="append",
        default=[],
        metavar="DOMAIN",
        help="with --warc: keep only pages of this domain or host and its subdomains (repeatable)",
    )
    group.add_argument(
        "--since", metavar="YYYY-MM-DD", help="with --warc: keep only pages published on or after this day"
    )
    group.add_argument(
        "--until", metavar="YYYY-MM-DD", help="with --warc: keep only pages published on or before this day"
    )
    group.add_argument(
        "--stylesheets",
        action="store_true",
        help="with --warc: style each page with its external stylesheets found in the input files "
        "(WARCs of crawls, which archive them), as the crawl did; reads the files twice",
    )
    group.add_argument(
        "--dask",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="with --warc: one task per file on this Dask scheduler (tcp://host:8786); without an "
        "address, a local cluster of --workers processes (needs the dask extra)",
    )
    group.add_argument("--retries", type=int, default=2, help="with --dask: tries again per failed file (default 2)")


def expand(patterns: list[str]) -> list[str]:
    """Local globs expanded (sorted), URLs and plain paths as given; a pattern matching nothing stays,
    so its file is reported as unreadable."""
    paths: list[str] = []
    for pattern in patterns:
        if "://" not in pattern and glob.has_magic(pattern):
            paths.extend(sorted(glob.glob(pattern)) or [pattern])
        else:
            paths.append(pattern)
    return paths


def _day(value: str | None, name: str) -> str | None:
    if value is None:
        return None
    from datetime import date

    try:
        return date.fromisoformat(value[:10]).isoformat()
    except ValueError:
        raise SystemExit(f"newscrawl extract: {name} {value!r}: expected YYYY-MM-DD") from None


def options_from(args: argparse.Namespace) -> Options:
    return Options(
        method=args.method,
        articles_only=args.articles_only,
        domains=tuple(d.lower().strip(".") for d in args.domain),
        since=_day(args.since, "--since"),
        until=_day(args.until, "--until"),
        site_templates=args.site_templates,
        page_timeout=args.page_timeout,
        style_elements=args.style_elements,
        stylesheets=args.stylesheets,
    )


class ProgressLine:
    """records/s and articles/s on standard error: in place on a terminal, else a line now and then,
    from a thread of its own (heavy filters may hold the output back for long)."""

    def __init__(self, counts: Any, stream: TextIO) -> None:
        self.counts, self.stream = counts, stream
        self.tty = stream.isatty()
        self.started = time.monotonic()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name="newscrawl-warc-progress", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stopped.wait(TERMINAL_SECONDS if self.tty else PROGRESS_SECONDS):
            self.tick()

    def text(self) -> str:
        elapsed = max(time.monotonic() - self.started, 1e-9)
        records, articles = self.counts["records"], self.counts["articles"]
        return (
            f"{self.counts['files']} files, {records} records ({records / elapsed:.0f}/s), {self.counts['pages']} "
            f"pages, {articles} articles ({articles / elapsed:.1f}/s)"
        )

    def tick(self) -> None:
        if self.tty:
            self.stream.write("\r" + self.text() + "\x1b[K")
        else:
            self.stream.write("newscrawl extract: " + self.text() + "\n")
        self.stream.flush()

    def done(self, failed: list[tuple[str, str]]) -> None:
        self.stopped.set()
        self.thread.join()
        if self.tty:
            self.stream.write("\r\x1b[K")
        skipped = ", ".join(
            f"{key} {value}"
            for key, value in sorted(self.counts.items())
            if key not in ("files", "records", "pages", "articles") and value
        )
        self.stream.write(
            f"newscrawl extract: {self.text()} in {time.monotonic() - self.started:.1f} s"
            + (f"; {skipped}" if skipped else "")
            + "\n"
        )
        for path, reason in failed:
            self.stream.write(f"newscrawl extract: FAILED {path}: {reason}\n")
        self.stream.flush()


def _local(
    paths: list[str], options: Options, workers: int, counts: Any, failed: list[tuple[str, str]]
) -> Iterator[str]:
    from newscrawl.jsonlines import dumps
    from newscrawl.warc.articles import lines

    unreadable: list[str] = []
    for line in lines(paths, options, workers=workers, counts=counts, failed=unreadable):
        yield dumps(line) + "\n"
    failed.extend((path, "cannot be read") for path in unreadable)


def run(args: argparse.Namespace, workers: int, stdout: TextIO) -> int:
    from newscrawl.warc.reader import Counts, require_warcio

    require_warcio()
    paths = expand(args.warc)
    options = options_from(args)
    counts = Counts()
    failed: list[tuple[str, str]] = []
    progress = ProgressLine(counts, sys.stderr)
    out = args.output.open("w", encoding="utf-8") if args.output else stdout
    try:
        if args.dask is not None:
            from newscrawl.warc.dask import run_on_dask

            chunks = run_on_dask(paths, options, args.dask or None, workers, counts, failed, retries=args.retries)
        else:
            chunks = _local(paths, options, workers, counts, failed)
        for chunk in chunks:
            out.write(chunk)
            if not args.output:
                out.flush()
    finally:
        if args.output:
            out.close()
        progress.stopped.set()
    progress.done(failed)
    return 1 if failed else 0
