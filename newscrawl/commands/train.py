"""``newscrawl train TARGET``: rebuild a shipped model from its training data, reproducibly.

Each target is a module in :mod:`newscrawl.train` with ``HELP``, ``add_arguments(parser)`` and
``run(args) -> int``; it writes the model and its card into ``models/``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

HELP = "train a shipped model (urls, title-date, page, wang) from ../shared/datasets"

TARGETS: dict[str, str] = {
    "urls": "newscrawl.train.urls",
    "title-date": "newscrawl.train.title_date",
    "page": "newscrawl.train.page",
    "wang": "newscrawl.train.wang",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from newscrawl.cli import add_module_commands

    add_module_commands(parser, "target", TARGETS, wrap=_with_data, argv=getattr(parser, "newscrawl_argv", None))


def _with_data(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """``run`` after checking that the training data is there: without it a target failed deep in
    its data loading or in scikit-learn ("n_samples=0") with a traceback."""

    def checked(args: argparse.Namespace) -> int:
        from newscrawl.paths import datasets_dir

        folder = datasets_dir()
        if not any(folder.glob("*/truth.jsonl")):
            raise SystemExit(
                f"newscrawl train: no datasets in {folder} (set NEWSCRAWL_SHARED_DIR to the folder "
                "that holds datasets/, see its README for the format)"
            )
        return run(args)

    return checked


def run(args: argparse.Namespace) -> int:  # replaced by the target's run via set_defaults
    raise SystemExit("choose a training target")
