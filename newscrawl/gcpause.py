"""The cyclic garbage collector paused while a page is extracted, and only then.

Extracting a page allocates a few hundred thousand container objects, all freed by reference
counting when the call returns; the collector's passes during the call find nothing to free, yet
each one walks the young objects and every few a pass walks every long-lived object of the
process (models, the CSS caches). Pausing it inside ``extract()`` halved the collector's CPU and
cut extraction CPU by ~7% on cross-site pages (docs/decisions.md, "Extraction speed, round 6").
The process's own policy is left alone: the collector is re-enabled on return, and never
enabled by us if the caller had disabled it. Cyclic garbage made meanwhile is not lost: the
allocation count keeps running, so the first allocation after the pause starts the collection
that was due.

Nested calls and calls from several threads share one pause (a counter under a lock): the
collector resumes when the last of them returns. Threads that extract back to back without a
gap therefore keep it paused throughout.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0  # calls inside the pause
_holding = False  # the pause turned the collector off and has not turned it back on yet


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause automatic garbage collection for the duration of the block (see module doc)."""
    global _depth, _holding
    with _lock:
        if _depth == 0 and gc.isenabled():
            _holding = True  # set first: a stop between the two lines leaves recover() a no-op enable
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _holding:
                gc.enable()
                _holding = False


def recover() -> None:
    """After an asynchronous exception (a page's time limit, :mod:`newscrawl.timelimit`) stopped this
    process's only extracting thread midway, possibly inside this module's own bookkeeping: nothing
    is inside the pause any more, so the count is reset and the collector put back as it was. Only
    for a process that extracts in one thread (the batch commands and their workers, a crawl's
    reactor thread); :func:`newscrawl.timelimit.page_time_limit` calls it."""
    global _depth, _holding
    with _lock:
        _depth = 0
        if _holding:  # only what the pause turned off: a collector the caller had disabled stays off
            gc.enable()
            _holding = False
