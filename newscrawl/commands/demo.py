"""``newscrawl demo``: serve the bundled demo news site on 127.0.0.1 and crawl it.

The embedded default of the README's first command: no network, no project, one JSON Lines file
of extracted articles at the end (path and article count printed).
"""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = "serve the bundled demo news site on 127.0.0.1 and crawl it into a JSON Lines file"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        default=Path("output/demo-articles.jsonl"),
        help="JSON Lines file to write (default: %(default)s)",
    )
    parser.add_argument("--log-level", default="INFO", help="Scrapy log level (default: %(default)s)")


def count_lines(path: Path) -> int:
    if not path.exists():
        return 0
    with path.open("rb") as fh:
        return sum(1 for line in fh if line.strip())


def run(args: argparse.Namespace) -> int:
    from newscrawl.demo.server import serve_site
    from newscrawl.demo.site import build_demo_site
    from newscrawl.runner import run_crawl

    output: Path = args.output.resolve()
    output.parent.mkdir(parents=True, exist_ok=True)
    with serve_site(build_demo_site()) as server:
        print(f"Demo site served at {server.base_url}/")
        stats = run_crawl([server.base_url + "/"], output, local=True, overrides={"LOG_LEVEL": args.log_level})
    articles = count_lines(output)
    print(f"Crawled {stats.get('newscrawl/pages/fetched', 0)} pages; wrote {articles} articles to {output}")
    return 0 if articles else 1
