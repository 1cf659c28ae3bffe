"""The watch core without Scrapy: intervals, fingerprints, the SQLite state and one cycle's rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from newscrawl.watch.cycle import DUPLICATE, NEW, UNCHANGED, UPDATED, Cycle, Link
from newscrawl.watch.entries import dated_entries, parse_date
from newscrawl.watch.fingerprint import Revision
from newscrawl.watch.schedule import Bounds, next_interval, parse_duration
from newscrawl.watch.state import SqliteState

BODY = "The county board approved the new water plan after a long public hearing on Tuesday night. " * 4


def article(url: str, title: str = "Board approves water plan", body: str = BODY, **extra: object) -> dict:
    return {"url": url, "canonical_url": url, "title": title, "published": "2025-03-01", "body": body, **extra}


@pytest.fixture
def state(tmp_path: Path) -> SqliteState:
    store = SqliteState(tmp_path / "state")
    yield store
    store.close()


def test_intervals_adapt_within_bounds() -> None:
    bounds = Bounds.parse("10m..1h")
    assert (bounds.low, bounds.high) == (600, 3600)
    assert Bounds.parse("15m").high == 8 * 900
    assert parse_duration("90s") == 90 and parse_duration("2h") == 7200
    with pytest.raises(ValueError):
        parse_duration("soon")
    interval = next_interval(None, 0, bounds)
    assert interval == 600
    for _ in range(10):
        interval = next_interval(interval, 0, bounds)
    assert interval == 3600  # quiet front: drifts to the upper bound
    assert next_interval(interval, 3, bounds) == 1800  # new articles: halved
    assert next_interval(700, 1, bounds) == 600  # never below the lower bound


def test_fingerprint_ignores_markup_noise_and_needs_a_body() -> None:
    a = Revision.of("Board approves  water plan", "2025-03-01", BODY)
    b = Revision.of("board approves water plan!", "2025-03-01", BODY.replace(" ", "\n  "))
    assert a.fingerprint == b.fingerprint and not a.changes(b)
    c = Revision.of("Board approves water plan", "2025-03-01", BODY + " Correction: the vote was 4-1.")
    assert c.fingerprint != a.fingerprint and a.changes(c) == ["body"]
    assert Revision.of("Teaser", "", "Short text.").fingerprint is None


def test_dated_entries_of_sitemaps_and_feeds() -> None:
    sitemap = (b'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
               b"<url><loc>http://a.test/x/</loc><lastmod>2025-03-02T10:00:00+00:00</lastmod></url>"
               b"<url><loc>http://a.test/y/</loc></url></urlset>")
    assert dated_entries(sitemap) == {"http://a.test/x/": "2025-03-02T10:00:00+00:00"}
    rss = (b"<rss><channel><item><title>T</title><link>http://a.test/z/</link>"
           b"<pubDate>Sun, 02 Mar 2025 10:00:00 +0000</pubDate></item></channel></rss>")
    entries = dated_entries(rss)
    assert parse_date(entries["http://a.test/z/"]) == parse_date("2025-03-02T10:00:00Z")
    assert dated_entries(b"not xml") == {}


def test_verdicts_new_duplicate_updated_unchanged(state: SqliteState) -> None:
    cycle = Cycle(state, bounds=Bounds(0, 0), now=1000.0)
    first = article("http://a.test/one/")
    assert cycle.judge(first).kind == NEW
    cycle.exported(first)
    # the same content under another URL (re-slugged) in the same cycle and in a later one
    moved = article("http://a.test/one-renamed/")
    assert cycle.judge(moved).kind == DUPLICATE
    later = Cycle(state, bounds=Bounds(0, 0), now=2000.0)
    assert later.judge(moved).kind == DUPLICATE
    assert later.judge(first).kind == UNCHANGED
    edited = article("http://a.test/one/", body=BODY + " Correction: the vote was 4-1.")
    verdict = Cycle(state, bounds=Bounds(0, 0), now=3000.0).judge(edited)
    assert (verdict.kind, verdict.first_seen, verdict.last_changed, verdict.revision) == (UPDATED, 1000.0, 3000.0, 2)


def test_reconcile_records_unrecorded_lines_and_cuts_a_torn_one(state: SqliteState, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    one, two = article("http://a.test/one/"), article("http://a.test/two/", title="Another story entirely")
    out.write_text(json.dumps(one) + "\n", encoding="utf-8")
    cycle = Cycle(state, bounds=Bounds(0, 0))
    cycle.exported(one, outputs=[(str(out), out.stat().st_size)])
    # a kill after the second line was written but before it was recorded, mid-way through a third
    with out.open("a", encoding="utf-8") as f:
        f.write(json.dumps(two) + "\n" + '{"url": "http://a.test/thr')
    again = Cycle(state, bounds=Bounds(0, 0))
    assert again.reconcile(str(out)) == 1
    assert out.read_text(encoding="utf-8").count("\n") == 2 and out.read_text().endswith("\n")
    assert again.judge(two).kind == UNCHANGED  # recorded: never exported twice
    assert again.reconcile(str(out)) == 0  # idempotent


def test_front_validators_kept_only_when_everything_it_announced_is_recorded(state: SqliteState) -> None:
    cycle = Cycle(state, bounds=Bounds(60, 600), now=0.0)
    cycle.visit("http://a.test/", "home", "a.test", etag='"v1"')
    follows = cycle.follow("http://a.test/", [Link("http://a.test/new/", "page"), Link("http://a.test/old/", "page")])
    assert [f.url for f in follows] == ["http://a.test/new/", "http://a.test/old/"]
    cycle.page_done("http://a.test/old/")
    cycle.finish(completed=True)
    front = {f.url: f for f in state.fronts()}["http://a.test/"]
    assert front.etag == ""  # /new/ was never recorded (a kill, an error): read the front in full again
    nxt = Cycle(state, bounds=Bounds(60, 600), now=100.0)
    assert not nxt.full and [f.url for f in nxt.due_fronts()] == ["http://a.test/"]
    nxt.visit("http://a.test/", "home", "a.test", etag='"v2"')
    follows = nxt.follow("http://a.test/", [Link("http://a.test/new/", "page"), Link("http://a.test/old/", "page")])
    assert [f.url for f in follows] == ["http://a.test/new/"]  # only the unrecorded one
    nxt.exported(article("http://a.test/new/"), "http://a.test/new/")
    nxt.finish(completed=True)
    front = {f.url: f for f in state.fronts()}["http://a.test/"]
    assert front.etag == '"v2"' and front.interval == 60 and front.found == 3
    assert Cycle(state, bounds=Bounds(60, 600), now=110.0).due_fronts() == []  # not due before its interval


def test_links_below_fronts_are_not_followed_and_old_entries_expire(state: SqliteState) -> None:
    cycle = Cycle(state, bounds=Bounds(0, 0), now=0.0, forget_days=1)
    cycle.page_done("http://a.test/old/")
    cycle.finish(completed=True)
    later = Cycle(state, bounds=Bounds(0, 0), now=10.0, forget_days=1)
    assert later.follow("http://a.test/some-article/", [Link("http://a.test/deeper/", "page")]) == []
    later.now = 3 * 86400.0
    later.finish(completed=True)
    assert state.pages(["http://a.test/old/"]) == {}


def test_since_follows_only_recent_feed_entries_and_remembers_the_rest(state: SqliteState) -> None:
    from datetime import UTC, datetime

    cycle = Cycle(state, bounds=Bounds(0, 0), now=0.0, since=datetime(2025, 5, 1, tzinfo=UTC))
    cycle.visit("http://a.test/", "home", "a.test")
    home_links = [Link("http://a.test/old-story/", "page"), Link("http://a.test/feed/", "feed")]
    assert [f.url for f in cycle.follow("http://a.test/", home_links)] == ["http://a.test/feed/"]  # not the page
    cycle.visit("http://a.test/feed/", "feed", "a.test")
    follows = cycle.follow("http://a.test/feed/", [Link("http://a.test/new/", "page", "2025-05-02T08:00:00Z"),
                                                   Link("http://a.test/april/", "page", "2025-04-20T08:00:00Z")])
    assert [f.url for f in follows] == ["http://a.test/new/"]
    cycle.page_done("http://a.test/new/")
    cycle.finish(completed=True)
    later = Cycle(state, bounds=Bounds(0, 0), now=10.0)
    later.visit("http://a.test/", "home", "a.test")
    links = [Link(u, "page") for u in ("http://a.test/old-story/", "http://a.test/april/", "http://a.test/fresh/")]
    assert [f.url for f in later.follow("http://a.test/", links)] == ["http://a.test/fresh/"]


def test_sitemaps_of_an_index_are_read_when_their_lastmod_there_changes(state: SqliteState) -> None:
    index, child = "http://a.test/sitemap.xml", "http://a.test/sitemap-2025-03.xml"
    cycle = Cycle(state, bounds=Bounds(0, 0), now=0.0)
    cycle.visit(index, "sitemapindex", "a.test", etag='"i1"')
    assert [f.url for f in cycle.follow(index, [Link(child, "sitemap", "2025-03-01")])] == [child]
    cycle.visit(child, "sitemap", "a.test", parent=index, lastmod="2025-03-01", etag='"c1"')
    cycle.finish(completed=True)
    later = Cycle(state, bounds=Bounds(0, 0), now=10.0)
    assert [f.url for f in later.due_fronts()] == [index]  # the child waits for its index
    later.visit(index, "sitemapindex", "a.test")
    assert later.follow(index, [Link(child, "sitemap", "2025-03-01")]) == []
    follows = later.follow(index, [Link(child, "sitemap", "2025-03-02")])
    assert [(f.url, f.headers) for f in follows] == [(child, {"If-None-Match": '"c1"'})]


def test_a_front_answering_304_keeps_what_it_lists_from_being_forgotten(state: SqliteState) -> None:
    day = 86400.0
    cycle = Cycle(state, bounds=Bounds(0, 0), now=0.0, forget_days=30)
    cycle.visit("http://a.test/", "home", "a.test", etag='"v1"')
    cycle.follow("http://a.test/", [Link("http://a.test/kept/", "page"), Link("http://a.test/dropped/", "page")])
    cycle.exported(article("http://a.test/kept/"))
    cycle.page_done("http://a.test/dropped/")
    cycle.finish(completed=True)
    # day 20: the front changed and no longer lists /dropped/; days 40 and 60: 304
    later = Cycle(state, bounds=Bounds(0, 0), now=20 * day, forget_days=30)
    later.visit("http://a.test/", "home", "a.test", etag='"v2"')
    assert later.follow("http://a.test/", [Link("http://a.test/kept/", "page")]) == []
    later.finish(completed=True)
    for now in (40 * day, 60 * day):
        quiet = Cycle(state, bounds=Bounds(0, 0), now=now, forget_days=30)
        quiet.visit("http://a.test/", "home", "a.test", status=304)
        quiet.finish(completed=True)
    assert set(state.pages(["http://a.test/kept/", "http://a.test/dropped/"])) == {"http://a.test/kept/"}
    assert state.article("http://a.test/kept/") is not None  # never exported again as new
