"""``newscrawl watch URL... --state DIR [--every 15m] [--once] [-o FILE]``: monitor news sites.

Each cycle is one ``news`` crawl with ``NEWSCRAWL_WATCH_STATE`` set (see ``docs/watch.md``): the
first crawls the sites, later ones re-read only their fronts and export only new or changed
articles, appended to ``-o FILE`` (JSON Lines). ``--once`` runs one cycle and exits (cron); without
it a cycle starts every ``--every`` (each in its own process: Twisted's reactor runs once).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from newscrawl.commands.crawl import add_setting_argument
from newscrawl.watch.schedule import Bounds

HELP = "watch news sites: export each new article once, as it appears (incremental crawling)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("start", nargs="*", help="start URLs (home pages)")
    parser.add_argument("--sites", type=Path, help="file with one start URL per line")
    parser.add_argument("--state", type=Path, required=True, help="directory of the watch state (created)")
    parser.add_argument(
        "--every",
        default="15m",
        type=_bounds,
        help="cycle period and revisit bounds: 15m (fronts revisited every 15m..2h) or 5m..1h",
    )
    parser.add_argument("--once", action="store_true", help="run one cycle and exit (for cron)")
    parser.add_argument("--since", help="first cycle: only feed/sitemap entries dated on or after DATE")
    parser.add_argument("-o", "--output", type=Path, help="JSON Lines file new articles are appended to")
    parser.add_argument("--stats", type=Path, help="write each cycle's stats as JSON here (overwritten)")
    parser.add_argument("--local", action="store_true", help="no throttling (for sites on 127.0.0.1)")
    add_setting_argument(parser)


def _bounds(text: str) -> Bounds:
    try:
        return Bounds.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def _starts(args: argparse.Namespace) -> list[str]:
    starts = list(args.start)
    if args.sites:
        starts += [
            line.strip()
            for line in args.sites.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.lstrip().startswith("#")
        ]
    return starts


def cycle_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The settings of one watch cycle (``-s`` values win)."""
    overrides: dict[str, Any] = {
        "NEWSCRAWL_WATCH_STATE": str(args.state.resolve()),
        "NEWSCRAWL_WATCH_MIN_INTERVAL": args.every.low,
        "NEWSCRAWL_WATCH_MAX_INTERVAL": args.every.high,
    }
    if args.since:
        overrides["NEWSCRAWL_WATCH_SINCE"] = args.since
    if args.output:
        # appended, never overwritten: the watch state says what this file already holds
        overrides["FEEDS"] = {
            str(args.output.resolve()): {"format": "jsonlines", "encoding": "utf8", "overwrite": False}
        }
    overrides.update(dict(args.settings))
    return overrides


def summary(stats: dict[str, Any]) -> str:
    return (
        f"watch cycle ({'full' if stats.get('newscrawl/watch/full_cycle') else 'incremental'}): "
        f"{stats.get('downloader/request_count', 0)} requests, "
        f"{stats.get('newscrawl/watch/not_modified', 0)} not modified, "
        f"{stats.get('newscrawl/watch/items_new', 0)} new, {stats.get('newscrawl/watch/items_updated', 0)} updated, "
        f"{stats.get('item_scraped_count', 0)} exported"
    )


def run_once(args: argparse.Namespace) -> int:
    from newscrawl.runner import run_crawl

    starts = _starts(args)
    if not starts:
        raise SystemExit("newscrawl watch: give at least one start URL (or --sites FILE)")
    if args.output and args.output.suffix not in (".jsonl", ".jl"):
        raise SystemExit("newscrawl watch: -o must be a JSON Lines file (.jsonl): cycles append to it")
    stats = run_crawl(starts, None, local=args.local, overrides=cycle_overrides(args))
    if args.stats:
        args.stats.write_text(json.dumps(stats, default=str, indent=1, sort_keys=True), encoding="utf-8")
    print(summary(stats), file=sys.stderr, flush=True)
    return 0 if stats.get("finish_reason") == "finished" else 1


def run(args: argparse.Namespace) -> int:
    if args.once:
        return run_once(args)
    # long-running: one process per cycle, a cycle started every --every (the lower bound);
    # fronts whose own interval has not elapsed are skipped inside the cycle
    argv = [sys.executable, "-m", "newscrawl", "watch", *_replay(args), "--once"]
    while True:
        started = time.monotonic()
        code = subprocess.call(argv)
        if code not in (0, 1):
            print(f"newscrawl watch: cycle exited with status {code}", file=sys.stderr, flush=True)
        time.sleep(max(0.0, args.every.low - (time.monotonic() - started)))


def _replay(args: argparse.Namespace) -> list[str]:
    """The command line of one cycle (the arguments of this one, as parsed)."""
    argv = [*args.start, "--state", str(args.state), "--every", f"{args.every.low}s..{args.every.high}s"]
    for flag, value in (("--sites", args.sites), ("--since", args.since), ("-o", args.output), ("--stats", args.stats)):
        if value:
            argv += [flag, str(value)]
    if args.local:
        argv.append("--local")
    for name, value in args.settings:
        argv += ["-s", f"{name}={json.dumps(value) if not isinstance(value, str) else value}"]
    return argv
