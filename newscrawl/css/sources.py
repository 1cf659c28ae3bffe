"""The second tier of the stylesheet cache: downloaded sources that outlive one process.

The in-memory :class:`~newscrawl.css.store.StylesheetStore` holds parsed sheets for one process.
Behind it the middleware keeps each downloaded source (raw bytes and the URL it was finally
served from, which is the base of its ``@import`` s) where the next process finds it:

* a directory (``NEWSCRAWL_CSS_SOURCE_DIR``, by default ``JOBDIR/newscrawl-css``), so a resumed
  or a later crawl does not download the same stylesheets again;
* Redis (:class:`~newscrawl.distributed.state.RedisStylesheetCache`) in a distributed crawl, so
  one worker's download serves every worker.

Both store the same bytes per URL (:func:`pack`) and expire entries after
``NEWSCRAWL_CSS_SOURCE_EXPIRY`` seconds, since sites change their CSS. Only sources that passed
the middleware's checks (status 200, size, content type) are stored.
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path
from typing import Any, Protocol

from newscrawl.defaults import DEFAULTS


class SourceCache(Protocol):
    def get(self, url: str) -> bytes | None: ...

    def put(self, url: str, data: bytes) -> None: ...


def pack(final_url: str, body: bytes) -> bytes:
    """One stored entry: the final URL, a newline, the body."""
    return final_url.encode("utf-8") + b"\n" + body


def unpack(data: bytes) -> tuple[str, bytes]:
    """``(final_url, body)`` of an entry made by :func:`pack`; ValueError when it is not one."""
    head, sep, body = data.partition(b"\n")
    final_url = head.decode("utf-8")
    if not sep or not final_url.startswith(("http://", "https://")):
        raise ValueError("not a stored stylesheet")
    return final_url, body


class DiskStylesheetSources:
    """Sources as files named by a hash of their URL; an entry older than ``expiry`` is gone."""

    def __init__(self, directory: str | Path, expiry: float | None = 24 * 3600) -> None:
        self.directory = Path(directory)
        self.expiry = expiry or None

    def _file(self, url: str) -> Path:
        return self.directory / (hashlib.blake2b(url.encode("utf-8"), digest_size=12).hexdigest() + ".css")

    def get(self, url: str) -> bytes | None:
        path = self._file(url)
        try:
            if self.expiry is not None and time.time() - path.stat().st_mtime > self.expiry:
                path.unlink(missing_ok=True)
                return None
            return path.read_bytes()
        except FileNotFoundError:
            return None

    def put(self, url: str, data: bytes) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self._file(url)
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(data)
        tmp.replace(path)  # atomic: a crash never leaves half a stylesheet


def source_cache(settings: Any) -> SourceCache | None:
    """The second tier this crawl's settings ask for: Redis when distributed, else a directory
    (``NEWSCRAWL_CSS_SOURCE_DIR`` or ``JOBDIR/newscrawl-css``), else none (memory only)."""
    if settings.getbool("NEWSCRAWL_DISTRIBUTED"):
        from newscrawl.distributed.state import redis_stylesheet_cache

        return redis_stylesheet_cache(settings)
    directory = settings.get("NEWSCRAWL_CSS_SOURCE_DIR")
    if not directory and settings.get("JOBDIR"):
        directory = str(Path(settings.get("JOBDIR")) / "newscrawl-css")
    if not directory:
        return None
    expiry = settings.getfloat("NEWSCRAWL_CSS_SOURCE_EXPIRY", DEFAULTS["NEWSCRAWL_CSS_SOURCE_EXPIRY"])
    return DiskStylesheetSources(directory, expiry)
