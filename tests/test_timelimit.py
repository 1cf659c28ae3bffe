"""newscrawl.timelimit: a page that runs too long is stopped, and the extract core does not swallow it."""

from __future__ import annotations

import gc
import signal
import threading

import pytest

from newscrawl.timelimit import TimeLimitExceeded, time_limit


def spin() -> None:
    while True:
        pass


def _timer_kept(before: float) -> bool:
    """The real-time timer is as before the block (pytest-timeout may have one running)."""
    left = signal.getitimer(signal.ITIMER_REAL)[0]
    return left == 0.0 if before == 0.0 else before - 5.0 < left <= before


def test_a_call_past_its_limit_is_stopped_and_the_handler_restored() -> None:
    before, timer = signal.getsignal(signal.SIGALRM), signal.getitimer(signal.ITIMER_REAL)[0]
    with pytest.raises(TimeLimitExceeded, match="0.05 s"):
        with time_limit(0.05):
            spin()
    assert signal.getsignal(signal.SIGALRM) is before
    assert _timer_kept(timer)


def test_no_limit_and_quick_calls() -> None:
    timer = signal.getitimer(signal.ITIMER_REAL)[0]
    with time_limit(0):
        total = sum(range(1000))
    with time_limit(30):
        total += 1
    assert total == 499501
    assert _timer_kept(timer)


def test_outside_the_main_thread_the_call_runs_unlimited() -> None:
    done: list[bool] = []

    def work() -> None:
        with time_limit(0.01):  # signal timers belong to the main thread: no limit, no error
            done.append(True)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert done == [True]


def test_the_extract_core_lets_the_time_limit_through() -> None:
    # extract() turns a page's exceptions into warnings; a page stopped for time must not look like
    # an empty article
    from newscrawl.extract import extract
    from newscrawl.timelimit import page_time_limit

    html = "<html><body>" + "".join(f"<div><p>Paragraph {i} of a long page.</p></div>" for i in range(20000)) + "</body></html>"
    enabled = gc.isenabled()
    with pytest.raises(TimeLimitExceeded):
        with page_time_limit(0.001):  # recovers the collector pause however the stop landed
            extract(html, "https://example.com/long")
    assert gc.isenabled() == enabled


@pytest.mark.parametrize("stopped_at", ["inside the pause", "between disabling and counting"])
def test_recover_puts_the_collector_back_after_a_stop_midway(stopped_at: str) -> None:
    import newscrawl.gcpause as gcpause

    gc.enable()
    gcpause._holding = True
    gc.disable()
    if stopped_at == "inside the pause":  # stopped in the pause's closing bookkeeping, still counted
        gcpause._depth = 1
    assert not gc.isenabled()
    gcpause.recover()
    assert gc.isenabled() and gcpause._depth == 0
    with gcpause.gc_paused():  # and the pause works as before
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_callers_own_alarm_is_kept() -> None:
    fired: list[int] = []
    timer = signal.getitimer(signal.ITIMER_REAL)  # pytest-timeout's, if it runs one: put back below
    outer = signal.signal(signal.SIGALRM, lambda signum, frame: fired.append(signum))
    try:
        signal.setitimer(signal.ITIMER_REAL, 50.0)
        with pytest.raises(TimeLimitExceeded):
            with time_limit(0.05):
                spin()
        left = signal.getitimer(signal.ITIMER_REAL)[0]
        assert 45.0 < left <= 50.0  # re-armed with the time it had left
        assert signal.getsignal(signal.SIGALRM) is not None and not fired
        signal.setitimer(signal.ITIMER_REAL, 0.02)  # an alarm due before the limit: the block runs under it
        with time_limit(30):
            while not fired:
                pass
        assert fired == [signal.SIGALRM]
    finally:
        signal.signal(signal.SIGALRM, outer)
        signal.setitimer(signal.ITIMER_REAL, *timer)


def test_the_handler_is_put_back_when_the_timer_expires_during_clean_up(monkeypatch: pytest.MonkeyPatch) -> None:
    # the block finished just at the deadline: the alarm lands while the timer is being cancelled
    real = signal.setitimer
    before = signal.getsignal(signal.SIGALRM)

    def expiring(which: int, seconds: float, *interval: float) -> tuple[float, float]:
        if seconds == 0:
            monkeypatch.setattr(signal, "setitimer", real)
            real(which, 0)
            raise TimeLimitExceeded("no result within 30 s")
        return real(which, seconds, *interval)

    monkeypatch.setattr(signal, "setitimer", expiring)
    with pytest.raises(TimeLimitExceeded):
        with time_limit(30):
            pass
    assert signal.getsignal(signal.SIGALRM) is before


def test_recover_leaves_a_collector_the_caller_disabled_off() -> None:
    # a stop before the pause began (while the page was parsed): nothing of the pause's to undo
    import newscrawl.gcpause as gcpause

    with gcpause.gc_paused():  # an earlier page, the collector enabled
        pass
    gc.disable()
    try:
        gcpause.recover()
        assert not gc.isenabled()
    finally:
        gc.enable()
