"""The watch state in a real redis-server: the same rules as the SQLite store, and watch cycles
of the publishing demo site with ``NEWSCRAWL_WATCH_BACKEND=redis``."""

from __future__ import annotations

import json
import subprocess
import sys

import redis

from newscrawl.demo.publishing import PublishingSite
from newscrawl.demo.server import serve_site
from newscrawl.watch.cycle import DUPLICATE, NEW, UNCHANGED, UPDATED, Cycle, Link
from newscrawl.watch.redis_state import RedisState
from newscrawl.watch.schedule import Bounds

BODY = "The county board approved the new water plan after a long public hearing on Tuesday night. " * 4


def article(url: str, body: str = BODY) -> dict:
    return {"url": url, "canonical_url": url, "title": "Board approves water plan", "published": "2025-03-01",
            "body": body}


def test_redis_state_follows_the_same_rules(redis_url, tmp_path):
    state = RedisState(redis.Redis.from_url(redis_url), "t:watch")
    cycle = Cycle(state, bounds=Bounds(60, 600), now=0.0, forget_days=1)
    cycle.visit("http://a.test/", "home", "a.test", etag='"v1"')
    assert [f.url for f in cycle.follow("http://a.test/", [Link("http://a.test/one/", "page")])] == ["http://a.test/one/"]
    assert cycle.judge(article("http://a.test/one/")).kind == NEW
    out = tmp_path / "out.jsonl"
    out.write_text(json.dumps(article("http://a.test/one/")) + "\n")
    cycle.exported(article("http://a.test/one/"), outputs=[(str(out), out.stat().st_size)])
    cycle.finish(completed=True)
    assert state.output_offset(str(out)) == out.stat().st_size
    assert [f.etag for f in state.fronts()] == ['"v1"']

    later = Cycle(state, bounds=Bounds(60, 600), now=100.0, forget_days=1)
    assert not later.full and [f.url for f in later.due_fronts()] == ["http://a.test/"]
    later.visit("http://a.test/", "home", "a.test")
    assert later.follow("http://a.test/", [Link("http://a.test/one/", "page")]) == []
    assert later.judge(article("http://a.test/one-moved/")).kind == DUPLICATE
    assert later.judge(article("http://a.test/one/")).kind == UNCHANGED
    edited = Cycle(state, bounds=Bounds(60, 600), now=200.0).judge(article("http://a.test/one/", BODY + " Fixed."))
    assert (edited.kind, edited.revision, edited.first_seen) == (UPDATED, 2, 0.0)
    later.now = 5 * 86400.0
    later.finish(completed=True)
    assert state.counts()["pages"] == 0 and state.article("http://a.test/one/") is None  # expired
    state.close()


def test_watch_cycles_with_the_redis_backend(redis_url, tmp_path, tools):
    site = PublishingSite(hold=2)
    out = tmp_path / "out.jsonl"

    def cycle() -> dict:
        cmd = [sys.executable, "-m", "newscrawl", "watch", served.base_url + "/", "--state", str(tmp_path / "unused"),
               "--once", "-o", str(out), "--local", "--stats", str(tmp_path / "stats.json"), "--every", "0s..0s",
               "-s", "NEWSCRAWL_WATCH_BACKEND=redis", "-s", f"REDIS_URL={redis_url}", "-s", "LOG_LEVEL=INFO",
               "-s", "NEWSCRAWL_CSS_ENABLED=false", "-s", "NEWSCRAWL_TEMPLATE_ENABLED=false"]
        proc = subprocess.run(cmd, cwd=tools.REPO, capture_output=True, text=True, timeout=240, check=False)
        assert proc.returncode == 0, proc.stderr[-2000:]
        return json.loads((tmp_path / "stats.json").read_text())

    with serve_site(site, conditional=True) as served:
        first = cycle()
        new = site.publish()
        second = cycle()
    items = tools.read_jsonl(out)
    assert first["newscrawl/watch/full_cycle"] is True and first["item_scraped_count"] > 20
    assert second["item_scraped_count"] == 1 and items[-1]["canonical_url"] == served.base_url + new
    assert len({i["canonical_url"] for i in items}) == len(items)
    client = redis.Redis.from_url(redis_url)
    assert client.hlen("newscrawl:watch:articles") == len(items)
    assert not (tmp_path / "unused" / "watch.sqlite3").exists()


def test_redis_listing_of_a_front_renews_its_pages_on_304(redis_url):
    state = RedisState(redis.Redis.from_url(redis_url), "r:watch")
    cycle = Cycle(state, bounds=Bounds(0, 0), now=0.0)
    cycle.visit("http://a.test/", "home", "a.test")
    cycle.follow("http://a.test/", [Link("http://a.test/one/", "page")])
    cycle.exported(article("http://a.test/one/"))
    quiet = Cycle(state, bounds=Bounds(0, 0), now=50.0)
    quiet.visit("http://a.test/", "home", "a.test", status=304)
    assert state.pages(["http://a.test/one/"])["http://a.test/one/"].last_seen == 50.0
    assert state.article("http://a.test/one/").last_seen == 50.0
    state.close()
