"""extract() pauses the cyclic garbage collector only while it runs (newscrawl/gcpause.py)."""

from __future__ import annotations

import gc
import subprocess
import sys
import threading

import pytest

import newscrawl.extract.api as api
from newscrawl.gcpause import gc_paused

PAGE = (b"<html><head><title>A headline</title><style>.lead{font-size:20px}</style></head>"
        b"<body><h1>A headline</h1><p class='lead'>" + b"Some words of the article. " * 20
        + b"</p></body></html>")


@pytest.fixture
def collector_enabled():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_extract_pauses_the_collector_and_restores_it(collector_enabled, monkeypatch):
    seen: list[bool] = []
    real = api.extract_page

    def spy(*args, **kwargs):
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(api, "extract_page", spy)
    article = api.extract(PAGE, "http://127.0.0.1/a")
    assert article.title == "A headline"
    assert seen == [False]
    assert gc.isenabled()


def test_a_disabled_collector_stays_disabled(collector_enabled):
    gc.disable()
    api.extract(PAGE, "http://127.0.0.1/a")
    assert not gc.isenabled()


def test_nested_pauses_resume_only_at_the_outermost_end(collector_enabled):
    with gc_paused():
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_an_exception_ends_the_pause(collector_enabled):
    with pytest.raises(RuntimeError):
        with gc_paused():
            raise RuntimeError("boom")
    assert gc.isenabled()


def test_threads_share_one_pause(collector_enabled):
    inside = threading.Barrier(2)
    first_left = threading.Event()
    states: dict[str, bool] = {}

    def first() -> None:
        with gc_paused():
            inside.wait()
        first_left.set()

    def second() -> None:
        with gc_paused():
            inside.wait()
            first_left.wait()
            states["after the other left"] = gc.isenabled()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert states == {"after the other left": False}
    assert gc.isenabled()


def test_a_page_leaves_no_cyclic_garbage():
    """Run in a fresh interpreter: objects other tests leave behind (Scrapy's signal weakrefs)
    can die during any call and would be counted here."""
    script = (
        "import gc, sys\n"
        "import newscrawl.extract.api as api\n"
        "page = sys.stdin.buffer.read()\n"
        "api.extract(page, 'http://127.0.0.1/a')\n"  # warm caches and models
        "gc.collect(); gc.disable()\n"
        "api.extract(page, 'http://127.0.0.1/b')\n"
        "print(gc.collect())\n"
    )
    done = subprocess.run([sys.executable, "-c", script], input=PAGE, capture_output=True,
                          timeout=300, check=True)
    assert done.stdout.split()[-1] == b"0"  # what the pause defers would otherwise pile up
