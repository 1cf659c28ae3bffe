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
        # failed once (3-4 articles missing) when the second worker started late and popped queued
        # requests before sharing the scope (see the next test); say what happened if it recurs
        assert not missing, (missing, {path: server.hits.get(path, 0) for path in missing},
                             [line for log in logs for line in log.splitlines() if any(p in line for p in missing)][:40],
                             [log[-2000:] for log in logs])


def test_a_worker_joining_a_crawl_in_progress_uses_the_shared_scope(redis_url, tmp_path, tools):
    """The shared frontier already holds the start requests (home page, robots.txt, sitemap) and
    the shared scope their site, as another worker left them; the joining worker pops them at once,
    without an idle moment, and must still follow their links and sitemap entries instead of
    counting them offsite against its own empty scope (before the fix it exported none of the 62
    articles)."""
    import asyncio

    import redis
    from scrapy.utils.test import get_crawler

    from newscrawl.distributed import distributed_settings
    from newscrawl.distributed.scheduler import Scheduler
    from newscrawl.spiders.news import NewsSpider

    async def start_requests(spider: NewsSpider) -> list:
        return [request async for request in spider.start()]

    site = build_demo_site()
    with serve_site(site) as server:
        home = server.base_url + "/"
        crawler = get_crawler(NewsSpider, {**distributed_settings(), "REDIS_URL": redis_url})
        spider = NewsSpider.from_crawler(crawler, start=home)
        crawler.spider = spider
        spider._configure()
        scheduler = Scheduler.from_crawler(crawler)
        scheduler.open(spider)
        queued = asyncio.run(start_requests(spider))
        assert len(queued) == 3 and all(scheduler.enqueue_request(r) for r in queued)
        redis.Redis.from_url(redis_url).sadd("newscrawl:news:scope", home)

        out, log_path = tmp_path / "joined.jsonl", tmp_path / "joined.log"
        proc = tools.popen(tools.scrapy_cmd(out, "NEWSCRAWL_DISTRIBUTED=true", f"REDIS_URL={redis_url}",
                                            "NEWSCRAWL_IDLE_CLOSE_SECONDS=2", "NEWSCRAWL_HAND_OFF=all",
                                            "NEWSCRAWL_EXPORT_ALL=true", "NEWSCRAWL_EXTRACTION_ENABLED=false",
                                            "NEWSCRAWL_TEMPLATE_ENABLED=false"), log_path)
        try:
            proc.wait(timeout=240)
        finally:
            if proc.poll() is None:
                proc.kill()
        log = log_path.read_text(errors="replace")
        assert proc.returncode == 0 and "Traceback" not in log, log[-3000:]
        assert "Joining a crawl in progress: 3 requests" in log
        exported = {item["url"][len(server.base_url):] for item in tools.read_jsonl(out)}
        missing = sorted(set(site.article_paths()) - exported)
        assert not missing, (len(missing), missing[:10], log[-2000:])


@pytest.mark.parametrize("sig", ["SIGINT", "SIGKILL"])
def test_a_stopped_worker_leaves_nothing_behind(redis_url, tmp_path, tools, sig):
    """A worker stopped mid-crawl, then a second worker: together they export every article.

    SIGINT is Scrapy's graceful shutdown (downloads in progress finish, the feed is closed).
    SIGKILL leaves the requests the first worker had taken in its in-flight ledger; the second
    worker puts them back into the frontier once the first one's heartbeat expires (before the
    ledger, 33 of the 62 articles were lost this way)."""
    import signal
    import time

    site = build_demo_site()
    with serve_site(site) as server:
        push_start_urls(redis_url, [server.base_url + "/"])
        common = ("NEWSCRAWL_DISTRIBUTED=true", f"REDIS_URL={redis_url}", "NEWSCRAWL_IDLE_CLOSE_SECONDS=2",
                  "NEWSCRAWL_WORKER_TIMEOUT=3", "NEWSCRAWL_HAND_OFF=all", "NEWSCRAWL_EXPORT_ALL=true",
                  "NEWSCRAWL_EXTRACTION_ENABLED=false", "NEWSCRAWL_TEMPLATE_ENABLED=false", "DOWNLOAD_DELAY=0.05")
        first = tools.popen(tools.scrapy_cmd(tmp_path / "w1.jsonl", *common), tmp_path / "w1.log")
        try:
            deadline = time.monotonic() + 120
            while sum(server.hits.values()) < 25 and first.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            assert first.poll() is None, "the first worker finished before it could be stopped"
            first.send_signal(getattr(signal, sig))
            first.wait(timeout=120)
        finally:
            if first.poll() is None:
                first.kill()
        if sig == "SIGINT":
            log1 = (tmp_path / "w1.log").read_text(errors="replace")
            assert tools.stats_from_log(log1).get("finish_reason") == "shutdown", log1[-2000:]
        second = tools.popen(tools.scrapy_cmd(tmp_path / "w2.jsonl", *common), tmp_path / "w2.log")
        try:
            second.wait(timeout=240)
        finally:
            if second.poll() is None:
                second.kill()
        log2 = (tmp_path / "w2.log").read_text(errors="replace")
        assert second.returncode == 0 and "Traceback" not in log2, log2[-2000:]
        assert tools.stats_from_log(log2).get("newscrawl/pages/fetched", 0) > 0, log2[-2000:]
        items = tools.read_jsonl(tmp_path / "w1.jsonl") + tools.read_jsonl(tmp_path / "w2.jsonl")
        per_url = Counter(item["url"] for item in items)
        if sig == "SIGINT":  # after SIGKILL a page exported just before the kill may come again
            assert max(per_url.values()) == 1, [u for u, n in per_url.items() if n > 1]
        missing = sorted(set(site.article_paths()) - {u[len(server.base_url):] for u in per_url})
        assert not missing, (len(missing), missing[:10], log2[-2000:])
        if sig == "SIGKILL":
            # the second worker's own keys are gone after its normal close, the dead one's recovered
            import redis

            assert not redis.Redis.from_url(redis_url).keys("newscrawl:news:inflight:*")
