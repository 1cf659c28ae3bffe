"""WARC out of real crawls: a crawl of the demo site (served gzip-encoded) writes WARC/1.1 files
that warcio's own checker and indexer accept, holding a response record for every exported item,
with the bodies as the server sent them; replayed with ``extract --warc`` they give the crawl's
articles (styled with the archived stylesheets, as the crawl styled them). After a SIGKILL and a JOBDIR resume every exported item still has its record."""

from __future__ import annotations

import gzip
import hashlib
import json
import signal
import subprocess
import sys
import time
from base64 import b32encode
from pathlib import Path

from newscrawl.demo.base import Site
from newscrawl.demo.response import Response
from newscrawl.demo.server import serve_site
from newscrawl.demo.site import build_demo_site, build_large_site

REPO = Path(__file__).resolve().parents[2]
WARCIO = str(Path(sys.executable).with_name("warcio"))
FAST = ("DOWNLOAD_DELAY=0", "AUTOTHROTTLE_ENABLED=false", "LOG_LEVEL=INFO", "TELNETCONSOLE_ENABLED=false")


class GzipSite(Site):
    """A site whose HTML answers are gzip-encoded, as most servers send them."""

    def __init__(self, inner: Site) -> None:
        self.inner = inner
        self.truth = inner.truth

    def resolve(self, path_and_query: str, base_url: str = "") -> Response:
        response = self.inner.resolve(path_and_query, base_url)
        if response.stream is None and response.content_type.startswith("text/html"):
            response.headers["Content-Encoding"] = "gzip"
            response.body = gzip.compress(response.body)
        return response


def _crawl_cmd(base: str, out: Path, warc: Path, *settings: str) -> list[str]:
    cmd = [sys.executable, "-m", "newscrawl", "crawl", base + "/", "-o", str(out), "--local"]
    for setting in (*FAST, f"NEWSCRAWL_WARC_DIR={warc}", *settings):
        cmd += ["-s", setting]
    return cmd


def _records(path: str) -> dict[int, object]:
    from warcio.archiveiterator import ArchiveIterator

    found = {}
    with open(path, "rb") as handle:
        iterator = ArchiveIterator(handle)
        for record in iterator:
            if record.rec_type == "response":
                raw = record.raw_stream.read()
                found[iterator.get_record_offset()] = (record.rec_headers.get_header("WARC-Target-URI"),
                                                       record.http_headers, raw, record.rec_headers)
    return found


def _check(files: list[Path]) -> None:
    for path in files:
        check = subprocess.run([WARCIO, "check", "-v", str(path)], capture_output=True, text=True, timeout=120)
        assert check.returncode == 0, check.stdout[-2000:] + check.stderr[-2000:]
        assert "digest pass" in check.stdout and "fail" not in check.stdout


def test_demo_crawl_warc_passes_warcio_and_replays_into_the_crawls_articles(tmp_path):
    out, warc, replay = tmp_path / "items.jsonl", tmp_path / "warc", tmp_path / "replay.jsonl"
    site = GzipSite(build_demo_site())
    with serve_site(site) as server:
        # the replay judges each page alone (as extract --batch does): so does this crawl
        crawl = subprocess.run(_crawl_cmd(server.base_url, out, warc, "NEWSCRAWL_TEMPLATE_ENABLED=false",
                                          "NEWSCRAWL_SITE_ARTICLES=false"),
                               cwd=REPO, capture_output=True, text=True, timeout=300)
    assert crawl.returncode == 0, crawl.stderr[-3000:]
    items = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(items) >= 50
    files = sorted(warc.glob("*.warc.gz"))
    assert files and all(f.name.startswith("newscrawl-") and "~" in f.name for f in files)
    _check(files)
    index = subprocess.run([WARCIO, "index", "-f", "warc-type,warc-target-uri,offset", *map(str, files)],
                           capture_output=True, text=True, timeout=120)
    assert index.returncode == 0
    indexed = [json.loads(line) for line in index.stdout.splitlines()]
    assert {"warcinfo", "request", "response"} <= {e["warc-type"] for e in indexed}
    assert any(e.get("warc-target-uri", "").endswith("/robots.txt") for e in indexed)  # every fetch, not only pages
    assert any("sitemap" in e.get("warc-target-uri", "") for e in indexed)
    assert any(e.get("warc-target-uri", "").endswith(".css") for e in indexed)  # the pages' stylesheets

    records = {f: _records(str(f)) for f in files}
    for item in items:
        url, http, raw, headers = records[Path(item["warc"]["file"])][item["warc"]["offset"]]
        assert url == item["url"] and headers.get_header("WARC-Record-ID") == item["warc"]["record_id"]
        # as received: still gzip, digest of those bytes
        assert http.get_header("Content-Encoding") == "gzip" and raw[:2] == b"\x1f\x8b"
        digest = "sha1:" + b32encode(hashlib.sha1(raw).digest()).decode()
        assert headers.get_header("WARC-Payload-Digest") == digest

    replayed = subprocess.run([sys.executable, "-m", "newscrawl", "extract", "--warc", str(warc / "*.warc.gz"),
                               "--articles-only", "--stylesheets", "-o", str(replay)], cwd=REPO, capture_output=True, text=True,
                              timeout=300)
    assert replayed.returncode == 0, replayed.stderr[-2000:]
    articles = {line["url"]: line for line in map(json.loads, replay.read_text().splitlines())}
    assert set(articles) == {item["url"] for item in items}
    for item in items:
        for field in ("title", "published", "body", "is_article", "probability"):
            assert articles[item["url"]][field] == item.get(field), (item["url"], field)
        assert articles[item["url"]]["warc"]["record_id"] == item["warc"]["record_id"]


def _wait_for_lines(path: Path, n: int, proc: subprocess.Popen, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_bytes().count(b"\n") >= n:
            return
        assert proc.poll() is None, "crawl ended before it could be killed"
        time.sleep(0.05)
    raise AssertionError(f"{path} never reached {n} lines")


def test_sigkill_and_jobdir_resume_keep_a_record_for_every_item(tmp_path):
    out, warc, jobdir = tmp_path / "items.jsonl", tmp_path / "warc", tmp_path / "job"
    settings = ("NEWSCRAWL_HAND_OFF=all", "NEWSCRAWL_EXPORT_ALL=true", "NEWSCRAWL_EXTRACTION_ENABLED=false",
                "NEWSCRAWL_TEMPLATE_ENABLED=false", "NEWSCRAWL_CSS_ENABLED=false", "NEWSCRAWL_MAX_PAGES_PER_DOMAIN=0",
                "NEWSCRAWL_WARC_MAX_BYTES=400000", f"JOBDIR={jobdir}",
                "FEEDS=" + json.dumps({str(out): {"format": "jsonlines", "overwrite": False}}))
    with serve_site(GzipSite(build_large_site(600)), log=False) as server:
        cmd = _crawl_cmd(server.base_url, out, warc, *settings)
        log1, log2 = (tmp_path / "run1.log").open("wb"), (tmp_path / "run2.log").open("wb")
        first = subprocess.Popen(cmd, cwd=REPO, stdout=log1, stderr=subprocess.STDOUT)
        _wait_for_lines(out, 150, first)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=60)
        killed_files = set(warc.glob("*.warc.gz"))
        assert out.read_bytes().count(b"\n") < 560, "the crawl finished before the kill"
        second = subprocess.run(cmd, cwd=REPO, stdout=log2, stderr=subprocess.STDOUT, timeout=600)
    text = (tmp_path / "run2.log").read_text()
    assert second.returncode == 0 and "Resuming from the journal" in text, text[-3000:]
    files = sorted(warc.glob("*.warc.gz"))
    assert killed_files and set(files) > killed_files  # the resumed crawl opened files of its own
    _check(files)  # the killed run's files too (their torn tail, if any, cut at resume)
    records = {str(f): _records(str(f)) for f in files}
    items = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    assert len({item["url"] for item in items}) >= 580
    for item in items:
        url, _, raw, _ = records[item["warc"]["file"]][item["warc"]["offset"]]
        assert url == item["url"] and gzip.decompress(raw).startswith(b"<!DOCTYPE html")
