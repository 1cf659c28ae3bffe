from pathlib import Path

import pytest

from newscrawl.defaults import feed_errors
from newscrawl.runner import crawl_settings, run_crawl


def test_output_is_overwritten_unless_the_crawl_is_resumable():
    fresh = crawl_settings(Path("out.jsonl"), local=True)
    assert fresh["FEEDS"] == {"out.jsonl": {"format": "jsonlines", "encoding": "utf8", "overwrite": True}}
    resumable = crawl_settings(Path("out.csv"), overrides={"JOBDIR": "crawls/1"})
    assert resumable["FEEDS"]["out.csv"]["overwrite"] is False and resumable["FEEDS"]["out.csv"]["format"] == "csv"
    own = crawl_settings(Path("out.jsonl"), overrides={"FEEDS": {"s3://b/x.jsonl": {"format": "jsonlines"}}})
    assert list(own["FEEDS"]) == ["s3://b/x.jsonl"]
    assert fresh["NEWSCRAWL_CSS_OFFSITE"] is False and crawl_settings(None)["ROBOTSTXT_OBEY"] is True


def test_an_output_that_cannot_be_written_is_refused_before_the_crawl(tmp_path):
    """Scrapy opens the feed at the first item; when that fails it logs an error per item and the
    crawl runs to its end exporting nothing, exit status 0. ``newscrawl crawl`` and the add-on
    (``scrapy crawl news -O PATH``) now refuse such a path at once."""
    from scrapy.settings import Settings

    from newscrawl.addon import NewscrawlAddon

    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    for output, reason in ((blocker / "out.jsonl", "cannot write"), (tmp_path, "a directory")):
        with pytest.raises(SystemExit) as info:
            run_crawl(["http://127.0.0.1:9/"], output, local=True)
        assert f"cannot write {output}" in str(info.value.code) and reason in str(info.value.code)
        with pytest.raises(ValueError, match="cannot write"):
            NewscrawlAddon().update_settings(Settings({"FEEDS": {str(output): {"format": "jsonlines"}}}))
    nested = tmp_path / "new" / "dir" / "out.jsonl"
    placeholders = str(blocker / "%(time)s.jsonl")  # resolved by Scrapy at open: not checked here
    assert feed_errors(Settings({"FEEDS": {str(nested): {}, "s3://bucket/x.jsonl": {}, placeholders: {}}})) == []
    assert nested.parent.is_dir()  # a missing folder is created, as the feed exporter would
