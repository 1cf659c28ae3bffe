"""``newscrawl template KEYPAGE --site DIR|--url URL --html OUT.html``: a key page's template.

With ``--site`` the saved site folder is served on 127.0.0.1 for the run and KEYPAGE is a path
inside it (``category/energy/index.html`` or ``/category/energy/``); with ``--url`` KEYPAGE is
resolved against the live site's URL (or is a full URL). The n-CS search loads the linked pages,
the template is computed, and two files are written: the toggle view (template dimmed and
outlined, content normal, a button hides the template) and a JSON list of the template node
paths (XPath on the key page).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

from lxml import html as lxml_html

from newscrawl.safeurl import join_url, valid_url

HELP = "compute a key page's site template and write the toggle view (HTML) and node paths (JSON)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("keypage", metavar="KEYPAGE", help="path or URL of the key page within the site")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--site", metavar="DIR", help="saved site folder, served on 127.0.0.1")
    where.add_argument("--url", metavar="URL", help="base URL of the (live) site")
    parser.add_argument("--html", metavar="OUT.html", required=True, help="toggle view to write")
    parser.add_argument("--json", metavar="OUT.json", help="template node paths (default: OUT.html with .json)")
    parser.add_argument("--template-json", metavar="FILE", help="also write the Template itself (JSON)")
    parser.add_argument("-n", type=int, default=3, help="complete subdigraph size (default 3)")
    parser.add_argument("-t", type=int, default=3, help="votes a template node needs (default 3: all n)")


@contextlib.contextmanager
def _base_url(args: argparse.Namespace) -> Iterator[str]:
    if args.url:
        yield args.url
        return
    from newscrawl.demo.server import serve_directory

    with serve_directory(args.site) as served:
        yield served.url("/")


def _fetcher(site: str) -> Callable[[str], bytes | None]:
    host = urlsplit(site).netloc

    def fetch(url: str) -> bytes | None:
        if urlsplit(url).netloc != host:
            return None
        request = urllib.request.Request(url, headers={"User-Agent": "newscrawl-template"})
        try:
            with urllib.request.urlopen(request, timeout=20) as response:
                if "html" not in (response.headers.get("Content-Type") or "text/html"):
                    return None
                return response.read()
        except OSError:
            return None

    return fetch


def run(args: argparse.Namespace) -> int:
    from newscrawl.template.detect import learn_template
    from newscrawl.template.view import toggle_view

    with _base_url(args) as base:
        key: str | None = args.keypage
        if "://" not in args.keypage:
            key = join_url(base, args.keypage.lstrip("/") if args.site else args.keypage)
        if key is None or not valid_url(key) or not valid_url(base):
            print(f"malformed URL: {args.keypage if valid_url(base) else base}", file=sys.stderr)
            return 2
        fetch = _fetcher(base)
        key_html = fetch(key)
        if key_html is None:
            print(f"cannot load the key page {key}", file=sys.stderr)
            return 2
        learned = learn_template(key, fetch, key_html=key_html, n=args.n, t=args.t)
    template = learned.template
    if template is None:
        print(f"no complete subdigraph found from {key} ({len(learned.loaded)} pages loaded)", file=sys.stderr)
        return 1
    root = lxml_html.document_fromstring(key_html)
    for script in root.xpath("//script"):
        script.drop_tree()  # a static view: the page's scripts would rewrite or hide it
    Path(args.html).write_text(toggle_view(root, template, base_url=key), encoding="utf-8")
    json_path = Path(args.json) if args.json else Path(args.html).with_suffix(".json")
    json_path.write_text(json.dumps(template.paths, indent=1), encoding="utf-8")
    if args.template_json:
        Path(args.template_json).write_text(template.to_json(), encoding="utf-8")
    print(
        json.dumps(
            {
                "key_page": key,
                "template": template.id,
                "nodes": template.size,
                "key_page_nodes": template.key_nodes,
                "cs": learned.cs,
                "loaded": len(learned.loaded),
                "html": str(args.html),
                "json": str(json_path),
            }
        )
    )
    return 0
