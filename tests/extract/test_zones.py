"""A UTC publication instant is dated on the publisher's local day where the page's language, its
tag's region or its domain's country says the zone (docs/decisions/dates-news.md)."""

from __future__ import annotations

import pytest

from newscrawl.extract import extract
from newscrawl.extract.zones import in_publisher_zone, publisher_zone

PARAS = "".join(
    f"<p>{p}</p>"
    for p in (
        "Der Stadtrat hat am Abend nach langer Debatte den neuen Plan für die Wasserversorgung beschlossen.",
        "Landwirte in den südlichen Tälern hatten klarere Regeln für die Bewässerung in trockenen Sommern gefordert.",
        "Der Plan setzt Grenzen für jeden Bezirk und schafft einen Fonds für die Reparatur alter Kanäle.",
    )
)


def page(lang: str, published: str) -> str:
    return f"""<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>Wasserplan beschlossen</title>
<meta property="article:published_time" content="{published}"></head><body><main><article>
<h1>Wasserplan beschlossen</h1>{PARAS}</article></main></body></html>"""


def test_a_utc_instant_on_a_german_page_is_dated_on_the_berlin_day():
    art = extract(page("de", "2022-11-06T23:00:00.000Z"), "https://zeitung.example/wasserplan")
    assert art.published == "2022-11-07T00:00:00+01:00"  # the same instant, in winter time
    art = extract(page("de", "2022-07-06T22:30:00Z"), "https://zeitung.example/wasserplan")
    assert art.published == "2022-07-07T00:30:00+02:00"  # in summer time


def test_a_page_of_a_language_spoken_in_many_zones_keeps_utc():
    art = extract(page("en", "2022-11-06T23:00:00Z"), "https://paper.example/water-plan")
    assert art.published == "2022-11-06T23:00:00+00:00"


@pytest.mark.parametrize(
    "language, url, zone",
    [
        ("de", None, (1.0, True)),
        ("fr", "https://journal.example.fr/a", (1.0, True)),
        ("fr", "https://ici.radio-canada.ca/a", None),  # the domain's country: several zones
        ("fr-CA", None, None),
        ("pt-BR", None, (-3.0, False)),
        ("pt", None, None),  # Portugal or Brazil: the language alone does not say
        ("en-GB", None, (0.0, True)),
        ("en", "https://www.bbc.co.uk/news/1", (0.0, True)),
        ("en", "https://paper.example.com/a", None),
        ("es-XX", None, None),  # a region the table does not know: no guess from the language
        ("ja", None, (9.0, False)),
        (None, None, None),
    ],
)
def test_the_zone_comes_from_the_tags_region_then_the_domain_then_the_language(language, url, zone):
    assert publisher_zone(language, url) == zone


@pytest.mark.parametrize(
    "value, language, expected",
    [
        ("2023-03-26T00:59:00+00:00", "de", "2023-03-26T01:59:00+01:00"),  # summer time starts at 01:00 UTC
        ("2023-03-26T01:00:00+00:00", "de", "2023-03-26T03:00:00+02:00"),
        ("2023-10-29T00:30:00+00:00", "fi", "2023-10-29T03:30:00+03:00"),  # ... and ends at 01:00 UTC
        ("2023-10-29T01:30:00+00:00", "fi", "2023-10-29T03:30:00+02:00"),
        ("2019-03-02T20:18:32Z", "ja", "2019-03-03T05:18:32+09:00"),
        ("2022-05-04T01:49:00+00:00", "pt-BR", "2022-05-03T22:49:00-03:00"),
        ("2022-05-04T00:00:00+00:00", "pt-BR", "2022-05-04T00:00:00+00:00"),  # a bare day as UTC midnight
        ("2022-05-04T10:00:00+02:00", "de", "2022-05-04T10:00:00+02:00"),  # already a local time
        ("2022-05-04T10:00:00", "de", "2022-05-04T10:00:00"),  # no zone: nothing to convert
        ("2022-05-04", "de", "2022-05-04"),
        ("2023-01-10T12:00:00+00:00", "en-GB", "2023-01-10T12:00:00+00:00"),  # winter in London is UTC
        ("not a date T", "de", "not a date T"),
    ],
)
def test_only_a_utc_instant_is_rewritten_as_the_same_instant(value, language, expected):
    assert in_publisher_zone(value, language) == expected
