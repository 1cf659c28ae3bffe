"""What each distributed worker has taken from the shared frontier and not finished, in Redis.

Why: scrapy-redis pops a request destructively, and its fingerprint is already in the shared seen
set, so the requests a worker was working on when it was killed (SIGKILL, a lost machine) would be
fetched by no one; nor would every page linked only from them. Measured on the demo site before
this ledger: a worker killed after 25 requests, then a second worker, exported 29 of 62 articles.

How (plain Redis, no Scrapy): each worker has an id and three keys under the crawl's prefix:

* ``<prefix>:inflight:<id>`` — hash, request fingerprint -> the queue's encoding of the request,
  written in the same Redis step that pops the request from the frontier (:meth:`InflightLedger.take`,
  a Lua script: a worker killed between a plain pop and the write lost that request, and every page
  linked only from it), deleted when the page is done (its callback's
  requests are queued and its items exported: :class:`~newscrawl.journal.PageLedger`);
* ``<prefix>:claims:<id>`` — hash of the canonical URLs the worker has claimed for hand-off and
  not yet exported, written in the same Redis step as the claim itself
  (:class:`~newscrawl.distributed.state.ClaimSet`; the shared hand-off set would otherwise keep a
  killed worker's claim forever);
* ``<prefix>:alive:<id>`` — a heartbeat that expires after ``timeout`` seconds.

Start URLs popped from ``<prefix>:start_urls`` are noted in the in-flight hash too, under
``start:<url>`` (:meth:`InflightLedger.take_starts`, one Lua script), until their start requests
(home page, robots.txt, sitemap) are in the frontier: a worker killed in between would otherwise
have lost a whole site. A recoverer puts them back into the start list.

Any worker whose own heartbeat is fresh recovers, now and then, the keys of workers whose heartbeat
has expired: it renames their in-flight hash to itself (atomic: one recoverer wins), pushes the
requests back into the frontier and releases their claims. A worker that stalls for longer than
the timeout (one page extracted for minutes) is taken for dead: its pages may then be fetched
and exported twice, never lost. A worker that closes normally deletes its keys.
"""

from __future__ import annotations

import logging
import os
import socket
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from redis.exceptions import ResponseError

from newscrawl.journal import PageLedger

logger = logging.getLogger(__name__)

TAKING = "taking"  # the in-flight field of the request popped and not yet filed under its fingerprint
# pop the frontier's next request and note it in flight in one step, by queue kind (scrapy-redis's
# PriorityQueue: a sorted set, lowest score first; FifoQueue: RPOP; LifoQueue: LPOP)
TAKE_SCRIPTS = {
    "zset": "local r = redis.call('ZRANGE', KEYS[1], 0, 0)[1] "
    "if r then redis.call('ZREMRANGEBYRANK', KEYS[1], 0, 0) redis.call('HSET', KEYS[2], ARGV[1], r) end "
    "return r",
    "rpop": "local r = redis.call('RPOP', KEYS[1]) if r then redis.call('HSET', KEYS[2], ARGV[1], r) end return r",
    "lpop": "local r = redis.call('LPOP', KEYS[1]) if r then redis.call('HSET', KEYS[2], ARGV[1], r) end return r",
}
START = "start:"  # in-flight field prefix of a start URL taken from the start list (the value: the URL)
# take up to ARGV[1] start URLs from the list's head and note each in flight, in one step
TAKE_STARTS = (
    "local urls = redis.call('LRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1) "
    "if #urls > 0 then redis.call('LTRIM', KEYS[1], #urls, -1) end "
    "for _, url in ipairs(urls) do redis.call('HSET', KEYS[2], ARGV[2] .. url, url) end "
    "return urls"
)


def worker_id() -> str:
    """Unique per process and readable in Redis: host, pid and a random suffix."""
    return f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:8]}"


class InflightLedger(PageLedger):
    def __init__(self, client: Any, prefix: str, worker: str, *, timeout: float = 60.0) -> None:
        super().__init__()
        self.client, self.prefix, self.worker, self.timeout = client, prefix, worker, timeout
        self.inflight_key = f"{prefix}:inflight:{worker}"
        self.claims_key = f"{prefix}:claims:{worker}"
        self.alive_key = f"{prefix}:alive:{worker}"
        self._beaten = self._checked = float("-inf")
        self._scripts: dict[str, Any] = {}

    # --- this worker ----------------------------------------------------------------------------
    def beat(self) -> None:
        """Refresh the heartbeat (at most every third of the timeout)."""
        now = time.monotonic()
        if now - self._beaten >= self.timeout / 3:
            self._beaten = now
            self.client.set(self.alive_key, b"1", px=max(1, int(self.timeout * 1000)))

    def taken(self, jid: str, payload: str | bytes) -> None:
        self.client.hset(self.inflight_key, jid, payload)

    def take(self, queue_key: str, pop: str) -> bytes | None:
        """Pop the frontier's next request (``pop``: a key of :data:`TAKE_SCRIPTS`, the queue's kind)
        and note it in flight, as one Redis step; :meth:`named` then files it under its fingerprint."""
        script = self._scripts.get(pop)
        if script is None:
            script = self._scripts[pop] = self.client.register_script(TAKE_SCRIPTS[pop])
        return script(keys=[queue_key, self.inflight_key], args=[TAKING])

    def named(self, jid: str, payload: bytes) -> None:
        """File the request :meth:`take` noted under its fingerprint (one MULTI: never absent)."""
        pipe = self.client.pipeline(transaction=True)
        pipe.hset(self.inflight_key, jid, payload)
        pipe.hdel(self.inflight_key, TAKING)
        pipe.execute()

    def done(self, jid: str) -> None:
        self.client.hdel(self.inflight_key, jid)

    def take_starts(self, start_key: str, count: int) -> list[bytes]:
        """Pop up to ``count`` start URLs from the list ``start_key`` and note them in flight, as one
        Redis step; :meth:`started` clears them once their requests are queued."""
        script = self._scripts.get(START)
        if script is None:
            script = self._scripts[START] = self.client.register_script(TAKE_STARTS)
        return list(script(keys=[start_key, self.inflight_key], args=[count, START]))

    def started(self, urls: Sequence[str | bytes]) -> None:
        if urls:
            self.client.hdel(self.inflight_key, *(START + (u.decode() if isinstance(u, bytes) else u) for u in urls))

    def exported(self, canonical: str) -> None:
        self.client.hdel(self.claims_key, canonical)

    def close(self) -> None:
        """A normal close: everything taken was finished (or failed for good, e.g. a 404)."""
        self.client.delete(self.inflight_key, self.claims_key, self.alive_key)

    # --- other workers ----------------------------------------------------------------------------
    def _others(self) -> Iterator[tuple[str, str]]:
        """(in-flight key, worker id) of every other worker with requests in flight."""
        head = f"{self.prefix}:inflight:"
        for raw_key in self.client.scan_iter(match=f"{head}*", count=500):
            key = raw_key.decode() if isinstance(raw_key, bytes) else raw_key
            other = key[len(head) :]
            if other != self.worker and ":" not in other:  # not "<id>:recovering:<id>"
                yield key, other

    def others_hold_requests(self) -> bool:
        return any(self.client.hlen(key) for key, _ in self._others())

    def recover(self, push: Callable[[bytes], None], handed_key: str | None, *, every: float = 0.0) -> int:
        """Give the work of workers whose heartbeat expired back to the frontier (``push`` gets
        each request's encoding; start URLs go back to the start list) and release their hand-off
        claims; returns the requests and start URLs given back. With ``every`` > 0, does nothing
        if the last check is more recent than that."""
        now = time.monotonic()
        if every and now - self._checked < every:
            return 0
        self._checked = now
        pushed = 0
        for key, other in list(self._others()):
            if self.client.exists(f"{self.prefix}:alive:{other}"):
                continue
            taken = f"{self.prefix}:inflight:{self.worker}:recovering:{other}"
            try:
                self.client.rename(key, taken)  # one recoverer wins; the others get "no such key"
            except ResponseError:
                continue
            given = self.client.hgetall(taken)
            for field, payload in given.items():
                if field.startswith(START.encode()):
                    self.client.lpush(f"{self.prefix}:start_urls", payload)
                else:
                    push(payload)
            claims = self.client.hkeys(f"{self.prefix}:claims:{other}")
            if handed_key and claims:
                self.client.srem(handed_key, *claims)
            self.client.delete(taken, f"{self.prefix}:claims:{other}")
            pushed += len(given)
            logger.warning(
                "Worker %s stopped without closing: %d requests and start URLs it had taken go "
                "back, %d hand-off claims released",
                other,
                len(given),
                len(claims),
            )
        return pushed
