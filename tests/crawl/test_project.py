"""`scrapy crawl news` works from this repository's project and, through the add-on, from any
existing Scrapy project."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from newscrawl.demo.server import serve_site
from newscrawl.demo.site import build_demo_site

REPO = Path(__file__).resolve().parents[2]
FAST = ["-s", "AUTOTHROTTLE_ENABLED=False", "-s", "DOWNLOAD_DELAY=0", "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=16",
        "-s", "NEWSCRAWL_EXTRACTION_ENABLED=False", "-s", "NEWSCRAWL_EXPORT_ALL=True", "-s", "DEPTH_LIMIT=1"]


def scrapy_crawl(cwd: Path, start: str, out: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "scrapy", "crawl", "news", "-a", f"start={start}", "-O", str(out), *FAST]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=180, env=env, check=False)


def read_items(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_scrapy_crawl_news_in_this_repository(tmp_path):
    with serve_site(build_demo_site()) as server:
        out = tmp_path / "articles.jsonl"
        proc = scrapy_crawl(REPO, server.base_url + "/", out)
    assert proc.returncode == 0, proc.stderr[-3000:]
    items = read_items(out)
    assert items and all(item["url"].startswith(server.base_url) for item in items)
    assert "'USER_AGENT': 'newscrawl/" in proc.stderr  # the polite project settings are in force


def test_addon_in_an_existing_project(tmp_path):
    project = tmp_path / "existing"
    (project / "myproject" / "spiders").mkdir(parents=True)
    (project / "scrapy.cfg").write_text("[settings]\ndefault = myproject.settings\n")
    (project / "myproject" / "__init__.py").write_text("")
    (project / "myproject" / "spiders" / "__init__.py").write_text("")
    (project / "myproject" / "settings.py").write_text(textwrap.dedent("""
        BOT_NAME = "myproject"
        SPIDER_MODULES = ["myproject.spiders"]
        ROBOTSTXT_OBEY = True
        ADDONS = {"newscrawl.addon.NewscrawlAddon": 0}
    """))
    env = {**os.environ, "PYTHONPATH": str(project)}
    with serve_site(build_demo_site()) as server:
        out = tmp_path / "articles.jsonl"
        proc = scrapy_crawl(project, server.base_url + "/", out, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    items = read_items(out)
    assert items and {item["domain"] for item in items} == {server.base_url.split("//")[1]}


def test_addon_replaces_scrapys_meta_refresh_middleware_unless_the_project_set_it():
    """Scrapy's MetaRefreshMiddleware fails a page whose <base href> is malformed (ValueError): the
    add-on puts newscrawl.responses.MetaRefreshMiddleware at its priority, unless a project
    configured Scrapy's itself (then it is left as the project set it)."""
    from scrapy.settings import Settings

    from newscrawl.addon import NewscrawlAddon
    from newscrawl.responses import SCRAPY_META_REFRESH

    settings = Settings()
    NewscrawlAddon().update_settings(settings)
    middlewares = settings.getdict("DOWNLOADER_MIDDLEWARES")
    base = settings.getdict("DOWNLOADER_MIDDLEWARES_BASE")[SCRAPY_META_REFRESH]
    assert middlewares[SCRAPY_META_REFRESH] is None
    assert middlewares["newscrawl.responses.MetaRefreshMiddleware"] == base

    own = Settings({"DOWNLOADER_MIDDLEWARES": {SCRAPY_META_REFRESH: 123}})
    NewscrawlAddon().update_settings(own)
    assert own.getdict("DOWNLOADER_MIDDLEWARES")[SCRAPY_META_REFRESH] == 123
    assert "newscrawl.responses.MetaRefreshMiddleware" not in own.getdict("DOWNLOADER_MIDDLEWARES")


def test_meta_refresh_still_redirects_and_a_malformed_base_passes_the_page_on():
    from scrapy import Spider
    from scrapy.http import HtmlResponse, Request
    from scrapy.utils.test import get_crawler

    from newscrawl.responses import MetaRefreshMiddleware

    middleware = MetaRefreshMiddleware.from_crawler(get_crawler(Spider))
    request = Request("http://127.0.0.1/a")
    refresh = b'<html><head><meta http-equiv="refresh" content="0; url=/b"></head><body>x</body></html>'
    moved = middleware.process_response(request, HtmlResponse(request.url, body=refresh, request=request))
    assert isinstance(moved, Request) and moved.url == "http://127.0.0.1/b"
    broken = HtmlResponse(request.url, body=b'<html><head><base href="http://[bad/">' + refresh[12:], request=request)
    assert middleware.process_response(request, broken) is broken


def test_bad_setting_values_are_refused_before_the_crawl_with_what_is_wrong():
    """A value a component cannot convert, or a string outside its choices (a typo of "all" meant
    "articles" silently), is refused at start: by the add-on, by the pipeline for an unknown
    extractor or page model, and by ``newscrawl crawl`` as a message without a traceback."""
    import pytest
    from scrapy.settings import Settings
    from scrapy.utils.test import get_crawler

    from newscrawl.addon import NewscrawlAddon
    from newscrawl.defaults import setting_errors
    from newscrawl.pipelines import ExtractionPipeline

    bad = Settings({"NEWSCRAWL_ARTICLE_THRESHOLD": "abc", "NEWSCRAWL_HAND_OFF": "al", "NEWSCRAWL_CSS_ENABLED": "maybe",
                    "NEWSCRAWL_TEMPLATE_N": "three", "NEWSCRAWL_MAX_URL_LENGTH": "1000"})
    assert setting_errors(bad) == ["NEWSCRAWL_ARTICLE_THRESHOLD = 'abc': not a number",  # in DEFAULTS order
                                   "NEWSCRAWL_HAND_OFF = 'al': one of 'articles', 'all'",
                                   "NEWSCRAWL_CSS_ENABLED = 'maybe': not a boolean",
                                   "NEWSCRAWL_TEMPLATE_N = 'three': not an integer"]
    with pytest.raises(ValueError, match="NEWSCRAWL_HAND_OFF = 'al'"):
        NewscrawlAddon().update_settings(bad)
    assert setting_errors(Settings({"NEWSCRAWL_HAND_OFF": "all", "NEWSCRAWL_CSS_ENABLED": "false"})) == []
    with pytest.raises(ValueError, match="NEWSCRAWL_BODY_EXTRACTOR = 'ncee'"):
        ExtractionPipeline(get_crawler(settings_dict={"NEWSCRAWL_BODY_EXTRACTOR": "ncee"}))
    with pytest.raises(ValueError, match="NEWSCRAWL_PAGE_MODEL = 'no/such/model.json'"):
        ExtractionPipeline(get_crawler(settings_dict={"NEWSCRAWL_PAGE_MODEL": "no/such/model.json"}))
    proc = subprocess.run([sys.executable, "-m", "newscrawl", "crawl", "http://127.0.0.1:9/", "-o", "unused.jsonl",
                           "-s", "NEWSCRAWL_HAND_OFF=al"],
                          cwd=REPO, capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 1 and "NEWSCRAWL_HAND_OFF = 'al'" in proc.stderr and "Traceback" not in proc.stderr


def test_addon_changes_scrapys_own_defaults_but_a_projects_value_wins():
    from scrapy.settings import Settings

    from newscrawl.addon import NewscrawlAddon
    from newscrawl.defaults import SCRAPY_DEFAULTS

    settings = Settings()
    NewscrawlAddon().update_settings(settings)
    assert settings.getint("SCRAPER_SLOTS_MAX_ACTIVE_SIZE") == SCRAPY_DEFAULTS["SCRAPER_SLOTS_MAX_ACTIVE_SIZE"] > 5_000_000
    assert settings.getint("CONCURRENT_ITEMS") == 16
    own = Settings({"SCRAPER_SLOTS_MAX_ACTIVE_SIZE": 1_000_000, "CONCURRENT_ITEMS": 50}, priority="project")
    NewscrawlAddon().update_settings(own)
    assert own.getint("SCRAPER_SLOTS_MAX_ACTIVE_SIZE") == 1_000_000 and own.getint("CONCURRENT_ITEMS") == 50
