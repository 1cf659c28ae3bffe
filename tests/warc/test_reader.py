"""Reading WARC/ARC files: generated ones (written here), broken copies of them, and warcio's
test data when ../shared/warc/warcio-test-data is present (read in place, never copied)."""

from __future__ import annotations

import gzip
import io
import zlib
from pathlib import Path

import pytest

from newscrawl.paths import shared_dir
from newscrawl.warc.reader import Counts, iter_responses
from newscrawl.warc.writer import repair

WARCIO_DATA = shared_dir() / "warc" / "warcio-test-data"


def _read(files: list[str]) -> tuple[list, Counts]:
    counts = Counts()
    responses = [r for f in files for r in iter_responses(f, counts)]
    return responses, counts


def test_generated_warc_gives_every_html_page_decoded(demo_warc):
    responses, counts = _read(demo_warc["files"])
    assert len(demo_warc["files"]) >= 3  # rotated by size
    assert {r.url: r.body for r in responses} == demo_warc["pages"]  # gzip content coding removed
    assert counts["html"] == len(demo_warc["pages"])
    assert counts["not_html"] == 1 and counts["not_200"] == 2  # the stylesheet; the 404 and the 301
    assert counts["warcinfo"] == len(demo_warc["files"]) and counts["broken"] == 0
    assert counts["records"] == counts["warcinfo"] + 2 * (len(demo_warc["pages"]) + 3)
    for r in responses:  # offsets point at the record
        assert r.record_id and r.date and r.offset is not None


def _damaged(tmp_path: Path, data: bytes, name: str) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def test_a_broken_record_costs_only_itself(demo_warc, tmp_path):
    first = demo_warc["files"][0]
    good, _ = _read([first])
    data = bytearray(Path(first).read_bytes())
    target = good[3].offset
    data[target + 30: target + 60] = b"\x00" * 30  # inside the 4th page's gzip member
    responses, counts = _read([_damaged(tmp_path, bytes(data), "broken.warc.gz")])
    assert counts["broken"] >= 1
    assert [r.url for r in responses] == [r.url for r in good if r.url != good[3].url]


def test_a_last_record_torn_anywhere_in_its_gzip_member_counts_broken_once(demo_warc, tmp_path):
    first = demo_warc["files"][0]
    good, _ = _read([first])
    data = Path(first).read_bytes()
    start = good[-1].offset
    member = zlib.decompressobj(31)
    member.decompress(data[start:])
    size = len(data) - start - len(member.unused_data)  # the last response's gzip member
    # in its WARC header block, its type, its HTTP block and its body: warcio reads each as a record
    for cut in sorted({5, size // 8, size // 4, size // 2, 3 * size // 4}):
        torn = _damaged(tmp_path, data[: start + cut], f"torn{cut}.warc.gz")
        responses, counts = _read([torn])
        assert [r.url for r in responses] == [r.url for r in good[:-1]], cut
        assert counts["broken"] == 1, (cut, dict(counts))


def test_a_torn_last_record_is_skipped_and_repair_cuts_it(demo_warc, tmp_path):
    first = demo_warc["files"][0]
    good, _ = _read([first])
    data = Path(first).read_bytes()
    torn = _damaged(tmp_path, data[: good[-1].offset + 200], "torn.warc.gz")  # killed mid-record
    responses, counts = _read([torn])
    assert [r.url for r in responses] == [r.url for r in good[:-1]]
    assert counts["broken"] == 1
    assert repair(torn) == 200  # the torn response (and its request) went in one write
    responses, counts = _read([torn])
    assert [r.url for r in responses] == [r.url for r in good[:-1]] and counts["broken"] == 0


def test_plain_and_whole_file_gzip_warcs(demo_warc, tmp_path):
    first = demo_warc["files"][0]
    good, _ = _read([first])
    with gzip.open(first) as handle:  # one member per record, decompressed: a plain WARC
        plain = handle.read()
    responses, counts = _read([_damaged(tmp_path, plain, "plain.warc")])
    assert [r.url for r in responses] == [r.url for r in good] and counts["broken"] == 0
    whole = _damaged(tmp_path, gzip.compress(plain), "whole.warc.gz")  # one member for the whole file
    responses, counts = _read([whole])
    assert [r.body for r in responses] == [r.body for r in good]
    assert counts["whole_file_gzip"] == 1 and all(r.offset is None for r in responses)


def test_arc_file_and_revisits(tmp_path):
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    html = b"<html><head><title>Hello</title></head><body><p>Some text here.</p></body></html>"
    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=True)
    http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
    original = writer.create_warc_record("http://a.example/one", "response", payload=io.BytesIO(html),
                                         length=len(html), http_headers=http)
    writer.write_record(original)
    digest = original.rec_headers.get_header("WARC-Payload-Digest")
    revisit = writer.create_revisit_record("http://a.example/two", digest, "http://a.example/one", "2020-01-01T00:00:00Z",
                                           http_headers=StatusAndHeaders("200 OK", [("Content-Type", "text/html")],
                                                                         protocol="HTTP/1.1"))
    writer.write_record(revisit)
    orphan = writer.create_revisit_record("http://a.example/three", "sha1:AAAA", "http://x.example/", "2020-01-01T00:00:00Z")
    writer.write_record(orphan)
    responses, counts = _read([_damaged(tmp_path, buffer.getvalue(), "revisits.warc.gz")])
    assert [(r.url, r.body) for r in responses] == [("http://a.example/one", html), ("http://a.example/two", html)]
    assert responses[1].revisit_of == original.rec_headers.get_header("WARC-Record-ID")
    assert counts["revisit_resolved"] == 1 and counts["revisit_unresolved"] == 1

    http_part = b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n" + html
    version = b"1 0 newscrawl\nURL IP-address Archive-date Content-type Archive-length\n"
    arc = (b"filedesc://test.arc 0.0.0.0 20200101000000 text/plain %d\n" % len(version) + version + b"\n"
           + b"http://a.example/arc 127.0.0.1 20200101000000 text/html %d\n" % len(http_part) + http_part + b"\n")
    for name, data in (("t.arc", arc), ("t.arc.gz", gzip.compress(arc))):
        responses, counts = _read([_damaged(tmp_path, data, name)])
        assert [(r.url, r.body) for r in responses] == [("http://a.example/arc", html)], (name, counts)


def test_fsspec_urls(demo_warc):
    import fsspec

    good, _ = _read([demo_warc["files"][0]])
    with fsspec.open("memory://bucket/demo.warc.gz", "wb") as handle:  # fsspec's in-memory filesystem: no network
        handle.write(Path(demo_warc["files"][0]).read_bytes())
    responses, _ = _read(["memory://bucket/demo.warc.gz"])
    assert [(r.url, r.body) for r in responses] == [(r.url, r.body) for r in good]
    assert responses[0].file == "memory://bucket/demo.warc.gz"
    _, missing = _read(["memory://bucket/none.warc.gz"])
    assert missing["unreadable_files"] == 1


def test_missing_file_is_counted_not_raised(tmp_path):
    responses, counts = _read([str(tmp_path / "nothing.warc.gz")])
    assert responses == [] and counts["unreadable_files"] == 1


@pytest.mark.skipif(not WARCIO_DATA.is_dir(), reason="warcio's test data is not beside this repository")
def test_every_warcio_test_file_reads_without_raising():
    files = sorted(p for p in WARCIO_DATA.iterdir() if p.name != "LICENSE")
    assert len(files) >= 10
    total = Counts()
    for path in files:
        _, counts = _read([str(path)])
        total.update(counts)
        assert counts["records"] > 0, path.name
    # what warcio itself cannot read past is counted, the rest of those files read on
    assert total["broken"] >= 1 and total["whole_file_gzip"] >= 1
    assert total["revisit_resolved"] >= 2 and total["html"] >= 8
