"""``newscrawl train TARGET``: rebuild a shipped model from its training data, reproducibly.

Each target is a module in :mod:`newscrawl.train` with ``HELP``, ``add_arguments(parser)`` and
``run(args) -> int``; it writes the model and its card into ``models/``.
"""

from __future__ import annotations

import argparse

HELP = "train a shipped model (urls, title-date, page, wang) from ../shared/datasets"

TARGETS: dict[str, str] = {
    "urls": "newscrawl.train.urls",
    "title-date": "newscrawl.train.title_date",
    "page": "newscrawl.train.page",
    "wang": "newscrawl.train.wang",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from newscrawl.cli import add_module_commands

    add_module_commands(parser, "target", TARGETS)


def run(args: argparse.Namespace) -> int:  # replaced by the target's run via set_defaults
    raise SystemExit("choose a training target")
