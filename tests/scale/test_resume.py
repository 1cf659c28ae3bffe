"""JOBDIR pause/resume: SIGKILL and SIGINT part-way through a 2,000-page crawl lose no article.

Each crawl exports every HTML page (``NEWSCRAWL_HAND_OFF=all``) so that "article" is the page's
URL and the comparison does not depend on the classifiers; extraction, templates and stylesheets
are off to keep the three 2,000-page crawls (uninterrupted, killed + resumed, interrupted +
resumed) short. The last test runs every component on the small demo site.
"""

from __future__ import annotations

import json
import signal
import time
from collections import Counter
from pathlib import Path

import pytest

from newscrawl.demo.server import serve_site
from newscrawl.demo.site import build_large_site
from newscrawl.journal import dedupe_jsonl

N_PAGES = 2000
SPIDER_ONLY = ("NEWSCRAWL_HAND_OFF=all", "NEWSCRAWL_EXPORT_ALL=true", "NEWSCRAWL_EXTRACTION_ENABLED=false",
               "NEWSCRAWL_TEMPLATE_ENABLED=false", "NEWSCRAWL_CSS_ENABLED=false", "NEWSCRAWL_MAX_PAGES_PER_DOMAIN=0")


def crawl_cmd(tools, base: str, out: Path, jobdir: Path | None) -> list[str]:
    cmd = [*tools.newscrawl_cmd(base + "/", out)]
    for setting in SPIDER_ONLY:
        cmd += ["-s", setting]
    if jobdir is not None:
        cmd += ["-s", f"JOBDIR={jobdir}",
                "-s", "FEEDS=" + json.dumps({str(out): {"format": "jsonlines", "overwrite": False}})]
    return cmd


@pytest.fixture(scope="module")
def site_and_baseline(tmp_path_factory, tools):
    site = build_large_site(N_PAGES)
    tmp = tmp_path_factory.mktemp("baseline")
    with serve_site(site) as server:
        out = tmp / "items.jsonl"
        proc = tools.popen(crawl_cmd(tools, server.base_url, out, None), tmp / "log.txt")
        assert proc.wait(timeout=600) == 0, (tmp / "log.txt").read_text()[-3000:]
        urls = [item["url"] for item in tools.read_jsonl(out)]
    assert len(urls) == len(set(urls))
    paths = {u.split("//", 1)[1].split("/", 1)[1] for u in urls}
    assert len(paths) >= N_PAGES * 0.99
    yield site, set(paths)


def _wait_for_lines(path: Path, n: int, proc, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_bytes().count(b"\n") >= n:
            return
        assert proc.poll() is None, "crawl ended before it could be interrupted"
        time.sleep(0.05)
    raise AssertionError(f"{path} never reached {n} lines")


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT], ids=["SIGKILL", "SIGINT"])
def test_interrupted_crawl_resumes_without_loss(site_and_baseline, tmp_path, tools, sig):
    site, baseline = site_and_baseline
    out, jobdir = tmp_path / "items.jsonl", tmp_path / "job"
    with serve_site(site) as server:
        first = tools.popen(crawl_cmd(tools, server.base_url, out, jobdir), tmp_path / "run1.log")
        _wait_for_lines(out, 600, first)
        first.send_signal(sig)
        first.wait(timeout=120)
        assert first.returncode != 0 if sig == signal.SIGKILL else first.returncode == 0
        before = out.read_bytes().count(b"\n")
        assert before < N_PAGES * 0.9, "the crawl finished before the interruption"
        second = tools.popen(crawl_cmd(tools, server.base_url, out, jobdir), tmp_path / "run2.log")
        assert second.wait(timeout=600) == 0, (tmp_path / "run2.log").read_text()[-3000:]
        log2 = (tmp_path / "run2.log").read_text()
    assert "Traceback" not in log2, log2[-3000:]
    assert "Resuming from the journal" in log2

    raw_urls = [json.loads(line)["url"] for line in out.read_text().splitlines() if line.strip()]
    duplicates = sum(n - 1 for n in Counter(raw_urls).values() if n > 1)
    # duplicates only from items written between the export and the journal's "done" line
    assert duplicates <= 16, duplicates
    removed = dedupe_jsonl(out)
    assert removed == duplicates
    urls = [json.loads(line)["url"] for line in out.read_text().splitlines()]
    paths = {u.split("//", 1)[1].split("/", 1)[1] for u in urls}
    assert baseline - paths == set(), f"{len(baseline - paths)} pages lost"
    assert len(urls) == len(set(urls))


def test_full_pipeline_resume_keeps_templates_and_stylesheets(tmp_path, tools):
    """JOBDIR with every component on (CSS, extraction, templates, page classifier): killed after 25
    items, resumed; every page exported once, the learned template reused from JOBDIR."""
    from newscrawl.demo.site import build_demo_site

    site = build_demo_site()
    out, jobdir = tmp_path / "items.jsonl", tmp_path / "job"
    runs = []
    with serve_site(site) as server:
        for run in (1, 2):
            cmd = tools.newscrawl_cmd(server.base_url + "/", out) + [
                "--stats", str(tmp_path / f"stats{run}.json"), "-s", "NEWSCRAWL_HAND_OFF=all", "-s", "NEWSCRAWL_EXPORT_ALL=true",
                "-s", f"JOBDIR={jobdir}", "-s", "FEEDS=" + json.dumps({str(out): {"format": "jsonlines", "overwrite": False}})]
            proc = tools.popen(cmd, tmp_path / f"run{run}.log")
            if run == 1:
                _wait_for_lines(out, 25, proc)
                proc.send_signal(signal.SIGKILL)
                proc.wait(timeout=60)
                assert list((jobdir / "newscrawl-templates").glob("*.json")), "no template on disk before the kill"
                assert list((jobdir / "newscrawl-css").glob("*.css")), "no stylesheet source on disk before the kill"
            else:
                assert proc.wait(timeout=300) == 0, (tmp_path / "run2.log").read_text()[-3000:]
                runs.append(json.loads((tmp_path / "stats2.json").read_text()))
    stats = runs[0]
    log2 = (tmp_path / "run2.log").read_text()
    assert "Traceback" not in log2 and "Resuming from the journal" in log2
    dedupe_jsonl(out)
    items = {item["url"][len(server.base_url):]: item for item in tools.read_jsonl(out)}
    assert [p for p in site.article_paths() if p not in items] == []
    assert all(items[p].get("title") for p in site.article_paths())  # extraction ran on both sides of the kill
    assert stats.get("newscrawl/template/items", 0) > 0
    assert stats.get("newscrawl/template/learned", 0) == 0  # the domain's template came from JOBDIR
    assert stats.get("newscrawl/css/pages", 0) > 0
    assert stats.get("newscrawl/css/source_cache/hits", 0) > 0  # stylesheets came from JOBDIR ...
    css_hits = {t: n for t, n in server.hits.items() if t.split("?")[0].endswith(".css")}
    assert css_hits and max(css_hits.values()) == 1, css_hits  # ... so each was downloaded once in all
