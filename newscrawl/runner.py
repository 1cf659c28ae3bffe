"""Run a ``news`` crawl from plain Python (no Scrapy project needed) and return its stats.

Used by ``newscrawl crawl`` and ``newscrawl demo``. One crawl per process: Twisted's reactor
cannot be restarted, so callers that need several crawls run them in subprocesses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from newscrawl.profiles import LOCAL, POLITE


def crawl_settings(
    output: Path | None, *, local: bool = False, overrides: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Settings of a crawl into ``output``. The file is overwritten, except when the crawl has a
    ``JOBDIR`` (a resumable crawl), where it is appended to so a resume keeps what was exported."""
    settings: dict[str, Any] = dict(LOCAL if local else POLITE)
    settings["ADDONS"] = {"newscrawl.addon.NewscrawlAddon": 0}
    settings["SPIDER_MODULES"] = ["newscrawl.spiders"]
    settings.update(overrides or {})
    if output is not None and "FEEDS" not in (overrides or {}):
        formats = {".jsonl": "jsonlines", ".jl": "jsonlines", ".json": "json", ".csv": "csv", ".xml": "xml"}
        fmt = formats.get(output.suffix, "jsonlines")
        resumable = bool(settings.get("JOBDIR"))
        settings["FEEDS"] = {str(output): {"format": fmt, "encoding": "utf8", "overwrite": not resumable}}
    return settings


def run_crawl(
    start_urls: Sequence[str], output: Path | None, *, local: bool = False, overrides: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Crawl ``start_urls`` with the ``news`` spider, export items to ``output``; return stats."""
    from scrapy.crawler import CrawlerProcess
    from scrapy.settings import Settings

    from newscrawl.defaults import feed_errors, setting_errors
    from newscrawl.extras import extra_errors
    from newscrawl.spiders.news import NewsSpider

    settings = crawl_settings(output, local=local, overrides=overrides)
    checked = Settings(settings)
    errors = setting_errors(checked) + feed_errors(checked) + extra_errors(checked)
    if errors:  # the add-on would refuse them too, with a traceback from inside Scrapy
        raise SystemExit("newscrawl: invalid settings:\n  " + "\n  ".join(errors))
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(NewsSpider)
    process.crawl(crawler, start=",".join(start_urls))
    process.start()
    return dict(crawler.stats.get_stats()) if crawler.stats else {}
