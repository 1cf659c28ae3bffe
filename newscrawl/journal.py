"""Crash-safe ``JOBDIR``: a journal of the frontier and the exports, so SIGKILL loses no page.

Why: Scrapy's disk queues write their state (``active.json``, each queue's ``info.json``) only at
a clean close, and ``requests.seen`` is a buffered file. After SIGKILL a resumed crawl finds its
seen set (so it never asks for those URLs again) but not its queue: the frontier is gone.
Measured on a 2,000-page site killed after ~600 pages: the plain JOBDIR resume exported 0 further
articles (``docs/decisions.md``, "Crash-safe JOBDIR").

How: with ``JOBDIR`` set (and ``NEWSCRAWL_JOURNAL_ENABLED``), the add-on installs
:class:`JournalScheduler`, :class:`JournalSpiderMiddleware` and an unbuffered local feed storage.
``JOBDIR/newscrawl/journal.jsonl`` gets one line-flushed JSON line per event:

* ``{"q": fp, "r": request}`` — a new request entered the frontier (JSON, never pickle);
* ``{"d": fp}`` — that request is finished: its callback's requests are journaled and its
  items went through the pipelines and the feed exporters (written unbuffered first);
* ``{"x": url, "c": canonical}`` — an item was exported.

On every start the journal is replayed and compacted: seen = every ``q``; the frontier = ``q``
without ``d`` (requests in flight at the crash included), pushed back into a fresh queue; Scrapy's
``requests.seen`` is rewritten from the journal and the old ``requests.queue`` is discarded (so it
is never unpickled); the spider's ``handed_canonicals`` gets the exported canonical URLs back.
A page whose item was written but whose ``d`` line was not (a kill between the two writes) is
fetched again and handed off again: that is the only source of duplicates, removed by URL with
:func:`dedupe_jsonl` (``python -m newscrawl.journal dedupe OUT.jsonl``).

Feeds on remote storages (S3, FTP, GCS) are uploaded at close, so a crash loses their current
batch; crash-safe crawls export to a local file (or use small ``batch_item_count`` batches).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any
from weakref import WeakKeyDictionary

from scrapy import Spider, signals
from scrapy.core.scheduler import Scheduler
from scrapy.crawler import Crawler
from scrapy.extensions.feedexport import FileFeedStorage
from scrapy.http import Request, Response
from scrapy.utils.job import job_dir
from scrapy.utils.request import request_from_dict

from newscrawl.distributed import codec

logger = logging.getLogger(__name__)

JID = "newscrawl_jid"  # request.meta: this request's journal id (fingerprint, hex)
PARENT = "newscrawl_parent"  # request.meta: journal id of the page whose callback yielded it
SEEN_CHUNK = 5000

_JOURNALS: WeakKeyDictionary[Any, PageLedger] = WeakKeyDictionary()


@dataclass
class Replay:
    seen: set[str] = field(default_factory=set)
    pending: dict[str, dict[str, Any]] = field(default_factory=dict)
    exported: dict[str, str] = field(default_factory=dict)  # url -> canonical url
    torn_lines: int = 0


class PageLedger:
    """Counts the outputs of each unfinished page; the last one settled marks the page done.

    A page (a request id) is done once its callback's output is exhausted, the requests it yielded
    are queued and its items went through the pipelines and the feed exporters. Subclasses say what
    "done" writes: the journal a line, the distributed in-flight ledger a Redis deletion.
    """

    def __init__(self) -> None:
        self.outstanding: dict[str, int] = {}

    def expect(self, jid: str) -> None:
        """One more output (or the callback itself) of page ``jid`` to wait for."""
        self.outstanding[jid] = self.outstanding.get(jid, 0) + 1

    def settle(self, jid: str | None) -> None:
        """One output of page ``jid`` is through; the last one marks the page done."""
        if jid is None or jid not in self.outstanding:
            return
        left = self.outstanding[jid] - 1
        if left:
            self.outstanding[jid] = left
        else:
            del self.outstanding[jid]
            self.done(jid)

    def done(self, jid: str) -> None:
        raise NotImplementedError


class Journal(PageLedger):
    """The append-only journal file, and the bookkeeping of unfinished pages."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        super().__init__()
        self.directory = Path(directory)
        self.path = self.directory / "journal.jsonl"
        self._file: IO[str] | None = None

    # --- start-up -------------------------------------------------------------------------------
    def replay(self) -> Replay:
        state = Replay()
        if not self.path.exists():
            return state
        with self.path.open(encoding="utf-8") as f:
            for line in f:
                try:
                    event = json.loads(line)
                except json.JSONDecodeError:  # the last line, cut by the kill
                    state.torn_lines += 1
                    continue
                if "q" in event:
                    state.seen.add(event["q"])
                    state.pending[event["q"]] = event["r"]
                elif "d" in event:
                    state.pending.pop(event["d"], None)
                elif "x" in event:
                    state.exported[event["x"]] = event.get("c") or event["x"]
                elif "s" in event:
                    state.seen.update(event["s"])
        return state

    def compact(self, state: Replay) -> None:
        """Rewrite the journal as: seen fingerprints, pending requests, exported URLs (atomic)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        finished = sorted(state.seen - state.pending.keys())
        with tmp.open("w", encoding="utf-8") as f:
            for i in range(0, len(finished), SEEN_CHUNK):
                f.write(json.dumps({"s": finished[i : i + SEEN_CHUNK]}) + "\n")
            for fp, request in state.pending.items():
                f.write(json.dumps({"q": fp, "r": request}, separators=(",", ":")) + "\n")
            for url, canonical in state.exported.items():
                f.write(json.dumps({"x": url, "c": canonical}, separators=(",", ":")) + "\n")
        tmp.replace(self.path)

    def open(self) -> None:
        self._file = self.path.open("a", encoding="utf-8", buffering=1)  # line-buffered

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    # --- events ---------------------------------------------------------------------------------
    def _write(self, event: dict[str, Any]) -> None:
        if self._file is not None:
            self._file.write(json.dumps(event, separators=(",", ":"), ensure_ascii=False) + "\n")

    def queued(self, fp: str, request: Request, spider: Spider) -> None:
        self._write({"q": fp, "r": json.loads(codec.dumps(request.to_dict(spider=spider)))})

    def exported(self, url: str, canonical: str | None) -> None:
        self._write({"x": url, "c": canonical or url})

    def done(self, jid: str) -> None:
        self._write({"d": jid})


def journal_for(crawler: Crawler) -> PageLedger | None:
    """The crawl's page ledger (the JOBDIR journal or the distributed in-flight ledger), if any."""
    return _JOURNALS.get(crawler)


def register_ledger(crawler: Crawler, ledger: PageLedger) -> None:
    """Let :class:`JournalSpiderMiddleware` count the outputs of ``crawler``'s pages for ``ledger``."""
    _JOURNALS[crawler] = ledger


def _write_seen(jobdir: str, fingerprints: set[str]) -> None:
    """Scrapy's ``requests.seen`` format: big-endian 2-byte length, then the fingerprint."""
    with Path(jobdir, "requests.seen").open("wb") as f:
        for fp in fingerprints:
            raw = bytes.fromhex(fp)
            f.write(len(raw).to_bytes(2, "big") + raw)


class JournalScheduler(Scheduler):
    """Scrapy's scheduler (disk queues keep memory bounded) with the journal as source of truth."""

    journal: Journal | None = None
    recovered: Replay | None = None
    _exported: list[str] = []

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> JournalScheduler:
        jobdir = job_dir(crawler.settings)
        journal = replay = None
        if jobdir and crawler.settings.getbool("NEWSCRAWL_JOURNAL_ENABLED", True):
            journal = Journal(Path(jobdir, "newscrawl"))
            replay = journal.replay()
            journal.compact(replay)
            _write_seen(jobdir, replay.seen)
            shutil.rmtree(Path(jobdir, "requests.queue"), ignore_errors=True)
        scheduler = super().from_crawler(crawler)
        scheduler.journal, scheduler.recovered = journal, replay
        if journal is not None:
            register_ledger(crawler, journal)
        return scheduler

    def open(self, spider: Spider) -> Any:
        result = super().open(spider)
        if self.journal is None or self.recovered is None:
            return result
        self.journal.open()
        assert self.crawler is not None and self.stats is not None
        connect = self.crawler.signals.connect  # after the feed exporter's: it writes first
        connect(self._item_scraped, signal=signals.item_scraped)
        connect(self._item_settled, signal=signals.item_dropped)
        connect(self._item_settled, signal=signals.item_error)
        state = self.recovered
        unreadable = 0
        for fp, data in state.pending.items():
            try:
                request = request_from_dict(codec.loads(json.dumps(data)), spider=spider)
            except Exception as exc:  # e.g. a callback renamed since: left in the journal, not fatal
                unreadable += 1
                logger.error(
                    "Journaled request %s not resumed (%s: %s); it stays in the journal",
                    str(data.get("url") if isinstance(data, dict) else data)[:200],
                    exc.__class__.__name__,
                    str(exc)[:200],
                )
                continue
            request.meta[JID] = fp
            if not self._dqpush(request):
                self._mqpush(request)
        if unreadable:
            self.stats.inc_value("newscrawl/journal/unreadable", unreadable)
        self._exported = list(state.exported.values())
        connect(self._restore_spider_state, signal=signals.spider_opened)  # after the spider configures
        if state.seen:
            self.stats.set_value("newscrawl/journal/resumed_pending", len(state.pending))
            self.stats.set_value("newscrawl/journal/resumed_seen", len(state.seen))
            self.stats.set_value("newscrawl/journal/resumed_exported", len(state.exported))
            logger.info(
                "Resuming from the journal: %d requests pending, %d seen, %d items exported%s",
                len(state.pending),
                len(state.seen),
                len(state.exported),
                f", {state.torn_lines} torn line(s) skipped" if state.torn_lines else "",
            )
        self.recovered = None
        return result

    def _restore_spider_state(self, spider: Spider) -> None:
        """The canonical URLs handed off before the interruption are not handed off again."""
        handed = getattr(spider, "handed_canonicals", None)
        if isinstance(handed, set):
            handed.update(self._exported)
        self._exported = []

    def close(self, reason: str) -> Any:
        result = super().close(reason)
        if self.journal is not None:
            self.journal.close()
        return result

    def enqueue_request(self, request: Request) -> bool:
        if self.journal is None:
            return super().enqueue_request(request)
        assert self.crawler is not None
        parent = request.meta.pop(PARENT, None)
        fp = self.crawler.request_fingerprinter.fingerprint(request).hex()
        request.meta[JID] = fp
        try:
            accepted = super().enqueue_request(request)
            if accepted:
                try:
                    self.journal.queued(fp, request, self.spider)
                except (TypeError, ValueError) as exc:  # callback not a spider method, odd meta
                    assert self.stats is not None
                    self.stats.inc_value("newscrawl/journal/unserializable")
                    logger.debug("Not journaled (lost if the crawl is killed): %s: %s", request, exc)
            return accepted
        finally:
            self.journal.settle(parent)

    def _item_scraped(self, item: Any, response: Any, spider: Spider) -> None:
        assert self.journal is not None
        from itemadapter import ItemAdapter

        adapter = ItemAdapter(item)
        if adapter.get("url"):
            self.journal.exported(adapter["url"], adapter.get("canonical_url"))
        self._item_settled(item, response)

    def _item_settled(self, item: Any, response: Any = None, *args: Any, **kwargs: Any) -> None:
        if self.journal is not None and isinstance(response, Response):
            self.journal.settle(response.meta.get(JID))


class JournalSpiderMiddleware:
    """Counts each page's outputs so the journal marks the page done only after all of them."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> JournalSpiderMiddleware:
        return cls(crawler)

    async def process_spider_output(self, response: Response, result: Any, spider: Any = None) -> Any:
        journal = journal_for(self.crawler)
        jid = response.meta.get(JID) if journal is not None else None
        if journal is None or jid is None:
            async for output in result:
                yield output
            return
        journal.expect(jid)  # the callback itself: done only once its output is exhausted
        try:
            async for output in result:
                if isinstance(output, Request):
                    output.meta[PARENT] = jid
                    journal.expect(jid)
                elif output is not None:
                    journal.expect(jid)
                yield output
        finally:
            journal.settle(jid)


class UnbufferedFileFeedStorage(FileFeedStorage):
    """Local feed files written without a userspace buffer: an exported item survives SIGKILL."""

    def open(self, spider: Spider) -> IO[bytes]:
        path = Path(self.path)
        path.parent.mkdir(parents=True, exist_ok=True)
        return path.open(self.write_mode, buffering=0)


def install(settings: Any) -> None:
    """Add-on hook: with ``JOBDIR`` (and not distributed), journal the crawl for crash safety; in a
    distributed crawl, count page outputs for the in-flight ledger (``newscrawl.distributed.inflight``).
    Either way local feeds are written unbuffered, so an exported item survives SIGKILL."""
    if settings.getbool("NEWSCRAWL_DISTRIBUTED"):
        if not settings.getbool("NEWSCRAWL_WORKER_RECOVERY", True):
            return
    elif not settings.get("JOBDIR") or not settings.getbool("NEWSCRAWL_JOURNAL_ENABLED", True):
        return
    else:
        settings.set("SCHEDULER", "newscrawl.journal.JournalScheduler", priority="addon")
    settings.setdefault_in_component_priority_dict("SPIDER_MIDDLEWARES", "newscrawl.journal.JournalSpiderMiddleware", 5)
    storages = dict(settings.getdict("FEED_STORAGES"))
    for scheme in ("", "file"):
        storages.setdefault(scheme, "newscrawl.journal.UnbufferedFileFeedStorage")
    settings.set("FEED_STORAGES", storages, priority="addon")


def dedupe_jsonl(path: str | os.PathLike[str], key: str = "url") -> int:
    """Keep the first line per ``key`` in a JSON Lines feed (in place); return lines removed."""
    src = Path(path)
    seen: set[str] = set()
    removed = 0
    tmp = src.with_suffix(src.suffix + ".dedupe")
    with src.open(encoding="utf-8") as f, tmp.open("w", encoding="utf-8") as out:
        for line in f:
            if not line.strip():
                continue
            try:
                value = json.loads(line).get(key)
            except json.JSONDecodeError:  # a line cut by a kill mid-write
                removed += 1
                continue
            if value in seen:
                removed += 1
                continue
            seen.add(value)
            out.write(line if line.endswith("\n") else line + "\n")
    tmp.replace(src)
    return removed


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "dedupe":
        print(f"removed {dedupe_jsonl(sys.argv[2])} duplicate or torn line(s)")
    else:
        raise SystemExit("usage: python -m newscrawl.journal dedupe FEED.jsonl")
