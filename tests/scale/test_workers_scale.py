"""Extraction workers in distributed (Redis frontier) and JOBDIR-resumed crawls."""

from __future__ import annotations

import json
import os
import signal
import time
from collections import Counter
from pathlib import Path

from newscrawl.demo.server import serve_site
from newscrawl.demo.site import build_demo_site
from newscrawl.distributed import push_start_urls
from newscrawl.journal import dedupe_jsonl

WORKERS = "NEWSCRAWL_EXTRACTION_WORKERS=1"


def _children(pid: int) -> set[int]:
    """The direct children of a process (Linux /proc)."""
    found = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found |= {int(c) for c in (task / "children").read_text().split()}
        except OSError:
            pass
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_two_distributed_crawlers_each_with_workers_extract_every_article_once(redis_url, tmp_path, tools):
    site = build_demo_site()
    with serve_site(site) as server:
        push_start_urls(redis_url, [server.base_url + "/"])
        common = ("NEWSCRAWL_DISTRIBUTED=true", f"REDIS_URL={redis_url}", "NEWSCRAWL_IDLE_CLOSE_SECONDS=4",
                  WORKERS)
        crawlers = [tools.popen(tools.scrapy_cmd(tmp_path / f"c{i}.jsonl", *common), tmp_path / f"c{i}.log")
                    for i in (1, 2)]
        try:
            for proc in crawlers:
                proc.wait(timeout=240)
        finally:
            for proc in crawlers:
                if proc.poll() is None:
                    proc.kill()
    logs = [(tmp_path / f"c{i}.log").read_text(errors="replace") for i in (1, 2)]
    for proc, log in zip(crawlers, logs):
        assert proc.returncode == 0, log[-3000:]
        assert "Traceback" not in log, log[log.find("Traceback") - 300:][:3000]
    stats = [tools.stats_from_log(log) for log in logs]
    assert all(s.get("newscrawl/workers/processes") == 1 for s in stats)
    items = tools.read_jsonl(tmp_path / "c1.jsonl") + tools.read_jsonl(tmp_path / "c2.jsonl")
    per_url = Counter(item["url"] for item in items)
    assert max(per_url.values()) == 1
    by_path = {item["url"][len(server.base_url):]: item for item in items}
    assert [p for p in site.article_paths() if p not in by_path] == []
    assert all(by_path[p].get("title") and by_path[p].get("body") for p in site.article_paths())
    assert sum(s.get("newscrawl/workers/pages", 0) for s in stats) >= len(items)
    # the site's template (in Redis) is applied in the workers, to every page handed off (every HTML
    # page: non-articles too, which the filter then drops)
    extracted = sum(s.get("newscrawl/extraction/pages", 0) for s in stats)
    assert extracted >= len(items)
    assert sum(s.get("newscrawl/template/items", 0) for s in stats) == extracted
    assert all(item["extraction"].get("template") for item in by_path.values() if item["url"] != server.base_url + "/")


def test_a_killed_crawl_leaves_no_worker_behind_and_resumes_with_workers(tmp_path, tools):
    site = build_demo_site()
    out, jobdir = tmp_path / "items.jsonl", tmp_path / "job"
    with serve_site(site) as server:
        stats = None
        for run in (1, 2):
            cmd = tools.newscrawl_cmd(server.base_url + "/", out) + [
                "--stats", str(tmp_path / f"stats{run}.json"), "-s", WORKERS, "-s", f"JOBDIR={jobdir}",
                "-s", "FEEDS=" + json.dumps({str(out): {"format": "jsonlines", "overwrite": False}})]
            proc = tools.popen(cmd, tmp_path / f"run{run}.log")
            if run == 1:
                deadline = time.monotonic() + 240
                while not (out.exists() and out.read_bytes().count(b"\n") >= 20):
                    assert proc.poll() is None and time.monotonic() < deadline, "crawl ended before the kill"
                    time.sleep(0.05)
                workers = _children(proc.pid)
                assert workers, "no worker process"
                proc.send_signal(signal.SIGKILL)
                proc.wait(timeout=60)
                deadline = time.monotonic() + 10  # each worker watches its parent (1 s period)
                while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
                    time.sleep(0.1)
                orphans = [pid for pid in workers if _alive(pid)]
                for pid in orphans:
                    os.kill(pid, signal.SIGKILL)
                assert orphans == []
            else:
                assert proc.wait(timeout=300) == 0, (tmp_path / "run2.log").read_text()[-3000:]
                stats = json.loads((tmp_path / "stats2.json").read_text())
    log2 = (tmp_path / "run2.log").read_text()
    assert "Traceback" not in log2 and "Resuming from the journal" in log2
    dedupe_jsonl(out)
    items = {item["url"][len(server.base_url):]: item for item in tools.read_jsonl(out)}
    assert [p for p in site.article_paths() if p not in items] == []
    assert all(items[p].get("title") for p in site.article_paths())
    assert stats["newscrawl/workers/pages"] > 0
    assert stats.get("newscrawl/template/learned", 0) == 0  # from JOBDIR, applied in the worker
    assert stats["newscrawl/template/items"] > 0 and "newscrawl/template/pages_parsed" not in stats
