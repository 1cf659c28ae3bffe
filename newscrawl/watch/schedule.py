"""Revisit intervals: each front (home page, section front, feed, sitemap) is re-read as often as
it yields new articles, within bounds.

Plain Python. A front that yielded something is due again after half its interval, one that
yielded nothing after 1.5 times it, clamped to ``[low, high]``: a busy home page stays at the
lower bound, a monthly archive sitemap drifts to the upper one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$")
_UNIT = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
SHRINK, GROW = 0.5, 1.5
DUE_SLACK = 0.1  # a front due within 10% of the lower bound counts as due (cron jitter)


def parse_duration(text: str) -> float:
    """Seconds of ``"90"``, ``"90s"``, ``"15m"``, ``"2h"`` or ``"1d"``."""
    match = _DURATION.match(text)
    if not match:
        raise ValueError(f"not a duration: {text!r} (use e.g. 90s, 15m, 2h)")
    return float(match.group(1)) * _UNIT[match.group(2)]


@dataclass(frozen=True)
class Bounds:
    low: float
    high: float

    @classmethod
    def parse(cls, text: str, high_factor: float = 8.0) -> Bounds:
        """``"15m"`` (upper bound ``high_factor`` times it) or ``"5m..2h"``."""
        low_text, sep, high_text = text.partition("..")
        low = parse_duration(low_text)
        high = parse_duration(high_text) if sep else low * high_factor
        if high < low:
            raise ValueError(f"revisit bounds {text!r}: upper bound below lower bound")
        return cls(low, high)

    def clamp(self, seconds: float) -> float:
        return min(self.high, max(self.low, seconds))


def next_interval(current: float | None, found_new: int, bounds: Bounds) -> float:
    """The interval after a visit that found ``found_new`` new article links."""
    if current is None or current <= 0:
        return bounds.low
    return bounds.clamp(current * (SHRINK if found_new else GROW))


def is_due(next_due: float | None, now: float, bounds: Bounds) -> bool:
    return next_due is None or next_due <= now + DUE_SLACK * bounds.low
