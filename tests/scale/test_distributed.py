"""Two workers on one Redis frontier crawl the demo site: every page once, every article once."""

from __future__ import annotations

from collections import Counter

import pytest

from newscrawl.demo.server import serve_site
from newscrawl.demo.site import build_demo_site
from newscrawl.distributed import push_start_urls


def test_two_workers_share_one_frontier(redis_url, tmp_path, tools):
    site = build_demo_site()
    with serve_site(site) as server:
        push_start_urls(redis_url, [server.base_url + "/"])
        common = ("NEWSCRAWL_DISTRIBUTED=true", f"REDIS_URL={redis_url}", "NEWSCRAWL_IDLE_CLOSE_SECONDS=4",
                  "NEWSCRAWL_HAND_OFF=all", "NEWSCRAWL_EXPORT_ALL=true", "NEWSCRAWL_EXTRACTION_ENABLED=false", "NEWSCRAWL_TEMPLATE_ENABLED=false",
                  # slow enough (~10 pages/s) that the second worker joins before the first is done
                  "CONCURRENT_REQUESTS_PER_DOMAIN=2", "DOWNLOAD_DELAY=0.1")
        workers = [tools.popen(tools.scrapy_cmd(tmp_path / f"w{i}.jsonl", *common), tmp_path / f"w{i}.log") for i in (1, 2)]
        try:
            for proc in workers:
                proc.wait(timeout=240)
        finally:
            for proc in workers:
                if proc.poll() is None:
                    proc.kill()
        logs = [(tmp_path / f"w{i}.log").read_text(errors="replace") for i in (1, 2)]
        for proc, log in zip(workers, logs):
            assert proc.returncode == 0, log[-3000:]
            assert "Traceback" not in log, log[-3000:]
        stats = [tools.stats_from_log(log) for log in logs]
        assert all(s.get("finish_reason") == "idle" for s in stats)
        # both workers did real work from the one shared queue
        assert all(s.get("newscrawl/pages/fetched", 0) >= 5 for s in stats), [s.get("newscrawl/pages/fetched") for s in stats]

        html_hits = {t: n for t, n in server.hits.items() if t.split("?")[0] in site.truth}
        dups = {t for t, n in html_hits.items() if n > 1}
        assert html_hits and not dups, [r for r in server.requests if r.target in dups]
        items = tools.read_jsonl(tmp_path / "w1.jsonl") + tools.read_jsonl(tmp_path / "w2.jsonl")
        per_url = Counter(item["url"] for item in items)
        assert max(per_url.values()) == 1, [u for u, n in per_url.items() if n > 1]
        exported = {item["url"][len(server.base_url):] for item in items}
        missing = sorted(set(site.article_paths()) - exported)
        # seen once in a full clean-clone run, never in reruns: say whether the server was asked for
        # the missing pages and what the workers logged about them
        assert not missing, (missing, {path: server.hits.get(path, 0) for path in missing},
                             [line for log in logs for line in log.splitlines() if any(p in line for p in missing)][:40],
                             [log[-2000:] for log in logs])
