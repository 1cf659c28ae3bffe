"""Stylesheets on a host that cannot be reached: one INFO line and one count per host, no ERROR and
no traceback per sheet, and the pages are crawled as usual (a real crawl in a subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).with_name("_unreachable.py")


def test_an_unreachable_stylesheet_host_is_one_info_line_and_a_count() -> None:
    out = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=240)
    assert out.returncode == 0, out.stderr[-3000:]
    report = json.loads(out.stdout)
    dead, stats, records = report["dead"], report["stats"], report["records"]
    host = dead.split("//", 1)[1]
    assert stats["newscrawl/pages/fetched"] == 5  # the home page and its four stories
    assert stats["newscrawl/css/requests"] == 3 and stats["newscrawl/css/failed/download"] == 3
    assert stats["newscrawl/css/unreachable_hosts"] == 1
    about = [r for r in records if host in r["message"]]
    assert [(r["logger"], r["level"]) for r in about if r["level"] != "DEBUG"] == [("newscrawl.css.middleware", "INFO")]
    assert not [r for r in records if r["level"] in ("ERROR", "CRITICAL") or r["traceback"]]
