"""The watch state: what a site monitor remembers between cycles. Plain Python (no Scrapy).

Three kinds of record, in an SQLite file (stdlib ``sqlite3``, WAL mode) by default or in Redis
(:mod:`newscrawl.watch.redis_state`) when the crawl is distributed:

* pages — every URL fetched (or, with ``--since``, listed and deliberately skipped): a later cycle
  follows only URLs not in here; with the sitemap/feed ``lastmod`` and the validators
  (ETag, Last-Modified) of its last fetch, so a changed ``lastmod`` triggers a conditional re-fetch;
* articles — every article exported, by canonical URL, with its content :class:`Revision`
  (fingerprint index: a moved article is not exported twice), ``first_seen``, ``last_changed``
  and the revision count;
* fronts — what announces new articles (home pages, section fronts, feeds, sitemaps) with their
  validators, ``lastmod`` in their sitemap index, and revisit interval and due time.

Every write is committed at once (WAL, ``synchronous=NORMAL``: durable across a killed process),
so the state is never ahead of what the caller did; the caller orders writes after its outputs
(:mod:`newscrawl.watch.cycle`). Bounded: :meth:`WatchState.expire` forgets pages and articles not
listed by a front for ``forget_days`` (a front answering 304 still lists what its last full read
listed: ``listings``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from newscrawl.watch.fingerprint import Revision

CHUNK = 500  # URLs per IN (...) query (SQLite's variable limit is far above)


@dataclass
class PageRecord:
    url: str
    kind: str  # "article", "other" (fetched, no article) or "listed" (seen in a front, not fetched)
    first_seen: float
    last_seen: float
    lastmod: str = ""
    etag: str = ""
    last_modified: str = ""


@dataclass
class ArticleRecord:
    canonical: str
    url: str
    fingerprint: str
    title_hash: str
    published: str
    body_hash: str
    first_seen: float
    last_changed: float
    last_seen: float
    revisions: int = 1

    @property
    def revision(self) -> Revision:
        return Revision(self.title_hash, self.published, self.body_hash, self.fingerprint or None)


@dataclass
class FrontRecord:
    url: str
    site: str
    kind: str  # "home", "section", "feed", "sitemap" (a url set) or "sitemapindex"
    parent: str = ""  # the sitemap index listing this sitemap ("" for fronts started directly)
    etag: str = ""
    last_modified: str = ""
    lastmod: str = ""  # this sitemap's lastmod in its parent index
    interval: float = 0.0
    next_due: float = 0.0
    last_checked: float = 0.0
    found: int = 0  # new article links found from it, in all


def _row(cls: Any, row: Iterable[Any]) -> Any:
    return cls(**dict(zip((f.name for f in fields(cls)), row)))


def _columns(cls: Any) -> str:
    return ", ".join(f.name for f in fields(cls))


class WatchState:
    """The interface both stores implement (SQLite here, Redis in ``redis_state``)."""

    def pages(self, urls: Iterable[str]) -> dict[str, PageRecord]:
        raise NotImplementedError

    def put_page(self, page: PageRecord) -> None:
        raise NotImplementedError

    def list_front(self, front: str, urls: Iterable[str], now: float) -> None:
        """``front`` was read in full and lists ``urls``: those pages are renewed (not forgotten while
        a front links them), and remembered as its listing for :meth:`renew_front`."""
        raise NotImplementedError

    def renew_front(self, front: str, now: float) -> None:
        """``front`` answered 304: what it listed at its last full read is still listed."""
        raise NotImplementedError

    def article(self, canonical: str) -> ArticleRecord | None:
        raise NotImplementedError

    def article_by_fingerprint(self, fingerprint: str) -> ArticleRecord | None:
        raise NotImplementedError

    def put_article(
        self, article: ArticleRecord | None, page: PageRecord, outputs: Iterable[tuple[str, int]] = ()
    ) -> None:
        """The article (if any), its page and how far output files are accounted for, at once."""
        raise NotImplementedError

    def put_listed(self, urls: Iterable[str], now: float) -> None:
        """URLs seen in a front and deliberately not fetched (``--since``): never followed later."""
        raise NotImplementedError

    def fronts(self) -> list[FrontRecord]:
        raise NotImplementedError

    def put_fronts(self, fronts: Iterable[FrontRecord]) -> None:
        raise NotImplementedError

    def meta(self, key: str) -> str | None:
        raise NotImplementedError

    def set_meta(self, key: str, value: str) -> None:
        raise NotImplementedError

    def output_offset(self, path: str) -> int:
        raise NotImplementedError

    def set_output_offset(self, path: str, offset: int) -> None:
        raise NotImplementedError

    def expire(self, before: float) -> int:
        raise NotImplementedError

    def counts(self) -> dict[str, int]:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pages (url TEXT PRIMARY KEY, kind TEXT NOT NULL, first_seen REAL NOT NULL,
    last_seen REAL NOT NULL, lastmod TEXT NOT NULL DEFAULT '', etag TEXT NOT NULL DEFAULT '',
    last_modified TEXT NOT NULL DEFAULT '');
CREATE INDEX IF NOT EXISTS pages_last_seen ON pages (last_seen);
CREATE TABLE IF NOT EXISTS articles (canonical TEXT PRIMARY KEY, url TEXT NOT NULL, fingerprint TEXT NOT NULL,
    title_hash TEXT NOT NULL, published TEXT NOT NULL, body_hash TEXT NOT NULL, first_seen REAL NOT NULL,
    last_changed REAL NOT NULL, last_seen REAL NOT NULL, revisions INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS articles_fingerprint ON articles (fingerprint);
CREATE INDEX IF NOT EXISTS articles_last_seen ON articles (last_seen);
CREATE TABLE IF NOT EXISTS fronts (url TEXT PRIMARY KEY, site TEXT NOT NULL, kind TEXT NOT NULL,
    parent TEXT NOT NULL, etag TEXT NOT NULL, last_modified TEXT NOT NULL, lastmod TEXT NOT NULL,
    interval REAL NOT NULL, next_due REAL NOT NULL, last_checked REAL NOT NULL, found INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS outputs (path TEXT PRIMARY KEY, offset INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS listings (front TEXT NOT NULL, url TEXT NOT NULL, PRIMARY KEY (front, url));
"""


class SqliteState(WatchState):
    """``<directory>/watch.sqlite3``; one writer at a time (a second cycle waits up to 60 s)."""

    def __init__(self, directory: str | Path) -> None:
        Path(directory).mkdir(parents=True, exist_ok=True)
        self.path = Path(directory) / "watch.sqlite3"
        self.db = sqlite3.connect(self.path, timeout=60, isolation_level=None)  # autocommit; explicit BEGIN
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)

    def _chunks(self, urls: Iterable[str]) -> Iterator[list[str]]:
        batch: list[str] = []
        for url in urls:
            batch.append(url)
            if len(batch) >= CHUNK:
                yield batch
                batch = []
        if batch:
            yield batch

    def pages(self, urls: Iterable[str]) -> dict[str, PageRecord]:
        found: dict[str, PageRecord] = {}
        for batch in self._chunks(dict.fromkeys(urls)):
            marks = ",".join("?" * len(batch))
            for row in self.db.execute(f"SELECT {_columns(PageRecord)} FROM pages WHERE url IN ({marks})", batch):
                found[row[0]] = _row(PageRecord, row)
        return found

    def _put_page(self, page: PageRecord) -> None:
        values = asdict(page)
        self.db.execute(
            f"INSERT INTO pages ({_columns(PageRecord)}) VALUES (:url, :kind, :first_seen, :last_seen, :lastmod, :etag,"
            " :last_modified) ON CONFLICT(url) DO UPDATE SET kind=excluded.kind, last_seen=excluded.last_seen,"
            " lastmod=excluded.lastmod, etag=excluded.etag, last_modified=excluded.last_modified",
            values,
        )

    def put_page(self, page: PageRecord) -> None:
        self._put_page(page)

    def put_listed(self, urls: Iterable[str], now: float) -> None:
        self.db.executemany(
            "INSERT OR IGNORE INTO pages (url, kind, first_seen, last_seen) VALUES (?, 'listed', ?, ?)",
            [(url, now, now) for url in urls],
        )

    def list_front(self, front: str, urls: Iterable[str], now: float) -> None:
        urls = list(dict.fromkeys(urls))
        self.db.execute("BEGIN")
        for batch in self._chunks(urls):
            marks = ",".join("?" * len(batch))
            self.db.execute(f"UPDATE pages SET last_seen=? WHERE url IN ({marks})", [now, *batch])
            self.db.execute(f"UPDATE articles SET last_seen=? WHERE url IN ({marks})", [now, *batch])
        self.db.execute("DELETE FROM listings WHERE front=?", (front,))
        self.db.executemany("INSERT INTO listings (front, url) VALUES (?, ?)", [(front, url) for url in urls])
        self.db.execute("COMMIT")

    def renew_front(self, front: str, now: float) -> None:
        self.db.execute("BEGIN")
        for table in ("pages", "articles"):
            self.db.execute(
                f"UPDATE {table} SET last_seen=? WHERE url IN (SELECT url FROM listings WHERE front=?)", (now, front)
            )
        self.db.execute("COMMIT")

    def article(self, canonical: str) -> ArticleRecord | None:
        row = self.db.execute(
            f"SELECT {_columns(ArticleRecord)} FROM articles WHERE canonical=?", (canonical,)
        ).fetchone()
        return _row(ArticleRecord, row) if row else None

    def article_by_fingerprint(self, fingerprint: str) -> ArticleRecord | None:
        row = self.db.execute(
            f"SELECT {_columns(ArticleRecord)} FROM articles WHERE fingerprint=? LIMIT 1", (fingerprint,)
        ).fetchone()
        return _row(ArticleRecord, row) if row else None

    def put_article(
        self, article: ArticleRecord | None, page: PageRecord, outputs: Iterable[tuple[str, int]] = ()
    ) -> None:
        self.db.execute("BEGIN")
        try:
            if article is not None:
                marks = ", ".join(f":{f.name}" for f in fields(ArticleRecord))
                self.db.execute(
                    f"INSERT OR REPLACE INTO articles ({_columns(ArticleRecord)}) VALUES ({marks})", asdict(article)
                )
            self._put_page(page)
            self.db.executemany("INSERT OR REPLACE INTO outputs (path, offset) VALUES (?, ?)", list(outputs))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def fronts(self) -> list[FrontRecord]:
        return [_row(FrontRecord, row) for row in self.db.execute(f"SELECT {_columns(FrontRecord)} FROM fronts")]

    def put_fronts(self, fronts: Iterable[FrontRecord]) -> None:
        marks = ", ".join(f":{f.name}" for f in fields(FrontRecord))
        self.db.execute("BEGIN")
        self.db.executemany(
            f"INSERT OR REPLACE INTO fronts ({_columns(FrontRecord)}) VALUES ({marks})", [asdict(f) for f in fronts]
        )
        self.db.execute("COMMIT")

    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def output_offset(self, path: str) -> int:
        row = self.db.execute("SELECT offset FROM outputs WHERE path=?", (path,)).fetchone()
        return int(row[0]) if row else 0

    def set_output_offset(self, path: str, offset: int) -> None:
        self.db.execute("INSERT OR REPLACE INTO outputs (path, offset) VALUES (?, ?)", (path, offset))

    def expire(self, before: float) -> int:
        self.db.execute("BEGIN")
        removed = self.db.execute("DELETE FROM pages WHERE last_seen < ?", (before,)).rowcount
        removed += self.db.execute("DELETE FROM articles WHERE last_seen < ?", (before,)).rowcount
        self.db.execute("COMMIT")
        return removed

    def counts(self) -> dict[str, int]:
        return {
            table: self.db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
            for table in ("pages", "articles", "fronts")
        }

    def close(self) -> None:
        self.db.close()
