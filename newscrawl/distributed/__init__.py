"""Distributed crawls: any number of ``news`` workers share one frontier in Redis (scrapy-redis).

``NEWSCRAWL_DISTRIBUTED = True`` (or ``SCRAPY_SETTINGS_MODULE=settings.distributed``) makes the
add-on install :func:`distributed_settings`: scrapy-redis's scheduler and dupefilter on
``REDIS_URL``, requests serialized as JSON (:mod:`newscrawl.distributed.codec`, not pickle), a
priority queue (article-likely URLs first, and a pop that never blocks the reactor), and
:class:`~newscrawl.distributed.worker.DistributedWorker`, which reads start URLs pushed to Redis,
shares the crawl scope and the "already handed off" canonical URLs between workers, and closes
an idle worker after ``NEWSCRAWL_IDLE_CLOSE_SECONDS``.

Redis keys (``<prefix>`` = ``NEWSCRAWL_REDIS_PREFIX``, default ``newscrawl``; ``<spider>`` = ``news``):

| key | type | what |
|---|---|---|
| ``<prefix>:<spider>:requests`` | zset | the shared frontier (scrapy-redis PriorityQueue) |
| ``<prefix>:<spider>:dupefilter`` | set | request fingerprints seen (or a Bloom bitmap) |
| ``<prefix>:<spider>:start_urls`` | list | start URLs pushed by :func:`push_start_urls` / ``redis-cli rpush`` |
| ``<prefix>:<spider>:scope`` | set | start URLs of every worker: the crawl's shared scope |
| ``<prefix>:<spider>:handed`` | set | canonical URLs already handed to the pipelines |
| ``<prefix>:template:<key>`` | string, TTL | learned templates (:class:`~.state.RedisTemplateCache`) |
| ``<prefix>:css:<url>`` | string, TTL | stylesheet sources (:class:`~.state.RedisStylesheetCache`) |
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

WORKER_EXTENSION = "newscrawl.distributed.worker.DistributedWorker"


def key_prefix(settings: Any, spider_name: str = "news") -> str:
    return f"{settings.get('NEWSCRAWL_REDIS_PREFIX') or 'newscrawl'}:{spider_name}"


def distributed_settings(prefix: str = "newscrawl") -> dict[str, Any]:
    """Scrapy settings that put the scheduler and dupefilter on Redis (installed by the add-on)."""
    settings: dict[str, Any] = {
        "SCHEDULER": "newscrawl.distributed.scheduler.Scheduler",  # scrapy-redis, adapted
        "DUPEFILTER_CLASS": "scrapy_redis.dupefilter.RFPDupeFilter",
        "SCHEDULER_QUEUE_CLASS": "scrapy_redis.queue.PriorityQueue",
        "SCHEDULER_SERIALIZER": "newscrawl.distributed.codec",
        "SCHEDULER_QUEUE_KEY": f"{prefix}:%(spider)s:requests",
        "SCHEDULER_DUPEFILTER_KEY": f"{prefix}:%(spider)s:dupefilter",
        # Workers come and go: the frontier and the seen set outlive any one of them.
        "SCHEDULER_PERSIST": True,
        # A blocking pop would freeze the reactor; idle closing is DistributedWorker's job.
        "SCHEDULER_IDLE_BEFORE_CLOSE": 0,
    }
    return settings


def push_start_urls(redis_url: str, urls: Iterable[str], *, prefix: str = "newscrawl", spider: str = "news") -> int:
    """Append start URLs to the shared start list; running (or later) workers pick them up."""
    import redis

    urls = list(urls)
    if not urls:
        return 0
    client = redis.Redis.from_url(redis_url)
    try:
        return int(client.rpush(f"{prefix}:{spider}:start_urls", *urls))
    finally:
        client.close()


def install(settings: Any) -> None:
    """Add-on hook: with ``NEWSCRAWL_DISTRIBUTED`` on, put the scheduler and dupefilter on Redis.

    Values go in with the ``addon`` priority, so a project's own ``SCHEDULER_*`` settings win.
    """
    if not settings.getbool("NEWSCRAWL_DISTRIBUTED"):
        return
    for name, value in distributed_settings(settings.get("NEWSCRAWL_REDIS_PREFIX") or "newscrawl").items():
        settings.set(name, value, priority="addon")
    if settings.getint("NEWSCRAWL_DUPEFILTER_BLOOM_CAPACITY"):
        settings.set("DUPEFILTER_CLASS", "newscrawl.distributed.dupefilter.BloomDupeFilter", priority="addon")
    settings.setdefault_in_component_priority_dict("EXTENSIONS", WORKER_EXTENSION, 500)
