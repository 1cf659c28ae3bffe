"""Fixtures for scale and resilience tests: a private redis-server, crawl subprocesses.

Crawls run in subprocesses (Twisted's reactor runs once per process) against sites served on
127.0.0.1 by this test process. redis-server comes from the Debian package (``.ci/setup.sh``).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
FAST = ("DOWNLOAD_DELAY=0", "AUTOTHROTTLE_ENABLED=false", "CONCURRENT_REQUESTS=16",
        "CONCURRENT_REQUESTS_PER_DOMAIN=8", "LOG_LEVEL=INFO", "TELNETCONSOLE_ENABLED=false")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A fresh redis-server on 127.0.0.1 and a free port, in a temp dir; stopped afterwards."""
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    assert Path(binary).exists(), "redis-server missing: run .ci/setup.sh (installs Debian's redis-server)"
    port = free_port()
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(tmp_path),
                             "--save", "", "--appendonly", "no"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 15
        while not _ping(port):
            assert proc.poll() is None and time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def scrapy_cmd(out: Path, *settings: str, args: tuple[str, ...] = ()) -> list[str]:
    """``scrapy crawl news`` in this repository (settings/), writing JSON Lines to ``out``."""
    cmd = [sys.executable, "-m", "scrapy", "crawl", "news", "-O", f"{out}:jsonlines", *args]
    for setting in (*FAST, *settings):
        cmd += ["-s", setting]
    return cmd


def newscrawl_cmd(start: str, out: Path) -> list[str]:
    """``newscrawl crawl`` (no Scrapy project; the LOCAL profile) writing to ``out``."""
    cmd = [sys.executable, "-m", "newscrawl", "crawl", start, "-o", str(out), "--local"]
    for setting in FAST:
        cmd += ["-s", setting]
    return cmd


def popen(cmd: list[str], log: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(cmd, cwd=REPO, stdout=log.open("wb"), stderr=subprocess.STDOUT, env=env)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    items = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            items.append(json.loads(line))
    return items


def stats_from_log(text: str) -> dict[str, Any]:
    """The 'Dumping Scrapy stats' dict at the end of a crawl log (literal_eval of the dump)."""
    import ast
    import re

    marker = text.rfind("Dumping Scrapy stats:")
    if marker < 0:
        return {}
    body = text[text.index("{", marker): text.index("}\n", marker) + 1]
    body = re.sub(r"datetime\.datetime\([^)]*\)", "None", body)
    return ast.literal_eval(body)


@pytest.fixture(scope="session")
def tools() -> Any:
    """The helpers above, for test modules (importlib import mode: conftest is not importable)."""
    from types import SimpleNamespace

    return SimpleNamespace(popen=popen, newscrawl_cmd=newscrawl_cmd, read_jsonl=read_jsonl, scrapy_cmd=scrapy_cmd,
                           stats_from_log=stats_from_log, free_port=free_port, REPO=REPO)
