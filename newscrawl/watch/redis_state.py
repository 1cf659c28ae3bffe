"""The watch state in Redis, for distributed crawls (``NEWSCRAWL_DISTRIBUTED``): the same records
as :class:`~newscrawl.watch.state.SqliteState`, shared by every worker.

Keys (``<p>`` = ``<NEWSCRAWL_REDIS_PREFIX>:watch``): ``<p>:pages``, ``<p>:articles``,
``<p>:fronts`` (hashes of JSON records by URL), ``<p>:fingerprints`` (fingerprint -> canonical
URL), ``<p>:meta``, ``<p>:outputs``, ``<p>:listings:<front URL>`` (sets: what each front listed). An
article, its page and the output offsets are written in one MULTI/EXEC transaction, as SQLite
writes them in one transaction.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict
from typing import Any

from newscrawl.watch.state import ArticleRecord, FrontRecord, PageRecord, WatchState


class RedisState(WatchState):
    def __init__(self, client: Any, prefix: str = "newscrawl:watch") -> None:
        self.client = client
        self.key = {
            name: f"{prefix}:{name}"
            for name in ("pages", "articles", "fronts", "fingerprints", "meta", "outputs", "listings")
        }

    @classmethod
    def from_url(cls, url: str, prefix: str = "newscrawl:watch") -> RedisState:
        try:
            import redis
        except ImportError as exc:
            raise ImportError(
                "the Redis watch state needs the 'distributed' extra: pip install 'newscrawl[distributed]'"
            ) from exc
        return cls(redis.Redis.from_url(url), prefix)

    def pages(self, urls: Iterable[str]) -> dict[str, PageRecord]:
        urls = list(dict.fromkeys(urls))
        if not urls:
            return {}
        values = self.client.hmget(self.key["pages"], urls)
        return {url: PageRecord(**json.loads(v)) for url, v in zip(urls, values) if v is not None}

    def put_page(self, page: PageRecord) -> None:
        self._page(self.client, page)

    def _page(self, client: Any, page: PageRecord) -> None:
        old = self.pages([page.url]).get(page.url)
        if old is not None:
            page.first_seen = old.first_seen
        client.hset(self.key["pages"], page.url, json.dumps(asdict(page)))

    def put_listed(self, urls: Iterable[str], now: float) -> None:
        pipe = self.client.pipeline(transaction=False)
        for url in urls:
            pipe.hsetnx(self.key["pages"], url, json.dumps(asdict(PageRecord(url, "listed", now, now))))
        pipe.execute()

    def _renew(self, urls: list[str], now: float) -> None:
        pages = self.pages(urls)
        raw = self.client.hmget(self.key["articles"], urls) if urls else []
        pipe = self.client.pipeline(transaction=False)
        for page in pages.values():
            page.last_seen = now
            pipe.hset(self.key["pages"], page.url, json.dumps(asdict(page)))
        for value in raw:  # articles keyed by canonical URL: renewed when that is the URL listed
            if value is not None:
                record = json.loads(value)
                record["last_seen"] = now
                pipe.hset(self.key["articles"], record["canonical"], json.dumps(record))
        pipe.execute()

    def list_front(self, front: str, urls: Iterable[str], now: float) -> None:
        urls = list(dict.fromkeys(urls))
        self._renew(urls, now)
        key = f"{self.key['listings']}:{front}"
        pipe = self.client.pipeline(transaction=True)
        pipe.delete(key)
        if urls:
            pipe.sadd(key, *urls)
        pipe.execute()

    def renew_front(self, front: str, now: float) -> None:
        self._renew([u.decode() for u in self.client.smembers(f"{self.key['listings']}:{front}")], now)

    def article(self, canonical: str) -> ArticleRecord | None:
        raw = self.client.hget(self.key["articles"], canonical)
        return ArticleRecord(**json.loads(raw)) if raw is not None else None

    def article_by_fingerprint(self, fingerprint: str) -> ArticleRecord | None:
        canonical = self.client.hget(self.key["fingerprints"], fingerprint)
        return self.article(canonical.decode()) if canonical is not None else None

    def put_article(
        self, article: ArticleRecord | None, page: PageRecord, outputs: Iterable[tuple[str, int]] = ()
    ) -> None:
        old = self.pages([page.url]).get(page.url)
        if old is not None:
            page.first_seen = old.first_seen
        pipe = self.client.pipeline(transaction=True)
        if article is not None:
            pipe.hset(self.key["articles"], article.canonical, json.dumps(asdict(article)))
            if article.fingerprint:
                pipe.hset(self.key["fingerprints"], article.fingerprint, article.canonical)
        pipe.hset(self.key["pages"], page.url, json.dumps(asdict(page)))
        for path, offset in outputs:
            pipe.hset(self.key["outputs"], path, offset)
        pipe.execute()

    def fronts(self) -> list[FrontRecord]:
        return [FrontRecord(**json.loads(v)) for v in self.client.hvals(self.key["fronts"])]

    def put_fronts(self, fronts: Iterable[FrontRecord]) -> None:
        mapping = {f.url: json.dumps(asdict(f)) for f in fronts}
        if mapping:
            self.client.hset(self.key["fronts"], mapping=mapping)

    def meta(self, key: str) -> str | None:
        value = self.client.hget(self.key["meta"], key)
        return value.decode() if value is not None else None

    def set_meta(self, key: str, value: str) -> None:
        self.client.hset(self.key["meta"], key, value)

    def output_offset(self, path: str) -> int:
        value = self.client.hget(self.key["outputs"], path)
        return int(value) if value is not None else 0

    def set_output_offset(self, path: str, offset: int) -> None:
        self.client.hset(self.key["outputs"], path, offset)

    def expire(self, before: float) -> int:
        removed = 0
        for name in ("pages", "articles"):
            stale, fingerprints = [], []
            for field, raw in self.client.hscan_iter(self.key[name], count=1000):
                record = json.loads(raw)
                if record["last_seen"] < before:
                    stale.append(field)
                    if record.get("fingerprint"):
                        fingerprints.append(record["fingerprint"])
            if stale:
                removed += int(self.client.hdel(self.key[name], *stale))
            if fingerprints:
                self.client.hdel(self.key["fingerprints"], *fingerprints)
        return removed

    def counts(self) -> dict[str, int]:
        return {name: int(self.client.hlen(self.key[name])) for name in ("pages", "articles", "fronts")}

    def close(self) -> None:
        self.client.close()
