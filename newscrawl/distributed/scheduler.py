"""scrapy-redis's scheduler, adapted to Scrapy 2.14+, with the in-flight ledger.

scrapy-redis 0.9.1 passes ``spider=`` to ``StatsCollector.inc_value()`` and calls
``Spider.log()``; Scrapy 2.14+ deprecates both (and this project's tests turn Scrapy deprecation
warnings into errors). Those calls are replaced; queueing, the dupefilter and persistence are
scrapy-redis's own. The dupefilter, queues and connection work unchanged on Scrapy 2.19
(``tests/scale/test_distributed.py``).

Added: with ``NEWSCRAWL_WORKER_RECOVERY`` (default on), every request this worker takes is noted
in Redis until its page is done, and the requests of workers that died are put back into the
frontier (:mod:`newscrawl.distributed.inflight`: why and how). And a new request is marked seen and
pushed into the frontier in one Redis step (:data:`SEEN_SCRIPTS`, :data:`PUSH_SCRIPTS`): upstream
does a seen-check, then a push, and a worker killed between the two left a request that every
worker takes for queued and none ever fetches.
"""

from __future__ import annotations

import logging
from typing import Any

from itemadapter import ItemAdapter
from redis.exceptions import RedisError
from scrapy import signals
from scrapy.utils.misc import load_object
from scrapy_redis.dupefilter import RFPDupeFilter
from scrapy_redis.queue import FifoQueue, LifoQueue, PriorityQueue
from scrapy_redis.scheduler import Scheduler as RedisScheduler

from newscrawl.distributed import key_prefix
from newscrawl.distributed.dupefilter import BloomDupeFilter
from newscrawl.distributed.inflight import TAKING, InflightLedger, worker_id
from newscrawl.journal import JID, PARENT, register_ledger

logger = logging.getLogger(__name__)

# the seen-check of an atomic push, by dupefilter (KEYS[1] its key; ARGV[3...] what it adds):
# returns 0 from the script when the request was seen
SEEN_SCRIPTS = {
    RFPDupeFilter.request_seen: "if redis.call('SADD', KEYS[1], ARGV[3]) == 0 then return 0 end ",
    BloomDupeFilter.request_seen: "local new = 0 for i = 3, #ARGV do "
    "if redis.call('SETBIT', KEYS[1], ARGV[i], 1) == 0 then new = 1 end end "
    "if new == 0 then return 0 end ",
}
# ...and its push, by queue (KEYS[2] the frontier, ARGV[1] the score, ARGV[2] the encoded request)
PUSH_SCRIPTS = {
    PriorityQueue.push: "redis.call('ZADD', KEYS[2], ARGV[1], ARGV[2]) return 1",
    FifoQueue.push: "redis.call('LPUSH', KEYS[2], ARGV[2]) return 1",
    LifoQueue.push: "redis.call('LPUSH', KEYS[2], ARGV[2]) return 1",
}
UNREADABLE_KEPT = 10_000  # newest unreadable payloads kept for inspection in <prefix>:unreadable


class Scheduler(RedisScheduler):
    crawler: Any = None
    ledger: InflightLedger | None = None
    handed_key: str | None = None
    pop_kind: str | None = None  # the queue's pop as InflightLedger.take does it in one step, if it can
    push_script: Any = None  # seen-check and push in one step, for the dupefilter and queue in use
    df: Any  # the dupefilter (scrapy-redis's Scheduler sets it)

    @classmethod
    def from_crawler(cls, crawler: Any) -> Scheduler:
        scheduler = super().from_crawler(crawler)
        scheduler.crawler = crawler
        return scheduler

    def open(self, spider: Any) -> None:
        # upstream's open(), logging through this module instead of the deprecated Spider.log()
        self.spider = spider
        self.queue = load_object(self.queue_cls)(
            server=self.server, spider=spider, key=self.queue_key % {"spider": spider.name}, serializer=self.serializer
        )
        if not self.df:
            self.df = load_object(self.dupefilter_cls).from_spider(spider)
        seen = SEEN_SCRIPTS.get(getattr(type(self.df), "request_seen", None))
        push = PUSH_SCRIPTS.get(getattr(type(self.queue), "push", None))
        if seen and push:
            self.push_script = self.server.register_script(seen + push)
        else:
            logger.warning(
                "Dupefilter %s with queue %s: a request is marked seen, then pushed; a worker "
                "killed between the two loses it",
                type(self.df).__name__,
                type(self.queue).__name__,
            )
        if self.flush_on_start:
            self.flush()
        settings = self.crawler.settings if self.crawler is not None else None
        if settings is not None and settings.getbool("NEWSCRAWL_WORKER_RECOVERY", True):
            self._open_ledger(settings, spider)
        if len(self.queue):
            logger.info("Joining a crawl in progress: %d requests in the shared frontier", len(self.queue))

    def _open_ledger(self, settings: Any, spider: Any) -> None:
        prefix = key_prefix(settings, spider.name)
        self.ledger = InflightLedger(
            self.server, prefix, worker_id(), timeout=settings.getfloat("NEWSCRAWL_WORKER_TIMEOUT", 60.0)
        )
        self.handed_key = f"{prefix}:handed"
        register_ledger(self.crawler, self.ledger)
        kind = {PriorityQueue: "zset", FifoQueue: "rpop", LifoQueue: "lpop"}.get(type(self.queue))
        if kind == "zset" or (kind and not self.idle_before_close):  # a Lua script cannot block
            self.pop_kind = kind
        else:
            logger.warning(
                "Queue %s%s: requests are popped, then noted in flight; a worker killed "
                "between the two loses that request",
                type(self.queue).__name__,
                " with SCHEDULER_IDLE_BEFORE_CLOSE" if kind else "",
            )
        connect = self.crawler.signals.connect  # after the feed exporter's: it writes first
        connect(self._item_settled, signal=signals.item_scraped)
        connect(self._item_settled, signal=signals.item_dropped)
        connect(self._item_settled, signal=signals.item_error)
        self.ledger.beat()
        self._recover()

    def _recover(self, every: float = 0.0) -> None:
        assert self.ledger is not None
        pushed = self.ledger.recover(self._push_encoded, self.handed_key, every=every)
        if pushed and self.stats:
            self.stats.inc_value("newscrawl/distributed/recovered_requests", pushed)

    def _push_encoded(self, payload: bytes) -> None:
        # decoded and pushed again, so any scrapy-redis queue class keeps its own order
        self.queue.push(self.queue._decode_request(payload))

    def close(self, reason: str) -> Any:
        if self.ledger is not None:
            self.ledger.close()
        return super().close(reason)

    def enqueue_request(self, request: Any) -> bool:
        parent = request.meta.pop(PARENT, None)
        try:
            if request.dont_filter:
                self.queue.push(request)
            elif not self._push_unseen(request):
                self.df.log(request, self.spider)
                return False
            if self.stats:
                self.stats.inc_value("scheduler/enqueued/redis")
            return True
        finally:
            if self.ledger is not None:
                self.ledger.settle(parent)  # the parent page's request output is queued

    def _push_unseen(self, request: Any) -> bool:
        """Mark ``request`` seen and push it, unless it was seen; one Redis step where possible."""
        if self.push_script is None:
            if self.df.request_seen(request):
                return False
            self.queue.push(request)
            return True
        fingerprint = self.df.request_fingerprint(request)
        marks = self.df.offsets(fingerprint) if isinstance(self.df, BloomDupeFilter) else [fingerprint]
        keys = [self.df.key, self.queue.key]
        return bool(self.push_script(keys=keys, args=[-request.priority, self.queue._encode_request(request), *marks]))

    def next_request(self) -> Any:
        if self.ledger is not None:
            self.ledger.beat()
            self._recover(every=self.ledger.timeout / 4)
        payload, request = self._pop()
        if request and self.stats:
            self.stats.inc_value("scheduler/dequeued/redis")
        if request is not None and self.ledger is not None:
            jid = self.crawler.request_fingerprinter.fingerprint(request).hex()
            request.meta[JID] = jid
            if payload is None:
                self.ledger.taken(jid, self.queue._encode_request(request))
            else:
                self.ledger.named(jid, payload)
        return request

    def _pop(self) -> tuple[bytes | None, Any]:
        """(payload as taken, request) of the frontier's next readable request, or (None, None).

        A payload that does not decode into a request (not JSON, another version's fields, a
        callback the spider lacks) is set aside in ``<prefix>:unreadable`` with an error line and
        ``newscrawl/distributed/unreadable_requests``, and the next one is taken: it must not stop
        the worker, nor be lost without a trace."""
        while True:
            if self.ledger is not None and self.pop_kind:
                payload = self.ledger.take(self.queue.key, self.pop_kind)
                if payload is None:
                    return None, None
                try:
                    return payload, self.queue._decode_request(payload)
                except Exception as exc:  # bad data from Redis, not a bug of ours to surface
                    self._unreadable(payload, exc)
                    self.ledger.done(TAKING)  # after it is set aside: a kill in between repeats it
                continue
            try:
                return None, self.queue.pop(self.idle_before_close)
            except RedisError:  # the server, not the payload: the engine's to handle
                raise
            except Exception as exc:  # scrapy-redis decodes inside pop: the payload is gone
                self._unreadable(None, exc)

    def _unreadable(self, payload: bytes | None, exc: Exception) -> None:
        key = f"{key_prefix(self.crawler.settings, self.spider.name)}:unreadable"
        if payload is not None:
            self.server.lpush(key, payload)
            self.server.ltrim(key, 0, UNREADABLE_KEPT - 1)
        if self.stats:
            self.stats.inc_value("newscrawl/distributed/unreadable_requests")
        logger.error(
            "Unreadable request in the shared frontier (%s: %s)%s",
            exc.__class__.__name__,
            str(exc)[:200],
            f"; set aside in {key}" if payload is not None else "",
        )

    def _item_settled(self, item: Any, response: Any = None, *args: Any, **kwargs: Any) -> None:
        """An item is through the pipelines (exported, dropped or failed): its hand-off claim no
        longer needs releasing if this worker dies, and its page has one output less to wait for."""
        if self.ledger is None:
            return
        adapter = ItemAdapter(item)
        canonical = adapter.get("canonical_url") or adapter.get("url")
        if canonical:
            self.ledger.exported(canonical)
        if response is not None and getattr(response, "request", None) is not None:
            self.ledger.settle(response.meta.get(JID))
