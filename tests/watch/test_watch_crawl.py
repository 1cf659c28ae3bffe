"""Watch cycles on the publishing demo site: each article exported once, quiet cycles cost one
(conditional) request per front, corrections come out once with ``updated: true``, and a kill -9
at any point loses and duplicates nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from typing import Any

from newscrawl.demo.base import Site
from newscrawl.demo.publishing import PublishingSite
from newscrawl.demo.response import Response
from newscrawl.demo.server import serve_site

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def visible_articles(site: PublishingSite) -> set[str]:
    return set(site._site.article_paths())


def test_cycles_export_each_article_once_and_corrections_as_updates(watch_factory: Any) -> None:
    site = PublishingSite(hold=4)
    with serve_site(site, conditional=True) as served:
        watch = watch_factory(served.base_url)
        first = watch.cycle()
        assert first["newscrawl/watch/full_cycle"] is True
        assert set(watch.paths()) == visible_articles(site) and max(watch.paths().values()) == 1

        served.reset()
        quiet = watch.cycle()
        fronts = quiet["newscrawl/watch/state_fronts"]
        targets = [hit.target for hit in served.requests if hit.target != "/robots.txt"]
        assert len(targets) == len(set(targets)) <= fronts  # at most one request per front
        assert sum(hit.status == 304 for hit in served.requests) >= 0.8 * len(targets)  # mostly not modified
        assert quiet.get("item_scraped_count", 0) == 0

        published = [site.publish(), site.publish()]
        corrected = published[0]
        served.reset()
        busy = watch.cycle()
        site.change(corrected)
        site.change(min(visible_articles(site) - set(published)))  # an article of the first cycle too
        fixed = watch.cycle()

    counts = watch.paths()
    assert set(counts) == visible_articles(site)
    assert busy["item_scraped_count"] == 2 and busy["newscrawl/watch/items_new"] == 2
    assert fixed["newscrawl/watch/items_updated"] == 2 and fixed["item_scraped_count"] == 2
    updates = [item for item in watch.items() if item["updated"]]
    assert sorted(item["canonical_url"][len(served.base_url):] for item in updates) == sorted(site.changed)
    assert all(item["revision"] == 2 and "Correction 1" in item["body"] for item in updates)
    originals = {item["canonical_url"]: item for item in watch.items() if not item["updated"]}
    for item in updates:  # first_seen is the original export's; last_changed moves
        assert item["first_seen"] == originals[item["canonical_url"]]["first_seen"] <= item["last_changed"]
    assert all(count == 1 for path, count in counts.items() if path not in site.changed)
    assert all(counts[path] == 2 for path in site.changed)  # the original and the one update


class SlowArticles(Site):
    """The publishing site with article pages slowed down, so a kill lands mid-cycle."""

    def __init__(self, site: PublishingSite, delay: float) -> None:
        self.site, self.delay = site, delay
        self.truth = site.truth

    def resolve(self, path_and_query: str, base_url: str = "http://127.0.0.1") -> Response:
        if path_and_query.split("?")[0] in self.site._site.truth and \
                self.site._site.truth[path_and_query.split("?")[0]].kind == "article":
            time.sleep(self.delay)
        return self.site.resolve(path_and_query, base_url)


def _kill_when(watch: Any, lines: int, *settings: str) -> None:
    proc = subprocess.Popen(watch.command(*settings), cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while len(watch.items()) < lines and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the cycle ended before the kill: nothing was tested"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()


def test_kill_9_mid_cycle_loses_and_duplicates_nothing(watch_factory: Any) -> None:
    site = PublishingSite(hold=6)
    slow = SlowArticles(site, 0.15)
    # items one at a time, so the kill lands between two exports: the site-level article stage would
    # hold a cycle's few new items together until its evidence is in, and export them at once
    one_at_a_time = ("CONCURRENT_REQUESTS=2", "CONCURRENT_REQUESTS_PER_DOMAIN=2", "NEWSCRAWL_SITE_ARTICLES=false")
    with serve_site(slow, conditional=True) as served:
        watch = watch_factory(served.base_url)
        _kill_when(watch, 8, *one_at_a_time)  # during the first (full) cycle
        killed_at = len(watch.items())
        watch.cycle()
        assert set(watch.paths()) == visible_articles(site) and max(watch.paths().values()) == 1
        assert 8 <= killed_at < len(watch.items())

        for _ in range(6):
            site.publish()
        before = len(watch.items())
        _kill_when(watch, before + 2, *one_at_a_time)  # during an incremental cycle
        after = watch.cycle()
    counts = watch.paths()
    assert set(counts) == visible_articles(site)  # nothing lost
    assert max(counts.values()) == 1  # nothing exported twice
    # the next cycle exports only what the killed one had not (nothing when the kill came after the
    # last export: then only the state commit was cut, and nothing may come out twice)
    assert after.get("item_scraped_count", 0) < 6
