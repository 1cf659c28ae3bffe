"""Feed exports as documented in docs/feeds.md: local JSON Lines, CSV (field order) and JSON, and
batches uploaded to a real FTP server (pyftpdlib) on 127.0.0.1, all in one crawl; the same crawl
checks the progress lines (newscrawl.progress)."""

from __future__ import annotations

import csv
import json
import re
import threading
from pathlib import Path

import pytest
from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.handlers import FTPHandler
from pyftpdlib.servers import FTPServer

from newscrawl.demo.server import serve_site
from newscrawl.demo.site import build_demo_site

SPIDER_ONLY = ("NEWSCRAWL_HAND_OFF=all", "NEWSCRAWL_EXPORT_ALL=true", "NEWSCRAWL_EXTRACTION_ENABLED=false",
               "NEWSCRAWL_TEMPLATE_ENABLED=false", "NEWSCRAWL_CSS_ENABLED=false")
CSV_FIELDS = ["url", "status", "depth", "discovered_by", "domain"]


@pytest.fixture(scope="module")
def ftp_server(tmp_path_factory):
    root = tmp_path_factory.mktemp("ftp")
    authorizer = DummyAuthorizer()
    authorizer.add_user("crawler", "s3cret", str(root), perm="elradfmwMT")
    handler = type("Handler", (FTPHandler,), {"authorizer": authorizer, "passive_ports": None})
    server = FTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"timeout": 0.1, "handle_exit": False}, daemon=True)
    thread.start()
    try:
        yield f"ftp://crawler:s3cret@127.0.0.1:{server.address[1]}", root
    finally:
        server.close_all()
        thread.join(timeout=5)


@pytest.fixture(scope="module")
def feed_crawl(tmp_path_factory, ftp_server, tools):
    tmp_path = tmp_path_factory.mktemp("feeds")
    ftp_url, ftp_root = ftp_server
    feeds = {
        str(tmp_path / "items.jsonl"): {"format": "jsonlines", "overwrite": True},
        str(tmp_path / "items.csv"): {"format": "csv", "fields": CSV_FIELDS, "overwrite": True},
        str(tmp_path / "items.json"): {"format": "json", "indent": 2, "overwrite": True},
        f"{ftp_url}/news/batch-%(batch_id)03d.jsonl": {"format": "jsonlines", "batch_item_count": 25},
    }
    with serve_site(build_demo_site()) as server:
        cmd = tools.newscrawl_cmd(server.base_url + "/", tmp_path / "ignored.jsonl")
        for setting in (*SPIDER_ONLY, "NEWSCRAWL_PROGRESS_INTERVAL=0.1", "CONCURRENT_REQUESTS_PER_DOMAIN=2",
                        "FEEDS=" + json.dumps(feeds)):
            cmd += ["-s", setting]
        proc = tools.popen(cmd, tmp_path / "log.txt")
        assert proc.wait(timeout=300) == 0, (tmp_path / "log.txt").read_text()[-3000:]
    return tmp_path, ftp_root


def test_local_and_ftp_feeds(feed_crawl, tools):
    tmp_path, ftp_root = feed_crawl
    log = (tmp_path / "log.txt").read_text()
    assert "Error storing" not in log, log[-3000:]

    lines = tools.read_jsonl(tmp_path / "items.jsonl")
    urls = [item["url"] for item in lines]
    assert len(urls) > 40 and len(set(urls)) == len(urls)
    assert list(lines[0])[:3] == ["url", "canonical_url", "domain"]  # declaration order

    with (tmp_path / "items.csv").open(newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows[0] == CSV_FIELDS
    assert sorted(r[0] for r in rows[1:]) == sorted(urls)

    assert sorted(item["url"] for item in json.loads((tmp_path / "items.json").read_text())) == sorted(urls)

    batches = sorted((ftp_root / "news").glob("batch-*.jsonl"))
    assert len(batches) == -(-len(urls) // 25)
    uploaded = [json.loads(l)["url"] for b in batches for l in b.read_text().splitlines() if l.strip()]
    assert sorted(uploaded) == sorted(urls)
    assert all(len(b.read_text().splitlines()) == 25 for b in batches[:-1])
    assert not (tmp_path / "ignored.jsonl").exists()


def test_progress_lines_and_summary(feed_crawl, tools):
    tmp_path, _ = feed_crawl
    log = (tmp_path / "log.txt").read_text()
    lines = re.findall(r"Progress: (\d+) pages fetched \((\d+)/min\), (\d+) articles exported \((\d+)/min\), "
                       r"templates for (\d+) domains, CSS cache hit rate (n/a|[\d.]+%)", log)
    assert lines, log[-3000:]
    assert [int(l[0]) for l in lines] == sorted(int(l[0]) for l in lines)  # cumulative
    exported = len(tools.read_jsonl(tmp_path / "items.jsonl"))
    summary = re.search(r"Summary \(finished\): (\d+) pages fetched, (\d+) articles exported in ([\d.]+) min", log)
    assert summary and int(summary.group(2)) == exported
    stats = tools.stats_from_log(log)
    assert stats["newscrawl/progress/articles_per_minute"] > 0
