"""TemplatePipeline in real crawls of the demo site on 127.0.0.1: learn once, cache, apply."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from newscrawl.demo.server import serve_site
from newscrawl.demo.site import build_demo_site

REPO = Path(__file__).resolve().parents[2]


def _crawl(start: str, out_dir: Path, cache_dir: Path, *settings: str
           ) -> tuple[list[dict[str, Any]], dict[str, Any], str]:
    out_dir.mkdir()
    items_path, stats_path = out_dir / "items.jsonl", out_dir / "stats.json"
    cmd = [sys.executable, "-m", "newscrawl", "crawl", start, "-o", str(items_path), "--stats", str(stats_path),
           "--local", "-s", f"NEWSCRAWL_TEMPLATE_CACHE_DIR={cache_dir}", "-s", "CLOSESPIDER_ITEMCOUNT=12"]
    for setting in settings:
        cmd += ["-s", setting]
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=300, check=False)
    items = [json.loads(line) for line in items_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return items, json.loads(stats_path.read_text()), proc.stderr


def test_demo_crawl_learns_caches_and_applies_the_template(tmp_path: Path) -> None:
    cache_dir = tmp_path / "templates"
    with serve_site(build_demo_site()) as served:
        items, stats, log = _crawl(served.url("/"), tmp_path / "first", cache_dir)
        assert items, log[-3000:]
        assert stats.get("newscrawl/template/learned") == 1, log[-3000:]
        templates = {item["extraction"]["template"]["id"] for item in items}
        assert len(templates) == 1
        assert all(item["extraction"]["template"]["removed"] > 20 for item in items)
        for item in items:  # the shared footer/menu never reaches a body
            assert "All rights reserved" not in (item.get("body") or "")
            assert "Staff login" not in (item.get("body") or "")
        assert len(list(cache_dir.glob("*.json"))) == 1

        again, stats2, log2 = _crawl(served.url("/"), tmp_path / "second", cache_dir)
        assert again, log2[-3000:]
        assert "newscrawl/template/learned" not in stats2  # read from the disk cache
        assert "newscrawl/template/pages_fetched" not in stats2
        assert {item["extraction"]["template"]["id"] for item in again} == templates

        # other mapping parameters: the cached template answers another question and is relearned
        third, stats3, log3 = _crawl(served.url("/"), tmp_path / "third", cache_dir, "NEWSCRAWL_TEMPLATE_THRESHOLD=0.85")
        assert third, log3[-3000:]
        assert stats3.get("newscrawl/template/stale_params") == 1, log3[-3000:]
        assert stats3.get("newscrawl/template/learned") == 1
        assert "learned with other parameters" in log3
