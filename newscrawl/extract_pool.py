"""A pool of extraction worker processes for a crawl: pages in, plain data out, the caller never blocked.

In a crawl every pipeline stage runs in the reactor's thread: while a page is extracted nothing is
downloaded, one core does all the work, and a page that keeps C code busy (lxml parsing an element
with 100,000 attributes) cannot be stopped by an alarm. :class:`ExtractionPool` runs the per-page
work (parse, CSS cascade, NCE, title/date, page classifier, template application) in spawned
worker processes instead:

* :meth:`ExtractionPool.submit` only queues the page and returns a :class:`concurrent.futures.Future`;
  one manager thread feeds the workers and collects their results. Each worker holds its page at
  hand and the next one (``PREFETCH``): it starts the next page the moment it sends a result,
  instead of waiting idle for the manager thread, which shares the interpreter lock with the
  crawl's reactor thread, to hand it one.
* A page running past ``timeout`` seconds has its worker killed (SIGKILL) and replaced; its future
  fails with :class:`PageTimeout`. A worker that dies on a page (killed, segfault, out of memory)
  fails only that page's future (:class:`WorkerDied`). Neither page is tried again.
* Workers are recycled after ``recycle_after`` pages, which bounds what their memos hold.
* A worker is a fresh interpreter (``python -m newscrawl.extract_pool``) talking over an inherited
  socket, not a ``multiprocessing`` child: those import the parent's main module again, and a
  crawl script without an ``if __name__ == "__main__":`` guard (Scrapy's own examples have none)
  would start a second crawl in every worker.
* What pages share is sent to a worker once, not with every page: stylesheets as their source
  text (keyed by URL; the worker parses each once) and templates as JSON (keyed by id). The pool
  keeps, per worker, a mirror of that worker's caches: both are LRUs updated with the same keys
  in the same order, so the parent knows exactly what the worker holds without asking.

Plain Python (no Scrapy, no Twisted): :class:`newscrawl.pipelines.ExtractionPipeline` adapts it.
"""

from __future__ import annotations

import logging
import os
import pickle
import socket
import subprocess
import sys
import threading
import time
from collections import OrderedDict, deque
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection, wait
from queue import SimpleQueue
from typing import Any

logger = logging.getLogger(__name__)

# Source bytes of parsed stylesheets a worker keeps (and the parent's mirror accounts), LRU; the
# sheets of the page at hand are always kept, whatever their size.
SHEET_CACHE_BYTES = 16 * 1024 * 1024
TEMPLATE_CACHE_ENTRIES = 64
# Fresh workers in a row that die before they are ready: then none can start (a broken install, a
# model that does not load) and the pool gives up (PoolBroken) instead of respawning forever.
MAX_STARTUP_FAILURES = 3
RETIRE_SECONDS = 5.0  # a recycled worker not gone this long after its stop message is killed
# Pages sent to a worker at once: the one it works on and the next (one more only delays the others).
PREFETCH = 2


class PageTimeout(Exception):
    """The page's worker ran past the time limit and was killed."""


class WorkerDied(Exception):
    """The page's worker process died on it (killed, crashed, out of memory)."""


class PoolBroken(Exception):
    """Worker processes cannot start; the pool takes no more pages."""


@dataclass(frozen=True)
class Options:
    """What every page of a crawl is extracted with (sent once, when a worker starts)."""

    method: str = "nce"
    page_model: str | None = None
    timeout: float = 0.0  # the worker's own soft limit (SIGALRM), checked between Python calls
    css_max_bytes: int = 2 * 1024 * 1024
    template_mode: str = "after"
    min_coverage: float = 0.5
    site_layout: bool = False  # record the page's layout for the site-level article decision


@dataclass(frozen=True)
class Sheet:
    """A stylesheet as the worker needs it: the URL the page links, the URL it was fetched from
    (the base of its imports) and its source."""

    url: str
    final_url: str
    source: bytes


@dataclass(frozen=True)
class TemplateRef:
    """A learned template a page is matched with, under its cache key (a
    :class:`newscrawl.template.model.Template`: sent as its ``to_dict()``, once per worker)."""

    key: str
    template: Any

    @property
    def id(self) -> str:
        return str(self.template.id)


@dataclass
class Task:
    """One page: its HTML and URL, its stylesheets in cascade order, and the templates to apply:
    the domain's, then (when the page's section key differs from the domain's) the section's,
    ``None`` when not learned yet."""

    html: str
    url: str | None
    sheets: list[Sheet] = field(default_factory=list)
    template: TemplateRef | None = None
    section: TemplateRef | None = None
    has_section: bool = False


# --- the worker process ---------------------------------------------------------------------------------
class _SizedLru:
    """An LRU of keys with sizes, evicted past ``budget`` (the newest entry always stays). The
    parent's mirror and the worker's cache are both this, fed the same keys in the same order."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.total = 0
        self.entries: OrderedDict[str, tuple[int, Any]] = OrderedDict()

    def touch(self, key: str) -> Any:
        """The value held for ``key`` (now the most recent), or None when it is not held."""
        entry = self.entries.get(key)
        if entry is None:
            return None
        self.entries.move_to_end(key)
        return entry[1]

    def add(self, key: str, size: int, value: Any) -> None:
        old = self.entries.pop(key, None)
        if old is not None:
            self.total -= old[0]
        self.entries[key] = (size, value)
        self.total += size
        while self.total > self.budget and len(self.entries) > 1:
            _, (evicted, _value) = self.entries.popitem(last=False)
            self.total -= evicted


class _Worker:
    """A worker's state: the extractor, its parsed stylesheets and templates."""

    def __init__(self, options: Options) -> None:
        from newscrawl.extract import extract
        from newscrawl.extract.api import extract_from_page
        from newscrawl.page import Page

        self.options = options
        self.extract = extract
        self.extract_from_page = extract_from_page
        self.page = Page.from_html
        self.sheets = _SizedLru(SHEET_CACHE_BYTES)
        self.templates = _SizedLru(TEMPLATE_CACHE_ENTRIES)
        # load the models now: the first page's time limit must not include them
        extract(
            "<html><body><p>Warm-up.</p></body></html>",
            url="https://warm.up/a/",
            method=options.method,
            page_model=options.page_model,
        )

    def stylesheet(self, url: str, sent: dict[str, tuple[str, bytes]]) -> Any:
        if url in sent:
            from newscrawl.css.stylesheet import parse_stylesheet

            final_url, source = sent[url]
            try:
                sheet = parse_stylesheet(source, url=final_url, max_bytes=self.options.css_max_bytes)
            except Exception as exc:  # the middleware parsed it once already; keep the page going
                logger.warning("stylesheet %s failed to parse in a worker: %r", url, exc)
                sheet = None
            if sheet is not None and final_url != url:
                sheet = replace(sheet, url=url)  # keyed by the URL pages link, as the middleware does
            self.sheets.add(url, len(source), sheet)
            return sheet
        return self.sheets.touch(url)

    def template(self, ref: tuple[str, str] | None, sent: dict[str, dict[str, Any]]) -> Any:
        if ref is None:
            return None
        from newscrawl.template.model import Template

        _key, template_id = ref
        if template_id in sent:
            template = Template.from_dict(sent[template_id])
            self.templates.add(template_id, 1, template)
            return template
        return self.templates.touch(template_id)

    def run(self, message: dict[str, Any]) -> dict[str, Any]:
        from newscrawl.timelimit import TimeLimitExceeded, page_time_limit

        started = time.process_time()
        sheets = [self.stylesheet(url, message["sheets"]) for url in message["sheet_urls"]]
        missing = sum(sheet is None for sheet in sheets)
        sheets = [sheet for sheet in sheets if sheet is not None]
        template = self.template(message["template"], message["templates"])
        section = self.template(message["section"], message["templates"])
        html, url, options = message["html"], message["url"], self.options
        try:
            with page_time_limit(options.timeout):
                page: Any = None
                try:
                    page = self.page(html, url, stylesheets=tuple(sheets))
                except Exception:  # unparseable input: extract() reports it in the warnings
                    article = self.extract(
                        html, url=url, stylesheets=sheets, method=options.method, page_model=options.page_model
                    )
                else:
                    article = self.extract_from_page(page, method=options.method, page_model=options.page_model)
                data = article.to_dict()
                layout, layout_error = None, None
                if options.site_layout and page is not None:
                    from newscrawl.classify.site import page_layout

                    try:
                        layout = page_layout(page, article.title)
                    except Exception as exc:  # the page model's verdict then stands alone
                        layout_error = f"{type(exc).__name__}: {exc}"
                applied = None
                if page is not None and template is not None:
                    applied = self.apply_template(page, data.get("body"), sheets, message, template, section)
        except TimeLimitExceeded as exc:
            return {"timeout": f"TimeLimitExceeded: {exc}"}
        except Exception as exc:  # the core must not raise; if it does, keep the page and say why
            return {"error": f"{type(exc).__name__}: {exc}"}
        return {
            "article": data,
            "template": applied,
            "site_layout": layout,
            "layout_error": layout_error,
            "sheets_missing": missing,
            "cpu": time.process_time() - started,
        }

    def apply_template(
        self, page: Any, body: str | None, sheets: list[Any], message: dict[str, Any], template: Any, section: Any
    ) -> dict[str, Any] | None:
        """TemplatePipeline's application, for a template known when the page was sent. None when
        the page needs the reactor: its domain template covers too little of it and its section's
        template is not learned yet (learning downloads pages)."""
        from newscrawl.template.extraction import remove_template

        key = message["template"][0]
        match = template.match(page)
        low = bool(match) and len(match[1]) < self.options.min_coverage * template.size
        if low and message["has_section"]:
            if section is None:
                return None
            template, key = section, message["section"][0]
            match = template.match(page, match[0])
        new_body, removed = remove_template(page, template, body, self.options.template_mode, sheets, match)
        return {"id": template.id, "key": key, "removed": removed, "body": new_body, "low_coverage": low}


def _worker_main(fd: int, parent: int) -> None:
    """A worker's life: its options, say ready, then one page per message until told to stop (None)."""
    from newscrawl.parallel import guard_worker

    guard_worker(parent)
    conn = Connection(fd)
    try:
        options = conn.recv()
    except (EOFError, OSError):
        return
    worker = _Worker(options)
    try:
        conn.send(("ready", time.process_time()))  # its start-up CPU
        while (message := conn.recv()) is not None:
            conn.send(("done", worker.run(message)))
    except (EOFError, OSError):  # the parent closed its end (the pool closed while this one started)
        return


# --- the parent side -------------------------------------------------------------------------------------
class _Process:
    """A worker process (``subprocess.Popen``) with the parts of ``multiprocessing.Process`` the pool
    uses; ``sentinel`` is a pidfd, readable once the process has ended (None where the platform has
    none: the end of its socket then says the same)."""

    def __init__(self, popen: subprocess.Popen[bytes]) -> None:
        self.popen = popen
        self.pid = popen.pid
        self.sentinel: int | None = None
        if hasattr(os, "pidfd_open"):
            try:
                self.sentinel = os.pidfd_open(popen.pid)
            except OSError:
                pass

    @property
    def exitcode(self) -> int | None:
        return self.popen.poll()

    def is_alive(self) -> bool:
        return self.popen.poll() is None

    def kill(self) -> None:
        if self.popen.poll() is None:
            self.popen.kill()

    def join(self, timeout: float) -> None:
        try:
            self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            return
        if self.sentinel is not None:
            os.close(self.sentinel)
            self.sentinel = None


@dataclass
class _Job:
    task: Task
    future: Future[dict[str, Any]]


class _Outbox:
    """Messages to one worker, written by a thread of their own: a page sent ahead to a busy worker
    stays in the socket until the worker reads it, and the manager thread must not wait with it (the
    worker may be stuck in C code until its time limit has it killed)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self._queue: SimpleQueue[bytes | None] = SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="newscrawl-extraction-send", daemon=True)
        self._thread.start()

    def put(self, message: Any) -> None:
        """Queue a message; pickling errors (a page that cannot be sent) are raised here."""
        self._queue.put(pickle.dumps(message))

    def close(self, timeout: float) -> None:
        """Stop the thread once what is queued is written (or the worker is gone), then the pipe."""
        self._queue.put(None)
        self._thread.join(timeout)
        self.conn.close()

    def _run(self) -> None:
        gone = False
        while (payload := self._queue.get()) is not None:
            if gone:
                continue
            try:
                self.conn.send_bytes(payload)
            except OSError:  # the worker is gone: its sentinel (or its pipe's end) tells the manager
                gone = True


class _Slot:
    """One worker process as the parent sees it: its pipe, the pages sent to it (the first is the
    one at hand, whose deadline runs; the worker reads the others in order after it), the pages it
    did, and the mirror of its caches."""

    def __init__(self, process: Any, conn: Connection, outbox: _Outbox) -> None:
        self.process = process
        self.conn = conn
        self.outbox = outbox
        self.ready = False
        self.jobs: deque[_Job] = deque()
        self.deadline = 0.0
        self.pages = 0
        # recycling: the fresh worker that replaces this one once it is ready (it starts while
        # this one goes on: a start costs seconds of imports and model loading)
        self.successor: _Slot | None = None
        self.sheets = _SizedLru(SHEET_CACHE_BYTES)
        self.templates = _SizedLru(TEMPLATE_CACHE_ENTRIES)

    def message(self, task: Task) -> dict[str, Any]:
        """The page's message: the stylesheets and templates this worker does not hold, with it."""
        sheets = {}
        for sheet in task.sheets:
            if self.sheets.touch(sheet.url) is None:
                sheets[sheet.url] = (sheet.final_url, sheet.source)
                self.sheets.add(sheet.url, len(sheet.source), True)
        templates = {}
        for ref in (task.template, task.section):
            if ref is not None and self.templates.touch(ref.id) is None:
                templates[ref.id] = ref.template.to_dict()
                self.templates.add(ref.id, 1, True)
        return {
            "html": task.html,
            "url": task.url,
            "sheet_urls": [s.url for s in task.sheets],
            "sheets": sheets,
            "template": (task.template.key, task.template.id) if task.template else None,
            "section": (task.section.key, task.section.id) if task.section else None,
            "templates": templates,
            "has_section": task.has_section,
        }


class ExtractionPool:
    """``workers`` extraction processes fed from one queue by a manager thread (see the module)."""

    def __init__(
        self,
        workers: int,
        options: Options,
        *,
        timeout: float = 120.0,
        grace: float | None = None,
        recycle_after: int = 1000,
    ) -> None:
        if workers < 1:
            raise ValueError(f"an extraction pool needs at least one worker, not {workers}")
        self.workers = workers
        self.options = options
        self.timeout = timeout  # hard limit: past it (and the grace) the worker is killed
        # past the limit, the worker's own alarm gets this long to stop the page in Python (the worker
        # lives on); then the worker is killed (a C call the alarm cannot interrupt)
        self.grace = min(2.0, timeout / 2) if grace is None else grace
        self.recycle_after = recycle_after
        self.counts: dict[str, float] = {
            "started": 0,
            "recycled": 0,
            "timeouts": 0,
            "deaths": 0,
            "pages": 0,
            "cpu_seconds": 0.0,
        }
        self._lock = threading.Lock()
        self._queue: deque[_Job] = deque()
        self._closing = False
        # the manager sleeps with a worker free: a new page must wake it (otherwise the next result does;
        # every wake-up costs the caller's thread a hand-over of the interpreter lock)
        self._wake_wanted = True
        self._broken: str | None = None
        self._startup_failures = 0
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._retiring: list[tuple[Any, float]] = []
        self._slots = [self._spawn() for _ in range(workers)]
        self._thread = threading.Thread(target=self._run, name="newscrawl-extraction-pool", daemon=True)
        self._thread.start()

    # --- the caller's side (any thread) --------------------------------------------------------------------
    def submit(self, task: Task) -> Future[dict[str, Any]]:
        """Queue a page; the future gets the worker's result dict, or fails with PageTimeout,
        WorkerDied or PoolBroken."""
        future: Future[dict[str, Any]] = Future()
        with self._lock:
            if self._broken is not None or self._closing:
                future.set_exception(PoolBroken(self._broken or "the pool is closed"))
                return future
            self._queue.append(_Job(task, future))
            wake, self._wake_wanted = self._wake_wanted, False
        if wake:
            self._wake()
        return future

    @property
    def broken(self) -> str | None:
        """Why the pool takes no more pages, or None."""
        return self._broken

    @property
    def waiting(self) -> int:
        """Pages queued and not yet given to a worker."""
        return len(self._queue)

    def close(self, timeout: float = 10.0) -> None:
        """Finish the queued pages (within ``timeout`` seconds), then stop the workers."""
        with self._lock:
            self._closing = True
        self._wake()
        self._thread.join(timeout)
        with self._lock:
            self._broken = self._broken or "the pool is closed"
            self._fail_queue(PoolBroken("the pool was closed before this page was extracted"))
        for slot in self._slots:
            for job in slot.jobs:
                if not job.future.done():
                    job.future.set_exception(PoolBroken("the pool was closed during this page"))
            # still starting (a successor, which would load its models first), or still on a page past
            # the close's timeout (which failed above): it holds nothing worth waiting for
            if not slot.ready or slot.jobs:
                slot.process.kill()
            self._stop(slot)
        for process, _since in self._retiring:
            process.join(1.0)
            if process.is_alive():
                process.kill()
        for process in (slot.process for slot in self._slots):
            process.join(RETIRE_SECONDS)
            if process.is_alive():
                process.kill()
                process.join(1.0)
        self._wake_r.close()
        self._wake_w.close()

    def _wake(self) -> None:
        try:
            self._wake_w.send(b"x")
        except (BlockingIOError, OSError):  # already woken (buffer full) or closed
            pass

    # --- workers ---------------------------------------------------------------------------------------------
    def _spawn(self) -> _Slot:
        ours, theirs = socket.socketpair()
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([p for p in sys.path if p] + [os.environ.get("PYTHONPATH", "")]),
        }
        try:
            popen = subprocess.Popen(
                [sys.executable, "-m", "newscrawl.extract_pool", str(theirs.fileno()), str(os.getpid())],
                pass_fds=(theirs.fileno(),),
                env=env,
                stdin=subprocess.DEVNULL,
                close_fds=True,
            )
        finally:
            theirs.close()
        conn = Connection(ours.detach())
        outbox = _Outbox(conn)
        outbox.put(self.options)  # what recv() in the worker reads first
        self.counts["started"] += 1
        return _Slot(_Process(popen), conn, outbox)

    @staticmethod
    def _stop(slot: _Slot) -> None:
        slot.outbox.put(None)  # the worker's stop message
        slot.outbox.close(RETIRE_SECONDS)

    def _replace(self, slot: _Slot, kill: bool) -> None:
        if kill:
            slot.process.kill()
            slot.process.join(1.0)
        slot.outbox.close(1.0)  # its worker is gone: what it still had to send fails at once
        index = self._slots.index(slot)
        if not slot.ready:
            self._startup_failures += 1
            if self._startup_failures >= MAX_STARTUP_FAILURES:
                reason = f"extraction workers die before they are ready ({self._startup_failures} in a row)"
                logger.error("%s: the crawl goes on extracting in the main process", reason)
                with self._lock:
                    self._broken = reason
                    self._fail_queue(PoolBroken(reason))
                self._slots.pop(index)
                return
        if slot.successor is not None:  # recycled already: its successor takes its place
            self._slots.pop(index)
            return
        if self._closing or any(old.successor is slot for old in self._slots):
            self._slots.pop(index)  # a successor that died starting: its predecessor goes on
            for old in self._slots:
                if old.successor is slot:
                    old.successor = None
            return
        self._slots[index] = self._spawn()

    def _requeue_unstarted(self, slot: _Slot) -> None:
        """The pages sent to a worker after the one at hand, which it never began: first in line
        again, for another worker (they are not what killed it)."""
        with self._lock:
            while slot.jobs:
                self._queue.appendleft(slot.jobs.pop())

    def _fail_queue(self, exc: Exception) -> None:
        while self._queue:
            job = self._queue.popleft()
            if not job.future.done():
                job.future.set_exception(exc)

    # --- the manager thread ----------------------------------------------------------------------------------
    def _run(self) -> None:
        try:
            self._loop()
        except Exception:  # a bug here must not leave pages waiting forever
            logger.exception("extraction pool manager failed")
            with self._lock:
                self._broken = "the pool's manager failed"
                self._fail_queue(PoolBroken(self._broken))
            for slot in self._slots:
                for job in slot.jobs:
                    if not job.future.done():
                        job.future.set_exception(PoolBroken("the pool's manager failed"))

    def _loop(self) -> None:
        while True:
            self._dispatch()
            busy = [slot for slot in self._slots if slot.jobs]
            if not self._slots or (self._closing and not busy and not self._queue):
                return
            now = time.monotonic()
            deadline = min((slot.deadline for slot in busy), default=now + 1.0)
            with self._lock:
                free = any(self._takes(slot, len(slot.jobs)) for slot in self._slots)
                if free and self._queue:
                    continue  # a page came in after the dispatch: dispatch again
                self._wake_wanted = free
            waitables: list[Any] = [self._wake_r]
            for slot in self._slots:
                waitables.append(slot.conn)
                if slot.process.sentinel is not None:
                    waitables.append(slot.process.sentinel)
            ready = wait(waitables, timeout=max(0.0, min(deadline - now, 1.0)))
            if self._wake_r in ready:
                try:
                    while self._wake_r.recv(4096):
                        pass
                except (BlockingIOError, OSError):
                    pass
            for slot in list(self._slots):
                if slot not in self._slots:  # retired meanwhile (its successor's ready message came first)
                    continue
                if slot.conn in ready or (slot.process.sentinel is not None and slot.process.sentinel in ready):
                    self._receive(slot)
            now = time.monotonic()
            for slot in list(self._slots):
                if slot.jobs and now > slot.deadline:
                    self._timed_out(slot)
            self._reap()

    def _dispatch(self) -> None:
        # first every idle worker gets a page, then each one its next
        for depth in range(PREFETCH):
            for slot in self._slots:
                if len(slot.jobs) != depth or not self._takes(slot, depth):
                    continue
                with self._lock:
                    if not self._queue:
                        return
                    job = self._queue.popleft()
                if not job.future.running() and not job.future.set_running_or_notify_cancel():
                    continue  # cancelled while queued (a page put back in line is running already)
                slot.jobs.append(job)
                try:
                    slot.outbox.put(slot.message(job.task))
                except Exception as exc:  # a page that cannot be sent (not the worker's fault)
                    slot.jobs.pop()
                    job.future.set_exception(exc)
                    continue
                if depth == 0:
                    self._start_clock(slot)

    def _takes(self, slot: _Slot, depth: int) -> bool:
        """Whether the worker, holding ``depth`` pages, gets another one now."""
        if not slot.ready or depth >= PREFETCH or (slot.successor is not None and slot.successor.ready):
            return False
        # a worker due for recycling gets no page ahead: its successor, starting, takes the next
        return depth == 0 or slot.pages + depth < self.recycle_after

    def _start_clock(self, slot: _Slot) -> None:
        """The page at hand's time limit, from now: when it was sent to an idle worker, or when the
        worker's result for the page before arrived (the worker began it then, or just before)."""
        slot.deadline = time.monotonic() + (self.timeout + self.grace if self.timeout > 0 else 1e9)

    def _receive(self, slot: _Slot) -> None:
        try:
            while slot.conn.poll():
                kind, value = slot.conn.recv()
                if kind == "ready":
                    slot.ready = True
                    self.counts["cpu_seconds"] += value
                    self._startup_failures = 0
                    for old in list(self._slots):
                        if old.successor is slot and not old.jobs:
                            self._retire(old)
                elif slot.jobs:
                    job = slot.jobs.popleft()
                    if slot.jobs:
                        self._start_clock(slot)
                    slot.pages += 1
                    self.counts["pages"] += 1
                    self.counts["cpu_seconds"] += value.get("cpu", 0.0)
                    job.future.set_result(value)
                    if slot.successor is not None and slot.successor.ready and not slot.jobs:
                        self._retire(slot)
                        return
                    if slot.pages >= self.recycle_after and slot.successor is None and not self._closing:
                        slot.successor = self._spawn()
                        self._slots.append(slot.successor)
        except (EOFError, OSError):
            pass
        if not slot.process.is_alive() or slot.conn.closed:
            self._died(slot)

    def _retire(self, slot: _Slot) -> None:
        """A recycled worker, idle, its successor ready: told to stop (killed if it lingers)."""
        self.counts["recycled"] += 1
        self._slots.remove(slot)
        self._retiring.append((slot.process, time.monotonic()))
        self._stop(slot)

    def _died(self, slot: _Slot) -> None:
        slot.process.join(0.1)
        code = slot.process.exitcode
        job = slot.jobs.popleft() if slot.jobs else None
        self._requeue_unstarted(slot)
        if job is not None:
            self.counts["deaths"] += 1
            logger.error(
                "an extraction worker died on %s (exit code %s); the page is exported with the error, "
                "the crawl goes on",
                job.task.url,
                code,
            )
            slot.ready = True  # it did start: a page killed it
        elif not slot.ready:
            logger.error("an extraction worker died while starting (exit code %s)", code)
        self._replace(slot, kill=False)  # first: the page's caller may close the pool at once
        if job is not None:
            job.future.set_exception(
                WorkerDied(
                    f"the extraction worker died on this page (exit code {code}: killed, out of memory or crashed)"
                )
            )

    def _timed_out(self, slot: _Slot) -> None:
        job = slot.jobs.popleft()
        self._requeue_unstarted(slot)
        self.counts["timeouts"] += 1
        logger.error("extraction of %s ran past %g s: its worker is killed and replaced", job.task.url, self.timeout)
        self._replace(slot, kill=True)  # first: the page's caller may close the pool at once
        job.future.set_exception(
            PageTimeout(f"TimeLimitExceeded: no result within {self.timeout:g} s (the worker was killed)")
        )

    def _reap(self) -> None:
        now = time.monotonic()
        keep = []
        for process, since in self._retiring:
            if process.exitcode is not None:
                process.join(0)
            elif now - since > RETIRE_SECONDS:
                process.kill()
                process.join(1.0)
            else:
                keep.append((process, since))
        self._retiring = keep


def default_workers() -> int:
    """The machine's cores minus one (the reactor's), at least 1."""
    return max(1, (os.cpu_count() or 1) - 1)


if __name__ == "__main__":  # a worker: python -m newscrawl.extract_pool FD PARENT_PID
    from newscrawl.extract_pool import _worker_main as main

    main(int(sys.argv[1]), int(sys.argv[2]))
    # nothing to flush or close: skip the interpreter's teardown of the models and memos, which
    # takes a stopping worker (and the crawl's close, which waits for it) a good part of a second
    sys.stderr.flush()
    os._exit(0)
