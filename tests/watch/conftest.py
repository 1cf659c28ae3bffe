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
# the watch is under test, not extraction: stylesheets and templates off keep cycles short
FAST = ("LOG_LEVEL=INFO", "TELNETCONSOLE_ENABLED=false", "NEWSCRAWL_CSS_ENABLED=false", "NEWSCRAWL_TEMPLATE_ENABLED=false")


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


class PostgresServer:
    """A private PostgreSQL server from Debian's packages: initdb in a temp dir, 127.0.0.1 and a
    free port, run as the ``postgres`` system user when the tests run as root (it refuses root)."""

    def __init__(self) -> None:
        import glob
        import os
        import socket
        import tempfile

        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        assert found, "PostgreSQL missing: run .ci/setup.sh (installs Debian's postgresql)"
        self.bin = Path(found[-1]).parent
        self.root = Path(tempfile.mkdtemp(prefix="newscrawl-pg-"))
        self.data = self.root / "data"
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.as_root = os.geteuid() == 0
        if self.as_root:
            import shutil

            shutil.chown(self.root, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "newscrawl", "--no-sync", "-E", "UTF8")
        self.dsn = f"postgresql://newscrawl@127.0.0.1:{self.port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        cmd = [str(self.bin / tool), *args]
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
        assert proc.returncode == 0, f"{tool} failed: {proc.stdout[-1500:]} {proc.stderr[-1500:]}"

    def start(self) -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.root / "log"), "-w", "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")

    def remove(self) -> None:
        import shutil

        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture
def postgres() -> Any:
    server = PostgresServer()
    server.start()
    try:
        yield server
    finally:
        try:
            server.stop("immediate")
        finally:
            server.remove()
