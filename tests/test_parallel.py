"""newscrawl.parallel.ordered_map: input order, bounded read-ahead, failures and dying workers.

Worker processes are spawned, so the functions they run live in a helper module written to a
temporary folder on sys.path (spawned workers get the parent's sys.path), not in this test module
(importlib import mode: a test module cannot be imported by name)."""

from __future__ import annotations

import importlib
import os
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

from newscrawl.parallel import (
    IN_FLIGHT_PER_WORKER, Failed, WorkersCannotRun, ordered_map, resolve_workers,
)

HELPERS = '''
import os, time
STATE = {"base": 0}

def setup(base):
    STATE["base"] = base

def shifted(x):
    return STATE["base"] + x

def slow_square(x):
    time.sleep(0.02 * ((7 * x) % 5))  # later items often finish first
    return x * x

def die_on_three(x):
    if x == 3:
        os._exit(7)  # the worker process dies, as when the kernel kills it
    return x * x

def pid_of(x):
    time.sleep(0.05)
    return os.getpid()

def broken_setup():
    raise RuntimeError("cannot start")

def fail_on_two(x):
    if x == 2:
        raise ValueError("two is bad")
    return -x
'''


@pytest.fixture(scope="module")
def helpers(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    folder = tmp_path_factory.mktemp("parallel_helpers")
    (folder / "nc_parallel_helpers.py").write_text(textwrap.dedent(HELPERS), encoding="utf-8")
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module("nc_parallel_helpers")
    finally:
        sys.path.remove(str(folder))
        sys.modules.pop("nc_parallel_helpers", None)


def test_results_come_in_input_order(helpers: ModuleType) -> None:
    items = list(range(20))
    pooled = list(ordered_map(helpers.slow_square, items, 2))
    assert pooled == [(x, x * x) for x in items]
    assert list(ordered_map(helpers.slow_square, items, 1)) == pooled


def test_the_item_that_kills_its_worker_is_reported_and_the_rest_go_on(helpers: ModuleType) -> None:
    items = list(range(25))  # more than the in-flight window, so work goes on in a new pool
    out = list(ordered_map(helpers.die_on_three, items, 2))
    assert [item for item, _ in out] == items
    assert isinstance(out[3][1], Failed) and "died" in out[3][1].reason
    assert [result for item, result in out if item != 3] == [x * x for x in items if x != 3]


def test_workers_that_cannot_start_stop_the_map_instead_of_failing_every_item(helpers: ModuleType) -> None:
    results = ordered_map(helpers.slow_square, range(1000), 2, initializer=helpers.broken_setup)
    with pytest.raises(WorkersCannotRun):
        for _, outcome in results:
            assert isinstance(outcome, Failed) and outcome.died  # the few before the limit


@pytest.mark.parametrize("workers", [1, 2])
def test_an_exception_fails_only_its_item(helpers: ModuleType, workers: int) -> None:
    out = dict(ordered_map(helpers.fail_on_two, range(6), workers))
    assert out[2] == Failed("ValueError: two is bad")
    assert [out[x] for x in (0, 1, 3, 4, 5)] == [0, -1, -3, -4, -5]


@pytest.mark.parametrize("workers", [1, 2])
def test_the_initializer_builds_each_processs_state(helpers: ModuleType, workers: int) -> None:
    out = list(ordered_map(helpers.shifted, range(5), workers, initializer=helpers.setup, initargs=(100,)))
    assert out == [(x, 100 + x) for x in range(5)]


def test_the_input_is_read_only_a_few_items_ahead(helpers: ModuleType) -> None:
    pulled: list[int] = []

    def source():
        for x in range(1000):
            pulled.append(x)
            yield x

    results = ordered_map(helpers.slow_square, source(), 2)
    assert next(results) == (0, 0)
    assert len(pulled) <= IN_FLIGHT_PER_WORKER * 2 + 1
    results.close()  # stopping early shuts the workers down


def test_workers_setting() -> None:
    assert resolve_workers(3) == 3
    assert resolve_workers(0) == (os.cpu_count() or 1)
    with pytest.raises(ValueError):
        resolve_workers(-1)


def test_python_dash_m_newscrawl_can_start_workers(tmp_path: Path) -> None:
    # spawned workers import the parent's __main__ module; `python -m newscrawl` must not rerun the CLI there
    import subprocess

    (tmp_path / "p.html").write_text("<html><head><title>T</title></head><body><p>Some text here.</p></body></html>")
    (tmp_path / "m.jsonl").write_text('{"id": 1, "path": "p.html"}\n{"id": 2, "path": "p.html"}\n')
    done = subprocess.run([sys.executable, "-m", "newscrawl", "extract", "--batch", str(tmp_path / "m.jsonl"),
                           "--workers", "2"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.startswith('{"id": 1') for line in lines] == [True, False] and len(lines) == 2


def test_workers_end_when_their_parent_is_killed(helpers: ModuleType, tmp_path: Path) -> None:
    # a parent killed outright runs no clean-up; its workers must not live on as orphans
    import signal
    import subprocess
    import time

    script = ("from newscrawl.parallel import ordered_map\n"
              "from nc_parallel_helpers import pid_of\n"
              "for _, pid in ordered_map(pid_of, iter(int, 1), 2):\n"
              "    print(pid, flush=True)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(helpers.__file__).parent), *sys.path])}
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, env=env, text=True)
    assert parent.stdout is not None
    workers: set[int] = set()
    for _ in range(400):  # an endless input keeps the pool busy; both workers show up
        workers.add(int(parent.stdout.readline()))
        if len(workers) == 2:
            break
    assert len(workers) == 2 and parent.pid not in workers
    parent.send_signal(signal.SIGKILL)
    parent.wait(timeout=30)
    deadline = time.monotonic() + 30
    alive = set(workers)
    while alive and time.monotonic() < deadline:
        time.sleep(0.2)
        alive = {pid for pid in alive if _running(pid)}
    assert not alive, f"workers {alive} outlived their parent"


def _running(pid: int) -> bool:
    """The process exists and is no zombie (an exited orphan waits for init to reap it)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state != "Z"
