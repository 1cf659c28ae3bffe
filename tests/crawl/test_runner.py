from pathlib import Path

from newscrawl.runner import crawl_settings


def test_output_is_overwritten_unless_the_crawl_is_resumable():
    fresh = crawl_settings(Path("out.jsonl"), local=True)
    assert fresh["FEEDS"] == {"out.jsonl": {"format": "jsonlines", "encoding": "utf8", "overwrite": True}}
    resumable = crawl_settings(Path("out.csv"), overrides={"JOBDIR": "crawls/1"})
    assert resumable["FEEDS"]["out.csv"]["overwrite"] is False and resumable["FEEDS"]["out.csv"]["format"] == "csv"
    own = crawl_settings(Path("out.jsonl"), overrides={"FEEDS": {"s3://b/x.jsonl": {"format": "jsonlines"}}})
    assert list(own["FEEDS"]) == ["s3://b/x.jsonl"]
    assert fresh["NEWSCRAWL_CSS_OFFSITE"] is False and crawl_settings(None)["ROBOTSTXT_OBEY"] is True
