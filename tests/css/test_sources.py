"""The second tier of the stylesheet cache (newscrawl.css.sources): entries, expiry, selection."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from scrapy.settings import Settings

from newscrawl.css.sources import DiskStylesheetSources, pack, source_cache, unpack


def test_pack_keeps_the_final_url_and_the_exact_bytes() -> None:
    body = b"\xef\xbb\xbfp { color: red }\n\n@import 'x.css';\xff"
    assert unpack(pack("https://cdn.example/a.css?v=2", body)) == ("https://cdn.example/a.css?v=2", body)


@pytest.mark.parametrize("data", [b"", b"p{color:red}", b"no-url\np{}", b"javascript:x\np{}"])
def test_unpack_refuses_what_pack_did_not_make(data: bytes) -> None:
    with pytest.raises(ValueError):
        unpack(data)


def test_directory_entries_by_url_with_expiry(tmp_path: Path) -> None:
    cache = DiskStylesheetSources(tmp_path / "css", expiry=60)
    assert cache.get("http://a.example/s.css") is None  # no directory yet
    cache.put("http://a.example/s.css", b"one")
    cache.put("http://a.example/t.css", b"two")
    assert cache.get("http://a.example/s.css") == b"one"
    assert cache.get("http://a.example/t.css") == b"two"
    assert DiskStylesheetSources(tmp_path / "css").get("http://a.example/s.css") == b"one"  # another process
    [old] = [p for p in (tmp_path / "css").iterdir() if p.read_bytes() == b"one"]
    stale = time.time() - 61
    os.utime(old, (stale, stale))
    assert cache.get("http://a.example/s.css") is None and not old.exists()
    assert cache.get("http://a.example/t.css") == b"two"
    assert not list((tmp_path / "css").glob("*.tmp"))


def test_settings_choose_the_tier(tmp_path: Path) -> None:
    assert source_cache(Settings()) is None
    jobdir = source_cache(Settings({"JOBDIR": str(tmp_path / "job")}))
    assert isinstance(jobdir, DiskStylesheetSources) and jobdir.directory == tmp_path / "job" / "newscrawl-css"
    explicit = source_cache(Settings({"JOBDIR": str(tmp_path / "job"), "NEWSCRAWL_CSS_SOURCE_DIR": str(tmp_path / "x"),
                                      "NEWSCRAWL_CSS_SOURCE_EXPIRY": 5}))
    assert explicit.directory == tmp_path / "x" and explicit.expiry == 5
