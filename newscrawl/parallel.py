"""An ordered map over worker processes, for the batch commands (``extract --batch``, ``evaluate``).

Extraction is CPU-bound Python, so one process uses one core. ``--workers N`` spreads the pages over N
processes and keeps what the commands promise: results come back in input order, with at most a
few items per worker in flight (a manifest of millions of lines is never read ahead), and no item
is lost when a worker dies. A worker killed by the kernel (out of memory), crashing in C code or
exiting breaks the whole pool in ``concurrent.futures``; the items that were in flight then run
again one at a time in a fresh single-worker pool, so only the item that kills its worker again is
reported (as :class:`Failed`), and the rest of the input goes on in a new pool.

Workers never outlive the batch: each watches its parent and exits within a second of it being
gone (a parent killed outright runs no clean-up), and leaves Ctrl-C to the parent, which shuts
the pool down.

Workers are started with the ``spawn`` method: each imports newscrawl afresh (about a second), which
is safe whatever threads the parent runs and behaves the same on every platform. ``initializer``
builds a worker's per-process state once (the extractor and its models), rather than pickling it
with every item.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import BrokenExecutor, Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

logger = logging.getLogger(__name__)

T = TypeVar("T")
R = TypeVar("R")

IN_FLIGHT_PER_WORKER = 4  # enough to keep each worker busy while the parent writes results
PARENT_CHECK_SECONDS = 1.0  # how often a worker checks that its parent is still there
# Items in a row that each kill a fresh worker: then no worker can run (an initializer that fails, a
# broken install), and the map stops with WorkersCannotRun instead of failing every item one by one.
MAX_DEATHS_IN_A_ROW = 8


@dataclass(frozen=True)
class Failed:
    """An item whose call raised in the worker, or whose worker process died on it (``died``)."""

    reason: str
    died: bool = False


class WorkersCannotRun(RuntimeError):
    """Fresh worker processes died on MAX_DEATHS_IN_A_ROW items in a row."""


def resolve_workers(value: int) -> int:
    """``--workers`` as given: N >= 1 processes, 0 for one per CPU; anything else is an error."""
    if value < 0:
        raise ValueError(f"workers must be 0 (one per CPU) or a positive number, not {value}")
    return value or os.cpu_count() or 1


def ordered_map(
    func: Callable[[T], R],
    items: Iterable[T],
    workers: int = 1,
    *,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
) -> Iterator[tuple[T, R | Failed]]:
    """``(item, func(item))`` for each item, in input order, computed by ``workers`` processes
    (``workers`` <= 1: in this process, after calling ``initializer`` here). ``func`` and
    ``initializer`` must be importable module-level functions; items and results must pickle."""
    if workers <= 1:
        if initializer is not None:
            initializer(*initargs)
        for item in items:
            try:
                yield item, func(item)
            except Exception as exc:  # the same outcome as in a worker
                yield item, Failed(f"{exc.__class__.__name__}: {exc}")
        return
    yield from _pooled(func, iter(items), workers, initializer, initargs)


def _new_pool(workers: int, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> ProcessPoolExecutor:
    # imported here: multiprocessing costs ~20 ms, and the commands import this module on every run
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(os.getpid(), initializer, initargs),
    )


def _start_worker(parent: int, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> None:
    """Runs first in each worker: :func:`guard_worker`, then the caller's initializer."""
    guard_worker(parent)
    if initializer is not None:
        initializer(*initargs)


def guard_worker(parent: int) -> None:
    """In a worker process: a watchdog that ends it when its parent is gone, and Ctrl-C left to the
    parent. A parent killed outright (SIGTERM, SIGKILL, out of memory) runs no clean-up, and its
    workers, blocked on a queue whose other end they hold themselves, would wait forever."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="newscrawl-parent-watch", daemon=True).start()
    # Ctrl-C reaches the whole process group: the parent stops the batch and shuts the pool down,
    # so the workers leave it to the parent instead of each printing a traceback
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _outcome(future: Future[R]) -> R | Failed:
    """The future's result, or Failed for an exception the call raised; a broken pool (BrokenExecutor) passes."""
    try:
        return future.result()
    except BrokenExecutor:
        raise
    except Exception as exc:
        return Failed(f"{exc.__class__.__name__}: {exc}")


def _submit(pool: ProcessPoolExecutor, func: Callable[[T], R], item: T) -> Future[R]:
    """``pool.submit``; on a pool that broke meanwhile, a future holding that error, so the item
    joins the ones run again."""
    try:
        return pool.submit(func, item)
    except BrokenExecutor as exc:
        future: Future[R] = Future()
        future.set_exception(exc)
        return future


def _pooled(
    func: Callable[[T], R],
    source: Iterator[T],
    workers: int,
    initializer: Callable[..., None] | None,
    initargs: tuple[Any, ...],
) -> Iterator[tuple[T, R | Failed]]:
    limit = IN_FLIGHT_PER_WORKER * workers
    pending: deque[tuple[T, Future[R]]] = deque()
    deaths = 0  # items in a row whose worker died on them
    pool = _new_pool(workers, initializer, initargs)
    try:
        while True:
            while len(pending) < limit:
                try:
                    item = next(source)
                except StopIteration:
                    break
                pending.append((item, _submit(pool, func, item)))
            if not pending:
                pool.shutdown(wait=True)  # the workers have exited when the caller goes on
                return
            item, future = pending.popleft()
            try:
                outcome = _outcome(future)
            except BrokenExecutor:
                pool.shutdown(wait=True, cancel_futures=True)
                retry = [(item, future), *pending]
                pending.clear()
                logger.warning("a worker process died; %d items in flight run again one at a time", len(retry))
                for item, outcome in _isolated(func, retry, initializer, initargs):
                    deaths = deaths + 1 if isinstance(outcome, Failed) and outcome.died else 0
                    if deaths >= MAX_DEATHS_IN_A_ROW:
                        raise WorkersCannotRun(
                            f"worker processes died on {deaths} items in a row, each in a "
                            "fresh process: they cannot run (see the errors above)"
                        ) from None
                    yield item, outcome
                pool = _new_pool(workers, initializer, initargs)
                continue
            deaths = 0
            yield item, outcome
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def _isolated(
    func: Callable[[T], R],
    retry: list[tuple[T, Future[R]]],
    initializer: Callable[..., None] | None,
    initargs: tuple[Any, ...],
) -> Iterator[tuple[T, R | Failed]]:
    """The items in flight when a pool broke, in order: a result that was already in is kept; the
    others run alone in a one-worker pool, so a death names its item (the pool is renewed after it)."""
    pool: ProcessPoolExecutor | None = None
    try:
        for item, future in retry:
            if future.done() and not future.cancelled():
                try:
                    outcome: R | Failed = _outcome(future)
                    yield item, outcome
                    continue
                except BrokenExecutor:
                    pass  # it was in flight when the worker died: run it again
            if pool is None:
                pool = _new_pool(1, initializer, initargs)
            try:
                outcome = _outcome(pool.submit(func, item))
            except BrokenExecutor:
                pool.shutdown(wait=True)
                pool = None
                logger.error("a worker process died on an item; it is reported as failed, the rest go on")
                outcome = Failed("the worker process died on this item (killed, out of memory or crashed)", died=True)
            yield item, outcome
    finally:
        if pool is not None:
            pool.shutdown(wait=True)
