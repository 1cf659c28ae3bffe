"""Crawls with extraction workers: the same items as extraction in the reactor, and a hostile site
(one attribute-flood page, one page whose worker is killed) costs only those pages."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from newscrawl.demo.base import Site
from newscrawl.demo.response import HTML, Response, ok
from newscrawl.demo.server import serve_site
from newscrawl.demo.site import build_demo_site
from newscrawl.extract import extract
from newscrawl.htmlguard import guard_html

REPO = Path(__file__).resolve().parents[2]
SUPPORT = Path(__file__).resolve().parent / "support"
FLOOD_ATTRIBUTES = 100_000  # one element: 294 s inside lxml's parser without the markup caps
# what the crawl's timing decides (which of a link and a sitemap entry reached a page first), not extraction
VOLATILE = ("fetched_at", "depth", "discovered_by")


def crawl(tmp: Path, start: str, *settings: str, env: dict[str, str] | None = None, timeout: float = 300
          ) -> tuple[dict[str, dict[str, Any]], dict[str, Any], str, float]:
    out, stats = tmp / "items.jsonl", tmp / "stats.json"
    cmd = [sys.executable, "-m", "newscrawl", "crawl", start, "-o", str(out), "--stats", str(stats), "--local",
           "-s", "TELNETCONSOLE_ENABLED=false"]
    for setting in settings:
        cmd += ["-s", setting]
    started = time.monotonic()
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=timeout, check=False,
                          env={**os.environ, **(env or {})})
    seconds = time.monotonic() - started
    log = proc.stderr + proc.stdout
    (tmp / "log.txt").write_text(log, encoding="utf-8")
    assert proc.returncode == 0, log[-3000:]
    assert "Traceback" not in log, log[log.find("Traceback") - 300:][:3000]
    items = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line.strip()]
    base = start.rstrip("/")
    return {item["url"][len(base):]: item for item in items}, json.loads(stats.read_text()), log, seconds


def comparable(item: dict[str, Any]) -> dict[str, Any]:
    """The item without what depends on arrival order: fetch times, discovery, and which evidence
    decided a page of the site (how much of the site was known when it was decided). The verdict
    itself (``is_article``, ``probability``) and the page model's own score are compared."""
    out = {k: v for k, v in item.items() if k not in VOLATILE}
    verdict = (out.get("extraction") or {}).get("is_article")
    if isinstance(verdict, dict):
        kept = {k: v for k, v in verdict.items() if k not in ("layout", "method")}
        out["extraction"] = {**out["extraction"], "is_article": kept}
    return out


def test_workers_export_the_same_items_as_the_reactor(tmp_path):
    # which page becomes a domain's key page depends on arrival order, in any two crawls: the
    # in-reactor crawl learns the template, the crawl with workers reads it from the same cache
    site = build_demo_site()
    with serve_site(site) as server:
        runs = {}
        for workers in (0, 1):
            (tmp_path / str(workers)).mkdir()
            runs[workers] = crawl(tmp_path / str(workers), server.base_url + "/",
                                  f"NEWSCRAWL_EXTRACTION_WORKERS={workers}",
                                  f"NEWSCRAWL_TEMPLATE_CACHE_DIR={tmp_path / 'templates'}")
    reactor, pooled = runs[0], runs[1]
    # discovery can differ between two crawls (under load a feed URL was once queued as a page
    # first, and its three feed-only articles not found): items are compared where both have them
    articles = set(site.article_paths())
    assert len(articles & set(reactor[0])) >= len(articles) - 3 and len(articles & set(pooled[0])) >= len(articles) - 3
    both = set(reactor[0]) & set(pooled[0])
    different = [p for p in sorted(both) if comparable(reactor[0][p]) != comparable(pooled[0][p])]
    assert different == [], [(reactor[0][p], pooled[0][p]) for p in different[:1]]
    stats = pooled[1]
    assert stats["newscrawl/workers/processes"] == 1 and stats["newscrawl/workers/pages"] >= len(pooled[0]) - 5
    # the template, once learned, is applied in the worker: only the items before it parse in the reactor
    assert reactor[1]["newscrawl/template/learned"] == 1 and "newscrawl/template/learned" not in stats
    # every page handed off (every HTML page, non-articles too) goes through the template stage once
    assert stats["newscrawl/template/items"] == stats["newscrawl/extraction/pages"] >= len(pooled[0])
    assert reactor[1]["newscrawl/template/items"] == reactor[1]["newscrawl/extraction/pages"] >= len(reactor[0])
    assert "newscrawl/template/pages_parsed" not in stats
    assert "newscrawl/workers/processes" not in reactor[1]


class HostileSite(Site):
    """The demo site, its home page also linking an attribute-flood article and a crash article."""

    def __init__(self) -> None:
        self.demo = build_demo_site()
        self.truth = self.demo.truth
        self.article = self.demo.resolve(self.demo.article_paths()[0]).body.decode()

    def resolve(self, path_and_query: str, base_url: str = "http://127.0.0.1") -> Response:
        if path_and_query == "/2025/01/attribute-flood.html":
            attributes = " ".join(f"data-a{i}=x" for i in range(FLOOD_ATTRIBUTES))
            at = self.article.index(">", self.article.index("<body")) + 1
            return ok(f"{self.article[:at]}<div {attributes}></div>{self.article[at:]}", HTML)
        if path_and_query == "/2025/01/worker-crash.html":
            return ok(self.article.replace("</title>", " (crash)</title>", 1), HTML)
        resp = self.demo.resolve(path_and_query, base_url)
        if path_and_query == "/" and resp.status == 200:
            links = '<a href="/2025/01/attribute-flood.html">flood</a> <a href="/2025/01/worker-crash.html">crash</a>'
            return ok(resp.body.decode().replace("</body>", links + "</body>"), HTML)
        return resp


def test_a_flood_page_and_a_crashing_worker_cost_only_their_pages(tmp_path):
    """The markup caps, raised here to 30,000 attributes, leave the flood page a parse of seconds
    in one C call: in its worker it runs past the 1 s limit, the worker is killed and replaced, the
    page exported with the error. The crash page's worker is SIGKILLed: the page is exported with
    the error. Every other article is exported, extracted."""
    site = HostileSite()
    with serve_site(site) as server:
        items, stats, log, seconds = crawl(
            tmp_path, server.base_url + "/", "NEWSCRAWL_EXTRACTION_WORKERS=1", "NEWSCRAWL_EXTRACTION_TIMEOUT=1",
            "NEWSCRAWL_MAX_ATTRIBUTES_PER_TAG=30000", "NEWSCRAWL_HAND_OFF=all", "NEWSCRAWL_EXPORT_ALL=true",
            'EXTENSIONS={"worker_faults.KillWorker": 0}', "TEST_KILL_WORKER_ON=/2025/01/worker-crash.html",
            env={"PYTHONPATH": str(SUPPORT)})
    missing = [p for p in site.demo.article_paths() if p not in items]
    assert missing == []
    assert all(items[p].get("title") and items[p].get("body") for p in site.demo.article_paths())
    # the page whose worker died: exported with the error, counted, not tried again
    crash = items["/2025/01/worker-crash.html"]
    assert crash["extraction"]["error"].startswith("WorkerDied") and "title" not in crash
    assert stats["newscrawl/extraction/worker_deaths"] == 1 and stats["newscrawl/workers/deaths"] == 1
    # the flood page: capped before any parser, then stopped in its worker at the hard limit
    assert stats["newscrawl/guard/pages"] == 1 and stats["newscrawl/guard/attributes_dropped"] == FLOOD_ATTRIBUTES - 30000
    assert "Markup capped on" in log
    flood = items["/2025/01/attribute-flood.html"]
    # stopped at the limit: by the worker's own alarm when the parse hands control back in time, else
    # by the kill (test_extract_pool.py holds a page that only the kill stops)
    assert flood["extraction"]["error"].startswith("TimeLimitExceeded")
    assert stats["newscrawl/extraction/timeouts"] == 1
    kills = stats.get("newscrawl/workers/timeouts", 0)  # 1 when the kill stopped it, 0 when the alarm did
    assert kills in (0, 1)
    # the first worker, one for the crash, and one for the kill if the kill stopped the flood page
    assert stats["newscrawl/workers/started"] >= 2 + kills
    assert seconds < 250, seconds  # a parse of the whole flood somewhere would take 294 s, on a quiet machine


def test_with_the_default_caps_the_flood_page_is_cheap_and_extracted():
    """The default cap (1,000 attributes) makes the same page an ordinary one."""
    page = HostileSite().resolve("/2025/01/attribute-flood.html").body
    guarded = guard_html(page)
    assert guarded.capped_tags == 1 and guarded.attributes == FLOOD_ATTRIBUTES - 1000
    article = extract(guarded.body.decode(), url="https://news.example/2025/01/attribute-flood.html")
    assert article.title and article.body
