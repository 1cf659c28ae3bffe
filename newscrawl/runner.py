"""Run a ``news`` crawl from plain Python (no Scrapy project needed) and return its stats.

Used by ``newscrawl crawl`` and ``newscrawl demo``. One crawl per process: Twisted's reactor
cannot be restarted, so callers that need several crawls run them in subprocesses.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from newscrawl.profiles import LOCAL, POLITE


def crawl_settings(output: Path | None, *, local: bool = False, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Settings of a crawl into ``output``. The file is overwritten, except when the crawl has a
    ``JOBDIR`` (a resumable crawl), where it is appended to so a resume keeps what was exported."""
    settings: dict[str, Any] = dict(LOCAL if local else POLITE)
    settings["ADDONS"] = {"newscrawl.addon.NewscrawlAddon": 0}
    settings["SPIDER_MODULES"] = ["newscrawl.spiders"]
    settings.update(overrides or {})
    if output is not None and "FEEDS" not in (overrides or {}):
        fmt = {".jsonl": "jsonlines", ".jl": "jsonlines", ".json": "json", ".csv": "csv", ".xml": "xml"}.get(output.suffix, "jsonlines")
        resumable = bool(settings.get("JOBDIR"))
        settings["FEEDS"] = {str(output): {"format": fmt, "encoding": "utf8", "overwrite": not resumable}}
    return settings


def run_crawl(start_urls: Sequence[str], output: Path | None, *, local: bool = False,
              overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Crawl ``start_urls`` with the ``news`` spider, export items to ``output``; return stats."""
    from scrapy.crawler import CrawlerProcess
    from scrapy.settings import Settings

    from newscrawl.defaults import setting_errors
    from newscrawl.spiders.news import NewsSpider

    settings = crawl_settings(output, local=local, overrides=overrides)
    errors = setting_errors(Settings(settings))
    if errors:  # the add-on would refuse them too, with a traceback from inside Scrapy
        raise SystemExit("newscrawl: invalid settings:\n  " + "\n  ".join(errors))
    if output is not None:
        _check_writable(output)
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(NewsSpider)
    process.crawl(crawler, start=",".join(start_urls))
    process.start()
    return dict(crawler.stats.get_stats()) if crawler.stats else {}


def _check_writable(output: Path) -> None:
    """Refuse an output file that cannot be written before crawling: Scrapy's feed exporter opens
    it at the first item and, when that fails, logs an error per item while the crawl runs to its
    end exporting nothing (exit status 0)."""
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SystemExit(f"newscrawl: cannot write {output}: {exc.strerror or exc}") from None
    target = output if output.exists() else output.parent
    if output.is_dir() or not os.access(target, os.W_OK):
        raise SystemExit(f"newscrawl: cannot write {output}: " + ("a directory" if output.is_dir() else "permission denied"))
