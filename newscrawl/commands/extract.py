"""``newscrawl extract FILE`` and ``newscrawl extract --batch MANIFEST.jsonl``.

Other tools call this command, so its output is a contract: one JSON object for one file; in
batch mode exactly one JSON line per manifest line, in input order, each with ``id``, ``url``,
``title``, ``published``, ``body``, ``is_article``, ``probability`` (plus the rest of
``Article.to_dict()``), and ``error`` instead of fields when the page could not be processed.
A failing page never stops the batch.
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

HELP = "extract title, date and body from an HTML file (or a JSONL manifest with --batch)"

_BATCH_FIELDS = ("title", "published", "body", "is_article", "probability")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", help="an .html or .html.gz file")
    parser.add_argument("--batch", metavar="MANIFEST", help='JSONL lines {"id", "url", "path"} (path relative to the manifest)')
    parser.add_argument("--url", help="the page's URL (resolves links, helps dates and site names)")
    parser.add_argument("--site-templates", action="store_true",
                        help="with --batch: learn a template per page from the other pages of its site "
                             "(manifest 'site' or registrable domain; groups of >= 3) and remove it")
    parser.add_argument("--method", default="nce",
                        help="extraction method: nce (default) or a body extractor the core offers "
                             "(e.g. mss, coreex, newsfeed, wang); an unknown name lists the available ones")


def extractor(method: str) -> Callable[..., Any]:
    """``newscrawl.extract`` bound to ``method``; SystemExit with a clear message if it is unknown.

    The core owns the method registry; we ask it with an empty page rather than duplicating the list.
    """
    from newscrawl.extract import extract

    try:
        extract(b"<html><body></body></html>", None, method=method)
    except ValueError as exc:
        raise SystemExit(f"newscrawl extract: {exc}") from None

    def run(html: bytes, url: str | None) -> Any:
        return extract(html, url, method=method)

    return run


def _jsonable(value: Any) -> Any:
    """json.dumps fallback: numpy scalars, sets and anything else a result may carry."""
    if hasattr(value, "item"):
        return value.item()
    if isinstance(value, (set, frozenset, tuple)):
        return sorted(value, key=str)
    return str(value)


def dumps(obj: Any, indent: int | None = None) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=indent, default=_jsonable)


def _as_dict(article: Any) -> dict[str, Any]:
    return article.to_dict() if hasattr(article, "to_dict") else dict(article)


def batch_lines(manifest: Path, run: Callable[[bytes, str | None], Any]) -> Iterator[dict[str, Any]]:
    """One output object per manifest line, in order; errors become ``{"error": ...}`` lines."""
    base = manifest.parent
    with open(manifest, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            out: dict[str, Any] = {"id": None, "url": None}
            try:
                entry = json.loads(line)
                if not isinstance(entry, dict):
                    raise ValueError("manifest line is not a JSON object")
                out["id"], out["url"] = entry.get("id"), entry.get("url")
                path = entry.get("path")
                if not path:
                    raise ValueError("manifest line has no path")
                article = _as_dict(run(read_page(base / path), out["url"]))
            except Exception as exc:  # one bad page or line must not stop the batch
                out.update({name: None for name in _BATCH_FIELDS})
                out["error"] = f"line {number}: {exc.__class__.__name__}: {exc}"
                yield out
                continue
            article.pop("url", None)
            article.pop("id", None)
            out.update(article)
            yield out


def run(args: argparse.Namespace, stdout: TextIO | None = None) -> int:
    stdout = stdout or sys.stdout
    if bool(args.file) == bool(args.batch):
        raise SystemExit("newscrawl extract: give either FILE or --batch MANIFEST")
    extract_one = extractor(args.method)
    if args.batch:
        manifest = Path(args.batch)
        if not manifest.is_file():
            raise SystemExit(f"newscrawl extract: no such manifest: {manifest}")
        if args.site_templates:
            from newscrawl.template.batch import template_extractor

            extract_one = template_extractor(manifest, extract_one)
        for out in batch_lines(manifest, extract_one):
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
