"""ExtractionPool: pages in worker processes; a page past the time limit or whose worker dies costs
only itself; workers are recycled; stylesheets and templates reach each worker once."""

from __future__ import annotations

import os
import signal
import time

import pytest

from newscrawl.extract_pool import (
    ExtractionPool,
    Options,
    PageTimeout,
    PoolBroken,
    Sheet,
    Task,
    TemplateRef,
    WorkerDied,
    _SizedLru,
    _Slot,
)

ARTICLE = ("<html><head><title>Council backs the river plan</title></head><body><article>"
           "<h1>Council backs the river plan</h1>"
           + "<p>The council voted on Tuesday to fund the riverside flood defences and a new footpath.</p>" * 12
           + "</article></body></html>")
# one element with 100,000 attributes: minutes inside lxml's parser, in one C call
FLOOD = "<html><body><div " + " ".join(f"a{i}=x" for i in range(100_000)) + "></div><p>After.</p></body></html>"


def _title(future) -> str:
    return future.result(120)["article"]["title"]


@pytest.fixture(scope="module")
def pool():
    pool = ExtractionPool(1, Options(timeout=2.0), timeout=2.0, grace=0.5, recycle_after=3)
    yield pool
    pool.close()


def test_pages_come_back_extracted_and_workers_are_recycled(pool):
    before = dict(pool.counts)
    futures = [pool.submit(Task(ARTICLE, f"https://news.example/2024/05/river-{i}/")) for i in range(8)]
    assert [_title(f) for f in futures] == ["Council backs the river plan"] * 8
    assert pool.counts["pages"] - before["pages"] == 8
    assert pool.counts["started"] > before["started"]  # a fresh worker took over after 3 pages
    deadline = time.monotonic() + 60
    while pool.counts["recycled"] == before["recycled"] and time.monotonic() < deadline:
        pool.submit(Task(ARTICLE, "https://news.example/2024/05/more/")).result(120)
    assert pool.counts["recycled"] > before["recycled"]
    assert len(pool._slots) <= 2  # never more than the worker and its successor


def test_a_page_past_the_time_limit_has_its_worker_killed_and_costs_only_itself(pool):
    started = time.monotonic()
    flood = pool.submit(Task(FLOOD, "https://news.example/flood/"))
    after = pool.submit(Task(ARTICLE, "https://news.example/2024/05/after/"))
    with pytest.raises(PageTimeout, match="TimeLimitExceeded"):
        flood.result(120)
    assert time.monotonic() - started < 2.0 + 0.5 + 5  # the limit, the grace and the kill, not minutes
    assert _title(after) == "Council backs the river plan"
    assert pool.counts["timeouts"] >= 1


def test_a_worker_killed_outright_loses_only_its_page():
    pool = ExtractionPool(1, Options(), timeout=0, recycle_after=1000)  # no time limit: the kill is external
    try:
        assert _title(pool.submit(Task(ARTICLE, "https://news.example/a/"))) == "Council backs the river plan"
        doomed = pool.submit(Task(FLOOD, "https://news.example/flood/"))
        waiting = pool.submit(Task(ARTICLE, "https://news.example/next/"))  # sent to the worker ahead
        deadline = time.monotonic() + 30
        while not any(len(slot.jobs) == 2 for slot in pool._slots) and time.monotonic() < deadline:
            time.sleep(0.01)
        victim = next(slot for slot in pool._slots if slot.jobs)
        assert [job.task.url for job in victim.jobs] == ["https://news.example/flood/", "https://news.example/next/"]
        os.kill(victim.process.pid, signal.SIGKILL)  # as the kernel's out-of-memory killer would
        with pytest.raises(WorkerDied, match="died"):
            doomed.result(60)
        # the page the dead worker held next, never begun, is extracted by its replacement
        assert _title(waiting) == "Council backs the river plan"
        assert _title(pool.submit(Task(ARTICLE, "https://news.example/b/"))) == "Council backs the river plan"
        assert pool.counts["deaths"] == 1 and pool.counts["started"] == 2
    finally:
        pool.close()


class _FakeTemplate:
    def __init__(self, template_id: str) -> None:
        self.id = template_id
        self.sent = 0

    def to_dict(self) -> dict:
        self.sent += 1
        return {"id": self.id}


def test_shared_state_is_sent_once_per_worker_and_again_after_eviction(monkeypatch):
    slot = _Slot(process=None, conn=None, outbox=None)
    monkeypatch.setattr(slot.sheets, "budget", 100)
    big = Sheet("https://news.example/site.css", "https://news.example/site.css", b"x" * 60)
    other = Sheet("https://news.example/other.css", "https://news.example/other.css", b"y" * 60)
    template = _FakeTemplate("t1")
    ref = TemplateRef("news.example", template)
    first = slot.message(Task(ARTICLE, "https://news.example/a/", [big], ref))
    second = slot.message(Task(ARTICLE, "https://news.example/b/", [big], ref))
    assert list(first["sheets"]) == [big.url] and first["templates"] == {"t1": {"id": "t1"}}
    assert second["sheets"] == {} and second["templates"] == {} and second["sheet_urls"] == [big.url]
    assert template.sent == 1
    third = slot.message(Task(ARTICLE, "https://news.example/c/", [other]))  # evicts site.css (budget 100)
    fourth = slot.message(Task(ARTICLE, "https://news.example/d/", [big]))
    assert list(third["sheets"]) == [other.url] and list(fourth["sheets"]) == [big.url]
    # the worker's cache, fed the same keys in the same order, holds what the mirror says
    worker_cache = _SizedLru(100)
    for message in (first, second, third, fourth):
        for url in message["sheet_urls"]:
            if url in message["sheets"]:
                worker_cache.add(url, len(message["sheets"][url][1]), object())
            else:
                assert worker_cache.touch(url) is not None
    assert list(worker_cache.entries) == list(slot.sheets.entries)


def test_stylesheets_reach_the_worker_and_style_the_page():
    narrow = "A second telling of the river story, laid out for narrow screens only, says the same."
    html = ARTICLE.replace("</title>", "</title><link rel=stylesheet href=/site.css>").replace(
        "</article>", f'<p class="narrow">{narrow}</p></article>')
    sheet = Sheet("https://news.example/site.css", "https://news.example/site.css", b".narrow { display: none }")
    pool = ExtractionPool(1, Options(), timeout=60)
    try:
        styled = pool.submit(Task(html, "https://news.example/2024/05/river/", [sheet])).result(120)
        plain = pool.submit(Task(html, "https://news.example/2024/05/river/")).result(120)
        again = pool.submit(Task(html, "https://news.example/2024/05/river-2/", [sheet])).result(120)
    finally:
        pool.close()
    assert narrow in plain["article"]["body"]
    assert narrow not in styled["article"]["body"]  # hidden by the sheet
    assert narrow not in again["article"]["body"]  # by the sheet the worker kept
    assert "riverside flood defences" in again["article"]["body"]
    assert styled["sheets_missing"] == again["sheets_missing"] == 0


def test_workers_that_cannot_start_break_the_pool_instead_of_respawning_forever():
    # an extractor that does not exist: every worker dies in its warm-up, before it is ready
    pool = ExtractionPool(1, Options(method="no-such-extractor"), timeout=60)
    try:
        with pytest.raises(PoolBroken, match="before they are ready"):
            pool.submit(Task(ARTICLE, "https://news.example/a/")).result(120)
        assert pool.broken and pool.counts["started"] == 3
        with pytest.raises(PoolBroken):  # refused at once from now on
            pool.submit(Task(ARTICLE, "https://news.example/b/")).result(1)
    finally:
        pool.close()
