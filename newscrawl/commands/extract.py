"""``newscrawl extract FILE`` and ``newscrawl extract --batch MANIFEST.jsonl``.

Other tools call this command, so its output is a contract: one JSON object for one file; in
batch mode exactly one JSON line per manifest line, in input order, each with ``id``, ``url``,
``title``, ``published``, ``body``, ``is_article``, ``probability`` (plus the rest of
``Article.to_dict()``), and ``error`` instead of fields when the page could not be processed.
A failing page never stops the batch. ``--workers N`` extracts on N processes
(:mod:`newscrawl.parallel`) with the same output, in the same order. ``--batch -`` reads the
manifest from standard input, page paths relative to the current folder.
"""

from __future__ import annotations

import argparse
import json
import sys
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

from newscrawl.evaluate import read_page
from newscrawl.jsonlines import dumps
from newscrawl.parallel import Failed, ordered_map, resolve_workers
from newscrawl.timelimit import TimeLimitExceeded, page_time_limit

HELP = "extract title, date and body from an HTML file (or a JSONL manifest with --batch, WARC files with --warc)"

_BATCH_FIELDS = ("title", "published", "body", "is_article", "probability")
# A batch page taking longer than this gets an error line (the slowest of the 1,933 dataset pages
# takes under a second, a 50 MB hostile page a few; tests/hostile)
PAGE_TIMEOUT = 120.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", help="an .html or .html.gz file")
    parser.add_argument(
        "--batch",
        metavar="MANIFEST",
        help='JSONL lines {"id", "url", "path"} (path relative to the manifest); '
        '"-" reads them from standard input (paths relative to the current folder)',
    )
    parser.add_argument("--url", help="the page's URL (resolves links, helps dates and site names)")
    parser.add_argument(
        "--site-templates",
        action="store_true",
        help="with --batch (--warc: per file and domain): learn a template per page from the other "
        "pages of its site (manifest 'site' or registrable domain; groups of >= 3) and remove it",
    )
    parser.add_argument(
        "--method",
        default="nce",
        help="extraction method: nce (default) or a body extractor the core offers "
        "(e.g. mss, coreex, newsfeed, wang); an unknown name lists the available ones",
    )
    add_style_elements_argument(parser)
    parser.add_argument(
        "--page-timeout",
        type=float,
        default=PAGE_TIMEOUT,
        metavar="SECONDS",
        help=f"with --batch: a page taking longer gets an error line (default {PAGE_TIMEOUT:g}; 0: none)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="with --batch or --warc: extract on this many processes, output unchanged and in order "
        "(default 1; 0: one per CPU)",
    )
    from newscrawl.warc.cli import add_arguments as add_warc_arguments

    add_warc_arguments(parser)


def add_style_elements_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--style-elements",
        action="store_true",
        default=None,
        help="style pages with their own <style> elements too (default: inline styles and "
        "user-agent defaults only, as for any page given without its external "
        "stylesheets; ~35%% slower, see docs/decisions.md)",
    )


def extractor(method: str, style_elements: bool | None = None) -> Callable[..., Any]:
    """``newscrawl.extract`` bound to ``method`` and ``style_elements``; SystemExit with a clear
    message if the method is unknown.

    The core owns the method registry; we ask it with an empty page rather than duplicating the list.
    """
    from newscrawl.extract import extract

    try:
        extract(b"<html><body></body></html>", None, method=method)
    except ValueError as exc:
        raise SystemExit(f"newscrawl extract: {exc}") from None

    def run(html: bytes, url: str | None) -> Any:
        return extract(html, url, method=method, style_elements=style_elements)

    return run


def _as_dict(article: Any) -> dict[str, Any]:
    return article.to_dict() if hasattr(article, "to_dict") else dict(article)


_worker_run: Callable[[bytes, str | None], Any] | None = None  # this process's page function
_worker_timeout = 0.0  # and its time limit per page


def start_worker(
    method: str, templates: dict[Any, Any] | None = None, page_timeout: float = 0.0, style_elements: bool | None = None
) -> None:
    """Build this process's page function once (models load on its first page): ``extract`` with
    ``method`` and ``style_elements``, removing the page's site template when ``templates`` (learnt
    from the manifest) has one, stopped after ``page_timeout`` seconds (0: no limit)."""
    global _worker_run, _worker_timeout
    run = extractor(method, style_elements)
    if templates is not None:
        from newscrawl.template.batch import templated

        run = templated(templates, run, style_elements=style_elements)
    _worker_run, _worker_timeout = run, page_timeout


def worker_extract(html: bytes, url: str | None) -> Any:
    """The page function :func:`start_worker` built in this process, within its time limit
    (:class:`newscrawl.timelimit.TimeLimitExceeded` past it)."""
    if _worker_run is None:
        raise RuntimeError("start_worker() was not called in this process")
    with page_time_limit(_worker_timeout):
        return _worker_run(html, url)


def _line_output(job: tuple[Path, int, str]) -> dict[str, Any]:
    """The output object of one manifest line; an error becomes ``{"error": ...}``."""
    base, number, line = job
    out: dict[str, Any] = {"id": None, "url": None}
    try:
        entry = json.loads(line)
        if not isinstance(entry, dict):
            raise ValueError("manifest line is not a JSON object")
        out["id"], out["url"] = entry.get("id"), entry.get("url")
        path = entry.get("path")
        if not path:
            raise ValueError("manifest line has no path")
        article = _as_dict(worker_extract(read_page(base / path), out["url"]))
    except (Exception, TimeLimitExceeded) as exc:  # one bad page or line must not stop the batch
        return _error_line(out, f"line {number}: {exc.__class__.__name__}: {exc}")
    article.pop("url", None)
    article.pop("id", None)
    out.update(article)
    return out


def _error_line(out: dict[str, Any], error: str) -> dict[str, Any]:
    out.update({name: None for name in _BATCH_FIELDS})
    out["error"] = error
    return out


def _ids_of(line: str) -> dict[str, Any]:
    """``id`` and ``url`` of a manifest line, as far as it parses (for a line whose worker died)."""
    try:
        entry = json.loads(line)
    except ValueError:
        entry = None
    return {key: entry.get(key) if isinstance(entry, dict) else None for key in ("id", "url")}


def batch_lines(
    manifest: Path,
    method: str = "nce",
    *,
    workers: int = 1,
    templates: dict[Any, Any] | None = None,
    page_timeout: float = PAGE_TIMEOUT,
    style_elements: bool | None = None,
) -> Iterator[dict[str, Any]]:
    """One output object per manifest line, in order, extracted on ``workers`` processes; errors
    (including a worker process dying on a page, or a page over ``page_timeout`` seconds) become
    ``{"error": ...}`` lines."""
    with open(manifest, encoding="utf-8") as handle:
        yield from stream_lines(
            handle,
            manifest.parent,
            method,
            workers=workers,
            templates=templates,
            page_timeout=page_timeout,
            style_elements=style_elements,
        )


def stream_lines(
    handle: TextIO,
    base: Path,
    method: str = "nce",
    *,
    workers: int = 1,
    templates: dict[Any, Any] | None = None,
    page_timeout: float = PAGE_TIMEOUT,
    style_elements: bool | None = None,
) -> Iterator[dict[str, Any]]:
    """:func:`batch_lines` over an open manifest (standard input too), page paths relative to ``base``;
    lines are read as the workers take them."""
    jobs = ((base, number, line) for number, line in enumerate(handle, 1) if line.strip())
    for (_, number, line), out in ordered_map(
        _line_output,
        jobs,
        workers,
        initializer=start_worker,
        initargs=(method, templates, page_timeout, style_elements),
    ):
        if isinstance(out, Failed):
            out = _error_line(_ids_of(line), f"line {number}: {out.reason}")
        yield out


def _batch_output(args: argparse.Namespace, workers: int) -> Iterator[dict[str, Any]]:
    """The output lines of ``--batch``: of the manifest file, or of standard input for "-"."""
    if args.batch == "-":
        if args.site_templates:  # templates are learnt in a first pass over the manifest
            raise SystemExit("newscrawl extract: --site-templates reads the manifest twice; give it as a file")
        return stream_lines(
            sys.stdin,
            Path.cwd(),
            args.method,
            workers=workers,
            page_timeout=args.page_timeout,
            style_elements=args.style_elements,
        )
    manifest = Path(args.batch)
    if not manifest.is_file():
        raise SystemExit(f"newscrawl extract: no such manifest: {manifest}")
    templates = None
    if args.site_templates:
        from newscrawl.template.batch import manifest_templates

        templates = manifest_templates(manifest)
    return batch_lines(
        manifest,
        args.method,
        workers=workers,
        templates=templates,
        page_timeout=args.page_timeout,
        style_elements=args.style_elements,
    )


def run(args: argparse.Namespace, stdout: TextIO | None = None) -> int:
    stdout = stdout or sys.stdout
    if bool(args.file) + bool(args.batch) + bool(args.warc) != 1:
        raise SystemExit("newscrawl extract: give one of FILE, --batch MANIFEST or --warc FILE...")
    try:
        workers = resolve_workers(args.workers)
    except ValueError as exc:
        raise SystemExit(f"newscrawl extract: --workers: {exc}") from None
    extract_one = extractor(args.method, args.style_elements)  # an unknown method stops here, before any worker starts
    if args.warc:
        from newscrawl.warc.cli import run as run_warc

        return run_warc(args, workers, stdout)
    if args.batch:
        for out in _batch_output(args, workers):
            stdout.write(dumps(out) + "\n")
            stdout.flush()
        return 0
    path = Path(args.file)
    try:
        data = read_page(path)
    except (OSError, EOFError, zlib.error) as exc:  # missing, unreadable, truncated or corrupt gzip
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise SystemExit(f"newscrawl extract: cannot read {path}: {reason}") from None
    stdout.write(dumps(_as_dict(extract_one(data, args.url)), indent=2) + "\n")
    return 0
