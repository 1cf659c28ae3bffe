"""Per-crawl and per-domain state that workers share through Redis.

Plain classes over a ``redis.Redis`` client (no Scrapy): the shared scope, the set of canonical
URLs already handed to the pipelines, and two caches with expiry (templates, stylesheet sources)
that keep the in-memory LRU of the embedded backends in front of Redis.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any

from newscrawl.links.urls import Scope
from newscrawl.template.cache import TemplateCache
from newscrawl.template.model import Template


class SharedScope:
    """The spider's :class:`~newscrawl.links.urls.Scope`, extended with every worker's start URLs.

    Start URLs live in a Redis set; a URL outside the local scope triggers a refresh from Redis at
    most once per ``refresh_seconds``, so offsite links cost no round trip per link.
    """

    def __init__(self, local: Scope, client: Any, key: str, refresh_seconds: float = 2.0) -> None:
        self.local, self.client, self.key, self.refresh_seconds = local, client, key, refresh_seconds
        self._known: set[str] = set()
        self._refreshed = 0.0

    def add(self, url: str) -> None:
        self.local.add(url)
        self._known.add(url)
        self.client.sadd(self.key, url)

    def refresh(self) -> None:
        self._refreshed = time.monotonic()
        for raw in self.client.smembers(self.key):
            url = raw.decode() if isinstance(raw, bytes) else raw
            if url not in self._known:
                self._known.add(url)
                self.local.add(url)

    def __contains__(self, url: str) -> bool:
        if url in self.local:
            return True
        if time.monotonic() - self._refreshed < self.refresh_seconds:
            return False
        self.refresh()
        return url in self.local

    def __getattr__(self, name: str) -> Any:
        return getattr(self.local, name)


# SADD the key; if it is new, note it in the claiming worker's claims hash (KEYS[2], when given)
# and refresh the set's expiry (ARGV[2] seconds, 0 = none) -- in one Redis step: a worker killed
# between a plain SADD and the HSET kept its claim forever, and that page was exported by no one
CLAIM_SCRIPT = (
    "if redis.call('SADD', KEYS[1], ARGV[1]) == 0 then return 0 end "
    "if KEYS[2] then redis.call('HSET', KEYS[2], ARGV[1], '1') end "
    "if tonumber(ARGV[2]) > 0 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end "
    "return 1"
)


class ClaimSet:
    """A set of keys shared by all workers, for the spider's "already handed off" check.

    The spider tests membership, then adds. To make that atomic across workers the membership
    test *claims* the key (``SADD``): it answers False to exactly one worker, True to the rest.
    With ``claims_key`` (the in-flight ledger's hash of this worker's claims) the claim is noted
    there in the same Redis step, so a recoverer can release it if this worker dies before exporting.
    """

    def __init__(self, client: Any, key: str, ttl: int | None = None, claims_key: str | None = None) -> None:
        self.client, self.key, self.ttl = client, key, ttl
        self._keys = [key, claims_key] if claims_key else [key]
        self._claim = client.register_script(CLAIM_SCRIPT)

    def __contains__(self, value: str) -> bool:
        return not self._claim(keys=self._keys, args=[value, self.ttl or 0])

    def add(self, value: str) -> None:
        self.client.sadd(self.key, value)

    def __len__(self) -> int:
        return int(self.client.scard(self.key))


class RedisTemplateCache(TemplateCache):
    """:class:`TemplateCache` whose second tier is Redis (shared, with expiry) instead of a directory."""

    def __init__(
        self, client: Any, prefix: str = "newscrawl", *, max_entries: int = 512, expiry: float | None = 7 * 24 * 3600
    ) -> None:
        super().__init__(max_entries=max_entries, directory=None, expiry=expiry)
        self.client, self.prefix = client, prefix

    def _redis_key(self, key: str) -> str:
        return f"{self.prefix}:template:{key}"

    def get(self, key: str) -> Template | None:
        template = super().get(key)
        if template is not None:
            return template
        raw = self.client.get(self._redis_key(key))
        if raw is None:
            return None
        try:
            template = Template.from_json(raw)
        except (ValueError, KeyError, TypeError):
            return None
        if not self._fresh(template):
            return None
        self._remember(key, template)
        return template

    def put(self, key: str, template: Template) -> None:
        super().put(key, template)
        ttl = int(self.expiry) if self.expiry else None
        self.client.set(self._redis_key(key), template.to_json(), ex=ttl)


class RedisStylesheetCache:
    """Stylesheet sources by URL in Redis (with expiry), so one worker's download serves all.

    A small local LRU of recently used sources sits in front; sources larger than ``max_bytes``
    are not shared.
    """

    def __init__(
        self,
        client: Any,
        prefix: str = "newscrawl",
        *,
        ttl: int = 24 * 3600,
        max_bytes: int = 2 * 1024 * 1024,
        local_entries: int = 256,
    ) -> None:
        self.client, self.prefix, self.ttl, self.max_bytes = client, prefix, ttl, max_bytes
        self.local_entries = local_entries
        self._local: OrderedDict[str, bytes] = OrderedDict()
        self.hits = self.misses = 0

    def _key(self, url: str) -> str:
        return f"{self.prefix}:css:{url}"

    def get(self, url: str) -> bytes | None:
        data = self._local.get(url)
        if data is None:
            data = self.client.get(self._key(url))
        if data is None:
            self.misses += 1
            return None
        self.hits += 1
        self._remember(url, data)
        return data

    def put(self, url: str, data: bytes) -> None:
        if len(data) > self.max_bytes:
            return
        self._remember(url, data)
        self.client.set(self._key(url), data, ex=self.ttl)

    def _remember(self, url: str, data: bytes) -> None:
        self._local[url] = data
        self._local.move_to_end(url)
        while len(self._local) > self.local_entries:
            self._local.popitem(last=False)


def redis_stylesheet_cache(settings: Any) -> RedisStylesheetCache:
    """The stylesheet-source cache of a distributed crawl (``NEWSCRAWL_CSS_SOURCE_EXPIRY``,
    ``NEWSCRAWL_CSS_MAX_BYTES``; Redis from ``REDIS_URL``)."""
    from scrapy_redis.connection import get_redis_from_settings

    return RedisStylesheetCache(
        get_redis_from_settings(settings),
        settings.get("NEWSCRAWL_REDIS_PREFIX") or "newscrawl",
        ttl=int(settings.getfloat("NEWSCRAWL_CSS_SOURCE_EXPIRY", 24 * 3600)) or 24 * 3600,
        max_bytes=settings.getint("NEWSCRAWL_CSS_MAX_BYTES", 2 * 1024 * 1024),
    )


def redis_template_cache(settings: Any) -> RedisTemplateCache:
    """The template cache of a distributed crawl (``NEWSCRAWL_TEMPLATE_*`` sizes, Redis from ``REDIS_URL``)."""
    from scrapy_redis.connection import get_redis_from_settings

    return RedisTemplateCache(
        get_redis_from_settings(settings),
        settings.get("NEWSCRAWL_REDIS_PREFIX") or "newscrawl",
        max_entries=settings.getint("NEWSCRAWL_TEMPLATE_CACHE_SIZE", 512),
        expiry=settings.getfloat("NEWSCRAWL_TEMPLATE_EXPIRY", 0) or 7 * 24 * 3600,
    )
