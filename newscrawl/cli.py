"""The ``newscrawl`` command line: one small module per subcommand under ``newscrawl.commands``.

Each command module defines ``HELP`` (one line), ``add_arguments(parser)`` and ``run(args) -> int``.
Modules are imported only when their command runs, so ``newscrawl extract`` does not pay for
Scrapy or scikit-learn imports it does not need.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence

from newscrawl.parallel import WorkersCannotRun

COMMANDS: dict[str, str] = {
    "crawl": "newscrawl.commands.crawl",
    "demo": "newscrawl.commands.demo",
    "extract": "newscrawl.commands.extract",
    "evaluate": "newscrawl.commands.evaluate",
    "train": "newscrawl.commands.train",
    "template": "newscrawl.commands.template",
    "watch": "newscrawl.commands.watch",
}


def add_module_commands(
    parser: argparse.ArgumentParser,
    dest: str,
    modules: dict[str, str],
    wrap: Callable[[Callable[[argparse.Namespace], int]], Callable[[argparse.Namespace], int]] | None = None,
) -> None:
    """One subcommand per module (``HELP``, ``add_arguments``, ``run``), run via ``args._run``
    (through ``wrap`` when given: a check every subcommand of a group needs)."""
    sub = parser.add_subparsers(dest=dest, metavar=dest.upper())
    sub.required = True
    for name, module_name in modules.items():
        module = importlib.import_module(module_name)
        command_parser = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command_parser)
        command_parser.set_defaults(_run=wrap(module.run) if wrap else module.run)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="newscrawl", description="newscrawl: crawl news sites and extract articles.")
    add_module_commands(parser, "command", COMMANDS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args._run(args) or 0)
    except WorkersCannotRun as exc:  # --workers: the worker processes die before doing any work
        print(f"newscrawl: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C: what was written stays written; no traceback
        print("newscrawl: interrupted", file=sys.stderr)
        return 130  # 128 + SIGINT, as shells report it
    except BrokenPipeError:
        # the reader went away (``newscrawl extract --batch m.jsonl | head``): stop quietly, as Unix
        # tools do; stdout goes to /dev/null so the interpreter's final flush does not raise again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, what a shell reports for a tool killed by the broken pipe


if __name__ == "__main__":
    sys.exit(main())
