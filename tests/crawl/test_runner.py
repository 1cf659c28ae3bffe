from pathlib import Path

import pytest

from newscrawl.runner import _check_writable, crawl_settings, run_crawl


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
    crawl runs to its end exporting nothing, exit status 0."""
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    for output, reason in ((blocker / "out.jsonl", "cannot write"), (tmp_path, "a directory")):
        with pytest.raises(SystemExit) as info:
            run_crawl(["http://127.0.0.1:9/"], output, local=True)
        assert f"cannot write {output}" in str(info.value.code) and reason in str(info.value.code)
    nested = tmp_path / "new" / "dir" / "out.jsonl"
    _check_writable(nested)  # a missing folder is created, as the feed exporter would
    assert nested.parent.is_dir()
