"""What a demo site answers for one request, independent of any HTTP server.

A ``Response`` carries either a complete ``body`` or a ``stream`` of chunks (for the oversize and
slow trap pages, which must not be held in memory or must trickle), plus an optional delay the
server sleeps before each chunk. Redirects are plain responses with a ``Location`` header.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

HTML = "text/html; charset=utf-8"
CSS = "text/css; charset=utf-8"
RSS = "application/rss+xml; charset=utf-8"
ATOM = "application/atom+xml; charset=utf-8"
XML = "application/xml; charset=utf-8"
TEXT = "text/plain; charset=utf-8"


@dataclass
class Response:
    """status, headers (incl. Content-Type), and either ``body`` or ``stream`` + ``length``."""

    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    stream: Callable[[], Iterator[bytes]] | None = None
    length: int | None = None
    chunk_delay: float = 0.0

    @property
    def content_type(self) -> str:
        return self.headers.get("Content-Type", "")

    @property
    def location(self) -> str | None:
        return self.headers.get("Location")

    @property
    def is_redirect(self) -> bool:
        return 300 <= self.status < 400

    def read(self) -> bytes:
        """The whole body (joins a stream; meant for tests and small pages)."""
        if self.stream is None:
            return self.body
        return b"".join(self.stream())

    def text(self) -> str:
        return self.read().decode("utf-8", errors="replace")


def ok(body: str | bytes, content_type: str = HTML) -> Response:
    data = body.encode("utf-8") if isinstance(body, str) else body
    return Response(200, {"Content-Type": content_type}, data)


def redirect(location: str, status: int = 301) -> Response:
    return Response(status, {"Location": location, "Content-Type": HTML}, f'<a href="{location}">moved</a>'.encode())


def not_found() -> Response:
    return Response(
        404,
        {"Content-Type": HTML},
        b"<!DOCTYPE html><html><head><title>Not found</title></head><body><h1>Page not found</h1></body></html>",
    )
