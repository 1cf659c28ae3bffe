"""Watch cycles as a user runs them (``newscrawl watch --once`` subprocesses) against the
publishing demo site served by the test process."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
FAST = ("LOG_LEVEL=INFO", "TELNETCONSOLE_ENABLED=false")


@dataclass
class Watch:
    base_url: str
    tmp: Path

    @property
    def out(self) -> Path:
        return self.tmp / "out.jsonl"

    def command(self, *settings: str) -> list[str]:
        cmd = [sys.executable, "-m", "newscrawl", "watch", self.base_url + "/", "--state", str(self.tmp / "state"),
               "--once", "-o", str(self.out), "--local", "--stats", str(self.tmp / "stats.json"), "--every", "0s..0s"]
        for setting in (*FAST, *settings):
            cmd += ["-s", setting]
        return cmd

    def cycle(self, *settings: str) -> dict[str, Any]:
        proc = subprocess.run(self.command(*settings), cwd=REPO, capture_output=True, text=True, timeout=240,
                              check=False)
        assert proc.returncode == 0, proc.stderr[-3000:]
        return json.loads((self.tmp / "stats.json").read_text())

    def items(self) -> list[dict[str, Any]]:
        if not self.out.exists():
            return []
        return [json.loads(line) for line in self.out.read_text(encoding="utf-8").splitlines() if line.strip()]

    def paths(self) -> Counter[str]:
        return Counter(item["canonical_url"][len(self.base_url):] for item in self.items())


@pytest.fixture
def watch_factory(tmp_path: Path) -> Any:
    return lambda base_url: Watch(base_url, tmp_path)
