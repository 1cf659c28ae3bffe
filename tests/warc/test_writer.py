"""The WARC writer on its own: names, warcinfo, digests, rotation, writers sharing a directory."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from newscrawl.warc.writer import WarcWriter, repair

NAME = re.compile(r"^test-\d{17}-\d{5}-\d+~[^.]+\.warc\.gz$")  # <prefix>-<timestamp17>-<serial>-<pid>~<host>


def _exchange(writer: WarcWriter, n: int) -> object:
    body = b"<html><body><p>page %d</p></body></html>" % n
    return writer.write_exchange(url=f"http://a.example/p{n}", method="GET", request_headers=[("Accept", "*/*")],
                                 request_body=b"", protocol="HTTP/1.1", status=200, reason="OK",
                                 response_headers=[("Content-Type", "text/html")], body=body, ip="127.0.0.1")


def test_two_writers_in_one_directory_never_share_a_file_and_rotate(tmp_path):
    from warcio.archiveiterator import ArchiveIterator

    first = WarcWriter(tmp_path, prefix="test", max_bytes=2500, info={"isPartOf": "job-1"})
    second = WarcWriter(tmp_path, prefix="test", max_bytes=2500)
    locations = [_exchange(w, n) for n in range(6) for w in (first, second)]
    first.close()
    second.close()
    files = sorted(tmp_path.iterdir())
    assert len(files) == len(first.files) + len(second.files) >= 4 and not set(first.files) & set(second.files)
    assert all(NAME.match(f.name) for f in files), [f.name for f in files]
    assert all(f.stat().st_size <= 2500 for f in files)  # rotated before passing max_bytes
    check = subprocess.run([str(Path(sys.executable).with_name("warcio")), "check", *map(str, files)],
                           capture_output=True, text=True, check=False)
    assert check.returncode == 0, check.stdout + check.stderr
    for location in locations:  # every location holds its response, the request right after it
        with open(location.file, "rb") as handle:
            handle.seek(location.offset)
            records = iter(ArchiveIterator(handle))
            response, request = next(records), next(records)
        assert response.rec_type == "response" and response.rec_headers.get_header("WARC-Record-ID") == location.record_id
        assert request.rec_type == "request" and request.rec_headers.get_header("WARC-Concurrent-To") == location.record_id
        assert request.http_headers.protocol == "GET" and request.http_headers.get_header("Host") == "a.example"
    with open(first.files[0], "rb") as handle:
        info = next(iter(ArchiveIterator(handle)))
        fields = info.content_stream().read().decode()
    assert info.rec_type == "warcinfo" and "isPartOf: job-1" in fields and "software: newscrawl/" in fields
    assert all(repair(f) == 0 for f in files)  # whole files are left alone


def test_scrapy_headers_keep_repeats_and_rename_transfer_encoding():
    from scrapy.http.headers import Headers

    from newscrawl.warc.middleware import _header_list

    headers = Headers({"Content-Type": "text/html", "Transfer-Encoding": "chunked", "Set-Cookie": ["a=1", "b=2"]})
    pairs = _header_list(headers)
    assert ("X-Newscrawl-Transfer-Encoding", "chunked") in pairs  # the body is stored de-chunked
    assert not any(name.lower() == "transfer-encoding" for name, _ in pairs)
    assert [v for n, v in pairs if n == "Set-Cookie"] == ["a=1", "b=2"]
