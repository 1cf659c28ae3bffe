"""A setting whose extra is not installed is refused before the crawl, naming the extra to install
(not a ModuleNotFoundError traceback from inside Scrapy's start-up)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from scrapy.settings import Settings

from newscrawl.addon import NewscrawlAddon
from newscrawl.extras import NEEDS, extra_errors

MESSAGE = ("NEWSCRAWL_DISTRIBUTED needs the 'distributed' extra (missing: scrapy_redis): "
           "pip install 'newscrawl[distributed]'")


def test_the_distributed_setting_without_its_extra_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    on = Settings({"NEWSCRAWL_DISTRIBUTED": True})
    assert extra_errors(on) == []  # the test extra installs scrapy-redis and redis
    monkeypatch.setitem(sys.modules, "scrapy_redis", None)  # as if not installed: imports fail
    assert extra_errors(on) == [MESSAGE]
    assert extra_errors(Settings({"NEWSCRAWL_DISTRIBUTED": False})) == []
    with pytest.raises(ValueError, match=r"pip install 'newscrawl\[distributed\]'"):
        NewscrawlAddon().update_settings(on)
    assert all(extra and modules for extra, modules in NEEDS.values())


def test_newscrawl_crawl_stops_with_the_message_and_no_traceback(tmp_path) -> None:
    script = textwrap.dedent("""
        import sys
        sys.modules["scrapy_redis"] = None  # the package missing
        sys.modules["redis"] = None
        from newscrawl.cli import main
        sys.exit(main(["crawl", "http://127.0.0.1:9/", "-o", "unused.jsonl", "-s", "NEWSCRAWL_DISTRIBUTED=True"]))
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False,
                          cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert "NEWSCRAWL_DISTRIBUTED needs the 'distributed' extra (missing: scrapy_redis, redis)" in proc.stderr
    assert "Traceback" not in proc.stderr and "ModuleNotFoundError" not in proc.stderr
