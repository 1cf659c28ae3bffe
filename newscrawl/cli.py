"""The ``newscrawl`` command line: one small module per subcommand under ``newscrawl.commands``.

Each command module defines ``HELP`` (one line), ``add_arguments(parser)`` and ``run(args) -> int``.
Modules are imported only when their command runs, so ``newscrawl extract`` does not pay for
Scrapy or scikit-learn imports it does not need.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMANDS: dict[str, str] = {
    "crawl": "newscrawl.commands.crawl",
    "demo": "newscrawl.commands.demo",
    "extract": "newscrawl.commands.extract",
    "evaluate": "newscrawl.commands.evaluate",
    "train": "newscrawl.commands.train",
    "template": "newscrawl.commands.template",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="newscrawl", description="newscrawl: crawl news sites and extract articles.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, module_name in COMMANDS.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue  # command not built yet in this checkout
        command_parser = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command_parser)
        command_parser.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args._run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
