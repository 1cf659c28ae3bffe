"""``newscrawl template`` on a saved site folder, and per-section templates in the pipeline."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from lxml import html
from scrapy.http import HtmlResponse
from scrapy.settings import Settings
from scrapy.statscollectors import MemoryStatsCollector

from newscrawl.cli import main
from newscrawl.defaults import DEFAULTS
from newscrawl.template.pipeline import TemplatePipeline
from newscrawl.template.view import MARK

from .test_detect import SECTIONS, page


def _write_site(root: Path) -> None:
    for k, section in enumerate(SECTIONS):
        (root / section).mkdir(parents=True)
        (root / section / "index.html").write_text(page("section", section, k), encoding="utf-8")
    (root / "politics" / "story-1").mkdir()
    (root / "politics" / "story-1" / "index.html").write_text(page("article", "politics", 1), encoding="utf-8")


def test_template_command_writes_the_view_and_the_paths(tmp_path: Path, capsys: Any) -> None:
    _write_site(tmp_path / "site")
    out = tmp_path / "view.html"
    assert main(["template", "politics/story-1/index.html", "--site", str(tmp_path / "site"), "--html", str(out)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert len(summary["cs"]) == 3 and summary["nodes"] > 20
    paths = json.loads(out.with_suffix(".json").read_text())
    key = html.document_fromstring(page("article", "politics", 1))
    assert len(paths) == summary["nodes"] and all(key.xpath(p) for p in paths)
    view = html.document_fromstring(out.read_text())
    assert view.xpath(f"//footer[contains(@class, '{MARK}')]")
    assert not view.xpath(f"//article[contains(@class, '{MARK}')]")


def test_template_command_says_when_a_url_is_malformed(tmp_path: Path, capsys: Any) -> None:
    out = str(tmp_path / "view.html")
    assert main(["template", "x/", "--url", "http://[bad/", "--html", out]) == 2
    assert main(["template", "http://[bad/x", "--url", "http://127.0.0.1:9/", "--html", out]) == 2
    assert capsys.readouterr().err.splitlines() == ["malformed URL: http://[bad/", "malformed URL: http://[bad/x"]


class _Signals:
    def connect(self, *args: Any, **kwargs: Any) -> None:
        pass


class _Engine:
    """download_async answering from a dict of pages (counts what was fetched)."""

    def __init__(self, pages: dict[str, str]) -> None:
        self.pages = pages
        self.fetched: list[str] = []

    async def download_async(self, request: Any) -> HtmlResponse:
        self.fetched.append(request.url)
        body = self.pages.get(request.url)
        return HtmlResponse(request.url, status=200 if body else 404, body=(body or "").encode(), encoding="utf-8",
                            headers={"Content-Type": "text/html; charset=utf-8"})


class _Crawler:
    def __init__(self, pages: dict[str, str]) -> None:
        self.settings = Settings(DEFAULTS)
        self.stats = MemoryStatsCollector(self)
        self.signals = _Signals()
        self.engine = _Engine(pages)


def _other_layout(name: str, seed: int) -> str:
    """The "video" section: the same menu links plus links to the other clips, in another layout."""
    links = "".join(f'<a class="v" href="/{s}/">{s}</a>' for s in SECTIONS)
    links += "".join(f'<a class="c" href="/video/clip-{k}/">clip {k}</a>' for k in range(6))
    return (f'<html><body><table id="vid"><tr><td class="menu">{links}</td></tr>'
            f'<tr><td class="player"><h1>Clip {name} {seed}</h1><p>Clip notes {seed} about the river and the council budget '
            f'and the school water road farm energy.</p></td></tr><tr><td class="legal">Video terms {seed}</td></tr></table></body></html>')


def test_pipeline_learns_a_domain_template_and_a_section_template() -> None:
    base = "http://www.ledger.com"
    pages = {f"{base}/{s}/": page("section", s, k) for k, s in enumerate(SECTIONS)}
    pages.update({f"{base}/video/clip-{k}/": _other_layout("v", k) for k in range(6)})
    crawler = _Crawler(pages)
    pipeline = TemplatePipeline(crawler)

    def item(url: str, body: str) -> dict[str, Any]:
        return {"url": url, "html": body, "body": None}

    first = asyncio.run(pipeline.process_item(item(f"{base}/politics/story-1/", page("article", "politics", 1))))
    assert first["extraction"]["template"]["key"] == "ledger.com"
    fetched = len(crawler.engine.fetched)
    second = asyncio.run(pipeline.process_item(item(f"{base}/sports/story-2/", page("article", "sports", 2))))
    assert second["extraction"]["template"]["id"] == first["extraction"]["template"]["id"]
    assert len(crawler.engine.fetched) == fetched  # cached: nothing fetched again
    # the video pages barely match the domain template: their section learns its own, from clips
    video = asyncio.run(pipeline.process_item(item(f"{base}/video/clip-9/", _other_layout("v", 9))))
    assert video["extraction"]["template"]["key"] == "ledger.com/video"
    assert video["extraction"]["template"]["removed"] > 10  # the clip menu and the table frame
    assert {u for u in crawler.engine.fetched[fetched:]} <= {f"{base}/video/clip-{k}/" for k in range(6)}
    assert crawler.stats.get_value("newscrawl/template/learned") == 2
    assert crawler.stats.get_value("newscrawl/templates/domains") == 1
