"""parse_date / parse_machine_date / find_date_in_url on generated strings in many languages."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from newscrawl.extract.dates import find_date_in_url, is_publish_label, other_reading, parse_date, parse_machine_date

TODAY = date(2024, 6, 1)


@pytest.mark.parametrize(("text", "expected"), [
    # ISO and machine-like forms
    ("2021-03-04", "2021-03-04"),
    ("2021-03-04T10:05:00Z", "2021-03-04T10:05:00+00:00"),
    ("2021-03-04 10:05:07+0200", "2021-03-04T10:05:07+02:00"),
    ("2021/03/04", "2021-03-04"),
    ("2021.03.04.", "2021-03-04"),
    # numeric day-first with dots and dashes
    ("04.03.2021", "2021-03-04"),
    ("4. 3. 2021", "2021-03-04"),
    ("04.03.21", "2021-03-04"),
    ("Kultur, 2.11.22", "2022-11-02"),
    ("04-03-2021", "2021-03-04"),
    # slashes: month-first unless impossible
    ("03/04/2021", "2021-03-04"),
    ("25/12/2020", "2020-12-25"),
    ("12/25/2020", "2020-12-25"),
    # English
    ("March 4, 2021", "2021-03-04"),
    ("Mar. 4th, 2021", "2021-03-04"),
    ("4 March 2021", "2021-03-04"),
    ("on 04-Mar-2021 5:11:10", "2021-03-04T05:11:10"),
    ("04/mar/2021", "2021-03-04"),
    ("Thursday, 4th of March 2021", "2021-03-04"),
    ("Updated: March 4, 2021 at 5:30 p.m.", "2021-03-04T17:30:00"),
    ("Published 12:00 AM, Jan 1, 2020", "2020-01-01"),
    # German
    ("Donnerstag, 4. März 2021, 10:45 Uhr", "2021-03-04T10:45:00"),
    ("4. Maerz 2021", "2021-03-04"),
    ("veröffentlicht am 17. Jänner 2022", "2022-01-17"),
    # Polish (genitive month names, the trafilatura-eval set has many)
    ("4 marca 2021 r.", "2021-03-04"),
    ("Opublikowano: 12 września 2023, 14:30", "2023-09-12T14:30:00"),
    ("22 października 2022", "2022-10-22"),
    ("1 lip 2020", "2020-07-01"),
    # French, Spanish, Italian, Portuguese, Dutch
    ("1er mars 2021", "2021-03-01"),
    ("Publié le 12 décembre 2019 à 08h15", "2019-12-12T08:15:00"),
    ("1 de marzo de 2021", "2021-03-01"),
    ("el 04-ago-2021", "2021-08-04"),
    ("12 dicembre 2019", "2019-12-12"),
    ("5 de agosto de 2020", "2020-08-05"),
    ("12 mei 2022", "2022-05-12"),
    ("3 maart 2022", "2022-03-03"),
    # Czech, Slovak, Swedish, Danish, Hungarian, Romanian, Turkish, Russian, Ukrainian, Finnish
    ("15. listopadu 2022", "2022-11-15"),
    ("3. októbra 2021", "2021-10-03"),
    ("14 maj 2022", "2022-05-14"),
    ("2. februar 2023", "2023-02-02"),
    ("2021. március 12.", "2021-03-12"),
    ("12 ianuarie 2021", "2021-01-12"),
    ("12 Ağustos 2021", "2021-08-12"),
    ("12 октября 2022 г.", "2022-10-12"),
    ("5 травня 2021", "2021-05-05"),
    ("5. toukokuuta 2021", "2021-05-05"),
    # CJK and Korean
    ("2021年3月12日", "2021-03-12"),
    ("2021년 3월 12일", "2021-03-12"),
])
def test_formats_and_languages(text: str, expected: str) -> None:
    assert parse_date(text, today=TODAY) == expected


@pytest.mark.parametrize("text", [
    "", "no date here", "March 2021", "Version 1.2.15", "v3.10.12", "1.2.15", "Call 030 1234 5678", "Feb 30, 2021", "31.04.2021",
    "1 janvier 1985", "12.12.1989", "2025-01-01", "June 3, 2024",
])
def test_rejections(text: str) -> None:
    assert parse_date(text, today=TODAY) is None


def test_tomorrow_is_allowed_for_time_zones() -> None:
    assert parse_date("June 2, 2024", today=TODAY) == "2024-06-02"


def test_dayfirst_switch() -> None:
    assert parse_date("03/04/2021", today=TODAY, dayfirst=True) == "2021-04-03"
    assert parse_date("11.03.17", today=TODAY, dayfirst=False) == "2017-11-03"
    assert parse_date("11.03.17", today=TODAY) == "2017-03-11"
    assert parse_date("10.15.15", today=TODAY) == "2015-10-15"  # only one reading is possible
    assert parse_date("25.12.2020", today=TODAY, dayfirst=False) == "2020-12-25"


def test_published_beats_updated_in_one_text() -> None:
    text = "Aktualisiert am 05.03.2021, veröffentlicht am 01.03.2021"
    assert parse_date(text, today=TODAY) == "2021-03-01"
    assert parse_date("Updated 5 May 2021 | 1 May 2021", today=TODAY) == "2021-05-01"


def test_relative_dates_need_an_anchor() -> None:
    assert parse_date("3 days ago") is None
    assert parse_date("3 days ago", today=TODAY) == "2024-05-29"
    assert parse_date("vor 2 Tagen", today=TODAY) == "2024-05-30"
    assert parse_date("3 dni temu", today=TODAY) == "2024-05-29"
    assert parse_date("yesterday", today=TODAY) == "2024-05-31"
    assert parse_date("heute, 10:30", today=TODAY) == "2024-06-01"
    assert parse_date("il y a 2 jours", today=TODAY) == "2024-05-30"
    assert parse_date("vor 3 Stunden", today=datetime(2024, 6, 1, 1, 0)) == "2024-05-31"


def test_long_texts_are_scanned_only_at_the_start() -> None:
    assert parse_date("x" * 1000 + " 4 March 2021", today=TODAY) is None
    assert parse_date("4 March 2021 " + "x" * 1000, today=TODAY) == "2021-03-04"


@pytest.mark.parametrize(("value", "expected"), [
    ("2021-03-04T10:00:00+0200", "2021-03-04T10:00:00+02:00"),
    ("2021-03-04T10:00:00.123Z", "2021-03-04T10:00:00+00:00"),
    ("2021-03-04", "2021-03-04"),
    (1620000000, "2021-05-03T00:00:00+00:00"),
    ("1620000000000", "2021-05-03T00:00:00+00:00"),
    ("Mon, 01 Mar 2021 10:00:00 GMT", "2021-03-01T10:00:00"),
    ("garbage", None),
    (None, None),
    ("2999-01-01", None),
    ("1989-12-31T00:00:00Z", None),
])
def test_machine_dates(value: object, expected: str | None) -> None:
    assert parse_machine_date(value, today=TODAY) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(("url", "expected"), [
    ("https://ex.com/2021/03/12/slug", "2021-03-12"),
    ("https://ex.com/news/2021-03-12-slug.html", "2021-03-12"),
    ("https://ex.com/news/20210312_slug", "2021-03-12"),
    ("https://ex.com/2021/03/slug", None),
    ("https://ex.com/a/2021-13-01/", None),
    ("https://ex.com/item/1234567890", None),
    ("https://ex.com/?date=2021-03-12", None),
    ("https://ex.com/blog/2023/october/03/slug", "2023-10-03"),
    ("https://ex.com/2019/Mar/5", "2019-03-05"),
    ("https://ex.com/2019/M%C3%A4rz/05/", "2019-03-05"),
    ("https://ex.com/2019/march/5x", None),
    ("https://ex.com/2019/march/", None),
    ("https://ex.com/2019/marching/05/", None),
    (None, None),
])
def test_find_date_in_url(url: str | None, expected: str | None) -> None:
    assert find_date_in_url(url, today=TODAY) == expected


@pytest.mark.parametrize(("text", "value", "expected"), [
    ("03-09-2026", "2026-09-03", "2026-03-09"),
    ("05/08/22", "2022-05-08", "2022-08-05"),
    ("Posted 10.12.2022, 08:00", "2022-12-10T08:00:00", "2022-10-12"),
    ("2026-03-09", "2026-03-09", None),  # year first: never day-first
    ("March 9, 2026", "2026-03-09", None),  # the month in words
    ("13/11/2025", "2025-11-13", None),  # only one reading is a date
    ("05/05/2022", "2022-05-05", None),  # both readings are the same day
    ("03-09-2025", "2026-09-03", None),  # not the text of that value
    (None, "2026-09-03", None),
])
def test_other_reading(text: str | None, value: str, expected: str | None) -> None:
    assert other_reading(text, value) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("Published", True), ("Published on:", True), ("  Veröffentlicht am ", True), ("Publicado el", True),
    ("Date published:", True), ("Posted", True),
    ("Published by Kim", False), ("Updated", False), ("Published March 3, 2021", False), ("Publisher", False),
])
def test_is_publish_label(text: str, expected: bool) -> None:
    assert is_publish_label(text) is expected


@pytest.mark.parametrize("text, day", [
    ("29 / Dezember / 2022", "2022-12-29"),
    ("29 - Dezember - 2022", "2022-12-29"),
    ("4 / mayo / 2022", "2022-05-04"),
    ("29-Dez-2022", "2022-12-29"),
])
def test_a_day_month_name_and_year_set_apart_by_spaced_slashes_or_dashes(text, day):
    assert parse_date(text) == day
