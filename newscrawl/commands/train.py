"""``newscrawl train TARGET``: rebuild a shipped model from its training data, reproducibly.

Each target is a module in :mod:`newscrawl.train` with ``HELP``, ``add_arguments(parser)`` and
``run(args) -> int``; it writes the model and its card into ``models/``.
"""

from __future__ import annotations

import argparse
import importlib

HELP = "train a shipped model (urls, title-date, page) from ../shared/datasets"

TARGETS: dict[str, str] = {
    "urls": "newscrawl.train.urls",
    "title-date": "newscrawl.train.title_date",
    "page": "newscrawl.train.page",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="target", metavar="TARGET")
    sub.required = True
    for name, module_name in TARGETS.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        target_parser = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(target_parser)
        target_parser.set_defaults(_run=module.run)


def run(args: argparse.Namespace) -> int:  # replaced by the target's run via set_defaults
    raise SystemExit("choose a training target")
