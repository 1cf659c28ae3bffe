"""A tiny local HTTP server for demo sites and saved site folders (tests, benchmarks, demos).

API
---
``serve_site(site, host="127.0.0.1", port=0, *, log=True)`` (context manager) -> ``Served``
    Serves any ``Site`` (``newscrawl.demo.site``) from a ``ThreadingHTTPServer`` in a daemon
    thread. Pages are rendered per request with the server's real ``base_url``.
``serve_directory(path, host="127.0.0.1", port=0, *, log=True)`` -> ``Served``
    Same for a saved site folder: ``/x/`` serves ``/x/index.html``; a request ``/p?q`` serves the
    file ``p﹖q`` (U+FE56, how site downloaders store query URLs; also ``p﹖q.<ext>`` with the
    extension the downloader appended, and ``stem﹖q.ext`` for ``stem.ext?q``) when it exists,
    else ``p`` with the query ignored. Percent-encoded names (``%EF%B9%96``) are decoded.
``conditional=True`` (both): 200 answers carry an ``ETag`` (hash of the body) and a request whose
    ``If-None-Match`` names it gets ``304 Not Modified`` (watch tests); off by default.
``Served``: ``.base_url`` ("http://127.0.0.1:54321"), ``.url(path)``, and a thread-safe request log:
    ``.hits`` (Counter of request targets, path + query as sent), ``.requests`` (list of
    ``Hit(method, target, status)``), ``.reset()``; ``.site``. ``log=False`` records nothing (long
    benchmarks). For off-site tests run a second server on ``host="127.0.0.2"`` (all of 127/8 is
    loopback on Linux) and pass its ``base_url`` as ``build_demo_site(offsite_base=...)``: another
    host, so another site, whose ``hits`` show whether anything was fetched from it.

``python -m newscrawl.demo.server [--dir PATH | --large N | --publish SECONDS] [--traps] [--seed S] [--port N]
[--host H] [--truth FILE]`` serves in the foreground (``--port 0`` picks a free port; the first
line printed names the URL); ``--truth`` writes the gold truth as JSON Lines first.

Decisions: HTTP/1.1 with Content-Length on every answer, so Scrapy keeps connections alive; a
listen backlog of 128 and one thread per connection handle Scrapy's 16 concurrent requests;
streamed answers (oversize, slow trap pages) are written chunk by chunk; request logging is quiet.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import mimetypes
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import quote

from newscrawl.demo.base import Site, split_target
from newscrawl.demo.model import PageTruth
from newscrawl.demo.response import CSS, HTML, RSS, TEXT, XML, Response, not_found, ok, redirect
from newscrawl.demo.site import build_demo_site, build_large_site

FE56 = "\ufe56"
SAVED_SUFFIXES = ("", ".html", ".xml", ".json", ".css", ".rss", ".txt")
CONTENT_TYPES = {
    ".html": HTML,
    ".htm": HTML,
    ".css": CSS,
    ".rss": RSS,
    ".xml": XML,
    ".txt": TEXT,
    ".json": "application/json",
    ".js": "text/javascript",
}


@dataclass(frozen=True)
class Hit:
    method: str
    target: str
    status: int


class Served:
    """A running server: its base URL, its site and the log of what was requested.

    With ``log=False`` nothing is recorded (long benchmarks: the log would grow with the crawl).
    """

    def __init__(self, httpd: ThreadingHTTPServer, site: Site, log: bool = True) -> None:
        host, port = httpd.server_address[:2]
        self.base_url = f"http://{host!s}:{port}"
        self.site = site
        self.log = log
        self.hits: Counter[str] = Counter()
        self.requests: list[Hit] = []
        self._lock = threading.Lock()

    def url(self, path: str) -> str:
        return self.base_url + path

    def record(self, method: str, target: str, status: int) -> None:
        if not self.log:
            return
        with self._lock:
            self.hits[target] += 1
            self.requests.append(Hit(method, target, status))

    def reset(self) -> None:
        with self._lock:
            self.hits.clear()
            self.requests.clear()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # headers and body are separate writes: without TCP_NODELAY, Nagle + delayed ACK add ~40 ms
    # to every keep-alive request
    disable_nagle_algorithm = True
    timeout = 60  # idle keep-alive connections free their thread after a minute
    server: _Server

    def do_GET(self) -> None:  # noqa: N802 (http.server naming)
        self._answer(send_body=True)

    def do_HEAD(self) -> None:  # noqa: N802
        self._answer(send_body=False)

    def _answer(self, send_body: bool) -> None:
        served = self.server.served
        try:
            resp = self.server.site.resolve(self.path, served.base_url)
        except Exception:  # a broken page must not kill the test server
            resp = Response(500, {"Content-Type": HTML}, b"<h1>500</h1>")
        if self.server.conditional and resp.status == 200 and resp.stream is None:
            etag = f'"{hashlib.sha1(resp.body).hexdigest()[:20]}"'
            resp.headers = {**resp.headers, "ETag": etag}
            if self.headers.get("If-None-Match") == etag:
                resp = Response(304, {"ETag": etag})
        served.record(self.command, self.path, resp.status)
        self.send_response(resp.status)
        for name, value in resp.headers.items():
            self.send_header(name, value)
        length = resp.length if resp.stream is not None else len(resp.body)
        self.send_header("Content-Length", str(length))
        self.end_headers()
        if not send_body:
            return
        try:
            if resp.stream is None:
                self.wfile.write(resp.body)
                return
            for chunk in resp.stream():
                if resp.chunk_delay:
                    time.sleep(resp.chunk_delay)
                self.wfile.write(chunk)
                if resp.chunk_delay:
                    self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (base signature)
        """Quiet: tests read ``Served.requests`` instead."""


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128

    def __init__(self, address: tuple[str, int], site: Site, log: bool, conditional: bool = False) -> None:
        super().__init__(address, _Handler)
        self.site = site
        self.conditional = conditional
        self.served = Served(self, site, log)

    def handle_error(self, request: object, client_address: object) -> None:
        """Clients that hang up mid-answer (timeouts, max size) are normal here."""


@contextmanager
def serve_site(
    site: Site, host: str = "127.0.0.1", port: int = 0, *, log: bool = True, conditional: bool = False
) -> Iterator[Served]:
    httpd = _Server((host, port), site, log, conditional)
    thread = threading.Thread(
        target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True, name="newscrawl-demo-server"
    )
    thread.start()
    try:
        yield httpd.served
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


class DirectorySite(Site):
    """A saved site folder behind the ``Site`` interface (no truth: ``truth`` is empty)."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root).resolve()
        if not self.root.is_dir():
            raise NotADirectoryError(str(self.root))
        self.truth: dict[str, PageTruth] = {}

    def _file(self, rel: str) -> Path | None:
        """The file behind ``rel`` inside the root; None for misses, escapes and names the OS
        refuses (too long, NUL bytes)."""
        try:
            candidate = (self.root / rel.lstrip("/")).resolve()
            if not candidate.is_relative_to(self.root):
                return None
            if candidate.is_dir():
                candidate = candidate / "index.html"
            return candidate if candidate.is_file() else None
        except (OSError, ValueError):
            return None

    def find(self, path: str, query: str) -> Path | None:
        if query:
            from_query = [f"{path}{FE56}{query}{suffix}" for suffix in SAVED_SUFFIXES]
            stem, dot, ext = path.rpartition(".")
            if dot and "/" not in ext:
                from_query.append(f"{stem}{FE56}{query}.{ext}")
            for rel in from_query:
                if found := self._file(rel):
                    return found
        return self._file(path)

    def resolve(self, path_and_query: str, base_url: str = "") -> Response:
        path, query = split_target(path_and_query)
        found = self.find(path, query)
        if found is None:
            return not_found()
        if found.name == "index.html" and not path.endswith(("/", ".html")):
            return redirect(quote(path) + "/" + (f"?{query}" if query else ""))
        ctype = CONTENT_TYPES.get(found.suffix.lower()) or mimetypes.guess_type(found.name)[0]
        return ok(found.read_bytes(), ctype or "application/octet-stream")


@contextmanager
def serve_directory(
    path: str | Path, host: str = "127.0.0.1", port: int = 0, *, log: bool = True, conditional: bool = False
) -> Iterator[Served]:
    with serve_site(DirectorySite(path), host, port, log=log, conditional=conditional) as served:
        yield served


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m newscrawl.demo.server", description=__doc__.split("\n")[0])
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--dir", help="serve a saved site folder instead of the demo site")
    what.add_argument("--large", type=int, metavar="N", help="serve a lazily generated site of N pages")
    what.add_argument(
        "--publish",
        type=float,
        metavar="SECONDS",
        help="demo site that publishes a held-back article every SECONDS (and corrects some)",
    )
    parser.add_argument("--traps", action="store_true", help="add the crawler traps to the demo site")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--truth", type=Path, metavar="FILE", help="also write the site's truth as JSON Lines (one page a line)"
    )
    args = parser.parse_args(argv)
    if args.dir:
        site: Site = DirectorySite(args.dir)
    elif args.large:
        site = build_large_site(args.large, seed=args.seed)
    elif args.publish:
        from newscrawl.demo.publishing import PublishingSite

        site = PublishingSite(args.seed, every=args.publish)
    else:
        site = build_demo_site(args.seed, traps=args.traps)
    if args.truth:
        with args.truth.open("w", encoding="utf-8") as fh:
            for record in site.truth_records():
                fh.write(json.dumps(record, ensure_ascii=False) + "\n")
    with serve_site(site, args.host, args.port, log=False, conditional=bool(args.publish)) as served:
        print(f"Serving on {served.base_url}/ (Ctrl-C to stop)", flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
