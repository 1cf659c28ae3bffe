"""``newscrawl crawl URL [URL...] -o FILE``: crawl news sites without a Scrapy project.

Equivalent to ``scrapy crawl news -a start=URL -O FILE`` inside this repository; settings can be
given with ``-s NAME=VALUE`` (JSON values are parsed: ``-s NEWSCRAWL_EXPORT_ALL=true``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

HELP = "crawl news sites into a feed file (JSON Lines, JSON, CSV or XML by extension)"


def parse_setting(text: str) -> tuple[str, Any]:
    name, sep, raw = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return name.strip(), value


def add_setting_argument(parser: argparse.ArgumentParser) -> None:
    """``-s NAME=VALUE`` (repeatable), as ``scrapy crawl`` takes it: the commands that run crawls share it."""
    parser.add_argument(
        "-s",
        "--set",
        dest="settings",
        action="append",
        type=parse_setting,
        default=[],
        metavar="NAME=VALUE",
        help="Scrapy or NEWSCRAWL_* setting",
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("start", nargs="*", help="start URLs")
    parser.add_argument("--start-file", type=Path, help="file with one start URL per line")
    parser.add_argument("-o", "--output", type=Path, required=True, help="feed file to write (overwritten)")
    parser.add_argument("--stats", type=Path, help="also write the crawl's stats as JSON here")
    parser.add_argument("--local", action="store_true", help="no throttling (for sites on 127.0.0.1)")
    add_setting_argument(parser)


def run(args: argparse.Namespace) -> int:
    from newscrawl.runner import run_crawl

    starts = list(args.start)
    if args.start_file:
        lines = args.start_file.read_text(encoding="utf-8").splitlines()
        starts += [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    if not starts:
        raise SystemExit("newscrawl crawl: give at least one start URL")
    stats = run_crawl(starts, args.output, local=args.local, overrides=dict(args.settings))
    if args.stats:
        args.stats.write_text(json.dumps(stats, default=str, indent=1, sort_keys=True), encoding="utf-8")
    return 0
