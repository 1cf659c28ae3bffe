"""``newscrawl.pipelines.PostgresPipeline``: every exported article upserted into PostgreSQL.

Needs the ``postgres`` extra (psycopg 3): ``pip install 'newscrawl[postgres]'``. On with
``NEWSCRAWL_POSTGRES_DSN`` (a libpq connection string or URI); the table
(``NEWSCRAWL_POSTGRES_TABLE``, default ``newscrawl_articles``) is created when missing:

| column | type | what |
|---|---|---|
| ``canonical_url`` | text, primary key | the article's canonical URL (one row per article) |
| ``url``, ``domain`` | text | the URL fetched, its registrable domain |
| ``title``, ``published``, ``modified``, ``body``, ``language`` | text | as in the item (dates ISO 8601) |
| ``authors`` | jsonb | list of names |
| ``content_hash`` | text | hash of title, date and body: what counts as a revision |
| ``revisions`` | integer | 1, plus one for each upsert whose content hash differed |
| ``first_seen``, ``last_changed`` | timestamptz | the item's (watch) values, else the upsert times |
| ``updated_at`` | timestamptz | last upsert |
| ``item`` | jsonb | the whole exported item |

An upsert of unchanged content changes only ``url``, ``item`` and ``updated_at``, so repeating one
(a crawl that repeats work after a crash) never bumps the revision count. Connection errors
(server down or restarting) are retried with exponential back-off (``NEWSCRAWL_POSTGRES_BACKOFF``
seconds doubling up to 30, ``NEWSCRAWL_POSTGRES_RETRY_TIMES`` times); an item still not stored
then fails loudly (``item_error``, logged, ``newscrawl/postgres/failed``): it is not exported to the
feeds either, and a watch cycle does not record it, so the next cycle stores it. Never dropped
silently. The pipeline is asynchronous (psycopg's ``AsyncConnection`` on Scrapy's asyncio
reactor): a waiting retry does not hold up the crawl.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from typing import Any

from itemadapter import ItemAdapter
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from newscrawl.watch.fingerprint import Revision

logger = logging.getLogger(__name__)

MAX_BACKOFF = 30.0
COLUMNS = (
    "canonical_url",
    "url",
    "domain",
    "title",
    "published",
    "modified",
    "authors",
    "body",
    "language",
    "content_hash",
    "first_seen",
    "last_changed",
    "item",
)

CREATE = """CREATE TABLE IF NOT EXISTS {table} (
    canonical_url text PRIMARY KEY,
    url text NOT NULL,
    domain text,
    title text,
    published text,
    modified text,
    authors jsonb,
    body text,
    language text,
    content_hash text NOT NULL,
    revisions integer NOT NULL DEFAULT 1,
    first_seen timestamptz NOT NULL DEFAULT now(),
    last_changed timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    item jsonb NOT NULL
)"""

UPSERT = """INSERT INTO {table} (canonical_url, url, domain, title, published, modified, authors, body, language,
    content_hash, first_seen, last_changed, item)
VALUES (%(canonical_url)s, %(url)s, %(domain)s, %(title)s, %(published)s, %(modified)s, %(authors)s, %(body)s,
    %(language)s, %(content_hash)s, COALESCE(%(first_seen)s::timestamptz, now()),
    COALESCE(%(last_changed)s::timestamptz, now()), %(item)s)
ON CONFLICT (canonical_url) DO UPDATE SET
    url = EXCLUDED.url, item = EXCLUDED.item, updated_at = now(),
    domain = EXCLUDED.domain, title = EXCLUDED.title, published = EXCLUDED.published,
    modified = EXCLUDED.modified, authors = EXCLUDED.authors, body = EXCLUDED.body, language = EXCLUDED.language,
    revisions = {table}.revisions + (CASE WHEN {table}.content_hash = EXCLUDED.content_hash THEN 0 ELSE 1 END),
    last_changed = CASE WHEN {table}.content_hash = EXCLUDED.content_hash THEN {table}.last_changed
                        ELSE COALESCE(%(last_changed)s::timestamptz, now()) END,
    content_hash = EXCLUDED.content_hash"""


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError as exc:
        raise NotConfigured(
            "NEWSCRAWL_POSTGRES_DSN needs the 'postgres' extra: pip install 'newscrawl[postgres]'"
        ) from exc
    return psycopg


def statements(table: str) -> tuple[Any, Any]:
    """(CREATE TABLE IF NOT EXISTS, upsert) for ``table`` (a plain or schema-qualified name)."""
    from psycopg import sql

    name = sql.Identifier(*table.split("."))
    return sql.SQL(CREATE).format(table=name), sql.SQL(UPSERT).format(table=name)


def row(item: Any) -> dict[str, Any]:
    """The upsert parameters of an exported item."""
    from psycopg.types.json import Jsonb

    data = ItemAdapter(item).asdict()
    revision = Revision.of_item(data)
    content = hashlib.sha1(f"{revision.title_hash}|{revision.published}|{revision.body_hash}".encode()).hexdigest()
    values = {name: data.get(name) for name in COLUMNS}
    values["canonical_url"] = data.get("canonical_url") or data.get("url")
    values["url"] = data.get("url") or values["canonical_url"]
    values["authors"] = Jsonb(data.get("authors") or [])
    values["content_hash"] = content
    values["item"] = Jsonb(json.loads(json.dumps(data, default=str)))
    for name in ("title", "published", "modified", "body", "language", "domain"):
        values[name] = None if values[name] is None else str(values[name])
    return values


class PostgresPipeline:
    def __init__(self, crawler: Crawler) -> None:
        s = crawler.settings
        self.dsn = s.get("NEWSCRAWL_POSTGRES_DSN")
        if not self.dsn:
            raise NotConfigured("no NEWSCRAWL_POSTGRES_DSN")
        self.psycopg = _psycopg()
        self.crawler = crawler
        self.table = s.get("NEWSCRAWL_POSTGRES_TABLE") or "newscrawl_articles"
        self.create, self.upsert = statements(self.table)
        self.retry_times = s.getint("NEWSCRAWL_POSTGRES_RETRY_TIMES", 10)
        self.backoff = s.getfloat("NEWSCRAWL_POSTGRES_BACKOFF", 0.5)
        self.conn: Any = None
        self._lock: asyncio.Lock | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PostgresPipeline:
        return cls(crawler)

    async def _connection(self) -> Any:
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:  # one connection, opened once even when many items wait for it
            if self.conn is None or self.conn.closed:
                self.conn = await self.psycopg.AsyncConnection.connect(self.dsn, autocommit=True, connect_timeout=10)
                await self.conn.execute(self.create)
            return self.conn

    async def _run(self, what: str, query: Any, params: dict[str, Any] | None = None) -> None:
        stats = self.crawler.stats
        errors = (self.psycopg.OperationalError, self.psycopg.InterfaceError)
        for attempt in range(self.retry_times + 1):
            try:
                conn = await self._connection()
                await conn.execute(query, params)
                return
            except errors as exc:
                if self.conn is not None and (self.conn.closed or self.conn.broken):
                    self.conn = None
                if attempt == self.retry_times:
                    stats.inc_value("newscrawl/postgres/failed")
                    logger.error("PostgreSQL: %s failed after %d retries: %s", what, attempt, exc)
                    raise
                delay = min(MAX_BACKOFF, self.backoff * 2**attempt)
                stats.inc_value("newscrawl/postgres/retries")
                logger.warning(
                    "PostgreSQL: %s failed (%s); retry %d/%d in %.1fs",
                    what,
                    str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__,
                    attempt + 1,
                    self.retry_times,
                    delay,
                )
                await asyncio.sleep(delay)

    async def open_spider(self) -> None:
        await self._run("creating the table", self.create)

    async def process_item(self, item: Any) -> Any:
        await self._run(f"upsert of {ItemAdapter(item).get('url')}", self.upsert, row(item))
        self.crawler.stats.inc_value("newscrawl/postgres/upserts")
        return item

    async def close_spider(self) -> None:
        if self.conn is not None:
            await self.conn.close()
            self.conn = None
