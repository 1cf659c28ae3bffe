"""Fixtures that run real crawls (in subprocesses: Twisted's reactor runs once per process)
against demo sites served on 127.0.0.1 by this test process."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]


@dataclass
class CrawlResult:
    items: list[dict[str, Any]]
    stats: dict[str, Any]
    log: str
    returncode: int

    def by_path(self, base_url: str) -> dict[str, dict[str, Any]]:
        return {item["url"][len(base_url):]: item for item in self.items}


def run_crawl(tmp: Path, starts: list[str], *settings: str, args: tuple[str, ...] = (), timeout: float = 180) -> CrawlResult:
    out, stats = tmp / "items.jsonl", tmp / "stats.json"
    cmd = [sys.executable, "-m", "newscrawl", "crawl", *starts, "-o", str(out), "--stats", str(stats), "--local", *args]
    for setting in settings:
        cmd += ["-s", setting]
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=timeout, check=False)
    items = [json.loads(l) for l in out.read_text(encoding="utf-8").splitlines() if l.strip()] if out.exists() else []
    return CrawlResult(items, json.loads(stats.read_text()) if stats.exists() else {}, proc.stderr + proc.stdout, proc.returncode)


@pytest.fixture(scope="session")
def crawl():
    return run_crawl
