"""The ``newscrawl`` command line: one small module per subcommand under ``newscrawl.commands``.

Each command module defines ``HELP`` (one line), ``add_arguments(parser)`` and ``run(args) -> int``.
Only the command named on the command line is imported (and so its module's own imports), so
``newscrawl extract`` does not pay for Scrapy, nor a crawl for the training code; the others are
listed bare. ``newscrawl --help`` (no command named) imports them all for their help lines.
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
    argv: Sequence[str] | None = None,
) -> None:
    """One subcommand per module (``HELP``, ``add_arguments``, ``run``), run via ``args._run``
    (through ``wrap`` when given: a check every subcommand of a group needs). With ``argv`` (the
    words after this parser's own) naming one of them, only that module is imported; a command's
    parser holds the words after it as ``newscrawl_argv``, for a group of subcommands of its own."""
    sub = parser.add_subparsers(dest=dest, metavar=dest.upper())
    sub.required = True
    words = [word for word in argv or () if not word.startswith("-")]
    chosen = words[0] if words and words[0] in modules else None
    for name, module_name in modules.items():
        if chosen is not None and name != chosen:
            sub.add_parser(name)  # not run this time: listed without importing its module
            continue
        module = importlib.import_module(module_name)
        command_parser = sub.add_parser(name, help=module.HELP, description=module.HELP)
        if chosen is not None and argv is not None:
            command_parser.newscrawl_argv = list(argv)[list(argv).index(chosen) + 1 :]  # type: ignore[attr-defined]
        module.add_arguments(command_parser)
        command_parser.set_defaults(_run=wrap(module.run) if wrap else module.run)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``argv``, built for the command it names only."""
    parser = argparse.ArgumentParser(prog="newscrawl", description="newscrawl: crawl news sites and extract articles.")
    add_module_commands(parser, "command", COMMANDS, argv=argv)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(argv).parse_args(argv)
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
