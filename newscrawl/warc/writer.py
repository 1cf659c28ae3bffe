"""WARC/1.1 files out of a crawl: :class:`WarcWriter` (plain Python; the Scrapy adapter is
:mod:`newscrawl.warc.middleware`).

Each file starts with a ``warcinfo`` record; each fetched response becomes a ``response`` record
(HTTP status line, headers and the body as received) followed by its ``request`` record
(``WARC-Concurrent-To`` the response), each record one gzip member, with ``WARC-Block-Digest``
and ``WARC-Payload-Digest`` (sha1, base32, computed by warcio). Files are named as Heritrix names
them, ``<prefix>-<timestamp17>-<serial>-<pid>~<host>.warc.gz``, so crawl workers writing into one
directory never share a file, and rotated once a file would grow past ``max_bytes``.

Crash safety: the two records of a response are compressed in memory and handed to the kernel in
one ``os.write`` on an unbuffered descriptor before the response goes on to the spider, so an item
that reached the feed always has its records on disk, also after SIGKILL. A kill can at most leave
a torn last member; readers skip it (``newscrawl.warc.reader``), and a resumed crawl
(``JOBDIR``) cuts its earlier files back to their last whole record with :func:`repair` before it
opens new ones (a file is never appended to after a restart).
"""

from __future__ import annotations

import io
import logging
import os
import socket
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

GZIP_LEVEL = 6  # warcio's own writer uses 9: a third slower for a few percent smaller files
SUFFIX = ".warc.gz"


@dataclass(frozen=True)
class Location:
    """Where a response record was written: what an item's ``warc`` field holds."""

    file: str
    offset: int
    record_id: str
    date: str

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "offset": self.offset, "record_id": self.record_id, "date": self.date}


def _gzip_member(data: bytes) -> bytes:
    compressor = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, zlib.MAX_WBITS + 16)
    return compressor.compress(data) + compressor.flush()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def repair(path: str | os.PathLike[str]) -> int:
    """Cut a gzipped WARC file back to the end of its last whole gzip member (a kill's torn
    record); return the bytes removed. Reads the file once (about a second per 300 MB). A file
    that is not gzip from some point on is left as it is (readers resynchronise past the damage)."""
    path = Path(path)
    good = position = 0  # end of the last whole member; bytes fed to the decompressors so far
    decompressor = zlib.decompressobj(zlib.MAX_WBITS + 16)
    with path.open("rb") as handle:
        while block := handle.read(1 << 20):
            data = block
            while data:
                try:
                    decompressor.decompress(data)
                except zlib.error:
                    logger.warning("%s: not gzip after offset %d; left as it is", path, good)
                    return 0
                if not decompressor.eof:
                    position += len(data)
                    break
                rest = decompressor.unused_data
                position += len(data) - len(rest)
                good = position
                decompressor = zlib.decompressobj(zlib.MAX_WBITS + 16)
                data = rest
    size = path.stat().st_size
    if good < size:
        with path.open("r+b") as handle:
            handle.truncate(good)
        logger.warning("%s: torn last record removed (%d bytes)", path, size - good)
    return size - good


class WarcWriter:
    """Writes request/response pairs into rotating WARC/1.1 files in ``directory``."""

    def __init__(
        self,
        directory: str | os.PathLike[str],
        *,
        prefix: str = "newscrawl",
        max_bytes: int = 10**9,
        info: dict[str, Any] | None = None,
    ) -> None:
        from warcio.warcwriter import WARCWriter

        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.prefix, self.max_bytes = prefix, max(1, int(max_bytes))
        self.info = dict(info or {})
        self.host = socket.gethostname().split(".")[0] or "localhost"
        self.buffer = io.BytesIO()
        self.builder = WARCWriter(self.buffer, gzip=False, warc_version="1.1")
        self.serial = 0
        self.fd: int | None = None
        self.name = ""
        self.size = 0
        self.records = 0  # in the current file, after its warcinfo
        self.files: list[Path] = []
        self.written = 0  # bytes, all files

    # --- records ----------------------------------------------------------------------------------
    def _serialize(self, record: Any) -> bytes:
        self.buffer.seek(0)
        self.buffer.truncate()
        self.builder.write_record(record)
        return _gzip_member(self.buffer.getvalue())

    def _warcinfo(self, filename: str) -> bytes:
        import warcio

        import newscrawl

        fields = {
            "software": f"newscrawl/{newscrawl.__version__} warcio/{getattr(warcio, '__version__', '?')}",
            "format": "WARC File Format 1.1",
            "conformsTo": "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/",
            "hostname": socket.gethostname(),
            **{k: str(v) for k, v in self.info.items() if v is not None},
        }
        return self._serialize(self.builder.create_warcinfo_record(filename, fields))

    def write_exchange(
        self,
        *,
        url: str,
        method: str,
        request_headers: list[tuple[str, str]],
        request_body: bytes,
        protocol: str,
        status: int,
        reason: str,
        response_headers: list[tuple[str, str]],
        body: bytes,
        ip: str | None = None,
        when: datetime | None = None,
    ) -> Location:
        """Write a response record and its request record; return where the response is."""
        from urllib.parse import urlsplit

        from warcio.statusandheaders import StatusAndHeaders
        from warcio.timeutils import datetime_to_iso_date

        when = (when or datetime.now(UTC)).astimezone(UTC).replace(tzinfo=None)
        date = datetime_to_iso_date(when, use_micros=True)
        warc_headers = {"WARC-Date": date}
        if ip:
            warc_headers["WARC-IP-Address"] = ip
        http = StatusAndHeaders(f"{status} {reason}".strip(), response_headers, protocol=protocol)
        response = self.builder.create_warc_record(
            url,
            "response",
            payload=io.BytesIO(body),
            length=len(body),
            http_headers=http,
            warc_headers_dict=dict(warc_headers),
        )
        record_id = response.rec_headers.get_header("WARC-Record-ID")
        parts = urlsplit(url)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        if not any(name.lower() == "host" for name, _ in request_headers):
            request_headers = [("Host", parts.netloc), *request_headers]
        request_http = StatusAndHeaders(f"{method} {target} HTTP/1.1", request_headers, is_http_request=True)
        request = self.builder.create_warc_record(
            url,
            "request",
            payload=io.BytesIO(request_body),
            length=len(request_body),
            http_headers=request_http,
            warc_headers_dict={**warc_headers, "WARC-Concurrent-To": record_id},
        )
        first = self._serialize(response)
        data = first + self._serialize(request)
        if self.fd is None or (self.records and self.size + len(data) > self.max_bytes):
            self._rotate()
        assert self.fd is not None
        offset = self.size
        _write_all(self.fd, data)
        self.size += len(data)
        self.written += len(data)
        self.records += 2
        return Location(str(self.directory / self.name), offset, record_id, date)

    # --- files ------------------------------------------------------------------------------------
    def _rotate(self) -> None:
        self.close()
        while True:
            stamp = datetime.now(UTC).strftime("%Y%m%d%H%M%S%f")[:17]
            name = f"{self.prefix}-{stamp}-{self.serial:05d}-{os.getpid()}~{self.host}{SUFFIX}"
            self.serial += 1
            try:
                fd = os.open(self.directory / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o644)
            except FileExistsError:  # same millisecond and serial: the next serial
                continue
            break
        self.fd, self.name, self.records = fd, name, 0
        info = self._warcinfo(name)
        _write_all(fd, info)
        self.size = len(info)
        self.written += len(info)
        self.files.append(self.directory / name)
        logger.info("Writing WARC file %s", self.directory / name)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
