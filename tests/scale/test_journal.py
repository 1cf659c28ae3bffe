"""The crash journal's bookkeeping without a crawl: replay, compaction, torn lines, done marks,
and the by-URL dedupe of a feed."""

from __future__ import annotations

import json

from newscrawl.journal import Journal, dedupe_jsonl


def test_replay_takes_queued_minus_done_and_skips_a_torn_line(tmp_path):
    journal = Journal(tmp_path)
    journal.open()
    journal._write({"q": "aa", "r": {"url": "http://x/1"}})
    journal._write({"q": "bb", "r": {"url": "http://x/2"}})
    journal._write({"d": "aa"})
    journal.exported("http://x/1", "http://x/one")
    journal.close()
    with journal.path.open("a") as f:
        f.write('{"q": "cc", "r": {"ur')  # the kill cut this line
    state = journal.replay()
    assert state.seen == {"aa", "bb"} and list(state.pending) == ["bb"]
    assert state.exported == {"http://x/1": "http://x/one"} and state.torn_lines == 1
    journal.compact(state)
    again = journal.replay()
    assert (again.seen, list(again.pending), again.exported, again.torn_lines) == ({"aa", "bb"}, ["bb"], state.exported, 0)


def test_a_page_is_done_only_after_all_its_outputs(tmp_path):
    journal = Journal(tmp_path)
    journal.open()
    journal.expect("p")  # the callback
    journal.expect("p")  # a request it yielded
    journal.expect("p")  # an item it yielded
    journal.settle("p")  # the request reached the scheduler
    journal.settle("p")  # the callback's output is exhausted
    journal.close()
    assert journal.replay().pending == {} and "p" in journal.outstanding
    journal.open()
    journal.settle("p")  # the item went through the pipelines and the feeds
    journal.settle(None)
    journal.close()
    assert [json.loads(line) for line in journal.path.read_text().splitlines()] == [{"d": "p"}]


def test_dedupe_keeps_the_first_line_per_url(tmp_path):
    feed = tmp_path / "items.jsonl"
    feed.write_text('{"url": "a", "n": 1}\n{"url": "b"}\n{"url": "a", "n": 2}\n{"url": "c"')
    assert dedupe_jsonl(feed) == 2
    assert [json.loads(line) for line in feed.read_text().splitlines()] == [{"url": "a", "n": 1}, {"url": "b"}]


def test_a_journaled_request_that_no_longer_decodes_is_skipped_not_fatal(tmp_path):
    """A pending request whose callback the spider no longer has (renamed between versions) used to
    stop the resumed crawl at open; it is now skipped with an error and a counter, stays in the
    journal, and the other pending requests resume."""
    import scrapy
    from scrapy.utils.test import get_crawler

    from newscrawl.journal import JournalScheduler

    class Probe(scrapy.Spider):
        name = "probe"

        def parse(self, response):  # pragma: no cover (never downloaded)
            yield from ()

    journal = Journal(tmp_path / "newscrawl")
    journal.directory.mkdir(parents=True)
    journal.open()
    journal._write({"q": "aa", "r": {"url": "http://127.0.0.1/renamed", "callback": "parse_old"}})
    journal._write({"q": "bb", "r": {"url": "http://127.0.0.1/fine", "callback": "parse"}})
    journal.close()
    crawler = get_crawler(Probe, {"JOBDIR": str(tmp_path),  # a queue that needs no running engine
                                  "SCHEDULER_PRIORITY_QUEUE": "scrapy.pqueues.ScrapyPriorityQueue"})
    spider = Probe.from_crawler(crawler)
    crawler.spider = spider
    scheduler = JournalScheduler.from_crawler(crawler)
    scheduler.open(spider)
    assert crawler.stats.get_value("newscrawl/journal/unreadable") == 1
    assert len(scheduler) == 1 and scheduler.next_request().url == "http://127.0.0.1/fine"
    scheduler.close("finished")
    assert "aa" in Journal(tmp_path / "newscrawl").replay().pending  # kept for a later version
