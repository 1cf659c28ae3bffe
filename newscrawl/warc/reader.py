"""Streaming WARC and ARC reading that survives broken files: :func:`iter_responses`.

warcio parses the records (WARC 1.0/1.1, ARC, gzipped per record or plain, chunked transfer
encoding, gzip/deflate/brotli content encoding). What warcio does not do is go on after a broken
record: its iterator raises and the rest of the file is lost. Here a failure is counted, logged
once, and reading resumes at the next record start after the last whole record (the next gzip
member of a gzipped file, the next ``WARC/1.`` line of a plain one). A gzip file that is one
member for the whole file (not seekable per record) is read again as one decompressed stream;
its records then have no offset.

Only what extraction needs is decoded: the payload of ``response`` records (and of ``revisit``
records resolved against an earlier response of the same file by payload digest); every other
record is skipped without decompressing its payload beyond what the format needs, and counted.
"""

from __future__ import annotations

import gzip
import logging
import re
import zlib
from collections import Counter, OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Any, cast

logger = logging.getLogger(__name__)

HTML_TYPES = ("text/html", "application/xhtml+xml", "application/xml+xhtml", "application/vnd.wap.xhtml+xml")
# A page body larger than this is not extracted (counted as too_large): the core cuts its input far below it.
MAX_BODY_BYTES = 32 * 1024 * 1024
# Payload digests of earlier HTML responses kept per file to resolve revisits (LRU beyond it: flat memory).
REVISIT_MEMORY = 100_000
_SNIFF = re.compile(rb"^\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|head|body)\b", re.IGNORECASE | re.DOTALL)
_GZIP_MAGIC = b"\x1f\x8b\x08"
_WARC_START = b"\nWARC/1."
_SCAN_BLOCK = 1 << 20


def require_warcio() -> Any:
    """warcio's ArchiveIterator, or SystemExit naming the extra that brings it."""
    try:
        from warcio.archiveiterator import ArchiveIterator
    except ImportError:
        raise SystemExit(
            "newscrawl: reading or writing WARC files needs warcio: pip install 'newscrawl[warc]'"
        ) from None
    return ArchiveIterator


@dataclass
class Response:
    """An HTTP response read from a WARC/ARC file, payload decoded (transfer and content encoding)."""

    url: str
    status: int
    content_type: str  # the HTTP Content-Type value ("" when absent)
    body: bytes
    file: str
    offset: int | None  # of the record in the file (None inside a whole-file gzip)
    record_id: str | None
    date: str | None  # WARC-Date (ARC: the record's date, as warcio converts it)
    revisit_of: str | None = None  # for a resolved revisit: the record id of the response it repeats

    @property
    def is_html(self) -> bool:
        kind = self.content_type.split(";", 1)[0].strip().lower()
        if kind:
            return kind in HTML_TYPES
        return bool(_SNIFF.match(self.body[:1024]))  # no Content-Type: what the bytes say


class Counts(Counter[str]):
    """What a read met: ``records``, per record type, ``broken``, ``html``, ``not_html``, ``not_200``, ..."""


@contextmanager
def open_input(path: str) -> Iterator[IO[bytes]]:
    """A local path, or a URL (``s3://``, ``https://``, ...) through fsspec when it is installed."""
    if "://" in path and not path.startswith("file://"):
        try:
            import fsspec
        except ImportError:
            raise OSError(f"{path}: reading URLs needs fsspec (pip install fsspec, plus s3fs for s3://)") from None
        with fsspec.open(path, "rb") as handle:
            yield handle
        return
    with open(path.removeprefix("file://"), "rb") as handle:
        yield handle


def _find(handle: IO[bytes], start: int, marker: bytes) -> int | None:
    """Offset of the first ``marker`` at or after ``start`` (for ``\\nWARC/1.``: of the line), else None."""
    handle.seek(start)
    tail = b""
    position = start
    while True:
        block = handle.read(_SCAN_BLOCK)
        if not block:
            return None
        data = tail + block
        found = data.find(marker)
        if found >= 0:
            hit = position - len(tail) + found
            return hit + 1 if marker.startswith(b"\n") else hit
        tail = data[-(len(marker) - 1) :]
        position += len(block)


def _http_status(record: Any) -> int | None:
    headers = record.http_headers
    if headers is None:
        return None
    try:
        return int(headers.get_statuscode())
    except (TypeError, ValueError):
        return None


def _read_payload(record: Any, counts: Counts) -> bytes | None:
    """The decoded payload, None when it is over MAX_BODY_BYTES or cannot be decoded (counted)."""
    try:
        body = record.content_stream().read(MAX_BODY_BYTES + 1)
    except Exception as exc:  # a broken chunk or compressed stream: that record only
        counts["broken"] += 1
        logger.warning(
            "WARC record %s: payload not decodable (%s: %s); skipped",
            record.rec_headers.get_header("WARC-Record-ID"),
            exc.__class__.__name__,
            exc,
        )
        return None
    if len(body) > MAX_BODY_BYTES:
        counts["too_large"] += 1
        return None
    return bytes(body)


class _FileReader:
    """One file's records as :class:`Response` objects, resynchronising after broken records."""

    def __init__(
        self,
        name: str,
        handle: IO[bytes],
        counts: Counts,
        seekable: bool | None = None,
        skip: int = 0,
        want: str = "html",
    ) -> None:
        self.name, self.handle, self.counts, self.want = name, handle, counts, want
        self.skip = skip  # records at the start already read (a whole-file gzip read again)
        self.digests: OrderedDict[str, int] = OrderedDict()  # payload digest -> offset of its HTML response
        self.seekable = self._seekable(handle) if seekable is None else seekable

    @staticmethod
    def _seekable(handle: IO[bytes]) -> bool:
        try:
            return bool(handle.seekable()) and handle.seek(0) == 0
        except (AttributeError, OSError, ValueError):
            return False

    def responses(self) -> Iterator[Response]:
        archive_iterator = require_warcio()
        start = 0
        while True:
            if self.seekable:
                self.handle.seek(start)
            iterator = archive_iterator(self.handle, arc2warc=True)
            end = start  # end of the last whole record
            last = start  # where that record starts
            # a response is handed on once the next record is read: the file's last one only when
            # its gzip member is whole (a torn one reads as a page cut short)
            pending: Response | None = None
            try:
                for record in iterator:
                    if self.skip:
                        self.skip -= 1
                        continue
                    response = self._response(record, iterator.offset if self.seekable else None)
                    offset, length = iterator.get_record_offset(), iterator.get_record_length()
                    last, end = offset, offset + length
                    self.counts["records"] += 1
                    if pending is not None:
                        yield pending
                    pending = response
                self._mismatches(iterator)
                if self._torn_member(last, end):
                    if pending is not None and pending.is_html:
                        self.counts["html"] -= 1  # counted as read; it is the broken one
                    return
                if pending is not None:
                    yield pending
                self._check_tail(end)
                return
            except Exception as exc:  # warcio raised on broken input: count it, find the next record
                if pending is not None:  # whole: the record after it broke
                    yield pending
                    pending = None
                self._mismatches(iterator)
                if "non-chunked gzip" in str(exc) and self.seekable:
                    yield from self._whole_gzip(skip=self.counts["records"])
                    return
                self.counts["broken"] += 1
                following = self._next_start(end) if self.seekable else None
                logger.warning(
                    "%s: broken WARC record after offset %d (%s: %s); %s",
                    self.name,
                    end,
                    exc.__class__.__name__,
                    str(exc).strip().splitlines()[0][:200] if str(exc).strip() else "",
                    f"reading on at offset {following}" if following is not None else "rest of file skipped",
                )
                if following is None:
                    return
                start = following

    def _torn_member(self, start: int, end: int) -> bool:
        """The last record's gzip member, ending at the end of the file, is cut short (a crawl
        killed mid-write inside it): warcio reads what there is as a record, which is none whole
        (a header block without its type, an HTTP block without its status). Counted broken."""
        if not self.seekable or end <= start:
            return False
        size = self.handle.seek(0, 2)
        self.handle.seek(start)
        if end != size or self.handle.read(2) != b"\x1f\x8b":
            return False
        self.handle.seek(start)
        member = zlib.decompressobj(31)
        remaining = end - start
        while remaining > 0 and not member.eof:
            chunk = self.handle.read(min(remaining, 1 << 16))
            if not chunk:
                break
            remaining -= len(chunk)
            member.decompress(chunk)  # output dropped: only whether the member ends is read
        if member.eof:
            return False
        self.counts["broken"] += 1
        logger.warning("%s: the last record at %d is cut short (a torn gzip member) and skipped", self.name, start)
        return True

    def _check_tail(self, end: int) -> None:
        """warcio ends quietly at a torn last record (a crawl killed mid-write): count it."""
        if not self.seekable:
            return
        size = self.handle.seek(0, 2)
        self.handle.seek(end)
        if size > end and self.handle.read(min(size - end, 1 << 16)).strip(b"\r\n\t \x00"):
            self.counts["broken"] += 1
            logger.warning(
                "%s: %d bytes after the last whole record at %d (a torn record) skipped", self.name, size - end, end
            )

    def _mismatches(self, iterator: Any) -> None:
        """Records whose Content-Length did not end at a record boundary (warcio read on after them)."""
        if iterator.err_count:
            self.counts["length_mismatch"] += iterator.err_count

    def _next_start(self, end: int) -> int | None:
        """The next record start after the one that failed (which started at or after ``end``)."""
        self.handle.seek(end)
        gzipped = self.handle.read(3) == _GZIP_MAGIC
        return _find(self.handle, end + 1, _GZIP_MAGIC if gzipped else _WARC_START)

    def _whole_gzip(self, skip: int) -> Iterator[Response]:
        """A file gzipped as one member: read as one stream; records already yielded are skipped."""
        self.counts["whole_file_gzip"] += 1
        logger.warning(
            "%s: gzipped as one stream, not one member per record (warcio recompress fixes "
            "it); read without record offsets",
            self.name,
        )
        self.handle.seek(0)
        yield from _FileReader(
            self.name,
            cast(IO[bytes], gzip.GzipFile(fileobj=self.handle)),
            self.counts,
            seekable=False,
            skip=skip,
            want=self.want,
        ).responses()

    def _response(self, record: Any, offset: int | None) -> Response | None:
        kind = record.rec_type or "unknown"
        self.counts[kind] += 1
        if kind == "revisit":
            return self._revisit(record, offset) if self.want == "html" else None
        if kind != "response":
            return None
        status = _http_status(record)
        if status is None:
            self.counts["no_http"] += 1
            return None
        headers = record.rec_headers
        url = headers.get_header("WARC-Target-URI") or ""
        content_type = record.http_headers.get_header("Content-Type") or ""
        if status != 200:
            self.counts["not_200"] += 1
            return None
        if self.want == "css":  # the stylesheet index: where, not what
            if content_type.split(";", 1)[0].strip().lower() != "text/css":
                return None
            return Response(
                url,
                status,
                content_type,
                b"",
                self.name,
                offset,
                headers.get_header("WARC-Record-ID"),
                headers.get_header("WARC-Date"),
            )
        body = _read_payload(record, self.counts)
        if body is None:
            return None
        response = Response(
            url,
            status,
            content_type,
            body,
            self.name,
            offset,
            headers.get_header("WARC-Record-ID"),
            headers.get_header("WARC-Date"),
        )
        if not response.is_html:
            self.counts["not_html"] += 1
            return None
        digest = headers.get_header("WARC-Payload-Digest")
        if digest and offset is not None:
            self.digests[digest] = offset
            self.digests.move_to_end(digest)
            if len(self.digests) > REVISIT_MEMORY:
                self.digests.popitem(last=False)
        self.counts["html"] += 1
        return response

    def _revisit(self, record: Any, own_offset: int | None) -> Response | None:
        """A revisit (same payload as an earlier response): that response's payload at this URL and date."""
        status = _http_status(record)
        if status is not None and status != 200:
            self.counts["not_200"] += 1
            return None
        headers = record.rec_headers
        url = headers.get_header("WARC-Target-URI") or ""
        content_type = (record.http_headers.get_header("Content-Type") if record.http_headers else None) or ""
        digest = headers.get_header("WARC-Payload-Digest")
        offset = self.digests.get(digest) if digest else None
        original = _record_at(self.name, offset) if offset is not None else None
        if original is None:
            self.counts["revisit_unresolved"] += 1
            return None
        self.counts["revisit_resolved"] += 1
        self.counts["html"] += 1
        return Response(
            url,
            200,
            content_type or original.content_type,
            original.body,
            self.name,
            own_offset,
            headers.get_header("WARC-Record-ID"),
            headers.get_header("WARC-Date"),
            revisit_of=original.record_id,
        )


def _record_at(path: str, offset: int) -> Response | None:
    """The response record at ``offset`` of ``path``, payload decoded (the file opened anew: a main
    read of it may be going on)."""
    archive_iterator = require_warcio()
    try:
        with open_input(path) as handle:
            handle.seek(offset)
            for record in archive_iterator(handle, arc2warc=True):
                body = _read_payload(record, Counts()) if record.http_headers is not None else None
                if body is None:
                    return None
                headers = record.rec_headers
                return Response(
                    headers.get_header("WARC-Target-URI") or "",
                    _http_status(record) or 0,
                    record.http_headers.get_header("Content-Type") or "",
                    body,
                    path,
                    offset,
                    headers.get_header("WARC-Record-ID"),
                    headers.get_header("WARC-Date"),
                )
    except Exception as exc:
        logger.warning("%s: record at %d not readable (%s)", path, offset, exc)
    return None


def record_body(path: str, offset: int) -> bytes | None:
    """The decoded payload of the response record at ``offset`` of ``path`` (None if unreadable)."""
    response = _record_at(path, offset)
    return None if response is None else response.body


def iter_responses(path: str, counts: Counts | None = None, *, want: str = "html") -> Iterator[Response]:
    """The HTML responses with status 200 of one WARC or ARC file (gzipped or not, local path or
    fsspec URL), in file order; everything else is counted in ``counts``. Never raises for a bad
    file: a file that cannot be opened counts as ``unreadable_files``. ``want="css"``: the
    ``text/css`` 200 responses instead, without their payload (for the stylesheet index)."""
    counts = counts if counts is not None else Counts()
    try:
        with open_input(path) as handle:
            yield from _FileReader(path, handle, counts, want=want).responses()
    except OSError as exc:
        counts["unreadable_files"] += 1
        logger.error("%s: cannot read (%s)", path, exc.strerror or exc)
