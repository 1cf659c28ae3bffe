"""The demo site publishing over time, for the watch (incremental crawling) tests and benchmark.

``PublishingSite(seed=7, hold=12, every=None, changes=3)`` serves the demo site of ``seed`` with
its ``hold`` newest linked articles held back; each :meth:`publish` releases the oldest held one
(it then shows on the home page, its section fronts, the RSS/Atom feeds and the sitemaps, exactly
as on the full demo site), and :meth:`change` corrects a published article (a correction
paragraph and a new "Updated" time: its sitemap ``lastmod`` and body change). With ``every``
seconds, releases happen by themselves on that clock (checked at each request), and after every
third release one of the earlier released articles is corrected, ``changes`` times in all.

``released`` ({path: time published}) and ``changed`` ({path: [times corrected]}) are the truth
the benchmark scores against. Serve it with ``serve_site(site, conditional=True)`` so unchanged
pages answer ``304 Not Modified`` to conditional requests.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from datetime import timedelta

from newscrawl.demo.base import DEFAULT_BASE, Site
from newscrawl.demo.model import PageTruth
from newscrawl.demo.response import Response
from newscrawl.demo.site import DemoSite


class PublishingSite(Site):
    def __init__(
        self,
        seed: int = 7,
        *,
        hold: int = 12,
        every: float | None = None,
        changes: int = 3,
        clock: Callable[[], float] = time.time,
    ) -> None:
        full = DemoSite(seed)
        self.seed = seed
        linked = sorted((a for a in full.articles if a.only_in is None), key=lambda a: a.published)
        self.queue = [a.idx for a in linked[-hold:]] if hold else []  # oldest held first
        self.paths = {a.idx: a.path for a in full.articles}
        self.every = every
        self.changes_left = changes
        self.clock = clock
        self.started = clock()
        self.released: dict[str, float] = {}
        self.changed: dict[str, list[float]] = {}
        self._corrections: dict[int, int] = {}  # article idx -> number of corrections
        self._lock = threading.RLock()
        self._site = self._build()

    @property
    def truth(self) -> Mapping[str, PageTruth]:  # type: ignore[override]
        return self._site.truth

    def _hidden(self) -> frozenset[int]:
        return frozenset(self.queue)

    def _build(self) -> DemoSite:
        site = DemoSite(self.seed, hidden=self._hidden())
        for art in site.articles:
            for n in range(1, self._corrections.get(art.idx, 0) + 1):
                note = f"Correction {n}: an earlier version of this story misstated a figure; it has been updated."
                art.paragraphs = (*art.paragraphs, note)
                art.modified = art.published + timedelta(days=3, hours=n)
        return site

    def publish(self, when: float | None = None) -> str | None:
        """Release the next held article; its path (None when none is left)."""
        with self._lock:
            if not self.queue:
                return None
            idx = self.queue.pop(0)
            self.released[self.paths[idx]] = self.clock() if when is None else when
            self._site = self._build()
            return self.paths[idx]

    def change(self, path: str, when: float | None = None) -> None:
        """Correct a published article (body and modified date change)."""
        with self._lock:
            idx = next(i for i, p in self.paths.items() if p == path)
            if idx in self.queue:
                raise ValueError(f"{path} is not published yet")
            self._corrections[idx] = self._corrections.get(idx, 0) + 1
            self.changed.setdefault(path, []).append(self.clock() if when is None else when)
            self._site = self._build()

    def _advance(self) -> None:
        if not self.every:
            return
        with self._lock:
            due = int((self.clock() - self.started) // self.every)
            while len(self.released) < due and self.queue:
                when = self.started + (len(self.released) + 1) * self.every
                self.publish(when)
                order = list(self.released)
                if len(order) % 3 == 0 and self.changes_left > 0 and len(order) >= 2:
                    self.changes_left -= 1
                    self.change(order[-2], when)

    def resolve(self, path_and_query: str, base_url: str = DEFAULT_BASE) -> Response:
        self._advance()
        return self._site.resolve(path_and_query, base_url)
