"""The CSS scanner against tinycss2 on every stylesheet of the saved sites and the hostile corpus.

For each saved site in ``../shared/sites/`` (read at run time, never copied): every stylesheet
file (``*.css*``) and every distinct ``<style>`` element of its pages; then the hostile tests'
stylesheets (``tests/css/_hostile.py``: 20 MB and 100,000 rules; ``tests/hostile/conftest.py``:
the 100,000-rule sheet and the import cycle). Each is read by ``split_rules`` and the whole
``parse_stylesheet`` and by tinycss2's own ``parse_stylesheet``
(``newscrawl.css.differential.first_difference``): same rules, same order, same imports, or the
script prints the first difference and exits 1.

Run: ``.venv/bin/python benchmarks/css_differential.py [--sites-dir DIR] [--no-hostile]``
(``.ci/test.sh`` runs it when ``../shared`` exists).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from newscrawl.css.differential import first_difference
from newscrawl.paths import shared_dir

REPO = Path(__file__).resolve().parent.parent
STYLE = re.compile(rb"<style\b[^>]*>(.*?)</style\s*>", re.DOTALL | re.IGNORECASE)


def site_stylesheets(site: Path) -> Iterator[tuple[str, str | bytes]]:
    """(name, css) of a saved site: stylesheet files as bytes (decoded as served: BOM,
    @charset, UTF-8), distinct <style> texts as str."""
    seen: set[bytes] = set()
    for path in sorted(site.rglob("*")):
        if not path.is_file():
            continue
        if ".css" in path.name.lower():
            yield str(path.relative_to(site)), path.read_bytes()
        elif path.suffix.lower() in (".html", ".htm"):
            for match in STYLE.finditer(path.read_bytes()):
                digest = hashlib.sha1(match.group(1)).digest()
                if digest not in seen:
                    seen.add(digest)
                    yield (f"{path.relative_to(site)} <style>",
                           match.group(1).decode("utf-8", "replace"))


def _module(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(path.stem.lstrip("_"), path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def hostile_stylesheets() -> Iterator[tuple[str, str | bytes]]:
    """The stylesheets of the hostile tests, as those tests build them."""
    css = _module(REPO / "tests" / "css" / "_hostile.py")
    yield "tests/css/_hostile.py twenty_mb", css.twenty_mb()
    yield "tests/css/_hostile.py hundred_k", css.hundred_k()
    crawl = _module(REPO / "tests" / "hostile" / "conftest.py")
    yield "tests/hostile/conftest.py huge_css", crawl.huge_css()
    yield "tests/hostile/conftest.py a.css", '@import url("b.css");\nbody{color:#111}\n'
    yield "tests/hostile/conftest.py b.css", '@import url("a.css");\np{margin:0}\n'


def check(group: str, sheets: Iterator[tuple[str, str | bytes]]) -> tuple[int, int, float, str | None]:
    """(sheets, bytes, seconds, first difference or None) for one group of stylesheets."""
    count = size = 0
    started = time.perf_counter()
    for name, css in sheets:
        count += 1
        size += len(css)
        difference = first_difference(css, url=f"http://127.0.0.1/{name}")
        if difference is not None:
            return count, size, time.perf_counter() - started, f"{group}/{name}: {difference}"
    return count, size, time.perf_counter() - started, None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sites-dir", type=Path, default=None,
                        help="folder of saved sites (default ../shared/sites)")
    parser.add_argument("--no-hostile", action="store_true", help="leave out the hostile corpus")
    args = parser.parse_args()
    sites_dir = args.sites_dir or shared_dir() / "sites"
    groups: list[tuple[str, Iterator[tuple[str, str | bytes]]]] = [
        (site.name, site_stylesheets(site)) for site in sorted(sites_dir.iterdir()) if site.is_dir()]
    if not args.no_hostile:
        groups.append(("hostile", hostile_stylesheets()))
    print(f"{'group':12} {'sheets':>6} {'MB':>6} {'seconds':>8}  result")
    failed = None
    for group, sheets in groups:
        count, size, seconds, difference = check(group, sheets)
        print(f"{group:12} {count:6d} {size / 1e6:6.2f} {seconds:8.1f}  "
              f"{'same as tinycss2' if difference is None else 'DIFFERS'}")
        failed = failed or difference
    if failed is not None:
        print("\nfirst difference:", failed)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
