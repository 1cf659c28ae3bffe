"""The publisher's local time of a UTC timestamp, where the page's language says the time zone.

Metadata often states the publication instant in UTC (``2022-11-06T23:00:00Z``) while the story's
date is the newsroom's local day (7 November in Berlin). For a language spoken in one time zone (or
a language tag whose region names one), the instant is rewritten in that zone: the same instant, on
the day the page's readers see."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta, timezone
from urllib.parse import urlsplit

# (standard UTC offset in hours, whether the zone keeps European summer time)
_CET, _EET, _WET = (1.0, True), (2.0, True), (0.0, True)
LANGUAGE_ZONES: dict[str, tuple[float, bool]] = {
    **dict.fromkeys(("de", "it", "nl", "pl", "cs", "sk", "hu", "hr", "sl", "sr", "bs", "da", "sv"), _CET),
    **dict.fromkeys(("nb", "nn", "no", "lb", "mt", "sq", "mk", "fr"), _CET),
    **dict.fromkeys(("el", "fi", "bg", "ro", "et", "lv", "lt", "uk"), _EET),
    "ja": (9.0, False),
    "ko": (9.0, False),
    "zh": (8.0, False),
    "tr": (3.0, False),
}
# a language tag's region overrides its language (French in Canada, Spanish in Spain, ...)
REGION_ZONES: dict[str, tuple[float, bool] | None] = {
    **dict.fromkeys(("de", "at", "ch", "it", "nl", "be", "fr", "es", "pl", "cz", "se", "dk", "no"), _CET),
    **dict.fromkeys(("gb", "uk", "ie", "pt"), _WET),
    **dict.fromkeys(("gr", "fi", "ro", "bg", "ua"), _EET),
    "br": (-3.0, False),
    "in": (5.5, False),
    "jp": (9.0, False),
    "kr": (9.0, False),
    "cn": (8.0, False),
    "tw": (8.0, False),
    "hk": (8.0, False),
    "sg": (8.0, False),
    **dict.fromkeys(("ca", "us", "mx", "au", "ru", "ar", "co", "cl", "pe"), None),  # several zones, or unknown
}


def publisher_zone(language: str | None, url: str | None = None) -> tuple[float, bool] | None:
    """The zone a page in ``language`` (``de``, ``fr-CA``, ``pt_BR``) at ``url`` is published in,
    when one: the tag's region, else the country of the URL's domain (``.ca``, ``.be``), else the
    language. A region this table does not know, or one of several zones, gives none."""
    parts = (language or "").replace("_", "-").lower().split("-")
    region = parts[1] if len(parts) > 1 and len(parts[1]) == 2 else None
    if region is None and url:
        host = urlsplit(url).hostname or ""
        suffix = host.rsplit(".", 1)[-1]
        region = suffix if suffix in REGION_ZONES else None
    if region is not None:
        return REGION_ZONES.get(region)
    return LANGUAGE_ZONES.get(parts[0])


def _last_sunday(year: int, month: int) -> date:
    day = date(year, month + 1, 1) - timedelta(days=1)
    return day - timedelta(days=(day.weekday() + 1) % 7)


def _european_summer(moment: datetime) -> bool:
    """Whether the UTC ``moment`` falls in European summer time (last Sunday of March, 01:00 UTC,
    to last Sunday of October, 01:00 UTC)."""
    start = datetime.combine(_last_sunday(moment.year, 3), datetime.min.time(), UTC) + timedelta(hours=1)
    end = datetime.combine(_last_sunday(moment.year, 10), datetime.min.time(), UTC) + timedelta(hours=1)
    return start <= moment < end


def in_publisher_zone(value: str, language: str | None, url: str | None = None) -> str:
    """``value`` (ISO 8601) rewritten in the publisher's zone (:func:`publisher_zone`) when it is a
    UTC instant; any other value (a day, a local time, an unknown zone, UTC midnight: a day that a
    CMS wrote as a time) as it is."""
    zone = publisher_zone(language, url)
    if zone is None or "T" not in value:
        return value
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return value
    if moment.utcoffset() != timedelta(0) or moment.time() == time(0):
        return value  # a local time already, or a bare day written as UTC midnight
    hours, summer = zone
    if summer and _european_summer(moment):
        hours += 1
    if hours == 0:
        return value
    return moment.astimezone(timezone(timedelta(hours=hours))).isoformat(timespec="seconds")
