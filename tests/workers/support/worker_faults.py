"""A Scrapy extension for tests: SIGKILLs the extraction worker whose page at hand is one whose URL
ends with ``TEST_KILL_WORKER_ON`` (as the out-of-memory killer or a segfault would), at the moment
the worker begins it (the pool starts the page's clock). Loaded into crawl subprocesses through
PYTHONPATH and ``EXTENSIONS``."""

from __future__ import annotations

import os
import signal
import time
from typing import Any

from newscrawl import extract_pool


class KillWorker:
    def __init__(self, suffix: str) -> None:
        original = extract_pool.ExtractionPool._start_clock

        def start_clock(pool: Any, slot: Any) -> None:
            original(pool, slot)
            if (slot.jobs[0].task.url or "").endswith(suffix):
                os.kill(slot.process.pid, signal.SIGKILL)
                deadline = time.monotonic() + 10
                while slot.process.is_alive() and time.monotonic() < deadline:
                    time.sleep(0.01)

        extract_pool.ExtractionPool._start_clock = start_clock  # type: ignore[method-assign]

    @classmethod
    def from_crawler(cls, crawler: Any) -> KillWorker:
        return cls(crawler.settings.get("TEST_KILL_WORKER_ON"))
