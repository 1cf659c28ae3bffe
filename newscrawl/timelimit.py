"""A time limit on one call, for the batch commands (``newscrawl extract --batch --page-timeout``).

The core bounds its own work by input limits (size, elements, depth; tests/hostile), so a page never
should take long; this is the guard for what those limits miss, so that one page cannot stall a batch
of millions. It raises :class:`TimeLimitExceeded` inside the call from a ``SIGALRM`` timer. That
works only in a process's main thread (a batch worker's, the command's) and on platforms that have
the signal; elsewhere the call runs unlimited. A long call inside C code is interrupted when it
returns to Python.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from newscrawl.gcpause import recover


class TimeLimitExceeded(BaseException):
    """The call took longer than its time limit. A BaseException, like KeyboardInterrupt: the core
    turns every Exception of a page into warnings on an empty Article, and a page stopped for time
    must come out as an error instead."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise TimeLimitExceeded in the block after ``seconds`` (0 or less: no limit). A caller's own
    pending alarm (pytest-timeout's, a program's) is kept: it is put back afterwards with the time
    it has left, and when it is due first the block runs under it alone."""
    if seconds <= 0 or not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return
    remaining, interval = signal.getitimer(signal.ITIMER_REAL)
    if remaining and remaining <= seconds:
        yield
        return

    def expired(signum: int, frame: Any) -> None:
        raise TimeLimitExceeded(f"no result within {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expired)
    started = time.monotonic()
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        try:  # the timer may expire just here: the handler is put back whatever happens
            signal.setitimer(signal.ITIMER_REAL, 0)
        finally:
            signal.signal(signal.SIGALRM, previous)
            if remaining:
                signal.setitimer(signal.ITIMER_REAL, max(remaining - (time.monotonic() - started), 1e-6), interval)


@contextmanager
def page_time_limit(seconds: float) -> Iterator[None]:
    """:func:`time_limit` around one page's extraction. A stop can land inside the collector pause's
    own bookkeeping (:mod:`newscrawl.gcpause`), so it is followed by ``gcpause.recover()``."""
    try:
        with time_limit(seconds):
            yield
    except TimeLimitExceeded:
        recover()
        raise
