"""Crawler traps of the demo site (``build_demo_site(traps=True)``), linked from the footer's
"Archive tools" block on every page.

- ``/calendar/?month=YYYY-MM``: links the previous and next month, forever (any year).
- ``/archive/page/N/``: endless pagination, every page links ``N+1``.
- ``/session/?sid=<hex>``: each page links fresh session ids (``sid`` = sha1 of the previous one).
- ``/loop/a``: 302 to ``/loop/b``, which 302s back to ``/loop/a``.
- ``/trap/binary.html``: 64 KiB of random bytes served as ``text/html``.
- ``/trap/oversize/``: an HTML page of ``oversize_bytes`` (default 20 MiB, above the 16 MiB
  ``DOWNLOAD_MAXSIZE`` of ``newscrawl.profiles``), streamed, never held in memory.
- ``/trap/slow/``: a small page trickled in ``slow_chunks`` pieces over ``slow_seconds`` (default
  3 s; pass more than the crawl's ``DOWNLOAD_TIMEOUT`` to exercise the timeout).
- ``/trap/long/?q=...``: the link's URL is ``long_url_bytes`` long; answered 414 like real servers
  (``http.server`` itself refuses request lines over 64 KiB with 414).
- ``/a/b/``: a relative link ``a/b/`` that resolves to ``/a/b/a/b/``, ``/a/b/a/b/a/b/``, ...

Each trap is deterministic (same request, same bytes) except for the wall-clock pacing of the slow
page. None of these paths is in ``Site.truth``: the truth lists the finite site only.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import parse_qs

from newscrawl.demo.response import HTML, Response, ok, redirect

SID0 = "5f1c9a2e7b3d4c60"
MAX_REQUEST_TARGET = 8192
_MONTH = re.compile(r"^(-?\d{1,9})-(\d{2})$")
_ARCHIVE = re.compile(r"^/archive/page/(\d{1,12})/$")
_RELATIVE = re.compile(r"^/a/b/(?:a/b/)*$")


def _page(title: str, body: str) -> str:
    return (
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{title}</title>'
        f'<link rel="stylesheet" href="/static/css/main.css"></head><body>'
        f'<header><a href="/">The Prairie Ledger</a></header><main><h1>{title}</h1>{body}</main>'
        "</body></html>"
    )


def next_sid(sid: str) -> str:
    return hashlib.sha1(sid.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Traps:
    oversize_bytes: int = 20 * 1024 * 1024
    slow_seconds: float = 3.0
    slow_chunks: int = 12
    long_url_bytes: int = 100_000

    def links(self) -> tuple[tuple[str, str], ...]:
        return (
            ("/calendar/?month=2025-03", "Event calendar"),
            ("/archive/page/1/", "Complete archive"),
            (f"/session/?sid={SID0}", "My reading list"),
            ("/loop/a", "Old archive address"),
            ("/trap/binary.html", "Print edition"),
            ("/trap/oversize/", "Every story on one page"),
            ("/trap/slow/", "Live election ticker"),
            ("/trap/long/?q=" + "x" * (self.long_url_bytes - len("/trap/long/?q=")), "Search all"),
            ("/a/b/", "Reader map"),
        )

    def resolve(self, path: str, query: str) -> Response | None:
        """The trap answer for this request, or None when the path is not a trap."""
        params = parse_qs(query)
        if path == "/calendar/":
            return self._calendar(params.get("month", ["2025-03"])[0])
        if m := _ARCHIVE.match(path):
            n = int(m.group(1))
            return ok(
                _page(
                    f"Archive page {n}",
                    f"<p>Stories from the archive, part {n}.</p>"
                    f'<a class="next" href="/archive/page/{n + 1}/">Next page</a>',
                )
            )
        if path == "/session/":
            sid = next_sid(params.get("sid", [SID0])[0])
            return ok(
                _page(
                    "Your reading list",
                    (
                        f'<a href="/session/?sid={sid}">Refresh list</a> '
                        f'<a href="/politics/?sid={sid}">Politics</a> '
                        f'<a href="/session/?sid={next_sid(sid)}&amp;view=compact">Compact view</a>'
                    ),
                )
            )
        if path == "/loop/a":
            return redirect("/loop/b", 302)
        if path == "/loop/b":
            return redirect("/loop/a", 302)
        if path == "/trap/binary.html":
            return ok(random.Random(404).randbytes(64 * 1024))
        if path == "/trap/oversize/":
            return self._oversize()
        if path == "/trap/slow/":
            return self._slow()
        if path == "/trap/long/":
            return Response(414, {"Content-Type": HTML}, b"<h1>414 Request-URI Too Long</h1>")
        if _RELATIVE.match(path):
            depth = path.count("/a/b/")
            return ok(_page(f"Reader map, level {depth}", '<p>Pick a region.</p><a href="a/b/">Look closer</a>'))
        return None

    def _calendar(self, month: str) -> Response:
        m = _MONTH.match(month)
        if not m or not 1 <= int(m.group(2)) <= 12:
            return ok(_page("Event calendar", "<p>Unknown month.</p>"))
        year, mon = int(m.group(1)), int(m.group(2))
        prev = f"{year - 1}-12" if mon == 1 else f"{year}-{mon - 1:02d}"
        nxt = f"{year + 1}-01" if mon == 12 else f"{year}-{mon + 1:02d}"
        return ok(
            _page(
                f"Events in {year}-{mon:02d}",
                (
                    '<table class="calendar"><tr><td>No events</td></tr></table>'
                    f'<a class="prev" href="/calendar/?month={prev}">&lsaquo; {prev}</a> '
                    f'<a class="next" href="/calendar/?month={nxt}">{nxt} &rsaquo;</a>'
                ),
            )
        )

    def _oversize(self) -> Response:
        head = _page("Every story", "<div>").encode()[: -len("</main></body></html>")]
        tail = b"</div></main></body></html>"
        para = b"<p>" + b"The archive keeps going and going. " * 28 + b"</p>\n"
        total = max(self.oversize_bytes, len(head) + len(tail))

        def chunks() -> Iterator[bytes]:
            yield head
            left = total - len(head) - len(tail)
            while left > 0:
                piece = para[:left] if left < len(para) else para
                left -= len(piece)
                yield piece
            yield tail

        return Response(200, {"Content-Type": HTML}, stream=chunks, length=total)

    def _slow(self) -> Response:
        body = _page("Live election ticker", "<p>Results are coming in.</p>" * 20).encode()
        n = max(1, self.slow_chunks)
        size = -(-len(body) // n)
        pieces = [body[i : i + size] for i in range(0, len(body), size)]
        return Response(
            200,
            {"Content-Type": HTML},
            stream=lambda: iter(pieces),
            length=len(body),
            chunk_delay=self.slow_seconds / len(pieces),
        )
