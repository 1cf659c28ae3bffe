"""Screenshot check of the template toggle view in headless Chromium (optional: needs the Debian
``chromium`` package; not part of the test suite).

    .venv/bin/python benchmarks/template_view.py [--out DIR] [--site DIR] [--key PATH]

For a key page of the demo site (or of a saved site folder), served on 127.0.0.1: learn the
template, write the view, and take two screenshots while the server is still up (so the page's
stylesheets load): the view as written (template dimmed and outlined) and the same view with the
template hidden (the toggle's state). Prints the files, the share of pixels that differ between
the two, and exits 1 when the screenshots are identical (the view would show nothing).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

from lxml import html as lxml_html

from newscrawl.template.detect import learn_template
from newscrawl.template.view import toggle_view


def screenshot(chromium: str, page: Path, png: Path) -> None:
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--window-size=1280,1800", f"--screenshot={png}", page.as_uri()],
                   check=True, capture_output=True, timeout=120)


def differing_share(a: Path, b: Path) -> float:
    """Share of differing bytes of the two PNGs' pixel data (zlib-decoded IDAT, same size)."""
    import struct
    import zlib

    def pixels(path: Path) -> bytes:
        data, pos, out = path.read_bytes(), 8, b""
        while pos < len(data):
            length, kind = struct.unpack(">I4s", data[pos:pos + 8])
            if kind == b"IDAT":
                out += data[pos + 8:pos + 8 + length]
            pos += 12 + length
        return zlib.decompress(out)

    pa, pb = pixels(a), pixels(b)
    if len(pa) != len(pb):
        return 1.0
    return sum(x != y for x, y in zip(pa, pb)) / len(pa)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=None, help="folder for view.html and the screenshots")
    parser.add_argument("--site", help="saved site folder (default: the demo site)")
    parser.add_argument("--key", default="/politics/", help="key page path")
    args = parser.parse_args(argv)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("chromium not installed (apt-get install chromium): nothing to check")
        return 2
    out = Path(args.out or tempfile.mkdtemp(prefix="newscrawl-view-"))
    out.mkdir(parents=True, exist_ok=True)
    from newscrawl.demo.server import serve_directory, serve_site
    from newscrawl.demo.site import build_demo_site

    ctx = serve_directory(args.site) if args.site else serve_site(build_demo_site())
    with ctx as served:
        url = served.url(args.key)

        def fetch(u: str) -> bytes | None:
            try:
                with urllib.request.urlopen(u, timeout=10) as resp:  # 127.0.0.1 only
                    return resp.read()
            except OSError:
                return None

        learned = learn_template(url, fetch)
        if learned.template is None:
            print("no template found")
            return 1
        root = lxml_html.document_fromstring(fetch(url))
        for script in root.xpath("//script"):
            script.drop_tree()
        view = toggle_view(root, learned.template, base_url=url)
        shown, hidden = out / "view.html", out / "view-hidden.html"
        shown.write_text(view, encoding="utf-8")
        hidden.write_text(view.replace("<body", '<body data-newscrawl="hidden"', 1)
                          .replace("</head>", "<script>document.addEventListener('DOMContentLoaded',"
                                   "function(){document.body.classList.add('newscrawl-hide')})</script></head>", 1),
                          encoding="utf-8")
        screenshot(chromium, shown, out / "view.png")
        screenshot(chromium, hidden, out / "view-hidden.png")
    share = differing_share(out / "view.png", out / "view-hidden.png")
    print(f"template {learned.template.id}: {learned.template.size} nodes; screenshots {out / 'view.png'} "
          f"and {out / 'view-hidden.png'}; {share:.1%} of pixel bytes differ")
    return 0 if share > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
