"""The Redis pieces against a real redis-server: scheduler adapter, codec, Bloom dupefilter,
shared scope, hand-off claims, template cache with expiry."""

from __future__ import annotations

import pickle

import pytest
import redis
import scrapy
from scrapy import Request
from scrapy.settings import Settings
from scrapy.utils.test import get_crawler

from newscrawl.distributed import codec, distributed_settings, push_start_urls
from newscrawl.distributed.dupefilter import BloomDupeFilter, bloom_size
from newscrawl.distributed.scheduler import Scheduler
from newscrawl.distributed.state import ClaimSet, RedisTemplateCache, SharedScope, redis_template_cache
from newscrawl.links.urls import Scope
from newscrawl.template.model import Template


class Probe(scrapy.Spider):
    name = "probe"

    def parse(self, response):  # pragma: no cover (never downloaded)
        yield from ()


def open_scheduler(redis_url: str, **extra) -> tuple[Scheduler, Probe]:
    crawler = get_crawler(Probe, {**distributed_settings(), "REDIS_URL": redis_url, **extra})
    spider = Probe.from_crawler(crawler)
    crawler.spider = spider
    scheduler = Scheduler.from_crawler(crawler)
    scheduler.open(spider)
    return scheduler, spider


def test_scheduler_adapter_shares_queue_and_seen_set_without_deprecations(redis_url):
    # pytest turns Scrapy deprecation warnings into errors: the upstream scheduler fails here
    first, spider = open_scheduler(redis_url)
    second, _ = open_scheduler(redis_url)
    request = Request("http://127.0.0.1/a?x=1", callback=spider.parse, priority=7,
                      meta={"newscrawl_source": "start", "url_probability": 0.75}, headers={"X-Test": "1"})
    assert first.enqueue_request(request) is True
    assert second.enqueue_request(Request("http://127.0.0.1/a?x=1")) is False  # the other worker's seen set
    assert second.has_pending_requests()
    got = second.next_request()
    assert got.url == request.url and got.priority == 7 and got.callback.__func__ is Probe.parse
    assert got.meta["url_probability"] == 0.75 and got.headers[b"X-Test"] == b"1"
    assert first.next_request() is None
    # in flight under its fingerprint from the moment it left the frontier (popped and noted in one step)
    assert second.pop_kind == "zset"
    assert list(second.server.hgetall(second.ledger.inflight_key)) == [got.meta["newscrawl_jid"].encode()]
    assert first.stats.get_value("scheduler/enqueued/redis") == 1
    assert second.stats.get_value("scheduler/dequeued/redis") == 1


def test_queue_payloads_are_json_never_pickle(redis_url):
    scheduler, spider = open_scheduler(redis_url)
    scheduler.enqueue_request(Request("http://127.0.0.1/b", callback=spider.parse))
    client = redis.Redis.from_url(redis_url)
    [raw] = client.zrange("newscrawl:probe:requests", 0, -1)
    assert codec.loads(raw)["url"] == "http://127.0.0.1/b"
    with pytest.raises(ValueError):  # JSONDecodeError / UnicodeDecodeError: nothing is executed
        codec.loads(pickle.dumps({"url": "x"}))


def test_bloom_dupefilter_is_fixed_size_with_bounded_false_positives(redis_url):
    bits, hashes = bloom_size(2000, 1e-3)
    assert (bits, hashes) == (28756, 10)
    _, spider = open_scheduler(redis_url, NEWSCRAWL_DUPEFILTER_BLOOM_CAPACITY=2000,
                               NEWSCRAWL_DUPEFILTER_BLOOM_ERROR=1e-3)
    bloom = BloomDupeFilter.from_spider(spider)
    false_positives = sum(bloom.request_seen(Request(f"http://127.0.0.1/p/{i}")) for i in range(2000))
    assert false_positives <= 10  # expected ~1 at the design rate
    assert bloom.request_seen(Request("http://127.0.0.1/p/5"))
    client = redis.Redis.from_url(redis_url)
    assert client.strlen(bloom.key) <= bits // 8 + 1


def test_shared_scope_and_claims_across_workers(redis_url):
    client = redis.Redis.from_url(redis_url)
    a = SharedScope(Scope(["http://one.example/"]), client, "k:scope", refresh_seconds=0)
    b = SharedScope(Scope([]), client, "k:scope", refresh_seconds=0)
    assert "http://two.example/x" not in b
    a.add("http://two.example/")
    assert "http://two.example/x" in b and "http://three.example/" not in b
    claims_a, claims_b = ClaimSet(client, "k:handed"), ClaimSet(client, "k:handed")
    assert "http://two.example/x" not in claims_a  # claimed by a
    assert "http://two.example/x" in claims_b


def test_template_cache_shared_with_expiry(redis_url):
    client = redis.Redis.from_url(redis_url)
    template = Template(nodes=[[-1, "body", "", "", [], "", 1, 0, 1, 1]], site="example.com")
    RedisTemplateCache(client, expiry=3600).put("example.com", template)
    settings = Settings({"REDIS_URL": redis_url, "NEWSCRAWL_TEMPLATE_EXPIRY": 3600})
    other = redis_template_cache(settings).get("example.com")  # as the template pipeline builds it
    assert other is not None and other.id == template.id and other.nodes == template.nodes
    assert 0 < client.ttl("newscrawl:template:example.com") <= 3600


def test_push_start_urls(redis_url):
    assert push_start_urls(redis_url, ["http://127.0.0.1/", "example.org"]) == 2
    client = redis.Redis.from_url(redis_url)
    assert client.lrange("newscrawl:news:start_urls", 0, -1) == [b"http://127.0.0.1/", b"example.org"]


def test_stylesheet_sources_shared_through_redis_with_expiry(redis_url):
    from newscrawl.css.sources import pack, source_cache, unpack
    from newscrawl.distributed.state import RedisStylesheetCache

    settings = Settings({"NEWSCRAWL_DISTRIBUTED": True, "REDIS_URL": redis_url, "NEWSCRAWL_CSS_SOURCE_EXPIRY": 600,
                         "NEWSCRAWL_CSS_MAX_BYTES": 64, "JOBDIR": "/nonexistent"})
    one, other = source_cache(settings), source_cache(settings)
    assert isinstance(one, RedisStylesheetCache) and one.max_bytes == 64
    one.put("http://a.example/s.css", pack("http://a.example/s.css", b"p{color:red}"))
    assert unpack(other.get("http://a.example/s.css")) == ("http://a.example/s.css", b"p{color:red}")
    client = redis.Redis.from_url(redis_url)
    assert 0 < client.ttl("newscrawl:css:http://a.example/s.css") <= 600
    one.put("http://a.example/big.css", b"x" * 65)  # over NEWSCRAWL_CSS_MAX_BYTES: not shared
    assert other.get("http://a.example/big.css") is None


def test_one_workers_stylesheet_downloads_serve_the_next(redis_url, tools):
    """The CSS middleware with NEWSCRAWL_DISTRIBUTED keeps sources in Redis: a second crawler of the
    same site (same port, so the same stylesheet URLs) downloads none of them."""
    import json
    import subprocess
    import sys

    script = tools.REPO / "tests" / "css" / "_crawl.py"
    settings = json.dumps({"NEWSCRAWL_DISTRIBUTED": True, "REDIS_URL": redis_url})
    port = str(tools.free_port())
    reports = []
    for _ in range(2):
        out = subprocess.run([sys.executable, str(script), "demo", settings, port],
                             capture_output=True, text=True, timeout=240)
        assert out.returncode == 0, out.stderr[-3000:]
        reports.append(json.loads(out.stdout))
    first, second = reports
    assert first["stats"]["newscrawl/css/fetched"] == 3
    assert "newscrawl/css/requests" not in second["stats"]
    assert second["stats"]["newscrawl/css/source_cache/hits"] == 3
    assert second["rules"] == first["rules"] and len(second["rules"]) == 3
    assert len(redis.Redis.from_url(redis_url).keys("newscrawl:css:*")) == 3


@pytest.mark.parametrize(("kind", "first_out"), [("zset", b"a"), ("rpop", b"b"), ("lpop", b"a")])
def test_a_taken_request_is_in_flight_before_it_is_filed(redis_url, kind, first_out):
    """take() pops and notes in one Redis step: a worker killed before it files the request under
    its fingerprint still gives it back (with a pop, then a write, that request was lost)."""
    from newscrawl.distributed.inflight import TAKING, InflightLedger

    client = redis.Redis.from_url(redis_url)
    if kind == "zset":
        client.zadd("k:requests", {"a": 0, "b": 1})
    else:
        client.rpush("k:requests", "a", "b")
    dead = InflightLedger(client, "k", "dead")  # never beats: its heartbeat is expired
    assert dead.take("k:requests", kind) == first_out
    assert client.hgetall("k:inflight:dead") == {TAKING.encode(): first_out}
    pushed: list[bytes] = []
    assert InflightLedger(client, "k", "live").recover(pushed.append, None) == 1 and pushed == [first_out]
    worker = InflightLedger(client, "k", "w")
    second = worker.take("k:requests", kind)
    worker.named("fp", second)
    assert client.hgetall("k:inflight:w") == {b"fp": second} and {first_out, second} == {b"a", b"b"}
    assert worker.take("k:requests", kind) is None and client.hgetall("k:inflight:w") == {b"fp": second}


def test_inflight_ledger_gives_a_dead_workers_requests_back_once(redis_url):
    from newscrawl.distributed.inflight import InflightLedger

    client = redis.Redis.from_url(redis_url)
    dead = InflightLedger(client, "p", "dead", timeout=60)
    dead.beat()
    for jid in ("r1", "r2", "r3"):
        dead.expect(jid)
        dead.taken(jid, f"payload-{jid}")
    dead.settle("r2")  # finished: not in flight any more
    claims = ClaimSet(client, "p:handed:new", claims_key=dead.claims_key)
    assert "http://a.example/1" not in claims and "http://a.example/2" not in claims  # claimed, noted
    client.sadd("p:handed", "http://a.example/1", "http://a.example/2")
    dead.exported("http://a.example/2")

    pushed: list[bytes] = []
    first, second = InflightLedger(client, "p", "one"), InflightLedger(client, "p", "two")
    assert first.recover(pushed.append, "p:handed") == 0  # the dead worker's heartbeat is still fresh
    client.delete("p:alive:dead")  # ... until it expires
    assert first.recover(pushed.append, "p:handed") == 2 and sorted(pushed) == [b"payload-r1", b"payload-r3"]
    assert second.recover(pushed.append, "p:handed") == 0  # recovered exactly once
    assert client.smembers("p:handed") == {b"http://a.example/2"}  # the unexported claim released
    assert not client.keys("p:inflight:*") and not client.keys("p:claims:*")
    first.beat()
    first.taken("x", "y")
    first.close()
    assert not client.keys("p:*:one")


class Killed(BaseException):
    """The worker process dies here."""


def die_after(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    """The process dies right after its ``n``-th Redis step (a command or a MULTI/EXEC) is carried out."""
    calls = 0

    def dying(original):
        def step(self, *args, **options):
            nonlocal calls
            result = original(self, *args, **options)
            calls += 1
            if calls == n:
                raise Killed
            return result
        return step

    monkeypatch.setattr(redis.Redis, "execute_command", dying(redis.Redis.execute_command))
    monkeypatch.setattr(redis.client.Pipeline, "execute", dying(redis.client.Pipeline.execute))


@pytest.mark.parametrize("dupefilter", ["scrapy_redis.dupefilter.RFPDupeFilter",
                                        "newscrawl.distributed.dupefilter.BloomDupeFilter"])
def test_a_worker_killed_while_queueing_never_strands_a_request(redis_url, monkeypatch, dupefilter):
    """Killed after any Redis step of enqueue_request, a request is either queued or still unseen
    (a seen-check, then a push: a kill between them left it seen and queued nowhere)."""
    scheduler, spider = open_scheduler(redis_url, DUPEFILTER_CLASS=dupefilter,
                                       NEWSCRAWL_DUPEFILTER_BLOOM_CAPACITY=1000)
    urls = [f"http://127.0.0.1/killed/{n}" for n in range(1, 4)]
    for n, url in enumerate(urls, 1):
        with monkeypatch.context() as patch:
            die_after(patch, n)
            try:
                scheduler.enqueue_request(Request(url, callback=spider.parse))
            except Killed:
                pass
    client = redis.Redis.from_url(redis_url)
    queued = {codec.loads(raw)["url"] for raw in client.zrange(scheduler.queue.key, 0, -1)}
    assert queued  # some kill came after the request was in
    for url in urls:
        assert url in queued or scheduler.enqueue_request(Request(url, callback=spider.parse)), url


def test_a_worker_killed_while_claiming_leaves_its_claim_releasable(redis_url, monkeypatch):
    """A hand-off claim is noted in the worker's claims hash in the same Redis step (a kill between
    a plain SADD and the note kept the claim forever: that article was exported by no one)."""
    client = redis.Redis.from_url(redis_url)
    claims = ClaimSet(client, "c:handed", claims_key="c:claims:w")
    urls = [f"http://a.example/{n}" for n in range(1, 4)]
    for n, url in enumerate(urls, 1):
        with monkeypatch.context() as patch:
            die_after(patch, n)
            try:
                assert url not in claims
            except Killed:
                pass
    claimed = {url for url in urls if client.sismember("c:handed", url)}
    assert claimed and all(client.hexists("c:claims:w", url) for url in claimed)


def test_start_urls_are_in_flight_until_their_requests_are_queued(redis_url):
    """Start URLs popped from the start list are noted in flight in the same step, cleared once
    their start requests are in the frontier, and given back to the start list by a recoverer if
    the worker died in between (a plain LPOP lost the whole site)."""
    from newscrawl.distributed.inflight import InflightLedger

    client = redis.Redis.from_url(redis_url)
    sites = [b"http://a.example/", b"http://b.example/", b"http://c.example/"]
    client.rpush("s:start_urls", *sites)
    dead = InflightLedger(client, "s", "dead")
    assert dead.take_starts("s:start_urls", 2) == sites[:2]
    assert client.lrange("s:start_urls", 0, -1) == sites[2:]
    pushed: list[bytes] = []
    assert InflightLedger(client, "s", "live").recover(pushed.append, None) == 2
    assert pushed == [] and sorted(client.lrange("s:start_urls", 0, -1)) == sites  # not into the frontier

    worker = InflightLedger(client, "s", "w")
    taken = worker.take_starts("s:start_urls", 16)
    assert sorted(taken) == sites and client.hlen(worker.inflight_key) == 3 and not client.llen("s:start_urls")
    worker.started(taken)
    assert not client.hlen(worker.inflight_key)


def test_a_worker_clears_its_start_urls_once_their_requests_are_queued(redis_url):
    import asyncio

    from newscrawl.distributed.worker import DistributedWorker
    from newscrawl.spiders.news import NewsSpider

    crawler = get_crawler(NewsSpider, {**distributed_settings(), "REDIS_URL": redis_url,
                                       "NEWSCRAWL_DISTRIBUTED": True})
    spider = NewsSpider.from_crawler(crawler)
    crawler.spider = spider
    spider._configure()
    scheduler = Scheduler.from_crawler(crawler)
    scheduler.open(spider)
    ledger = scheduler.ledger
    assert ledger is not None
    in_flight_while_queueing: list[int] = []

    class Engine:
        def crawl(self, request: Request) -> None:
            in_flight_while_queueing.append(ledger.client.hlen(ledger.inflight_key))
            scheduler.enqueue_request(request)

    crawler.engine = Engine()
    push_start_urls(redis_url, ["http://127.0.0.1:9/"])
    worker = DistributedWorker(crawler)
    worker.share_state(spider=spider)

    async def pop_starts() -> list[str]:
        urls = worker._pop_starts(spider)
        for _ in range(50):  # let the scheduling coroutine run
            await asyncio.sleep(0)
        return urls

    assert asyncio.run(pop_starts()) == ["http://127.0.0.1:9/"]
    assert in_flight_while_queueing and set(in_flight_while_queueing) == {1}  # noted until all are queued
    assert len(scheduler.queue) == len(in_flight_while_queueing)  # home page, robots.txt, sitemap
    assert not ledger.client.hlen(ledger.inflight_key)


def test_unreadable_frontier_entries_are_set_aside_not_fatal(redis_url):
    """Payloads that do not decode into a request (not JSON, a URL that is not a string, a list,
    no URL) are moved to <prefix>:unreadable with a counter; the worker takes the next request
    (before, next_request raised on each)."""
    from newscrawl.distributed.inflight import TAKING

    scheduler, spider = open_scheduler(redis_url)
    client = redis.Redis.from_url(redis_url)
    bad = [b"not json", b'{"url": 5}', b"[1, 2]", b'{"nourl": 1}']
    client.zadd(scheduler.queue.key, {payload: -100 + k for k, payload in enumerate(bad)})
    assert scheduler.enqueue_request(Request("http://127.0.0.1/ok", callback=spider.parse))
    assert scheduler.next_request().url == "http://127.0.0.1/ok"
    assert scheduler.next_request() is None
    assert sorted(client.lrange("newscrawl:probe:unreadable", 0, -1)) == sorted(bad)
    assert scheduler.stats.get_value("newscrawl/distributed/unreadable_requests") == 4
    in_flight = client.hgetall(scheduler.ledger.inflight_key)
    assert len(in_flight) == 1 and TAKING.encode() not in in_flight  # only the good request
